/* Logging and fatal errors: one line each, prefixed with the PE. */
#include "ofs.h"
#include "rt.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

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
    rt_abort(code, msg);
}

void ofs_bad_input(const char *routine, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    log_vline("", routine, fmt, ap);
    va_end(ap);
    rt_abort(1, routine);
}
