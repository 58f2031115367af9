# src/generate.mk - `ptbuild generate`: renderer, command, recipe,
# templates and tests.  Explicit lists (a directory in EXTRA_DIST would
# also ship test logs).
libptb_a_SOURCES += src/render.c src/render.h src/cmd/generate.c

nobase_dist_pkgdata_DATA += \
	recipes/generate.lua \
	recipes/data/acl.lua recipes/data/sccache.lua \
	templates/ptbuild.env.in templates/envrc.in templates/docker.env.in \
	templates/github.env.in templates/github.path.in \
	templates/initial-cache.cmake.in templates/CMakePresets.json.in \
	templates/Dockerfile.in templates/dockerignore.in \
	templates/docker-bake.hcl.in templates/ptbuild.yml.in \
	templates/setup.sh.in templates/plan.json.in \
	templates/fleet-bake.hcl.in templates/fleet.yml.in templates/fleet.json.in

check_PROGRAMS += tests/unit/test-render
tests_unit_test_render_SOURCES = tests/unit/test-render.c tests/unit/tap.h
tests_unit_test_render_LDADD = $(PTB_LIBS)

GENERATE_TESTS = \
	tests/integration/t0501-generate.sh \
	tests/integration/t0502-generate-env.sh \
	tests/integration/t0503-generate-docker.sh \
	tests/integration/t0504-generate-cmake.sh \
	tests/integration/t0505-generate-hostile.sh \
	tests/integration/t0506-generate-own.sh \
	tests/integration/t0507-generate-closure.sh
TESTS += tests/unit/test-render $(GENERATE_TESTS)

EXTRA_DIST += $(GENERATE_TESTS) tests/fuzz/plan_fuzz.py tests/generate_closure.py \
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
EXTRA_DIST += tests/fixtures/generate/profile-gh200 \
	tests/fixtures/generate/profile-jetson-orin \
	tests/fixtures/generate/profile-altra-a100 \
	tests/fixtures/generate/profile-rtx4090-workstation
