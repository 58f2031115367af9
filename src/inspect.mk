# src/inspect.mk - `ptbuild inspect` and `ptbuild validate`: the ELF and fat
# binary reader, the test kernel, their tests.  tests/gpu/run.sh is for a
# machine with a GPU and is not part of `make check`.
libptb_a_SOURCES += \
	src/elf.c src/elf.h src/fatbin.c src/fatbin.h \
	src/cmd/inspect.c \
	src/validate.c src/validate.h src/validate_cu.c src/cmd/validate.c

check_PROGRAMS += tests/unit/test-fatbin
tests_unit_test_fatbin_SOURCES = tests/unit/test-fatbin.c tests/unit/tap.h
tests_unit_test_fatbin_LDADD = $(PTB_LIBS)

TESTS += \
	tests/unit/test-fatbin \
	tests/integration/t0006-inspect.sh \
	tests/integration/t0007-validate.sh

EXTRA_DIST += \
	tests/integration/t0006-inspect.sh \
	tests/integration/t0007-validate.sh bench/validate-bench.sh \
	tests/gpu/run.sh
