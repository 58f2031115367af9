# src/detect/local.mk - `ptbuild detect`: probes, recipe, tests, fixtures.
# (src/detect/detect.[ch] are listed in src/local.mk.)
libptb_a_SOURCES += \
	src/cmd/detect.c \
	src/detect/root.c src/detect/root.h src/detect/probe.h \
	src/detect/probe_host.c src/detect/probe_gpu.c src/detect/probe_cuda.c \
	src/detect/probe_tools.c src/detect/spawn.c

nobase_dist_pkgdata_DATA += \
	recipes/detect.lua \
	recipes/data/cpus.lua \
	recipes/data/gpus.lua \
	recipes/data/jetson.lua

TESTS += \
	tests/integration/t0100-detect-fixtures.sh

# Fixture directories hold only committed files (never test output).
EXTRA_DIST += \
	tests/fixtures/make-sysroots.py \
	tests/fixtures/cpuinfo \
	tests/fixtures/sysroots \
	tests/integration/t0100-detect-fixtures.sh
