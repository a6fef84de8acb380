# man pages

# Tools (section 1) and the same-node transport / overview pages (section 7).
dist_man1_MANS += man/man1/oshcc.1 man/man1/oshc++.1 man/man1/oshrun.1 man/man1/ofishmem_info.1
# ofishmem.7 and ofishmem_shm.7 list runtime parameters: generated from the one
# parameter table (include/ofs_env_defs.h) through `ofishmem_info --params`.
man7_MANS += man/man7/ofishmem.7 man/man7/ofishmem_shm.7
EXTRA_DIST += man/gen-env-man.sh man/man7/ofishmem.7.in man/man7/ofishmem_shm.7.in
CLEANFILES += man/man7/ofishmem.7 man/man7/ofishmem_shm.7
MAN_ENV_DEPS = $(top_srcdir)/man/gen-env-man.sh ofishmem_info$(EXEEXT) \
	$(top_srcdir)/include/ofs_env_defs.h
man/man7/ofishmem.7: $(top_srcdir)/man/man7/ofishmem.7.in $(MAN_ENV_DEPS)
	@$(MKDIR_P) man/man7
	$(AM_V_GEN)$(SHELL) $(top_srcdir)/man/gen-env-man.sh ./ofishmem_info$(EXEEXT) \
		< $(top_srcdir)/man/man7/ofishmem.7.in > $@.tmp && mv $@.tmp $@
man/man7/ofishmem_shm.7: $(top_srcdir)/man/man7/ofishmem_shm.7.in $(MAN_ENV_DEPS)
	@$(MKDIR_P) man/man7
	$(AM_V_GEN)$(SHELL) $(top_srcdir)/man/gen-env-man.sh ./ofishmem_info$(EXEEXT) \
		'^(SYMMETRIC_SIZE|LOCAL_TRANSPORT|SHM_.*|SIM_PES_PER_NODE)$$' \
		< $(top_srcdir)/man/man7/ofishmem_shm.7.in > $@.tmp && mv $@.tmp $@
