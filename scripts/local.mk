bin_SCRIPTS += scripts/oshcc scripts/oshrun scripts/oshfort
EXTRA_DIST += scripts/oshcc.in scripts/oshrun.in scripts/oshfort.in

# oshc++ is oshcc under another name (it picks the C++ compiler by its name)
install-exec-hook-oshcxx:
	cd $(DESTDIR)$(bindir) && rm -f oshc++ oshcxx && $(LN_S) oshcc oshc++ && $(LN_S) oshcc oshcxx
uninstall-hook-oshcxx:
	rm -f $(DESTDIR)$(bindir)/oshc++ $(DESTDIR)$(bindir)/oshcxx
install_exec_hooks += install-exec-hook-oshcxx
uninstall_hooks += uninstall-hook-oshcxx
EXTRA_DIST += examples/hello.c
# the layer check (test unit/layers, scripts/check.sh) and the rules it checks
EXTRA_DIST += scripts/check-layers.sh docs/architecture.md
# the benchmark scripts' shared option parsing (sourced by bench-startup.sh, ofi-compare.sh, ...)
EXTRA_DIST += scripts/bench-lib.sh
# the other scripts the docs and the distributed scripts name (bench-compare.sh runs
# bench-coll.sh, bench-fabric.sh runs plot-bench.py, ...); bench-compare.sh, bench-startup.sh,
# ofi-compare.sh and check-format.sh are in test/performance/local.mk
EXTRA_DIST += scripts/bench-coll.sh scripts/bench-fabric.sh scripts/bench-msg.sh \
	scripts/bench-small-coll.sh scripts/plot-bench.py scripts/check.sh \
	scripts/check-sanitizers.sh scripts/install-deps.sh scripts/quickstart.sh \
	scripts/run-shmem4py.sh
# run another project's OpenSHMEM tests (docs/testing.md, "External test suites")
EXTRA_DIST += scripts/run-external-tests.sh
