m4_include(`shmem_api.m4')m4_include(`shmem_untyped.m4')m4_include(`shmem_man.m4')m4_changecom()m4_dnl
m4_ifdef(`NAMES', `m4_define(`MAN_PAGE', `m4_define(`MODE', `names')$2')')m4_dnl
m4_indir(`PAGE_'PAGE)`'m4_dnl
