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

#include "core/fleet.h"
#include "core/plan.h"
#include "core/problems.h"
#include "detect/detect.h"
#include "util/json.h"

struct opts {
	struct ptb_plan_opts p;     /* --facts, --profile, --sysroot; a fleet's */
	const char *source;         /* --source DIR */
	int json;
};

static const struct ptb_opt options[] = {
	{ .group = ptb_cmd_input_options, .off = offsetof(struct opts, p) },
	{ .help = "Several --facts (or a directory of facts files) doctor each node "
	          "of a fleet by its facts." },
	{ .group = ptb_cmd_fleet_read_options, .off = offsetof(struct opts, p) },
	{ .name = "source", .arg = "DIR", .off = offsetof(struct opts, source),
	  .help = "the PyTorch source checkout to be built (version.txt, setup.py and "
	          "torch/ at its top; default: the current directory when it is one): "
	          "its release's CUDAs, Python range and arch names are the ones checked, "
	          "and its git submodules.  With --sysroot, DIR is an absolute path on "
	          "that machine, read under it, and the current directory is not looked at" },
	{ .name = "json", .off = offsetof(struct opts, json),
	  .help = "the ptbuild.doctor/1 document" },
	{ 0 },
};

const struct ptb_cmd ptb_cmd_doctor_def = {
	.name = "doctor", .run = ptb_cmd_doctor,
	.summary = "diagnose an existing CUDA setup before a multi-hour build",
	.usage = "ptbuild doctor [--sysroot DIR] [--facts FILE | --profile NAME] [--json]\n"
	"       ptbuild doctor --facts FILE --facts FILE... | --facts DIR [--skip-bad] [--json]",
	.intro =
	"Looks at the driver, GPUs, toolkits, compilers (as detect does) and at\n"
	"the environment a build would run in: PATH, LD_LIBRARY_PATH, CUDA_HOME,\n"
	"TORCH_CUDA_ARCH_LIST, MAX_JOBS, the libraries the loader would find,\n"
	"conda and pip CUDA packages, an installed torch, container and QEMU\n"
	"markers.  Each finding says what was seen and how to fix it.\n"
	"\n"
	"Run inside a PyTorch source checkout (or with --source DIR) it checks\n"
	"the setup against that release: the CUDAs PyTorch built and tested it\n"
	"with and the oldest its CMake accepts, its Python range, the arch names\n"
	"its CMake knows, and git submodules left uninitialised.\n"
	"\n"
	"--facts or --profile alone doctor that machine by its facts, as a\n"
	"fleet node is doctored: this machine's files say nothing of it, so the\n"
	"checks that need the machine itself are named instead.  --sysroot names\n"
	"where the machine's files are (a copy of them), so with --facts or\n"
	"--profile every check runs, on the facts and the files under DIR.\n"
	"\n"
	"A fleet (several --facts, or a directory of them): each node is\n"
	"doctored by its facts alone -- driver against its toolkit, GPUs the\n"
	"toolkit drops, compilers, glibc, memory -- and its findings are printed\n"
	"under its name (facts.taken.host, else the file's name).  The checks that\n"
	"need the machine itself (environment, PATH, the loader's libraries,\n"
	"installed packages) are named per node: run 'ptbuild doctor' on it.\n"
	"--json gives ptbuild.doctor-fleet/1: nodes[], each {name, source,\n"
	"findings, checks, needs_machine}, and the problems of reading the files.\n",
	.options = options,
	.epilog = "Exit status 1 when any finding (of any node) is an error.\n",
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

/* --source with what it cannot go with: 0, or the usage status. */
static int source_usage(const struct opts *o)
{
	if (o->source && (o->p.facts_file || o->p.profile) && !o->p.sysroot)
		return ptb_cli_usage("doctor", "--source reads a checkout on the machine doctored: with --%s alone that machine's files are not here (add --sysroot with a copy of them)",
		                     o->p.profile ? "profile" : "facts");
	if (o->source && o->p.sysroot && o->source[0] != '/')
		return ptb_cli_usage("doctor", "--source '%s' must be an absolute path on the machine under --sysroot '%s'",
		                     o->source, o->p.sysroot);
	return 0;
}

/* The checkout's raw observation into args.source (none: nothing); a
 * relative --source on this host is taken from the working directory. */
static int get_source(const struct ptb_detect_opts *dopts, const char *given, cJSON *args,
                      struct ptb_err *err)
{
	char *dir = NULL, *cwd;
	cJSON *src = NULL;
	int rc;

	if (given && given[0] != '/' && (cwd = getcwd(NULL, 0))) {
		dir = ptb_path_join(cwd, given);
		free(cwd);
	}
	rc = ptb_detect_source(dopts, dir ? dir : given, &src, err);
	free(dir);
	if (rc == 0 && src)
		cJSON_AddItemToObject(args, "source", src);
	return rc;
}

/* "source    DIR (PyTorch 2.14.0a0)", and what a release ptbuild has no
 * data for is checked against. */
static void print_source(const cJSON *res)
{
	const char *path = ptb_json_str(res, "source.path"), *ver = ptb_json_str(res, "source.version");
	const cJSON *known = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(res, "source"), "known");

	if (!path || !ver)
		return;
	printf("source    %s (PyTorch %s%s)\n", path, ver,
	       cJSON_IsTrue(known) ? "" : "; ptbuild has no data for this release: checked as the newest it knows");
}

/* "toolkit   ROOT (CUDA V; GPU list from nvcc PATH)", or none_text. */
static void print_toolkit(const cJSON *res, const char *none_text)
{
	const char *tk = ptb_json_str(res, "toolkit.root");
	const char *tkv = ptb_json_str(res, "toolkit.version");
	const char *nv = ptb_json_str(res, "toolkit.gpu_list.nvcc");

	if (!tk) {
		printf("toolkit   %s\n", none_text);
		return;
	}
	printf("toolkit   %s", tk);
	if (tkv || nv)
		printf(" (%s%s%s%s%s)", tkv ? "CUDA " : "", tkv ? tkv : "", tkv && nv ? "; " : "",
		       nv ? "GPU list from nvcc " : "", nv ? nv : "");
	putchar('\n');
}

static void print_findings(const cJSON *res)
{
	const cJSON *fs = cJSON_GetObjectItemCaseSensitive(res, "findings");
	const cJSON *f;
	int errors = ptb_problems_count(fs, "error"), warnings = cJSON_GetArraySize(fs) - errors;
	const struct ptb_paint p = ptb_log_paint(STDOUT_FILENO);
	const cJSON *needs = cJSON_GetObjectItemCaseSensitive(res, "needs_machine"), *c;

	print_toolkit(res, needs ? "none in its facts" : "none found");
	print_source(res);
	cJSON_ArrayForEach(f, fs)
		ptb_finding_print(stdout, f, &p);
	const cJSON *n = cJSON_GetObjectItemCaseSensitive(res, "checks");
	printf("\n%d checks%s: %d error%s, %d warning%s\n", cJSON_IsNumber(n) ? n->valueint : 0,
	       needs ? " by its facts" : "", errors, errors == 1 ? "" : "s", warnings, warnings == 1 ? "" : "s");
	if (cJSON_GetArraySize(needs)) {
		printf("%d checks need the machine itself (run 'ptbuild doctor' on it, or add --sysroot with a copy of its files):",
		       cJSON_GetArraySize(needs));
		cJSON_ArrayForEach(c, needs)
			printf(" %s", c->valuestring);
		putchar('\n');
	}
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
	/* the checks a facts-only doctor could not run, printed by name */
	fs = cJSON_GetObjectItemCaseSensitive(res, "needs_machine");
	if (fs && !cJSON_IsArray(fs)) {
		ptb_err_set(err, PTB_ERECIPE, "recipe 'doctor.check' returned needs_machine that is not an array of check names");
		return -1;
	}
	cJSON_ArrayForEach(f, fs) {
		if (!cJSON_IsString(f)) {
			ptb_err_set(err, PTB_ERECIPE, "recipe 'doctor.check' returned needs_machine that is not an array of check names");
			return -1;
		}
	}
	return 0;
}

/* One node of a fleet, by its facts: the recipe's document with the
 * node's name and source added, or NULL with err. */
static cJSON *doctor_node(struct ptb_lua *lua, const cJSON *node, struct ptb_err *err)
{
	cJSON *args = cJSON_CreateObject(), *res = NULL;
	int rc;

	cJSON_AddItemReferenceToObject(args, "facts", cJSON_GetObjectItemCaseSensitive(node, "facts"));
	cJSON_AddBoolToObject(args, "facts_only", 1);
	rc = ptb_recipe_call(lua, "doctor", "check", args, &res, NULL, err);
	cJSON_Delete(args);
	if (rc != 0)
		return NULL;
	if (check_result(res, err) != 0 || !cJSON_IsArray(cJSON_GetObjectItemCaseSensitive(res, "needs_machine"))) {
		if (!err->msg[0])
			ptb_err_set(err, PTB_ERECIPE, "recipe 'doctor.check' returned no needs_machine array for a node known by its facts");
		cJSON_Delete(res);
		return NULL;
	}
	cJSON_DeleteItemFromObjectCaseSensitive(res, "schema");
	cJSON_InsertItemInArray(res, 0, cJSON_CreateString(ptb_json_str(node, "source") + 5));
	cJSON_InsertItemInArray(res, 0, cJSON_CreateString(ptb_json_str(node, "name")));
	/* cJSON_InsertItemInArray gives no key: name the two just added */
	res->child->string = ptb_xstrdup("name");
	res->child->next->string = ptb_xstrdup("source");
	cJSON_AddStringToObject(res, "taken_at", ptb_json_str(node, "taken_at"));
	return res;
}

static void print_node(const cJSON *n, const struct ptb_paint *p)
{
	const cJSON *fs = cJSON_GetObjectItemCaseSensitive(n, "findings"), *f, *c;
	const cJSON *needs = cJSON_GetObjectItemCaseSensitive(n, "needs_machine");
	int errors = ptb_problems_count(fs, "error"), warnings = cJSON_GetArraySize(fs) - errors;

	printf("== node %s (%s, taken %s)\n", ptb_json_str(n, "name"), ptb_json_str(n, "source"),
	       ptb_json_str(n, "taken_at"));
	print_toolkit(n, "none in its facts");
	cJSON_ArrayForEach(f, fs)
		ptb_finding_print(stdout, f, p);
	printf("%d checks by its facts: %d error%s, %d warning%s\n",
	       cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(n, "checks")) > 0
	               ? (int)cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(n, "checks")) : 0,
	       errors, errors == 1 ? "" : "s", warnings, warnings == 1 ? "" : "s");
	if (cJSON_GetArraySize(needs)) {
		printf("%d checks need the machine itself (run 'ptbuild doctor' on %s):", cJSON_GetArraySize(needs),
		       ptb_json_str(n, "name"));
		cJSON_ArrayForEach(c, needs)
			printf(" %s", c->valuestring);
		putchar('\n');
	}
}

/* A fleet: every node doctored by its facts, grouped by node.  The exit
 * status. */
static int doctor_fleet(struct ptb_ctx *ctx, const struct opts *o, struct ptb_lua *lua)
{
	struct ptb_err err = { 0 };
	cJSON *problems, *nodes, *doc, *out, *n;
	const struct ptb_paint paint = ptb_log_paint(STDOUT_FILENO);
	int errors = 0, bad_nodes = 0, k = 0;

	if (o->p.profile || o->p.sysroot || o->source)
		return ptb_cli_usage("doctor", "several --facts doctor a fleet by its facts files: --%s cannot be combined with them",
		                     o->p.profile ? "profile" : o->p.sysroot ? "sysroot" : "source");
	problems = cJSON_CreateArray();
	if (!(nodes = ptb_fleet_load(&o->p, problems, &err))) {
		cJSON_Delete(problems);
		return ptb_report(&err);
	}
	doc = cJSON_CreateObject();
	cJSON_AddStringToObject(doc, "schema", "ptbuild.doctor-fleet/1");
	out = cJSON_AddArrayToObject(doc, "nodes");
	cJSON_ArrayForEach(n, nodes) {
		cJSON *res = doctor_node(lua, n, &err);
		int e;

		if (!res) {
			cJSON_Delete(nodes);
			cJSON_Delete(problems);
			cJSON_Delete(doc);
			return ptb_report(&err);
		}
		e = ptb_problems_count(cJSON_GetObjectItemCaseSensitive(res, "findings"), "error");
		errors += e;
		bad_nodes += e > 0;
		cJSON_AddItemToArray(out, res);
	}
	cJSON_AddItemToObject(doc, "problems", problems);
	if (o->json) {
		ptb_cmd_print_json(doc);
	} else {
		cJSON_ArrayForEach(n, out) {
			if (k++)
				putchar('\n');
			print_node(n, &paint);
		}
		if (cJSON_GetArraySize(problems)) {
			printf("\n== the fleet's facts files\n");
			ptb_problems_print(stdout, problems, &paint);
		}
		printf("\n%d node%s: %d with errors (%d error%s)\n", k, k == 1 ? "" : "s", bad_nodes, errors,
		       errors == 1 ? "" : "s");
	}
	(void)ctx;
	cJSON_Delete(nodes);
	cJSON_Delete(doc);
	return errors ? PTB_EFOUND : 0;
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
	if (ptb_plan_is_fleet(&o.p)) {
		if (!(lua = ptb_ctx_lua(ctx, &err)))
			return ptb_report(&err);
		return doctor_fleet(ctx, &o, lua);
	}
	if (o.p.facts_file && o.p.profile)
		return ptb_cli_usage("doctor", "--facts and --profile cannot be combined");
	if (o.p.sysroot && !ptb_path_is_dir(o.p.sysroot))
		return ptb_cli_usage("doctor", "--sysroot '%s' is not a directory", o.p.sysroot);
	if ((rc = source_usage(&o)) != 0)
		return rc;
	lua = ptb_ctx_lua(ctx, &err);
	if (!lua)
		return ptb_report(&err);
	facts = get_facts(ctx, &o, &err);
	if (!facts)
		return ptb_report(&err);
	args = cJSON_CreateObject();
	if ((o.p.facts_file || o.p.profile) && !o.p.sysroot) {
		/* another machine, known by its facts alone: this machine's
		 * PATH, loader and /proc would be judged as if they were its */
		cJSON_AddBoolToObject(args, "facts_only", 1);
	} else {
		/* the environment of --sysroot (or this host), read as detect
		 * reads a machine; the facts' arch picks the loader's
		 * directories */
		struct ptb_detect_opts dopts = { .sysroot = o.p.sysroot, .lua = lua };
		cJSON *env = ptb_detect_environment(&dopts, ptb_json_str(facts, "host.arch"), &err);

		if (!env) {
			cJSON_Delete(facts);
			cJSON_Delete(args);
			return ptb_report(&err);
		}
		cJSON_AddItemToObject(args, "observed", env);
		/* the checkout: --source, else (on this host) the working
		 * directory when it is one; a sysroot's machine has no working
		 * directory here */
		if ((o.source || !o.p.sysroot) && get_source(&dopts, o.source, args, &err) != 0) {
			cJSON_Delete(facts);
			cJSON_Delete(args);
			return ptb_report(&err);
		}
	}
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
