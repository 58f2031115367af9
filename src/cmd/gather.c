/* gather.c - `ptbuild gather ENGINE`: print the recipe with which an
 * engine a cluster already runs (Slurm, Ansible, Kubernetes, ssh)
 * collects every node's facts for a fleet plan.  The recipes are
 * templates (templates/gather/), rendered with the values given here. */
#include "cmd/cmds.h"
#include "cmd/common.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "generate/render.h"
#include "util/json.h"

struct opts {
	const char *dir, *ptbuild, *image, *ns;
};

static const struct ptb_opt options[] = {
	{ .name = "dir", .arg = "DIR", .off = offsetof(struct opts, dir),
	  .help = "where the facts files go (default ptbuild-facts; for slurm a "
	          "directory every node shares)" },
	{ .name = "ptbuild", .arg = "PATH", .off = offsetof(struct opts, ptbuild),
	  .help = "the ptbuild binary on the nodes (default ptbuild)" },
	{ .name = "image", .arg = "IMAGE", .off = offsetof(struct opts, image),
	  .help = "kubernetes: an image holding ptbuild and /bin/sh (default "
	          "ptbuild:latest)" },
	{ .name = "namespace", .arg = "NS", .off = offsetof(struct opts, ns),
	  .help = "kubernetes: the namespace (default default)" },
	{ 0 },
};

const struct ptb_cmd ptb_cmd_gather_def = {
	.name = "gather", .run = ptb_cmd_gather,
	.summary = "print how Slurm, Ansible, Kubernetes or ssh gathers a fleet's facts",
	.usage =
	"ptbuild gather slurm|ansible|ssh|kubernetes [--dir DIR] [--ptbuild PATH]\n"
	"                      [--image IMAGE] [--namespace NS]",
	.intro =
	"Prints, on stdout, a script (slurm, ansible, ssh) or a manifest\n"
	"(kubernetes) that runs 'ptbuild detect --json --stamp' on every node\n"
	"and leaves one facts file per node in DIR, for\n"
	"'ptbuild plan --facts DIR'.  Each facts file carries the node's name and\n"
	"the time it was taken (taken.host, taken.at).\n",
	.options = options,
	.epilog =
	"Examples:\n"
	"  ptbuild gather slurm --dir /shared/facts >facts.sbatch && sbatch --nodes=16 facts.sbatch\n"
	"  ptbuild gather ansible >facts.sh && sh facts.sh gpu_nodes\n"
	"  ptbuild gather kubernetes --image registry.example/ptbuild:1 >facts.yaml\n",
	.operand = "ENGINE", .operand_values = "slurm ansible ssh kubernetes",
};

static const char *const engines[][2] = {
	{ "slurm", "gather/slurm.sbatch.in" },
	{ "ansible", "gather/ansible.sh.in" },
	{ "ssh", "gather/ssh.sh.in" },
	{ "kubernetes", "gather/kubernetes.yaml.in" },
};

/* A Kubernetes namespace: a DNS label (RFC 1123). */
static int dns_label(const char *s)
{
	size_t n = strlen(s);

	if (n == 0 || n > 63 || s[0] == '-' || s[n - 1] == '-')
		return 0;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') || *s == '-'))
			return 0;
	return 1;
}

int ptb_cmd_gather(struct ptb_ctx *ctx, int argc, char **argv)
{
	struct opts o = { "ptbuild-facts", "ptbuild", "ptbuild:latest", "default" };
	struct ptb_err err = { 0 };
	struct ptb_buf text, out;
	const char *tmpl = NULL;
	char *path;
	cJSON *vars;
	int rc;

	rc = ptb_opt_parse(ctx, &ptb_cmd_gather_def, argc, argv, &o);
	if (rc >= 0)
		return rc;
	if (optind >= argc)
		return ptb_cli_usage("gather", "name an engine: slurm, ansible, ssh or kubernetes");
	for (size_t i = 0; i < sizeof engines / sizeof engines[0]; i++)
		if (strcmp(argv[optind], engines[i][0]) == 0)
			tmpl = engines[i][1];
	if (!tmpl)
		return ptb_cli_usage("gather", "unknown engine '%s' (expected slurm, ansible, ssh or kubernetes)", argv[optind]);
	if (optind + 1 < argc)
		return ptb_cli_usage("gather", "unexpected argument '%s'", argv[optind + 1]);
	if (!*o.dir || strchr(o.dir, '\n'))
		return ptb_cli_usage("gather", "bad --dir '%s' (expected a directory name on one line)", o.dir);
	if (!*o.ptbuild || strchr(o.ptbuild, '\n'))
		return ptb_cli_usage("gather", "bad --ptbuild '%s' (expected a path on one line)", o.ptbuild);
	if (!dns_label(o.ns))
		return ptb_cli_usage("gather", "bad --namespace '%s' (expected a DNS label: a-z, 0-9 and '-', at most 63)", o.ns);
	for (const char *s = o.image; ; s++) {
		if (!*s)
			break;
		if (*s <= ' ' || *s == '"' || *s == '\\' || *s == '$')
			return ptb_cli_usage("gather", "bad --image '%s' (expected an image reference such as registry/ptbuild:1)", o.image);
	}
	if (!*o.image)
		return ptb_cli_usage("gather", "bad --image '' (expected an image reference such as registry/ptbuild:1)");
	path = ptb_cmd_find_template(ctx, tmpl);
	if (!path) {
		ptb_err_set(&err, PTB_ERECIPE, "template '%s' not found on the recipe path", tmpl);
		return ptb_report(&err);
	}
	vars = cJSON_CreateObject();
	cJSON_AddStringToObject(vars, "dir", o.dir);
	cJSON_AddStringToObject(vars, "ptbuild", o.ptbuild);
	cJSON_AddStringToObject(vars, "image", o.image);
	cJSON_AddStringToObject(vars, "namespace", o.ns);
	ptb_buf_init(&text);
	ptb_buf_init(&out);
	rc = ptb_file_read(path, 0, &text, &err);
	if (rc == 0)
		rc = ptb_render(text.data, text.len, tmpl, vars, &out, &err);
	if (rc == 0)
		fwrite(out.data ? out.data : "", 1, out.len, stdout);
	ptb_buf_free(&text);
	ptb_buf_free(&out);
	cJSON_Delete(vars);
	free(path);
	return rc == 0 ? 0 : ptb_report(&err);
}
