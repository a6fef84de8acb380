/*
 * Fault injection for test/load/startup-loop.sh -F: an LD_PRELOAD library that makes
 * some send()/sendmsg() calls on nonblocking TCP sockets send only part of their bytes
 * or nothing (EAGAIN), as a full socket buffer does on a loaded machine.  Providers
 * then keep the rest in their own queues and send it at a later progress call, which
 * is what start-up and finalize must cope with.  SEND_EAGAIN_PCT (default 20): the
 * percentage of such calls cut short.  The first SEND_EAGAIN_SKIP (default 4) sends
 * on each socket go through whole: libfabric 1.17's tcp provider sends its connection
 * messages in one call and takes a short one for a failed connection (a fresh
 * socket's buffer is empty, so the kernel never cuts them).  sendmsg() is only
 * refused, never cut: 1.17's tcp provider then reported truncated messages, which
 * the kernel does not cause on a loopback socket with room for the whole message.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

static int pct = -1, skip = -1;
static unsigned char sends[65536]; /* per descriptor, up to skip */

static int cut(int fd)
{
    static __thread unsigned seed;
    struct sockaddr_storage ss;
    socklen_t len = sizeof(ss);
    int type;
    socklen_t tl = sizeof(type);

    if (pct < 0) {
        const char *e = getenv("SEND_EAGAIN_PCT");
        pct = e ? atoi(e) : 20;
        e = getenv("SEND_EAGAIN_SKIP");
        skip = e ? atoi(e) : 4;
    }
    if (fd >= 0 && fd < (int)sizeof(sends) && sends[fd] < skip) {
        sends[fd]++;
        return 0;
    }
    if (!seed)
        seed = (unsigned)getpid() ^ (unsigned)time(NULL) ^ (unsigned)(size_t)&seed;
    if (pct <= 0 || (int)(rand_r(&seed) % 100) >= pct)
        return 0;
    if (!(fcntl(fd, F_GETFL) & O_NONBLOCK))
        return 0;
    if (getsockopt(fd, SOL_SOCKET, SO_TYPE, &type, &tl) != 0 || type != SOCK_STREAM)
        return 0;
    if (getsockname(fd, (struct sockaddr *)&ss, &len) != 0 ||
        (ss.ss_family != AF_INET && ss.ss_family != AF_INET6))
        return 0;
    return 1 + (int)(rand_r(&seed) % 2); /* 1: nothing, 2: part */
}

ssize_t send(int fd, const void *buf, size_t n, int flags)
{
    static ssize_t (*real)(int, const void *, size_t, int);
    int c;

    if (!real)
        real = (ssize_t(*)(int, const void *, size_t, int))dlsym(RTLD_NEXT, "send");
    if (n > 0 && (c = cut(fd))) {
        if (c == 1 || n == 1) {
            errno = EAGAIN;
            return -1;
        }
        n /= 2;
    }
    return real(fd, buf, n, flags);
}

ssize_t sendmsg(int fd, const struct msghdr *m, int flags)
{
    static ssize_t (*real)(int, const struct msghdr *, int);
    int c;

    if (!real)
        real = (ssize_t(*)(int, const struct msghdr *, int))dlsym(RTLD_NEXT, "sendmsg");
    if (m->msg_iovlen > 0 && (c = cut(fd))) {
        (void)c;
        errno = EAGAIN;
        return -1;
    }
    return real(fd, m, flags);
}
