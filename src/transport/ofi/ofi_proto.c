/*
 * Put protocol selection and chunking: pure functions of (length, thresholds), so a
 * unit test checks every boundary without a network (test/unit/test_ofi_proto.c).
 */
#include "ofi_internal.h"

static size_t min_sz(size_t a, size_t b)
{
    return a < b ? a : b;
}

void ofi_thresh_compute(size_t prov_inject, size_t prov_max_msg, long env_inject, long env_bounce,
                        long env_bounce_bufs, long env_chunk, struct ofi_thresh *t_p)
{
    struct ofi_thresh t;

    t.chunk = prov_max_msg ? prov_max_msg : SIZE_MAX;
    if (env_chunk > 0)
        t.chunk = min_sz(t.chunk, (size_t)env_chunk);
    /* SHMEM_OFI_INJECT_SIZE can only lower the provider's inject size */
    t.inject_max = env_inject < 0 ? prov_inject : min_sz(prov_inject, (size_t)env_inject);
    t.inject_max = min_sz(t.inject_max, t.chunk);
    t.bounce_count = env_bounce_bufs > 0 ? (size_t)env_bounce_bufs : 0;
    t.bounce_max = (env_bounce > 0 && t.bounce_count) ? (size_t)env_bounce : 0;
    /* a bounce buffer goes out in one fi_writemsg */
    t.bounce_max = min_sz(t.bounce_max, t.chunk);
    if (t.bounce_max == 0)
        t.bounce_count = 0;
    *t_p = t;
}

enum ofi_put_proto ofi_put_proto_select(size_t len, const struct ofi_thresh *t)
{
    if (len <= t->inject_max)
        return OFI_PUT_INJECT;
    if (len <= t->bounce_max)
        return OFI_PUT_BOUNCE;
    return OFI_PUT_LARGE;
}

const char *ofi_put_proto_name(enum ofi_put_proto p)
{
    static const char *const names[] = {
        [OFI_PUT_INJECT] = "inject",
        [OFI_PUT_BOUNCE] = "bounce",
        [OFI_PUT_LARGE] = "large",
    };
    return names[p];
}

size_t ofi_chunk_count(size_t len, const struct ofi_thresh *t)
{
    if (len == 0)
        return 0;
    return len / t->chunk + (len % t->chunk != 0);
}
