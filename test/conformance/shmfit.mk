# Conformance tests: shmfit (issue 29, the default heap on a small /dev/shm).
EXTRA_DIST += test/conformance/shmfit.mk test/conformance/shm_fit.sh
check_PROGRAMS += test/conformance/shm_fit
test_conformance_shm_fit_LDADD = $(TEST_LDADD)
