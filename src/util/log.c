/* Logging and fatal errors: one line each, prefixed with the PE. */
#include "ofs.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* Before shmem_init there is no job to take down: this process ends alone.  ofs_init
 * installs the runtime's abort, which takes the whole job down (util calls no layer
 * above it, so the top installs the hook). */
static void log_abort_process(int code, const char *msg)
{
    (void)msg; /* already printed */
    _exit(code);
}

static ofs_abort_fn log_abort = log_abort_process;

void ofs_set_abort_handler(ofs_abort_fn fn)
{
    __atomic_store_n(&log_abort, fn ? fn : log_abort_process, __ATOMIC_RELEASE);
}

static OFS_NORETURN void log_abort_run(int code, const char *msg)
{
    __atomic_load_n(&log_abort, __ATOMIC_ACQUIRE)(code, msg);
    _exit(code); /* a handler that returns */
}

static void log_vline(const char *level, const char *routine, const char *fmt, va_list ap)
{
    char buf[1024];
    int n;

    if (ofs_g.n_pes > 0)
        n = snprintf(buf, sizeof(buf), "ofishmem[PE %d]: %s", ofs_g.my_pe, level);
    else
        n = snprintf(buf, sizeof(buf), "ofishmem: %s", level);
    if (routine && n >= 0 && (size_t)n < sizeof(buf))
        n += snprintf(buf + n, sizeof(buf) - n, "%s: ", routine);
    if (n >= 0 && (size_t)n < sizeof(buf))
        vsnprintf(buf + n, sizeof(buf) - n, fmt, ap);
    fprintf(stderr, "%s\n", buf);
    fflush(stderr);
}

#define OFS_DEFINE_LOG(fn, level, cond)  \
    void fn(const char *fmt, ...)        \
    {                                    \
        va_list ap;                      \
        if (!(cond))                     \
            return;                      \
        va_start(ap, fmt);               \
        log_vline(level, NULL, fmt, ap); \
        va_end(ap);                      \
    }

OFS_DEFINE_LOG(ofs_log_error, "error: ", 1)
OFS_DEFINE_LOG(ofs_log_warn, "warning: ", 1)
OFS_DEFINE_LOG(ofs_log_info, "", 1)
OFS_DEFINE_LOG(ofs_log_debug, "debug: ", ofs_g.params.DEBUG)

void ofs_fatal(int code, const char *fmt, ...)
{
    va_list ap;
    char msg[512];

    va_start(ap, fmt);
    log_vline("fatal: ", NULL, fmt, ap);
    va_end(ap);
    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    log_abort_run(code, msg);
}

void ofs_bad_input(const char *routine, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    log_vline("", routine, fmt, ap);
    va_end(ap);
    log_abort_run(1, routine);
}
