/* Local buffers of every kind in every OFI transfer: the source of puts (inject,
 * bounce and large), put_nbi and put-with-signal, the destination of gets and
 * get_nbi, and the operand and result of blocking and nbi fetching atomics, each
 * taken from the symmetric heap, the static data segment, malloc'ed memory and the
 * stack, aimed at heap and static targets.  Data verified byte for byte.  Run under
 * SHMEM_OFI_MR_MODE=...+local (and +endpoint), where every descriptor the transport
 * passes is checked against its live registrations, this is what proves the
 * FI_MR_LOCAL paths (segment descriptors, per-context ones, temporary ones). */
#include "ofi_test.h"
#include "../../src/transport/ofi/ofi_ctx.h"

#define MAXLEN ((size_t)1024 * 1024 + 3)
#define STATIC_MAX ((size_t)65537)
#define STACK_MAX ((size_t)4097)

static unsigned char static_local[STATIC_MAX];
static unsigned char static_target[STATIC_MAX];
static uint64_t sig;
static uint64_t words[4];

static const size_t sizes[] = { 1, 8, 63, 64, 65, 4097, 8193, 65537, MAXLEN };
#define NSIZES (sizeof(sizes) / sizeof(sizes[0]))

enum kind { K_HEAP, K_STATIC, K_MALLOC, K_STACK, K_COUNT };
static const char *kind_name[K_COUNT] = { "heap", "static", "malloc", "stack" };

static size_t kind_max(enum kind k)
{
    return k == K_STATIC ? STATIC_MAX : k == K_STACK ? STACK_MAX : MAXLEN;
}

static void transfers(enum kind k, unsigned char *local, unsigned char *heap_target, int salt)
{
    int me = shmem_my_pe(), n = shmem_n_pes();
    int right = (me + 1) % n, left = (me + n - 1) % n;
    char what[96];

    for (size_t s = 0; s < NSIZES; s++) {
        size_t len = sizes[s];
        if (len > kind_max(k))
            continue;
        int nbi = (int)(s & 1);
        unsigned char *target = len <= STATIC_MAX && (s & 2) ? static_target : heap_target;

        /* put (or put_nbi) from the local buffer */
        fill(local, me, len, salt + (int)s);
        shmem_barrier_all();
        if (nbi)
            comm_put_nbi(COMM_CTX_DEFAULT, target, local, len, right);
        else
            comm_put(COMM_CTX_DEFAULT, target, local, len, right);
        comm_quiet(COMM_CTX_DEFAULT);
        shmem_barrier_all();
        snprintf(what, sizeof(what), "%s from %s", nbi ? "put_nbi" : "put", kind_name[k]);
        CHECK_BUF(target, left, len, salt + (int)s, what);

        /* get (or get_nbi) back into the local buffer what the right PE received */
        memset(local, 0, len);
        if (nbi) {
            comm_get_nbi(COMM_CTX_DEFAULT, local, target, len, right);
            comm_quiet(COMM_CTX_DEFAULT);
        } else {
            comm_get(COMM_CTX_DEFAULT, local, target, len, right);
        }
        snprintf(what, sizeof(what), "%s into %s", nbi ? "get_nbi" : "get", kind_name[k]);
        CHECK_BUF(local, me, len, salt + (int)s, what);

        /* put-with-signal from the local buffer: the data is there once the signal is */
        shmem_barrier_all();
        fill(local, me, len, salt + 100 + (int)s);
        uint64_t before = __atomic_load_n(&sig, __ATOMIC_ACQUIRE);
        shmem_barrier_all();
        comm_put_signal(COMM_CTX_DEFAULT, target, local, len, &sig, 1, COMM_SIG_ADD, right, nbi);
        wait_u64_ge(&sig, before + 1);
        snprintf(what, sizeof(what), "put_signal from %s", kind_name[k]);
        CHECK_BUF(target, left, len, salt + 100 + (int)s, what);
        comm_quiet(COMM_CTX_DEFAULT);
        shmem_barrier_all();
    }
}

/* Fetch-add and compare-swap with operand, compare and result in the local buffer. */
static void atomics(enum kind k, unsigned char *local)
{
    int me = shmem_my_pe(), n = shmem_n_pes();
    uint64_t *op = (uint64_t *)(void *)local, *cmp = op + 1, *res = op + 2;
    const int iters = 20;

    words[0] = 0;
    words[1] = 0;
    shmem_barrier_all();
    for (int i = 0; i < iters; i++) {
        for (int pe = 0; pe < n; pe++) {
            *op = 1;
            *res = ~(uint64_t)0;
            comm_amo(COMM_CTX_DEFAULT, COMM_AMO_ADD, COMM_DT_U64, &words[0], op, NULL, res, pe,
                     i & 1);
            if (i & 1)
                comm_quiet(COMM_CTX_DEFAULT);
            CHECK(*res < (uint64_t)iters * n);
        }
    }
    /* compare-swap: PE me raises word 1 from its current value by one, iters times */
    for (int i = 0; i < iters; i++) {
        uint64_t seen = 0;
        for (;;) {
            *cmp = seen;
            *op = seen + 1;
            comm_amo(COMM_CTX_DEFAULT, COMM_AMO_CSWAP, COMM_DT_U64, &words[1], op, cmp, res, 0, 0);
            if (*res == seen)
                break;
            seen = *res;
        }
    }
    shmem_barrier_all();
    CHECK(words[0] == (uint64_t)iters * n);
    if (me == 0)
        CHECK(words[1] == (uint64_t)iters * n);
    if (words[0] != (uint64_t)iters * n)
        fprintf(stderr, "PE %d: atomics with %s buffers: %llu\n", me, kind_name[k],
                (unsigned long long)words[0]);
    shmem_barrier_all();
}

/* The mode asked for in SHMEM_OFI_MR_MODE is the one the transport obeys. */
static void check_mode(void)
{
    const char *m = getenv("SHMEM_OFI_MR_MODE");
    uint64_t mode = ofi_g.reg.mode;

    if (!m || !ofi_g.info)
        return;
    if (strstr(m, "basic"))
        CHECK((mode & (FI_MR_VIRT_ADDR | FI_MR_PROV_KEY)) == (FI_MR_VIRT_ADDR | FI_MR_PROV_KEY) &&
              (ofi_g.reg.granted & FI_MR_BASIC));
    if (strstr(m, "scalable"))
        CHECK(!(mode & (FI_MR_VIRT_ADDR | FI_MR_PROV_KEY)) && (ofi_g.reg.granted & FI_MR_SCALABLE));
    if (strstr(m, "local"))
        CHECK((mode & FI_MR_LOCAL) && ofi_g.dflt && ofi_g.dflt->self_mr);
    if (strstr(m, "endpoint"))
        CHECK((mode & FI_MR_ENDPOINT) && ofi_g.dflt && ofi_g.dflt->seg_mr[0]);
}

int main(void)
{
    shmem_init();
    check_mode();
    unsigned char *heap_local = shmem_malloc(MAXLEN);
    unsigned char *heap_target = shmem_malloc(MAXLEN);
    unsigned char *priv = malloc(MAXLEN);
    unsigned char stack[STACK_MAX] __attribute__((aligned(8)));

    CHECK(heap_local && heap_target && priv);
    if (!heap_local || !heap_target || !priv)
        return test_finish("ofi_mr");
    unsigned char *local[K_COUNT] = { heap_local, static_local, priv, stack };
    for (int k = 0; k < K_COUNT; k++) {
        transfers((enum kind)k, local[k], heap_target, 10 * k);
        atomics((enum kind)k, local[k]);
    }
    /* the forced FI_MR_LOCAL checker saw this test's descriptors */
    if (getenv("SHMEM_OFI_MR_MODE") && strstr(getenv("SHMEM_OFI_MR_MODE"), "local") && ofi_g.info)
        CHECK(ofi_mrchk_count() > 1000);
    shmem_free(heap_target);
    shmem_free(heap_local);
    free(priv);
    return test_finish("ofi_mr");
}
