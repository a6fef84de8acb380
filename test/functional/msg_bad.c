/*
 * Bad input to the message routines: each mode must end the job with one line naming
 * the routine (test/abi/check_bad_input.sh checks it).  usage: msg_bad MODE
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
    } else {
        fprintf(stderr, "msg_bad: unknown mode %s\n", m);
        return 2;
    }
    shmem_finalize();
    return 0; /* not reached: the call above must end the job */
}
