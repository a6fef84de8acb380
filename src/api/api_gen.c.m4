m4_include(`shmem_api.m4')m4_changecom()m4_define(`MODE', `def')m4_dnl
/* generated -- do not edit: made by m4 from src/api/api_gen.c.m4 (this group of families) with the
 * families of mpp/shmem_api.m4 and the type table mpp/shmem_types.m4.  Each routine
 * checks its arguments (ofs_check.h, compiled out by --disable-error-checking) and
 * makes one internal call. */
#include "../src/api/api.h" /* found through -I$(top_srcdir)/include */

m4_indir(`MF_'GROUP)
