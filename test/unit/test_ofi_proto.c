/* The OFI put protocol selection and chunking: every boundary, no network. */
#include "../../src/transport/ofi/ofi_internal.h"

#include <stdio.h>

#include "unit_check.h"

static enum ofi_put_proto sel(size_t len, const struct ofi_thresh *t)
{
    return ofi_put_proto_select(len, t);
}

int main(void)
{
    struct ofi_thresh t;

    /* tcp;ofi_rxm-like: inject 64, unlimited messages, defaults 8K x 64 bounce */
    ofi_thresh_compute(64, SIZE_MAX, -1, 8192, 64, 0, &t);
    CHECK(t.inject_max == 64 && t.bounce_max == 8192 && t.bounce_count == 64);
    CHECK(t.chunk == SIZE_MAX);
    CHECK(sel(1, &t) == OFI_PUT_INJECT);
    CHECK(sel(64, &t) == OFI_PUT_INJECT);
    CHECK(sel(65, &t) == OFI_PUT_BOUNCE);
    CHECK(sel(8192, &t) == OFI_PUT_BOUNCE);
    CHECK(sel(8193, &t) == OFI_PUT_LARGE);
    CHECK(sel((size_t)1 << 40, &t) == OFI_PUT_LARGE);
    CHECK(ofi_chunk_count(0, &t) == 0);
    CHECK(ofi_chunk_count((size_t)1 << 40, &t) == 1);

    /* shm-like: inject 4096 */
    ofi_thresh_compute(4096, SIZE_MAX, -1, 8192, 64, 0, &t);
    CHECK(sel(4096, &t) == OFI_PUT_INJECT && sel(4097, &t) == OFI_PUT_BOUNCE);

    /* SHMEM_OFI_INJECT_SIZE lowers, never raises */
    ofi_thresh_compute(64, SIZE_MAX, 16, 8192, 64, 0, &t);
    CHECK(t.inject_max == 16 && sel(16, &t) == OFI_PUT_INJECT && sel(17, &t) == OFI_PUT_BOUNCE);
    ofi_thresh_compute(64, SIZE_MAX, 1000, 8192, 64, 0, &t);
    CHECK(t.inject_max == 64);
    /* inject off */
    ofi_thresh_compute(64, SIZE_MAX, 0, 8192, 64, 0, &t);
    CHECK(t.inject_max == 0 && sel(1, &t) == OFI_PUT_BOUNCE);

    /* bounce off: by size or by buffer count */
    ofi_thresh_compute(64, SIZE_MAX, -1, 0, 64, 0, &t);
    CHECK(t.bounce_max == 0 && t.bounce_count == 0);
    CHECK(sel(64, &t) == OFI_PUT_INJECT && sel(65, &t) == OFI_PUT_LARGE);
    ofi_thresh_compute(64, SIZE_MAX, -1, 8192, 0, 0, &t);
    CHECK(t.bounce_max == 0 && sel(65, &t) == OFI_PUT_LARGE);
    /* everything zero-copy */
    ofi_thresh_compute(64, SIZE_MAX, 0, 0, 64, 0, &t);
    CHECK(sel(1, &t) == OFI_PUT_LARGE);

    /* chunking: SHMEM_OFI_MAX_CHUNK and the provider's max_msg_size */
    ofi_thresh_compute(64, SIZE_MAX, -1, 8192, 64, 4096, &t);
    CHECK(t.chunk == 4096 && t.bounce_max == 4096); /* a bounce goes in one message */
    CHECK(sel(4096, &t) == OFI_PUT_BOUNCE && sel(4097, &t) == OFI_PUT_LARGE);
    CHECK(ofi_chunk_count(1, &t) == 1 && ofi_chunk_count(4096, &t) == 1);
    CHECK(ofi_chunk_count(4097, &t) == 2 && ofi_chunk_count(8192, &t) == 2);
    CHECK(ofi_chunk_count(8193, &t) == 3);
    ofi_thresh_compute(64, 1000, -1, 8192, 64, 0, &t);
    CHECK(t.chunk == 1000 && t.bounce_max == 1000 && ofi_chunk_count(2001, &t) == 3);
    ofi_thresh_compute(64, 1000, -1, 8192, 64, 4096, &t); /* the smaller wins */
    CHECK(t.chunk == 1000);
    ofi_thresh_compute(64, 32, -1, 8192, 64, 0, &t); /* inject never above a chunk */
    CHECK(t.inject_max == 32 && sel(33, &t) == OFI_PUT_LARGE);

    CHECK(ofi_put_proto_name(OFI_PUT_INJECT)[0] == 'i');
    CHECK(ofi_put_proto_name(OFI_PUT_LARGE)[0] == 'l');
    printf("test_ofi_proto: %s\n", failures ? "FAILED" : "ok");
    return failures != 0;
}
