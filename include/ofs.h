/*
 * ofs.h: the library-wide core every layer includes: status codes, logging,
 * the one state struct and the parameters generated from ofs_env_defs.h.
 */
#ifndef OFS_H
#define OFS_H

#include "ofs_config.h"
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>
#include <time.h>

#define OFS_HIDDEN __attribute__((visibility("hidden")))
#define OFS_API __attribute__((visibility("default")))
#define OFS_NORETURN __attribute__((noreturn))
#define OFS_PRINTF(a, b) __attribute__((format(printf, a, b)))
#define OFS_LIKELY(x) __builtin_expect(!!(x), 1)
#define OFS_UNLIKELY(x) __builtin_expect(!!(x), 0)

/* One internal status enum; -FI_E* and PMIx codes are translated at the boundary. */
typedef enum {
    OFS_OK = 0,
    OFS_ERR_NOMEM,     /* out of memory (host or symmetric) */
    OFS_ERR_INVAL,     /* bad argument or parameter */
    OFS_ERR_NOSYS,     /* not supported by this transport/provider */
    OFS_ERR_FABRIC,    /* libfabric call failed */
    OFS_ERR_RUNTIME,   /* PMIx call failed */
    OFS_ERR_AGAIN,     /* try again (resource busy) */
    OFS_ERR_NOT_FOUND, /* no such key, provider, object */
    OFS_ERR_IO,        /* system call failed (see errno) */
    OFS_ERR_NOSPACE    /* no room to back shared memory */
} ofs_status_t;

const char *ofs_status_string(ofs_status_t status) OFS_HIDDEN;

/* Parameters: one field per row of ofs_env_defs.h, named as the row (params.SYMMETRIC_SIZE). */
typedef long ofs_env_LONG_t;
typedef long ofs_env_SIZE_t; /* signed: OFS_PARAM_AUTO */
typedef int ofs_env_BOOL_t;
typedef const char *ofs_env_STRING_t;
typedef int ofs_env_ENUM_t; /* the index of the word: OFS_<NAME>_<WORD> */

/* the value of a SIZE or LONG row set to auto: the transport chooses */
#define OFS_PARAM_AUTO (-1L)

struct ofs_params {
#define OFS_ENV(name, cat, type, def, range, help) ofs_env_##type##_t name;
#include "ofs_env_defs.h"
#undef OFS_ENV
};

/* OFS_PARAM_<NAME>: the index of each row in ofs_env_table */
enum ofs_param_id {
#define OFS_ENV(name, cat, type, def, range, help) OFS_PARAM_##name,
#include "ofs_env_defs.h"
#undef OFS_ENV
    OFS_PARAM_COUNT
};

/* the constants of ENUM rows: enum ofs_LOCAL_TRANSPORT { OFS_LOCAL_TRANSPORT_SHM, ... } */
#define OFS_ENV_ENUM_CONST(row, c, w) OFS_##row##_##c,
#define OFS_ENV_ENUM_ENUM(name, words) enum ofs_##name{ words(OFS_ENV_ENUM_CONST, name) };
#define OFS_ENV_ENUM_SIZE(name, range)
#define OFS_ENV_ENUM_LONG(name, range)
#define OFS_ENV_ENUM_BOOL(name, range)
#define OFS_ENV_ENUM_STRING(name, range)
#define OFS_ENV(name, cat, type, def, range, help) OFS_ENV_ENUM_##type(name, range)
#include "ofs_env_defs.h"
#undef OFS_ENV

/* The groups of parameters, in the order the listings show them. */
enum ofs_param_category { OFS_CAT_CORE, OFS_CAT_SHM, OFS_CAT_OFI, OFS_CAT_COLL, OFS_CAT_DEBUG };
#define OFS_CAT_COUNT 5

/* Per-row description, for the listing and the info tool. */
struct ofs_env_desc {
    const char *name; /* without the SHMEM_ prefix */
    int category;     /* enum ofs_param_category */
    const char *type; /* "SIZE", "LONG", "BOOL", "STRING", "ENUM" */
    const char *def;
    const char *range; /* what the parser accepts (see ofs_env_defs.h); ENUM: "a|b|c" */
    const char *help;
};
extern const struct ofs_env_desc ofs_env_table[] OFS_HIDDEN;
extern const size_t ofs_env_count OFS_HIDDEN;

/* The row named name (without SHMEM_), or -1. */
int ofs_param_find(const char *name) OFS_HIDDEN;
/* The word of value of ENUM row id ("?" if none). */
const char *ofs_param_word(int id, int value) OFS_HIDDEN;
/* A transport tells what an auto value of row id became, for the SHMEM_INFO listing. */
void ofs_param_resolved(int id, long value) OFS_HIDDEN;

/* Parse all parameters from the environment into *params.  On a malformed value or one
 * out of its row's range, writes a message naming the variable into errbuf and returns
 * OFS_ERR_INVAL. */
ofs_status_t ofs_env_parse(struct ofs_params *params, char *errbuf, size_t errlen) OFS_HIDDEN;
/* Parse one size string ("4096K", "1G", "17"); returns OFS_ERR_INVAL on garbage. */
ofs_status_t ofs_env_parse_size(const char *str, long *out_p) OFS_HIDDEN;
ofs_status_t ofs_env_parse_bool(const char *str, int *out_p) OFS_HIDDEN;
/* Print every parameter with value (params may be NULL: defaults) and help. */
#include <stdio.h>
void ofs_env_print(FILE *out, const struct ofs_params *params) OFS_HIDDEN;
/* Warn through warn (one line each) about SHMEM_* variables of the environment that no
 * parameter reads, suggesting the closest parameter's name; returns how many.  Also
 * one line for each old name of a renamed parameter that is set (not counted). */
int ofs_env_warn_unknown(void (*warn)(const char *fmt, ...)) OFS_HIDDEN;

/* The one state struct. */
struct ofs_state {
    int initialized; /* shmem_init completed */
    int finalized;   /* shmem_finalize completed */
    int finalizing;  /* shmem_finalize is past its final quiet */
    int init_error;  /* first failed init's status, reported on a second attempt */
    int my_pe;
    int n_pes;
    int thread_level; /* SHMEM_THREAD_* granted */
    int singleton;    /* started without a launcher */
    /* node locality (after SHMEM_SIM_PES_PER_NODE is applied) */
    int local_size; /* PEs on my node, me included */
    int local_rank; /* my index among them */
    int *local_pes; /* sorted world PE numbers on my node */
    int *node_of;   /* n_pes entries: an id equal for PEs on one node */
    /* more PEs on my node than CPUs I may run on: waiting PEs must give the CPU away */
    int oversubscribed;
    int pes_per_cpu; /* PEs on my node per CPU I may run on, rounded up (at least 1) */
    /* a library thread of mine can run beside me: I may run on more than one CPU and my
     * node has fewer PEs than CPUs */
    int cpu_spare;
    struct ofs_params params;
};
extern struct ofs_state ofs_g OFS_HIDDEN;

/* Logging.  Messages go to stderr prefixed "ofishmem[PE n]: ". */
void ofs_log_error(const char *fmt, ...) OFS_PRINTF(1, 2) OFS_HIDDEN;
void ofs_log_warn(const char *fmt, ...) OFS_PRINTF(1, 2) OFS_HIDDEN;
void ofs_log_info(const char *fmt, ...) OFS_PRINTF(1, 2) OFS_HIDDEN;
/* printed only with SHMEM_DEBUG */
void ofs_log_debug(const char *fmt, ...) OFS_PRINTF(1, 2) OFS_HIDDEN;
#define OFS_DEBUG_ON (ofs_g.params.DEBUG)

/* stale.c: the inode of our pid namespace (named in our shared-memory files); remove
 * the files that PEs killed with SIGKILL left (heap objects, shm provider regions). */
unsigned long long ofs_pidns(void) OFS_HIDDEN;
void ofs_sweep_dead(void) OFS_HIDDEN;
/* Has process pid of pid namespace ns (a process of this node) ended (a zombie
 * counts)?  0 when that cannot be told: another namespace, or our own pid. */
int ofs_pid_gone(unsigned long pid, unsigned long long ns) OFS_HIDDEN;
/* Unlink the entries of dir that pick(name, arg) chooses and that are regular files
 * (not links) owned by our effective uid; returns how many.  Async-signal-safe where
 * pick is. */
int ofs_sweep(const char *dir, int (*pick)(const char *name, const void *arg), const void *arg)
    OFS_HIDDEN;
/* Is name "<pid>_ofs<pidns>" followed by ':' or '_', a shm provider region of one of
 * our endpoints (ofi_ep_name)?  Then 1, with its pid and pid namespace.
 * Async-signal-safe. */
int ofs_region_name(const char *name, unsigned long *pid, unsigned long long *ns) OFS_HIDDEN;
/* where libfabric's shm provider puts its regions */
#define OFS_SHM_PROVIDER_DIR "/dev/shm"

/* The signals with which launchers end a job.  A chain handler removes our files on
 * them, then hands the signal to whoever had it before (ofs_sig_chain_pass): the
 * program's handler, libfabric shm's (which does the same with its regions), or the
 * default action. */
#define OFS_END_NSIGS 3
extern const int ofs_end_sigs[OFS_END_NSIGS] OFS_HIDDEN;
struct ofs_sig_chain {
    void (*handler)(int);
    struct sigaction old[OFS_END_NSIGS];
    int on;
};
/* An ignored signal (nohup) stays ignored. */
void ofs_sig_chain_install(struct ofs_sig_chain *c) OFS_HIDDEN;
/* Puts back what was there where our handler still is: one installed after ours keeps
 * ours in its chain (restoring ours' predecessor would drop it). */
void ofs_sig_chain_remove(struct ofs_sig_chain *c) OFS_HIDDEN;
/* From the handler: re-raise sig for the previous action (async-signal-safe). */
void ofs_sig_chain_pass(const struct ofs_sig_chain *c, int sig) OFS_HIDDEN;

/* What ofs_fatal and ofs_bad_input call after printing: until ofs_init installs the
 * runtime's abort (rt_abort, which takes the whole job down), _exit(code) of this
 * process.  The start-up sequence lives above util (src/api/init.c), so it installs
 * the hook rather than util calling up into the runtime.  Must not return. */
typedef void (*ofs_abort_fn)(int code, const char *msg);
void ofs_set_abort_handler(ofs_abort_fn fn) OFS_HIDDEN;

/* Print the message and take the whole job down with exit status 'code'. */
void ofs_fatal(int code, const char *fmt, ...) OFS_PRINTF(2, 3) OFS_NORETURN OFS_HIDDEN;
/* The CPUs this process may run on (its affinity mask; 1 where that cannot be read). */
int ofs_cpus_usable(void) OFS_HIDDEN;

/* CLOCK_MONOTONIC in ns (deadlines and intervals of waits, statistics) */
static inline uint64_t ofs_clock_ns(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Bad input to a public routine: "ofishmem[PE n]: ROUTINE: message", then abort the job. */
void ofs_bad_input(const char *routine, const char *fmt, ...) OFS_PRINTF(2, 3)
    OFS_NORETURN OFS_HIDDEN;

#endif /* OFS_H */
