/*
 * msg_internal.h: the message engine's private state, shared by its two files
 * (docs/messages.md): msg_engine.c (start-up, handles, receiving, matching, waiting) and
 * msg_send.c (sending: records, credits, rendezvous ids, the stage).
 */
#ifndef OFS_MSG_INTERNAL_H
#define OFS_MSG_INTERNAL_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* process_vm_readv */
#endif
#include "ofs.h"
#include "heap.h"
#include "comm.h"
#include "ofs_handle.h"
#include "ofs_stats.h"
#include "msg.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#define MSG_HDR 64
#define MSG_RDV_MAX 64       /* rendezvous pieces in flight per PE */
#define MSG_STAGE_PIECES 4   /* a staged piece is at most this part of the stage region */
#define MSG_REQ_SLOT 256     /* bytes per handle-table slot */
#define MSG_REQ_MAX 65536    /* non-blocking requests alive at once */
#define MSG_EAGER_AUTO 32768 /* docs/messages.md: the eager cut-off measured */
/* the stage full this long for a destination: the rest of a private message goes by
 * CMA (SHMEM_MSG_CMA=rest; docs/messages.md) */
#define MSG_STAGE_LAG_NS 50000u
#define MSG_CMA_MIN 65536 /* docs/messages.md: private messages from this size go by CMA */
#define MSG_RING_AUTO_MAX (4 * (MSG_EAGER_AUTO + MSG_HDR)) /* auto ring per source: most */
#define MSG_RING_MIN 256
#define MSG_CLEAN_AHEAD 8192 /* mapped rings: lines the sender zeroes ahead of its records */

/* a wait reads the bye words it waits on (docs/messages.md, "Finalize") at most every
 * MSG_BYE_NS, looking at the clock every MSG_BYE_EVERY looks: over the fabric each read
 * is a get, which must not land in every wait of a ping-pong */
#define MSG_BYE_EVERY 64
#define MSG_BYE_NS 1000000ULL

/* SHMEM_THREAD_MULTIPLE (shmem.h belongs to the api layer): another thread of this PE
 * may still send to it while one waits for SHMEMX_ANY_SOURCE */
#define MSG_THREAD_MULTIPLE 3

#define MSG_RING_BUDGET (2UL << 20) /* auto sizes: rings of all sources, bytes per PE */

/* MSG_FRAG_CMA: a rendezvous of a private buffer that the receiver reads from the
 * sender's memory with process_vm_readv (same node, docs/messages.md) */
enum { MSG_FRAG_EAGER = 1, MSG_FRAG_RDV = 2, MSG_FRAG_WRAP = 3, MSG_FRAG_CMA = 4 };
#define MSG_KIND(k) ((k)&0xffu)
/* kind flags: MSG_F_NEXT0: the sender zeroed the next record's seq word before this
 * record's seq (the receiver need not clear the lines it read); MSG_F_RESEND: a staged
 * piece of a message whose CMA read failed (rseg_off..pid: see msg_hdr) */
#define MSG_F_NEXT0 0x100u
#define MSG_F_RESEND 0x200u

struct msg_hdr {
    uint64_t seq; /* the signal: k + 1 for the k-th record from this source */
    int32_t tag;
    uint32_t kind;
    uint64_t len;                /* the whole message */
    uint64_t frag_off, frag_len; /* this piece */
    uint64_t rseg_off;           /* rendezvous: the sender's (segment << 56) | offset */
    uint32_t rdv_id, rdv_gen;
    uint64_t pid; /* MSG_FRAG_CMA: the sender's pid (rseg_off: its buffer's address);
                   * MSG_F_RESEND: the failed CMA record's (rdv_id << 32) | rdv_gen */
};
_Static_assert(sizeof(struct msg_hdr) == MSG_HDR, "slot header is 64 bytes");

/* A message that has arrived (at least its first piece). */
struct msg_in {
    struct msg_in *next;  /* unexpected list */
    struct msg_in *rnext; /* resend list: its CMA read failed, staged pieces follow */
    uint64_t rkey;        /* ... identified by the CMA record's (rdv_id << 32) | rdv_gen */
    int src, tag;
    size_t len;
    size_t landed; /* bytes of its pieces landed (in buf, or cut off) */
    int bound;     /* buf is where its data goes (or the message is empty) */
    int owned;     /* buf is ours (unexpected data pulled or copied) */
    int complete;  /* every piece landed (unexpected list) */
    char *buf;
    size_t cap;           /* bytes of buf */
    struct msg_req *req;  /* the receive that took it */
    struct msg_hdr *pend; /* rendezvous pieces waiting for a buffer */
    int npend, pcap;
};

struct msg_rdv {
    int used;
    int pe;
    uint32_t gen;
    size_t off;          /* the piece's offset in its message */
    struct msg_req *req; /* a send from a symmetric buffer: it waits for this piece */
    void *stage;         /* a staged piece: its place in the stage region */
};

struct msg_state {
    pthread_mutex_t lock;
    int on, n, me;
    size_t rbytes, eager, rec_max, chunk, batch, stage_len;
    char *ring;
    uint64_t *credit, *fin;
    char *stage;
    struct heap_allocator *stage_a;
    int stage_seg;
    size_t stage_off;
    uint64_t *head, *cred_sent, *sent;   /* [pe] byte positions: read, credited, written */
    uint64_t *hoff;                      /* [src] head % rbytes */
    uint64_t *clean;                     /* [dest] mapped rings: the first word of every
                                          * line from sent to here is 0 (msg_post_rec) */
    uint64_t *nrd, *nwr;                 /* [pe] records read from, written to */
    struct msg_in **cur;                 /* [src] message whose pieces are arriving */
    char **pring;                        /* [pe] this PE's ring at pe where mapped, else NULL */
    struct msg_req **sq_head, **sq_tail; /* [dest] sends with pieces left to post */
    int sq_active;
    struct msg_in *unx_head, *unx_tail;
    int n_unbound;
    struct msg_req *post_head, *post_tail;
    struct msg_rdv rdv[MSG_RDV_MAX];
    int rdv_used;
    uint32_t rdv_gen;

    /* CMA (single-copy rendezvous of private buffers between PEs of one node) */
    uint64_t *cma_word;    /* symmetric: [0] this PE's pid, [1] the address of [0] here,
                         * [2 + src] 1 when this PE reads src's memory by CMA, 2 when not */
    int8_t *cma_to;        /* [dest] 1: CMA to dest, -1: staged, 0: not known yet */
    uint8_t *cma_probed;   /* [src] this PE has tried reading src */
    size_t cma_min;        /* private messages from this many bytes go by CMA */
    int cma_use;           /* SHMEM_MSG_CMA resolved: this PE reads and offers CMA */
    int cma_whole;         /* ... for whole messages; else only for what the stage cannot
                            * take at once (the rest of a message, docs/messages.md) */
    uint64_t *full_since;  /* [dest] CLOCK_MONOTONIC ns since which the stage had no room
                            * for a piece to dest (0: it had at the last try) */
    struct msg_in *resend; /* messages whose CMA read failed, waiting for staged pieces */

    /* shmem_finalize (msg_bye): a PE that has reached it sets its bye word and serves
     * no more messages; a PE waiting on it drops what it still had for it */
    uint64_t *bye;     /* symmetric: 1 once this PE is in shmem_finalize */
    uint8_t *gone;     /* [pe] its bye word read 1: sends to it are dropped */
    unsigned polls;    /* looks of waits and tests (MSG_BYE_EVERY) */
    uint64_t bye_next; /* CLOCK_MONOTONIC ns from which the bye words may be read again */

    char *scratch;
    struct ofs_htab reqs;
};

extern struct msg_state msg_g OFS_HIDDEN;

/* The ring of records from src, at byte position pos. */
static inline struct msg_hdr *msg_rec(int src, uint64_t pos)
{
    return (struct msg_hdr *)(msg_g.ring + (size_t)src * msg_g.rbytes +
                              (size_t)(pos % msg_g.rbytes));
}

/* Bytes of the record of a piece with plen bytes inline. */
static inline size_t msg_rec_bytes(size_t plen)
{
    return (MSG_HDR + plen + 63) & ~(size_t)63;
}

/* A word only one PE writes and its owner reads: a store where it is mapped, else a
 * fabric atomic. */
static inline void msg_word_set(uint64_t *word, uint64_t v, int pe)
{
    uint64_t *p = comm_ptr(word, pe);

    if (p)
        __atomic_store_n(p, v, __ATOMIC_RELEASE);
    else
        comm_amo(COMM_CTX_DEFAULT, COMM_AMO_SET, COMM_DT_U64, word, &v, NULL, NULL, pe, 0);
}

static inline void *msg_alloc(size_t n)
{
    void *p = malloc(n ? n : 1);

    if (!p)
        ofs_fatal(1, "messages: out of memory (%zu bytes for an unexpected message)", n);
    return p;
}

/* msg_send.c: post what the destinations' rings have room for; see which rendezvous
 * pieces their receivers have finished with. */
void msg_sends_advance(void) OFS_HIDDEN;
void msg_fin_poll(void) OFS_HIDDEN;
/* msg_send.c: pe has reached shmem_finalize: drop what this PE still had to send it. */
void msg_drop_dest(int pe) OFS_HIDDEN;
/* msg_send.c: try reading src's memory by CMA once, publish the verdict for src; read n
 * bytes at addr in process pid into dst (0, or -1 with errno when the kernel refuses:
 * the receiver then asks the sender to stage the message, MSG_FIN_NACK). */
void msg_cma_probe(int src) OFS_HIDDEN;
int msg_cma_read(void *dst, uint64_t pid, uint64_t addr, size_t n) OFS_HIDDEN;
/* A fin word that says the receiver could not read the piece by CMA: gen | this bit. */
#define MSG_FIN_NACK (1ULL << 32)

#endif
