/* fuzz_cache.c - the cache read path behind fetch: any bytes sitting in
 * the cache as an archive are unpacked (hashed on the way) into a sandbox.
 * Invariants: the hash ptb_extract reports is the sha256 of the whole
 * file, however early unpacking stopped (a damaged entry is told apart
 * from a hostile one by it); nothing resolves outside the root
 * (sandbox.h); ptb_fetch_verify accepts the file under its own hash and,
 * under any other, evicts it, marks it damaged and names it. */
#include "sandbox.h"

#include <stdint.h>

#include "util/sha256.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ptb_extract_limits lim = { 256, 4 << 20 };
	struct ptb_err err = { 0 };
	struct ptb_fetch_item it = { 0 };
	struct sandbox sb;
	char got[65], want[65];

	if (size > 1 << 18)
		return 0;
	sb_open(&sb, data, size);
	if (ptb_sha256_file(sb.archive, want, NULL) != 0)
		sb_die("sha256", sb.archive);
	ptb_extract(sb.archive, sb.root, "fz", &lim, got, &err);
	if (strcmp(got, want) != 0) {
		fprintf(stderr, "fuzz_cache: streamed sha256 %s, file's %s (%s)\n", got, want, err.msg);
		abort();
	}
	if (fchdir(sb.cwd) != 0)
		sb_die("fchdir", "back");
	it.name = "fz";
	it.path = sb.archive;
	memcpy(it.sha256, want, 65);
	if (ptb_fetch_verify(&it, &err) != 0 || it.damaged)
		sb_die("a file under its own hash refused", err.msg);
	it.sha256[size % 64] = it.sha256[size % 64] == '0' ? '1' : '0';
	if (ptb_fetch_verify(&it, &err) == 0 || !it.damaged || access(sb.archive, F_OK) == 0 ||
	    !strstr(err.msg, sb.archive) || !strstr(err.msg, want))
		sb_die("a file under another hash kept or not named", err.msg);
	/* sb_close expects the archive beside the root. */
	{
		FILE *f = fopen(sb.archive, "w");
		if (!f || fclose(f) != 0)
			sb_die("recreate", sb.archive);
	}
	sb_close(&sb);
	return 0;
}
