/* Unit test: the names of shm provider regions (ofs_region_name) and the directory
 * sweep (ofs_sweep, also run from a signal handler) over more entries than one
 * getdents64 read returns; the sweep removes only regular files of our own uid: never
 * a link, a directory, or (run as root) another user's file of a matching name. */
#define _GNU_SOURCE
#include "ofs.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "unit_check.h"

static int region(const char *name, unsigned long pid, unsigned long long ns)
{
    unsigned long p = 0;
    unsigned long long n = 0;

    return ofs_region_name(name, &p, &n) && p == pid && n == ns;
}

static int not_region(const char *name)
{
    unsigned long p;
    unsigned long long n;

    return !ofs_region_name(name, &p, &n);
}

/* every third "f<i>-<long tail>" */
static int pick_third(const char *name, const void *arg)
{
    (void)arg;
    return name[0] == 'f' && atoi(name + 1) % 3 == 0;
}

static int pick_all_g(const char *name, const void *arg)
{
    (void)arg;
    return name[0] == 'g';
}

static int exists_nofollow(const char *path)
{
    struct stat st;
    return lstat(path, &st) == 0;
}

/* Entries named like ours that are not ours to remove */
static void check_owner(const char *dir)
{
    char own[512], other[512], link[512], sub[512], target[512];

    snprintf(own, sizeof(own), "%s/g-own", dir);
    snprintf(other, sizeof(other), "%s/g-other", dir);
    snprintf(link, sizeof(link), "%s/g-link", dir);
    snprintf(sub, sizeof(sub), "%s/g-dir", dir);
    snprintf(target, sizeof(target), "%s/target", dir);
    int fd = open(own, O_CREAT | O_WRONLY, 0600);
    CHECK(fd >= 0);
    if (fd >= 0)
        close(fd);
    fd = open(target, O_CREAT | O_WRONLY, 0600);
    CHECK(fd >= 0);
    if (fd >= 0)
        close(fd);
    CHECK(symlink(target, link) == 0);
    CHECK(mkdir(sub, 0700) == 0);
    int chowned = 0;
    if (geteuid() == 0) {
        fd = open(other, O_CREAT | O_WRONLY, 0600);
        CHECK(fd >= 0);
        if (fd >= 0)
            close(fd);
        chowned = chown(other, 65534, 65534) == 0; /* nobody */
        CHECK(chowned);
    } else {
        printf("test_stale: not root, another user's file not tried\n");
    }
    CHECK(ofs_sweep(dir, pick_all_g, NULL) == 1);
    CHECK(!exists_nofollow(own));
    CHECK(exists_nofollow(link));   /* the link itself stays */
    CHECK(exists_nofollow(target)); /* and what it names */
    CHECK(exists_nofollow(sub));
    if (chowned)
        CHECK(exists_nofollow(other));
    unlink(link);
    unlink(target);
    unlink(other);
    rmdir(sub);
}

static int count_entries(const char *dir)
{
    int n = 0;
    DIR *d = opendir(dir);
    struct dirent *e;

    while (d && (e = readdir(d)) != NULL)
        if (e->d_name[0] == 'f')
            n++;
    if (d)
        closedir(d);
    return n;
}

int main(void)
{
    enum { NFILES = 600 };
    char dir[] = "/dev/shm/ofs-unit-stale-XXXXXX", path[512]; /* tmpfs, as in use */

    CHECK(region("123_ofs4026531836:0:0", 123, 4026531836ULL));
    CHECK(region("123_ofs4026531836_c1:0:1", 123, 4026531836ULL));
    CHECK(region("7_ofs1_c12:3:4", 7, 1));
    CHECK(not_region("123_ofs4026531836"));  /* no provider suffix */
    CHECK(not_region("123_ofs:0:0"));        /* no namespace */
    CHECK(not_region("_ofs4026531836:0:0")); /* no pid */
    CHECK(not_region("123x_ofs1:0:0"));
    CHECK(not_region("123_ofx1:0:0"));
    CHECK(not_region("123_ofs1x:0:0"));
    CHECK(not_region("ofishmem-job-0-h-0123456789abcdef-123-4026531836"));
    CHECK(not_region(""));

    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 1;
    }
    for (int i = 0; i < NFILES; i++) {
        snprintf(path, sizeof(path), "%s/f%d-%0100d", dir, i, 0);
        int fd = open(path, O_CREAT | O_WRONLY, 0600);
        CHECK(fd >= 0);
        if (fd >= 0)
            close(fd);
    }
    CHECK(ofs_sweep(dir, pick_third, NULL) == NFILES / 3);
    CHECK(count_entries(dir) == NFILES - NFILES / 3);
    for (int i = 0; i < NFILES; i++) {
        snprintf(path, sizeof(path), "%s/f%d-%0100d", dir, i, 0);
        CHECK((access(path, F_OK) == 0) == (i % 3 != 0));
        unlink(path);
    }
    CHECK(ofs_sweep(dir, pick_third, NULL) == 0);
    CHECK(ofs_sweep("/nonexistent-ofs-dir", pick_third, NULL) == 0);
    check_owner(dir);
    rmdir(dir);

    if (failures)
        fprintf(stderr, "test_stale: %d failures\n", failures);
    else
        printf("test_stale: ok\n");
    return failures != 0;
}
