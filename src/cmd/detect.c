/* detect.c - `ptbuild detect`: the facts of this machine, or of a sysroot. */
#include "cmd/cmds.h"
#include "cmd/common.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "detect/detect.h"
#include "core/fleet.h"
#include "util/json.h"

struct opts {
	const char *sysroot, *node;
	int json, raw, stamp;
};

#define AT(field) .off = offsetof(struct opts, field)

static const struct ptb_opt options[] = {
	{ .group = ptb_cmd_sysroot_options, AT(sysroot) },
	{ .name = "json", AT(json),
	  .help = "the facts document (schema ptbuild.facts/1), the input of --facts FILE" },
	{ .name = "raw", AT(raw),
	  .help = "the raw observations the detect recipe reads (debugging)" },
	{ .name = "stamp", AT(stamp),
	  .help = "record where and when: taken.host (this host's name, or the "
	          "sysroot's etc/hostname) and taken.at (UTC), which a fleet plan uses "
	          "to name nodes and find stale facts" },
	{ .name = "node", .arg = "NAME", AT(node),
	  .help = "with --stamp: the node's name instead (in a Kubernetes pod, the "
	          "node's, not the pod's: 'ptbuild gather')" },
	{ 0 },
};

#undef AT

const struct ptb_cmd ptb_cmd_detect_def = {
	.name = "detect", .run = ptb_cmd_detect,
	.summary = "describe this machine: CPU, driver, GPUs, CUDA toolkits, compilers",
	.usage = "ptbuild detect [--sysroot DIR] [--json] [--raw] [--stamp] [--node NAME]",
	.intro =
	"Reads the machine's files (/etc/os-release, /proc/cpuinfo,\n"
	"/proc/driver/nvidia, CUDA installs...) and, on this host, asks libcuda\n"
	"and NVML in a child process with a time limit.  What cannot be found is\n"
	"null or absent, with a note.\n",
	.options = options,
	.epilog =
	"Environment: PATH, LD_LIBRARY_PATH, CUDA_HOME, CUDA_PATH, CONDA_PREFIX,\n"
	"VIRTUAL_ENV, CC, CXX and CUDAHOSTCXX are read and resolved inside the\n"
	"sysroot.  PTBUILD_LIBCUDA / PTBUILD_LIBNVML name the libraries to load\n"
	"(\"none\" skips); PTBUILD_PROBE_TIMEOUT_MS limits each (default 4000).\n"
	"\n"
	"Examples:\n"
	"  ptbuild detect\n"
	"  ptbuild detect --json > gh200.json && ptbuild plan --facts gh200.json\n",
};

static const char *s_or(const cJSON *j, const char *path, const char *dflt)
{
	const char *s = ptb_json_str(j, path);

	return s ? s : dflt;
}

static double num(const cJSON *j, const char *path)
{
	const cJSON *v = ptb_json_get(j, path);

	return cJSON_IsNumber(v) ? v->valuedouble : -1;
}

/* Print the host, cpu and (in a container) limits lines. */
static void print_host(const cJSON *f)
{
	double ps = num(f, "host.page_size"), mem = num(f, "host.memory_mib");
	double cores = num(f, "host.cpu.cores");

	printf("host      %s (%s), %s %s, kernel %s, glibc %s",
	       s_or(f, "host.arch", "?"), s_or(f, "host.platform", "?"),
	       s_or(f, "host.os.id", "unknown-os"), s_or(f, "host.os.version_id", ""),
	       s_or(f, "host.kernel", "?"), s_or(f, "host.glibc", "?"));
	if (ps > 0)
		printf(", %.0f KiB pages", ps / 1024);
	putchar('\n');
	printf("cpu       %s: %s", s_or(f, "host.cpu.core", s_or(f, "host.cpu.model_name", "unknown")),
	       s_or(f, "host.cpu.microarch", "unknown microarchitecture"));
	if (cores > 0)
		printf(", %.0f cores", cores);
	if (mem > 0)
		printf(", %.0f GiB memory", mem / 1024);
	putchar('\n');
	if (cJSON_IsObject(cJSON_GetObjectItemCaseSensitive(
	        cJSON_GetObjectItemCaseSensitive(f, "host"), "limits"))) {
		double lc = num(f, "host.limits.cpus"), lm = num(f, "host.limits.memory_mib");

		printf("limits   ");
		if (lc > 0)
			printf(" %g CPUs (%s)", lc, s_or(f, "host.limits.cpus_source", "?"));
		if (lm > 0)
			printf("%s %.1f GiB memory (%s)", lc > 0 ? "," : "", lm / 1024,
			       s_or(f, "host.limits.memory_source", "?"));
		putchar('\n');
	}
}

/* Print the jetson, driver, gpu and cuda (toolkit) lines. */
static void print_gpu_side(const cJSON *f)
{
	const cJSON *it, *drv = cJSON_GetObjectItemCaseSensitive(f, "driver");

	if (cJSON_IsObject(cJSON_GetObjectItemCaseSensitive(f, "jetson")))
		printf("jetson    %s, L4T %s, JetPack %s\n", s_or(f, "jetson.module", "unknown module"),
		       s_or(f, "jetson.l4t", "?"), s_or(f, "jetson.jetpack", "?"));
	if (cJSON_IsObject(drv))
		printf("driver    %s, runs CUDA up to %s\n", s_or(drv, "version", "?"),
		       s_or(drv, "cuda_max", "?"));
	else
		printf("driver    none\n");
	cJSON_ArrayForEach(it, cJSON_GetObjectItemCaseSensitive(f, "gpus")) {
		double m = num(it, "memory_mib");

		printf("gpu %-5.0f %s, sm %s", num(it, "index"), s_or(it, "name", "?"),
		       s_or(it, "compute_capability", "?"));
		if (m > 0)
			printf(", %.0f MiB", m);
		printf(" (from %s)\n", s_or(it, "source", "?"));
	}
	cJSON_ArrayForEach(it, cJSON_GetObjectItemCaseSensitive(f, "toolkits")) {
		const cJSON *picked = cJSON_GetObjectItemCaseSensitive(it, "picked_by");
		const cJSON *p;

		printf("cuda      %s at %s", s_or(it, "version", "?"), s_or(it, "root", "?"));
		if (ptb_json_str(it, "cudnn"))
			printf(", cuDNN %s", ptb_json_str(it, "cudnn"));
		if (ptb_json_str(it, "nccl"))
			printf(", NCCL %s", ptb_json_str(it, "nccl"));
		cJSON_ArrayForEach(p, picked)
			if (cJSON_IsString(p))
				printf(" [%s]", p->valuestring);
		putchar('\n');
	}
}

/* The file a compiler entry is (its symlink target, else its path). */
static const char *cc_target(const cJSON *c)
{
	return s_or(c, "target", s_or(c, "path", ""));
}

/* Print one line per compiler binary: gcc and gcc-12 are often one file,
 * shown once with the other names "(also ...)" and every entry's
 * named_by. */
static void print_compilers(const cJSON *f)
{
	const cJSON *ccs = cJSON_GetObjectItemCaseSensitive(f, "compilers"), *it, *o;

	cJSON_ArrayForEach(it, ccs) {
		const char *target = cc_target(it);
		int seen = 0, also = 0;

		for (o = ccs ? ccs->child : NULL; o && o != it; o = o->next)
			seen |= strcmp(cc_target(o), target) == 0;
		if (seen)
			continue;
		printf("compiler  %s %s at %s", s_or(it, "name", "?"),
		       s_or(it, "version", "?"), s_or(it, "path", "?"));
		for (o = it->next; o; o = o->next) {
			if (strcmp(cc_target(o), target) == 0) {
				printf("%s%s", also ? ", " : " (also ", s_or(o, "name", "?"));
				also = 1;
			}
		}
		printf("%s", also ? ")" : "");
		for (o = it; o; o = o->next) {
			const cJSON *n;

			if (o != it && strcmp(cc_target(o), target) != 0)
				continue;
			cJSON_ArrayForEach(n, cJSON_GetObjectItemCaseSensitive(o, "named_by"))
				if (cJSON_IsString(n))
					printf(" [%s]", n->valuestring);
		}
		putchar('\n');
	}
}

/* The facts as a few lines for a person. */
static void summary(const cJSON *f)
{
	const cJSON *it;

	print_host(f);
	print_gpu_side(f);
	print_compilers(f);
	it = cJSON_GetObjectItemCaseSensitive(f, "python");
	if (cJSON_IsObject(it)) {
		const char *path = s_or(it, "path", "?"), *real = ptb_json_str(it, "real");

		printf("python    %s at %s", s_or(it, "version", "unknown"), path);
		if (real && strcmp(real, path) != 0)
			printf(" (%s)", real);
		if (ptb_json_str(it, "from"))
			printf(" [%s]", ptb_json_str(it, "from"));
		putchar('\n');
		it = cJSON_GetObjectItemCaseSensitive(it, "system");
		if (cJSON_IsObject(it)) {
			path = s_or(it, "path", "?");
			real = ptb_json_str(it, "real");
			printf("python    %s at %s", s_or(it, "version", "unknown"), path);
			if (real && strcmp(real, path) != 0)
				printf(" (%s)", real);
			printf(" [system: not the one a build uses]\n");
		}
	} else if (cJSON_IsNull(it)) {
		printf("python    none found\n");
	}
	it = cJSON_GetObjectItemCaseSensitive(f, "torch");
	if (cJSON_IsObject(it))
		printf("torch     %s (CUDA %s) in %s\n", s_or(it, "version", "?"),
		       s_or(it, "cuda", "none"), s_or(it, "site", "?"));
}

int ptb_cmd_detect(struct ptb_ctx *ctx, int argc, char **argv)
{
	struct opts o = { 0 };
	struct ptb_err err = { 0 };
	struct ptb_detect_opts dopts = { 0 };
	cJSON *facts;
	int rc;

	rc = ptb_opt_parse(ctx, &ptb_cmd_detect_def, argc, argv, &o);
	if (rc >= 0)
		return rc;
	if (optind < argc)
		return ptb_cli_usage("detect", "unexpected argument '%s'", argv[optind]);
	if (o.sysroot && !ptb_path_is_dir(o.sysroot))
		return ptb_cli_usage("detect", "sysroot '%s' is not a directory", o.sysroot);
	dopts.sysroot = o.sysroot;
	if (o.raw) {
		cJSON *raw = ptb_detect_raw(&dopts, &err);

		if (!raw)
			return ptb_report(&err);
		ptb_cmd_print_json(raw);
		cJSON_Delete(raw);
		return 0;
	}
	dopts.lua = ptb_ctx_lua(ctx, &err);
	if (!dopts.lua)
		return ptb_report(&err);
	if (o.node && !o.stamp)
		return ptb_cli_usage("detect", "--node names the node in the stamp: give --stamp too");
	facts = ptb_detect(&dopts, &err);
	if (!facts)
		return ptb_report(&err);
	if (o.stamp && ptb_fleet_stamp(facts, o.sysroot, o.node, &err) != 0) {
		cJSON_Delete(facts);
		return ptb_report(&err);
	}
	if (o.json) {
		ptb_cmd_print_json(facts);
	} else {
		const cJSON *n;

		summary(facts);
		cJSON_ArrayForEach(n, cJSON_GetObjectItemCaseSensitive(facts, "notes"))
			if (cJSON_IsString(n))
				ptb_note("%s", n->valuestring);
	}
	cJSON_Delete(facts);
	return 0;
}
