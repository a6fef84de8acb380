# coll: teams, contexts, collectives, locks, threads
COLL_TESTS = test/functional/coll_data test/functional/coll_team test/functional/coll_reduce \
	test/functional/coll_aset test/functional/coll_lock test/functional/coll_thread \
	test/functional/coll_members test/functional/coll_sigmix test/functional/coll_barrier \
	test/functional/coll_lockmix test/functional/coll_teamctx test/functional/coll_bcast_burst \
	test/functional/coll_pieces test/functional/coll_aset_race test/functional/coll_chain \
	test/functional/coll_zero
check_PROGRAMS += $(COLL_TESTS)
test_functional_coll_data_LDADD = $(TEST_LDADD)
test_functional_coll_zero_LDADD = $(TEST_LDADD)
test_functional_coll_team_LDADD = $(TEST_LDADD)
test_functional_coll_reduce_LDADD = $(UNIT_LDADD)
test_functional_coll_aset_LDADD = $(TEST_LDADD)
test_functional_coll_lock_LDADD = $(TEST_LDADD)
test_functional_coll_thread_LDADD = $(TEST_LDADD)
test_functional_coll_members_LDADD = $(UNIT_LDADD)
test_functional_coll_sigmix_LDADD = $(TEST_LDADD)
test_functional_coll_barrier_LDADD = $(TEST_LDADD)
test_functional_coll_lockmix_LDADD = $(TEST_LDADD)
test_functional_coll_teamctx_LDADD = $(TEST_LDADD)
test_functional_coll_bcast_burst_LDADD = $(TEST_LDADD)
test_functional_coll_pieces_LDADD = $(TEST_LDADD)
test_functional_coll_aset_race_LDADD = $(TEST_LDADD)
test_functional_coll_chain_LDADD = $(TEST_LDADD)
EXTRA_DIST += test/functional/coll.mk
