m4_divert(-1)
# ofishmem man pages (section 3), one per routine family, generated with m4 -P from the
# same families and type table as shmem.h: NAME lists every routine of the family and
# SYNOPSIS every prototype, so neither can drift from the header.
# MAN_PAGE($1 page, $2 families, $3 one-line summary, $4 DESCRIPTION, $5 RETURN VALUES,
#          $6 NOTES, $7 EXAMPLES, $8 SEE ALSO, $9 C11/C++ generic synopsis lines)
m4_define(`MAN_PAGE', `.\" generated -- do not edit: made by m4 from man/shmem_man.m4 and mpp/shmem_types.m4
.TH m4_translit(`$1', `a-z', `A-Z') 3 "2026" "ofishmem" "OpenSHMEM 1.5"
.ad l
.SH NAME
m4_define(`MODE', `mannames')m4_define(`MAN_SELF', `$1')$2`'m4_dnl
$1 \- $3
.SH SYNOPSIS
.nf
.B #include <shmem.h>
.sp
m4_ifelse(`$9', `', `', `.I "C11 generic (C++ overloads), TYPE from the list of typed names below:"
$9
.sp
')m4_dnl
m4_define(`MODE', `proto')m4_define(`SHPRE', `')$2`'m4_dnl
.fi
.SH DESCRIPTION
$4
.SH RETURN VALUES
$5
.SH ERRORS
With error checking enabled (the default; configure \-\-disable\-error\-checking removes it),
a PE number out of range, an address that is not symmetric where the routine needs one
(or a range that runs past the end of its symmetric segment), a NULL buffer with a nonzero
length, a count whose size in bytes overflows size_t, a collective argument outside the
range the specification gives (PE_root, PE_start, logPE_stride, PE_size, a PE outside the
team or active set, a pSync or pWrk that is not symmetric or smaller than its
SHMEM_*_SYNC_SIZE or SHMEM_REDUCE_MIN_WRKDATA_SIZE size), an invalid context or team, or a
call before
.BR shmem_init (3)
print one line naming the routine, the argument and its value, and end the job with a
nonzero status.  A count of zero is accepted with any pointer, NULL included: nothing is
accessed (a put-with-signal still updates the signal).  A transfer from a PE to itself
whose source and destination partly overlap, and an atomic whose target is not aligned to
its type, are reported the same way.
.SH NOTES
$6
Every routine shmem_X is also available as pshmem_X (declared in <pshmem.h>) for
profiling tools.
.SH EXAMPLES
.nf
$7
.fi
.SH SEE ALSO
$8
')

m4_define(`RMA_ARGS', `.TP
.I dest
Symmetric destination (for put) or local destination (for get).
.TP
.I source
Local source (for put) or symmetric source (for get).
.TP
.I nelems
Number of elements (bytes for the mem forms; 8/16/32/64/128-bit units for the sized forms).
.TP
.I pe
PE number of the remote PE, in SHMEM_TEAM_WORLD (or in the team of
.I ctx
when one is given).
.TP
.I ctx
Communication context; the forms without it use SHMEM_CTX_DEFAULT.')

m4_define(`PAGE_shmem_put', `MAN_PAGE(`shmem_put',
`MT_RMA(`MF_PUT_T')MT_SIZED_MEM(`MF_PUT_S')',
`copy data to a remote PE',
`The put routines copy
.I nelems
elements from the local
.I source
to
.I dest
on PE
.IR pe .
They return once
.I source
may be reused; the data is delivered when
.BR shmem_quiet (3)
returns (or in order after
.BR shmem_fence (3)).
RMA_ARGS',
`None.',
`The typed forms exist for every standard RMA type; shmem_putmem counts bytes.',
`static long dest[4];
long src[4] = {1, 2, 3, 4};
shmem_put(dest, src, 4, (shmem_my_pe() + 1) % shmem_n_pes());
shmem_barrier_all();',
`.BR shmem_get (3), shmem_p (3), shmem_put_nbi (3), shmem_iput (3), shmem_quiet (3)',
`void shmem_put(TYPE *dest, const TYPE *source, size_t nelems, int pe);
void shmem_put(shmem_ctx_t ctx, TYPE *dest, const TYPE *source, size_t nelems, int pe);')')

m4_define(`PAGE_shmem_get', `MAN_PAGE(`shmem_get',
`MT_RMA(`MF_GET_T')MT_SIZED_MEM(`MF_GET_S')',
`copy data from a remote PE',
`The get routines copy
.I nelems
elements from symmetric
.I source
on PE
.I pe
to the local
.IR dest ,
and return when the data has arrived.
RMA_ARGS',
`None.',
`shmem_getmem counts bytes.',
`static int src[4];
int loc[4];
shmem_get(loc, src, 4, 0);',
`.BR shmem_put (3), shmem_g (3), shmem_get_nbi (3), shmem_iget (3)',
`void shmem_get(TYPE *dest, const TYPE *source, size_t nelems, int pe);
void shmem_get(shmem_ctx_t ctx, TYPE *dest, const TYPE *source, size_t nelems, int pe);')')

m4_define(`PAGE_shmem_p', `MAN_PAGE(`shmem_p',
`MT_RMA(`MF_P_T')',
`store one element on a remote PE',
`Writes
.I value
to symmetric
.I dest
on PE
.IR pe ;
delivery is completed by
.BR shmem_quiet (3).',
`None.', `', `static int flag;
shmem_p(&flag, 1, 0);', `.BR shmem_put (3), shmem_g (3)',
`void shmem_p(TYPE *dest, TYPE value, int pe);
void shmem_p(shmem_ctx_t ctx, TYPE *dest, TYPE value, int pe);')')

m4_define(`PAGE_shmem_g', `MAN_PAGE(`shmem_g',
`MT_RMA(`MF_G_T')',
`fetch one element from a remote PE',
`Returns the value of symmetric
.I source
on PE
.IR pe .',
`The remote value.', `', `static long counter;
long v = shmem_g(&counter, 0);', `.BR shmem_get (3), shmem_p (3)',
`TYPE shmem_g(const TYPE *source, int pe);
TYPE shmem_g(shmem_ctx_t ctx, const TYPE *source, int pe);')')

m4_define(`PAGE_shmem_iput', `MAN_PAGE(`shmem_iput',
`MT_RMA(`MF_IPUT_T')MT_SIZED(`MF_IPUT_S')',
`strided copy to a remote PE',
`Copies
.I nelems
elements taken every
.I sst
elements of
.I source
to every
.I dst
elements of symmetric
.I dest
on PE
.IR pe .
Strides are in elements and must be at least 1.',
`None.', `', `static double dest[8];
double src[4] = {1, 2, 3, 4};
shmem_iput(dest, src, 2, 1, 4, 0);  /* dest[0], [2], [4], [6] */',
`.BR shmem_iget (3), shmem_put (3)',
`void shmem_iput(TYPE *dest, const TYPE *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe);
void shmem_iput(shmem_ctx_t ctx, TYPE *dest, const TYPE *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe);')')

m4_define(`PAGE_shmem_ibput', `MAN_PAGE(`shmem_ibput',
`MT_RMA(`MF_IBPUT_T')MT_SIZED(`MF_IBPUT_S')',
`blocked strided copy to a remote PE (OpenSHMEM 1.6)',
`Copies
.I nblocks
blocks of
.I bsize
contiguous elements to symmetric
.I dest
on PE
.IR pe :
block
.I b
is read from element
.IR b * sst
of the local
.I source
and written at element
.IR b * dst
of
.IR dest .
Strides are in elements and must be at least 1; when both equal
.I bsize
the copy is one contiguous put.  Returns once
.I source
may be reused; completion as for
.BR shmem_put (3).
With
.I bsize
= 1 this is
.BR shmem_iput (3).',
`None.', `', `static double grid[64];
double rows[16];
/* 4 rows of 4 elements into a row pitch of 8 */
shmem_ibput(grid, rows, 8, 4, 4, 4, 0);',
`.BR shmem_ibget (3), shmem_iput (3), shmem_put (3)',
`void shmem_ibput(TYPE *dest, const TYPE *source, ptrdiff_t dst, ptrdiff_t sst, size_t bsize, size_t nblocks, int pe);
void shmem_ibput(shmem_ctx_t ctx, TYPE *dest, const TYPE *source, ptrdiff_t dst, ptrdiff_t sst, size_t bsize, size_t nblocks, int pe);')')

m4_define(`PAGE_shmem_ibget', `MAN_PAGE(`shmem_ibget',
`MT_RMA(`MF_IBGET_T')MT_SIZED(`MF_IBGET_S')',
`blocked strided copy from a remote PE (OpenSHMEM 1.6)',
`Copies
.I nblocks
blocks of
.I bsize
contiguous elements from symmetric
.I source
on PE
.I pe
to the local
.IR dest :
block
.I b
is read at element
.IR b * sst
of
.I source
and written at element
.IR b * dst
of
.IR dest .
Strides are in elements and must be at least 1.  Returns when the data has arrived.',
`None.', `', `static double grid[64];
double rows[16];
shmem_ibget(rows, grid, 4, 8, 4, 4, 0);  /* 4 rows of 4 out of a pitch of 8 */',
`.BR shmem_ibput (3), shmem_iget (3), shmem_get (3)',
`void shmem_ibget(TYPE *dest, const TYPE *source, ptrdiff_t dst, ptrdiff_t sst, size_t bsize, size_t nblocks, int pe);
void shmem_ibget(shmem_ctx_t ctx, TYPE *dest, const TYPE *source, ptrdiff_t dst, ptrdiff_t sst, size_t bsize, size_t nblocks, int pe);')')

m4_define(`PAGE_shmem_iget', `MAN_PAGE(`shmem_iget',
`MT_RMA(`MF_IGET_T')MT_SIZED(`MF_IGET_S')',
`strided copy from a remote PE',
`Copies
.I nelems
elements taken every
.I sst
elements of symmetric
.I source
on PE
.I pe
to every
.I dst
elements of the local
.IR dest .',
`None.', `', `static int src[8];
int loc[4];
shmem_iget(loc, src, 1, 2, 4, 0);  /* src[0], [2], [4], [6] */',
`.BR shmem_iput (3), shmem_get (3)',
`void shmem_iget(TYPE *dest, const TYPE *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe);
void shmem_iget(shmem_ctx_t ctx, TYPE *dest, const TYPE *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe);')')

m4_define(`PAGE_shmem_put_nbi', `MAN_PAGE(`shmem_put_nbi',
`MT_RMA(`MF_PUT_NBI_T')MT_SIZED_MEM(`MF_PUT_NBI_S')',
`nonblocking copy to a remote PE',
`Like
.BR shmem_put (3)
but may return before
.I source
can be reused: both buffers must stay untouched until
.BR shmem_quiet (3)
(or shmem_ctx_quiet on the same context) returns.
RMA_ARGS',
`None.', `', `shmem_putmem_nbi(dest, buf, len, pe);
/* ... other work ... */
shmem_quiet();',
`.BR shmem_put (3), shmem_get_nbi (3), shmem_quiet (3)',
`void shmem_put_nbi(TYPE *dest, const TYPE *source, size_t nelems, int pe);
void shmem_put_nbi(shmem_ctx_t ctx, TYPE *dest, const TYPE *source, size_t nelems, int pe);')')

m4_define(`PAGE_shmem_get_nbi', `MAN_PAGE(`shmem_get_nbi',
`MT_RMA(`MF_GET_NBI_T')MT_SIZED_MEM(`MF_GET_NBI_S')',
`nonblocking copy from a remote PE',
`Like
.BR shmem_get (3)
but returns at once;
.I dest
holds the data after
.BR shmem_quiet (3)
returns.
RMA_ARGS',
`None.', `', `shmem_getmem_nbi(buf, src, len, pe);
shmem_quiet();',
`.BR shmem_get (3), shmem_put_nbi (3), shmem_quiet (3)',
`void shmem_get_nbi(TYPE *dest, const TYPE *source, size_t nelems, int pe);
void shmem_get_nbi(shmem_ctx_t ctx, TYPE *dest, const TYPE *source, size_t nelems, int pe);')')

m4_define(`PAGE_shmem_put_signal', `MAN_PAGE(`shmem_put_signal',
`MF_SIGNAL',
`copy data and then update a signal on a remote PE',
`Copies
.I nelems
elements like
.BR shmem_put (3)
and then updates the symmetric 64-bit
.I sig_addr
on PE
.I pe
with
.I signal
using
.I sig_op
(SHMEM_SIGNAL_SET or SHMEM_SIGNAL_ADD).  A PE that sees the signal change (with
.BR shmem_signal_wait_until (3)
or
.BR shmem_wait_until (3))
also sees the data.  The _nbi forms return before
.I source
may be reused; complete them with
.BR shmem_quiet (3).',
`None.', `', `static long data[16];
static uint64_t sig;
shmem_put_signal(data, buf, 16, &sig, 1, SHMEM_SIGNAL_ADD, peer);
/* on peer: */ shmem_signal_wait_until(&sig, SHMEM_CMP_GE, 1);',
`.BR shmem_signal_fetch (3), shmem_signal_wait_until (3), shmem_put (3)',
`void shmem_put_signal(TYPE *dest, const TYPE *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe);
void shmem_put_signal_nbi(TYPE *dest, const TYPE *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe);
(and both with a leading shmem_ctx_t ctx)')')

m4_define(`PAGE_shmem_signal_fetch', `MAN_PAGE(`shmem_signal_fetch',
`MU_SIGNAL',
`read or wait for a signal',
`shmem_signal_fetch atomically reads the local symmetric signal
.IR sig_addr .
shmem_signal_wait_until blocks until the signal compares true with
.I cmp_value
under
.I cmp
(SHMEM_CMP_EQ, NE, GT, GE, LT, LE), backing off (yield, then short sleeps) rather than spinning.',
`The value of the signal (after the wait condition held).', `', `uint64_t v = shmem_signal_wait_until(&sig, SHMEM_CMP_NE, 0);',
`.BR shmem_put_signal (3), shmem_wait_until (3)', `')')

m4_define(`PAGE_shmem_atomic_fetch_add', `MAN_PAGE(`shmem_atomic_fetch_add',
`MT_AMO_STD(`MF_AMO_FADD')MT_AMO_STD(`MF_AMO_FINC')MT_AMO_STD(`MF_AMO_ADD')MT_AMO_STD(`MF_AMO_INC')',
`atomic add and increment, with or without fetching',
`Atomically add
.I value
(or 1, for the inc forms) to symmetric
.I dest
on PE
.IR pe .
The fetch forms return the previous value; the _nbi fetch forms store it in the local
.I fetch
once
.BR shmem_quiet (3)
returns.  Atomics on one location are atomic with respect to each other whichever
PEs issue them.',
`The fetch forms return the value of
.I dest
before the update.', `', `static long counter;
long ticket = shmem_atomic_fetch_inc(&counter, 0);',
`.BR shmem_atomic_compare_swap (3), shmem_atomic_swap (3), shmem_atomic_and (3)',
`TYPE shmem_atomic_fetch_add(TYPE *dest, TYPE value, int pe);
void shmem_atomic_fetch_add_nbi(TYPE *fetch, TYPE *dest, TYPE value, int pe);
TYPE shmem_atomic_fetch_inc(TYPE *dest, int pe);
void shmem_atomic_add(TYPE *dest, TYPE value, int pe);
void shmem_atomic_inc(TYPE *dest, int pe);
(each also with a leading shmem_ctx_t ctx)')')

m4_define(`PAGE_shmem_atomic_compare_swap', `MAN_PAGE(`shmem_atomic_compare_swap',
`MT_AMO_STD(`MF_AMO_CSWAP')',
`atomic conditional swap',
`Atomically: if symmetric
.I dest
on PE
.I pe
equals
.IR cond ,
store
.IR value .
The previous value is returned (or stored in
.I fetch
by the _nbi forms after
.BR shmem_quiet (3)).',
`The value of
.I dest
before the operation.', `', `static int lock;
while (shmem_atomic_compare_swap(&lock, 0, 1, 0) != 0) ;',
`.BR shmem_atomic_swap (3), shmem_atomic_fetch_add (3)',
`TYPE shmem_atomic_compare_swap(TYPE *dest, TYPE cond, TYPE value, int pe);
void shmem_atomic_compare_swap_nbi(TYPE *fetch, TYPE *dest, TYPE cond, TYPE value, int pe);')')

m4_define(`PAGE_shmem_atomic_swap', `MAN_PAGE(`shmem_atomic_swap',
`MT_AMO_EXT(`MF_AMO_FETCH')MT_AMO_EXT(`MF_AMO_SET')MT_AMO_EXT(`MF_AMO_SWAP')',
`atomic fetch, set and swap',
`shmem_atomic_fetch atomically reads symmetric
.I source
on PE
.IR pe ;
shmem_atomic_set atomically writes
.IR value ;
shmem_atomic_swap writes
.I value
and returns the previous contents.  Float and double are supported.',
`fetch and swap return the (previous) remote value.', `', `static double x;
double old = shmem_atomic_swap(&x, 2.0, 1);',
`.BR shmem_atomic_compare_swap (3), shmem_atomic_fetch_add (3)',
`TYPE shmem_atomic_fetch(const TYPE *source, int pe);
void shmem_atomic_set(TYPE *dest, TYPE value, int pe);
TYPE shmem_atomic_swap(TYPE *dest, TYPE value, int pe);
(with _nbi and shmem_ctx_t forms as listed below)')')

m4_define(`PAGE_shmem_atomic_and', `MAN_PAGE(`shmem_atomic_and',
`MT_AMO_BIT(`MF_AMO_BIT')',
`atomic bitwise and, or, xor',
`Atomically combine symmetric
.I dest
on PE
.I pe
with
.I value
by bitwise and, or or xor.  The fetch forms return the previous value.',
`The fetch forms return the previous value.', `', `static unsigned long flags;
shmem_atomic_or(&flags, 1UL << 3, 0);',
`.BR shmem_atomic_fetch_add (3)',
`void shmem_atomic_and(TYPE *dest, TYPE value, int pe);
TYPE shmem_atomic_fetch_and(TYPE *dest, TYPE value, int pe);
void shmem_atomic_fetch_and_nbi(TYPE *fetch, TYPE *dest, TYPE value, int pe);
(same for or and xor, each also with shmem_ctx_t)')')

m4_define(`PAGE_shmem_fadd', `MAN_PAGE(`shmem_fadd',
`MT_AMO_DEPR(`MF_AMO_DEPR_T')MT_AMO_DEPR_EXT(`MF_AMO_DEPR_EXT_T')',
`deprecated atomic routines',
`Deprecated since OpenSHMEM 1.4: shmem_TYPE_fadd, finc, add, inc, cswap, swap, fetch and set
behave as shmem_TYPE_atomic_fetch_add, fetch_inc, add, inc, compare_swap, swap, fetch and set.',
`As the routines they stand for.', `Use the shmem_atomic_* names in new code.', `int old = shmem_int_fadd(&x, 1, 0);',
`.BR shmem_atomic_fetch_add (3), shmem_atomic_swap (3)', `')')

m4_define(`PAGE_shmem_wait_until', `MAN_PAGE(`shmem_wait_until',
`MT_SYNC_SHORT(`MF_WAIT_T')MT_SYNC_DEPR(`MF_WAIT_DEPR_T')MU_WAITDEPR',
`wait for or test a condition on a symmetric variable',
`shmem_wait_until blocks until the local symmetric
.I ivar
compares true with
.I cmp_value
under
.I cmp
(SHMEM_CMP_EQ, SHMEM_CMP_NE, SHMEM_CMP_GT, SHMEM_CMP_GE, SHMEM_CMP_LT, SHMEM_CMP_LE).
shmem_test returns at once.  Waiting backs off (progress, yield, then short sleeps)
instead of spinning.  The deprecated shmem_wait waits while
.I ivar
equals
.IR cmp_value .',
`shmem_test returns 1 when the condition holds, else 0.', `short and unsigned short are in the point-to-point type table of the specification,
for these routines and for their _all, _any and _some forms.',
`static long flag;
shmem_wait_until(&flag, SHMEM_CMP_EQ, 1);',
`.BR shmem_wait_until_all (3), shmem_signal_wait_until (3)',
`void shmem_wait_until(TYPE *ivar, int cmp, TYPE cmp_value);
int shmem_test(TYPE *ivar, int cmp, TYPE cmp_value);')')

m4_define(`PAGE_shmem_wait_until_all', `MAN_PAGE(`shmem_wait_until_all',
`MT_SYNC_SHORT(`MF_MULTI_T')',
`wait for or test conditions on arrays of symmetric variables',
`These routines compare each element of
.I ivars
(
.I nelems
elements) with
.I cmp_value
(or
.IR cmp_values [i]
for the _vector forms) under
.IR cmp .
An element i is ignored when
.I status
is not NULL and
.IR status [i]
is nonzero.
_all waits until every included element satisfies the comparison;
_any until one does and returns its index (where several do, a series of calls returns
each of them in turn: the next scan of a thread starts one past the index it last returned);
_some until at least one does and stores the indices of all satisfying elements in
.IR indices .
The test forms do not wait.',
`wait_until_all: none.  test_all: 1 if all included elements satisfy, else 0 (1 when none is
included).  _any: an index, or SIZE_MAX when none satisfies (or none is included).  _some: the
number of indices stored (0 when none is included).', `',
`static int flags[8];
size_t idx[8];
size_t n = shmem_int_wait_until_some(flags, 8, idx, NULL, SHMEM_CMP_NE, 0);',
`.BR shmem_wait_until (3)',
`void shmem_wait_until_all(TYPE *ivars, size_t nelems, const int *status, int cmp, TYPE cmp_value);
size_t shmem_wait_until_any(TYPE *ivars, size_t nelems, const int *status, int cmp, TYPE cmp_value);
size_t shmem_wait_until_some(TYPE *ivars, size_t nelems, size_t *indices, const int *status, int cmp, TYPE cmp_value);
(the same for test_all, test_any, test_some, and _vector forms taking TYPE *cmp_values)')')

m4_define(`PAGE_shmem_malloc', `MAN_PAGE(`shmem_malloc',
`MU_MEM`'MU_DEPR',
`symmetric memory management',
`These collective routines allocate, resize and free symmetric memory; every PE must call
them with the same arguments, and each ends with a barrier.  shmem_align returns memory
aligned to
.I alignment
(a power of two); shmem_calloc zeroes it; shmem_malloc_with_hints takes SHMEM_MALLOC_*
hints as advice.  shmalloc, shfree, shrealloc and shmemalign are deprecated names.',
`A pointer to the symmetric block, or NULL when
.I size
is 0 or the heap (SHMEM_SYMMETRIC_SIZE) is exhausted: the first such failure of a PE
prints a warning with what is free and the variable to raise (under SHMEM_DEBUG, every
failure does).
shmem_realloc(NULL, size) is shmem_malloc(size); shmem_realloc(ptr, 0) frees
.I ptr
and returns NULL.',
`Each PE finishes writing its own copy of the block (the zeroes of shmem_calloc, the old
contents copied by shmem_realloc) before the closing barrier, so any PE may put into the
block or aim atomics at it on every PE as soon as the routine returns.
shmem_free or shmem_realloc of a pointer that is not a live block from these routines (a
global or static variable, private memory, a block already freed, a pointer inside a
block) prints one line saying which, and ends the job, with or without error checking.
Every PE must pass the same arguments (the specification leaves anything else undefined):
each PE compares its own with those of the PE on its left around the entry barrier it
takes anyway, and one whose differ ends the job with one line naming the routine and its
arguments, e.g. shmem_malloc: size = 128: the PE on the left passed other values.
shmem_align with an alignment that is not a power of two (0 included; undefined in the
specification) ends the job with one line; a power of two below sizeof(void *) is
honoured; one larger than the heap can give at the same offset on every PE (the size of the heap
rounded up to a power of two) returns NULL on every PE with a warning naming the
largest.  shmem_calloc whose count times size overflows returns NULL with a warning.
.PP',
`long *buf = shmem_malloc(1024 * sizeof(long));
/* ... */
shmem_free(buf);',
`.BR shmem_init (3)', `')')

m4_define(`PAGE_shmem_init', `MAN_PAGE(`shmem_init',
`MU_SETUP',
`library setup, exit and query',
`shmem_init and shmem_init_thread start the library (collective); shmem_finalize ends it;
shmem_global_exit ends every PE with
.IR status .
shmem_my_pe and shmem_n_pes give the PE number and count; shmem_pe_accessible and
shmem_addr_accessible tell whether a PE or a symmetric address can be reached; shmem_ptr
returns a load/store pointer to the copy of
.I dest
on
.I pe
or NULL; shmem_info_get_version and shmem_info_get_name describe the library;
shmem_pcontrol is a hook for profiling tools and does nothing itself.',
`shmem_init_thread returns 0 on success.  The query routines return the values described.',
`A second shmem_init or shmem_init_thread while the library is initialized does nothing,
and so does a second shmem_finalize.  shmem_finalize before shmem_init, and shmem_init or
shmem_init_thread after shmem_finalize (the library cannot start again in the same
program), print one line naming the routine and the problem and end the job, with or
without error checking.  shmem_init also ends the job, with one line per variable, when
PEs disagree on a setting that must be the same everywhere (see
.BR ofishmem (7)).
.PP
A program that ends normally (returns from main or calls exit) without calling
shmem_finalize is finalized by an exit handler that the first shmem_init registers, so
legacy start_pes programs end with status 0; exit handlers registered after shmem_init run
first and may still call the library.  Should the other PEs not end their programs too
(a PE calls exit while the others wait for it), that PE ends the job after
SHMEM_EXIT_TIMEOUT seconds (default 60).  A PE that ends without exit handlers (_exit, a
signal) takes the job down.
.PP
shmem_finalize is collective: a PE that calls it (explicitly or at exit) calls no other
collective.  A PE left waiting in a blocking collective (shmem_barrier_all, shmem_sync_all,
shmem_team_sync, a broadcast, collect, alltoall, reduction or scan, or shmemx_req_wait for a
non-blocking one) of a team whose member
called shmem_finalize without calling that collective ends the job within about a second,
without SHMEM_DEBUG, with one line naming the routine it waits in, the number of the collective
on the team, the member and the mismatch, and a failing status; the member ends with the
job.  A member that finalizes after contributing to a collective that others still
finish, or while others run collectives of teams it is not in, is not named.  Active-set
collectives keep waiting (SHMEM_FINALIZE_WATCH=0 turns the check
and its one atomic add per PE at shmem_finalize off).
.PP',
`shmem_init();
printf("PE %d of %d\en", shmem_my_pe(), shmem_n_pes());
shmem_finalize();',
`.BR shmem_malloc (3), shmem_quiet (3)', `')')

m4_define(`PAGE_shmem_quiet', `MAN_PAGE(`shmem_quiet',
`MU_ORDER',
`ordering and completion of remote operations',
`shmem_fence orders the puts, AMOs and signals issued before it to each PE before those
issued after it; shmem_quiet completes all of them (and the _nbi routines).  The ctx_ forms
act on one context.
.BR shmem_barrier_all (3)
completes all operations and synchronizes every PE;
.BR shmem_sync_all (3)
synchronizes without completing.',
`None.', `', `shmem_put(dest, src, n, pe);
shmem_fence();
shmem_p(&flag, 1, pe);',
`.BR shmem_put (3), shmem_put_nbi (3), shmem_barrier_all (3)', `')')

# Typed collective names: their pages are written by hand (man/man3/shmem_broadcast.3,
# ...; the teams/collectives part), but the names come from the same families as shmem.h
# (MF_COLL): COLL_NAMES(regexp) lists every typed collective whose name matches, one a
# line, for the install hook's .so stubs.
m4_define(`MD_DEF_collnames', `m4_ifelse(m4_regexp(`$2', COLL_RE), `-1', `', `shmem_$2
')')
m4_define(`COLL_NAMES', `m4_define(`MODE', `collnames')m4_define(`COLL_RE', `$1')MF_COLL')
m4_define(`PAGE_shmem_sum_inscan', `MAN_PAGE(`shmem_sum_inscan',
`MT_RED_ARITH(`MF_SCAN')',
`prefix sums over a team (OpenSHMEM 1.6)',
`Collective over
.IR team :
element
.I j
of
.I dest
on team member
.I i
becomes the sum of element
.I j
of
.I source
over members 0 to
.I i
(shmem_sum_inscan, inclusive) or 0 to
.IR i \-1
(shmem_sum_exscan, exclusive; 0 on member 0).
.I source
and
.I dest
are symmetric arrays of
.I nelems
elements, either the same array (in place) or disjoint.  No synchronisation is needed
before the call; on return
.I dest
holds the result and
.I source
may be reused.
ofishmem adds in team order, so floating-point results equal those of a sequential
loop on every PE.',
`Zero on success.  PEs that are not members of
.I team
must not call it.', `The sums are made by getting the sources of the lower-ranked members
after one team barrier (latency linear in the team size; no scratch space).',
`static long src[4], dst[4];
for (int j = 0; j < 4; j++) src[j] = shmem_my_pe() + j;
shmem_long_sum_inscan(SHMEM_TEAM_WORLD, dst, src, 4);',
`.BR shmem_sum_reduce (3), shmem_team_split_strided (3)',
`int shmem_sum_inscan(shmem_team_t team, TYPE *dest, const TYPE *source, size_t nelems);
int shmem_sum_exscan(shmem_team_t team, TYPE *dest, const TYPE *source, size_t nelems);')')

m4_define(`PAGE_shmem_ctx_session_start', `MAN_PAGE(`shmem_ctx_session_start',
`MD_DECL(`void', `ctx_session_start', `shmem_ctx_t ctx, long options, const shmem_ctx_session_config_t *config, long config_mask')MD_DECL(`void', `ctx_session_stop', `shmem_ctx_t ctx')',
`communication sessions on a context (OpenSHMEM 1.6)',
`shmem_ctx_session_start tells the library that
.I ctx
will be used for a series of operations (SHMEM_CTX_SESSION_BATCH: many small puts and
non-fetching AMOs); shmem_ctx_session_stop ends the session.
.I config
(a shmem_ctx_session_config_t with
.IR total_ops ,
selected by SHMEM_CTX_SESSION_TOTAL_OPS in
.IR config_mask )
is a hint.  Sessions never change completion or ordering: only
.BR shmem_quiet (3)
and
.BR shmem_fence (3)
do.  SHMEM_CTX_INVALID makes both routines return at once; a second start combines
options, a second stop does nothing.',
`None.',
`ofishmem accepts the hints and does nothing more: its puts and non-fetching AMOs already
return without waiting for remote completion, which is what batching would buy.
A
.I config_mask
with unknown bits, or a NULL
.I config
with a nonzero mask, is reported as bad input.',
`shmem_ctx_session_config_t cfg = {.total_ops = 1000};
shmem_ctx_session_start(ctx, SHMEM_CTX_SESSION_BATCH, &cfg, SHMEM_CTX_SESSION_TOTAL_OPS);
for (int i = 0; i < 1000; i++)
    shmem_ctx_uint64_atomic_xor(ctx, &table[idx[i]], val[i], pe[i]);
shmem_ctx_session_stop(ctx);
shmem_ctx_quiet(ctx);',
`.BR shmem_ctx_create (3), shmem_quiet (3)', `')')

m4_define(`PAGE_shmem_signal_add', `MAN_PAGE(`shmem_signal_add',
`MD_DECL(`void', `signal_add', `uint64_t *sig_addr, uint64_t signal, int pe')MD_DECL(`void', `ctx_signal_add', `shmem_ctx_t ctx, uint64_t *sig_addr, uint64_t signal, int pe')MD_DECL(`void', `signal_set', `uint64_t *sig_addr, uint64_t signal, int pe')MD_DECL(`void', `ctx_signal_set', `shmem_ctx_t ctx, uint64_t *sig_addr, uint64_t signal, int pe')',
`update a signal word on a remote PE (OpenSHMEM 1.6)',
`shmem_signal_add adds
.I signal
to, and shmem_signal_set stores
.I signal
in, the symmetric signal word
.I sig_addr
on PE
.IR pe ,
atomically with respect to other signal operations and
.BR shmem_signal_fetch (3).
They are the signal half of
.BR shmem_put_signal (3)
without data; completion and ordering as for a non-fetching AMO.
On a context of a team,
.I pe
is a member number of that team.',
`None.', `', `static uint64_t sig;
shmem_signal_add(&sig, 1, 0);
if (shmem_my_pe() == 0)
    shmem_signal_wait_until(&sig, SHMEM_CMP_EQ, shmem_n_pes());',
`.BR shmem_put_signal (3), shmem_signal_fetch (3), shmem_wait_until (3)', `')')

m4_define(`PAGE_shmem_pe_quiet', `MAN_PAGE(`shmem_pe_quiet',
`MD_DECL(`void', `pe_quiet', `const int *target_pes, size_t npes')MD_DECL(`void', `ctx_pe_quiet', `shmem_ctx_t ctx, const int *target_pes, size_t npes')',
`complete the operations to some PEs (OpenSHMEM 1.6)',
`Completes the puts, AMOs, signals and non-blocking operations issued on the (default or
given) context to the
.I npes
PEs listed in
.IR target_pes .',
`None.',
`ofishmem completes every outstanding operation of the context, which is always allowed
(a quiet of more PEs than asked); the list is only checked for NULL with a nonzero
.IR npes .',
`int pes[2] = {1, 2};
shmem_pe_quiet(pes, 2);',
`.BR shmem_quiet (3)', `')')

m4_define(`PAGE_shmem_udcflush', `MAN_PAGE(`shmem_udcflush',
`MU_CACHE',
`cache management (deprecated)',
`Kept for programs written for machines whose data caches were not coherent with remote
updates: shmem_set_cache_inv and shmem_set_cache_line_inv turned automatic invalidation on
(for the whole cache or the line holding
.IR dest ),
shmem_clear_cache_inv and shmem_clear_cache_line_inv turned it off, shmem_udcflush and
shmem_udcflush_line made the whole cache or one line coherent.',
`None.',
`Deprecated since OpenSHMEM 1.3 and still required by 1.5 and 1.6.  The caches of every
machine ofishmem runs on are coherent, so these routines do nothing, as the specification
allows; they may be called at any time, also before
.BR shmem_init (3).',
`shmem_udcflush();',
`.BR shmem_quiet (3), shmem_wait_until (3)', `')')

m4_define(`PAGE_shmem_query_initialized', `MAN_PAGE(`shmem_query_initialized',
`MD_DECL(`int', `query_initialized', `int *initialized')',
`ask whether the library is initialized (OpenSHMEM 1.6)',
`Stores 1 in
.I *initialized
between
.BR shmem_init (3)
(or shmem_init_thread) and
.BR shmem_finalize (3),
0 before and after.  It may be called at any time, also before initialization.',
`0.', `', `int up;
shmem_query_initialized(&up);
if (!up)
    shmem_init();',
`.BR shmem_init (3)', `')')

m4_define(`PAGE_shmem_team_ptr', `MAN_PAGE(`shmem_team_ptr',
`MD_DECL(`void *', `team_ptr', `shmem_team_t team, const void *dest, int pe')',
`local address of a symmetric object on a team member (OpenSHMEM 1.6)',
`Like
.BR shmem_ptr (3)
with
.I pe
a member number of
.IR team :
returns an address through which the calling PE can load and store the copy of the
symmetric object
.I dest
on member
.IR pe ,
or NULL when that member is not reachable by load/store.',
`The address, or NULL (also for SHMEM_TEAM_INVALID, a
.I pe
outside the team, or an address that is not symmetric).',
`In ofishmem every PE of the same node is reachable (heap and static data), so on one
node the result is never NULL.',
`static int x;
int *p = shmem_team_ptr(SHMEM_TEAM_SHARED, &x, 0);',
`.BR shmem_ptr (3), shmem_team_split_strided (3)', `')')

m4_define(`PAGE_shmem_broadcast', `COLL_NAMES(`_broadcast$')')
m4_define(`PAGE_shmem_collect', `COLL_NAMES(`_f?collect$')')
m4_define(`PAGE_shmem_alltoall', `COLL_NAMES(`_alltoalls?$')')
m4_define(`PAGE_shmem_sum_reduce', `COLL_NAMES(`_reduce$\|_to_all$')')
m4_define(`COLL_MAN_PAGES', `shmem_broadcast shmem_collect shmem_alltoall shmem_sum_reduce')

# Typed non-blocking collectives (shmemx_TYPENAME_broadcast_nb, ...; issue 27): the same,
# from the families of mpp/shmemx_nbc.m4 (the table src/api/nbc_gen.c.m4 defines them
# from), for the hand-written pages of man/man3/nbc.mk.  NBX_NAMES(regexp) lists every
# name of NBX_ALL that matches; the untyped *mem names have pages of their own.
m4_define(`NBX_GEN')m4_include(`shmemx_nbc.m4')
m4_define(`NBX_DEF', `m4_ifelse(m4_regexp(`$2', NBX_RE), `-1', `', `shmemx_$2
')')m4_define(`NBX_GADD', `')
m4_define(`NBX_NAMES', `m4_define(`NBX_RE', `$1')NBX_ALL')
m4_define(`PAGE_shmemx_broadcast_nb', `NBX_NAMES(`_broadcast_nb$')')
m4_define(`PAGE_shmemx_collect_nb', `NBX_NAMES(`_f?collect_nb$')')
m4_define(`PAGE_shmemx_alltoall_nb', `NBX_NAMES(`_alltoalls?_nb$')')
m4_define(`PAGE_shmemx_sum_reduce_nb', `NBX_NAMES(`_reduce_nb$')')
m4_define(`PAGE_shmemx_sum_inscan_nb', `NBX_NAMES(`_sum_\(in\|ex\)scan_nb$')')

m4_define(`MAN_PAGES', `shmem_put shmem_get shmem_p shmem_g shmem_iput shmem_iget shmem_put_nbi shmem_get_nbi shmem_put_signal shmem_signal_fetch shmem_atomic_fetch_add shmem_atomic_compare_swap shmem_atomic_swap shmem_atomic_and shmem_fadd shmem_wait_until shmem_wait_until_all shmem_malloc shmem_init shmem_quiet')
m4_divert(0)m4_dnl
