/* Unit test: the parameter parser (sizes with suffixes, booleans, garbage). */
#include "ofs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "unit_check.h"

static long size_of(const char *s, ofs_status_t *st)
{
    long v = -42;
    *st = ofs_env_parse_size(s, &v);
    return v;
}

int main(void)
{
    ofs_status_t st;
    struct ofs_params p;
    char err[512];
    int b;

    CHECK(size_of("1G", &st) == 1L << 30 && st == OFS_OK);
    CHECK(size_of("4096K", &st) == 4096L * 1024 && st == OFS_OK);
    CHECK(size_of("512m", &st) == 512L << 20 && st == OFS_OK);
    CHECK(size_of("2T", &st) == 2L << 40 && st == OFS_OK);
    CHECK(size_of("17", &st) == 17 && st == OFS_OK);
    CHECK(size_of("1.5K", &st) == 1536 && st == OFS_OK);
    CHECK(size_of("8KB", &st) == 8192 && st == OFS_OK);
    CHECK(size_of(" 64 ", &st) == 64 && st == OFS_OK);
    CHECK(size_of("-1", &st) == -1 && st == OFS_OK);
    size_of("garbage", &st);
    CHECK(st == OFS_ERR_INVAL);
    size_of("12Q", &st);
    CHECK(st == OFS_ERR_INVAL);
    size_of("", &st);
    CHECK(st == OFS_ERR_INVAL);
    size_of("-5M", &st);
    CHECK(st == OFS_ERR_INVAL);
    size_of("0.3", &st);
    CHECK(st == OFS_ERR_INVAL);

    CHECK(ofs_env_parse_bool("yes", &b) == OFS_OK && b == 1);
    CHECK(ofs_env_parse_bool("Off", &b) == OFS_OK && b == 0);
    CHECK(ofs_env_parse_bool("maybe", &b) == OFS_ERR_INVAL);

    /* defaults */
    unsetenv("SHMEM_SYMMETRIC_SIZE");
    unsetenv("SMA_SYMMETRIC_SIZE");
    CHECK(ofs_env_parse(&p, err, sizeof(err)) == OFS_OK);
    CHECK(p.SYMMETRIC_SIZE == 512L << 20);
    CHECK(strcmp(p.LOCAL_TRANSPORT, "shm") == 0);

    setenv("SHMEM_SYMMETRIC_SIZE", "4096K", 1);
    CHECK(ofs_env_parse(&p, err, sizeof(err)) == OFS_OK && p.SYMMETRIC_SIZE == 4096L * 1024);
    setenv("SHMEM_SYMMETRIC_SIZE", "garbage", 1);
    CHECK(ofs_env_parse(&p, err, sizeof(err)) == OFS_ERR_INVAL);
    CHECK(strstr(err, "SHMEM_SYMMETRIC_SIZE") != NULL);
    unsetenv("SHMEM_SYMMETRIC_SIZE");
    setenv("SMA_SYMMETRIC_SIZE", "1M", 1);
    CHECK(ofs_env_parse(&p, err, sizeof(err)) == OFS_OK && p.SYMMETRIC_SIZE == 1L << 20);
    unsetenv("SMA_SYMMETRIC_SIZE");
    setenv("SHMEM_DEBUG", "sometimes", 1);
    CHECK(ofs_env_parse(&p, err, sizeof(err)) == OFS_ERR_INVAL && strstr(err, "SHMEM_DEBUG"));
    unsetenv("SHMEM_DEBUG");

    if (failures)
        fprintf(stderr, "test_env: %d failures\n", failures);
    else
        printf("test_env: ok\n");
    return failures != 0;
}
