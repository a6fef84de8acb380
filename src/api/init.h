/*
 * init.h: the start-up and shut-down sequence (init.c), private to src/api: the
 * public routines of setup.c call it, and no layer below may (docs/architecture.md).
 */
#ifndef OFS_API_INIT_H
#define OFS_API_INIT_H

#include "ofs.h"

/* env, runtime, heap, transports, comm, collectives; finalize runs it backwards */
ofs_status_t ofs_init(int requested_thread_level) OFS_HIDDEN;
void ofs_finalize(void) OFS_HIDDEN;
void ofs_global_exit(int status) OFS_NORETURN OFS_HIDDEN;

/* init_agree.c: publish the settings every PE must share (called by rt_init before its
 * exchange; node_pes: the job's PEs on this real node), then compare them after it. */
ofs_status_t init_agree_publish(int node_pes) OFS_HIDDEN;
/* init.c: tell the heap how many bytes the library's own blocks take (heap.h) */
void init_heap_count(void) OFS_HIDDEN;
ofs_status_t init_agree_check(void) OFS_HIDDEN;

/* stats.c: SHMEM_STATS's dump at finalize (collective; nothing when statistics are off) */
void api_stats_finalize(void) OFS_HIDDEN;

/* init_exit.c: finalize at exit a program that did not, at most once per process */
void init_exit_register(void) OFS_HIDDEN;

#endif
