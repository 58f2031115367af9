# tests/fuzz/local.mk - the fuzz targets, replayed over their seed corpus
# and every past crash (tests/fuzz/regress) by make check with gcc.
# tests/fuzz/run.sh runs them under libFuzzer.
check_PROGRAMS += tests/fuzz/replay-facts tests/fuzz/replay-arch tests/fuzz/replay-detect \
	tests/fuzz/replay-fatbin tests/fuzz/replay-render tests/fuzz/replay-envwriter \
	tests/fuzz/replay-manifest tests/fuzz/replay-extract tests/fuzz/replay-cache \
	tests/fuzz/replay-elfstrings tests/fuzz/replay-source
tests_fuzz_replay_facts_SOURCES = tests/fuzz/fuzz_facts.c tests/fuzz/standalone.c
tests_fuzz_replay_facts_LDADD = $(PTB_LIBS)
tests_fuzz_replay_arch_SOURCES = tests/fuzz/fuzz_arch.c tests/fuzz/standalone.c
tests_fuzz_replay_arch_LDADD = $(PTB_LIBS)
tests_fuzz_replay_detect_SOURCES = tests/fuzz/fuzz_detect.c tests/fuzz/standalone.c
tests_fuzz_replay_detect_LDADD = $(PTB_LIBS)
tests_fuzz_replay_fatbin_SOURCES = tests/fuzz/fuzz_fatbin.c tests/fuzz/standalone.c
tests_fuzz_replay_fatbin_LDADD = $(PTB_LIBS)
tests_fuzz_replay_render_SOURCES = tests/fuzz/fuzz_render.c tests/fuzz/standalone.c
tests_fuzz_replay_render_LDADD = $(PTB_LIBS)
tests_fuzz_replay_envwriter_SOURCES = tests/fuzz/fuzz_envwriter.c tests/fuzz/standalone.c
tests_fuzz_replay_envwriter_LDADD = $(PTB_LIBS)
tests_fuzz_replay_manifest_SOURCES = tests/fuzz/fuzz_manifest.c tests/fuzz/standalone.c
tests_fuzz_replay_manifest_LDADD = $(PTB_LIBS)
tests_fuzz_replay_extract_SOURCES = tests/fuzz/fuzz_extract.c tests/fuzz/standalone.c tests/fuzz/sandbox.h
tests_fuzz_replay_extract_LDADD = $(PTB_LIBS)
tests_fuzz_replay_cache_SOURCES = tests/fuzz/fuzz_cache.c tests/fuzz/standalone.c tests/fuzz/sandbox.h
tests_fuzz_replay_cache_LDADD = $(PTB_LIBS)
tests_fuzz_replay_elfstrings_SOURCES = tests/fuzz/fuzz_elfstrings.c tests/fuzz/standalone.c
tests_fuzz_replay_elfstrings_LDADD = $(PTB_LIBS)
tests_fuzz_replay_source_SOURCES = tests/fuzz/fuzz_source.c tests/fuzz/standalone.c
tests_fuzz_replay_source_LDADD = $(PTB_LIBS)
TESTS += tests/integration/t0200-fuzz-replay.sh tests/integration/t0201-valgrind.sh \
	tests/integration/t0210-recipe-contracts.sh
EXTRA_DIST += tests/fuzz/run.sh tests/integration/t0200-fuzz-replay.sh \
	tests/integration/t0201-valgrind.sh tests/integration/t0210-recipe-contracts.sh \
	tests/fuzz/corpus tests/fuzz/regress tests/fuzz/detect-base.json tests/fuzz/plan_fuzz.py
