/* plan.c - `ptbuild plan`: the decisions for a PyTorch + CUDA build and
 * every problem found before it starts. */
#include "cmd/cmds.h"
#include "cmd/common.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "plan.h"
#include "util/json.h"

const struct ptb_cmd ptb_cmd_plan_def = {
	"plan", ptb_cmd_plan,
	"decide the CUDA toolkit, arch list, BLAS, environment and CMake flags",
	"ptbuild plan [--facts FILE | --profile NAME] [--torch VER] [--cuda VER]\n"
	"                    [--arch-list LIST] [--max-jobs N] [--diff OLD.json] [--json]",
	PTB_PLAN_HELP
	"  --json            print the plan document (ptbuild.plan/1)\n"
	"  --diff OLD.json   say what changed from a saved plan to this one,\n"
	"                    decision by decision (with --json: a\n"
	"                    ptbuild.plan-diff/1 document); exit 0 either way\n"
	"                    unless this plan has errors\n"
	"\n"
	"Without --facts or --profile the plan is for this machine.  Exit status 1\n"
	"when a problem is an error: the build would fail; each problem says how\n"
	"to fix it.\n"
	"\n"
	"Examples:\n"
	"  ptbuild plan --profile gh200\n"
	"  ptbuild plan --profile rtx4090-workstation --torch 2.8 --json\n"
	"  ptbuild plan --diff last-month.plan.json\n",
};

struct opts {
	struct ptb_plan_opts plan;
	int json;
	const char *diff;
};

static int handle(void *state, int c, const char *arg)
{
	struct opts *o = state;
	int r = ptb_plan_opt(&o->plan, "plan", c, arg);

	if (r == 1)
		return 0;
	if (r < 0)
		return PTB_EUSAGE;
	if (c == 'j') {
		o->json = 1;
		return 0;
	}
	if (c == 'd') {
		o->diff = arg;
		return 0;
	}
	return PTB_EUSAGE;
}

static void print_prepend(const cJSON *plan, const char *var)
{
	const cJSON *d;
	char key[64];

	snprintf(key, sizeof key, "path_prepend.%s", var);
	printf("  %s=", var);
	cJSON_ArrayForEach(d, ptb_json_get(plan, key))
		if (cJSON_IsString(d))
			printf("%s:", d->valuestring);
	printf("$%s\n", var);
}

/* The first question before a multi-hour build: would a wheel do? */
static void print_wheel(const cJSON *plan, const char *bold, const char *off)
{
	const cJSON *w = cJSON_GetObjectItemCaseSensitive(plan, "wheel"), *c = cJSON_GetObjectItemCaseSensitive(w, "covered");
	const cJSON *a;

	if (!cJSON_IsObject(w))
		return;
	if (cJSON_IsTrue(c))
		printf("%sA wheel covers this machine%s: %s\n", bold, off, ptb_json_str(w, "command"));
	else if (cJSON_IsFalse(c))
		printf("%sNo official wheel covers this machine%s: a source build is needed\n", bold, off);
	else
		printf("%sA wheel may do%s: %s\n", bold, off, ptb_json_str(w, "command") ? ptb_json_str(w, "command") : "?");
	if (ptb_json_str(w, "why"))
		printf("  %s\n", ptb_json_str(w, "why"));
	if (cJSON_IsTrue(c)) {
		printf("  a source build adds:");
		cJSON_ArrayForEach(a, cJSON_GetObjectItemCaseSensitive(w, "source_build_adds"))
			printf("%s %s", a == cJSON_GetObjectItemCaseSensitive(w, "source_build_adds")->child ? "" : ";",
			       cJSON_IsString(a) ? a->valuestring : "");
		printf("\n");
	}
	printf("\n");
}

static void print_summary(const cJSON *plan)
{
	const cJSON *it;
	int color = ptb_log_color(STDOUT_FILENO);
	const char *bold = color ? "\033[1m" : "", *red = color ? "\033[31m" : "";
	const char *yellow = color ? "\033[33m" : "", *off = color ? "\033[0m" : "";

	printf("%sPlan%s for %s\n\n", bold, off, ptb_json_str(plan, "facts_source"));
	print_wheel(plan, bold, off);
	cJSON_ArrayForEach(it, cJSON_GetObjectItemCaseSensitive(plan, "decisions")) {
		const char *topic = ptb_json_str(it, "topic");
		const char *choice = ptb_json_str(it, "choice");
		const char *why = ptb_json_str(it, "why");

		if (topic && strcmp(topic, "wheel") == 0)
			continue;       /* said first, above */
		printf("  %-14s %s\n", topic ? topic : "?", choice ? choice : "");
		if (why && *why)
			printf("  %-14s   %s\n", "", why);
	}
	printf("\n%sEnvironment%s (in this order)\n", bold, off);
	cJSON_ArrayForEach(it, cJSON_GetObjectItemCaseSensitive(plan, "env"))
		printf("  %s=%s\n", it->string, it->valuestring);
	print_prepend(plan, "PATH");
	print_prepend(plan, "LD_LIBRARY_PATH");
	printf("\n%sCMake%s\n", bold, off);
	cJSON_ArrayForEach(it, cJSON_GetObjectItemCaseSensitive(plan, "cmake"))
		printf("  -D%s=%s\n", it->string, it->valuestring);

	const cJSON *problems = cJSON_GetObjectItemCaseSensitive(plan, "problems");
	int n = cJSON_GetArraySize(problems);
	printf("\n%sProblems%s:%s\n", bold, off, n ? "" : " none");
	cJSON_ArrayForEach(it, problems) {
		const char *sev = ptb_json_str(it, "severity");
		int error = sev && strcmp(sev, "error") == 0;

		printf("  %s%s%s [%s] %s\n", error ? red : yellow, sev, off,
		       ptb_json_str(it, "code"), ptb_json_str(it, "message"));
		printf("    fix: %s\n", ptb_json_str(it, "fix"));
	}
}

static void print_value(const char *label, const char *v)
{
	printf("    %-5s %s\n", label, v ? v : "(none)");
}

static void print_diff(const cJSON *d)
{
	const cJSON *it;
	int color = ptb_log_color(STDOUT_FILENO);
	const char *bold = color ? "\033[1m" : "", *off = color ? "\033[0m" : "";
	static const char *const lists[] = { "env", "cmake" };

	printf("%sChanges%s from %s to %s\n", bold, off, ptb_json_str(d, "was"), ptb_json_str(d, "now"));
	if (ptb_plan_diff_empty(d)) {
		printf("\n  none: the same decisions, environment, CMake entries and problems\n");
		return;
	}
	if (cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(d, "decisions"))) {
		printf("\n%sDecisions%s\n", bold, off);
		cJSON_ArrayForEach(it, cJSON_GetObjectItemCaseSensitive(d, "decisions")) {
			printf("  %s\n", ptb_json_str(it, "topic"));
			print_value("was", ptb_json_str(it, "was"));
			print_value("now", ptb_json_str(it, "now"));
			if (ptb_json_str(it, "why"))
				print_value("why", ptb_json_str(it, "why"));
		}
	}
	for (size_t i = 0; i < 2; i++) {
		const cJSON *l = cJSON_GetObjectItemCaseSensitive(d, lists[i]);

		if (!cJSON_GetArraySize(l))
			continue;
		printf("\n%s%s%s\n", bold, i ? "CMake" : "Environment", off);
		cJSON_ArrayForEach(it, l) {
			const char *was = ptb_json_str(it, "was"), *now = ptb_json_str(it, "now");

			if (!was)
				printf("  + %s=%s\n", ptb_json_str(it, "name"), now);
			else if (!now)
				printf("  - %s=%s\n", ptb_json_str(it, "name"), was);
			else
				printf("  ~ %s=%s (was %s)\n", ptb_json_str(it, "name"), now, was);
		}
	}
	if (cJSON_GetArraySize(ptb_json_get(d, "problems.added")) || cJSON_GetArraySize(ptb_json_get(d, "problems.gone"))) {
		printf("\n%sProblems%s\n", bold, off);
		cJSON_ArrayForEach(it, ptb_json_get(d, "problems.added"))
			printf("  + %s [%s] %s\n", ptb_json_str(it, "severity"), ptb_json_str(it, "code"), ptb_json_str(it, "message"));
		cJSON_ArrayForEach(it, ptb_json_get(d, "problems.gone"))
			printf("  - %s [%s] %s\n", ptb_json_str(it, "severity"), ptb_json_str(it, "code"), ptb_json_str(it, "message"));
	}
}

int ptb_cmd_plan(struct ptb_ctx *ctx, int argc, char **argv)
{
	static const struct option longopts[] = {
		PTB_PLAN_OPTIONS,
		{ "json", no_argument, NULL, 'j' },
		{ "diff", required_argument, NULL, 'd' },
		{ NULL, 0, NULL, 0 },
	};
	struct opts o = { 0 };
	struct ptb_err err = { 0 };
	cJSON *plan, *was = NULL;
	int rc;

	rc = ptb_cmd_getopt(ctx, &ptb_cmd_plan_def, argc, argv, "", longopts, handle, &o);
	if (rc >= 0)
		return rc;
	if (optind < argc)
		return ptb_cli_usage("plan", "unexpected argument '%s'", argv[optind]);
	/* The saved plan first: a bad file is reported before any work. */
	if (o.diff && !(was = ptb_plan_load(o.diff, &err)))
		return ptb_report(&err);
	if (ptb_plan_make(ctx, &o.plan, &plan, NULL, &err) != 0) {
		cJSON_Delete(was);
		return ptb_report(&err);
	}
	if (was) {
		cJSON *d = ptb_plan_diff(was, plan);

		if (o.json)
			ptb_cmd_print_json(d);
		else
			print_diff(d);
		cJSON_Delete(d);
		cJSON_Delete(was);
	} else if (o.json) {
		ptb_cmd_print_json(plan);
	} else {
		print_summary(plan);
	}
	rc = ptb_plan_has_errors(plan) ? PTB_EFOUND : 0;
	cJSON_Delete(plan);
	return rc;
}
