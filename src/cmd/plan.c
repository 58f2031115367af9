/* plan.c - `ptbuild plan`: the decisions for a PyTorch + CUDA build and
 * every problem found before it starts. */
#include "cmd/cmds.h"
#include "cmd/common.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "core/fleet.h"
#include "core/plan.h"
#include "core/problems.h"
#include "util/json.h"

struct opts {
	struct ptb_plan_opts plan;
	int json, explain;
	const char *diff;
};

static const struct ptb_opt options[] = {
	{ .group = ptb_cmd_plan_options, .off = offsetof(struct opts, plan) },
	{ .name = "json", .off = offsetof(struct opts, json),
	  .help = "print the plan document (ptbuild.plan/1; for a fleet "
	          "ptbuild.fleet/1: builds[] holds one plan per platform)" },
	{ .name = "explain", .off = offsetof(struct opts, explain),
	  .help = "for a fleet: which node forced each decision" },
	{ .name = "diff", .arg = "OLD.json", .off = offsetof(struct opts, diff),
	  .help = "say what changed from a saved plan to this one, decision by "
	          "decision (with --json: a ptbuild.plan-diff/1 document); exit 0 "
	          "either way unless this plan has errors" },
	{ .group = ptb_cmd_fleet_options, .off = offsetof(struct opts, plan) },
	{ 0 },
};

const struct ptb_cmd ptb_cmd_plan_def = {
	.name = "plan", .run = ptb_cmd_plan,
	.summary = "decide the CUDA toolkit, arch list, BLAS, environment and CMake flags",
	.usage =
	"ptbuild plan [--facts FILE | --profile NAME] [--torch VER] [--cuda VER]\n"
	"                    [--arch-list LIST] [--max-jobs N] [--diff OLD.json] [--json]\n"
	"       ptbuild plan --facts FILE|DIR --facts FILE|DIR... [--skip-bad]\n"
	"                    [--build-node NAME] [--max-age DAYS] [--explain] [--json]",
	.options = options,
	.epilog =
	"Without --facts or --profile the plan is for this machine.  Exit status 1\n"
	"when a problem is an error: the build would fail; each problem says how\n"
	"to fix it.\n"
	"\n"
	"Examples:\n"
	"  ptbuild plan --profile gh200\n"
	"  ptbuild plan --profile rtx4090-workstation --torch 2.8 --json\n"
	"  ptbuild plan --diff last-month.plan.json\n"
	"  ptbuild plan --facts /shared/facts/ --explain\n",
};

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
static void print_wheel(const cJSON *plan, const struct ptb_paint *p)
{
	const char *bold = p->bold, *off = p->off;
	const cJSON *w = cJSON_GetObjectItemCaseSensitive(plan, "wheel"), *c = cJSON_GetObjectItemCaseSensitive(w, "covered");
	const cJSON *a, *n;
	int py;

	if (!cJSON_IsObject(w))
		return;
	py = cJSON_IsFalse(c) && cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(w, "python_blocked"));
	if (ptb_json_str(w, "undecided"))
		printf("%sNo wheel is judged until the facts agree%s: see the %s error\n", bold, off,
		       ptb_json_str(w, "undecided"));
	else if (cJSON_IsTrue(c))
		printf("%sA wheel covers this machine%s: %s\n", bold, off, ptb_json_str(w, "command"));
	else if (py)
		printf("%sNo wheel is built for this machine's python3%s: one covers it in a Python %s environment\n",
		       bold, off, ptb_json_str(w, "python") ? ptb_json_str(w, "python") : "?");
	else if (cJSON_IsFalse(c) && cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(w, "driver_blocked")))
		printf("%sNo wheel runs on this machine until its driver is upgraded%s: nor would a source build\n", bold, off);
	else if (cJSON_IsFalse(c))
		printf("%sNo %s wheel covers this machine%s: a source build is needed\n", bold,
		       strcmp(ptb_json_str(w, "platform") ? ptb_json_str(w, "platform") : "", "jetson") == 0
		       ? "published" : "official", off);
	else
		printf("%sA wheel may do%s: %s\n", bold, off, ptb_json_str(w, "command") ? ptb_json_str(w, "command") : "?");
	/* what else the wheel needs installed (a Jetson wheel's cuDSS), in order */
	if (!cJSON_IsFalse(c) && !ptb_json_str(w, "undecided"))
		cJSON_ArrayForEach(n, cJSON_GetObjectItemCaseSensitive(w, "needs"))
			cJSON_ArrayForEach(a, cJSON_GetObjectItemCaseSensitive(n, "commands"))
				if (cJSON_IsString(a))
					printf("  then: %s\n", a->valuestring);
	if (ptb_json_str(w, "why"))
		printf("  %s\n", ptb_json_str(w, "why"));
	if (cJSON_IsTrue(c) || py) {
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
	const struct ptb_paint p = ptb_log_paint(STDOUT_FILENO);
	const char *bold = p.bold, *off = p.off;

	printf("%sPlan%s for %s\n\n", bold, off, ptb_json_str(plan, "facts_source"));
	print_wheel(plan, &p);
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
	ptb_problems_print(stdout, problems, &p);
}

static void print_value(const char *label, const char *v)
{
	printf("    %-5s %s\n", label, v ? v : "(none)");
}

static void print_diff(const cJSON *d)
{
	const cJSON *it;
	const struct ptb_paint p = ptb_log_paint(STDOUT_FILENO);
	const char *bold = p.bold, *off = p.off;
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

/* A fleet: per build its platform, machine, nodes and decisions; each
 * node and the build that serves it; every problem with its node. */
static void print_fleet(const cJSON *fleet, int explain)
{
	const cJSON *b, *t, *it, *n;
	int i = 0, nprob = 0;
	const struct ptb_paint p = ptb_log_paint(STDOUT_FILENO);
	const char *bold = p.bold, *off = p.off;
	static const char *const topics[] = { "cuda", "arch_list", "host_compiler", "cudnn", "blas", "max_jobs", NULL };

	printf("%sFleet plan%s for PyTorch %s: %d node%s, %d build%s\n", bold, off, ptb_json_str(fleet, "torch"),
	       cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(fleet, "nodes")),
	       cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(fleet, "nodes")) == 1 ? "" : "s",
	       cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(fleet, "builds")),
	       cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(fleet, "builds")) == 1 ? "" : "s");
	cJSON_ArrayForEach(b, cJSON_GetObjectItemCaseSensitive(fleet, "builds")) {
		t = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(fleet, "targets"), i++);
		printf("\n%sBuild %s%s on %s for", bold, ptb_json_str(t, "platform"), off, ptb_json_str(t, "build_machine"));
		cJSON_ArrayForEach(n, cJSON_GetObjectItemCaseSensitive(t, "nodes"))
			printf(" %s", n->valuestring);
		printf("\n");
		for (const char *const *tp = topics; *tp; tp++) {
			cJSON_ArrayForEach(it, cJSON_GetObjectItemCaseSensitive(b, "decisions")) {
				if (strcmp(ptb_json_str(it, "topic"), *tp) != 0)
					continue;
				printf("  %-14s %s\n", *tp, ptb_json_str(it, "choice"));
				if (!explain && ptb_json_str(it, "why"))
					printf("  %-14s   %s\n", "", ptb_json_str(it, "why"));
			}
		}
		if (explain) {
			printf("  %sforced by%s\n", bold, off);
			cJSON_ArrayForEach(it, cJSON_GetObjectItemCaseSensitive(t, "explain")) {
				const char *node = ptb_json_str(it, "node");

				printf("    %-14s %s: %s\n", ptb_json_str(it, "decision"), node ? node : "(no node)",
				       ptb_json_str(it, "why"));
			}
		}
	}
	printf("\n%sNodes%s\n", bold, off);
	cJSON_ArrayForEach(n, cJSON_GetObjectItemCaseSensitive(fleet, "nodes")) {
		const char *build = ptb_json_str(n, "build"), *runs = ptb_json_str(n, "cuda_runs");

		printf("  %-20s %-8s ", ptb_json_str(n, "name"), ptb_json_str(n, "platform") ? ptb_json_str(n, "platform") : "?");
		/* a Jetson's driver comes with its JetPack, which decides */
		if (build)
			printf("served by the %s build (%s runs its CUDA: %s)\n", build,
			       ptb_json_str(n, "platform") && strcmp(ptb_json_str(n, "platform"), "jetson") == 0
			               ? "JetPack" : "driver",
			       runs ? runs : "?");
		else
			printf("NOT SERVED: %s\n", ptb_json_str(n, "why") ? ptb_json_str(n, "why") : "see the problems");
	}
	nprob = cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(fleet, "problems"));
	cJSON_ArrayForEach(b, cJSON_GetObjectItemCaseSensitive(fleet, "builds"))
		nprob += cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(b, "problems"));
	printf("\n%sProblems%s:%s\n", bold, off, nprob ? "" : " none");
	ptb_problems_print(stdout, cJSON_GetObjectItemCaseSensitive(fleet, "problems"), &p);
	cJSON_ArrayForEach(b, cJSON_GetObjectItemCaseSensitive(fleet, "builds"))
		ptb_problems_print(stdout, cJSON_GetObjectItemCaseSensitive(b, "problems"), &p);
}

static int fleet_plan(struct ptb_ctx *ctx, const struct opts *o)
{
	struct ptb_err err = { 0 };
	struct ptb_lua *lua;
	cJSON *fleet;
	int rc;

	if (o->diff)
		return ptb_cli_usage("plan", "--diff compares one machine's plans; a fleet has one per platform");
	lua = ptb_ctx_lua(ctx, &err);
	if (!lua || ptb_fleet_make(lua, &o->plan, &fleet, &err) != 0)
		return ptb_report(&err);
	if (o->json)
		ptb_cmd_print_json(fleet);
	else
		print_fleet(fleet, o->explain);
	rc = ptb_fleet_has_errors(fleet) ? PTB_EFOUND : 0;
	cJSON_Delete(fleet);
	return rc;
}

int ptb_cmd_plan(struct ptb_ctx *ctx, int argc, char **argv)
{
	struct opts o = { .plan.cmd = "plan" };
	struct ptb_err err = { 0 };
	struct ptb_lua *lua;
	cJSON *plan, *was = NULL;
	int rc;

	rc = ptb_opt_parse(ctx, &ptb_cmd_plan_def, argc, argv, &o);
	if (rc >= 0)
		return rc;
	if (optind < argc)
		return ptb_cli_usage("plan", "unexpected argument '%s'", argv[optind]);
	if (ptb_plan_is_fleet(&o.plan))
		return fleet_plan(ctx, &o);
	/* The saved plan first: a bad file is reported before any work. */
	if (o.diff && !(was = ptb_plan_load(o.diff, &err)))
		return ptb_report(&err);
	lua = ptb_ctx_lua(ctx, &err);
	if (!lua || ptb_plan_make(lua, &o.plan, &plan, NULL, &err) != 0) {
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
