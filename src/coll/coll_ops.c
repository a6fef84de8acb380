/*
 * Reduction operators: one loop per (type, op), dispatched by a table built from
 * the spec's reduction type lists.  Bitwise ops exist for integer types only and
 * max/min for real types only; sum and prod for all (complex included).
 */
#include "coll_internal.h"

#include <complex.h>
#include <stddef.h>

#define OP_AND(a, b) ((a) & (b))
#define OP_OR(a, b) ((a) | (b))
#define OP_XOR(a, b) ((a) ^ (b))
#define OP_MAX(a, b) ((a) > (b) ? (a) : (b))
#define OP_MIN(a, b) ((a) < (b) ? (a) : (b))
#define OP_SUM(a, b) ((a) + (b))
#define OP_PROD(a, b) ((a) * (b))

#define DEF_LOOP(T, name, OPM)                                  \
    static void loop_##name(void *d_, const void *s_, size_t n) \
    {                                                           \
        T *d = d_;                                              \
        const T *s = s_;                                        \
        for (size_t i = 0; i < n; i++)                          \
            d[i] = OPM(d[i], s[i]);                             \
    }

#define DEF_INT(T, tn)            \
    DEF_LOOP(T, tn##_and, OP_AND) \
    DEF_LOOP(T, tn##_or, OP_OR)   \
    DEF_LOOP(T, tn##_xor, OP_XOR) \
    DEF_LOOP(T, tn##_max, OP_MAX) \
    DEF_LOOP(T, tn##_min, OP_MIN) \
    DEF_LOOP(T, tn##_sum, OP_SUM) \
    DEF_LOOP(T, tn##_prod, OP_PROD)
#define DEF_REAL(T, tn)           \
    DEF_LOOP(T, tn##_max, OP_MAX) \
    DEF_LOOP(T, tn##_min, OP_MIN) \
    DEF_LOOP(T, tn##_sum, OP_SUM) \
    DEF_LOOP(T, tn##_prod, OP_PROD)
#define DEF_CPLX(T, tn)           \
    DEF_LOOP(T, tn##_sum, OP_SUM) \
    DEF_LOOP(T, tn##_prod, OP_PROD)

DEF_INT(char, char)
DEF_INT(signed char, schar)
DEF_INT(short, short)
DEF_INT(int, int)
DEF_INT(long, long)
DEF_INT(long long, llong)
DEF_INT(ptrdiff_t, ptrdiff)
DEF_INT(unsigned char, uchar)
DEF_INT(unsigned short, ushort)
DEF_INT(unsigned int, uint)
DEF_INT(unsigned long, ulong)
DEF_INT(unsigned long long, ullong)
DEF_INT(int8_t, i8)
DEF_INT(int16_t, i16)
DEF_INT(int32_t, i32)
DEF_INT(int64_t, i64)
DEF_INT(uint8_t, u8)
DEF_INT(uint16_t, u16)
DEF_INT(uint32_t, u32)
DEF_INT(uint64_t, u64)
DEF_INT(size_t, size)
DEF_REAL(float, float)
DEF_REAL(double, double)
DEF_REAL(long double, ldouble)
DEF_CPLX(float _Complex, cf)
DEF_CPLX(double _Complex, cd)

typedef void (*coll_loop_fn)(void *, const void *, size_t);

#define ROW_INT(tn)                                                                         \
    {                                                                                       \
        loop_##tn##_and, loop_##tn##_or, loop_##tn##_xor, loop_##tn##_max, loop_##tn##_min, \
            loop_##tn##_sum, loop_##tn##_prod                                               \
    }
#define ROW_REAL(tn)                                                                          \
    {                                                                                         \
        NULL, NULL, NULL, loop_##tn##_max, loop_##tn##_min, loop_##tn##_sum, loop_##tn##_prod \
    }
#define ROW_CPLX(tn)                                                    \
    {                                                                   \
        NULL, NULL, NULL, NULL, NULL, loop_##tn##_sum, loop_##tn##_prod \
    }

static const coll_loop_fn coll_loops[COLL_T_COUNT][COLL_OP_COUNT] = {
    [COLL_T_CHAR] = ROW_INT(char),       [COLL_T_SCHAR] = ROW_INT(schar),
    [COLL_T_SHORT] = ROW_INT(short),     [COLL_T_INT] = ROW_INT(int),
    [COLL_T_LONG] = ROW_INT(long),       [COLL_T_LONGLONG] = ROW_INT(llong),
    [COLL_T_PTRDIFF] = ROW_INT(ptrdiff), [COLL_T_UCHAR] = ROW_INT(uchar),
    [COLL_T_USHORT] = ROW_INT(ushort),   [COLL_T_UINT] = ROW_INT(uint),
    [COLL_T_ULONG] = ROW_INT(ulong),     [COLL_T_ULONGLONG] = ROW_INT(ullong),
    [COLL_T_INT8] = ROW_INT(i8),         [COLL_T_INT16] = ROW_INT(i16),
    [COLL_T_INT32] = ROW_INT(i32),       [COLL_T_INT64] = ROW_INT(i64),
    [COLL_T_UINT8] = ROW_INT(u8),        [COLL_T_UINT16] = ROW_INT(u16),
    [COLL_T_UINT32] = ROW_INT(u32),      [COLL_T_UINT64] = ROW_INT(u64),
    [COLL_T_SIZE] = ROW_INT(size),       [COLL_T_FLOAT] = ROW_REAL(float),
    [COLL_T_DOUBLE] = ROW_REAL(double),  [COLL_T_LONGDOUBLE] = ROW_REAL(ldouble),
    [COLL_T_COMPLEXF] = ROW_CPLX(cf),    [COLL_T_COMPLEXD] = ROW_CPLX(cd),
};

static const size_t coll_sizes[COLL_T_COUNT] = {
    [COLL_T_CHAR] = sizeof(char),
    [COLL_T_SCHAR] = sizeof(signed char),
    [COLL_T_SHORT] = sizeof(short),
    [COLL_T_INT] = sizeof(int),
    [COLL_T_LONG] = sizeof(long),
    [COLL_T_LONGLONG] = sizeof(long long),
    [COLL_T_PTRDIFF] = sizeof(ptrdiff_t),
    [COLL_T_UCHAR] = 1,
    [COLL_T_USHORT] = sizeof(unsigned short),
    [COLL_T_UINT] = sizeof(unsigned),
    [COLL_T_ULONG] = sizeof(unsigned long),
    [COLL_T_ULONGLONG] = sizeof(unsigned long long),
    [COLL_T_INT8] = 1,
    [COLL_T_INT16] = 2,
    [COLL_T_INT32] = 4,
    [COLL_T_INT64] = 8,
    [COLL_T_UINT8] = 1,
    [COLL_T_UINT16] = 2,
    [COLL_T_UINT32] = 4,
    [COLL_T_UINT64] = 8,
    [COLL_T_SIZE] = sizeof(size_t),
    [COLL_T_FLOAT] = sizeof(float),
    [COLL_T_DOUBLE] = sizeof(double),
    [COLL_T_LONGDOUBLE] = sizeof(long double),
    [COLL_T_COMPLEXF] = sizeof(float _Complex),
    [COLL_T_COMPLEXD] = sizeof(double _Complex),
};

size_t coll_type_size(enum coll_type t)
{
    return (unsigned)t < COLL_T_COUNT ? coll_sizes[t] : 0;
}

int coll_op_valid(enum coll_op op, enum coll_type type)
{
    return (unsigned)op < COLL_OP_COUNT && (unsigned)type < COLL_T_COUNT &&
           coll_loops[type][op] != NULL;
}

void coll_op_apply(enum coll_op op, enum coll_type type, void *dst, const void *src, size_t n)
{
    coll_loops[type][op](dst, src, n);
}
