# src/lua/local.mk - the Lua engine: sandbox, C <-> Lua conversion, and
# the shipped recipes precompiled at build time by tools/ptb-luac: the
# engine loads these instead of parsing a recipe whose text is unchanged.
# When cross-compiling ptb-luac cannot run here, and the table is empty.
libptb_a_SOURCES += \
	src/lua/engine.c src/lua/engine.h src/lua/convert.c src/lua/convert.h \
	src/lua/recipe.c src/lua/recipe.h \
	src/lua/precompiled.h
nodist_libptb_a_SOURCES = src/lua/precompiled.c
BUILT_SOURCES = src/lua/precompiled.c
CLEANFILES += src/lua/precompiled.c
if PTB_CROSS
src/lua/precompiled.c:
	$(AM_V_GEN)$(MKDIR_P) src/lua && \
	printf '%s\n' '#include "lua/precompiled.h"' 'const char ptb_luac_ident[] = "";' \
	  'const size_t ptb_luac_nchunks = 0;' \
	  'const struct ptb_luac_chunk ptb_luac_chunks[1] = { { 0 } };' >$@
else
# (ptb-luac keeps the recipes/*.lua among the installed data files)
src/lua/precompiled.c: ptb-luac$(EXEEXT) $(nobase_dist_pkgdata_DATA)
	$(AM_V_GEN)$(MKDIR_P) src/lua && \
	./ptb-luac$(EXEEXT) $@ $(srcdir) $(nobase_dist_pkgdata_DATA)
endif
