/* doctor.c - `ptbuild doctor`: explain the classic failures of an existing
 * setup before a multi-hour build.  detect observes (the facts, and the
 * environment a build would run in), the doctor recipe judges. */
#include "cmd/cmds.h"
#include "cmd/common.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/plan.h"
#include "core/problems.h"
#include "detect/detect.h"
#include "util/json.h"

struct opts {
	struct ptb_plan_opts p;     /* --facts, --profile, --sysroot */
	int json;
};

static const struct ptb_opt options[] = {
	{ .group = ptb_cmd_input_options, .off = offsetof(struct opts, p) },
	{ .name = "json", .off = offsetof(struct opts, json),
	  .help = "the ptbuild.doctor/1 document" },
	{ 0 },
};

const struct ptb_cmd ptb_cmd_doctor_def = {
	.name = "doctor", .run = ptb_cmd_doctor,
	.summary = "diagnose an existing CUDA setup before a multi-hour build",
	.usage = "ptbuild doctor [--sysroot DIR] [--facts FILE | --profile NAME] [--json]",
	.intro =
	"Looks at the driver, GPUs, toolkits, compilers (as detect does) and at\n"
	"the environment a build would run in: PATH, LD_LIBRARY_PATH, CUDA_HOME,\n"
	"TORCH_CUDA_ARCH_LIST, MAX_JOBS, the libraries the loader would find,\n"
	"conda and pip CUDA packages, an installed torch, container and QEMU\n"
	"markers.  Each finding says what was seen and how to fix it.  --sysroot\n"
	"also names where the findings are looked for, so it may come with\n"
	"--facts or --profile.\n",
	.options = options,
	.epilog = "Exit status 1 when any finding is an error.\n",
};

/* Facts as every command gets them (plan.c); --sysroot here also names
 * where the probes read, so it may come with --facts or --profile. */
static cJSON *get_facts(struct ptb_ctx *ctx, const struct opts *o, struct ptb_err *err)
{
	struct ptb_plan_opts p = o->p;
	char *source = NULL;
	cJSON *f;

	if (p.facts_file || p.profile)
		p.sysroot = NULL;
	f = ptb_plan_facts(ctx->lua, &p, &source, err);    /* made by the caller */
	free(source);
	return f;
}

static void print_findings(const cJSON *res)
{
	const cJSON *fs = cJSON_GetObjectItemCaseSensitive(res, "findings");
	const cJSON *f;
	int errors = ptb_problems_count(fs, "error"), warnings = cJSON_GetArraySize(fs) - errors;
	const struct ptb_paint p = ptb_log_paint(STDOUT_FILENO);
	const char *tk = ptb_json_str(res, "toolkit.root");
	const char *tkv = ptb_json_str(res, "toolkit.version");

	if (tk)
		printf("toolkit   %s%s%s%s\n", tk, tkv ? " (CUDA " : "", tkv ? tkv : "", tkv ? ")" : "");
	else
		printf("toolkit   none found\n");
	cJSON_ArrayForEach(f, fs)
		ptb_finding_print(stdout, f, &p);
	const cJSON *n = cJSON_GetObjectItemCaseSensitive(res, "checks");
	printf("\n%d checks: %d error%s, %d warning%s\n", cJSON_IsNumber(n) ? n->valueint : 0,
	       errors, errors == 1 ? "" : "s", warnings, warnings == 1 ? "" : "s");
}

/* The recipe's result must be findings with the fields we print. */
static int check_result(const cJSON *res, struct ptb_err *err)
{
	const cJSON *fs = cJSON_GetObjectItemCaseSensitive(res, "findings");
	const cJSON *f;

	if (!cJSON_IsArray(fs)) {
		ptb_err_set(err, PTB_ERECIPE, "recipe 'doctor.check' returned no findings array");
		return -1;
	}
	cJSON_ArrayForEach(f, fs) {
		const char *sev = ptb_json_str(f, "severity");

		if (!sev || (strcmp(sev, "error") && strcmp(sev, "warning")) ||
		    !ptb_json_str(f, "code") || !ptb_json_str(f, "message")) {
			ptb_err_set(err, PTB_ERECIPE, "recipe 'doctor.check' returned a finding without severity (error|warning), code or message");
			return -1;
		}
	}
	return 0;
}

int ptb_cmd_doctor(struct ptb_ctx *ctx, int argc, char **argv)
{
	struct opts o = { .p.cmd = "doctor" };
	struct ptb_err err = { 0 };
	struct ptb_lua *lua;
	cJSON *facts, *args, *res = NULL;
	int rc;

	rc = ptb_opt_parse(ctx, &ptb_cmd_doctor_def, argc, argv, &o);
	if (rc >= 0)
		return rc;
	if (optind < argc)
		return ptb_cli_usage("doctor", "unexpected argument '%s'", argv[optind]);
	if (o.p.facts_file && o.p.profile)
		return ptb_cli_usage("doctor", "--facts and --profile cannot be combined");
	if (o.p.sysroot && !ptb_path_is_dir(o.p.sysroot))
		return ptb_cli_usage("doctor", "--sysroot '%s' is not a directory", o.p.sysroot);
	lua = ptb_ctx_lua(ctx, &err);
	if (!lua)
		return ptb_report(&err);
	facts = get_facts(ctx, &o, &err);
	if (!facts)
		return ptb_report(&err);
	/* the environment of --sysroot (or this host), read as detect reads
	 * a machine; the facts' arch picks the loader's directories */
	struct ptb_detect_opts dopts = { o.p.sysroot, lua, NULL };
	cJSON *env = ptb_detect_environment(&dopts, ptb_json_str(facts, "host.arch"), &err);
	if (!env) {
		cJSON_Delete(facts);
		return ptb_report(&err);
	}
	args = cJSON_CreateObject();
	cJSON_AddItemToObject(args, "observed", env);
	cJSON_AddItemToObject(args, "facts", facts);
	rc = ptb_recipe_call(lua, "doctor", "check", args, &res, NULL, &err);
	cJSON_Delete(args);
	if (rc != 0)
		return ptb_report(&err);
	if (check_result(res, &err) != 0) {
		cJSON_Delete(res);
		return ptb_report(&err);
	}
	if (o.json)
		ptb_cmd_print_json(res);
	else
		print_findings(res);
	rc = ptb_problems_count(cJSON_GetObjectItemCaseSensitive(res, "findings"), "error") ? PTB_EFOUND : 0;
	cJSON_Delete(res);
	return rc;
}
