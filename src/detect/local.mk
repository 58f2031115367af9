# src/detect/local.mk - the probes: everything that observes a machine
# (files under a root, driver libraries, tools it runs).
libptb_a_SOURCES += \
	src/detect/detect.c src/detect/detect.h \
	src/detect/root.c src/detect/root.h src/detect/probe.h \
	src/detect/probe_host.c src/detect/probe_gpu.c src/detect/probe_cuda.c \
	src/detect/probe_tools.c src/detect/probe_env.c
