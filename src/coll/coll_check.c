/*
 * coll_check.c: mismatched collectives, two checks.
 *
 * Always on (the end of this file): each entry point hashes the arguments that must
 * agree, with the collective's number on its team, into the group's sig, which the
 * algorithms carry in words they already write (coll_internal.h, COLL_CNT_BITS; the shm
 * barrier; the inline and ring broadcast entries, coll_bring.c); a reader whose own
 * differs names both calls (the other's from the board below, where each PE stores its
 * signature unhashed); a long wait looks at the board (docs/collectives.md).
 *
 * Under SHMEM_DEBUG, collectives that the members of a group call in
 * different orders or with arguments that must agree and do not (a broadcast against a
 * reduction, two roots, two counts) are a named error, not a hang or a wrong answer
 * (docs/collectives.md, "Mismatched collectives").
 *
 * Every group (a team's pool slot, or an active set: PE_start, logPE_stride, PE_size)
 * counts its collectives on each member.  Collective number s publishes its signature
 * (kind, blocking or not, root, element size and count where the specification says they
 * agree, operator and type) in entry s % CK_DEPTH of a symmetric board, then, after a
 * full fence, reads the entry of the same number on its left and right neighbours in the
 * group.  Of two neighbours calling collective s, the second to publish sees the first
 * (each publishes before it reads), so a pair that disagrees is named by one of them
 * before either can wait for the other; if every neighbouring pair agrees, the whole
 * group does.  Nobody waits for a neighbour: a non-blocking post must not (requests of
 * different teams may be posted in different orders), and the later of the two does the
 * comparison.  A neighbour more than CK_DEPTH collectives ahead has overwritten its
 * entry: that collective goes unchecked.
 *
 * The board is allocated at coll_init whether or not SHMEM_DEBUG is set (the PEs'
 * symmetric heaps must stay alike even if they disagree on it; pages never written are
 * never touched).  With SHMEM_DEBUG off each entry point costs the test of COLL_CHECK.
 */
#include "coll_internal.h"
#include "heap.h"

#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>

#define CK_DEPTH 32       /* entries per group: how far a neighbour may run ahead */
#define CK_ASET_GROUPS 16 /* board groups shared by the active sets (hashed) */
#define CK_ASET_KEYS 64   /* active sets whose numbers a PE keeps; more go unchecked */
#define CK_TRIES 1000     /* reads of an entry being rewritten before giving up on it */
/* shmem_finalize, collective over the world team: not a kind of collective the
 * non-blocking engine knows, so a kind of this file's own past the end of that enum */
#define CK_FINALIZE ((enum coll_nbc_kind)0x7f)

/* One entry, one cache line: the number, the signature, the group key, a checksum
 * (an entry read while its owner rewrites it fails the checksum and is read again). */
struct ck_entry {
    uint64_t seq;
    uint64_t w[5];
    uint64_t key;
    uint64_t sum;
};

static struct {
    struct ck_entry *board; /* symmetric: (team slots + CK_ASET_GROUPS) x CK_DEPTH */
    int nslots;
    uint64_t *seq; /* per team slot: collectives called */
    pthread_mutex_t lock;
    uint64_t akey[CK_ASET_KEYS], aseq[CK_ASET_KEYS];
} ck = { .lock = PTHREAD_MUTEX_INITIALIZER };

size_t coll_check_heap_need(int nslots)
{
    return heap_block_len((size_t)(nslots + CK_ASET_GROUPS) * CK_DEPTH * sizeof(struct ck_entry));
}

ofs_status_t coll_check_init(int nslots)
{
    size_t len = (size_t)(nslots + CK_ASET_GROUPS) * CK_DEPTH * sizeof(struct ck_entry);

    ck.nslots = nslots;
    ck.seq = calloc((size_t)nslots, sizeof(uint64_t));
    if (!ck.seq)
        return OFS_ERR_NOMEM;
    /* every PE makes the same allocation in the same heap; never at the expense of the
     * user's SHMEM_SYMMETRIC_SIZE (then the check is off on every PE) */
    ck.board = heap_alloc_spare(len, 64);
    if (!ck.board && OFS_DEBUG_ON)
        ofs_log_debug("coll: no room for the board of SHMEM_DEBUG's collective checks: "
                      "mismatched collectives go unchecked");
    return OFS_OK;
}

void coll_check_fini(void)
{
    if (ck.board)
        heap_free(ck.board);
    ck.board = NULL;
    free(ck.seq);
    ck.seq = NULL;
}

static uint64_t ck_sum(const struct ck_entry *e)
{
    uint64_t h = 0x9e3779b97f4a7c15ull ^ e->seq;

    for (int i = 0; i < 5; i++)
        h = (h ^ e->w[i]) * 0x100000001b3ull + (h >> 29);
    return ((h ^ e->key) * 0x100000001b3ull) | 1; /* never 0: a zeroed entry fails */
}

static void ck_pack(struct ck_entry *e, const struct coll_sig *s)
{
    e->w[0] = (uint64_t)s->kind | (uint64_t)s->nb << 8 | (uint64_t)s->op << 16 |
              (uint64_t)s->type << 24 | (uint64_t)s->exclusive << 32;
    e->w[1] = (uint64_t)(int64_t)s->root;
    e->w[2] = s->es;
    e->w[3] = s->nelems;
    /* the strides' low 32 bits each: exact below 2^31 elements (sig_hash has them whole) */
    e->w[4] = (uint64_t)(uint32_t)s->dst | (uint64_t)(uint32_t)s->sst << 32;
}

static void ck_unpack(struct coll_sig *s, const struct ck_entry *e)
{
    s->kind = (enum coll_nbc_kind)(e->w[0] & 0xff);
    s->nb = (int)((e->w[0] >> 8) & 0xff);
    s->op = (enum coll_op)((e->w[0] >> 16) & 0xff);
    s->type = (enum coll_type)((e->w[0] >> 24) & 0xff);
    s->exclusive = (int)((e->w[0] >> 32) & 0xff);
    s->root = (int)(int64_t)e->w[1];
    s->es = e->w[2];
    s->nelems = e->w[3];
    s->dst = (int32_t)(uint32_t)e->w[4];
    s->sst = (int32_t)(uint32_t)(e->w[4] >> 32);
}

/* the arguments the specification says every member passes alike */
static int ck_agree(const struct coll_sig *a, const struct coll_sig *b)
{
    if (a->kind != b->kind || a->nb != b->nb)
        return 0;
    switch (a->kind) {
    case COLL_NBC_BCAST: return a->root == b->root && a->es * a->nelems == b->es * b->nelems;
    case COLL_NBC_FCOLLECT:
    case COLL_NBC_ALLTOALL: return a->es * a->nelems == b->es * b->nelems;
    case COLL_NBC_ALLTOALLS:
        return a->es == b->es && a->nelems == b->nelems && a->dst == b->dst && a->sst == b->sst;
    case COLL_NBC_REDUCE: return a->op == b->op && a->type == b->type && a->nelems == b->nelems;
    case COLL_NBC_SCAN:
        return a->type == b->type && a->exclusive == b->exclusive && a->nelems == b->nelems;
    default: /* sync, collect (the members' counts may differ) */ return 1;
    }
}

static const char *const ck_op_names[COLL_OP_COUNT] = { "and", "or",  "xor", "max",
                                                        "min", "sum", "prod" };
static const char *const ck_type_names[COLL_T_COUNT] = {
    "char",  "schar",  "short",      "int",      "long",      "longlong", "ptrdiff",
    "uchar", "ushort", "uint",       "ulong",    "ulonglong", "int8",     "int16",
    "int32", "int64",  "uint8",      "uint16",   "uint32",    "uint64",   "size",
    "float", "double", "longdouble", "complexf", "complexd"
};

/* the routine's name without its prefix: "broadcast", "sum_reduce", "sum_exscan" */
static const char *ck_name(const struct coll_sig *s, char *buf, size_t len)
{
    static const char *const names[] = { "sync",     "broadcast", "collect", "fcollect",
                                         "alltoall", "alltoalls", "reduce",  "scan" };
    unsigned k = (unsigned)s->kind;

    if (s->kind == CK_FINALIZE)
        snprintf(buf, len, "finalize");
    else if (s->kind == COLL_NBC_REDUCE)
        snprintf(buf, len, "%s_%s", (unsigned)s->op < COLL_OP_COUNT ? ck_op_names[s->op] : "?",
                 s->aset ? "to_all" : "reduce");
    else if (s->kind == COLL_NBC_SCAN)
        snprintf(buf, len, "sum_%sscan", s->exclusive ? "ex" : "in");
    else
        snprintf(buf, len, "%s", k < sizeof(names) / sizeof(names[0]) ? names[k] : "?");
    return buf;
}

/* "broadcast(root 0, 64 bytes)", "sum_reduce_nb(int, 16 elems)" */
static void ck_describe(const struct coll_sig *s, char *buf, size_t len)
{
    char name[32];
    const char *nb = s->nb ? "_nb" : "";
    const char *tn = (unsigned)s->type < COLL_T_COUNT ? ck_type_names[s->type] : "?";
    size_t bytes = s->es * s->nelems;

    ck_name(s, name, sizeof(name));
    switch (s->kind) {
    case COLL_NBC_BCAST:
        snprintf(buf, len, "%s%s(root %d, %zu bytes)", name, nb, s->root, bytes);
        break;
    case COLL_NBC_COLLECT: snprintf(buf, len, "%s%s(%zu bytes)", name, nb, bytes); break;
    case COLL_NBC_FCOLLECT:
    case COLL_NBC_ALLTOALL: snprintf(buf, len, "%s%s(%zu bytes per PE)", name, nb, bytes); break;
    case COLL_NBC_ALLTOALLS:
        snprintf(buf, len, "%s%s(%zu elems of %zu bytes per PE, dst %td, sst %td)", name, nb,
                 s->nelems, s->es, s->dst, s->sst);
        break;
    case COLL_NBC_REDUCE:
    case COLL_NBC_SCAN: snprintf(buf, len, "%s%s(%s, %zu elems)", name, nb, tn, s->nelems); break;
    default: snprintf(buf, len, "%s%s", name, nb); break;
    }
}

/* my entry for number seq: invalid while it is written (seq 0), then the checksum */
static void ck_publish(struct ck_entry *e, uint64_t seq, uint64_t key, const struct coll_sig *s)
{
    struct ck_entry n;

    n.seq = seq;
    n.key = key;
    ck_pack(&n, s);
    n.sum = ck_sum(&n);
    __atomic_store_n(&e->seq, 0, __ATOMIC_RELAXED);
    __atomic_thread_fence(__ATOMIC_RELEASE);
    for (int i = 0; i < 5; i++)
        __atomic_store_n(&e->w[i], n.w[i], __ATOMIC_RELAXED);
    __atomic_store_n(&e->key, n.key, __ATOMIC_RELAXED);
    __atomic_store_n(&e->sum, n.sum, __ATOMIC_RELAXED);
    __atomic_store_n(&e->seq, seq, __ATOMIC_RELEASE);
}

/* pe's entry at addr: 1 and *out when it holds number seq of group key, else 0 (pe has
 * not got there yet, or is more than CK_DEPTH ahead) */
static int ck_fetch(struct ck_entry *out, const struct ck_entry *addr, int pe, uint64_t seq,
                    uint64_t key)
{
    const struct ck_entry *p = comm_ptr(addr, pe);

    for (int t = 0; t < CK_TRIES; t++) {
        if (p) {
            out->seq = __atomic_load_n(&p->seq, __ATOMIC_ACQUIRE);
            for (int i = 0; i < 5; i++)
                out->w[i] = __atomic_load_n(&p->w[i], __ATOMIC_RELAXED);
            out->key = __atomic_load_n(&p->key, __ATOMIC_RELAXED);
            out->sum = __atomic_load_n(&p->sum, __ATOMIC_RELAXED);
            __atomic_thread_fence(__ATOMIC_ACQUIRE);
            if (__atomic_load_n(&p->seq, __ATOMIC_RELAXED) != out->seq)
                continue;
        } else {
            comm_get(COMM_CTX_DEFAULT, out, addr, sizeof(*out), pe);
        }
        if (out->seq != 0 && out->sum == ck_sum(out))
            return out->seq == seq && out->key == key;
        if (t > 16)
            sched_yield(); /* its owner is between two stores: let it finish */
    }
    return 0;
}

static void ck_check(const char *r, const char *group, struct ck_entry *row, uint64_t key,
                     uint64_t seq, int size, int me, int (*pe_of)(const void *, int),
                     const void *arg, const struct coll_sig *s)
{
    struct ck_entry *mine = &row[seq % CK_DEPTH], theirs;
    int nbr[2] = { (me + size - 1) % size, (me + 1) % size };

    ck_publish(mine, seq, key, s);
    __atomic_thread_fence(__ATOMIC_SEQ_CST); /* published before any look at a neighbour */
    for (int k = 0; k < 2; k++) {
        struct coll_sig o;
        char a[96], b[96], name[32], full[48];
        int pe = pe_of(arg, nbr[k]);

        if (nbr[k] == me || (k == 1 && nbr[1] == nbr[0]))
            continue;
        if (!ck_fetch(&theirs, mine, pe, seq, key))
            continue;
        ck_unpack(&o, &theirs);
        o.aset = s->aset;
        if (ck_agree(s, &o))
            continue;
        ck_describe(s, a, sizeof(a));
        ck_describe(&o, b, sizeof(b));
        if (!r) {
            snprintf(full, sizeof(full), "shmem_%s%s", ck_name(s, name, sizeof(name)),
                     s->nb ? "_nb" : "");
            r = full;
        }
        ofs_bad_input(r,
                      "collective #%llu on %s: this PE (%d) called %s, PE %d called %s "
                      "(SHMEM_DEBUG: the members of a team or active set must call the same "
                      "collectives in the same order with matching arguments)",
                      (unsigned long long)seq, group, ofs_g.my_pe, a, pe, b);
    }
}

static int ck_team_pe(const void *arg, int i)
{
    return coll_team_world_pe((const struct coll_team *)arg, i);
}

void coll_check_team(const char *r, struct coll_team *team, const struct coll_sig *s)
{
    char group[48];
    uint64_t seq;

    if (!ck.board || team->my_pe < 0 || team->size < 2 || team->id < 0 || team->id >= ck.nslots)
        return;
    seq = __atomic_add_fetch(&ck.seq[team->id], 1, __ATOMIC_RELAXED);
    coll_team_label(team, group, sizeof(group));
    ck_check(r, group, ck.board + (size_t)team->id * CK_DEPTH, (uint64_t)team->id + 1, seq,
             team->size, team->my_pe, ck_team_pe, team, s);
}

void coll_check_nbc(const char *r, struct coll_team *team, const struct coll_nbc_args *a)
{
    struct coll_sig s = { .kind = a->kind,
                          .nb = 1,
                          .root = a->root,
                          .es = a->es,
                          .nelems = a->nelems,
                          .dst = a->kind == COLL_NBC_ALLTOALLS ? a->dst : 0,
                          .sst = a->kind == COLL_NBC_ALLTOALLS ? a->sst : 0,
                          .op = a->op,
                          .type = a->type,
                          .exclusive = a->exclusive };

    if (a->kind != COLL_NBC_REDUCE)
        s.op = 0;
    if (a->kind != COLL_NBC_REDUCE && a->kind != COLL_NBC_SCAN)
        s.type = 0;
    coll_check_team(r, team, &s);
}

struct ck_aset {
    int start, stride;
};

static int ck_aset_pe(const void *arg, int i)
{
    const struct ck_aset *a = arg;
    return a->start + i * a->stride;
}

void coll_check_aset(const char *r, const struct coll_grp *g, const struct coll_sig *s)
{
    /* coll_aset_grp checked the set: at most 2^16 PEs, a stride of at most 2^30 */
    int log = __builtin_ctz((unsigned)g->stride);
    uint64_t key = (uint64_t)g->start | (uint64_t)g->size << 24 | (uint64_t)log << 48 | 1ull << 63;
    uint64_t seq = 0, h = key * 0x9e3779b97f4a7c15ull;
    struct ck_aset a = { g->start, g->stride };
    struct coll_sig as = *s;
    char group[96];

    if (!ck.board || g->size < 2)
        return;
    as.aset = 1;
    pthread_mutex_lock(&ck.lock);
    for (int i = 0; i < CK_ASET_KEYS; i++) {
        if (ck.akey[i] == 0)
            ck.akey[i] = key;
        if (ck.akey[i] == key) {
            seq = ++ck.aseq[i];
            break;
        }
    }
    pthread_mutex_unlock(&ck.lock);
    if (!seq)
        return; /* more active sets than the PE keeps numbers of */
    snprintf(group, sizeof(group), "the active set (PE_start %d, logPE_stride %d, PE_size %d)",
             g->start, log, g->size);
    ck_check(r, group, ck.board + (size_t)(ck.nslots + (int)(h >> 60) % CK_ASET_GROUPS) * CK_DEPTH,
             key, seq, g->size, g->me, ck_aset_pe, &a, &as);
}

/* shmem_finalize is a collective of every PE: a PE finalizing while another calls a
 * collective on the world team (a Python program whose PE 0 raised an exception: the
 * binding finalizes at exit) waited in the launcher's fence while the others waited in
 * the collective */
void coll_check_finalize(void)
{
    if (OFS_UNLIKELY(OFS_DEBUG_ON))
        coll_check_team("shmem_finalize", &shmem_internal_team_world,
                        &(struct coll_sig){ .kind = CK_FINALIZE });
}

void coll_check_team_forget(struct coll_team *team)
{
    /* the always-on check's entries too: the slot's next team numbers from 1 again */
    if (!ck.board || team->id < 0 || team->id >= ck.nslots)
        return;
    memset(ck.board + (size_t)team->id * CK_DEPTH, 0, CK_DEPTH * sizeof(struct ck_entry));
    __atomic_store_n(&ck.seq[team->id], 0, __ATOMIC_RELAXED);
}

/* ---- the always-on check: signatures carried by the algorithms' own words ---- */

/* the arguments ck_agree compares, with the collective's number on its team, hashed */
static uint32_t sig_hash(uint64_t seq, const struct coll_sig *s)
{
    uint64_t h = 0xcbf29ce484222325ull ^ (seq * 0x9e3779b97f4a7c15ull);
    uint64_t a = (uint64_t)s->kind, b = 0, c = 0, d = 0;

    switch (s->kind) {
    case COLL_NBC_BCAST: b = (uint64_t)(int64_t)s->root, c = s->es * s->nelems; break;
    case COLL_NBC_FCOLLECT:
    case COLL_NBC_ALLTOALL: c = s->es * s->nelems; break;
    case COLL_NBC_ALLTOALLS:
        b = s->es, c = s->nelems, d = (uint64_t)s->dst * 0x9e3779b97f4a7c15ull ^ (uint64_t)s->sst;
        break;
    case COLL_NBC_REDUCE: b = (uint64_t)s->op << 8 | (uint64_t)s->type, c = s->nelems; break;
    case COLL_NBC_SCAN: b = (uint64_t)s->exclusive << 8 | (uint64_t)s->type, c = s->nelems; break;
    default: break; /* sync, collect (the members' counts may differ) */
    }
    h = (h ^ a) * 0x100000001b3ull;
    h = (h ^ b) * 0x100000001b3ull;
    h = (h ^ c) * 0x100000001b3ull;
    h = (h ^ d) * 0x100000001b3ull;
    h ^= h >> 29;
    h *= 0xbf58476d1ce4e5b9ull;
    return (uint32_t)(h >> 32);
}

/* the entry of the always-on check: the same board as SHMEM_DEBUG's (which, when on,
 * has it to itself): seq, the packed signature, key = 1 << 32 | hash.  Plain stores into
 * my own line, which nobody reads unless a wait goes long or an error is reported. */
static struct ck_entry *sig_entry(const struct coll_team *t, uint64_t seq)
{
    return ck.board + (size_t)t->id * CK_DEPTH + seq % CK_DEPTH;
}

static void sig_hier(struct coll_grp *g)
{
    if (g->hier) {
        g->hier->local.sig = g->hier->leaders.sig = g->sig;
        g->hier->local.top = g->hier->leaders.top = g;
    }
}

/* team t's collectives have entries on the board (else the group keeps its own copy) */
static int sig_on_board(const struct coll_team *t)
{
    return ck.board && !OFS_DEBUG_ON && t->id >= 0 && t->id < ck.nslots;
}

void coll_sig_team(const char *r, struct coll_team *team, const struct coll_sig *s)
{
    struct coll_grp *g = coll_team_grp(team);
    /* the number coll_live_enter is about to give it */
    uint64_t seq = coll_fin.cnt[team->id] + 1;

    g->sig = sig_hash(seq, s);
    g->sg.r = r;
    g->sg.team = team;
    g->sg.seq = seq;
    if (OFS_UNLIKELY(g->hier != NULL))
        sig_hier(g);
    if (sig_on_board(team)) {
        /* the entry is the group's copy too: coll_sig_fail reads it back (sig_mine) */
        struct ck_entry *e = sig_entry(team, seq), n;
        ck_pack(&n, s);
        for (int i = 0; i < 5; i++)
            __atomic_store_n(&e->w[i], n.w[i], __ATOMIC_RELAXED);
        __atomic_store_n(&e->key, 1ull << 32 | g->sig, __ATOMIC_RELAXED);
        __atomic_store_n(&e->seq, seq, __ATOMIC_RELEASE);
    } else {
        g->sg.s = *s;
    }
}

void coll_sig_aset(const char *r, struct coll_grp *g, const struct coll_sig *s)
{
    /* pSync counters start from 0 in each call: no number needed (nor kept) */
    g->sig = sig_hash(0, s);
    g->sg.r = r;
    g->sg.team = NULL;
    g->sg.seq = 0;
    g->sg.s = *s;
    g->sg.s.aset = 1;
}

/* member pe's entry for number seq of team t: 1 and *o when it has one */
static int sig_read(const struct coll_team *t, int pe, uint64_t seq, struct coll_sig *o,
                    uint32_t *h)
{
    const struct ck_entry *addr = sig_entry(t, seq), *p;
    struct ck_entry e;

    if (!sig_on_board(t))
        return 0;
    p = comm_ptr(addr, pe);
    if (p) {
        e.seq = __atomic_load_n(&p->seq, __ATOMIC_ACQUIRE);
        for (int i = 0; i < 5; i++)
            e.w[i] = __atomic_load_n(&p->w[i], __ATOMIC_RELAXED);
        e.key = __atomic_load_n(&p->key, __ATOMIC_RELAXED);
    } else {
        comm_get(COMM_CTX_DEFAULT, &e, addr, sizeof(e), pe);
    }
    if (e.seq != seq || (e.key >> 32) != 1)
        return 0;
    ck_unpack(o, &e);
    o->aset = 0;
    *h = (uint32_t)e.key;
    return 1;
}

/* this PE's signature of the collective st is in: its board entry, else the copy */
static void sig_mine(const struct coll_sig_state *st, struct coll_sig *s)
{
    if (st->team && sig_on_board(st->team)) {
        ck_unpack(s, sig_entry(st->team, st->seq));
        s->aset = 0;
    } else {
        *s = st->s;
    }
}

void coll_sig_fail(struct coll_grp *g, int pe, uint32_t theirs, int have_theirs)
{
    struct coll_grp *top = g->top ? g->top : g;
    const struct coll_sig_state *st = &top->sg;
    struct coll_sig o;
    char a[96], b[96], name[32], full[48], group[96], sigs[64], num[48];
    const char *r = st->r;
    struct coll_sig mine;
    uint32_t h;
    int found = 0;

    sig_mine(st, &mine);
    if (!r) {
        snprintf(full, sizeof(full), "shmem_%s", ck_name(&mine, name, sizeof(name)));
        r = full;
    }
    ck_describe(&mine, a, sizeof(a));
    if (st->team) {
        coll_team_label(st->team, group, sizeof(group));
        /* the member that told us, else the first whose entry of this number differs */
        for (int i = -1; i < st->team->size && !found; i++) {
            int q = i < 0 ? pe : coll_team_world_pe(st->team, i);
            if (q < 0 || q == ofs_g.my_pe || (i >= 0 && q == pe))
                continue;
            if (sig_read(st->team, q, st->seq, &o, &h) && h != top->sig)
                found = 1, pe = q;
        }
    } else {
        snprintf(group, sizeof(group), "the active set (PE_start %d, logPE_stride %d, PE_size %d)",
                 g->start, g->stride > 0 ? __builtin_ctz((unsigned)g->stride) : 0, g->size);
    }
    if (found) {
        o.aset = mine.aset;
        ck_describe(&o, b, sizeof(b));
        ofs_bad_input(r,
                      "mismatched collectives: PE %d called %s as collective #%llu on %s; "
                      "this PE (%d) called %s (the members of a team must call the same "
                      "collectives in the same order with matching arguments)",
                      pe, b, (unsigned long long)st->seq, group, ofs_g.my_pe, a);
    }
    if (pe >= 0)
        snprintf(b, sizeof(b), "PE %d", pe);
    else
        snprintf(b, sizeof(b), "another member");
    if (have_theirs)
        snprintf(sigs, sizeof(sigs), " (signature %08x, this PE's %08x)", theirs, top->sig);
    else
        sigs[0] = 0;
    if (st->team)
        snprintf(num, sizeof(num), "collective #%llu on ", (unsigned long long)st->seq);
    else
        num[0] = 0;
    ofs_bad_input(r,
                  "mismatched collectives: %s%s: this PE (%d) called %s, %s called another "
                  "collective or passed arguments that must match and do not%s (the members "
                  "of a team or active set must call the same collectives in the same order "
                  "with matching arguments)",
                  num, group, ofs_g.my_pe, a, b, sigs);
}

static void sig_look(struct coll_grp *g, int remote)
{
    struct coll_grp *top = g->top ? g->top : g;
    const struct coll_sig_state *st = &top->sg;
    struct coll_sig o;
    uint32_t h;

    if (!st->team || !ck.board || OFS_DEBUG_ON)
        return;
    for (int i = 0; i < st->team->size; i++) {
        int q = coll_team_world_pe(st->team, i);
        if (q == ofs_g.my_pe || (!remote && !comm_ptr(sig_entry(st->team, st->seq), q)))
            continue;
        if (sig_read(st->team, q, st->seq, &o, &h) && h != top->sig)
            coll_sig_fail(g, q, h, 1);
    }
}

void coll_sig_look(struct coll_grp *g)
{
    static __thread unsigned naps;

    /* by load only: a nap must not wait for the fabric; every 8th nap (up to 1 ms
     * each): a waiter that naps often is not slowed by the look */
    if ((naps++ & 7) == 0)
        sig_look(g, 0);
}

int coll_sig_watch(struct coll_grp *g, unsigned n)
{
    static __thread uint64_t t0, next;
    uint64_t now = ofs_clock_ns();

    if (n == 64) { /* a new wait */
        t0 = now;
        next = now + COLL_SIG_WATCH_NS;
        return 0;
    }
    if (now < next)
        return 0;
    next = now + COMM_WATCH_NS;
    (void)t0;
    sig_look(g, 1);
    return 0;
}
