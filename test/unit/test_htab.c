/* Unit test: handle tables (include/ofs_handle.h).  A destroyed handle stays dead for
 * OFS_HTAB_ROUND creations (it never aliases a newer object), the cap of live objects
 * holds, a long-lived object is skipped and kept intact, and the backed memory stays
 * that of the live objects (released chunks are not resident) for slots smaller than a
 * page (one or several bitmap words per page) and larger than one. */
#define _GNU_SOURCE
#include "ofs_handle.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "unit_check.h"

#define MAGIC 0x74657374u

static size_t resident(const struct ofs_htab *h)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE), n = h->len / page, r = 0;
    unsigned char *v = malloc(n);

    if (!v || mincore(h->base, h->len, v) != 0) {
        free(v);
        return (size_t)-1;
    }
    for (size_t i = 0; i < n; i++)
        r += v[i] & 1;
    free(v);
    return r;
}

static void *make(struct ofs_htab *h)
{
    uint32_t *p = ofs_htab_alloc(h);

    if (p)
        *p = MAGIC;
    return p;
}

static void churn(size_t slot, uint32_t cap, uint32_t rounds)
{
    struct ofs_htab h = OFS_HTAB_INITIALIZER;
    size_t page = (size_t)sysconf(_SC_PAGESIZE), chunk;
    uint32_t *first, *kept, *p;
    uint32_t n, aliased = 0;

    CHECK(ofs_htab_init(&h, slot, cap) == OFS_OK);
    CHECK(h.nslots >= cap + OFS_HTAB_ROUND);
    chunk = h.chunk;
    CHECK(chunk >= slot && chunk % page == 0);
    first = make(&h);
    kept = make(&h);
    CHECK(first && kept);
    kept[1] = 12345;
    ofs_htab_free(&h, first);
    CHECK(!ofs_htab_holds(&h, first, slot, MAGIC));
    /* the whole table round but the slots of cap objects: never first's slot again */
    for (n = 0; n < rounds; n++) {
        p = make(&h);
        if (p == first)
            aliased++;
        if (ofs_htab_holds(&h, first, slot, MAGIC))
            aliased++;
        ofs_htab_free(&h, p);
    }
    CHECK(aliased == 0);
    CHECK(ofs_htab_holds(&h, kept, slot, MAGIC) && kept[1] == 12345);
    CHECK(ofs_htab_at(&h, (uint32_t)(((char *)kept - h.base) / slot)) == kept);
    /* kept's chunk, the chunk of the search, the run waiting for release, and perhaps
     * first's (a stale read maps the zero page): nothing else stays backed */
    CHECK(resident(&h) <= (3 + OFS_HTAB_BATCH) * chunk / page);
    /* the cap: cap objects alive (kept is one), then NULL */
    {
        void **v = calloc(cap, sizeof(void *));

        for (n = 0; v && n + 1 < cap; n++)
            CHECK((v[n] = make(&h)) != NULL);
        CHECK(ofs_htab_alloc(&h) == NULL);
        for (n = 0; v && n + 1 < cap; n++)
            ofs_htab_free(&h, v[n]);
        CHECK((p = make(&h)) != NULL);
        ofs_htab_free(&h, p);
        free(v);
    }
    ofs_htab_fini(&h);
}

int main(void)
{
    /* slots of contexts and requests: the stale handle survives a full guarantee */
    churn(128, 16, OFS_HTAB_ROUND);
    /* many slots per bitmap word, and slots larger than a page */
    churn(8, 4, 70000);
    churn(2 * (size_t)sysconf(_SC_PAGESIZE), 4, 5000);
    if (failures)
        fprintf(stderr, "test_htab: %d failures\n", failures);
    else
        printf("test_htab: ok\n");
    return failures != 0;
}
