/* Tables of handle objects (contexts, teams, requests): see include/ofs_handle.h. */
#include "ofs_handle.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static uint32_t chunk_of(const struct ofs_htab *h, uint32_t i)
{
    return (uint32_t)((size_t)i * h->slot / h->chunk);
}

/* No slot of chunk c is handed out */
static int chunk_empty(const struct ofs_htab *h, uint32_t c)
{
    size_t per = h->chunk / h->slot, i = (size_t)c * per;

    if (per < 64)
        return !(h->used[i / 64] & (((1ULL << per) - 1) << (i % 64)));
    for (size_t w = i / 64; w < (i + per) / 64; w++)
        if (h->used[w])
            return 0;
    return 1;
}

/* Give chunks [c, c + n) back (they read as zeros from here on: dead handles) and make
 * them read-only again (uncharged) */
static void chunk_release(struct ofs_htab *h, uint32_t c, uint32_t n)
{
    madvise(h->base + (size_t)c * h->chunk, (size_t)n * h->chunk, MADV_DONTNEED);
    mprotect(h->base + (size_t)c * h->chunk, (size_t)n * h->chunk, PROT_READ);
    for (uint32_t k = c; k < c + n; k++)
        h->rw[k / 64] &= ~(1ULL << (k % 64));
}

/* Make chunk c writable if it is not (its first slot is handed out); 0 if the kernel
 * refuses (the commit limit of a strictly overcommitting node) */
static int chunk_writable(struct ofs_htab *h, uint32_t c)
{
    if (h->rw[c / 64] >> (c % 64) & 1)
        return 1;
    char *at = h->base + (size_t)c * h->chunk;

    if (mprotect(at, h->chunk, PROT_READ | PROT_WRITE) != 0)
        return 0;
#ifdef MADV_POPULATE_WRITE
    /* back the chunk in one call rather than a fault per page (older kernels: EINVAL,
     * and the pages fault in as they are used) */
    madvise(at, h->chunk, MADV_POPULATE_WRITE);
#endif
    h->rw[c / 64] |= 1ULL << (c % 64);
    return 1;
}

/* The search left chunk c with nothing on it: into the pending run, released with one
 * call (and one round of TLB shootdowns) per OFS_HTAB_BATCH chunks */
static void chunk_left(struct ofs_htab *h, uint32_t c)
{
    if (h->rel_n && h->rel_lo + h->rel_n != c) {
        chunk_release(h, h->rel_lo, h->rel_n);
        h->rel_n = 0;
    }
    if (!h->rel_n)
        h->rel_lo = c;
    if (++h->rel_n == OFS_HTAB_BATCH) {
        chunk_release(h, h->rel_lo, h->rel_n);
        h->rel_n = 0;
    }
}

ofs_status_t ofs_htab_init(struct ofs_htab *h, size_t slot, uint32_t cap)
{
    long page = sysconf(_SC_PAGESIZE);
    size_t round;
    void *p;

    h->slot = slot;
    if (page <= 0)
        page = 4096;
    h->chunk =
        (size_t)page * OFS_HTAB_CHUNK_PAGES > slot ? (size_t)page * OFS_HTAB_CHUNK_PAGES : slot;
    /* whole chunks and whole words of the bitmap (both powers of two) */
    round = h->chunk / slot > 64 ? h->chunk / slot : 64;
    h->cap = cap;
    h->nslots = (uint32_t)(((size_t)cap + OFS_HTAB_ROUND + round - 1) / round * round);
    h->len = slot * h->nslots;
    h->next = h->nused = h->rel_n = 0;
    h->last = UINT32_MAX;
    h->used = calloc(h->nslots / 64, sizeof(uint64_t));
    h->rw = calloc((h->len / h->chunk + 63) / 64, sizeof(uint64_t));
    if (!h->used || !h->rw) {
        free(h->used);
        free(h->rw);
        h->used = h->rw = NULL;
        return OFS_ERR_NOMEM;
    }
    /* address space only, read-only (reads as zeros: dead): a chunk is made writable
     * and backed once a slot on it is first handed out */
    p = mmap(NULL, h->len, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED) {
        ofs_log_error("no address space for %u handles of %zu bytes: %m", h->nslots, slot);
        free(h->used);
        free(h->rw);
        h->used = h->rw = NULL;
        return OFS_ERR_NOMEM;
    }
    h->base = p;
    return OFS_OK;
}

void ofs_htab_fini(struct ofs_htab *h)
{
    if (h->base)
        munmap(h->base, h->len);
    free(h->used);
    free(h->rw);
    h->base = NULL;
    h->used = h->rw = NULL;
    h->len = 0;
    h->cap = h->nslots = h->next = h->nused = h->rel_n = 0;
    h->last = UINT32_MAX;
}

void *ofs_htab_alloc(struct ofs_htab *h)
{
    void *p = NULL;

    if (!h->unlocked)
        pthread_mutex_lock(&h->lock);
    if (h->nused < h->cap) {
        /* cap < nslots: there is a free slot; the first at or after next, round-robin */
        uint32_t i = h->next;

        for (;;) {
            uint64_t free_bits = ~h->used[i / 64] & (~0ULL << (i % 64));

            if (free_bits) {
                i = i / 64 * 64 + (uint32_t)__builtin_ctzll(free_bits);
                break;
            }
            i = (i / 64 + 1) * 64;
            if (i >= h->nslots)
                i = 0;
        }
        if (!chunk_writable(h, chunk_of(h, i))) {
            int e = errno;

            if (!h->unlocked)
                pthread_mutex_unlock(&h->lock);
            ofs_log_error("no memory for a handle of %zu bytes: mprotect: %s", h->slot,
                          strerror(e));
            return NULL;
        }
        h->used[i / 64] |= 1ULL << (i % 64);
        h->nused++;
        h->next = i + 1 < h->nslots ? i + 1 : 0;
        /* the search left the chunk of the previous slot: release it if nothing is on it
         * (the pending run is behind the search: nothing is handed out there before
         * it is released) */
        if (h->last != UINT32_MAX && chunk_of(h, h->last) != chunk_of(h, i) &&
            chunk_empty(h, chunk_of(h, h->last)))
            chunk_left(h, chunk_of(h, h->last));
        h->last = i;
        p = h->base + (size_t)i * h->slot;
    }
    if (!h->unlocked)
        pthread_mutex_unlock(&h->lock);
    /* our bit is set: nobody releases this chunk under us */
    if (p)
        memset(p, 0, h->slot);
    return p;
}

void ofs_htab_free(struct ofs_htab *h, void *p)
{
    uint32_t i = (uint32_t)(((char *)p - h->base) / h->slot), c = chunk_of(h, i);

    /* "freed" rather than 0, for a debugger (until the chunk is released) */
    *(uint32_t *)p = 0xdeadd00d;
    if (!h->unlocked)
        pthread_mutex_lock(&h->lock);
    h->used[i / 64] &= ~(1ULL << (i % 64));
    h->nused--;
    /* the chunk the search is on is released when the search leaves it */
    if (c != chunk_of(h, h->last) && chunk_empty(h, c))
        chunk_release(h, c, 1);
    if (!h->unlocked)
        pthread_mutex_unlock(&h->lock);
}

void *ofs_htab_at(const struct ofs_htab *h, uint32_t i)
{
    if (!h->used || i >= h->nslots || !(h->used[i / 64] >> (i % 64) & 1))
        return NULL;
    return h->base + (size_t)i * h->slot;
}
