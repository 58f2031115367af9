# src/validate/local.mk - compile (and run) the test kernel, check the
# fat binary holds what was asked.
libptb_a_SOURCES += \
	src/validate/validate.c src/validate/validate.h src/validate/validate_cu.c
