/* Unit test: the parameter parser (sizes with suffixes, booleans, garbage, ranges) and
 * the warning about unknown SHMEM_* variables. */
#include "ofs.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "unit_check.h"

extern char **environ;

/* Parse with var=val set; 1 if that is accepted, else 0 with the message in err. */
static int accepts(const char *var, const char *val, struct ofs_params *p, char *err, size_t len)
{
    err[0] = '\0';
    setenv(var, val, 1);
    ofs_status_t st = ofs_env_parse(p, err, len);
    unsetenv(var);
    return st == OFS_OK;
}

/* Is the message for var=val exactly "var=val is out of range [range]" followed by
 * tail? */
static int out_of_range_tail(const char *var, const char *val, const char *range, const char *tail)
{
    struct ofs_params p;
    char err[512], want[512];

    snprintf(want, sizeof(want), "%s=%s is out of range [%s]%s", var, val, range, tail);
    if (accepts(var, val, &p, err, sizeof(err)))
        return 0;
    if (strcmp(err, want) != 0)
        fprintf(stderr, "message: '%s', expected '%s'\n", err, want);
    return strcmp(err, want) == 0;
}

static int out_of_range(const char *var, const char *val, const char *range)
{
    return out_of_range_tail(var, val, range, "");
}

/* The same for a row that also takes auto. */
static int out_of_range_auto(const char *var, const char *val, const char *range)
{
    return out_of_range_tail(var, val, range, " and not auto");
}

static char warned[8][512];
static int nwarned;

static void capture(const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    if (nwarned < 8)
        vsnprintf(warned[nwarned], sizeof(warned[0]), fmt, ap);
    nwarned++;
    va_end(ap);
}

/* Unset every SHMEM_ and SMA_ variable: the test must not see the caller's. */
static void env_clear(void)
{
    for (int again = 1; again;) {
        again = 0;
        for (char **e = environ; *e; e++) {
            if (strncmp(*e, "SHMEM_", 6) == 0 || strncmp(*e, "SMA_", 4) == 0) {
                char name[256];
                snprintf(name, sizeof(name), "%.*s", (int)strcspn(*e, "="), *e);
                unsetenv(name);
                again = 1;
                break;
            }
        }
    }
}

static long size_of(const char *s, ofs_status_t *st)
{
    long v = -42;
    *st = ofs_env_parse_size(s, &v);
    return v;
}

int main(void)
{
    ofs_status_t st;
    struct ofs_params p;
    char err[512];
    int b;

    CHECK(size_of("1G", &st) == 1L << 30 && st == OFS_OK);
    CHECK(size_of("4096K", &st) == 4096L * 1024 && st == OFS_OK);
    CHECK(size_of("512m", &st) == 512L << 20 && st == OFS_OK);
    CHECK(size_of("2T", &st) == 2L << 40 && st == OFS_OK);
    CHECK(size_of("17", &st) == 17 && st == OFS_OK);
    CHECK(size_of("1.5K", &st) == 1536 && st == OFS_OK);
    CHECK(size_of("8KB", &st) == 8192 && st == OFS_OK);
    CHECK(size_of(" 64 ", &st) == 64 && st == OFS_OK);
    CHECK(size_of("-1", &st) == -1 && st == OFS_OK);
    size_of("garbage", &st);
    CHECK(st == OFS_ERR_INVAL);
    size_of("12Q", &st);
    CHECK(st == OFS_ERR_INVAL);
    size_of("", &st);
    CHECK(st == OFS_ERR_INVAL);
    size_of("-5M", &st);
    CHECK(st == OFS_ERR_INVAL);
    size_of("0.3", &st);
    CHECK(st == OFS_ERR_INVAL);

    CHECK(ofs_env_parse_bool("yes", &b) == OFS_OK && b == 1);
    CHECK(ofs_env_parse_bool("Off", &b) == OFS_OK && b == 0);
    CHECK(ofs_env_parse_bool("maybe", &b) == OFS_ERR_INVAL);

    /* defaults */
    unsetenv("SHMEM_SYMMETRIC_SIZE");
    unsetenv("SMA_SYMMETRIC_SIZE");
    CHECK(ofs_env_parse(&p, err, sizeof(err)) == OFS_OK);
    CHECK(p.SYMMETRIC_SIZE == 512L << 20);
    CHECK(p.LOCAL_TRANSPORT == OFS_LOCAL_TRANSPORT_SHM);
    CHECK(p.OFI_BOUNCE_SIZE == OFS_PARAM_AUTO && p.OFI_AM_EP == OFS_OFI_AM_EP_AUTO);

    setenv("SHMEM_SYMMETRIC_SIZE", "4096K", 1);
    CHECK(ofs_env_parse(&p, err, sizeof(err)) == OFS_OK && p.SYMMETRIC_SIZE == 4096L * 1024);
    setenv("SHMEM_SYMMETRIC_SIZE", "garbage", 1);
    CHECK(ofs_env_parse(&p, err, sizeof(err)) == OFS_ERR_INVAL);
    CHECK(strstr(err, "SHMEM_SYMMETRIC_SIZE") != NULL);
    unsetenv("SHMEM_SYMMETRIC_SIZE");
    setenv("SMA_SYMMETRIC_SIZE", "1M", 1);
    CHECK(ofs_env_parse(&p, err, sizeof(err)) == OFS_OK && p.SYMMETRIC_SIZE == 1L << 20);
    unsetenv("SMA_SYMMETRIC_SIZE");
    setenv("SHMEM_DEBUG", "sometimes", 1);
    CHECK(ofs_env_parse(&p, err, sizeof(err)) == OFS_ERR_INVAL && strstr(err, "SHMEM_DEBUG"));
    unsetenv("SHMEM_DEBUG");

    /* ranges: the messages quoted in the issue, each bound and its neighbour */
    env_clear();
    CHECK(out_of_range("SHMEM_OFI_CQ_SIZE", "-4", "1, 1048576"));
    CHECK(out_of_range("SHMEM_OFI_CQ_SIZE", "0", "1, 1048576"));
    CHECK(out_of_range("SHMEM_OFI_CQ_SIZE", "1048577", "1, 1048576"));
    CHECK(accepts("SHMEM_OFI_CQ_SIZE", "1", &p, err, sizeof(err)) && p.OFI_CQ_SIZE == 1);
    CHECK(accepts("SHMEM_OFI_CQ_SIZE", "1048576", &p, err, sizeof(err)));
    CHECK(out_of_range("SHMEM_SIM_PES_PER_NODE", "-1", "0, 1048576"));
    CHECK(out_of_range("SHMEM_ORPHAN_GRACE", "-1", "0, 86400"));
    CHECK(accepts("SHMEM_ORPHAN_GRACE", "0", &p, err, sizeof(err)) && p.ORPHAN_GRACE == 0);
    CHECK(out_of_range("SHMEM_OFI_BOUNCE_BUFFERS", "-1", "0, 65536"));
    CHECK(out_of_range("SHMEM_OFI_BOUNCE_BUFFERS", "100000000", "0, 65536"));
    CHECK(accepts("SHMEM_OFI_BOUNCE_BUFFERS", "0", &p, err, sizeof(err)) &&
          p.OFI_BOUNCE_BUFFERS == 0);
    CHECK(out_of_range_auto("SHMEM_OFI_BOUNCE_SIZE", "99T", "0, 1G"));
    CHECK(out_of_range_auto("SHMEM_OFI_BOUNCE_SIZE", "1073741825", "0, 1G"));
    CHECK(out_of_range_auto("SHMEM_OFI_BOUNCE_SIZE", "-2", "0, 1G"));
    CHECK(out_of_range_auto("SHMEM_OFI_BOUNCE_SIZE", "-5M", "0, 1G"));
    CHECK(accepts("SHMEM_OFI_BOUNCE_SIZE", "1G", &p, err, sizeof(err)) &&
          p.OFI_BOUNCE_SIZE == 1L << 30);
    CHECK(accepts("SHMEM_OFI_BOUNCE_SIZE", "-1", &p, err, sizeof(err)) &&
          p.OFI_BOUNCE_SIZE == OFS_PARAM_AUTO);
    CHECK(accepts("SHMEM_OFI_BOUNCE_SIZE", "auto", &p, err, sizeof(err)) &&
          p.OFI_BOUNCE_SIZE == OFS_PARAM_AUTO);
    CHECK(accepts("SHMEM_OFI_BOUNCE_SIZE", "0", &p, err, sizeof(err)) && p.OFI_BOUNCE_SIZE == 0);
    CHECK(!accepts("SHMEM_OFI_BOUNCE_SIZE", "automatic", &p, err, sizeof(err)) &&
          strstr(err, "is malformed") && strstr(err, "or auto"));
    CHECK(!accepts("SHMEM_OFI_CQ_SIZE", "auto", &p, err, sizeof(err)) && strstr(err, "malformed"));
    CHECK(out_of_range("SHMEM_OFI_PROGRESS_INTERVAL", "-1", "0, 1000000000000"));
    CHECK(accepts("SHMEM_OFI_PROGRESS_INTERVAL", "99999999999", &p, err, sizeof(err)) &&
          p.OFI_PROGRESS_INTERVAL == 99999999999L);
    /* too large for a long: out of range, not malformed */
    CHECK(out_of_range("SHMEM_OFI_PROGRESS_INTERVAL", "99999999999999999999", "0, 1000000000000"));
    CHECK(out_of_range("SHMEM_SYMMETRIC_SIZE", "1e30", "1, 65536T"));
    CHECK(out_of_range("SHMEM_SYMMETRIC_SIZE", "0", "1, 65536T"));
    CHECK(!accepts("SHMEM_SYMMETRIC_SIZE", "1x", &p, err, sizeof(err)) &&
          strstr(err, "is malformed"));
    CHECK(out_of_range("SMA_SYMMETRIC_SIZE", "-1", "1, 65536T"));
    /* strings */
    CHECK(!accepts("SHMEM_SHM_DIR", "", &p, err, sizeof(err)) &&
          strcmp(err, "SHMEM_SHM_DIR='' is not valid: expected an absolute path") == 0);
    CHECK(!accepts("SHMEM_SHM_DIR", "tmp", &p, err, sizeof(err)) && strstr(err, "SHMEM_SHM_DIR"));
    CHECK(accepts("SHMEM_SHM_DIR", "/tmp", &p, err, sizeof(err)) && !strcmp(p.SHM_DIR, "/tmp"));
    CHECK(!accepts("SHMEM_LOCAL_TRANSPORT", "OFI", &p, err, sizeof(err)) &&
          strcmp(err, "SHMEM_LOCAL_TRANSPORT='OFI' is not valid: expected one of shm, ofi") == 0);
    CHECK(!accepts("SHMEM_LOCAL_TRANSPORT", "sh", &p, err, sizeof(err)));
    CHECK(!accepts("SHMEM_LOCAL_TRANSPORT", "shmx", &p, err, sizeof(err)));
    CHECK(accepts("SHMEM_LOCAL_TRANSPORT", "ofi", &p, err, sizeof(err)) &&
          p.LOCAL_TRANSPORT == OFS_LOCAL_TRANSPORT_OFI);
    CHECK(accepts("SHMEM_ALLTOALL_ALGORITHM", "linear", &p, err, sizeof(err)) &&
          p.ALLTOALL_ALGORITHM == OFS_ALLTOALL_ALGORITHM_LINEAR);
    CHECK(accepts("SHMEM_OFI_AM_EP", "context", &p, err, sizeof(err)) &&
          p.OFI_AM_EP == OFS_OFI_AM_EP_CONTEXT);
    CHECK(!accepts("SHMEM_BARRIER_ALGORITHM", "butterfly", &p, err, sizeof(err)) &&
          strcmp(err, "SHMEM_BARRIER_ALGORITHM='butterfly' is not valid: expected one of auto, "
                      "dissemination, tree, shm, hier") == 0);
    CHECK(!accepts("SHMEM_OFI_AM_EP", "Target", &p, err, sizeof(err)) &&
          strcmp(err, "SHMEM_OFI_AM_EP='Target' is not valid: expected one of auto, target, "
                      "context") == 0);
    /* the words of an ENUM row and their constants */
    CHECK(strcmp(ofs_param_word(OFS_PARAM_REDUCE_ALGORITHM, OFS_REDUCE_ALGORITHM_RABENSEIFNER),
                 "rabenseifner") == 0);
    CHECK(strcmp(ofs_param_word(OFS_PARAM_LOCAL_TRANSPORT, OFS_LOCAL_TRANSPORT_OFI), "ofi") == 0);
    CHECK(strcmp(ofs_param_word(OFS_PARAM_LOCAL_TRANSPORT, 2), "?") == 0);
    CHECK(strcmp(ofs_param_word(OFS_PARAM_TEAMS_MAX, 0), "?") == 0);
    CHECK(ofs_param_find("OFI_AM_EP") == OFS_PARAM_OFI_AM_EP && ofs_param_find("NOPE") < 0);

    /* old names of renamed parameters: read when the new one is not set */
    setenv("SHMEM_BOUNCE_SIZE", "4K", 1);
    CHECK(ofs_env_parse(&p, err, sizeof(err)) == OFS_OK && p.OFI_BOUNCE_SIZE == 4096);
    setenv("SHMEM_OFI_BOUNCE_SIZE", "2K", 1);
    CHECK(ofs_env_parse(&p, err, sizeof(err)) == OFS_OK && p.OFI_BOUNCE_SIZE == 2048);
    unsetenv("SHMEM_OFI_BOUNCE_SIZE");
    setenv("SHMEM_BOUNCE_SIZE", "5G", 1); /* the message names the variable set */
    CHECK(ofs_env_parse(&p, err, sizeof(err)) == OFS_ERR_INVAL &&
          strcmp(err, "SHMEM_BOUNCE_SIZE=5G is out of range [0, 1G] and not auto") == 0);
    unsetenv("SHMEM_BOUNCE_SIZE");
    setenv("SHMEM_PROGRESS_INTERVAL", "0", 1);
    CHECK(ofs_env_parse(&p, err, sizeof(err)) == OFS_OK && p.OFI_PROGRESS_INTERVAL == 0);
    unsetenv("SHMEM_PROGRESS_INTERVAL");
    CHECK(!accepts("SHMEM_ALLTOALL_ALGORITHM", "", &p, err, sizeof(err)));
    CHECK(!accepts("SHMEM_OFI_MR_MODE", "", &p, err, sizeof(err)) &&
          strstr(err, "SHMEM_OFI_MR_MODE='' is not valid: expected not empty"));
    CHECK(accepts("SHMEM_OFI_PROVIDER", "", &p, err, sizeof(err)));

    /* every row: a range of its kind, the default within it, and the listing shows it */
    CHECK(ofs_env_parse(&p, err, sizeof(err)) == OFS_OK);
    char *list = NULL;
    size_t listlen = 0;
    FILE *mem = open_memstream(&list, &listlen);
    CHECK(mem != NULL);
    if (mem) {
        ofs_env_print(mem, NULL);
        fclose(mem);
        for (size_t i = 0; i < ofs_env_count; i++) {
            const struct ofs_env_desc *d = &ofs_env_table[i];
            char line[128];
            int numeric = !strcmp(d->type, "SIZE") || !strcmp(d->type, "LONG");
            CHECK(!numeric || strstr(d->range, "..") != NULL);
            CHECK(strcmp(d->type, "BOOL") != 0 || d->range[0] == '\0');
            snprintf(line, sizeof(line), "  SHMEM_%s ", d->name);
            const char *at = strstr(list, line);
            const char *eol = at ? strchr(at, '\n') : NULL;
            CHECK(at && eol);
            if (at && eol && numeric) {
                char tail[4096];
                snprintf(tail, sizeof(tail), "%.*s", (int)(eol - at), at);
                CHECK(strstr(tail, "range [") != NULL);
                /* no default shown as -1: auto, with what it becomes */
                CHECK(strstr(tail, " -1 ") == NULL);
                CHECK(!strstr(d->range, "auto|") || strstr(tail, " auto (") != NULL);
            }
        }
        /* grouped by category, each header before its rows */
        const char *core = strstr(list, "core: "), *ofi = strstr(list, "\nofi: ");
        const char *coll = strstr(list, "\ncoll: "), *dbg = strstr(list, "\ndebug: ");
        CHECK(core == list && ofi && coll && dbg && ofi < coll && coll < dbg);
        CHECK(ofi && coll && strstr(ofi, "SHMEM_OFI_BOUNCE_SIZE") < coll);
        CHECK(coll && dbg && strstr(coll, "SHMEM_BARRIER_ALGORITHM") < dbg);
        CHECK(strstr(list, "SHMEM_OFI_BOUNCE_SIZE         SIZE    auto (8K with shm, else 32K)  "));
        CHECK(strstr(list, "SHMEM_OFI_PROVIDER            STRING  \"\"  "));
        CHECK(strstr(list, "SHMEM_OFI_CQ_SIZE") &&
              strstr(strstr(list, "SHMEM_OFI_CQ_SIZE"), "; range [1, 1048576]\n"));
        free(list);
    }

    /* unknown SHMEM_* variables: one warning each, the closest name suggested */
    env_clear();
    nwarned = 0;
    CHECK(ofs_env_warn_unknown(capture) == 0 && nwarned == 0);
    setenv("SHMEM_SYMMETRIC_SIZE", "1G", 1);
    setenv("SMA_ANYTHING", "1", 1); /* only the SHMEM_ prefix is looked at */
    setenv("SHMEM_CC", "gcc", 1);   /* read by oshcc, not by the library */
    setenv("SHMEM_CXX", "g++", 1);
    CHECK(ofs_env_warn_unknown(capture) == 0 && nwarned == 0);
    unsetenv("SHMEM_CC");
    unsetenv("SHMEM_CXX");
    setenv("SHMEM_SYMETRIC_SIZE", "1G", 1);
    CHECK(ofs_env_warn_unknown(capture) == 1 && nwarned == 1);
    CHECK(strstr(warned[0], "SHMEM_SYMETRIC_SIZE is set") &&
          strstr(warned[0], "did you mean SHMEM_SYMMETRIC_SIZE?"));
    unsetenv("SHMEM_SYMETRIC_SIZE");
    /* an old name: not unknown, one line naming the new name */
    nwarned = 0;
    setenv("SHMEM_PROGRESS_HOT", "5", 1);
    CHECK(ofs_env_warn_unknown(capture) == 0 && nwarned == 1);
    CHECK(strcmp(warned[0], "SHMEM_PROGRESS_HOT is deprecated: it is now called "
                            "SHMEM_OFI_PROGRESS_HOT (the old name is still read)") == 0);
    nwarned = 0;
    setenv("SHMEM_OFI_PROGRESS_HOT", "7", 1);
    CHECK(ofs_env_warn_unknown(capture) == 0 && nwarned == 1);
    CHECK(strstr(warned[0], "SHMEM_PROGRESS_HOT is the old name of SHMEM_OFI_PROGRESS_HOT, which "
                            "is also set and wins"));
    CHECK(ofs_env_parse(&p, err, sizeof(err)) == OFS_OK && p.OFI_PROGRESS_HOT == 7);
    unsetenv("SHMEM_PROGRESS_HOT");
    unsetenv("SHMEM_OFI_PROGRESS_HOT");
    /* a misspelt old name: the new name suggested */
    nwarned = 0;
    setenv("SHMEM_BOUNCE_SIZ", "4K", 1);
    CHECK(ofs_env_warn_unknown(capture) == 1 && nwarned == 1);
    CHECK(strstr(warned[0], "SHMEM_BOUNCE_SIZ is set") &&
          strstr(warned[0], "did you mean SHMEM_OFI_BOUNCE_SIZE?"));
    unsetenv("SHMEM_BOUNCE_SIZ");
    nwarned = 0;
    setenv("SHMEM_DEUBG", "1", 1); /* two letters swapped: one edit */
    setenv("SHMEM_COMPLETELY_DIFFERENT", "1", 1);
    CHECK(ofs_env_warn_unknown(capture) == 2 && nwarned == 2);
    for (int i = 0; i < 2; i++) {
        if (strstr(warned[i], "SHMEM_DEUBG"))
            CHECK(strstr(warned[i], "did you mean SHMEM_DEBUG?") != NULL);
        else
            CHECK(strstr(warned[i], "SHMEM_COMPLETELY_DIFFERENT") &&
                  !strstr(warned[i], "did you mean"));
    }
    env_clear();

    if (failures)
        fprintf(stderr, "test_env: %d failures\n", failures);
    else
        printf("test_env: ok\n");
    return failures != 0;
}
