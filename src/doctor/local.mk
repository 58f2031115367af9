# src/doctor/local.mk - ptbuild doctor: probes, command, checks and tests.
libptb_a_SOURCES += src/doctor/probe.c src/doctor/probe.h src/cmd/doctor.c
nobase_dist_pkgdata_DATA += recipes/doctor.lua
TESTS += tests/lua/doctor_test.lua tests/integration/t0100-doctor.sh
EXTRA_DIST += tests/lua/doctor_test.lua tests/integration/t0100-doctor.sh
