/* elf.h - just enough ELF and ar to find the sections that hold CUDA fat
 * binaries.  Pure functions over a memory buffer: nothing is read, nothing
 * printed, every offset is checked against the buffer, counts are capped.
 *
 * Ownership: the arrays returned are malloc'd and freed by the caller; the
 * names in them point into the caller's buffer or are copies, as noted. */
#ifndef PTB_ELF_H
#define PTB_ELF_H

#include <stddef.h>
#include <stdint.h>

#include "util/util.h"

#define PTB_ELF_MAX_SECTIONS  (1u << 20)
#define PTB_AR_MAX_MEMBERS    (1u << 20)

struct ptb_elf_section {
	char name[64];       /* copied, truncated at 63 bytes */
	uint64_t offset;     /* in the buffer; offset + size <= len */
	uint64_t size;
	uint32_t type;       /* sh_type */
};

struct ptb_elf_info {
	int is64;
	uint16_t type;       /* e_type: 1 relocatable, 2 executable, 3 shared */
	uint16_t machine;    /* e_machine: 62 x86_64, 183 aarch64, 190 CUDA */
	uint32_t flags;      /* e_flags */
	uint8_t abiversion;  /* e_ident[EI_ABIVERSION] */
};

/* Whether buf starts like an ELF file / an ar archive. */
int ptb_elf_is_elf(const void *buf, size_t len);
int ptb_elf_is_ar(const void *buf, size_t len);

/* Read the ELF header.  0, or -1 with err (PTB_EIO) for a truncated or
 * unsupported header (only little-endian files are read). */
int ptb_elf_header(const void *buf, size_t len, struct ptb_elf_info *info,
                   struct ptb_err *err);

/* Every section with its name, bounds checked (SHT_NOBITS sections get
 * size 0).  *out is caller-freed; 0, or -1 with err. */
int ptb_elf_sections(const void *buf, size_t len, struct ptb_elf_section **out,
                     size_t *n, struct ptb_err *err);

struct ptb_ar_member {
	char name[64];       /* copied, truncated at 63 bytes */
	uint64_t offset;     /* of the member's data in the buffer */
	uint64_t size;
};

/* The regular members of an ar archive (the symbol and long-name tables
 * are skipped; GNU and BSD long names are resolved).  Thin archives are
 * refused.  *out is caller-freed; 0, or -1 with err. */
int ptb_ar_members(const void *buf, size_t len, struct ptb_ar_member **out,
                   size_t *n, struct ptb_err *err);

#endif
