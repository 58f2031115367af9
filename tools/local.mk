# tools/local.mk - build and maintainer tools.  ptb-luac compiles the
# shipped recipes into src/lua/precompiled.c while ptbuild is built; the
# gen-*.py scripts regenerate recipe tables from tools/data and upstream
# files (doc/maintainers.md says when).
if !PTB_CROSS
noinst_PROGRAMS = ptb-luac
ptb_luac_SOURCES = tools/ptb-luac/luac.c src/lua/precompiled.h
ptb_luac_LDADD = $(LUA_LIBS)
endif
EXTRA_DIST += tools/check-layers.sh tools/sourceids.py tools/gen-redist.py tools/gen-runfiles.py tools/gen-gpus.py tools/gen-profiles.py tools/gen-cpus.py \
	tools/data/gpus.csv tools/data/runfiles.csv
# NVIDIA's redistrib_<label>.json, byte-exact: gen-redist.py's input.
EXTRA_DIST += tools/data/redist
# funclen.py: the functions over 80 lines (issue #15 splits them).
EXTRA_DIST += tools/funclen.py
# archspec-diff.py: detect's microarchitecture against archspec's host().
EXTRA_DIST += tools/archspec-diff.py
