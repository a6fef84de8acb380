m4_divert(-1)
# ofishmem: THE type table of the OpenSHMEM 1.5 C API (processed with m4 -P).
# Every typed prototype, definition, C11 generic, C++ overload, man page and typed
# test is generated from these lists (see mpp/shmem_api.m4).
#
# A table macro takes the name of a macro and calls it once per type with
#   $1 TYPENAME   (as in shmem_TYPENAME_put)
#   $2 C type
#   $3 kind: 1 signed integer, 0 unsigned integer (char counts as signed here:
#      only the reductions care, and they get the coll enum), 2 floating, 3 complex
#   $4 enum coll_type suffix (COLL_T_$4)
#   $5 g when the type takes part in the C11 generics / C++ overloads (types that
#      are typedefs of another listed type cannot: they would select twice)

# Standard RMA types (spec 1.5 table "Standard RMA Types and Names")
m4_define(`MT_RMA', `m4_dnl
$1(float, float, 2, FLOAT, g)m4_dnl
$1(double, double, 2, DOUBLE, g)m4_dnl
$1(longdouble, long double, 2, LONGDOUBLE, g)m4_dnl
$1(char, char, 1, CHAR, g)m4_dnl
$1(schar, signed char, 1, SCHAR, g)m4_dnl
$1(short, short, 1, SHORT, g)m4_dnl
$1(int, int, 1, INT, g)m4_dnl
$1(long, long, 1, LONG, g)m4_dnl
$1(longlong, long long, 1, LONGLONG, g)m4_dnl
$1(uchar, unsigned char, 0, UCHAR, g)m4_dnl
$1(ushort, unsigned short, 0, USHORT, g)m4_dnl
$1(uint, unsigned int, 0, UINT, g)m4_dnl
$1(ulong, unsigned long, 0, ULONG, g)m4_dnl
$1(ulonglong, unsigned long long, 0, ULONGLONG, g)m4_dnl
$1(int8, int8_t, 1, INT8, )m4_dnl
$1(int16, int16_t, 1, INT16, )m4_dnl
$1(int32, int32_t, 1, INT32, )m4_dnl
$1(int64, int64_t, 1, INT64, )m4_dnl
$1(uint8, uint8_t, 0, UINT8, )m4_dnl
$1(uint16, uint16_t, 0, UINT16, )m4_dnl
$1(uint32, uint32_t, 0, UINT32, )m4_dnl
$1(uint64, uint64_t, 0, UINT64, )m4_dnl
$1(size, size_t, 0, SIZE, )m4_dnl
$1(ptrdiff, ptrdiff_t, 1, PTRDIFF, )m4_dnl
')

# Sized RMA (shmem_putSIZE): $1(SUFFIX, element bytes)
m4_define(`MT_SIZED', `m4_dnl
$1(8, 1)$1(16, 2)$1(32, 4)$1(64, 8)$1(128, 16)')
m4_define(`MT_SIZED_MEM', `MT_SIZED(`$1')$1(mem, 1)')
# Deprecated active-set collectives (shmem_broadcast32): $1(SUFFIX, element bytes)
m4_define(`MT_ASET', `$1(32, 4)$1(64, 8)')

# Standard AMO types (fetch_add, add, fetch_inc, inc, compare_swap)
m4_define(`MT_AMO_STD', `m4_dnl
$1(int, int, 1, INT, g)m4_dnl
$1(long, long, 1, LONG, g)m4_dnl
$1(longlong, long long, 1, LONGLONG, g)m4_dnl
$1(uint, unsigned int, 0, UINT, g)m4_dnl
$1(ulong, unsigned long, 0, ULONG, g)m4_dnl
$1(ulonglong, unsigned long long, 0, ULONGLONG, g)m4_dnl
$1(int32, int32_t, 1, INT32, )m4_dnl
$1(int64, int64_t, 1, INT64, )m4_dnl
$1(uint32, uint32_t, 0, UINT32, )m4_dnl
$1(uint64, uint64_t, 0, UINT64, )m4_dnl
$1(size, size_t, 0, SIZE, )m4_dnl
$1(ptrdiff, ptrdiff_t, 1, PTRDIFF, )m4_dnl
')
# Extended AMO types (fetch, set, swap)
m4_define(`MT_AMO_EXT', `m4_dnl
$1(float, float, 2, FLOAT, g)m4_dnl
$1(double, double, 2, DOUBLE, g)m4_dnl
MT_AMO_STD(`$1')')
# Bitwise AMO types (and, or, xor); int32/int64 carry the generics for int/long
m4_define(`MT_AMO_BIT', `m4_dnl
$1(uint, unsigned int, 0, UINT, g)m4_dnl
$1(ulong, unsigned long, 0, ULONG, g)m4_dnl
$1(ulonglong, unsigned long long, 0, ULONGLONG, g)m4_dnl
$1(int32, int32_t, 1, INT32, g)m4_dnl
$1(int64, int64_t, 1, INT64, g)m4_dnl
$1(uint32, uint32_t, 0, UINT32, )m4_dnl
$1(uint64, uint64_t, 0, UINT64, )m4_dnl
')
# Deprecated AMOs: shmem_TYPE_{add,cswap,fadd,finc,inc} and {fetch,set,swap}
m4_define(`MT_AMO_DEPR', `m4_dnl
$1(int, int, 1, INT, g)m4_dnl
$1(long, long, 1, LONG, g)m4_dnl
$1(longlong, long long, 1, LONGLONG, g)m4_dnl
')
m4_define(`MT_AMO_DEPR_EXT', `m4_dnl
$1(float, float, 2, FLOAT, g)m4_dnl
$1(double, double, 2, DOUBLE, g)m4_dnl
MT_AMO_DEPR(`$1')')

# Point-to-point synchronization types (wait_until, test and their _all/_any/_some
# and _vector forms take short and unsigned short too: MT_SYNC_SHORT)
m4_define(`MT_SYNC', `m4_dnl
$1(int, int, 1, INT, g)m4_dnl
$1(long, long, 1, LONG, g)m4_dnl
$1(longlong, long long, 1, LONGLONG, g)m4_dnl
$1(uint, unsigned int, 0, UINT, g)m4_dnl
$1(ulong, unsigned long, 0, ULONG, g)m4_dnl
$1(ulonglong, unsigned long long, 0, ULONGLONG, g)m4_dnl
$1(int32, int32_t, 1, INT32, )m4_dnl
$1(int64, int64_t, 1, INT64, )m4_dnl
$1(uint32, uint32_t, 0, UINT32, )m4_dnl
$1(uint64, uint64_t, 0, UINT64, )m4_dnl
$1(size, size_t, 0, SIZE, )m4_dnl
$1(ptrdiff, ptrdiff_t, 1, PTRDIFF, )m4_dnl
')
# The spec's point-to-point table (p2psynctypes) includes short and unsigned short
m4_define(`MT_SYNC_SHORT', `m4_dnl
$1(short, short, 1, SHORT, g)m4_dnl
$1(ushort, unsigned short, 0, USHORT, g)m4_dnl
MT_SYNC(`$1')')
# Deprecated shmem_TYPE_wait
m4_define(`MT_SYNC_DEPR', `m4_dnl
$1(short, short, 1, SHORT, )m4_dnl
$1(int, int, 1, INT, )m4_dnl
$1(long, long, 1, LONG, )m4_dnl
$1(longlong, long long, 1, LONGLONG, )m4_dnl
')

# Reduction types
m4_define(`MT_RED_BIT', `m4_dnl
$1(uchar, unsigned char, 0, UCHAR, g)m4_dnl
$1(ushort, unsigned short, 0, USHORT, g)m4_dnl
$1(uint, unsigned int, 0, UINT, g)m4_dnl
$1(ulong, unsigned long, 0, ULONG, g)m4_dnl
$1(ulonglong, unsigned long long, 0, ULONGLONG, g)m4_dnl
$1(int8, int8_t, 1, INT8, g)m4_dnl
$1(int16, int16_t, 1, INT16, g)m4_dnl
$1(int32, int32_t, 1, INT32, g)m4_dnl
$1(int64, int64_t, 1, INT64, g)m4_dnl
$1(uint8, uint8_t, 0, UINT8, )m4_dnl
$1(uint16, uint16_t, 0, UINT16, )m4_dnl
$1(uint32, uint32_t, 0, UINT32, )m4_dnl
$1(uint64, uint64_t, 0, UINT64, )m4_dnl
$1(size, size_t, 0, SIZE, )m4_dnl
')
m4_define(`MT_RED_MINMAX', `m4_dnl
$1(char, char, 1, CHAR, g)m4_dnl
$1(schar, signed char, 1, SCHAR, g)m4_dnl
$1(short, short, 1, SHORT, g)m4_dnl
$1(int, int, 1, INT, g)m4_dnl
$1(long, long, 1, LONG, g)m4_dnl
$1(longlong, long long, 1, LONGLONG, g)m4_dnl
$1(ptrdiff, ptrdiff_t, 1, PTRDIFF, )m4_dnl
$1(uchar, unsigned char, 0, UCHAR, g)m4_dnl
$1(ushort, unsigned short, 0, USHORT, g)m4_dnl
$1(uint, unsigned int, 0, UINT, g)m4_dnl
$1(ulong, unsigned long, 0, ULONG, g)m4_dnl
$1(ulonglong, unsigned long long, 0, ULONGLONG, g)m4_dnl
$1(int8, int8_t, 1, INT8, )m4_dnl
$1(int16, int16_t, 1, INT16, )m4_dnl
$1(int32, int32_t, 1, INT32, )m4_dnl
$1(int64, int64_t, 1, INT64, )m4_dnl
$1(uint8, uint8_t, 0, UINT8, )m4_dnl
$1(uint16, uint16_t, 0, UINT16, )m4_dnl
$1(uint32, uint32_t, 0, UINT32, )m4_dnl
$1(uint64, uint64_t, 0, UINT64, )m4_dnl
$1(size, size_t, 0, SIZE, )m4_dnl
$1(float, float, 2, FLOAT, g)m4_dnl
$1(double, double, 2, DOUBLE, g)m4_dnl
$1(longdouble, long double, 2, LONGDOUBLE, g)m4_dnl
')
m4_define(`MT_RED_ARITH', `m4_dnl
MT_RED_MINMAX(`$1')m4_dnl
$1(complexf, float _Complex, 3, COMPLEXF, g)m4_dnl
$1(complexd, double _Complex, 3, COMPLEXD, g)m4_dnl
')
# Deprecated active-set reductions shmem_TYPE_OP_to_all
m4_define(`MT_TOALL_BIT', `m4_dnl
$1(short, short, 1, SHORT, )m4_dnl
$1(int, int, 1, INT, )m4_dnl
$1(long, long, 1, LONG, )m4_dnl
$1(longlong, long long, 1, LONGLONG, )m4_dnl
')
m4_define(`MT_TOALL_MINMAX', `m4_dnl
MT_TOALL_BIT(`$1')m4_dnl
$1(float, float, 2, FLOAT, )m4_dnl
$1(double, double, 2, DOUBLE, )m4_dnl
$1(longdouble, long double, 2, LONGDOUBLE, )m4_dnl
')
m4_define(`MT_TOALL_ARITH', `m4_dnl
MT_TOALL_MINMAX(`$1')m4_dnl
$1(complexf, float _Complex, 3, COMPLEXF, )m4_dnl
$1(complexd, double _Complex, 3, COMPLEXD, )m4_dnl
')
m4_divert(0)m4_dnl
