/*
 * ofi_signal.h: put-with-signal messages, shared by their send side (ofi_signal.c)
 * and their receive side at the target endpoint (ofi_signal_rx.c).
 */
#ifndef OFS_OFI_SIGNAL_H
#define OFS_OFI_SIGNAL_H

#include "ofi_ctx.h"

/* PUT: a part of a put-with-signal's data, the rest (and the signal) follows */
enum { OFI_SIG_PUTSIG = 1, OFI_SIG_FLUSH = 2, OFI_SIG_ACK = 3, OFI_SIG_PUT = 4 };

struct ofi_sig_hdr {
    uint8_t kind, sig_op, seg, sig_seg;
    uint32_t src;     /* the sending PE */
    uint64_t off;     /* PUTSIG: the data's offset; FLUSH/ACK: the initiator's context */
    uint64_t sig_off; /* PUTSIG: the signal's offset */
    uint64_t signal;  /* PUTSIG: the operand */
};
_Static_assert(sizeof(struct ofi_sig_hdr) == OFI_SIG_HDR, "signal message header size");

/* The target endpoint's bounce buffers (a leaf lock: taken by the senders from it,
 * and by whichever thread reads the target CQ to give them back) */
extern pthread_mutex_t ofi_sig_bounce_lock OFS_HIDDEN;

/* Read the target CQ and apply what arrived (ofi_g.ops.target_cq_read). */
ssize_t ofi_sig_poll(struct fid_cq *cq) OFS_HIDDEN;

#endif
