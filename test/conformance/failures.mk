# Conformance tests: failures (issue 25).  Programs here are added to check_PROGRAMS.
EXTRA_DIST += test/conformance/failures.mk
EXTRA_DIST += test/conformance/stale_owner.sh
check_PROGRAMS += test/conformance/peer_gone
test_conformance_peer_gone_LDADD = $(TEST_LDADD)
EXTRA_DIST += test/conformance/peer_gone.sh
EXTRA_DIST += test/conformance/shm_names.sh
EXTRA_DIST += test/conformance/tcp_loopback.sh
check_PROGRAMS += test/conformance/init_kill
test_conformance_init_kill_LDADD = $(TEST_LDADD)
EXTRA_DIST += test/conformance/init_kill.sh
