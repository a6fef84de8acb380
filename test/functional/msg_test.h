/* Helpers of the message tests (msg_basic.c, msg_edge.c): the default sizes, sizes read
 * from the environment, and a byte pattern that names its source, tag and offset. */
#ifndef OFS_MSG_TEST_H
#define OFS_MSG_TEST_H
#include <stdint.h>
#include <stdlib.h>

static size_t eager = 32768, stage = 1 << 20; /* the defaults at 2-8 PEs */

static size_t env_size(const char *name, size_t dflt)
{
    const char *v = getenv(name);
    char *end;
    size_t n;

    if (!v || !*v)
        return dflt;
    n = strtoull(v, &end, 10);
    if (*end == 'K' || *end == 'k')
        n <<= 10;
    else if (*end == 'M' || *end == 'm')
        n <<= 20;
    return n;
}

static unsigned char pat(int src, int tag, size_t i)
{
    return (unsigned char)(src * 31 + tag * 7 + i * 13 + (i >> 8));
}

static void fill(unsigned char *b, size_t n, int src, int tag)
{
    for (size_t i = 0; i < n; i++)
        b[i] = pat(src, tag, i);
}

static int good(const unsigned char *b, size_t n, int src, int tag)
{
    for (size_t i = 0; i < n; i++)
        if (b[i] != pat(src, tag, i))
            return 0;
    return 1;
}

#endif
