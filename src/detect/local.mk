# src/detect/local.mk - observation: everything that looks at a machine
# (files under a root, driver libraries, the tools it runs), and the
# facts document it writes and every other layer reads (facts.c: load,
# form check, profiles).
libptb_a_SOURCES += \
	src/detect/facts.c src/detect/facts.h \
	src/detect/detect.c src/detect/detect.h \
	src/detect/root.c src/detect/root.h src/detect/probe.h \
	src/detect/probe_host.c src/detect/probe_gpu.c src/detect/probe_cuda.c \
	src/detect/probe_tools.c src/detect/probe_env.c src/detect/probe_source.c \
	src/detect/gpulist.c
