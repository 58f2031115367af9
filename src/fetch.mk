# src/fetch.mk - `ptbuild fetch`: downloads, verification, cache, extraction.
AM_CPPFLAGS += $(CRYPTO_CFLAGS)
libptb_a_SOURCES += \
	src/cmd/fetch.c \
	src/fetch/fetch.h src/fetch/manifest.c src/fetch/lock.c \
	src/fetch/plan_items.c src/fetch/download.c src/fetch/curl_dl.c \
	src/fetch/progress.c src/fetch/progress.h \
	src/fetch/extract.c src/fetch/install.c src/fetch/install.h \
	src/util/sha256.c src/util/sha256.h

check_PROGRAMS += tests/unit/test-fetch
tests_unit_test_fetch_SOURCES = tests/unit/test-fetch.c tests/unit/tap.h
tests_unit_test_fetch_LDADD = $(PTB_LIBS)

FETCH_TESTS = \
	tests/integration/t0601-fetch-local.sh \
	tests/integration/t0602-fetch-https.sh \
	tests/integration/t0603-fetch-faults.sh \
	tests/integration/t0604-hostile-archives.sh \
	tests/integration/t0605-fetch-interrupt.sh \
	tests/integration/t0606-fetch-plan.sh \
	tests/integration/t0607-fetch-cache.sh \
	tests/integration/t0608-fetch-preview.sh \
	tests/integration/t0609-fetch-stream.sh \
	tests/integration/t0620-fetch-progress.sh \
	tests/integration/t0621-fetch-unreachable.sh
TESTS += tests/unit/test-fetch $(FETCH_TESTS)
EXTRA_DIST += $(FETCH_TESTS) tests/fetch/lib.sh tests/fetch/faultserver.py \
	tests/fetch/mkarchives.py tests/fetch/manifest-bad.json \
	tests/fetch/redistrib_12.4.1.json tests/fetch/redistrib_13.4.2.json \
	tests/fetch/redistrib_9.13.0.json tests/fetch/onpty.py \
	bench/fetch-bench.sh doc/notes/fetch.md
