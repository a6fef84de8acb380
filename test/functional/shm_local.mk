# Same-node transport tests (listed in test/lists/shm.list).
SHM_TESTS = test/functional/shm_order test/functional/shm_ptr test/functional/shm_atomics \
	test/functional/shm_fork
check_PROGRAMS += $(SHM_TESTS)
test_functional_shm_order_LDADD = $(TEST_LDADD)
test_functional_shm_ptr_LDADD = $(TEST_LDADD)
test_functional_shm_atomics_LDADD = $(TEST_LDADD)
EXTRA_DIST += test/functional/shm_util.h test/functional/shm_local.mk test/functional/check_man.sh
test_functional_shm_fork_LDADD = $(TEST_LDADD)
