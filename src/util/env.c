/* The parameter table (include/ofs_env_defs.h): parser and listing. */
#include "ofs.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

const struct ofs_env_desc ofs_env_table[] = {
#define OFS_ENV(name, type, def, help) { #name, #type, def, help },
#include "ofs_env_defs.h"
#undef OFS_ENV
};
const size_t ofs_env_count = sizeof(ofs_env_table) / sizeof(ofs_env_table[0]);

ofs_status_t ofs_env_parse_size(const char *str, long *out_p)
{
    char *end;
    long double v;
    long double mult = 1;

    while (isspace((unsigned char)*str))
        str++;
    if (*str == '\0')
        return OFS_ERR_INVAL;
    errno = 0;
    v = strtold(str, &end);
    if (end == str || errno != 0)
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
    if (*end != '\0')
        return OFS_ERR_INVAL;
    v *= mult;
    if (v == -1.0L) {
        *out_p = -1;
        return OFS_OK;
    }
    if (v < 0 || v > 9.0e18L || v != (long double)(long)v)
        return OFS_ERR_INVAL;
    *out_p = (long)v;
    return OFS_OK;
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

static ofs_status_t env_parse_long(const char *str, long *out_p)
{
    char *end;
    long v;

    errno = 0;
    v = strtol(str, &end, 0);
    while (isspace((unsigned char)*end))
        end++;
    if (end == str || *end != '\0' || errno != 0)
        return OFS_ERR_INVAL;
    *out_p = v;
    return OFS_OK;
}

static ofs_status_t env_parse_one(const char *type, const char *str, void *field)
{
    if (strcmp(type, "SIZE") == 0)
        return ofs_env_parse_size(str, (long *)field);
    if (strcmp(type, "LONG") == 0)
        return env_parse_long(str, (long *)field);
    if (strcmp(type, "BOOL") == 0)
        return ofs_env_parse_bool(str, (int *)field);
    *(const char **)field = str;
    return OFS_OK;
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

ofs_status_t ofs_env_parse(struct ofs_params *params, char *errbuf, size_t errlen)
{
    void *fields[] = {
#define OFS_ENV(name, type, def, help) &params->name,
#include "ofs_env_defs.h"
#undef OFS_ENV
    };
    char var[128];

    for (size_t i = 0; i < ofs_env_count; i++) {
        const struct ofs_env_desc *d = &ofs_env_table[i];
        const char *val;

        if (env_parse_one(d->type, d->def, fields[i]) != OFS_OK) {
            snprintf(errbuf, errlen, "internal: bad default for SHMEM_%s", d->name);
            return OFS_ERR_INVAL;
        }
        snprintf(var, sizeof(var), "SHMEM_%s", d->name);
        val = getenv(var);
        /* the spec names SMA_ variables as the older spelling of a few */
        if (!val) {
            snprintf(var, sizeof(var), "SMA_%s", d->name);
            val = getenv(var);
            if (!val)
                snprintf(var, sizeof(var), "SHMEM_%s", d->name);
        }
        if (!val)
            continue;
        if (env_parse_one(d->type, val, fields[i]) != OFS_OK) {
            snprintf(errbuf, errlen, "%s='%s' is malformed: expected %s", var, val,
                     env_type_hint(d->type));
            return OFS_ERR_INVAL;
        }
    }
    return OFS_OK;
}

void ofs_env_print(FILE *out, const struct ofs_params *params)
{
    const void *fields[] = {
#define OFS_ENV(name, type, def, help) params ? (const void *)&params->name : NULL,
#include "ofs_env_defs.h"
#undef OFS_ENV
    };

    for (size_t i = 0; i < ofs_env_count; i++) {
        const struct ofs_env_desc *d = &ofs_env_table[i];
        char val[256];

        if (!fields[i])
            snprintf(val, sizeof(val), "%s", d->def);
        else if (strcmp(d->type, "STRING") == 0)
            snprintf(val, sizeof(val), "%s", *(const char *const *)fields[i]);
        else if (strcmp(d->type, "BOOL") == 0)
            snprintf(val, sizeof(val), "%d", *(const int *)fields[i]);
        else
            snprintf(val, sizeof(val), "%ld", *(const long *)fields[i]);
        fprintf(out, "  SHMEM_%-22s %-7s %-12s %s\n", d->name, d->type, val, d->help);
    }
}
