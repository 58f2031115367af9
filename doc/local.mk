# doc/local.mk - the manual page, the design and the guides, and the
# benchmarks (bench/: each prints a ratio against the alternative).
dist_man_MANS = doc/ptbuild.1
EXTRA_DIST += doc/DESIGN.md doc/fleet.md doc/sccache.md doc/maintainers.md \
	bench/detect-bench.sh bench/timeit.c bench/fetch-bench.sh bench/plan.sh \
	bench/validate-bench.sh bench/inspect-vs-cuobjdump.sh
