/* fuzz_facts.c - the facts loader: JSON parsing and the facts contract
 * check, on arbitrary bytes.  Must never crash; every rejection must come
 * with a message that names the input. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "detect/facts.h"
#include "util/json.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ptb_err err = { 0 };
	cJSON *j = ptb_json_parse((const char *)data, size, "fuzz.json", &err);

	if (!j) {
		if (!strstr(err.msg, "fuzz.json"))
			abort();
		return 0;
	}
	if (ptb_facts_validate(j, "fuzz.json", &err) != 0 && !strstr(err.msg, "fuzz.json"))
		abort();
	/* The printer must round-trip what the parser accepted. */
	struct ptb_buf b;
	ptb_buf_init(&b);
	ptb_json_print(j, 1, &b);
	cJSON *k = ptb_json_parse(b.data, b.len, "reprint", &err);
	if (!k)
		abort();
	cJSON_Delete(k);
	ptb_buf_free(&b);
	cJSON_Delete(j);
	return 0;
}
