m4_changecom()m4_dnl
/* ofishmem: extensions beyond OpenSHMEM 1.5 (shmemx_ prefix).
 * generated -- do not edit: made by m4 from mpp/shmemx.h.m4 and the extension tables
 * mpp/shmemx_*.m4 (one per family of extensions). */
#ifndef SHMEMX_H
#define SHMEMX_H

#include <shmem.h>

#ifdef __cplusplus
extern "C" {
#endif

m4_dnl MX_DECL(return type, name without shmemx_, parameters): the routine shmemx_NAME and its
m4_dnl profiling twin pshmemx_NAME (the strong symbol; shmemx_NAME is its weak alias).
m4_define(`MX_DECL', `$1 shmemx_$2($3);
$1 pshmemx_$2($3);
')m4_dnl
m4_include(`shmemx_nbc.m4')m4_dnl
m4_include(`shmemx_msg.m4')m4_dnl
m4_include(`shmemx_stats.m4')m4_dnl

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* SHMEMX_H */
