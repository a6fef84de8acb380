/*
 * msg.h: the message layer, src/msg/ (docs/messages.md).  Tagged two-sided messages
 * written on the comm layer's one-sided operations: each PE holds, in symmetric
 * memory, a ring of fixed-size slots per source that senders fill with one
 * put-with-signal; small messages travel inside the slot (eager), larger ones leave
 * their location in it and the receiver pulls them with a get (rendezvous).
 * Arguments are assumed valid: the API layer (src/api/msg.c) checks them.
 */
#ifndef OFS_MSG_H
#define OFS_MSG_H

#include "ofs.h"

#include <stddef.h>
#include <stdint.h>

#define MSG_ANY (-1)              /* a receive's source or tag: any */
#define MSG_REQ_MAGIC 0x6f6d7367u /* "omsg": a request the program may wait on */
#define MSG_ERR_TRUNCATE 1        /* the message was longer than the receive buffer */

enum msg_req_kind { MSG_REQ_SEND = 1, MSG_REQ_RECV = 2 };

/* A send or a receive in flight.  Blocking calls keep theirs on the stack; the
 * non-blocking ones take it from the handle table (msg_req_new). */
struct msg_req {
    uint32_t magic; /* MSG_REQ_MAGIC while it is a live handle (first word) */
    int kind;
    int done;      /* complete (set under the engine's lock) */
    int err;       /* 0 or MSG_ERR_TRUNCATE (receives) */
    int pe, tag;   /* send: destination; receive: wanted source and tag (MSG_ANY) */
    char *buf;     /* send: the data; receive: where it goes */
    size_t len;    /* send: bytes; receive: capacity */
    size_t posted; /* send: bytes handed to the destination's ring */
    int all_posted;
    int fins;        /* send: rendezvous pieces the receiver has not pulled yet */
    int seg;         /* send: the buffer's symmetric segment, or -1 (private) */
    size_t seg_off;  /* ... and its offset there */
    int cma;         /* send: a private buffer the receiver may read by CMA (same node) */
    uint64_t resend; /* send: staged again after a failed CMA read: that record's id, gen */
    struct msg_req *next;
    int st_source, st_tag; /* receive: what arrived */
    size_t st_len;
};

/* Start-up (after comm_init, before anything allocates and frees heap blocks: the
 * rings must start zeroed) and shut-down. */
/* bytes of the symmetric heap msg_init will take (heap.h, heap_set_internal) */
size_t msg_heap_need(void) OFS_HIDDEN;
ofs_status_t msg_init(void) OFS_HIDDEN;
void msg_fini(void) OFS_HIDDEN;
/* shmem_finalize, after its quiet: this PE serves no more messages; senders still
 * waiting for it drop what they had for it (their sends complete; docs/messages.md). */
void msg_bye(void) OFS_HIDDEN;
/* Nonzero when messages are on (SHMEM_MSG_SLOTS > 0) and initialised. */
int msg_enabled(void) OFS_HIDDEN;

/* Handles: a zeroed request from the handle table (NULL when all are in use), its
 * release (the handle reads as dead from then on), and the validity test (never
 * dereferences a pointer that is not one of ours). */
struct msg_req *msg_req_new(void) OFS_HIDDEN;
void msg_req_free(struct msg_req *r) OFS_HIDDEN;
int msg_req_valid(const void *h) OFS_HIDDEN;

/* Start a send of len bytes of buf to pe (the buffer stays the library's until the
 * request is done; with zcopy, a long message from symmetric memory is pulled from buf
 * itself, and one from private memory is read from buf by CMA where the receiver can,
 * else copied to the stage first), or a receive of at most len bytes into buf. */
void msg_send_start(struct msg_req *r, int pe, int tag, const void *buf, size_t len, int zcopy)
    OFS_HIDDEN;
void msg_recv_start(struct msg_req *r, int src, int tag, void *buf, size_t len) OFS_HIDDEN;
/* Wait for r (serving this PE's incoming messages meanwhile), or look once: 1 when done.
 * routine names the caller in the error that ends a receive which can never complete
 * (its source has reached shmem_finalize without a matching message). */
void msg_req_wait(struct msg_req *r, const char *routine) OFS_HIDDEN;
int msg_req_test(struct msg_req *r, const char *routine) OFS_HIDDEN;

/* A message from src with tag (either MSG_ANY) that no receive has taken yet:
 * blocking (block = 1) or one look.  Returns 1 and fills the out-parameters when
 * there is one. */
int msg_probe(int src, int tag, int block, int *src_p, int *tag_p, size_t *len_p) OFS_HIDDEN;

#endif
