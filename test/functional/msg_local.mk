# msg: two-sided messages (test/lists/msg.list)
check_PROGRAMS += test/functional/msg_basic test/functional/msg_bad
test_functional_msg_basic_LDADD = $(TEST_LDADD)
test_functional_msg_bad_LDADD = $(TEST_LDADD)
EXTRA_DIST += test/functional/msg_local.mk
