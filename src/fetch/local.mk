# src/fetch/local.mk - downloads, verification, cache, extraction, install.
AM_CPPFLAGS += $(CRYPTO_CFLAGS)
libptb_a_SOURCES += \
	src/fetch/fetch.h src/fetch/manifest.c src/fetch/lock.c \
	src/fetch/plan_items.c src/fetch/download.c src/fetch/curl_dl.c \
	src/fetch/progress.c src/fetch/progress.h \
	src/fetch/extract.c src/fetch/install.c src/fetch/install.h
