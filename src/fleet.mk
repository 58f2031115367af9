# src/fleet.mk - fleet plans: many machines' facts, one build per platform.
libptb_a_SOURCES += src/fleet.c src/fleet.h

nobase_dist_pkgdata_DATA += recipes/fleet.lua

TESTS += tests/integration/t0800-fleet.sh

EXTRA_DIST += tests/integration/t0800-fleet.sh
