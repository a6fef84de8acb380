m4_divert(-1)m4_include(`shmem_types.m4')m4_define(`NBX_GEN')m4_define(`MX_DECL', `')
m4_include(`shmemx_nbc.m4')
m4_divert(0)m4_changecom()m4_dnl
/* generated -- do not edit: made by m4 from src/api/nbc_gen.c.m4 with the families of
 * mpp/shmemx_nbc.m4 and the type table mpp/shmem_types.m4.  Each routine checks its
 * arguments and makes one call (src/api/nbc.c). */
#include "../src/api/nbc_api.h" /* found through -I$(top_srcdir)/include */

NBX_ALL
