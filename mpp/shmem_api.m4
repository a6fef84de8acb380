m4_include(`shmem_types.m4')m4_divert(-1)
# ofishmem: every typed routine family of OpenSHMEM 1.5, written ONCE (m4 -P).
#
# A family calls MD_DEF (one routine) or MD_DEFC (the routine and its shmem_ctx_
# twin) with
#   $1 return type, $2 name without "shmem_", $3 C11 generic name (without "shmem_",
#   empty: none), $4 which argument the generic dispatches on (0 or 1), $5 g if the
#   type takes part in generics, $6 the C type, $7 parameters, $8 argument names,
#   $9 body (one check and one internal call; MD_CTX is the context, MD_NAME the
#   routine name).
# What MD_DEF emits depends on MODE:
#   proto  prototype (SHPRE() is "" for shmem.h, "p" for pshmem.h)
#   def    the definition pshmem_X + weak alias shmem_X (src/api/gen_*.c)
#   cxx    a C++ overload of the generic name
#   gen    collects the C11 _Generic associations (MG_EMIT_ALL writes them)
#   names  one routine name per line

m4_define(`MD_DEF', `m4_indir(`MD_DEF_'MODE, $@)')
m4_define(`MD_DEFC', `m4_define(`MD_CTX', `COMM_CTX_DEFAULT')MD_DEF(`$1', `$2', `$3', `$4', `$5', `$6', `$7', `$8', `$9', `')m4_define(`MD_CTX', `ofs_ctx(ctx)')MD_DEF(`$1', `ctx_$2', `$3', `$4', `$5', `$6', `shmem_ctx_t ctx, $7', `ctx, $8', `$9', `c')')
m4_define(`MD_CTX', `COMM_CTX_DEFAULT')

m4_define(`MD_DEF_proto', `$1 SHPRE()shmem_$2($7);
')
m4_define(`MD_DEF_names', `shmem_$2
MD_GENERIC(`$3', `$5', `shmem_$3
')')
m4_define(`MD_DEF_mannames', `MD_MANNAME(`shmem_$2')MD_GENERIC(`$3', `$5', `MD_MANNAME(`shmem_$3')')')
# the C11 generic name of a typed routine ($1 the name without shmem_, $2 `g' when it has
# one), once per page and mode: "man shmem_atomic_add" finds the family page
m4_define(`MD_GENERIC', `m4_ifelse(`$2', `g', `m4_ifelse(`$1', `', `', `m4_ifdef(`MD_GSEEN_'MODE`_$1', `', `m4_define(`MD_GSEEN_'MODE`_$1')$3')')')')
# a man page NAME entry; the page's own name (MAN_SELF) comes last, after the list
m4_define(`MD_MANNAME', `m4_ifelse(`$1', m4_ifdef(`MAN_SELF', `m4_defn(`MAN_SELF')'), `', `$1,
')')
m4_define(`MD_DEF_def', `m4_define(`MD_NAME', `shmem_$2')OFS_API $1 pshmem_$2($7)
{
    m4_ifelse(`$10', `c', `m4_ifelse(m4_index(`$7', `int pe'), `-1', `', `api_chk_ctx("shmem_$2", ofs_ctx(ctx)); /* before api_ctx_pe reads it */
    pe = api_ctx_pe("shmem_$2", ofs_ctx(ctx), pe); /* team-relative */
    ')')$9
}
OFS_WEAK_ALIAS(shmem_$2)
')
m4_define(`MD_DEF_cxx', `m4_ifelse(`$5', `g', `m4_ifelse(`$3', `', `', `$3$6', `wait_untillong', `', `static inline $1 shmem_$3($7) { return shmem_$2($8); }
')')')
m4_define(`MD_DEF_gen', `m4_ifelse(`$5', `g', `m4_ifelse(`$3', `', `', `MG_ADD(`$3', `$4', `$10', `$6', `shmem_$2')')')')

# hand-written routines: declared from here too so shmem.h and pshmem.h agree
m4_define(`MD_DECL', `MD_DECLR(`$1', `shmem_$2', `$3')')
m4_define(`MD_DECLR', `m4_ifelse(MODE, `proto', `$1 SHPRE()$2($3);
', MODE, `names', `$2
', MODE, `mannames', `MD_MANNAME(`$2')')')

# ---- C11 generics ----
m4_define(`MG_NAMES', `')
m4_define(`MG_ADD', `m4_ifdef(`MG_D_$1', `', `m4_define(`MG_D_$1', `$2')m4_define(`MG_NAMES', m4_defn(`MG_NAMES')`MG_EMIT(`$1')')')m4_define(`MG_L$3_$1', m4_ifdef(`MG_L$3_$1', `m4_defn(`MG_L$3_$1')')`, $4 *: $5, const $4 *: $5')')
m4_define(`MG_EMIT', `#define shmem_$1(...) _Generic(SHMEM_C11_ARG`'MG_D_$1`'(__VA_ARGS__)m4_ifdef(`MG_Lc_$1', `, shmem_ctx_t: _Generic(SHMEM_C11_ARG1(__VA_ARGS__)m4_defn(`MG_Lc_$1'), default: shmem_c11_nomatch)')m4_defn(`MG_L_$1'))(__VA_ARGS__)
')
m4_define(`MG_EMIT_ALL', `MG_NAMES')

# ---- RMA ----
m4_define(`MF_PUT_T', `MD_DEFC(`void', `$1_put', `put', 0, `$5', `$2',
`$2 *dest, const $2 *source, size_t nelems, int pe', `dest, source, nelems, pe',
`size_t off, len = api_bytes("MD_NAME", "nelems", nelems, sizeof($2));
    int seg = api_chk_put("MD_NAME", MD_CTX, dest, source, len, pe, &off);
    if (OFS_LIKELY(seg >= 0))
        comm_put_seg(MD_CTX, seg, off, source, len, pe);')')
m4_define(`MF_GET_T', `MD_DEFC(`void', `$1_get', `get', 0, `$5', `$2',
`$2 *dest, const $2 *source, size_t nelems, int pe', `dest, source, nelems, pe',
`size_t off, len = api_bytes("MD_NAME", "nelems", nelems, sizeof($2));
    int seg = api_chk_get("MD_NAME", MD_CTX, dest, source, len, pe, &off);
    if (OFS_LIKELY(seg >= 0))
        comm_get_seg(MD_CTX, dest, seg, off, len, pe);')')
m4_define(`MF_PUT_NBI_T', `MD_DEFC(`void', `$1_put_nbi', `put_nbi', 0, `$5', `$2',
`$2 *dest, const $2 *source, size_t nelems, int pe', `dest, source, nelems, pe',
`size_t off, len = api_bytes("MD_NAME", "nelems", nelems, sizeof($2));
    int seg = api_chk_put("MD_NAME", MD_CTX, dest, source, len, pe, &off);
    if (OFS_LIKELY(seg >= 0))
        comm_put_nbi_seg(MD_CTX, seg, off, source, len, pe);')')
m4_define(`MF_GET_NBI_T', `MD_DEFC(`void', `$1_get_nbi', `get_nbi', 0, `$5', `$2',
`$2 *dest, const $2 *source, size_t nelems, int pe', `dest, source, nelems, pe',
`size_t off, len = api_bytes("MD_NAME", "nelems", nelems, sizeof($2));
    int seg = api_chk_get("MD_NAME", MD_CTX, dest, source, len, pe, &off);
    if (OFS_LIKELY(seg >= 0))
        comm_get_nbi_seg(MD_CTX, dest, seg, off, len, pe);')')
m4_define(`MF_P_T', `MD_DEFC(`void', `$1_p', `p', 0, `$5', `$2',
`$2 *dest, $2 value, int pe', `dest, value, pe',
`size_t off;
    int seg = api_chk_put("MD_NAME", MD_CTX, dest, &value, sizeof($2), pe, &off);
    comm_put_seg(MD_CTX, seg, off, &value, sizeof($2), pe);')')
m4_define(`MF_G_T', `MD_DEFC(`$2', `$1_g', `g', 0, `$5', `$2',
`const $2 *source, int pe', `source, pe',
`$2 value = 0;
    size_t off;
    int seg = api_chk_get("MD_NAME", MD_CTX, &value, source, sizeof($2), pe, &off);
    comm_get_seg(MD_CTX, &value, seg, off, sizeof($2), pe);
    return value;')')
m4_define(`MF_IPUT_T', `MD_DEFC(`void', `$1_iput', `iput', 0, `$5', `$2',
`$2 *dest, const $2 *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe',
`dest, source, dst, sst, nelems, pe',
`api_chk_iput("MD_NAME", MD_CTX, dest, source, dst, sst, nelems, sizeof($2), pe);
    comm_iput(MD_CTX, dest, source, dst, sst, nelems, sizeof($2), pe);')')
m4_define(`MF_IGET_T', `MD_DEFC(`void', `$1_iget', `iget', 0, `$5', `$2',
`$2 *dest, const $2 *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe',
`dest, source, dst, sst, nelems, pe',
`api_chk_iget("MD_NAME", MD_CTX, dest, source, dst, sst, nelems, sizeof($2), pe);
    comm_iget(MD_CTX, dest, source, dst, sst, nelems, sizeof($2), pe);')')
# OpenSHMEM 1.6 blocked strided: nblocks blocks of bsize elements, block starts dst/sst apart
m4_define(`MF_IBPUT_T', `MD_DEFC(`void', `$1_ibput', `ibput', 0, `$5', `$2',
`$2 *dest, const $2 *source, ptrdiff_t dst, ptrdiff_t sst, size_t bsize, size_t nblocks, int pe',
`dest, source, dst, sst, bsize, nblocks, pe',
`api_chk_ibput("MD_NAME", MD_CTX, dest, source, dst, sst, bsize, nblocks, sizeof($2), pe);
    comm_ibput(MD_CTX, dest, source, dst, sst, bsize, nblocks, sizeof($2), pe);')')
m4_define(`MF_IBGET_T', `MD_DEFC(`void', `$1_ibget', `ibget', 0, `$5', `$2',
`$2 *dest, const $2 *source, ptrdiff_t dst, ptrdiff_t sst, size_t bsize, size_t nblocks, int pe',
`dest, source, dst, sst, bsize, nblocks, pe',
`api_chk_ibget("MD_NAME", MD_CTX, dest, source, dst, sst, bsize, nblocks, sizeof($2), pe);
    comm_ibget(MD_CTX, dest, source, dst, sst, bsize, nblocks, sizeof($2), pe);')')
m4_define(`MF_PUT_SIGNAL_T', `MD_DEFC(`void', `$1_put_signal$6', `put_signal$6', 0, `$5', `$2',
`$2 *dest, const $2 *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe',
`dest, source, nelems, sig_addr, signal, sig_op, pe',
`size_t len = api_bytes("MD_NAME", "nelems", nelems, sizeof($2));
    api_chk_put_signal("MD_NAME", MD_CTX, dest, source, len, sig_addr, sig_op, pe);
    api_put_signal(MD_CTX, dest, source, len, sig_addr, signal, sig_op, pe, $7);')')
m4_define(`MF_PUT_SIGNAL_TT', `MF_PUT_SIGNAL_T(`$1', `$2', `$3', `$4', `$5', `', 0)MF_PUT_SIGNAL_T(`$1', `$2', `$3', `$4', `$5', `_nbi', 1)')

# sized forms: $1 suffix, $2 element bytes
m4_define(`MF_PUT_S', `MD_DEFC(`void', `put$1', `', 0, `', `void',
`void *dest, const void *source, size_t nelems, int pe', `dest, source, nelems, pe',
`size_t off, len = api_bytes("MD_NAME", "nelems", nelems, $2);
    int seg = api_chk_put("MD_NAME", MD_CTX, dest, source, len, pe, &off);
    if (OFS_LIKELY(seg >= 0))
        comm_put_seg(MD_CTX, seg, off, source, len, pe);')')
m4_define(`MF_GET_S', `MD_DEFC(`void', `get$1', `', 0, `', `void',
`void *dest, const void *source, size_t nelems, int pe', `dest, source, nelems, pe',
`size_t off, len = api_bytes("MD_NAME", "nelems", nelems, $2);
    int seg = api_chk_get("MD_NAME", MD_CTX, dest, source, len, pe, &off);
    if (OFS_LIKELY(seg >= 0))
        comm_get_seg(MD_CTX, dest, seg, off, len, pe);')')
m4_define(`MF_PUT_NBI_S', `MD_DEFC(`void', `put$1_nbi', `', 0, `', `void',
`void *dest, const void *source, size_t nelems, int pe', `dest, source, nelems, pe',
`size_t off, len = api_bytes("MD_NAME", "nelems", nelems, $2);
    int seg = api_chk_put("MD_NAME", MD_CTX, dest, source, len, pe, &off);
    if (OFS_LIKELY(seg >= 0))
        comm_put_nbi_seg(MD_CTX, seg, off, source, len, pe);')')
m4_define(`MF_GET_NBI_S', `MD_DEFC(`void', `get$1_nbi', `', 0, `', `void',
`void *dest, const void *source, size_t nelems, int pe', `dest, source, nelems, pe',
`size_t off, len = api_bytes("MD_NAME", "nelems", nelems, $2);
    int seg = api_chk_get("MD_NAME", MD_CTX, dest, source, len, pe, &off);
    if (OFS_LIKELY(seg >= 0))
        comm_get_nbi_seg(MD_CTX, dest, seg, off, len, pe);')')
m4_define(`MF_IPUT_S', `MD_DEFC(`void', `iput$1', `', 0, `', `void',
`void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe',
`dest, source, dst, sst, nelems, pe',
`api_chk_iput("MD_NAME", MD_CTX, dest, source, dst, sst, nelems, $2, pe);
    comm_iput(MD_CTX, dest, source, dst, sst, nelems, $2, pe);')')
m4_define(`MF_IGET_S', `MD_DEFC(`void', `iget$1', `', 0, `', `void',
`void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe',
`dest, source, dst, sst, nelems, pe',
`api_chk_iget("MD_NAME", MD_CTX, dest, source, dst, sst, nelems, $2, pe);
    comm_iget(MD_CTX, dest, source, dst, sst, nelems, $2, pe);')')
m4_define(`MF_IBPUT_S', `MD_DEFC(`void', `ibput$1', `', 0, `', `void',
`void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst, size_t bsize, size_t nblocks, int pe',
`dest, source, dst, sst, bsize, nblocks, pe',
`api_chk_ibput("MD_NAME", MD_CTX, dest, source, dst, sst, bsize, nblocks, $2, pe);
    comm_ibput(MD_CTX, dest, source, dst, sst, bsize, nblocks, $2, pe);')')
m4_define(`MF_IBGET_S', `MD_DEFC(`void', `ibget$1', `', 0, `', `void',
`void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst, size_t bsize, size_t nblocks, int pe',
`dest, source, dst, sst, bsize, nblocks, pe',
`api_chk_ibget("MD_NAME", MD_CTX, dest, source, dst, sst, bsize, nblocks, $2, pe);
    comm_ibget(MD_CTX, dest, source, dst, sst, bsize, nblocks, $2, pe);')')
m4_define(`MF_PUT_SIGNAL_S1', `MD_DEFC(`void', `put$1_signal$3', `', 0, `', `void',
`void *dest, const void *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe',
`dest, source, nelems, sig_addr, signal, sig_op, pe',
`size_t len = api_bytes("MD_NAME", "nelems", nelems, $2);
    api_chk_put_signal("MD_NAME", MD_CTX, dest, source, len, sig_addr, sig_op, pe);
    api_put_signal(MD_CTX, dest, source, len, sig_addr, signal, sig_op, pe, $4);')')
m4_define(`MF_PUT_SIGNAL_S', `MF_PUT_SIGNAL_S1(`$1', `$2', `', 0)MF_PUT_SIGNAL_S1(`$1', `$2', `_nbi', 1)')

m4_define(`MF_RMA', `m4_dnl
MT_RMA(`MF_PUT_T')MT_RMA(`MF_GET_T')MT_RMA(`MF_P_T')MT_RMA(`MF_G_T')m4_dnl
MT_RMA(`MF_IPUT_T')MT_RMA(`MF_IGET_T')MT_RMA(`MF_PUT_NBI_T')MT_RMA(`MF_GET_NBI_T')m4_dnl
MT_SIZED_MEM(`MF_PUT_S')MT_SIZED_MEM(`MF_GET_S')MT_SIZED(`MF_IPUT_S')MT_SIZED(`MF_IGET_S')m4_dnl
MT_SIZED_MEM(`MF_PUT_NBI_S')MT_SIZED_MEM(`MF_GET_NBI_S')m4_dnl
MT_RMA(`MF_IBPUT_T')MT_RMA(`MF_IBGET_T')MT_SIZED(`MF_IBPUT_S')MT_SIZED(`MF_IBGET_S')m4_dnl
')
m4_define(`MF_SIGNAL', `m4_dnl
MT_RMA(`MF_PUT_SIGNAL_TT')MT_SIZED_MEM(`MF_PUT_SIGNAL_S')m4_dnl
')

# ---- AMO ----
# $7 generic/name suffix, $8 op, $9 operand expression, $10 cmp expression
m4_define(`MF_AMO_FETCH1', `MD_DEFC(`$2', `$1_atomic_$6', `atomic_$6', 0, `$5', `$2',
`$2 *dest$7, int pe', `dest$8, pe',
`$2 old;
    $9
    size_t off;
    int seg = api_chk_amo("MD_NAME", MD_CTX, dest, sizeof($2), pe, &off);
    comm_amo_seg(MD_CTX, $10, api_dt($3, sizeof($2)), seg, off, $11, $12, &old, pe, 0);
    return old;')')
m4_define(`MF_AMO_FETCH_NBI1', `MD_DEFC(`void', `$1_atomic_$6_nbi', `atomic_$6_nbi', 0, `$5', `$2',
`$2 *fetch, $2 *dest$7, int pe', `fetch, dest$8, pe',
`$9
    size_t off;
    int seg = api_chk_amo_nbi("MD_NAME", MD_CTX, fetch, dest, sizeof($2), pe, &off);
    comm_amo_seg(MD_CTX, $10, api_dt($3, sizeof($2)), seg, off, $11, $12, fetch, pe, 1);')')
m4_define(`MF_AMO_NOFETCH1', `MD_DEFC(`void', `$1_atomic_$6', `atomic_$6', 0, `$5', `$2',
`$2 *dest$7, int pe', `dest$8, pe',
`$9
    size_t off;
    int seg = api_chk_amo("MD_NAME", MD_CTX, dest, sizeof($2), pe, &off);
    comm_amo_seg(MD_CTX, $10, api_dt($3, sizeof($2)), seg, off, $11, NULL, NULL, pe, 0);')')

m4_define(`MF_AMO_FADD', `MF_AMO_FETCH1(`$1', `$2', `$3', `$4', `$5', `fetch_add', `, $2 value', `, value', `', `COMM_AMO_ADD', `&value', `NULL')MF_AMO_FETCH_NBI1(`$1', `$2', `$3', `$4', `$5', `fetch_add', `, $2 value', `, value', `', `COMM_AMO_ADD', `&value', `NULL')')
m4_define(`MF_AMO_FINC', `MF_AMO_FETCH1(`$1', `$2', `$3', `$4', `$5', `fetch_inc', `', `', `const $2 one = 1;', `COMM_AMO_ADD', `&one', `NULL')MF_AMO_FETCH_NBI1(`$1', `$2', `$3', `$4', `$5', `fetch_inc', `', `', `const $2 one = 1;', `COMM_AMO_ADD', `&one', `NULL')')
m4_define(`MF_AMO_CSWAP', `MF_AMO_FETCH1(`$1', `$2', `$3', `$4', `$5', `compare_swap', `, $2 cond, $2 value', `, cond, value', `', `COMM_AMO_CSWAP', `&value', `&cond')MF_AMO_FETCH_NBI1(`$1', `$2', `$3', `$4', `$5', `compare_swap', `, $2 cond, $2 value', `, cond, value', `', `COMM_AMO_CSWAP', `&value', `&cond')')
m4_define(`MF_AMO_SWAP', `MF_AMO_FETCH1(`$1', `$2', `$3', `$4', `$5', `swap', `, $2 value', `, value', `', `COMM_AMO_SET', `&value', `NULL')MF_AMO_FETCH_NBI1(`$1', `$2', `$3', `$4', `$5', `swap', `, $2 value', `, value', `', `COMM_AMO_SET', `&value', `NULL')')
m4_define(`MF_AMO_ADD', `MF_AMO_NOFETCH1(`$1', `$2', `$3', `$4', `$5', `add', `, $2 value', `, value', `', `COMM_AMO_ADD', `&value')')
m4_define(`MF_AMO_INC', `MF_AMO_NOFETCH1(`$1', `$2', `$3', `$4', `$5', `inc', `', `', `const $2 one = 1;', `COMM_AMO_ADD', `&one')')
m4_define(`MF_AMO_SET', `MF_AMO_NOFETCH1(`$1', `$2', `$3', `$4', `$5', `set', `, $2 value', `, value', `', `COMM_AMO_SET', `&value')')
# fetch reads through a const pointer
m4_define(`MF_AMO_FETCH', `MD_DEFC(`$2', `$1_atomic_fetch', `atomic_fetch', 0, `$5', `$2',
`const $2 *source, int pe', `source, pe',
`$2 old;
    size_t off;
    int seg = api_chk_amo("MD_NAME", MD_CTX, source, sizeof($2), pe, &off);
    comm_amo_seg(MD_CTX, COMM_AMO_FETCH, api_dt($3, sizeof($2)), seg, off, NULL, NULL, &old, pe, 0);
    return old;')m4_dnl
MD_DEFC(`void', `$1_atomic_fetch_nbi', `atomic_fetch_nbi', 0, `$5', `$2',
`$2 *fetch, const $2 *source, int pe', `fetch, source, pe',
`size_t off;
    int seg = api_chk_amo_nbi("MD_NAME", MD_CTX, fetch, source, sizeof($2), pe, &off);
    comm_amo_seg(MD_CTX, COMM_AMO_FETCH, api_dt($3, sizeof($2)), seg, off, NULL, NULL, fetch, pe, 1);')')
m4_define(`MF_AMO_BITOP', `MF_AMO_FETCH1(`$1', `$2', `$3', `$4', `$5', `fetch_$6', `, $2 value', `, value', `', `COMM_AMO_$7', `&value', `NULL')MF_AMO_FETCH_NBI1(`$1', `$2', `$3', `$4', `$5', `fetch_$6', `, $2 value', `, value', `', `COMM_AMO_$7', `&value', `NULL')MF_AMO_NOFETCH1(`$1', `$2', `$3', `$4', `$5', `$6', `, $2 value', `, value', `', `COMM_AMO_$7', `&value')')
m4_define(`MF_AMO_BIT', `MF_AMO_BITOP(`$1', `$2', `$3', `$4', `$5', `and', `AND')MF_AMO_BITOP(`$1', `$2', `$3', `$4', `$5', `or', `OR')MF_AMO_BITOP(`$1', `$2', `$3', `$4', `$5', `xor', `XOR')')

# deprecated: no context, old names
m4_define(`MF_DEPR1', `MD_DEF(`$6', `$1_$7', `$7', 0, `$5', `$2', `$8', `$9',
`api_depr_$10("MD_NAME", api_dt($3, sizeof($2)), $11);')')
m4_define(`MF_AMO_DEPR_T', `m4_dnl
MD_DEF(`$2', `$1_fadd', `fadd', 0, `$5', `$2', `$2 *dest, $2 value, int pe', `dest, value, pe',
`$2 old;
    size_t off;
    int seg = api_chk_amo("MD_NAME", COMM_CTX_DEFAULT, dest, sizeof($2), pe, &off);
    comm_amo_seg(COMM_CTX_DEFAULT, COMM_AMO_ADD, api_dt($3, sizeof($2)), seg, off, &value, NULL, &old, pe, 0);
    return old;')m4_dnl
MD_DEF(`$2', `$1_finc', `finc', 0, `$5', `$2', `$2 *dest, int pe', `dest, pe',
`$2 old;
    const $2 one = 1;
    size_t off;
    int seg = api_chk_amo("MD_NAME", COMM_CTX_DEFAULT, dest, sizeof($2), pe, &off);
    comm_amo_seg(COMM_CTX_DEFAULT, COMM_AMO_ADD, api_dt($3, sizeof($2)), seg, off, &one, NULL, &old, pe, 0);
    return old;')m4_dnl
MD_DEF(`void', `$1_add', `add', 0, `$5', `$2', `$2 *dest, $2 value, int pe', `dest, value, pe',
`size_t off;
    int seg = api_chk_amo("MD_NAME", COMM_CTX_DEFAULT, dest, sizeof($2), pe, &off);
    comm_amo_seg(COMM_CTX_DEFAULT, COMM_AMO_ADD, api_dt($3, sizeof($2)), seg, off, &value, NULL, NULL, pe, 0);')m4_dnl
MD_DEF(`void', `$1_inc', `inc', 0, `$5', `$2', `$2 *dest, int pe', `dest, pe',
`const $2 one = 1;
    size_t off;
    int seg = api_chk_amo("MD_NAME", COMM_CTX_DEFAULT, dest, sizeof($2), pe, &off);
    comm_amo_seg(COMM_CTX_DEFAULT, COMM_AMO_ADD, api_dt($3, sizeof($2)), seg, off, &one, NULL, NULL, pe, 0);')m4_dnl
MD_DEF(`$2', `$1_cswap', `cswap', 0, `$5', `$2', `$2 *dest, $2 cond, $2 value, int pe', `dest, cond, value, pe',
`$2 old;
    size_t off;
    int seg = api_chk_amo("MD_NAME", COMM_CTX_DEFAULT, dest, sizeof($2), pe, &off);
    comm_amo_seg(COMM_CTX_DEFAULT, COMM_AMO_CSWAP, api_dt($3, sizeof($2)), seg, off, &value, &cond, &old, pe, 0);
    return old;')m4_dnl
')
m4_define(`MF_AMO_DEPR_EXT_T', `m4_dnl
MD_DEF(`$2', `$1_swap', `swap', 0, `$5', `$2', `$2 *dest, $2 value, int pe', `dest, value, pe',
`$2 old;
    size_t off;
    int seg = api_chk_amo("MD_NAME", COMM_CTX_DEFAULT, dest, sizeof($2), pe, &off);
    comm_amo_seg(COMM_CTX_DEFAULT, COMM_AMO_SET, api_dt($3, sizeof($2)), seg, off, &value, NULL, &old, pe, 0);
    return old;')m4_dnl
MD_DEF(`$2', `$1_fetch', `fetch', 0, `$5', `$2', `const $2 *source, int pe', `source, pe',
`$2 old;
    size_t off;
    int seg = api_chk_amo("MD_NAME", COMM_CTX_DEFAULT, source, sizeof($2), pe, &off);
    comm_amo_seg(COMM_CTX_DEFAULT, COMM_AMO_FETCH, api_dt($3, sizeof($2)), seg, off, NULL, NULL, &old, pe, 0);
    return old;')m4_dnl
MD_DEF(`void', `$1_set', `set', 0, `$5', `$2', `$2 *dest, $2 value, int pe', `dest, value, pe',
`size_t off;
    int seg = api_chk_amo("MD_NAME", COMM_CTX_DEFAULT, dest, sizeof($2), pe, &off);
    comm_amo_seg(COMM_CTX_DEFAULT, COMM_AMO_SET, api_dt($3, sizeof($2)), seg, off, &value, NULL, NULL, pe, 0);')m4_dnl
')

m4_define(`MF_AMO', `m4_dnl
MT_AMO_STD(`MF_AMO_FADD')MT_AMO_STD(`MF_AMO_FINC')MT_AMO_STD(`MF_AMO_CSWAP')m4_dnl
MT_AMO_STD(`MF_AMO_ADD')MT_AMO_STD(`MF_AMO_INC')m4_dnl
MT_AMO_EXT(`MF_AMO_FETCH')MT_AMO_EXT(`MF_AMO_SET')MT_AMO_EXT(`MF_AMO_SWAP')m4_dnl
MT_AMO_BIT(`MF_AMO_BIT')m4_dnl
MT_AMO_DEPR(`MF_AMO_DEPR_T')MT_AMO_DEPR_EXT(`MF_AMO_DEPR_EXT_T')m4_dnl
')

# ---- point-to-point synchronization ----
m4_define(`MF_WAIT_T', `m4_dnl
MD_DEF(`void', `$1_wait_until', `wait_until', 0, `$5', `$2', `$2 *ivar, int cmp, $2 cmp_value', `ivar, cmp, cmp_value',
`api_wait_until("MD_NAME", ivar, cmp, &cmp_value, sizeof($2), $3);')m4_dnl
MD_DEF(`int', `$1_test', `test', 0, `$5', `$2', `$2 *ivar, int cmp, $2 cmp_value', `ivar, cmp, cmp_value',
`return api_test("MD_NAME", ivar, cmp, &cmp_value, sizeof($2), $3);')m4_dnl
')
# $6 wait_until|test, $7 return type, $8 return keyword
m4_define(`MF_MULTI1', `m4_dnl
MD_DEF(`$7', `$1_$6_all', `$6_all', 0, `$5', `$2',
`$2 *ivars, size_t nelems, const int *status, int cmp, $2 cmp_value', `ivars, nelems, status, cmp, cmp_value',
`$8api_$6_all("MD_NAME", ivars, nelems, status, cmp, &cmp_value, 0, sizeof($2), $3);')m4_dnl
MD_DEF(`size_t', `$1_$6_any', `$6_any', 0, `$5', `$2',
`$2 *ivars, size_t nelems, const int *status, int cmp, $2 cmp_value', `ivars, nelems, status, cmp, cmp_value',
`return api_$6_any("MD_NAME", ivars, nelems, status, cmp, &cmp_value, 0, sizeof($2), $3);')m4_dnl
MD_DEF(`size_t', `$1_$6_some', `$6_some', 0, `$5', `$2',
`$2 *ivars, size_t nelems, size_t *indices, const int *status, int cmp, $2 cmp_value', `ivars, nelems, indices, status, cmp, cmp_value',
`return api_$6_some("MD_NAME", ivars, nelems, indices, status, cmp, &cmp_value, 0, sizeof($2), $3);')m4_dnl
MD_DEF(`$7', `$1_$6_all_vector', `$6_all_vector', 0, `$5', `$2',
`$2 *ivars, size_t nelems, const int *status, int cmp, $2 *cmp_values', `ivars, nelems, status, cmp, cmp_values',
`$8api_$6_all("MD_NAME", ivars, nelems, status, cmp, cmp_values, 1, sizeof($2), $3);')m4_dnl
MD_DEF(`size_t', `$1_$6_any_vector', `$6_any_vector', 0, `$5', `$2',
`$2 *ivars, size_t nelems, const int *status, int cmp, $2 *cmp_values', `ivars, nelems, status, cmp, cmp_values',
`return api_$6_any("MD_NAME", ivars, nelems, status, cmp, cmp_values, 1, sizeof($2), $3);')m4_dnl
MD_DEF(`size_t', `$1_$6_some_vector', `$6_some_vector', 0, `$5', `$2',
`$2 *ivars, size_t nelems, size_t *indices, const int *status, int cmp, $2 *cmp_values', `ivars, nelems, indices, status, cmp, cmp_values',
`return api_$6_some("MD_NAME", ivars, nelems, indices, status, cmp, cmp_values, 1, sizeof($2), $3);')m4_dnl
')
m4_define(`MF_MULTI_T', `MF_MULTI1(`$1', `$2', `$3', `$4', `$5', `wait_until', `void', `')MF_MULTI1(`$1', `$2', `$3', `$4', `$5', `test', `int', `return ')')
m4_define(`MF_WAIT_DEPR_T', `MD_DEF(`void', `$1_wait', `', 0, `', `$2', `$2 *ivar, $2 cmp_value', `ivar, cmp_value',
`api_wait_until("MD_NAME", ivar, API_CMP_NE, &cmp_value, sizeof($2), $3);')')

m4_define(`MF_SYNC', `m4_dnl
MT_SYNC_SHORT(`MF_WAIT_T')MT_SYNC_SHORT(`MF_MULTI_T')MT_SYNC_DEPR(`MF_WAIT_DEPR_T')m4_dnl
')

# ---- typed collectives ----
m4_define(`MF_COLL_T', `m4_dnl
MD_DEF(`int', `$1_broadcast', `broadcast', 1, `$5', `$2',
`shmem_team_t team, $2 *dest, const $2 *source, size_t nelems, int PE_root', `team, dest, source, nelems, PE_root',
`api_chk_bcast("MD_NAME", team, dest, source, nelems, sizeof($2), PE_root);
    OFS_STATS_SCOPE(OFS_STATS_C_BROADCAST, nelems * sizeof($2), 1);
    return coll_broadcast(team, dest, source, nelems, sizeof($2), PE_root);')m4_dnl
MD_DEF(`int', `$1_collect', `collect', 1, `$5', `$2',
`shmem_team_t team, $2 *dest, const $2 *source, size_t nelems', `team, dest, source, nelems',
`api_chk_collect("MD_NAME", team, dest, source, nelems, sizeof($2));
    OFS_STATS_SCOPE(OFS_STATS_C_COLLECT, nelems * sizeof($2), 1);
    return coll_collect("MD_NAME", api_collect_total, team, dest, source, nelems, sizeof($2));')m4_dnl
MD_DEF(`int', `$1_fcollect', `fcollect', 1, `$5', `$2',
`shmem_team_t team, $2 *dest, const $2 *source, size_t nelems', `team, dest, source, nelems',
`api_chk_coll_n("MD_NAME", team, dest, source, nelems, sizeof($2), 0);
    OFS_STATS_SCOPE(OFS_STATS_C_FCOLLECT, nelems * sizeof($2), 1);
    return coll_fcollect(team, dest, source, nelems, sizeof($2));')m4_dnl
MD_DEF(`int', `$1_alltoall', `alltoall', 1, `$5', `$2',
`shmem_team_t team, $2 *dest, const $2 *source, size_t nelems', `team, dest, source, nelems',
`api_chk_coll_n("MD_NAME", team, dest, source, nelems, sizeof($2), 1);
    OFS_STATS_SCOPE(OFS_STATS_C_ALLTOALL, nelems * sizeof($2), 1);
    return coll_alltoall(team, dest, source, nelems, sizeof($2));')m4_dnl
MD_DEF(`int', `$1_alltoalls', `alltoalls', 1, `$5', `$2',
`shmem_team_t team, $2 *dest, const $2 *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems', `team, dest, source, dst, sst, nelems',
`api_chk_coll_s("MD_NAME", team, dest, source, dst, sst, nelems, sizeof($2));
    OFS_STATS_SCOPE(OFS_STATS_C_ALLTOALLS, nelems * sizeof($2), 1);
    return coll_alltoalls(team, dest, source, dst, sst, nelems, sizeof($2));')m4_dnl
')
# $6 op name, $7 COLL_OP_ suffix
m4_define(`MF_REDUCE1', `MD_DEF(`int', `$1_$6_reduce', `$6_reduce', 1, `$5', `$2',
`shmem_team_t team, $2 *dest, const $2 *source, size_t nreduce', `team, dest, source, nreduce',
`api_chk_reduce("MD_NAME", team, dest, source, nreduce, sizeof($2), "nreduce");
    OFS_STATS_SCOPE(OFS_STATS_C_REDUCE, nreduce * sizeof($2), 1);
    return coll_reduce(team, dest, source, nreduce, COLL_OP_$7, COLL_T_$4);')')
m4_define(`MF_TOALL1', `MD_DEF(`void', `$1_$6_to_all', `', 0, `', `$2',
`$2 *dest, const $2 *source, int nreduce, int PE_start, int logPE_stride, int PE_size, $2 *pWrk, long *pSync',
`dest, source, nreduce, PE_start, logPE_stride, PE_size, pWrk, pSync',
`api_chk_to_all("MD_NAME", dest, source, nreduce, sizeof($2), PE_start, logPE_stride, PE_size, pWrk, pSync);
    OFS_STATS_SCOPE(OFS_STATS_C_REDUCE, (size_t)nreduce * sizeof($2), 1);
    coll_reduce_aset(dest, source, nreduce, COLL_OP_$7, COLL_T_$4, PE_start, logPE_stride, PE_size, pWrk, pSync);')')
m4_define(`MF_RED_BIT', `MF_REDUCE1(`$1', `$2', `$3', `$4', `$5', `and', `AND')MF_REDUCE1(`$1', `$2', `$3', `$4', `$5', `or', `OR')MF_REDUCE1(`$1', `$2', `$3', `$4', `$5', `xor', `XOR')')
m4_define(`MF_RED_MINMAX', `MF_REDUCE1(`$1', `$2', `$3', `$4', `$5', `max', `MAX')MF_REDUCE1(`$1', `$2', `$3', `$4', `$5', `min', `MIN')')
m4_define(`MF_RED_ARITH', `MF_REDUCE1(`$1', `$2', `$3', `$4', `$5', `sum', `SUM')MF_REDUCE1(`$1', `$2', `$3', `$4', `$5', `prod', `PROD')')
# OpenSHMEM 1.6 prefix sums: $6 inscan|exscan, $7 1 when exclusive
m4_define(`MF_SCAN1', `MD_DEF(`int', `$1_sum_$6', `sum_$6', 1, `$5', `$2',
`shmem_team_t team, $2 *dest, const $2 *source, size_t nelems', `team, dest, source, nelems',
`api_chk_reduce("MD_NAME", team, dest, source, nelems, sizeof($2), "nelems");
    OFS_STATS_SCOPE(OFS_STATS_C_SCAN, nelems * sizeof($2), 1);
    return coll_scan(team, dest, source, nelems, COLL_T_$4, $7);')')
m4_define(`MF_SCAN', `MF_SCAN1(`$1', `$2', `$3', `$4', `$5', `inscan', 0)MF_SCAN1(`$1', `$2', `$3', `$4', `$5', `exscan', 1)')
m4_define(`MF_TOALL_BIT', `MF_TOALL1(`$1', `$2', `$3', `$4', `$5', `and', `AND')MF_TOALL1(`$1', `$2', `$3', `$4', `$5', `or', `OR')MF_TOALL1(`$1', `$2', `$3', `$4', `$5', `xor', `XOR')')
m4_define(`MF_TOALL_MINMAX', `MF_TOALL1(`$1', `$2', `$3', `$4', `$5', `max', `MAX')MF_TOALL1(`$1', `$2', `$3', `$4', `$5', `min', `MIN')')
m4_define(`MF_TOALL_ARITH', `MF_TOALL1(`$1', `$2', `$3', `$4', `$5', `sum', `SUM')MF_TOALL1(`$1', `$2', `$3', `$4', `$5', `prod', `PROD')')

# deprecated active-set forms: no team, the set as PE_start/logPE_stride/PE_size with a
# pSync work array; $1 suffix (32, 64), $2 element bytes
m4_define(`MF_COLL_ASET', `m4_dnl
MD_DEF(`void', `broadcast$1', `', 0, `', `void',
`void *dest, const void *source, size_t nelems, int PE_root, int PE_start, int logPE_stride, int PE_size, long *pSync',
`dest, source, nelems, PE_root, PE_start, logPE_stride, PE_size, pSync',
`api_chk_bcast_aset("MD_NAME", dest, source, nelems, $2, PE_root, PE_start, logPE_stride, PE_size, pSync);
    OFS_STATS_SCOPE(OFS_STATS_C_BROADCAST, nelems * $2, 1);
    coll_broadcast_aset(dest, source, nelems, $2, PE_root, PE_start, logPE_stride, PE_size, pSync);')m4_dnl
MD_DEF(`void', `collect$1', `', 0, `', `void',
`void *dest, const void *source, size_t nelems, int PE_start, int logPE_stride, int PE_size, long *pSync',
`dest, source, nelems, PE_start, logPE_stride, PE_size, pSync',
`api_chk_collect_aset("MD_NAME", dest, source, nelems, $2, PE_start, logPE_stride, PE_size, pSync);
    OFS_STATS_SCOPE(OFS_STATS_C_COLLECT, nelems * $2, 1);
    coll_collect_aset("MD_NAME", api_collect_total, dest, source, nelems, $2, PE_start, logPE_stride, PE_size, pSync);')m4_dnl
MD_DEF(`void', `fcollect$1', `', 0, `', `void',
`void *dest, const void *source, size_t nelems, int PE_start, int logPE_stride, int PE_size, long *pSync',
`dest, source, nelems, PE_start, logPE_stride, PE_size, pSync',
`api_chk_fcollect_aset("MD_NAME", dest, source, nelems, $2, PE_start, logPE_stride, PE_size, pSync);
    OFS_STATS_SCOPE(OFS_STATS_C_FCOLLECT, nelems * $2, 1);
    coll_fcollect_aset(dest, source, nelems, $2, PE_start, logPE_stride, PE_size, pSync);')m4_dnl
MD_DEF(`void', `alltoall$1', `', 0, `', `void',
`void *dest, const void *source, size_t nelems, int PE_start, int logPE_stride, int PE_size, long *pSync',
`dest, source, nelems, PE_start, logPE_stride, PE_size, pSync',
`api_chk_alltoall_aset("MD_NAME", dest, source, nelems, $2, PE_start, logPE_stride, PE_size, pSync);
    OFS_STATS_SCOPE(OFS_STATS_C_ALLTOALL, nelems * $2, 1);
    coll_alltoall_aset(dest, source, nelems, $2, PE_start, logPE_stride, PE_size, pSync);')m4_dnl
MD_DEF(`void', `alltoalls$1', `', 0, `', `void',
`void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int PE_start, int logPE_stride, int PE_size, long *pSync',
`dest, source, dst, sst, nelems, PE_start, logPE_stride, PE_size, pSync',
`api_chk_alltoalls_aset("MD_NAME", dest, source, dst, sst, nelems, $2, PE_start, logPE_stride, PE_size, pSync);
    OFS_STATS_SCOPE(OFS_STATS_C_ALLTOALLS, nelems * $2, 1);
    coll_alltoalls_aset(dest, source, dst, sst, nelems, $2, PE_start, logPE_stride, PE_size, pSync);')m4_dnl
')

m4_define(`MF_COLL', `m4_dnl
MT_RMA(`MF_COLL_T')m4_dnl
MT_RED_BIT(`MF_RED_BIT')MT_RED_MINMAX(`MF_RED_MINMAX')MT_RED_ARITH(`MF_RED_ARITH')m4_dnl
MT_RED_ARITH(`MF_SCAN')m4_dnl
MT_TOALL_BIT(`MF_TOALL_BIT')MT_TOALL_MINMAX(`MF_TOALL_MINMAX')MT_TOALL_ARITH(`MF_TOALL_ARITH')m4_dnl
MT_ASET(`MF_COLL_ASET')m4_dnl
')

m4_define(`MF_ALL', `MF_RMA`'MF_SIGNAL`'MF_AMO`'MF_SYNC`'MF_COLL')
m4_divert(0)m4_dnl
