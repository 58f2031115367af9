# src/plan.mk - the plan command, profiles and their knowledge and tests.
libptb_a_SOURCES += src/plan.c src/plan_check.c src/plan_diff.c src/plan.h src/cmd/plan.c src/cmd/profiles.c

nobase_dist_pkgdata_DATA += \
	recipes/PROBLEMS.md \
	recipes/plan.lua \
	recipes/lib/toolkit.lua recipes/lib/targets.lua recipes/lib/host.lua \
	recipes/lib/buildenv.lua recipes/lib/wheels.lua \
	recipes/data/pytorch.lua recipes/data/jetson.lua recipes/data/openblas.lua \
	recipes/data/packages.lua recipes/data/redist.lua recipes/data/sources.lua \
	recipes/profiles/gh200.json recipes/profiles/dgx-h100.json \
	recipes/profiles/altra-a100.json recipes/profiles/graviton3.json \
	recipes/profiles/jetson-orin.json recipes/profiles/jetson-thor.json \
	recipes/profiles/rtx4090-workstation.json

TESTS += \
	tests/lua/plan_toolkit_test.lua tests/lua/plan_targets_test.lua \
	tests/lua/plan_host_test.lua tests/lua/plan_test.lua tests/lua/wheels_test.lua \
	tests/integration/t0100-plan.sh tests/integration/t0101-plan-problems.sh \
	tests/integration/t0102-profiles.sh tests/integration/t0105-facts-versions.sh \
	tests/integration/t0106-plan-diff.sh tests/integration/t0211-sources.sh

EXTRA_DIST += tools/gen-redist.py tools/gen-gpus.py tools/gen-profiles.py \
	tools/data/gpus.csv doc/maintainers.md bench/plan.sh \
	tests/integration/t0211-sources.sh \
	tests/lua/plan_toolkit_test.lua tests/lua/plan_targets_test.lua \
	tests/lua/plan_host_test.lua tests/lua/plan_test.lua tests/lua/wheels_test.lua \
	tests/integration/t0100-plan.sh tests/integration/t0101-plan-problems.sh \
	tests/integration/t0102-profiles.sh tests/integration/t0105-facts-versions.sh \
	tests/integration/t0106-plan-diff.sh \
	tests/fixtures/plans tests/fixtures/facts
