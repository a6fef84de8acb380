check_PROGRAMS += test/reliability/rel_prog test/reliability/flood test/reliability/init_fail \
	test/reliability/nofile
test_reliability_nofile_LDADD = $(TEST_LDADD)
test_reliability_init_fail_LDADD = $(TEST_LDADD)
test_reliability_flood_LDADD = $(TEST_LDADD)
test_reliability_rel_prog_LDADD = $(TEST_LDADD)
EXTRA_DIST += test/reliability/expect_fail.sh test/reliability/local.mk test/reliability/valgrind.sh \
	test/reliability/valgrind.supp test/reliability/small_shm.sh test/reliability/init_abort.sh \
	test/reliability/shm_regions.sh test/reliability/launcher_lost.sh test/reliability/lib.sh \
	test/reliability/fin_watch.sh test/reliability/watch_drain.sh test/reliability/fin_fence_loop.sh
