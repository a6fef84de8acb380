/* msg_bench's loops over MPI_Send/MPI_Recv (the yardstick of docs/performance.md):
 * built by scripts/bench-msg.sh with mpicc when it is installed, never by make. */
#define MSG_BENCH_MPI 1
#include "msg_bench.c"
