# tests/local.mk - everything `make check` runs.  All tests speak TAP.
TEST_EXTENSIONS = .sh .lua
LOG_DRIVER = env AM_TAP_AWK='$(AWK)' $(SHELL) $(top_srcdir)/build-aux/tap-driver.sh
SH_LOG_DRIVER = $(LOG_DRIVER)
SH_LOG_COMPILER = $(SHELL)
LUA_LOG_DRIVER = $(LOG_DRIVER)
LUA_LOG_COMPILER = $(top_builddir)/tests/luatest
AM_TESTS_ENVIRONMENT = \
	top_srcdir='$(abs_top_srcdir)'; top_builddir='$(abs_top_builddir)'; \
	PTBUILD='$(abs_top_builddir)/ptbuild'; \
	PTBUILD_RECIPE_PATH='$(abs_top_srcdir)/recipes'; NVCC='$(NVCC)'; \
	TEST_TMPDIR='$(abs_top_builddir)/tests/tmp'; \
	export top_srcdir top_builddir PTBUILD PTBUILD_RECIPE_PATH NVCC TEST_TMPDIR; \
	mkdir -p "$$TEST_TMPDIR";

check_PROGRAMS += tests/unit/test-util tests/unit/test-lua tests/luatest
tests_unit_test_util_SOURCES = tests/unit/test-util.c tests/unit/tap.h
tests_unit_test_util_LDADD = $(PTB_LIBS)
tests_unit_test_lua_SOURCES = tests/unit/test-lua.c tests/unit/tap.h
tests_unit_test_lua_LDADD = $(PTB_LIBS)
tests_luatest_SOURCES = tests/luatest.c
tests_luatest_LDADD = $(PTB_LIBS)

TESTS += \
	tests/unit/test-util \
	tests/unit/test-lua \
	tests/lua/archlist_test.lua \
	tests/lua/data_test.lua \
	tests/integration/t0001-cli.sh \
	tests/integration/t0002-arch.sh \
	tests/integration/t0003-arch-nvcc.sh \
	tests/integration/t0004-sandbox.sh \
	tests/integration/t0005-install.sh \
	tests/integration/t0008-lazy-libs.sh \
	tests/integration/t0009-precompiled.sh

# Explicit lists: a directory in EXTRA_DIST would also ship test logs.
EXTRA_DIST += tests/lib.sh tests/lua/lib/tap.lua \
	tests/lua/archlist_test.lua tests/lua/data_test.lua \
	tests/integration/t0001-cli.sh tests/integration/t0002-arch.sh \
	tests/integration/t0003-arch-nvcc.sh tests/integration/t0004-sandbox.sh \
	tests/integration/t0005-install.sh \
	tests/integration/t0008-lazy-libs.sh \
	tests/integration/t0009-precompiled.sh

clean-local: clean-test-tmp
clean-test-tmp:
	-rm -rf tests/tmp
.PHONY: clean-test-tmp

# Consumer tests: PyTorch's own build logic (Debian's libtorch-dev and
# python3-torch, fetched with apt at test time into a cache outside the
# tree) judges what generate writes; skipped with the reason without it.
TESTS += tests/integration/t0510-consumer-pytorch.sh
EXTRA_DIST += tests/integration/t0510-consumer-pytorch.sh \
	tests/consumer/fetch-pytorch.sh tests/consumer/arch_flags.py \
	tests/consumer/probe/CMakeLists.txt

# The real-inputs tier (tests/realinputs/lib.sh): Debian trixie's CUDA 12.4
# toolkit and PyTorch 2.6 CUDA build, fetched with apt into a cache outside
# the checkout; each test skips with the reason when they cannot be had.
REAL_TESTS = \
	tests/integration/t0700-real-detect.sh \
	tests/integration/t0701-real-inspect.sh \
	tests/integration/t0702-real-doctor.sh \
	tests/integration/t0703-real-two-toolkits.sh \
	tests/integration/t0704-real-doctor-toolkit.sh
TESTS += $(REAL_TESTS)
EXTRA_DIST += tests/realinputs/apt-get-debs.sh tests/realinputs/lib.sh $(REAL_TESTS) \
	doc/notes/realinputs.md \
	bench/inspect-vs-cuobjdump.sh

# The Docker build tier: the generated Dockerfile built by a private
# dockerd (Debian's docker.io) from a loopback mirror; the debootstrap base
# is cached outside the checkout.  Skips with the reason when it cannot run.
TESTS += tests/integration/t0900-docker-build.sh
EXTRA_DIST += tests/integration/t0900-docker-build.sh \
	tests/docker/make-base.sh tests/docker/make-mirror.py tests/docker/mirror.py

# The shared compile cache, proven with the real sccache, CMake and nvcc
# (a redis-server on 127.0.0.1; Debian sid's sccache, fetched with apt into
# a cache outside the checkout, when this one has no Redis backend).
TESTS += tests/integration/t0520-sccache-shared.sh
EXTRA_DIST += tests/integration/t0520-sccache-shared.sh
