# src/doctor/local.mk - doctor's view of an existing setup.
libptb_a_SOURCES += src/doctor/probe.c src/doctor/probe.h
