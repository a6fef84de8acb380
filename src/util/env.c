/* The parameter table (include/ofs_env_defs.h): parser and listing. */
#include "ofs.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* an ENUM row's RANGE is its word list: "|a" "|b" past the first bar is "a|b" */
#define OFS_ENV_WORD_BAR(row, c, w) "|" w
#define OFS_ENV_RANGE_ENUM(words) (words(OFS_ENV_WORD_BAR, x) + 1)
#define OFS_ENV_RANGE_SIZE(range) range
#define OFS_ENV_RANGE_LONG(range) range
#define OFS_ENV_RANGE_BOOL(range) range
#define OFS_ENV_RANGE_STRING(range) range

const struct ofs_env_desc ofs_env_table[] = {
#define OFS_ENV(name, cat, type, def, range, help) \
    { #name, OFS_CAT_##cat, #type, def, OFS_ENV_RANGE_##type(range), help },
#include "ofs_env_defs.h"
#undef OFS_ENV
};
const size_t ofs_env_count = sizeof(ofs_env_table) / sizeof(ofs_env_table[0]);

/* old names of renamed parameters */
static const struct env_alias {
    const char *old; /* without SHMEM_ */
    int id;
} env_aliases[] = {
#define OFS_ENV(name, cat, type, def, range, help)
#define OFS_ENV_ALIAS(old, new) { #old, OFS_PARAM_##new },
#include "ofs_env_defs.h"
#undef OFS_ENV_ALIAS
#undef OFS_ENV
};
#define ENV_NALIASES (sizeof(env_aliases) / sizeof(env_aliases[0]))

/* what auto became, reported by the transports (ofs_param_resolved) */
static long env_resolved[OFS_PARAM_COUNT];
static unsigned char env_resolved_set[OFS_PARAM_COUNT];

static const char *const env_cat_title[OFS_CAT_COUNT] = {
    [OFS_CAT_CORE] = "core: start-up, symmetric memory and routes",
    [OFS_CAT_SHM] = "shm: the shared-memory transport (same-node PEs)",
    [OFS_CAT_OFI] = "ofi: the libfabric transport",
    [OFS_CAT_COLL] = "coll: collectives and teams",
    [OFS_CAT_DEBUG] = "debug: debugging and testing",
};

/* *over_p: a well-formed whole number, negative or too large for a long, out of every
 * range of a SIZE row (which -1 may be in) */
static ofs_status_t env_parse_size(const char *str, long *out_p, int *over_p)
{
    char *end;
    long double v;
    long double mult = 1;

    *over_p = 0;
    while (isspace((unsigned char)*str))
        str++;
    if (*str == '\0')
        return OFS_ERR_INVAL;
    v = strtold(str, &end);
    if (end == str)
        return OFS_ERR_INVAL;
    switch (toupper((unsigned char)*end)) {
    case 'K':
        mult = 1024.0L;
        end++;
        break;
    case 'M':
        mult = 1024.0L * 1024;
        end++;
        break;
    case 'G':
        mult = 1024.0L * 1024 * 1024;
        end++;
        break;
    case 'T':
        mult = 1024.0L * 1024 * 1024 * 1024;
        end++;
        break;
    default: break;
    }
    if (mult != 1 && (*end == 'B' || *end == 'b'))
        end++;
    while (isspace((unsigned char)*end))
        end++;
    if (*end != '\0' || v != v /* nan */)
        return OFS_ERR_INVAL;
    v *= mult;
    if (v == -1.0L) {
        *out_p = -1;
        return OFS_OK;
    }
    if (v > 9.0e18L || v < -9.0e18L) {
        *over_p = 1;
        return OFS_ERR_INVAL;
    }
    if (v != (long double)(long)v)
        return OFS_ERR_INVAL;
    if (v < 0) {
        *over_p = 1;
        return OFS_ERR_INVAL;
    }
    *out_p = (long)v;
    return OFS_OK;
}

ofs_status_t ofs_env_parse_size(const char *str, long *out_p)
{
    int over;

    return env_parse_size(str, out_p, &over);
}

ofs_status_t ofs_env_parse_bool(const char *str, int *out_p)
{
    static const char *yes[] = { "1", "y", "yes", "true", "on" };
    static const char *no[] = { "0", "n", "no", "false", "off", "" };

    for (size_t i = 0; i < sizeof(yes) / sizeof(yes[0]); i++)
        if (strcasecmp(str, yes[i]) == 0) {
            *out_p = 1;
            return OFS_OK;
        }
    for (size_t i = 0; i < sizeof(no) / sizeof(no[0]); i++)
        if (strcasecmp(str, no[i]) == 0) {
            *out_p = 0;
            return OFS_OK;
        }
    return OFS_ERR_INVAL;
}

static ofs_status_t env_parse_long(const char *str, long *out_p, int *over_p)
{
    char *end;
    long v;

    errno = 0;
    v = strtol(str, &end, 0);
    while (isspace((unsigned char)*end))
        end++;
    *over_p = end != str && *end == '\0' && errno == ERANGE;
    if (end == str || *end != '\0' || errno != 0)
        return OFS_ERR_INVAL;
    *out_p = v;
    return OFS_OK;
}

static int env_numeric(const char *type)
{
    return strcmp(type, "SIZE") == 0 || strcmp(type, "LONG") == 0;
}

/* Does the numeric row d take the word auto ("auto|MIN..MAX")? */
static int env_takes_auto(const struct ofs_env_desc *d)
{
    return env_numeric(d->type) && strncmp(d->range, "auto|", 5) == 0;
}

static ofs_status_t env_parse_num(const char *type, const char *str, long *out_p, int *over_p)
{
    if (strcmp(type, "SIZE") == 0)
        return env_parse_size(str, out_p, over_p);
    return env_parse_long(str, out_p, over_p);
}

/* The index of word in the '|'-separated words of list, or -1. */
static int env_word_index(const char *word, const char *list)
{
    size_t n = strlen(word);
    int k = 0;

    for (const char *p = list; p; k++) {
        const char *bar = strchr(p, '|');
        size_t len = bar ? (size_t)(bar - p) : strlen(p);
        if (len == n && strncmp(p, word, n) == 0)
            return k;
        p = bar ? bar + 1 : NULL;
    }
    return -1;
}

/* *over_p: well-formed but outside every range (a number too large, an ENUM's
 * unknown word). */
static ofs_status_t env_parse_one(const struct ofs_env_desc *d, const char *str, void *field,
                                  int *over_p)
{
    *over_p = 0;
    if (env_takes_auto(d) && strcmp(str, "auto") == 0) {
        *(long *)field = OFS_PARAM_AUTO;
        return OFS_OK;
    }
    if (env_numeric(d->type))
        return env_parse_num(d->type, str, (long *)field, over_p);
    if (strcmp(d->type, "BOOL") == 0)
        return ofs_env_parse_bool(str, (int *)field);
    if (strcmp(d->type, "ENUM") == 0) {
        int k = env_word_index(str, d->range);
        *over_p = k < 0;
        if (k < 0)
            return OFS_ERR_INVAL;
        *(int *)field = k;
        return OFS_OK;
    }
    *(const char **)field = str;
    return OFS_OK;
}

/* The bounds of a SIZE or LONG row ("MIN..MAX"); OFS_ERR_INVAL if the table is wrong. */
static ofs_status_t env_num_range(const struct ofs_env_desc *d, long *min_p, long *max_p)
{
    const char *r = d->range + (env_takes_auto(d) ? 5 : 0);
    const char *dots = strstr(r, "..");
    char lo[64];
    int over;

    if (!dots || (size_t)(dots - r) >= sizeof(lo))
        return OFS_ERR_INVAL;
    snprintf(lo, sizeof(lo), "%.*s", (int)(dots - r), r);
    if (env_parse_num(d->type, lo, min_p, &over) != OFS_OK ||
        env_parse_num(d->type, dots + 2, max_p, &over) != OFS_OK || *min_p > *max_p)
        return OFS_ERR_INVAL;
    return OFS_OK;
}

/* The range of a row as the listing and the messages show it ("" when any value of
 * the type goes); with_auto: "auto or " before the range of a row that takes auto. */
static void env_range_text(const struct ofs_env_desc *d, int with_auto, char *buf, size_t len)
{
    const char *r = d->range;

    buf[0] = '\0';
    if (env_numeric(d->type)) {
        int a = env_takes_auto(d);
        const char *dots = strstr(r, "..");
        r += a ? 5 : 0;
        if (dots)
            snprintf(buf, len, "%srange [%.*s, %s]", a && with_auto ? "auto or " : "",
                     (int)(dots - r), r, dots + 2);
    } else if (strcmp(d->type, "ENUM") == 0) {
        size_t n = (size_t)snprintf(buf, len, "one of ");
        for (const char *p = r; *p && n + 2 < len; p++) {
            if (*p == '|') {
                buf[n++] = ',';
                buf[n++] = ' ';
            } else {
                buf[n++] = *p;
            }
        }
        buf[n < len ? n : len - 1] = '\0';
    } else if (strcmp(d->type, "STRING") != 0 || r[0] == '\0') {
        return;
    } else if (strcmp(r, "<nonempty>") == 0) {
        snprintf(buf, len, "not empty");
    } else if (strcmp(r, "<abspath>") == 0) {
        snprintf(buf, len, "an absolute path");
    }
}

/* Is the parsed value within the row's range?  Else a message naming var. */
static ofs_status_t env_check_range(const struct ofs_env_desc *d, const char *var, const char *val,
                                    const void *field, int over, char *errbuf, size_t errlen)
{
    char text[256];
    long min, max;

    env_range_text(d, 0, text, sizeof(text));
    if (env_numeric(d->type)) {
        long v = *(const long *)field;
        if (env_num_range(d, &min, &max) != OFS_OK) {
            snprintf(errbuf, errlen, "internal: bad range '%s' for SHMEM_%s", d->range, d->name);
            return OFS_ERR_INVAL;
        }
        if (!over && v == OFS_PARAM_AUTO && env_takes_auto(d))
            return OFS_OK;
        if (over || v < min || v > max) {
            snprintf(errbuf, errlen, "%s=%s is out of %s%s", var, val, text,
                     env_takes_auto(d) ? " and not auto" : "");
            return OFS_ERR_INVAL;
        }
        return OFS_OK;
    }
    if (strcmp(d->type, "ENUM") == 0) {
        if (!over)
            return OFS_OK;
    } else if (strcmp(d->type, "STRING") != 0 || d->range[0] == '\0') {
        return OFS_OK;
    } else {
        const char *s = *(const char *const *)field;
        if (strcmp(d->range, "<nonempty>") == 0 && s[0] != '\0')
            return OFS_OK;
        if (strcmp(d->range, "<abspath>") == 0 && s[0] == '/')
            return OFS_OK;
    }
    snprintf(errbuf, errlen, "%s='%s' is not valid: expected %s", var, val, text);
    return OFS_ERR_INVAL;
}

static const char *env_type_hint(const char *type)
{
    if (strcmp(type, "SIZE") == 0)
        return "a byte count with an optional K, M, G or T suffix, e.g. 512M";
    if (strcmp(type, "LONG") == 0)
        return "an integer";
    if (strcmp(type, "BOOL") == 0)
        return "0/1, yes/no, true/false or on/off";
    return "a string";
}

/* The value of row i in the environment, with the name it was found under in var:
 * SHMEM_<NAME>, else SMA_<NAME> (the spec's older spelling of a few), else the
 * SHMEM_ old name of a renamed row. */
static const char *env_lookup(size_t i, char *var, size_t len)
{
    const char *name = ofs_env_table[i].name, *val;

    snprintf(var, len, "SHMEM_%s", name);
    if ((val = getenv(var)))
        return val;
    snprintf(var, len, "SMA_%s", name);
    if ((val = getenv(var)))
        return val;
    for (size_t k = 0; k < ENV_NALIASES; k++) {
        if (env_aliases[k].id != (int)i)
            continue;
        snprintf(var, len, "SHMEM_%s", env_aliases[k].old);
        if ((val = getenv(var)))
            return val;
    }
    snprintf(var, len, "SHMEM_%s", name);
    return NULL;
}

ofs_status_t ofs_env_parse(struct ofs_params *params, char *errbuf, size_t errlen)
{
    void *fields[] = {
#define OFS_ENV(name, cat, type, def, range, help) &params->name,
#include "ofs_env_defs.h"
#undef OFS_ENV
    };
    char var[128];

    for (size_t i = 0; i < ofs_env_count; i++) {
        const struct ofs_env_desc *d = &ofs_env_table[i];
        /* "auto (RULE)": the rule is for the listings */
        const char *def = env_takes_auto(d) && strncmp(d->def, "auto", 4) == 0 ? "auto" : d->def;
        const char *val;
        int over;

        snprintf(var, sizeof(var), "SHMEM_%s", d->name);
        if (env_parse_one(d, def, fields[i], &over) != OFS_OK ||
            env_check_range(d, var, def, fields[i], over, errbuf, errlen) != OFS_OK) {
            snprintf(errbuf, errlen, "internal: bad default or range for SHMEM_%s", d->name);
            return OFS_ERR_INVAL;
        }
        val = env_lookup(i, var, sizeof(var));
        if (!val)
            continue;
        if (env_parse_one(d, val, fields[i], &over) != OFS_OK && !over) {
            snprintf(errbuf, errlen, "%s='%s' is malformed: expected %s%s", var, val,
                     env_type_hint(d->type), env_takes_auto(d) ? " or auto" : "");
            return OFS_ERR_INVAL;
        }
        if (env_check_range(d, var, val, fields[i], over, errbuf, errlen) != OFS_OK)
            return OFS_ERR_INVAL;
    }
    return OFS_OK;
}

int ofs_param_find(const char *name)
{
    for (size_t i = 0; i < ofs_env_count; i++)
        if (strcmp(ofs_env_table[i].name, name) == 0)
            return (int)i;
    return -1;
}

const char *ofs_param_word(int id, int value)
{
    static __thread char word[64];

    if (id < 0 || (size_t)id >= ofs_env_count || strcmp(ofs_env_table[id].type, "ENUM") != 0)
        return "?";
    const char *p = ofs_env_table[id].range;
    for (int k = 0; p && k < value; k++) {
        p = strchr(p, '|');
        p = p ? p + 1 : NULL;
    }
    if (!p || value < 0)
        return "?";
    snprintf(word, sizeof(word), "%.*s", (int)strcspn(p, "|"), p);
    return word;
}

void ofs_param_resolved(int id, long value)
{
    if (id < 0 || id >= OFS_PARAM_COUNT)
        return;
    env_resolved[id] = value;
    env_resolved_set[id] = 1;
}

/* The value of row i as the listings show it: what params holds, or (params NULL) the
 * default; auto with what it became or, not known, its rule. */
static void env_value_text(size_t i, const void *field, char *val, size_t len)
{
    const struct ofs_env_desc *d = &ofs_env_table[i];

    if (!field)
        snprintf(val, len, "%s", d->def);
    else if (strcmp(d->type, "STRING") == 0)
        snprintf(val, len, "%s", *(const char *const *)field);
    else if (strcmp(d->type, "ENUM") == 0)
        snprintf(val, len, "%s", ofs_param_word((int)i, *(const int *)field));
    else if (strcmp(d->type, "BOOL") == 0)
        snprintf(val, len, "%d", *(const int *)field);
    else if (env_takes_auto(d) && *(const long *)field == OFS_PARAM_AUTO && env_resolved_set[i])
        snprintf(val, len, "auto (%ld)", env_resolved[i]);
    else if (env_takes_auto(d) && *(const long *)field == OFS_PARAM_AUTO)
        snprintf(val, len, "%s", d->def);
    else
        snprintf(val, len, "%ld", *(const long *)field);
    /* an empty value shows, so that the columns stay apart */
    if (val[0] == '\0')
        snprintf(val, len, "\"\"");
}

void ofs_env_print(FILE *out, const struct ofs_params *params)
{
    const void *fields[] = {
#define OFS_ENV(name, cat, type, def, range, help) params ? (const void *)&params->name : NULL,
#include "ofs_env_defs.h"
#undef OFS_ENV
    };

    for (int cat = 0; cat < OFS_CAT_COUNT; cat++) {
        fprintf(out, "%s\n", env_cat_title[cat]);
        for (size_t i = 0; i < ofs_env_count; i++) {
            const struct ofs_env_desc *d = &ofs_env_table[i];
            char val[256], range[256];

            if (d->category != cat)
                continue;
            env_value_text(i, fields[i], val, sizeof(val));
            env_range_text(d, 1, range, sizeof(range));
            /* columns apart by two spaces at least: gen-env-man.sh splits on them */
            fprintf(out, "  SHMEM_%-22s  %-6s  %-12s  %s%s%s\n", d->name, d->type, val, d->help,
                    range[0] ? "; " : "", range);
        }
    }
}

/* SHMEM_* variables read outside the table, by this tree's tools; a name here draws no
 * warning.  oshcc/oshc++ read SHMEM_CC/SHMEM_CXX (a user's shell may export them). */
static const char *const env_read_elsewhere[] = { "SHMEM_CC", "SHMEM_CXX", NULL };

/* Edit distance (insertions, deletions, substitutions and swaps of neighbours) between
 * a and b, or a number larger than any useful one for long names. */
static int env_distance(const char *a, const char *b)
{
    enum { N = 64 };
    size_t la = strlen(a), lb = strlen(b);
    int d[N + 1][N + 1];

    if (la > N || lb > N)
        return N;
    for (size_t i = 0; i <= la; i++)
        d[i][0] = (int)i;
    for (size_t j = 0; j <= lb; j++)
        d[0][j] = (int)j;
    for (size_t i = 1; i <= la; i++) {
        for (size_t j = 1; j <= lb; j++) {
            int sub = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
            int del = d[i - 1][j] + 1, ins = d[i][j - 1] + 1;
            int best = sub < del ? sub : del;
            best = best < ins ? best : ins;
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
                d[i - 2][j - 2] + 1 < best)
                best = d[i - 2][j - 2] + 1;
            d[i][j] = best;
        }
    }
    return d[la][lb];
}

int ofs_env_warn_unknown(void (*warn)(const char *fmt, ...))
{
    extern char **environ;
    int n = 0;

    for (char **e = environ; e && *e; e++) {
        const char *eq = strchr(*e, '=');
        char name[128];
        const char *close = NULL;
        int known = 0, best = 1 << 20;

        if (strncmp(*e, "SHMEM_", 6) != 0 || !eq || (size_t)(eq - *e) >= sizeof(name))
            continue;
        snprintf(name, sizeof(name), "%.*s", (int)(eq - *e), *e);
        for (size_t i = 0; i < ofs_env_count && !known; i++) {
            int dist = env_distance(name + 6, ofs_env_table[i].name);
            known = dist == 0;
            if (dist < best) {
                best = dist;
                close = ofs_env_table[i].name;
            }
        }
        /* a misspelt old name: suggest the new one */
        for (size_t k = 0; k < ENV_NALIASES && !known; k++) {
            int dist = env_distance(name + 6, env_aliases[k].old);
            if (dist > 0 && dist < best) {
                best = dist;
                close = ofs_env_table[env_aliases[k].id].name;
            }
        }
        for (size_t i = 0; env_read_elsewhere[i] && !known; i++)
            known = strcmp(name, env_read_elsewhere[i]) == 0;
        for (size_t k = 0; k < ENV_NALIASES && !known; k++) {
            const char *now = ofs_env_table[env_aliases[k].id].name;
            char newvar[128];
            if (strcmp(name + 6, env_aliases[k].old) != 0)
                continue;
            known = 1;
            snprintf(newvar, sizeof(newvar), "SHMEM_%s", now);
            if (getenv(newvar))
                warn("%s is the old name of %s, which is also set and wins; unset %s", name, newvar,
                     name);
            else
                warn("%s is deprecated: it is now called %s (the old name is still read)", name,
                     newvar);
        }
        if (known)
            continue;
        /* a typo: about one edit per three letters, at least two */
        size_t len = strlen(name + 6);
        if (close && best <= (len / 3 > 2 ? (int)(len / 3) : 2))
            warn("%s is set but is not a parameter of this library (did you mean "
                 "SHMEM_%s?); ofishmem_info --params lists them",
                 name, close);
        else
            warn("%s is set but is not a parameter of this library; ofishmem_info "
                 "--params lists them",
                 name);
        n++;
    }
    return n;
}
