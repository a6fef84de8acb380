/* The one state struct (ofs.h).  Defined here, at the bottom, so that every layer and
 * every unit test that links util finds it without the start-up code above. */
#define _GNU_SOURCE /* sched_getaffinity, CPU_COUNT */
#include "ofs.h"

#include <sched.h>

struct ofs_state ofs_g;

int ofs_cpus_usable(void)
{
    cpu_set_t set;
    int n = sched_getaffinity(0, sizeof(set), &set) == 0 ? CPU_COUNT(&set) : 1;

    return n > 0 ? n : 1;
}
