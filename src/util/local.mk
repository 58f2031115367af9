# src/util/local.mk - the lowest layer: strings, files, JSON, logging,
# sha256, libraries opened on first use, child processes.
libptb_a_SOURCES += \
	src/util/util.c src/util/util.h src/util/fs.c \
	src/util/log.c src/util/log.h src/util/json.c src/util/json.h \
	src/util/archive_dl.c src/util/archive_dl.h src/util/dl.c src/util/dl.h \
	src/util/sha256.c src/util/sha256.h src/util/run.c src/util/run.h
libptb_a_SOURCES += src/util/suggest.c src/util/suggest.h
