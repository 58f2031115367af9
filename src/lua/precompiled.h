/* precompiled.h - the shipped recipes, compiled at build time by ptb-luac
 * (tools/ptb-luac/luac.c) into the generated src/lua/precompiled.c.  The engine
 * loads a chunk from here when a recipe file's text is byte for byte its
 * source and the Lua library is the one that compiled it; anything else is
 * parsed from the text as before. */
#ifndef PTB_LUA_PRECOMPILED_H
#define PTB_LUA_PRECOMPILED_H

#include <stddef.h>

/* The source name each chunk is dumped with; the engine replaces it with
 * the file's path.  It sits at PTB_LUAC_NAME_OFFSET in a Lua 5.4 dump. */
#define PTB_LUAC_PLACEHOLDER "ptbuild-recipe"
#define PTB_LUAC_NAME_OFFSET 32

struct ptb_luac_chunk {
	const unsigned char *src;  /* the recipe text it was compiled from */
	size_t nsrc;
	const unsigned char *bc;   /* lua_dump output, debug info kept */
	size_t nbc;
	size_t name_len;           /* bytes of the encoded placeholder name */
};

extern const char ptb_luac_ident[];   /* lua_ident of the compiling Lua */
extern const size_t ptb_luac_nchunks;
extern const struct ptb_luac_chunk ptb_luac_chunks[];

/* A string's size as Lua 5.4's dump writes it (ldump.c dumpSize): 7-bit
 * groups, most significant first, 0x80 on the last byte.  Returns the
 * number of bytes written to out. */
static inline size_t ptb_luac_encode_size(size_t x, unsigned char out[16])
{
	unsigned char rev[16];
	size_t n = 0;

	do {
		rev[n++] = (unsigned char)(x & 0x7f);
		x >>= 7;
	} while (x != 0 && n < sizeof rev);
	for (size_t i = 0; i < n; i++)
		out[i] = rev[n - 1 - i];
	out[n - 1] |= 0x80;
	return n;
}

#endif
