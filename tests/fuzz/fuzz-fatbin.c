/* fuzz-fatbin.c - libFuzzer target for the ELF / ar / fat binary reader.
 * Not built by make; from the top of a configured tree:
 *
 *   clang -g -O1 -fsanitize=fuzzer,address,undefined -I. -Isrc \
 *     tests/fuzz/fuzz-fatbin.c src/fatbin.c src/elf.c src/util/util.c \
 *     src/util/fs.c -larchive -o fuzz-fatbin
 *   ./fuzz-fatbin CORPUS_DIR    # seed it with objects nvcc builds
 *
 * The oracle is the sanitizers: any input must give 0 or -1, never a bad
 * read, an overflow or an unbounded allocation. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fatbin.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ptb_cuda_scan s;
	struct ptb_err err = { 0 };

	memset(&s, 0, sizeof s);
	s.decode = 2;  /* decompress everything: the decoders are fuzzed too */
	ptb_cuda_scan_buffer(data, size, &s, &err);
	ptb_cuda_scan_free(&s);
	return 0;
}
