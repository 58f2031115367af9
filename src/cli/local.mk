# src/cli/local.mk - the command line: main, option parsing, dispatch.
libptb_a_SOURCES += src/cli/cli.c src/cli/cli.h \
	src/cli/options.c src/cli/options.h src/cli/manpage.c src/cli/complete.c
