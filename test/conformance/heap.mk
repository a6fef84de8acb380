# Conformance tests: heap (issue 25).  Programs here are added to check_PROGRAMS.
EXTRA_DIST += test/conformance/heap.mk
check_PROGRAMS += test/conformance/heap_race
test_conformance_heap_race_LDADD = $(TEST_LDADD)
check_PROGRAMS += test/conformance/heap_life
test_conformance_heap_life_LDADD = $(TEST_LDADD)
EXTRA_DIST += test/conformance/heap_full.sh test/conformance/heap_count.sh
