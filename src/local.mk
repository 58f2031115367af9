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
	src/util/archive_dl.c src/util/archive_dl.h
