/*
 * Bad input to the message routines: each mode must end the job with one line naming
 * the routine (test/abi/check_bad_input.sh checks it).  usage: msg_bad MODE
 * (finrecv, finprobe, finany and finanyprobe at 2 PEs or more, the others at 1)
 */
#include <shmemx.h>
#include <stdint.h>
#include <string.h>

#include "tests.h"

int main(int argc, char **argv)
{
    const char *m = argc > 1 ? argv[1] : "";
    char buf[64];
    shmemx_msg_h h;
    shmemx_status_t st;
    int flag;

    shmem_init();
    /* what is fine: NULL with length 0, a status to ignore, the null handle */
    shmemx_isend(shmem_my_pe(), 3, NULL, 0, &h);
    shmemx_recv(shmem_my_pe(), 3, NULL, 0, SHMEMX_STATUS_IGNORE);
    shmemx_msg_wait(&h, NULL);
    shmemx_msg_wait(&(shmemx_msg_h){ SHMEMX_MSG_H_NULL }, &st);
    if (!strcmp(m, "pe"))
        shmemx_send(shmem_n_pes(), 0, buf, 8);
    else if (!strcmp(m, "src"))
        shmemx_recv(-7, 0, buf, 8, &st);
    else if (!strcmp(m, "tag"))
        shmemx_isend(0, -3, buf, 8, &h);
    else if (!strcmp(m, "null"))
        shmemx_send(0, 1, NULL, 8);
    else if (!strcmp(m, "handle")) {
        h = (shmemx_msg_h)(intptr_t)-12345;
        shmemx_msg_wait(&h, &st);
    } else if (!strcmp(m, "twice")) {
        shmemx_isend(shmem_my_pe(), 1, buf, 8, &h);
        shmemx_recv(shmem_my_pe(), 1, buf, 8, &st);
        shmemx_msg_h copy = h;
        shmemx_msg_wait(&h, &st); /* frees the request and sets h to SHMEMX_MSG_H_NULL */
        shmemx_msg_test(&copy, &flag, &st);
    } else if (!strcmp(m, "nullreq")) {
        shmemx_msg_wait(NULL, &st);
    } else if (!strcmp(m, "lenmax")) { /* a length of no buffer: SIZE_MAX, SIZE_MAX/2 */
        shmemx_send(shmem_my_pe(), 1, buf, SIZE_MAX);
    } else if (!strcmp(m, "lenhalf")) {
        shmemx_isend(shmem_my_pe(), 1, buf, SIZE_MAX / 2, &h);
    } else if (!strcmp(m, "maxlen")) {
        shmemx_irecv(shmem_my_pe(), 1, buf, (size_t)-1 - 63, &h);
    } else if (!strcmp(m, "anytag")) { /* the receive wildcards on the sending side */
        shmemx_send(shmem_my_pe(), SHMEMX_ANY_TAG, buf, 8);
    } else if (!strcmp(m, "anysrc")) {
        shmemx_isend(SHMEMX_ANY_SOURCE, 1, buf, 8, &h);
    } else if (!strcmp(m, "nullflag")) {
        shmemx_isend(shmem_my_pe(), 1, buf, 8, &h);
        shmemx_msg_test(&h, NULL, &st);
    } else if (!strcmp(m, "span")) { /* a symmetric block sent with a length past the
                                        * heap's end (run with SHMEM_SYMMETRIC_SIZE=1M) */
        char *p = shmem_malloc(4096);
        shmemx_send(shmem_my_pe(), 1, p, (size_t)64 << 20);
    } else if (!strcmp(m, "recvspan")) { /* ... a receive's maxlen past the heap's end */
        char *p = shmem_malloc(4096);
        shmemx_irecv(shmem_my_pe(), 1, p, (size_t)64 << 20, &h);
    } else if (!strcmp(m, "finany") || !strcmp(m, "finanyprobe")) {
        /* every other PE sends one message and goes to shmem_finalize: PE 0 receives
         * them, then waits for one from SHMEMX_ANY_SOURCE that can never come */
        if (shmem_my_pe() != 0)
            shmemx_send(0, 5, buf, 8);
        else {
            for (int i = 1; i < shmem_n_pes(); i++)
                shmemx_recv(SHMEMX_ANY_SOURCE, 5, buf, 8, &st);
            if (!strcmp(m, "finany"))
                shmemx_recv(SHMEMX_ANY_SOURCE, SHMEMX_ANY_TAG, buf, 8, &st);
            else
                shmemx_probe(SHMEMX_ANY_SOURCE, 5, &st);
        }
        shmem_finalize();
        return 0; /* the other PEs */
    } else if (!strcmp(m, "finrecv") || !strcmp(m, "finprobe")) {
        /* PE 1 sends one message and goes to shmem_finalize: PE 0 receives it, then
         * waits for one that can never come (a named error, not a hang) */
        if (shmem_my_pe() == 1)
            shmemx_send(0, 5, buf, 8);
        if (shmem_my_pe() == 0) {
            shmemx_recv(1, 5, buf, 8, &st);
            if (!strcmp(m, "finrecv"))
                shmemx_recv(1, 5, buf, 8, &st);
            else
                shmemx_probe(1, SHMEMX_ANY_TAG, &st);
        }
        shmem_finalize();
        return 0; /* PE 1 */
    } else {
        fprintf(stderr, "msg_bad: unknown mode %s\n", m);
        return 2;
    }
    shmem_finalize();
    return 0; /* not reached: the call above must end the job */
}
