m4_dnl shmemx_msg.m4: two-sided messages (issue 28); included by mpp/shmemx.h.m4.
/* Two-sided tagged messages over one-sided memory (docs/messages.md, shmemx_send(3)). */
#define SHMEMX_ANY_SOURCE (-1)  /* shmemx_recv, shmemx_irecv, shmemx_probe: any source */
#define SHMEMX_ANY_TAG (-1)     /* ... any tag (tags of messages are >= 0) */
#define SHMEMX_MSG_OK 0         /* the whole message arrived */
#define SHMEMX_MSG_TRUNCATED 1  /* longer than the buffer: the rest was dropped */
typedef struct {
    int source;    /* the sender */
    int tag;       /* its tag */
    size_t length; /* its full length in bytes, also when truncated */
    int error;     /* SHMEMX_MSG_OK or SHMEMX_MSG_TRUNCATED */
} shmemx_status_t;
#define SHMEMX_STATUS_IGNORE ((shmemx_status_t *)0)
/* A non-blocking send or receive; dead once shmemx_msg_wait or a shmemx_msg_test that
 * reported completion has returned. */
typedef struct shmemx_msg_req *shmemx_msg_h;
#define SHMEMX_MSG_H_NULL ((shmemx_msg_h)0)
MX_DECL(int, send, `int pe, int tag, const void *buf, size_t len')m4_dnl
MX_DECL(int, recv, `int src, int tag, void *buf, size_t maxlen, shmemx_status_t *status')m4_dnl
MX_DECL(int, isend, `int pe, int tag, const void *buf, size_t len, shmemx_msg_h *req')m4_dnl
MX_DECL(int, irecv, `int src, int tag, void *buf, size_t maxlen, shmemx_msg_h *req')m4_dnl
MX_DECL(int, msg_wait, `shmemx_msg_h *req, shmemx_status_t *status')m4_dnl
MX_DECL(int, msg_test, `shmemx_msg_h *req, int *flag, shmemx_status_t *status')m4_dnl
MX_DECL(void, probe, `int src, int tag, shmemx_status_t *status')m4_dnl
MX_DECL(int, iprobe, `int src, int tag, shmemx_status_t *status')m4_dnl
