# src/local.mk - the library every program and test links.
libptb_a_SOURCES += \
	src/cli.c src/cli.h \
	src/cmd/cmds.h src/cmd/common.c src/cmd/common.h \
	src/cmd/arch.c \
	src/facts.c src/facts.h \
	src/detect/detect.c src/detect/detect.h \
	src/lua/engine.c src/lua/engine.h src/lua/convert.c src/lua/convert.h \
	src/util/util.c src/util/util.h src/util/fs.c \
	src/util/log.c src/util/log.h src/util/json.c src/util/json.h \
	src/util/archive_dl.c src/util/archive_dl.h src/util/dl.c src/util/dl.h

# The shipped recipes, compiled at build time (src/lua/luac.c): the engine
# loads these instead of parsing a recipe whose text is unchanged.  When
# cross-compiling ptb-luac cannot run here, and the table is left empty.
nodist_libptb_a_SOURCES = src/lua/precompiled.c
BUILT_SOURCES = src/lua/precompiled.c
CLEANFILES += src/lua/precompiled.c
libptb_a_SOURCES += src/lua/precompiled.h
if PTB_CROSS
src/lua/precompiled.c:
	$(AM_V_GEN)$(MKDIR_P) src/lua && \
	printf '%s\n' '#include "lua/precompiled.h"' 'const char ptb_luac_ident[] = "";' \
	  'const size_t ptb_luac_nchunks = 0;' \
	  'const struct ptb_luac_chunk ptb_luac_chunks[1] = { { 0 } };' >$@
else
noinst_PROGRAMS = ptb-luac
ptb_luac_SOURCES = src/lua/luac.c src/lua/precompiled.h
ptb_luac_LDADD = $(LUA_LIBS)
# (ptb-luac keeps the recipes/*.lua among the installed data files)
src/lua/precompiled.c: ptb-luac$(EXEEXT) $(nobase_dist_pkgdata_DATA)
	$(AM_V_GEN)$(MKDIR_P) src/lua && \
	./ptb-luac$(EXEEXT) $@ $(srcdir) $(nobase_dist_pkgdata_DATA)
endif
