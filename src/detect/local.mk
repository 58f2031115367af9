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
	recipes/data/l4t.lua

TESTS += \
	tests/lua/detect_test.lua \
	tests/lua/gpus_test.lua \
	tests/integration/t0100-detect-fixtures.sh \
	tests/integration/t0101-detect-gpu.sh \
	tests/integration/t0102-detect-host.sh \
	tests/integration/t0103-detect-cpu.sh \
	tests/integration/t0104-hostile-files.sh

# Fixture directories hold only committed files (never test output).
EXTRA_DIST += \
	tests/fixtures/make-sysroots.py \
	tests/fixtures/README.md \
	doc/notes/detect.md \
	bench/detect-bench.sh bench/timeit.c \
	tests/fixtures/sysroot.sh \
	tests/lua/detect_test.lua \
	tests/lua/gpus_test.lua \
	tests/fixtures/cpuinfo \
	tests/fixtures/sysroots \
	tests/integration/t0100-detect-fixtures.sh \
	tests/integration/t0101-detect-gpu.sh \
	tests/integration/t0102-detect-host.sh \
	tests/integration/t0103-detect-cpu.sh \
	tests/integration/t0104-hostile-files.sh

# Stand-in driver libraries the GPU probe loads in tests (plain shared
# objects: no libtool here).  0: answers, 1: hangs, 2: crashes.
DETECT_STUBS = \
	tests/stubs/libcuda-ok.so tests/stubs/libcuda-hang.so tests/stubs/libcuda-crash.so \
	tests/stubs/libnvml-ok.so tests/stubs/libnvml-hang.so tests/stubs/libnvml-crash.so
tests/integration/t0101-detect-gpu.log: $(DETECT_STUBS)
CLEANFILES += $(DETECT_STUBS)
EXTRA_DIST += tests/stubs/stub-cuda.c tests/stubs/stub-nvml.c
STUB_BUILD = $(AM_V_CC)$(MKDIR_P) tests/stubs && \
	$(CC) $(CFLAGS) -shared -fPIC -o $@
tests/stubs/libcuda-ok.so: tests/stubs/stub-cuda.c
	$(STUB_BUILD) -DSTUB_MODE=0 $(srcdir)/tests/stubs/stub-cuda.c
tests/stubs/libcuda-hang.so: tests/stubs/stub-cuda.c
	$(STUB_BUILD) -DSTUB_MODE=1 $(srcdir)/tests/stubs/stub-cuda.c
tests/stubs/libcuda-crash.so: tests/stubs/stub-cuda.c
	$(STUB_BUILD) -DSTUB_MODE=2 $(srcdir)/tests/stubs/stub-cuda.c
tests/stubs/libnvml-ok.so: tests/stubs/stub-nvml.c
	$(STUB_BUILD) -DSTUB_MODE=0 $(srcdir)/tests/stubs/stub-nvml.c
tests/stubs/libnvml-hang.so: tests/stubs/stub-nvml.c
	$(STUB_BUILD) -DSTUB_MODE=1 $(srcdir)/tests/stubs/stub-nvml.c
tests/stubs/libnvml-crash.so: tests/stubs/stub-nvml.c
	$(STUB_BUILD) -DSTUB_MODE=2 $(srcdir)/tests/stubs/stub-nvml.c

check_PROGRAMS += tests/unit/test-facts
tests_unit_test_facts_SOURCES = tests/unit/test-facts.c tests/unit/tap.h
tests_unit_test_facts_LDADD = $(PTB_LIBS)
TESTS += tests/unit/test-facts
