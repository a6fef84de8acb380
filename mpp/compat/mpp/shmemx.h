/* <mpp/shmemx.h>: the SGI SHMEM header directory, deprecated since OpenSHMEM 1.1 and still
 * required by 1.5 and 1.6 ("implementations must provide all OpenSHMEM-specified header
 * files from the mpp header directory").  Installed as $(includedir)/mpp/shmemx.h. */
#include "../shmemx.h"
