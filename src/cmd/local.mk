# src/cmd/local.mk - one file a command: reads options, calls the core,
# prints.  Shared pieces (engine start, --facts/--profile input) in common.c.
libptb_a_SOURCES += \
	src/cmd/cmds.h src/cmd/common.c src/cmd/common.h \
	src/cmd/arch.c src/cmd/detect.c src/cmd/plan.c src/cmd/profiles.c \
	src/cmd/generate.c src/cmd/fetch.c src/cmd/validate.c src/cmd/inspect.c \
	src/cmd/doctor.c src/cmd/gather.c
