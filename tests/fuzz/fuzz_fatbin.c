/* fuzz_fatbin.c - the ELF / ar / fat binary reader behind inspect,
 * validate and doctor.  The oracle is the sanitizers: any input must give
 * 0 or -1, never a bad read, an overflow or an unbounded allocation.
 * tests/fuzz/run.sh fuzzes it; make check replays its corpus. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "binfmt/fatbin.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ptb_cuda_scan s;
	struct ptb_err err = { 0 };

	/* 2: decompress everything, the decoders are fuzzed too; 1: what
	 * inspect does, PTX heads only (the LZ4 and zstd early stops) */
	for (int decode = 2; decode >= 1; decode--) {
		memset(&s, 0, sizeof s);
		s.decode = decode;
		ptb_cuda_scan_buffer(data, size, &s, &err);
		ptb_cuda_scan_free(&s);
	}
	return 0;
}
