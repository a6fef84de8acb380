# Installed headers, generated at build time by m4 from ONE type table
# (mpp/shmem_types.m4) and the routine families (mpp/shmem_api.m4).
MPPX_M4 = $(srcdir)/mpp/shmemx_nbc.m4 $(srcdir)/mpp/shmemx_msg.m4 $(srcdir)/mpp/shmemx_stats.m4
MPP_M4 = $(srcdir)/mpp/shmem_types.m4 $(srcdir)/mpp/shmem_api.m4 $(srcdir)/mpp/shmem_untyped.m4
OFS_MPP_HDRS = mpp/shmem.h mpp/pshmem.h mpp/shmemx.h
nodist_include_HEADERS += $(OFS_MPP_HDRS)
# #include <mpp/shmem.h> (and shmemx.h, pshmem.h): one-line headers that include ours
mppincludedir = $(includedir)/mpp
dist_mppinclude_HEADERS = mpp/compat/mpp/shmem.h mpp/compat/mpp/shmemx.h mpp/compat/mpp/pshmem.h
BUILT_SOURCES += $(OFS_MPP_HDRS)
CLEANFILES += $(OFS_MPP_HDRS)
EXTRA_DIST += mpp/shmem_types.m4 mpp/shmem_api.m4 mpp/shmem_untyped.m4 mpp/shmem.h.m4 \
	mpp/pshmem.h.m4 mpp/shmemx.h.m4 $(MPPX_M4)
OFS_VERSION_WORDS = $(subst ., ,$(PACKAGE_VERSION))
MPP_M4_RUN = $(M4) -P -I$(srcdir)/mpp -DOFS_VERSION_STRING=$(PACKAGE_VERSION) \
	-DOFS_VERSION_MAJOR=$(word 1,$(OFS_VERSION_WORDS)) -DOFS_VERSION_MINOR=$(word 2,$(OFS_VERSION_WORDS)) \
	-DOFS_VERSION_PATCH=$(word 3,$(OFS_VERSION_WORDS))

mpp/shmem.h: $(srcdir)/mpp/shmem.h.m4 $(MPP_M4) $(top_builddir)/config.status
	@$(MKDIR_P) mpp
	$(AM_V_GEN)$(MPP_M4_RUN) $(srcdir)/mpp/shmem.h.m4 > $@.tmp && mv $@.tmp $@
mpp/pshmem.h: $(srcdir)/mpp/pshmem.h.m4 $(MPP_M4)
	@$(MKDIR_P) mpp
	$(AM_V_GEN)$(MPP_M4_RUN) $(srcdir)/mpp/pshmem.h.m4 > $@.tmp && mv $@.tmp $@
mpp/shmemx.h: $(srcdir)/mpp/shmemx.h.m4 $(MPPX_M4) $(srcdir)/mpp/shmem_types.m4
	@$(MKDIR_P) mpp
	$(AM_V_GEN)$(MPP_M4_RUN) $(srcdir)/mpp/shmemx.h.m4 > $@.tmp && mv $@.tmp $@
