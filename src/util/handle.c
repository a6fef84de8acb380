/* Tables of handle objects (contexts, teams): see include/ofs_handle.h. */
#include "ofs_handle.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

ofs_status_t ofs_htab_init(struct ofs_htab *h, size_t slot, uint32_t cap)
{
    void *p;

    h->slot = slot;
    h->cap = cap;
    h->len = slot * cap;
    h->next = h->nused = 0;
    h->used = calloc(((size_t)cap + 63) / 64, sizeof(uint64_t));
    if (!h->used)
        return OFS_ERR_NOMEM;
    /* address space only: a page is backed once a slot on it is first handed out */
    p = mmap(NULL, h->len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1,
             0);
    if (p == MAP_FAILED) {
        ofs_log_error("no address space for %u handles of %zu bytes: %m", cap, slot);
        free(h->used);
        h->used = NULL;
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
    h->base = NULL;
    h->used = NULL;
    h->len = 0;
    h->cap = h->next = h->nused = 0;
}

void *ofs_htab_alloc(struct ofs_htab *h)
{
    void *p = NULL;

    pthread_mutex_lock(&h->lock);
    for (uint32_t n = 0; h->nused < h->cap && n < h->cap; n++) {
        uint32_t i = (h->next + n) % h->cap;

        if (h->used[i / 64] >> (i % 64) & 1)
            continue;
        h->used[i / 64] |= 1ULL << (i % 64);
        h->nused++;
        h->next = (i + 1) % h->cap;
        p = h->base + (size_t)i * h->slot;
        break;
    }
    pthread_mutex_unlock(&h->lock);
    if (p)
        memset(p, 0, h->slot);
    return p;
}

void ofs_htab_free(struct ofs_htab *h, void *p)
{
    uint32_t i = (uint32_t)(((char *)p - h->base) / h->slot);

    /* "freed" rather than 0, for a debugger */
    *(uint32_t *)p = 0xdeadd00d;
    pthread_mutex_lock(&h->lock);
    h->used[i / 64] &= ~(1ULL << (i % 64));
    h->nused--;
    pthread_mutex_unlock(&h->lock);
}

void *ofs_htab_at(const struct ofs_htab *h, uint32_t i)
{
    if (!h->used || i >= h->cap || !(h->used[i / 64] >> (i % 64) & 1))
        return NULL;
    return h->base + (size_t)i * h->slot;
}
