/* elf.c - ELF section tables and ar members over a memory buffer.  Every
 * read goes through rd*() with an explicit bound: the input may be a
 * truncated download or a hostile file. */
#include "binfmt/elf.h"

#include <stdlib.h>
#include <string.h>

static uint16_t rd16(const unsigned char *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static uint32_t rd32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

static uint64_t rd64(const unsigned char *p)
{
	return (uint64_t)rd32(p) | (uint64_t)rd32(p + 4) << 32;
}

/* off + n fits in len, without overflow. */
static int fits(uint64_t off, uint64_t n, size_t len)
{
	return off <= len && n <= len - off;
}

int ptb_elf_is_elf(const void *buf, size_t len)
{
	return len >= 4 && memcmp(buf, "\177ELF", 4) == 0;
}

int ptb_elf_is_ar(const void *buf, size_t len)
{
	return len >= 8 && (memcmp(buf, "!<arch>\n", 8) == 0 ||
	                    memcmp(buf, "!<thin>\n", 8) == 0);
}

int ptb_elf_header(const void *buf, size_t len, struct ptb_elf_info *info,
                   struct ptb_err *err)
{
	const unsigned char *p = buf;

	memset(info, 0, sizeof *info);
	if (!ptb_elf_is_elf(buf, len) || len < 52) {
		ptb_err_set(err, PTB_EIO, "not an ELF file or truncated ELF header");
		return -1;
	}
	if (p[4] != 1 && p[4] != 2) {
		ptb_err_set(err, PTB_EIO, "bad ELF class %u", p[4]);
		return -1;
	}
	if (p[5] != 1) {
		ptb_err_set(err, PTB_EIO, "big-endian ELF files are not supported");
		return -1;
	}
	info->is64 = p[4] == 2;
	if (info->is64 && len < 64) {
		ptb_err_set(err, PTB_EIO, "truncated ELF header");
		return -1;
	}
	info->abiversion = p[8];
	info->type = rd16(p + 16);
	info->machine = rd16(p + 18);
	info->flags = rd32(p + (info->is64 ? 48 : 36));
	return 0;
}

/* Where the section headers and their name table lie. */
struct shtab {
	int is64;
	uint64_t shoff, shnum, shentsize, shstrndx;
	uint64_t stroff, strsize;   /* the name table; 0, 0 without one */
};

/* Find the section header table of the ELF file and its name table, and
 * check both lie inside the file.  1 when found, 0 when the file has
 * none, -1 with err set. */
static int section_table(const unsigned char *p, size_t len, struct shtab *t, struct ptb_err *err)
{
	struct ptb_elf_info info;

	if (ptb_elf_header(p, len, &info, err) != 0)
		return -1;
	t->is64 = info.is64;
	if (info.is64) {
		t->shoff = rd64(p + 40);
		t->shentsize = rd16(p + 58);
		t->shnum = rd16(p + 60);
		t->shstrndx = rd16(p + 62);
	} else {
		t->shoff = rd32(p + 32);
		t->shentsize = rd16(p + 46);
		t->shnum = rd16(p + 48);
		t->shstrndx = rd16(p + 50);
	}
	if (t->shoff == 0)
		return 0;  /* no section table: nothing to find */
	if (t->shentsize < (info.is64 ? 64u : 40u)) {
		ptb_err_set(err, PTB_EIO, "bad ELF section header size %u",
		            (unsigned)t->shentsize);
		return -1;
	}
	if (!fits(t->shoff, t->shentsize, len)) {
		ptb_err_set(err, PTB_EIO, "ELF section table at offset %llu lies past the end of the file (%zu bytes): truncated?",
		            (unsigned long long)t->shoff, len);
		return -1;
	}
	/* More than 0xff00 sections: the real count and string table index
	 * live in section 0. */
	if (t->shnum == 0)
		t->shnum = info.is64 ? rd64(p + t->shoff + 32) : rd32(p + t->shoff + 20);
	if (t->shstrndx == 0xffff)
		t->shstrndx = rd32(p + t->shoff + (info.is64 ? 40 : 24));
	if (t->shnum > PTB_ELF_MAX_SECTIONS || !fits(t->shoff, t->shnum * t->shentsize, len)) {
		ptb_err_set(err, PTB_EIO, "ELF section table (%llu entries at offset %llu) does not fit in the file (%zu bytes): truncated?",
		            (unsigned long long)t->shnum, (unsigned long long)t->shoff, len);
		return -1;
	}
	t->stroff = t->strsize = 0;
	if (t->shstrndx < t->shnum) {
		const unsigned char *s = p + t->shoff + t->shstrndx * t->shentsize;

		t->stroff = info.is64 ? rd64(s + 24) : rd32(s + 16);
		t->strsize = info.is64 ? rd64(s + 32) : rd32(s + 20);
		if (!fits(t->stroff, t->strsize, len)) {
			ptb_err_set(err, PTB_EIO, "ELF section name table lies past the end of the file: truncated?");
			return -1;
		}
	}
	return 1;
}

/* Read section header i into *sec: its type, where its contents lie
 * (none for SHT_NOBITS) and its name, cut to fit.  0, or -1 with err set
 * when its contents lie past the end of the file. */
static int read_section(const unsigned char *p, size_t len, const struct shtab *t,
                        uint64_t i, struct ptb_elf_section *sec, struct ptb_err *err)
{
	const unsigned char *s = p + t->shoff + i * t->shentsize;
	uint32_t name = rd32(s);

	sec->type = rd32(s + 4);
	sec->offset = t->is64 ? rd64(s + 24) : rd32(s + 16);
	sec->size = t->is64 ? rd64(s + 32) : rd32(s + 20);
	if (sec->type == 8 /* SHT_NOBITS */ || sec->type == 0)
		sec->size = 0;
	if (sec->size && !fits(sec->offset, sec->size, len)) {
		ptb_err_set(err, PTB_EIO, "ELF section %llu (offset %llu, %llu bytes) lies past the end of the file (%zu bytes): truncated?",
		            (unsigned long long)i,
		            (unsigned long long)sec->offset,
		            (unsigned long long)sec->size, len);
		return -1;
	}
	if (name < t->strsize) {
		const char *nm = (const char *)p + t->stroff + name;
		size_t max = t->strsize - name, k = 0;

		while (k < max && k < sizeof sec->name - 1 && nm[k]) {
			sec->name[k] = nm[k];
			k++;
		}
		sec->name[k] = '\0';
	}
	return 0;
}

int ptb_elf_sections(const void *buf, size_t len, struct ptb_elf_section **out,
                     size_t *n, struct ptb_err *err)
{
	const unsigned char *p = buf;
	struct shtab t;
	struct ptb_elf_section *secs;
	int r;

	*out = NULL;
	*n = 0;
	if ((r = section_table(p, len, &t, err)) <= 0)
		return r;
	secs = ptb_xcalloc(t.shnum ? t.shnum : 1, sizeof *secs);
	for (uint64_t i = 0; i < t.shnum; i++) {
		if (read_section(p, len, &t, i, &secs[i], err) != 0) {
			free(secs);
			return -1;
		}
	}
	*out = secs;
	*n = t.shnum;
	return 0;
}

/* A decimal field of an ar header, space-padded. */
static int ar_num(const unsigned char *f, size_t w, uint64_t *v)
{
	size_t i = 0;

	*v = 0;
	while (i < w && f[i] == ' ')
		i++;
	if (i == w || f[i] < '0' || f[i] > '9')
		return -1;
	for (; i < w && f[i] >= '0' && f[i] <= '9'; i++) {
		if (*v > (UINT64_MAX - 9) / 10)
			return -1;
		*v = *v * 10 + (uint64_t)(f[i] - '0');
	}
	for (; i < w; i++)
		if (f[i] != ' ')
			return -1;
	return 0;
}

static void copy_name(char *dst, size_t cap, const unsigned char *src, size_t n)
{
	size_t k;

	for (k = 0; k < n && k < cap - 1 && src[k] && src[k] != '\n'; k++)
		dst[k] = (char)src[k];
	/* GNU names end with '/'. */
	if (k > 0 && dst[k - 1] == '/')
		k--;
	dst[k] = '\0';
}

/* The long-name table ("//") of an ar archive, once seen. */
struct ar_names {
	const unsigned char *at;
	uint64_t len;
};

/* The name of the member whose header is h and whose data starts at
 * *data (*size bytes): a GNU long name ("/123"), a BSD name inside the
 * data ("#1/20", which *data and *size then step over), or the header's
 * own.  0 with name set, or -1 with err set. */
static int member_name(const unsigned char *p, const unsigned char *h, const struct ar_names *names,
                       uint64_t *data, uint64_t *size, char name[64], struct ptb_err *err)
{
	if (h[0] == '/' && h[1] >= '0' && h[1] <= '9') {
		uint64_t off;

		if (ar_num(h + 1, 15, &off) != 0 || !names->at || off >= names->len) {
			ptb_err_set(err, PTB_EIO, "ar member at offset %llu names a missing long-name entry",
			            (unsigned long long)(*data - 60));
			return -1;
		}
		copy_name(name, 64, names->at + off, names->len - off);
	} else if (memcmp(h, "#1/", 3) == 0) {
		uint64_t nl;

		/* BSD: the name follows the header, inside the data. */
		if (ar_num(h + 3, 13, &nl) != 0 || nl > *size) {
			ptb_err_set(err, PTB_EIO, "ar member at offset %llu has a bad BSD name length",
			            (unsigned long long)(*data - 60));
			return -1;
		}
		copy_name(name, 64, p + *data, nl);
		*data += nl;
		*size -= nl;
	} else {
		size_t k = 16;

		while (k > 0 && h[k - 1] == ' ')
			k--;
		copy_name(name, 64, h, k);
	}
	return 0;
}

/* Read the header of the member at pos: its data's offset and size.
 * 0, or -1 with err set when it is damaged or runs past the end. */
static int member_header(const unsigned char *p, size_t len, uint64_t pos,
                         uint64_t *data, uint64_t *size, struct ptb_err *err)
{
	if (!fits(pos, 60, len) || p[pos + 58] != '`' || p[pos + 59] != '\n') {
		ptb_err_set(err, PTB_EIO, "bad or truncated ar member header at offset %llu",
		            (unsigned long long)pos);
		return -1;
	}
	if (ar_num(p + pos + 48, 10, size) != 0 || !fits(pos + 60, *size, len)) {
		ptb_err_set(err, PTB_EIO, "ar member at offset %llu has a bad size or runs past the end of the file: truncated?",
		            (unsigned long long)pos);
		return -1;
	}
	*data = pos + 60;
	return 0;
}

int ptb_ar_members(const void *buf, size_t len, struct ptb_ar_member **out,
                   size_t *n, struct ptb_err *err)
{
	const unsigned char *p = buf;
	struct ar_names names = { 0 };
	uint64_t pos = 8;
	struct ptb_ar_member *m = NULL;
	size_t cap = 0, cnt = 0;

	*out = NULL;
	*n = 0;
	if (len >= 8 && memcmp(p, "!<thin>\n", 8) == 0) {
		ptb_err_set(err, PTB_EIO, "thin ar archives (members kept outside the archive) are not supported");
		return -1;
	}
	if (len < 8 || memcmp(p, "!<arch>\n", 8) != 0) {
		ptb_err_set(err, PTB_EIO, "not an ar archive");
		return -1;
	}
	while (pos < len) {
		const unsigned char *h = p + pos;
		uint64_t size, data;
		char name[64];

		if (len - pos == 1 && p[pos] == '\n')
			break;  /* padding after the last member */
		if (member_header(p, len, pos, &data, &size, err) != 0)
			goto fail;
		pos = data + size + (size & 1);
		if (h[0] == '/' && (h[1] == ' ' || memcmp(h, "/SYM64/ ", 8) == 0))
			continue;  /* symbol table */
		if (h[0] == '/' && h[1] == '/') {
			names.at = p + data;
			names.len = size;
			continue;
		}
		if (member_name(p, h, &names, &data, &size, name, err) != 0)
			goto fail;
		if (cnt >= PTB_AR_MAX_MEMBERS) {
			ptb_err_set(err, PTB_EIO, "ar archive has more than %u members", PTB_AR_MAX_MEMBERS);
			goto fail;
		}
		if (cnt == cap) {
			cap = cap ? cap * 2 : 16;
			m = ptb_xrealloc(m, cap * sizeof *m);
		}
		memcpy(m[cnt].name, name, sizeof name);
		m[cnt].offset = data;
		m[cnt].size = size;
		cnt++;
	}
	*out = m;
	*n = cnt;
	return 0;
fail:
	free(m);
	return -1;
}
