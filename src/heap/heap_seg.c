/*
 * The two symmetric segments of a PE, each backed by a shared-memory object so that
 * same-node peers can map them:
 *   - the heap: an object of SHMEM_SYMMETRIC_SIZE (+ a small internal reserve) bytes;
 *   - static data: the executable's writable PT_LOAD range after RELRO (.data, .bss),
 *     copied into an object and mapped MAP_SHARED|MAP_FIXED over itself, so every
 *     variable keeps its value and address.
 * Objects are created O_EXCL, mode 0600, under per-job names with a random part and
 * the creator's pid, and unlinked by heap_unlink() as soon as every peer has mapped
 * them; those of a PE killed (SIGKILL) in between are removed by the next start on the
 * node (src/util/stale.c).
 */
#define _GNU_SOURCE
#include "heap.h"
#include "rt.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

/* The library's own blocks (heap_set_internal), and room for the few it makes after
 * start-up (shmemx_stats_dump's table) */
#define HEAP_INTERNAL_MARGIN (256UL << 10)

static size_t heap_internal = 9UL << 20; /* until heap_set_internal */
static size_t heap_optional;

void heap_set_internal(size_t bytes)
{
    heap_internal = bytes;
}

void heap_set_optional(size_t bytes)
{
    heap_optional = bytes;
}

static size_t heap_internal_reserve(void)
{
    return heap_internal + HEAP_INTERNAL_MARGIN;
}

void heap_internal_check(void)
{
    size_t ufree, ularge, lib = heap_lib_bytes();

    heap_user_free(&ufree, &ularge);
    ofs_log_debug("heap: the library's blocks take %zu bytes, %zu counted", lib, heap_internal);
    if (ofs_g.my_pe != 0)
        return;
    if (ularge < (size_t)ofs_g.params.SYMMETRIC_SIZE)
        ofs_log_warn("shmem_init: the library's own blocks took %zu bytes more of the symmetric "
                     "heap than it counted: shmem_malloc can allocate %zu bytes, not the %ld of "
                     "SHMEM_SYMMETRIC_SIZE (a bug of the library: please report it; raising "
                     "SHMEM_SYMMETRIC_SIZE works around it)",
                     (size_t)ofs_g.params.SYMMETRIC_SIZE - ularge, ularge,
                     ofs_g.params.SYMMETRIC_SIZE);
    else if (lib > heap_internal)
        ofs_log_warn("shmem_init: the library's own blocks take %zu bytes of the symmetric heap, "
                     "%zu more than it counted (a bug of the library: please report it; the "
                     "user's SHMEM_SYMMETRIC_SIZE is whole for now)",
                     lib, lib - heap_internal);
}

struct heap_state heap_g = { .seg = { { .fd = -1 }, { .fd = -1 } } };
static volatile sig_atomic_t heap_linked[HEAP_NSEGS]; /* object still has a name */
/* Full paths, ready for a signal handler (no formatting there). */
static char heap_paths[HEAP_NSEGS][PATH_MAX];

/* Between creating the objects and unlinking them (start-up only), a launcher that
 * takes the job down must not leave them in /dev/shm. */
static void heap_on_signal(int sig);
static struct ofs_sig_chain heap_chain = { .handler = heap_on_signal };

/* Unlink, then hand the signal on (libfabric's shm provider does the same with its
 * regions, and may come before or after us) */
static void heap_on_signal(int sig)
{
    for (int s = 0; s < HEAP_NSEGS; s++)
        if (heap_linked[s])
            unlink(heap_paths[s]);
    ofs_sig_chain_pass(&heap_chain, sig);
}

/* Creating an object and marking it for the handler happen with those signals
 * blocked: one arriving in between would leave the object behind. */
static void heap_sigs_block(sigset_t *old)
{
    sigset_t set;

    sigemptyset(&set);
    for (int i = 0; i < OFS_END_NSIGS; i++)
        sigaddset(&set, ofs_end_sigs[i]);
    pthread_sigmask(SIG_BLOCK, &set, old);
}

static size_t heap_page(void)
{
    static size_t pg;
    if (!pg)
        pg = (size_t)sysconf(_SC_PAGESIZE);
    return pg;
}

/* Objects live in SHMEM_SHM_DIR (a tmpfs; /dev/shm by default) under their name. */
static void heap_obj_path(const char *name, char *path, size_t len)
{
    snprintf(path, len, "%s%s", ofs_g.params.SHM_DIR, name);
}

int heap_obj_open(const char *name, int flags, int mode)
{
    char path[PATH_MAX];

    heap_obj_path(name, path, sizeof(path));
    return open(path, flags | O_CLOEXEC | O_NOFOLLOW, mode);
}

void heap_obj_unlink(const char *name)
{
    char path[PATH_MAX];

    heap_obj_path(name, path, sizeof(path));
    unlink(path);
}

static ofs_status_t heap_obj_create(int seg, size_t len, char *name, size_t namelen, int *fd_p)
{
    uint64_t rnd = 0;
    sigset_t mask;
    int fd;

    if (getrandom(&rnd, sizeof(rnd), 0) != sizeof(rnd))
        rnd = (uint64_t)getpid() * 0x9E3779B97F4A7C15ULL ^ (uint64_t)(uintptr_t)&rnd;
    snprintf(name, namelen, "/ofishmem-%s-%d-%c-%016llx-%ld-%llu", rt_job_id(), ofs_g.my_pe,
             seg == HEAP_SEG_HEAP ? 'h' : 'd', (unsigned long long)rnd, (long)getpid(),
             ofs_pidns());
    snprintf(heap_paths[seg], sizeof(heap_paths[seg]), "%s%s", ofs_g.params.SHM_DIR, name);
    heap_sigs_block(&mask);
    fd = heap_obj_open(name, O_RDWR | O_CREAT | O_EXCL, 0600);
    int err = errno;
    if (fd >= 0)
        heap_linked[seg] = 1;
    pthread_sigmask(SIG_SETMASK, &mask, NULL);
    errno = err;
    if (fd < 0) {
        ofs_log_error("creating %s%s (O_EXCL, mode 0600) failed: %m (SHMEM_SHM_DIR=%s)",
                      ofs_g.params.SHM_DIR, name, ofs_g.params.SHM_DIR);
        return OFS_ERR_IO;
    }
    if (ftruncate(fd, (off_t)len) != 0) {
        ofs_log_error("ftruncate(%s, %zu) failed: %m", name, len);
        close(fd);
        heap_obj_unlink(name);
        heap_linked[seg] = 0;
        return OFS_ERR_NOSPACE;
    }
    *fd_p = fd;
    return OFS_OK;
}

/* "512M" for 536870912: sizes in messages read as the user wrote them. */
static const char *heap_size_str(unsigned long long v, char *buf, size_t len)
{
    static const char units[] = "KMGT";
    int u = -1;

    while (v >= 1024 && v % 1024 == 0 && u < 3) {
        v /= 1024;
        u++;
    }
    if (u < 0)
        snprintf(buf, len, "%llu bytes", v);
    else
        snprintf(buf, len, "%llu%c", v, units[u]);
    return buf;
}

/* Refuse a heap that the shared-memory file system cannot back: better a clear
 * message now than SIGBUS on first touch. */
static ofs_status_t heap_check_space(size_t len)
{
    struct statvfs sv;
    const char *dir = ofs_g.params.SHM_DIR;
    unsigned long long avail;

    if (statvfs(dir, &sv) != 0)
        return OFS_OK; /* cannot tell; creating the object will speak for itself */
    char want[32], have[32];

    avail = (unsigned long long)sv.f_bavail * sv.f_frsize;
    if (len > avail) {
        ofs_log_error(
            "SHMEM_SYMMETRIC_SIZE=%s needs %zu bytes of shared memory per PE but %s "
            "has only %s free: lower SHMEM_SYMMETRIC_SIZE, or enlarge %s (e.g. "
            "docker run --shm-size), or set SHMEM_SHM_DIR to a larger tmpfs",
            heap_size_str((unsigned long long)ofs_g.params.SYMMETRIC_SIZE, want, sizeof(want)), len,
            dir, heap_size_str(avail, have, sizeof(have)), dir);
        return OFS_ERR_NOSPACE;
    }
    if ((unsigned long long)len * ofs_g.local_size > avail)
        ofs_log_warn(
            "%d PEs x SHMEM_SYMMETRIC_SIZE=%s exceed the %s free in %s: "
            "a PE may be killed (SIGBUS) if the heaps fill up",
            ofs_g.local_size,
            heap_size_str((unsigned long long)ofs_g.params.SYMMETRIC_SIZE, want, sizeof(want)),
            heap_size_str(avail, have, sizeof(have)), dir);
    return OFS_OK;
}

/*
 * The default heap where SHMEM_SHM_DIR cannot back it (a container's 64 MiB /dev/shm).
 * Before rt_init's exchange every PE publishes the free space of the directory and the
 * largest heap that fits node_pes times in it next to its other objects; heap_init then
 * takes the minimum over the job, so that every PE has the same size.  Only when no PE
 * set SHMEM_SYMMETRIC_SIZE: an explicit size that does not fit still fails.
 */
#define HEAP_FIT_MIN (4UL << 20)      /* below this, the default stays and fails clearly */
#define HEAP_FIT_MARGIN (1UL << 20)   /* rounding, other jobs' small objects */
#define HEAP_FIT_PROVIDER (8UL << 20) /* libfabric's shm regions in use (two per PE) */
#define HEAP_FIT_UNKNOWN UINT64_MAX

struct heap_fit {
    uint64_t avail;   /* free bytes in SHMEM_SHM_DIR (HEAP_FIT_UNKNOWN: cannot tell) */
    uint64_t fit;     /* the largest heap that fits, whole MiB (HEAP_FIT_UNKNOWN: any) */
    int32_t node_pes; /* the job's PEs sharing the directory */
    int32_t set;      /* SHMEM_SYMMETRIC_SIZE (or SMA_) is set in the PE's environment */
};

static int heap_phdr_cb(struct dl_phdr_info *info, size_t size, void *arg);
struct heap_range {
    uintptr_t start, end;
};

/* May libfabric's shm provider put its regions on the same file system?  (With no
 * provider named, the first suitable one may be shm.) */
static int heap_fit_provider_shares(void)
{
    const char *prov = ofs_g.params.OFI_PROVIDER;
    struct stat a, b;

    if (!prov[0] && getenv("FI_PROVIDER"))
        prov = getenv("FI_PROVIDER");
    if (ofs_g.params.LOCAL_TRANSPORT != OFS_LOCAL_TRANSPORT_OFI ||
        (prov[0] && !strstr(prov, "shm")))
        return 0;
    return stat(ofs_g.params.SHM_DIR, &a) == 0 && stat(OFS_SHM_PROVIDER_DIR, &b) == 0 &&
           a.st_dev == b.st_dev;
}

static void heap_fit_fill(struct heap_fit *f, int node_pes)
{
    struct heap_range r = { 0, 0 };
    struct statvfs sv;
    unsigned long long per_pe, other;

    memset(f, 0, sizeof(*f));
    f->node_pes = node_pes > 0 ? node_pes : 1;
    f->set = getenv("SHMEM_SYMMETRIC_SIZE") || getenv("SMA_SYMMETRIC_SIZE");
    f->avail = f->fit = HEAP_FIT_UNKNOWN;
    if (statvfs(ofs_g.params.SHM_DIR, &sv) != 0)
        return; /* creating the objects will speak for itself */
    dl_iterate_phdr(heap_phdr_cb, &r);
    f->avail = (uint64_t)sv.f_bavail * sv.f_frsize;
    per_pe = f->avail / (unsigned long long)f->node_pes;
    other = heap_internal_reserve() + heap_page() + (r.end - r.start) + HEAP_FIT_MARGIN +
            (heap_fit_provider_shares() ? HEAP_FIT_PROVIDER : 0);
    f->fit = per_pe > other ? (per_pe - other) & ~((1ULL << 20) - 1) : 0;
}

ofs_status_t heap_fit_publish(int node_pes)
{
    struct heap_fit f;

    heap_fit_fill(&f, node_pes);
    return rt_kv_put("ofs.fit", &f, sizeof(f));
}

/* what heap_fit_agree read of every PE: the smallest fit, and whether a PE could not tell */
static uint64_t heap_fit_min = HEAP_FIT_UNKNOWN;
static int heap_fit_unknown;

static ofs_status_t heap_fit_agree(void)
{
    struct heap_fit f, low = { 0 };
    int low_pe = -1, set = 0;
    char def[32], heap[32];

    for (int pe = 0; pe < ofs_g.n_pes; pe++) {
        if (ofs_g.singleton) {
            heap_fit_fill(&f, 1);
        } else {
            ofs_status_t st = rt_kv_get(pe, "ofs.fit", &f, sizeof(f));
            if (st != OFS_OK)
                return st;
        }
        set |= f.set;
        heap_fit_unknown |= f.fit == HEAP_FIT_UNKNOWN;
        if (low_pe < 0 || f.fit < low.fit) {
            low = f;
            low_pe = pe;
        }
    }
    heap_fit_min = low_pe < 0 ? HEAP_FIT_UNKNOWN : low.fit;
    if (set)
        return OFS_OK; /* every PE sees it: nobody falls back */
    if (low_pe < 0 || low.fit >= (uint64_t)ofs_g.params.SYMMETRIC_SIZE || low.fit < HEAP_FIT_MIN)
        return OFS_OK;
    if (ofs_g.my_pe == 0) {
        char where[48] = "this node";
        if (ofs_g.node_of && ofs_g.node_of[low_pe] != ofs_g.node_of[0])
            snprintf(where, sizeof(where), "the node of PE %d", low_pe);
        ofs_log_warn(
            "%s has %lluM free for %d PE%s on %s: the symmetric heap is %s per PE "
            "instead of the default %s; set SHMEM_SYMMETRIC_SIZE (or enlarge %s, e.g. "
            "docker run --shm-size) to choose",
            ofs_g.params.SHM_DIR, (unsigned long long)(low.avail >> 20), low.node_pes,
            low.node_pes == 1 ? "" : "s", where, heap_size_str(low.fit, heap, sizeof(heap)),
            heap_size_str((unsigned long long)ofs_g.params.SYMMETRIC_SIZE, def, sizeof(def)),
            ofs_g.params.SHM_DIR);
    }
    ofs_g.params.SYMMETRIC_SIZE = (long)low.fit;
    return OFS_OK;
}

/* Has every PE's node room for extra bytes more per PE beside the heap as it is now
 * (after heap_fit_agree, from what it read: the same answer on every PE)?  0 where a PE
 * could not tell. */
static int heap_fit_room(size_t extra)
{
    return !heap_fit_unknown && heap_fit_min != HEAP_FIT_UNKNOWN &&
           heap_fit_min >= (uint64_t)ofs_g.params.SYMMETRIC_SIZE + (uint64_t)extra;
}

/* Maps the heap at an address aligned to heap_base_align(len): mmap alone gives only a
 * page, and a base whose alignment differs between PEs would give shmem_align(A, ...)
 * different offsets on different PEs for a large A.  Reserves len + align of address
 * space (no memory), maps the heap over its aligned part and returns the rest. */
static void *heap_map_aligned(size_t len, int fd)
{
    size_t align = heap_base_align(len);
    size_t span = len + align;
    char *r, *a;
    void *p;

    if (span < len)
        return MAP_FAILED;
    r = mmap(NULL, span, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (r == MAP_FAILED)
        return MAP_FAILED;
    a = (char *)(((uintptr_t)r + align - 1) & ~(uintptr_t)(align - 1));
    p = mmap(a, len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_NORESERVE | MAP_FIXED, fd, 0);
    if (p == MAP_FAILED) {
        munmap(r, span);
        return MAP_FAILED;
    }
    if (a > r)
        munmap(r, (size_t)(a - r));
    if (r + span > a + len)
        munmap(a + len, (size_t)(r + span - (a + len)));
    return p;
}

/* The heap object's length: the user's size, the library's blocks, whole pages. */
static size_t heap_heap_len(void)
{
    size_t pg = heap_page();

    return ((size_t)ofs_g.params.SYMMETRIC_SIZE + heap_internal_reserve() + pg - 1) & ~(pg - 1);
}

static ofs_status_t heap_create_heap(void)
{
    struct heap_seg *sg = &heap_g.seg[HEAP_SEG_HEAP];
    size_t len = heap_heap_len();
    ofs_status_t st;
    void *p;

    st = heap_obj_create(HEAP_SEG_HEAP, len, sg->name, sizeof(sg->name), &sg->fd);
    if (st != OFS_OK)
        return st;
    p = heap_map_aligned(len, sg->fd);
    if (p == MAP_FAILED) {
        ofs_log_error("mmap of the %zu-byte symmetric heap failed: %m (SHMEM_SYMMETRIC_SIZE=%ld)",
                      len, ofs_g.params.SYMMETRIC_SIZE);
        return OFS_ERR_NOMEM;
    }
    sg->base = p;
    sg->len = len;
    return heap_alloc_init(p, len, (size_t)ofs_g.params.SYMMETRIC_SIZE);
}

static int heap_phdr_cb(struct dl_phdr_info *info, size_t size, void *arg)
{
    struct heap_range *r = arg;
    uintptr_t relro_end = 0;
    size_t pg = heap_page();

    (void)size;
    /* the first object is the executable */
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type == PT_GNU_RELRO)
            relro_end = info->dlpi_addr + ph->p_vaddr + ph->p_memsz;
    }
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type != PT_LOAD || !(ph->p_flags & PF_W))
            continue;
        uintptr_t s = info->dlpi_addr + ph->p_vaddr;
        uintptr_t e = s + ph->p_memsz;
        if (relro_end > s && relro_end < e)
            s = (relro_end + pg - 1) & ~(pg - 1);
        else
            s &= ~(pg - 1);
        e = (e + pg - 1) & ~(pg - 1);
        if (e > s) {
            r->start = s;
            r->end = e;
        }
    }
    return 1; /* stop after the executable */
}

/* Copy the whole data segment, sanitizer redzones between variables included: a plain
 * word loop that AddressSanitizer neither instruments nor turns into memcpy. */
__attribute__((no_sanitize_address, noinline)) static void
heap_copy_words(void *dst, const void *src, size_t len)
{
    volatile uint64_t *d = dst;
    const volatile uint64_t *s = src;

    for (size_t i = 0; i < len / sizeof(uint64_t); i++)
        d[i] = s[i];
}

static ofs_status_t heap_remap_data(struct heap_range r)
{
    char name[sizeof(heap_g.seg[0].name)] = { 0 }; /* published whole: no stray bytes */
    int fd = -1;
    size_t len = r.end - r.start;
    void *copy, *p;
    ofs_status_t st;

    st = heap_obj_create(HEAP_SEG_DATA, len, name, sizeof(name), &fd);
    if (st != OFS_OK)
        return st;
    copy = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (copy == MAP_FAILED) {
        ofs_log_error("mmap of %zu bytes for static data failed: %m", len);
        close(fd);
        return OFS_ERR_NOMEM;
    }
    /* From the copy to the remap nothing may write static data (ours included when
     * linked statically): only locals until heap_g is set below. */
    heap_copy_words(copy, (void *)r.start, len);
    p = mmap((void *)r.start, len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, fd, 0);
    munmap(copy, len);
    if (p == MAP_FAILED) {
        ofs_log_error("remapping static data [%p, %p) onto shared memory failed: %m",
                      (void *)r.start, (void *)r.end);
        close(fd);
        return OFS_ERR_IO;
    }
    heap_g.seg[HEAP_SEG_DATA].base = (char *)r.start;
    heap_g.seg[HEAP_SEG_DATA].len = len;
    heap_g.seg[HEAP_SEG_DATA].fd = fd;
    memcpy(heap_g.seg[HEAP_SEG_DATA].name, name, sizeof(name));
    return OFS_OK;
}

ofs_status_t heap_init(void)
{
    struct heap_range data = { 0, 0 };
    ofs_status_t st;

    ofs_sweep_dead();
    st = heap_fit_agree();
    if (st != OFS_OK)
        return st;
    if (heap_optional && heap_fit_room(heap_optional))
        heap_internal += heap_optional;
    if (ofs_g.params.SYMMETRIC_SIZE <= 0) {
        ofs_log_error("SHMEM_SYMMETRIC_SIZE=%ld: the symmetric heap needs a positive size",
                      ofs_g.params.SYMMETRIC_SIZE);
        return OFS_ERR_INVAL;
    }
    dl_iterate_phdr(heap_phdr_cb, &data);
    if (data.end <= data.start) {
        ofs_log_error("cannot find the executable's writable data segment");
        return OFS_ERR_NOT_FOUND;
    }
    /* Both objects' room before either exists: a job refused for room leaves nothing
     * behind even when its launcher kills a PE before that PE's error path runs. */
    st = heap_check_space(heap_heap_len() + (data.end - data.start));
    if (st != OFS_OK)
        return st;
    ofs_sig_chain_install(&heap_chain);
    st = heap_remap_data(data);
    if (st == OFS_OK)
        st = heap_create_heap();
    for (int s = 0; st == OFS_OK && s < HEAP_NSEGS; s++) {
        char key[24];
        snprintf(key, sizeof(key), "ofs.seg%d", s);
        st = rt_kv_put(key, heap_g.seg[s].name, sizeof(heap_g.seg[s].name));
    }
    if (st != OFS_OK)
        heap_unlink();
    return st;
}

ofs_status_t heap_peer_name(int pe, int seg, char *name, size_t len)
{
    char key[16];
    char buf[sizeof(heap_g.seg[0].name)];
    ofs_status_t st;

    snprintf(key, sizeof(key), "ofs.seg%d", seg);
    if (pe == ofs_g.my_pe) {
        snprintf(name, len, "%s", heap_g.seg[seg].name);
        return OFS_OK;
    }
    st = rt_kv_get(pe, key, buf, sizeof(buf));
    if (st == OFS_OK)
        snprintf(name, len, "%s", buf);
    return st;
}

void heap_unlink(void)
{
    for (int s = 0; s < HEAP_NSEGS; s++) {
        if (heap_linked[s]) {
            heap_obj_unlink(heap_g.seg[s].name);
            heap_linked[s] = 0;
        }
    }
    ofs_sig_chain_remove(&heap_chain);
}

/* Start-up failed on this PE and the job is going down: the other PEs of this node may be
 * killed before their SIGTERM handler runs (or blocked where it cannot), so remove every
 * object of this job from SHMEM_SHM_DIR here as well.  Their mappings stay valid; nobody
 * needs the names any more. */
static int heap_has_prefix(const char *name, const void *prefix)
{
    return strncmp(name, prefix, strlen(prefix)) == 0;
}

void heap_unlink_job(void)
{
    char prefix[128];

    heap_unlink();
    if ((size_t)snprintf(prefix, sizeof(prefix), "ofishmem-%s-", rt_job_id()) < sizeof(prefix))
        ofs_sweep(ofs_g.params.SHM_DIR, heap_has_prefix, prefix);
}

void heap_fini(void)
{
    struct heap_seg *h = &heap_g.seg[HEAP_SEG_HEAP];

    heap_unlink();
    heap_alloc_fini();
    if (h->base) {
        munmap(h->base, h->len);
        h->base = NULL;
        h->len = 0;
    }
    /* static data stays mapped (the program still uses it); the object dies with us */
    for (int s = 0; s < HEAP_NSEGS; s++) {
        if (heap_g.seg[s].fd >= 0) {
            close(heap_g.seg[s].fd);
            heap_g.seg[s].fd = -1;
        }
    }
}
