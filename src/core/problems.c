/* problems.c - count and show problems and findings, one format each. */
#include "core/problems.h"

#include <stdlib.h>
#include <string.h>

#include "util/util.h"
#include "util/json.h"

static int is_error(const cJSON *problem)
{
	const char *sev = ptb_json_str(problem, "severity");

	return sev && strcmp(sev, "error") == 0;
}

int ptb_problems_count(const cJSON *problems, const char *sev)
{
	const cJSON *it;
	int n = 0;

	cJSON_ArrayForEach(it, problems) {
		const char *s = ptb_json_str(it, "severity");

		n += s && strcmp(s, sev) == 0;
	}
	return n;
}

void ptb_problem_print(FILE *f, const cJSON *it, const struct ptb_paint *p)
{
	const char *sev = ptb_json_str(it, "severity"), *node = ptb_json_str(it, "node");

	fprintf(f, "  %s%s%s [%s]%s%s%s %s\n", is_error(it) ? p->red : p->yellow, sev, p->off,
	        ptb_json_str(it, "code"), node ? " (" : "", node ? node : "", node ? ")" : "",
	        ptb_json_str(it, "message"));
	fprintf(f, "    fix: %s\n", ptb_json_str(it, "fix"));
}

void ptb_problems_print(FILE *f, const cJSON *problems, const struct ptb_paint *p)
{
	const cJSON *it;

	cJSON_ArrayForEach(it, problems)
		ptb_problem_print(f, it, p);
}

void ptb_finding_print(FILE *f, const cJSON *it, const struct ptb_paint *p)
{
	int err = is_error(it);

	fprintf(f, "\n%s%s%s [%s] %s\n", err ? p->bold_red : p->bold_yellow, err ? "error" : "warning",
	        p->off, ptb_json_str(it, "code"), ptb_json_str(it, "message"));
	if (ptb_json_str(it, "seen"))
		fprintf(f, "  seen: %s\n", ptb_json_str(it, "seen"));
	if (ptb_json_str(it, "fix"))
		fprintf(f, "  fix:  %s\n", ptb_json_str(it, "fix"));
}

int ptb_problems_log(const cJSON *problems, const char *where, int errors_only_warn)
{
	const cJSON *it;
	int errors = 0;

	cJSON_ArrayForEach(it, problems) {
		const char *msg = ptb_json_str(it, "message"), *fix = ptb_json_str(it, "fix");
		const char *code = ptb_json_str(it, "code"), *node = ptb_json_str(it, "node");
		char *line = ptb_xasprintf("plan%s%s: %s [%s]%s%s%s", where ? " " : "", where ? where : "",
		                           msg ? msg : "?", code ? code : "?", node ? " (node " : "",
		                           node ? node : "", node ? ")" : "");

		errors += is_error(it);
		if (is_error(it) && !errors_only_warn)
			ptb_error("%s", line);
		else
			ptb_warn("%s", line);
		free(line);
		if (fix)
			ptb_hint("%s", fix);
	}
	return errors;
}

char *ptb_problems_join_codes(const cJSON *problems, const char *sev)
{
	struct ptb_buf b;
	const cJSON *it;

	ptb_buf_init(&b);
	cJSON_ArrayForEach(it, problems) {
		const char *s = ptb_json_str(it, "severity"), *code = ptb_json_str(it, "code");
		const cJSON *seen;
		int dup = 0;

		if (!s || strcmp(s, sev) != 0 || !code)
			continue;
		/* each code once: an earlier problem of the same code names it */
		for (seen = problems->child; seen != it && !dup; seen = seen->next) {
			const char *ss = ptb_json_str(seen, "severity"), *sc = ptb_json_str(seen, "code");

			dup = ss && sc && strcmp(ss, sev) == 0 && strcmp(sc, code) == 0;
		}
		if (!dup)
			ptb_buf_printf(&b, "%s%s", b.len ? ", " : "", code);
	}
	if (!b.len) {
		ptb_buf_free(&b);
		return NULL;
	}
	return ptb_buf_detach(&b);
}
