# tests/local.mk - everything `make check` runs (but the fuzz replays,
# tests/fuzz/local.mk).  All tests speak TAP: C unit tests (tests/unit),
# Lua tests run by tests/luatest, shell tests (tests/integration, on
# tests/lib.sh).  Test numbers: 00xx command line and tools, 01xx detect,
# plan and doctor, 02xx hardening, 05xx generate and its consumers, 06xx
# fetch, 07xx real inputs, 08xx fleets, 09xx Docker.
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

# C unit tests
check_PROGRAMS += tests/luatest tests/unit/test-util tests/unit/test-lua tests/unit/test-facts tests/unit/test-fatbin tests/unit/test-fetch tests/unit/test-render tests/unit/test-run
tests_luatest_SOURCES = tests/luatest.c
tests_luatest_LDADD = $(PTB_LIBS)
tests_unit_test_util_SOURCES = tests/unit/test-util.c tests/unit/tap.h
tests_unit_test_util_LDADD = $(PTB_LIBS)
tests_unit_test_lua_SOURCES = tests/unit/test-lua.c tests/unit/tap.h
tests_unit_test_lua_LDADD = $(PTB_LIBS)
tests_unit_test_facts_SOURCES = tests/unit/test-facts.c tests/unit/tap.h
tests_unit_test_facts_LDADD = $(PTB_LIBS)
tests_unit_test_fatbin_SOURCES = tests/unit/test-fatbin.c tests/unit/tap.h
tests_unit_test_fatbin_LDADD = $(PTB_LIBS)
tests_unit_test_fetch_SOURCES = tests/unit/test-fetch.c tests/unit/tap.h
tests_unit_test_fetch_LDADD = $(PTB_LIBS)
tests_unit_test_render_SOURCES = tests/unit/test-render.c tests/unit/tap.h
tests_unit_test_render_LDADD = $(PTB_LIBS)
tests_unit_test_run_SOURCES = tests/unit/test-run.c tests/unit/tap.h
tests_unit_test_run_LDADD = $(PTB_LIBS)
TESTS += tests/unit/test-util tests/unit/test-lua tests/unit/test-facts tests/unit/test-fatbin tests/unit/test-fetch tests/unit/test-render tests/unit/test-run

# Lua tests of the recipes
LUA_TESTS = \
	tests/lua/archlist_test.lua \
	tests/lua/data_sources_test.lua \
	tests/lua/data_test.lua \
	tests/lua/detect_test.lua \
	tests/lua/doctor_test.lua \
	tests/lua/gpus_test.lua \
	tests/lua/plan_cudnn_test.lua \
	tests/lua/plan_host_test.lua \
	tests/lua/plan_targets_test.lua \
	tests/lua/plan_test.lua \
	tests/lua/plan_toolkit_test.lua \
	tests/lua/wheels_test.lua

# Shell tests.  Some tiers fetch Debian packages once into a cache
# outside the checkout and skip, with the reason, when they cannot:
# t0510 (PyTorch's own CMake and cpp_extension), t07xx (trixie's CUDA
# 12.4 and PyTorch), t0520 (sccache), t0900 (a private dockerd).
SHELL_TESTS = \
	tests/integration/t0001-cli.sh \
	tests/integration/t0002-arch.sh \
	tests/integration/t0003-arch-nvcc.sh \
	tests/integration/t0004-sandbox.sh \
	tests/integration/t0005-install.sh \
	tests/integration/t0006-inspect.sh \
	tests/integration/t0007-validate.sh \
	tests/integration/t0008-lazy-libs.sh \
	tests/integration/t0009-precompiled.sh \
	tests/integration/t0019-luatest-where.sh \
	tests/integration/t0010-options.sh \
	tests/integration/t0011-layers.sh \
	tests/integration/t0012-readme-examples.sh \
	tests/integration/t0013-validate-gpu-list.sh \
	tests/integration/t0014-installed-gpu-list.sh \
	tests/integration/t0110-detect-fixtures.sh \
	tests/integration/t0111-detect-gpu.sh \
	tests/integration/t0112-detect-host.sh \
	tests/integration/t0113-detect-cpu.sh \
	tests/integration/t0114-hostile-files.sh \
	tests/integration/t0115-detect-pyenv.sh \
	tests/integration/t0116-detect-dpkg-compilers.sh \
	tests/integration/t0117-detect-compiler-bytes.sh \
	tests/integration/t0118-detect-byte-budget.sh \
	tests/integration/t0120-plan.sh \
	tests/integration/t0121-plan-problems.sh \
	tests/integration/t0122-profiles.sh \
	tests/integration/t0123-facts-versions.sh \
	tests/integration/t0124-plan-diff.sh \
	tests/integration/t0125-colour.sh \
	tests/integration/t0126-plan-loaders.sh \
	tests/integration/t0127-plan-jetson-wheels.sh \
	tests/integration/t0128-plan-wheel-python.sh \
	tests/integration/t0129-plan-redist-pins.sh \
	tests/integration/t0130-doctor.sh \
	tests/integration/t0131-plan-doctor-agree.sh \
	tests/integration/t0132-driver-predates-gpu.sh \
	tests/integration/t0133-plan-jetson-cuda-packages.sh \
	tests/integration/t0134-cuda-13.4-machine.sh \
	tests/integration/t0135-openblas-dynamic.sh \
	tests/integration/t0136-plan-gcc-full-version.sh \
	tests/integration/t0137-doctor-jetson-container.sh \
	tests/integration/t0138-plan-jetson-cuda-compat.sh \
	tests/integration/t0139-plan-jetson-thor-cuda.sh \
	tests/integration/t0140-plan-sbsa-wheel-python.sh \
	tests/integration/t0143-plan-jetpack-cuda.sh \
	tests/integration/t0144-detect-jetson-modules.sh \
	tests/integration/t0146-plan-orin-jetpack72.sh \
	tests/integration/t0147-jetson-answers.sh \
	tests/integration/t0148-detect-python-env.sh \
	tests/integration/t0152-plan-driver-opens.sh \
	tests/integration/t0156-plan-driver-least.sh \
	tests/integration/t0157-plan-jetson-driver.sh \
	tests/integration/t0158-plan-python-packages.sh \
	tests/integration/t0159-python-too-new-agree.sh \
	tests/integration/t0160-driver-least-everywhere.sh \
	tests/integration/t0165-jetson-module-l4t.sh \
	tests/integration/t0166-jetson-keep-torch.sh \
	tests/integration/t0167-jetson-unnamed-cuda.sh \
	tests/integration/t0168-plan-unknown-cuda.sh \
	tests/integration/t0153-doctor-container-procfs.sh \
	tests/integration/t0155-doctor-source.sh \
	tests/integration/t0211-sources.sh \
	tests/integration/t0219-runfiles.sh \
	tests/integration/t0212-recipe-errors.sh \
	tests/integration/t0501-generate.sh \
	tests/integration/t0502-generate-env.sh \
	tests/integration/t0503-generate-docker.sh \
	tests/integration/t0504-generate-cmake.sh \
	tests/integration/t0505-generate-hostile.sh \
	tests/integration/t0506-generate-own.sh \
	tests/integration/t0507-generate-closure.sh \
	tests/integration/t0508-generate-base-image.sh \
	tests/integration/t0509-generate-image-toolchain.sh \
	tests/integration/t0510-consumer-pytorch.sh \
	tests/integration/t0511-consumer-archnames.sh \
	tests/integration/t0512-generate-force.sh \
	tests/integration/t0513-workflow-steps.sh \
	tests/integration/t0514-consumer-cache.sh \
	tests/integration/t0520-sccache-shared.sh \
	tests/integration/t0601-fetch-local.sh \
	tests/integration/t0602-fetch-https.sh \
	tests/integration/t0603-fetch-faults.sh \
	tests/integration/t0604-hostile-archives.sh \
	tests/integration/t0605-fetch-interrupt.sh \
	tests/integration/t0606-fetch-plan.sh \
	tests/integration/t0607-fetch-cache.sh \
	tests/integration/t0608-fetch-preview.sh \
	tests/integration/t0609-fetch-stream.sh \
	tests/integration/t0610-fetch-defaults.sh \
	tests/integration/t0611-fetch-pinned.sh \
	tests/integration/t0612-fetch-pinned-platforms.sh \
	tests/integration/t0613-fetch-cudnn.sh \
	tests/integration/t0614-fetch-archive.sh \
	tests/integration/t0615-fetch-cudnn-digests.sh \
	tests/integration/t0620-fetch-progress.sh \
	tests/integration/t0621-fetch-unreachable.sh \
	tests/integration/t0622-fetch-plan-errors.sh \
	tests/integration/t0700-real-detect.sh \
	tests/integration/t0701-real-inspect.sh \
	tests/integration/t0702-real-doctor.sh \
	tests/integration/t0703-real-two-toolkits.sh \
	tests/integration/t0704-real-doctor-toolkit.sh \
	tests/integration/t0705-real-arm64-gcc.sh \
	tests/integration/t0706-real-image-hostcfg.sh \
	tests/integration/t0707-real-image-apt.sh \
	tests/integration/t0800-fleet.sh \
	tests/integration/t0801-fleet-gather.sh \
	tests/integration/t0802-fleet-generate.sh \
	tests/integration/t0803-fleet-fetch.sh \
	tests/integration/t0804-fleet-validate-doctor.sh \
	tests/integration/t0805-fleet-jetson.sh \
	tests/integration/t0806-fleet-nvcc-lists.sh \
	tests/integration/t0900-docker-build.sh
TESTS += $(LUA_TESTS) $(SHELL_TESTS)

# Explicit lists: a directory in EXTRA_DIST would also ship test logs
# (fixture directories hold only committed files).
EXTRA_DIST += $(LUA_TESTS) $(SHELL_TESTS) tests/lib.sh tests/gpulist.sh tests/lua/lib/tap.lua \
	tests/generate_closure.py tests/gpu/run.sh \
	tests/consumer/fetch-pytorch.sh tests/consumer/arch_flags.py \
	tests/consumer/probe/CMakeLists.txt \
	tests/realinputs/apt-get-debs.sh tests/realinputs/lib.sh \
	tests/docker/make-base.sh tests/docker/make-mirror.py tests/docker/mirror.py tests/docker/image-tar.py \
	tests/readme-examples.py \
	tests/fetch/lib.sh tests/fetch/faultserver.py tests/fetch/mkarchives.py \
	tests/fetch/onpty.py tests/fetch/manifest-bad.json \
	tests/fetch/redistrib_12.4.1.json tests/fetch/redistrib_13.4.2.json \
	tests/fetch/redistrib_9.13.0.json \
	tests/fleet/k8s-validate.mjs \
	tests/fixtures/README.md tests/fixtures/make-sysroots.py tests/fixtures/sysroot.sh \
	tests/fixtures/cpuinfo tests/fixtures/sysroots \
	tests/fixtures/plans tests/fixtures/facts \
	tests/fixtures/plans-in/gh200.json tests/fixtures/plans-in/rtx4090.json \
	tests/fixtures/plans-in/ci-multiarch.json \
	tests/fixtures/cuda-tiny/CMakeLists.txt tests/fixtures/cuda-tiny/tiny.cu \
	tests/fixtures/generate/ci-multiarch/.dockerignore \
	tests/fixtures/generate/ci-multiarch/.envrc \
	tests/fixtures/generate/ci-multiarch/.github/workflows/ptbuild.yml \
	tests/fixtures/generate/ci-multiarch/CMakePresets.json \
	tests/fixtures/generate/ci-multiarch/Dockerfile \
	tests/fixtures/generate/ci-multiarch/docker-bake.hcl \
	tests/fixtures/generate/ci-multiarch/docker.env \
	tests/fixtures/generate/ci-multiarch/github.env \
	tests/fixtures/generate/ci-multiarch/github.path \
	tests/fixtures/generate/ci-multiarch/initial-cache.cmake \
	tests/fixtures/generate/ci-multiarch/plan.json \
	tests/fixtures/generate/ci-multiarch/ptbuild.env \
	tests/fixtures/generate/ci-multiarch/setup.sh \
	tests/fixtures/generate/gh200/.dockerignore \
	tests/fixtures/generate/gh200/.envrc \
	tests/fixtures/generate/gh200/.github/workflows/ptbuild.yml \
	tests/fixtures/generate/gh200/CMakePresets.json \
	tests/fixtures/generate/gh200/Dockerfile \
	tests/fixtures/generate/gh200/docker-bake.hcl \
	tests/fixtures/generate/gh200/docker.env \
	tests/fixtures/generate/gh200/github.env \
	tests/fixtures/generate/gh200/github.path \
	tests/fixtures/generate/gh200/initial-cache.cmake \
	tests/fixtures/generate/gh200/plan.json \
	tests/fixtures/generate/gh200/ptbuild.env \
	tests/fixtures/generate/gh200/setup.sh \
	tests/fixtures/generate/rtx4090/.dockerignore \
	tests/fixtures/generate/rtx4090/.envrc \
	tests/fixtures/generate/rtx4090/.github/workflows/ptbuild.yml \
	tests/fixtures/generate/rtx4090/CMakePresets.json \
	tests/fixtures/generate/rtx4090/Dockerfile \
	tests/fixtures/generate/rtx4090/docker-bake.hcl \
	tests/fixtures/generate/rtx4090/docker.env \
	tests/fixtures/generate/rtx4090/github.env \
	tests/fixtures/generate/rtx4090/github.path \
	tests/fixtures/generate/rtx4090/initial-cache.cmake \
	tests/fixtures/generate/rtx4090/plan.json \
	tests/fixtures/generate/rtx4090/ptbuild.env \
	tests/fixtures/generate/rtx4090/setup.sh
# golden outputs of `generate --profile NAME` (directories: nothing is
# generated into them)
EXTRA_DIST += tests/fixtures/generate/profile-altra-a100 \
	tests/fixtures/generate/profile-gh200 \
	tests/fixtures/generate/profile-jetson-orin \
	tests/fixtures/generate/profile-rtx4090-workstation

clean-local: clean-test-tmp
clean-test-tmp:
	-rm -rf tests/tmp
.PHONY: clean-test-tmp

# Stand-in driver libraries the GPU probe loads in tests (plain shared
# objects: no libtool here).  0: answers, 1: hangs, 2: crashes.
DETECT_STUBS = \
	tests/stubs/libcuda-ok.so tests/stubs/libcuda-hang.so tests/stubs/libcuda-crash.so \
	tests/stubs/libnvml-ok.so tests/stubs/libnvml-hang.so tests/stubs/libnvml-crash.so
tests/integration/t0111-detect-gpu.log tests/integration/t0007-validate.log: $(DETECT_STUBS)
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
