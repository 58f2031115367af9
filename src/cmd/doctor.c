/* doctor.c - `ptbuild doctor`: explain the classic failures of an existing
 * setup before a multi-hour build.  detect observes (the facts, and the
 * environment a build would run in), the doctor recipe judges. */
#include "cmd/cmds.h"
#include "cmd/common.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/plan.h"
#include "detect/detect.h"
#include "util/json.h"

const struct ptb_cmd ptb_cmd_doctor_def = {
	"doctor", ptb_cmd_doctor,
	"diagnose an existing CUDA setup before a multi-hour build",
	"ptbuild doctor [--sysroot DIR] [--facts FILE | --profile NAME] [--json]",
	"Looks at the driver, GPUs, toolkits, compilers (as detect does) and at\n"
	"the environment a build would run in: PATH, LD_LIBRARY_PATH, CUDA_HOME,\n"
	"TORCH_CUDA_ARCH_LIST, MAX_JOBS, the libraries the loader would find,\n"
	"conda and pip CUDA packages, an installed torch, container and QEMU\n"
	"markers.  Each finding says what was seen and how to fix it.\n"
	"\n"
	"  --sysroot DIR   read the machine's files under DIR (environment\n"
	"                  variables are read as paths on that machine)\n"
	"  --facts FILE    use a saved facts document instead of detecting\n"
	"  --profile NAME  use a shipped profile's facts\n"
	"  --json          the ptbuild.doctor/1 document\n"
	"\n"
	"Exit status 1 when any finding is an error.\n",
};

struct opts {
	const char *sysroot;
	const char *facts;
	const char *profile;
	int json;
};

static int handle(void *state, int c, const char *arg)
{
	struct opts *o = state;

	switch (c) {
	case 's': o->sysroot = arg; return 0;
	case 'f': o->facts = arg; return 0;
	case 'p': o->profile = arg; return 0;
	case 'j': o->json = 1; return 0;
	}
	return PTB_EUSAGE;
}

/* Facts as every command gets them (plan.c); --sysroot here also names
 * where the probes read, so it may come with --facts or --profile. */
static cJSON *get_facts(struct ptb_ctx *ctx, const struct opts *o, struct ptb_err *err)
{
	struct ptb_plan_opts p = { 0 };
	char *source = NULL;
	cJSON *f;

	p.cmd = "doctor";
	p.facts_file = o->facts;
	p.profile = o->profile;
	p.sysroot = o->facts || o->profile ? NULL : o->sysroot;
	f = ptb_plan_facts(ctx, &p, &source, err);
	free(source);
	return f;
}

static void print_findings(const cJSON *res)
{
	const cJSON *fs = cJSON_GetObjectItemCaseSensitive(res, "findings");
	const cJSON *f;
	int errors = 0, warnings = 0;
	int color = ptb_log_color(1);
	const char *tk = ptb_json_str(res, "toolkit.root");
	const char *tkv = ptb_json_str(res, "toolkit.version");

	if (tk)
		printf("toolkit   %s%s%s%s\n", tk, tkv ? " (CUDA " : "", tkv ? tkv : "", tkv ? ")" : "");
	else
		printf("toolkit   none found\n");
	cJSON_ArrayForEach(f, fs) {
		const char *sev = ptb_json_str(f, "severity");
		int is_err = sev && strcmp(sev, "error") == 0;

		is_err ? errors++ : warnings++;
		printf("\n%s%s%s [%s] %s\n", color ? (is_err ? "\033[1;31m" : "\033[1;33m") : "",
		       is_err ? "error" : "warning", color ? "\033[0m" : "",
		       ptb_json_str(f, "code"), ptb_json_str(f, "message"));
		if (ptb_json_str(f, "seen"))
			printf("  seen: %s\n", ptb_json_str(f, "seen"));
		if (ptb_json_str(f, "fix"))
			printf("  fix:  %s\n", ptb_json_str(f, "fix"));
	}
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
	static const struct option longopts[] = {
		{ "sysroot", required_argument, NULL, 's' },
		{ "facts", required_argument, NULL, 'f' },
		{ "profile", required_argument, NULL, 'p' },
		{ "json", no_argument, NULL, 'j' },
		{ NULL, 0, NULL, 0 },
	};
	struct opts o = { 0 };
	struct ptb_err err = { 0 };
	struct ptb_lua *lua;
	cJSON *facts, *args, *res = NULL;
	int rc;

	rc = ptb_cmd_getopt(ctx, &ptb_cmd_doctor_def, argc, argv, "", longopts, handle, &o);
	if (rc >= 0)
		return rc;
	if (optind < argc)
		return ptb_cli_usage("doctor", "unexpected argument '%s'", argv[optind]);
	if (o.facts && o.profile)
		return ptb_cli_usage("doctor", "--facts and --profile cannot be combined");
	if (o.sysroot && !ptb_path_is_dir(o.sysroot))
		return ptb_cli_usage("doctor", "--sysroot '%s' is not a directory", o.sysroot);
	lua = ptb_ctx_lua(ctx, &err);
	if (!lua)
		return ptb_report(&err);
	facts = get_facts(ctx, &o, &err);
	if (!facts)
		return ptb_report(&err);
	/* the environment of --sysroot (or this host), read as detect reads
	 * a machine; the facts' arch picks the loader's directories */
	struct ptb_detect_opts dopts = { o.sysroot, lua, NULL };
	cJSON *env = ptb_detect_environment(&dopts, ptb_json_str(facts, "host.arch"), &err);
	if (!env) {
		cJSON_Delete(facts);
		return ptb_report(&err);
	}
	args = cJSON_CreateObject();
	cJSON_AddItemToObject(args, "observed", env);
	cJSON_AddItemToObject(args, "facts", facts);
	rc = ptb_lua_call(lua, "doctor", "check", args, &res, &err);
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
	rc = 0;
	const cJSON *f;
	cJSON_ArrayForEach(f, cJSON_GetObjectItemCaseSensitive(res, "findings")) {
		const char *sev = ptb_json_str(f, "severity");
		if (sev && strcmp(sev, "error") == 0)
			rc = PTB_EFOUND;
	}
	cJSON_Delete(res);
	return rc;
}
