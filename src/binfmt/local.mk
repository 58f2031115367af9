# src/binfmt/local.mk - binary formats: ELF sections, CUDA fat binaries.
libptb_a_SOURCES += \
	src/binfmt/elf.c src/binfmt/elf.h src/binfmt/fatbin.c src/binfmt/fatbin.h
