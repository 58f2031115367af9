# src/generate/local.mk - the template renderer and its filters.
libptb_a_SOURCES += src/generate/render.c src/generate/render.h
