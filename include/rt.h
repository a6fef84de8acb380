/*
 * rt.h: the runtime (bootstrap) layer, src/runtime/.  PMIx when a launcher
 * started us, a one-PE singleton otherwise.  Used at init/finalize and for
 * exchanging addresses and keys only; never on the data path.
 */
#ifndef OFS_RT_H
#define OFS_RT_H

#include "ofs.h"

/* Fills ofs_g.my_pe, n_pes, singleton, local_size, local_rank, local_pes, node_of
 * (honouring SHMEM_SIM_PES_PER_NODE).  Needs ofs_g.params parsed.  publish(node_pes)
 * (may be NULL) is called before the start-up exchange, so that the keys the caller
 * puts travel with it (node_pes: the job's PEs on this real node); the runtime knows
 * nothing of what they are (the settings check of src/api/init_agree.c). */
ofs_status_t rt_init(ofs_status_t (*publish)(int node_pes)) OFS_HIDDEN;
void rt_finalize(void) OFS_HIDDEN;

/* Publish a value under key for this PE; visible to others after rt_exchange(). */
ofs_status_t rt_kv_put(const char *key, const void *val, size_t len) OFS_HIDDEN;
/* Commit what was put and fence with data collection: collective over all PEs. */
ofs_status_t rt_exchange(void) OFS_HIDDEN;
/* Fetch pe's value for key into val (exactly len bytes expected). */
ofs_status_t rt_kv_get(int pe, const char *key, void *val, size_t len) OFS_HIDDEN;
/* A fence without data: collective over all PEs. */
ofs_status_t rt_barrier(void) OFS_HIDDEN;
/* The same, calling poll(arg) over and over while it waits (so that the transports
 * keep moving what is in flight; see ofs_finalize in src/api/init.c). */
ofs_status_t rt_barrier_poll(void (*poll)(void *), void *arg) OFS_HIDDEN;
/* Take the whole job down with exit status code. */
void rt_abort(int code, const char *msg) OFS_NORETURN OFS_HIDDEN;
/* A short string naming this job, the same on every PE (for object names). */
const char *rt_job_id(void) OFS_HIDDEN;

#endif
