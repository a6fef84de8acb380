/* Two-sided messages (shmemx_send(3), docs/messages.md): the checks, then the message
 * layer (src/msg/). */
#include "ofs_api.h"
#include "shmem.h"
#include "shmemx.h"
#include "pshmem.h"
#include "msg.h"
#include "heap.h"

/* The highest user address a 64-bit kernel hands out (x86-64 with 5-level paging:
 * 2^57; aarch64, ppc64, riscv64: less): no buffer ends beyond it. */
#define MSG_ADDR_END (UINTPTR_MAX > 0xffffffffu ? (uintptr_t)1 << 57 : UINTPTR_MAX)

/* len (a send's length, a receive's capacity, arg names it) must describe a buffer that
 * can exist: buf..buf+len inside the address space (SIZE_MAX, SIZE_MAX / 2 or a
 * negative int converted are lengths of no buffer; the engine would read or promise
 * that many bytes). */
static void msg_chk_buf(const char *r, const char *arg, const void *buf, size_t len)
{
    uintptr_t b = (uintptr_t)buf;

    if (OFS_UNLIKELY(buf == NULL && len != 0))
        ofs_bad_input(r, "buf is NULL with %s = %zu bytes", arg, len);
    if (OFS_UNLIKELY(len > MSG_ADDR_END - b))
        ofs_bad_input(r,
                      "%s = %zu is the length of no buffer: buf (%p) + %s runs past the end "
                      "of the address space",
                      arg, len, buf, arg);
}

static void msg_chk_common(const char *r, int tag, int any_tag)
{
    ofs_check_init(r);
    if (OFS_UNLIKELY(!msg_enabled()))
        ofs_bad_input(r, "messages are turned off (SHMEM_MSG_RING_SIZE=0)");
    if (OFS_UNLIKELY(tag < 0 && !(any_tag && tag == SHMEMX_ANY_TAG)))
        ofs_bad_input(r, "tag = %d is negative%s", tag,
                      any_tag                 ? " and not SHMEMX_ANY_TAG"
                      : tag == SHMEMX_ANY_TAG ? " (SHMEMX_ANY_TAG is for receives: a message "
                                                "carries a tag >= 0)"
                                              : " (tags are >= 0)");
}

/* A buffer that starts in symmetric memory lies inside its segment (a block of the
 * symmetric heap, or the data segment): one that runs past the segment's end is no
 * object of the program (the engine would take a send buffer for private memory and
 * read past the end; a receive would write past it).  Two compares per segment. */
static void msg_chk_span(const char *r, const char *arg, const void *buf, size_t len)
{
    size_t off;
    int s;

    if (len == 0 || (s = heap_seg_of(buf, 1, &off)) < 0 || heap_seg_of(buf, len, &off) >= 0)
        return;
    ofs_bad_input(r,
                  "buf (%p) + %s = %zu runs %zu bytes past the end of the symmetric memory "
                  "it starts in (%s): a symmetric buffer must lie inside it",
                  buf, arg, len, len - (heap_g.seg[s].len - off),
                  s == HEAP_SEG_DATA ? "the data segment" : "the symmetric heap");
}

static void msg_chk_send(const char *r, int pe, int tag, const void *buf, size_t len)
{
    msg_chk_common(r, tag, 0);
    msg_chk_buf(r, "len", buf, len);
    msg_chk_span(r, "len", buf, len);
    if (OFS_UNLIKELY(pe < 0 || pe >= ofs_g.n_pes))
        ofs_bad_input(r, "pe = %d is out of range [0, %d)%s", pe, ofs_g.n_pes,
                      pe == SHMEMX_ANY_SOURCE ? " (SHMEMX_ANY_SOURCE is for receives)" : "");
}

static void msg_chk_recv(const char *r, int src, int tag, const void *buf, size_t len)
{
    msg_chk_common(r, tag, 1);
    msg_chk_buf(r, "maxlen", buf, len);
    msg_chk_span(r, "maxlen", buf, len);
    if (OFS_UNLIKELY((src < 0 && src != SHMEMX_ANY_SOURCE) || src >= ofs_g.n_pes))
        ofs_bad_input(r, "src = %d is neither a PE in [0, %d) nor SHMEMX_ANY_SOURCE", src,
                      ofs_g.n_pes);
}

/* The status of a send and of the null handle: empty (its fields would name nothing
 * that the program does not know). */
static void msg_status_empty(shmemx_status_t *status)
{
    if (status)
        *status = (shmemx_status_t){ SHMEMX_ANY_SOURCE, SHMEMX_ANY_TAG, 0, SHMEMX_MSG_OK };
}

/* A receive's status; a send's is empty. */
static void msg_status(const struct msg_req *q, shmemx_status_t *status)
{
    if (q->kind == MSG_REQ_SEND)
        msg_status_empty(status);
    else if (status) {
        status->source = q->st_source;
        status->tag = q->st_tag;
        status->length = q->st_len;
        status->error = q->err;
    }
}

static struct msg_req *msg_req_get(const char *r, shmemx_msg_h *req)
{
    struct msg_req *q;

    if (OFS_UNLIKELY(req == NULL))
        ofs_bad_input(r, "req is NULL");
    q = msg_req_new();
    if (OFS_UNLIKELY(q == NULL))
        ofs_bad_input(r, "too many message requests alive at once (none was waited for?)");
    return q;
}

/* The request is started: from now on its handle is live. */
static int msg_req_publish(struct msg_req *q, shmemx_msg_h *req)
{
    __atomic_store_n(&q->magic, MSG_REQ_MAGIC, __ATOMIC_RELEASE);
    *req = (shmemx_msg_h)q;
    return SHMEMX_MSG_OK;
}

/* A handle the program may wait on; SHMEMX_MSG_H_NULL returns at once. */
static struct msg_req *msg_req_check(const char *r, shmemx_msg_h h)
{
    ofs_check_init(r);
    if (h == SHMEMX_MSG_H_NULL)
        return NULL;
    if (OFS_UNLIKELY(!msg_req_valid(h)))
        ofs_bad_input(r,
                      "req = %p is not a live message request (garbage, or completed "
                      "already by an earlier shmemx_msg_wait or shmemx_msg_test)",
                      (void *)h);
    return (struct msg_req *)h;
}

OFS_API int pshmemx_send(int pe, int tag, const void *buf, size_t len)
{
    struct msg_req q = { .magic = 0 };

    msg_chk_send("shmemx_send", pe, tag, buf, len);
    /* staged, not pulled from a symmetric buf: the send returns without waiting for the
     * receiver (a wait past the spin costs a time slice on a loaded node) */
    msg_send_start(&q, pe, tag, buf, len, 0);
    msg_req_wait(&q, "shmemx_send");
    return SHMEMX_MSG_OK;
}
OFS_WEAK_ALIAS(shmemx_send)

OFS_API int pshmemx_recv(int src, int tag, void *buf, size_t maxlen, shmemx_status_t *status)
{
    struct msg_req q = { .magic = 0 };

    msg_chk_recv("shmemx_recv", src, tag, buf, maxlen);
    msg_recv_start(&q, src, tag, buf, maxlen);
    msg_req_wait(&q, "shmemx_recv");
    msg_status(&q, status);
    return q.err;
}
OFS_WEAK_ALIAS(shmemx_recv)

/* isend (send = 1) and irecv: check, take a handle, start, publish. */
static int msg_istart(const char *r, int send, int pe, int tag, void *buf, size_t len,
                      shmemx_msg_h *req)
{
    struct msg_req *q;

    if (send)
        msg_chk_send(r, pe, tag, buf, len);
    else
        msg_chk_recv(r, pe, tag, buf, len);
    q = msg_req_get(r, req);
    if (send)
        msg_send_start(q, pe, tag, buf, len, 1);
    else
        msg_recv_start(q, pe, tag, buf, len);
    return msg_req_publish(q, req);
}

OFS_API int pshmemx_isend(int pe, int tag, const void *buf, size_t len, shmemx_msg_h *req)
{
    return msg_istart("shmemx_isend", 1, pe, tag, (void *)buf, len, req);
}
OFS_WEAK_ALIAS(shmemx_isend)

OFS_API int pshmemx_irecv(int src, int tag, void *buf, size_t maxlen, shmemx_msg_h *req)
{
    return msg_istart("shmemx_irecv", 0, src, tag, buf, maxlen, req);
}
OFS_WEAK_ALIAS(shmemx_irecv)

OFS_API int pshmemx_msg_wait(shmemx_msg_h *req, shmemx_status_t *status)
{
    struct msg_req *q;
    int err;

    if (OFS_UNLIKELY(req == NULL))
        ofs_bad_input("shmemx_msg_wait", "req is NULL (pass the address of the handle)");
    q = msg_req_check("shmemx_msg_wait", *req);
    if (!q) {
        msg_status_empty(status);
        return SHMEMX_MSG_OK;
    }
    msg_req_wait(q, "shmemx_msg_wait");
    msg_status(q, status);
    err = q->err;
    msg_req_free(q);
    *req = SHMEMX_MSG_H_NULL;
    return err;
}
OFS_WEAK_ALIAS(shmemx_msg_wait)

OFS_API int pshmemx_msg_test(shmemx_msg_h *req, int *flag, shmemx_status_t *status)
{
    struct msg_req *q;
    int err;

    if (OFS_UNLIKELY(req == NULL))
        ofs_bad_input("shmemx_msg_test", "req is NULL (pass the address of the handle)");
    q = msg_req_check("shmemx_msg_test", *req);
    if (OFS_UNLIKELY(flag == NULL))
        ofs_bad_input("shmemx_msg_test", "flag is NULL");
    if (!q) {
        *flag = 1;
        msg_status_empty(status);
        return SHMEMX_MSG_OK;
    }
    *flag = msg_req_test(q, "shmemx_msg_test");
    if (!*flag)
        return SHMEMX_MSG_OK;
    msg_status(q, status);
    err = q->err;
    msg_req_free(q);
    *req = SHMEMX_MSG_H_NULL;
    return err;
}
OFS_WEAK_ALIAS(shmemx_msg_test)

OFS_API void pshmemx_probe(int src, int tag, shmemx_status_t *status)
{
    shmemx_status_t s = { 0 };

    msg_chk_recv("shmemx_probe", src, tag, NULL, 0);
    msg_probe(src, tag, 1, &s.source, &s.tag, &s.length);
    if (status)
        *status = s;
}
OFS_WEAK_ALIAS(shmemx_probe)

OFS_API int pshmemx_iprobe(int src, int tag, shmemx_status_t *status)
{
    shmemx_status_t s = { 0 };

    msg_chk_recv("shmemx_iprobe", src, tag, NULL, 0);
    if (!msg_probe(src, tag, 0, &s.source, &s.tag, &s.length))
        return 0;
    if (status)
        *status = s;
    return 1;
}
OFS_WEAK_ALIAS(shmemx_iprobe)
