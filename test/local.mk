# Tests: unit (no launcher), functional (through oshrun), paths (variants.txt).
# `make check` builds check_PROGRAMS and runs test/run-tests.sh over test/lists/*.list.
EXTRA_DIST += test/run-tests.sh test/lists
TEST_LDADD = libsma.la
UNIT_LDADD = libsma_core.la

check-local: $(check_PROGRAMS)
	srcdir=$(srcdir) builddir=$(abs_builddir) $(SHELL) $(srcdir)/test/run-tests.sh

include test/unit/local.mk
include test/functional/local.mk
include test/functional/stats.mk
include test/reliability/local.mk
include test/multinode/local.mk

clean-local-testlogs:
	rm -rf test/logs
clean_local_hooks += clean-local-testlogs
include test/stress/local.mk
include test/functional/coll.mk
include test/functional/msg_local.mk
include test/performance/coll.mk
include test/functional/shm_local.mk
include test/performance/local.mk
include test/performance/msg_bench.mk
include test/ofi.mk
include test/conformance/local.mk
