# man pages
dist_man7_MANS += man/man7/ofishmem_ofi.7
