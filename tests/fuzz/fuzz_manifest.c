/* fuzz_manifest.c - the NVIDIA redist manifest reader behind fetch: any
 * document is selected from or refused with a message naming the manifest;
 * every item selected has a name, a URL under the base and a 64-digit
 * sha256.  The input is JSON; the first byte picks the platform. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fetch/fetch.h"
#include "util/json.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const plats[] = { "linux-x86_64", "linux-sbsa", "linux-aarch64", "source" };
	static const char *const comps[] = { "cuda_nvcc", "cudnn", "cuda_cccl" };
	struct ptb_err err = { 0 };
	const char *base = "https://mirror.invalid/redist/";

	if (size < 1 || size > 1 << 20)
		return 0;
	cJSON *m = ptb_json_parse((const char *)data + 1, size - 1, "fuzz.json", &err);
	if (!m)
		return 0;
	for (int pick = 0; pick < 2; pick++) {
		struct ptb_manifest_sel sel = { plats[data[0] % 4], pick ? comps : NULL, pick ? 3 : 0,
		                                (data[0] & 4) ? "cuda12" : NULL, (data[0] & 8) ? "12.8" : NULL };
		struct ptb_fetch_list l = { 0 };

		if (ptb_manifest_select(m, "fuzz.json", base, &sel, &l, &err) != 0) {
			if (!strstr(err.msg, "fuzz.json") && !strstr(err.msg, "component")) {
				fprintf(stderr, "fuzz_manifest: refusal names neither manifest nor component: %s\n", err.msg);
				abort();
			}
		} else {
			for (size_t i = 0; i < l.n; i++) {
				const struct ptb_fetch_item *it = &l.items[i];
				if (!it->name || !it->url || strncmp(it->url, base, strlen(base)) != 0 ||
				    !ptb_fetch_is_sha256(it->sha256)) {
					fprintf(stderr, "fuzz_manifest: bad item %zu: %s %s\n", i,
					        it->name ? it->name : "(null)", it->url ? it->url : "(null)");
					abort();
				}
			}
		}
		ptb_fetch_list_free(&l);
	}
	cJSON_Delete(m);
	return 0;
}
