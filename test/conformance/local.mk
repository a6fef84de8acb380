# Conformance and hardening tests (the specification as the contract): one file per area.
EXTRA_DIST += test/conformance/local.mk
include test/conformance/heap.mk
include test/conformance/args.mk
include test/conformance/handles.mk
include test/conformance/env.mk
include test/conformance/failures.mk
include test/conformance/shmfit.mk
