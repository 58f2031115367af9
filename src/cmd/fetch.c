/* fetch.c - `ptbuild fetch`: download, verify and install what the plan (or
 * a manifest, or a lock file) names. */
#include "config.h"

#include "cmd/cmds.h"
#include "cmd/common.h"
#include "core/fleet.h"
#include "core/plan.h"
#include "core/problems.h"

#include <curl/curl.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "fetch/fetch.h"
#include "fetch/install.h"
#include "fetch/progress.h"
#include "util/json.h"
#include "util/sha256.h"

struct opts {
	struct ptb_plan_opts p;
	int plan_opts;             /* --facts, --profile, --sysroot or --torch */
	const char *prefix, *cache, *cuda, *platform, *variant, *components;
	const char *manifest, *manifest_sha, *mirror, *mirror_hosts, *lock, *write_lock, *plan;
	const char *files[32];     /* --file and --archive, in order */
	unsigned char unpack[32];  /* files[i] came from --archive */
	int nfiles;
	int jobs, retries, offline, dry_run, force;
	int refused;               /* a --dry-run of a plan with errors: exit 1 at the end */
	struct ptb_err refusal;    /* ... saying why */
};

static int set_platform(const struct ptb_opt_arg *a)
{
	if (strcmp(a->arg, "linux-x86_64") && strcmp(a->arg, "linux-sbsa") &&
	    strcmp(a->arg, "linux-aarch64") && strcmp(a->arg, "linux-ppc64le"))
		return ptb_cli_usage("fetch", "bad --platform '%s' (expected linux-x86_64, linux-sbsa, linux-aarch64 or linux-ppc64le)", a->arg), -1;
	*PTB_OPT_FIELD(a, const char *) = a->arg;
	return 0;
}

static int set_manifest_sha(const struct ptb_opt_arg *a)
{
	if (!ptb_fetch_is_sha256(a->arg))
		return ptb_cli_usage("fetch", "--manifest-sha256 needs 64 lowercase hex digits"), -1;
	*PTB_OPT_FIELD(a, const char *) = a->arg;
	return 0;
}

static int add_one(const struct ptb_opt_arg *a, int unpack)
{
	struct opts *o = a->base;

	if (o->nfiles >= 32)
		return ptb_cli_usage("fetch", "at most 32 --file and --archive options in all"), -1;
	o->unpack[o->nfiles] = (unsigned char)unpack;
	o->files[o->nfiles++] = a->arg;
	return 0;
}

static int add_file(const struct ptb_opt_arg *a)
{
	return add_one(a, 0);
}

static int add_archive(const struct ptb_opt_arg *a)
{
	return add_one(a, 1);
}

/* An int from lo to hi for --jobs and --retries. */
static int set_count(const struct ptb_opt_arg *a, int lo, int hi)
{
	char *end;
	long v = strtol(a->arg, &end, 10);

	if (*end || v < lo || v > hi)
		return ptb_cli_usage("fetch", "bad --%s '%s' (%d to %d)", a->opt->name, a->arg, lo, hi), -1;
	*PTB_OPT_FIELD(a, int) = (int)v;
	return 0;
}

static int set_jobs(const struct ptb_opt_arg *a)
{
	return set_count(a, 1, 64);
}

static int set_retries(const struct ptb_opt_arg *a)
{
	return set_count(a, 0, 100);
}

#define AT(field) .off = offsetof(struct opts, field)

static const struct ptb_opt options[] = {
	{ .group = ptb_cmd_input_options, AT(p) },
	{ .group = ptb_cmd_torch_options, AT(p) },
	{ .group = ptb_cmd_fleet_options, AT(p) },
	{ .help = "These make the plan whose files are fetched, as 'ptbuild plan' "
	          "makes it (a fleet: each build's files, each build into "
	          "PREFIX/PLATFORM); its problems are said first, and an error among "
	          "them (one 'ptbuild plan' exits 1 for) stops the fetch before "
	          "anything is downloaded unless --force is given, as generate writes "
	          "nothing for it.  --cuda is fetch's own: a release label." },
	{ .name = "cuda", .arg = "VER", AT(cuda),
	  .help = "CUDA release label (12.4.1): the manifest is redistrib_VER.json "
	          "under the mirror, held to NVIDIA's where ptbuild carries that label; "
	          "a minor release (13.4) is its last update, the one a plan installs; "
	          "with plan options, the plan's CUDA" },
	{ .name = "components", .arg = "LIST", AT(components),
	  .help = "comma-separated component names (cuda_nvcc,...); default: every "
	          "component for the platform" },
	{ .name = "platform", .arg = "P", AT(platform), .set = set_platform,
	  .values = "linux-x86_64 linux-sbsa linux-aarch64 linux-ppc64le",
	  .help = "linux-x86_64, linux-sbsa, linux-aarch64 (Jetson) or linux-ppc64le "
	          "(CUDA 12.4 and older) (default: the host's; aarch64 means linux-sbsa)" },
	{ .name = "variant", .arg = "V", AT(variant),
	  .help = "variant for components that have several (cuDNN: cuda12, cuda13); "
	          "default from --cuda" },
	{ .name = "manifest", .arg = "URL", AT(manifest),
	  .help = "any redistrib-style manifest (https, or http://, file:// or a path "
	          "when given explicitly)" },
	{ .name = "manifest-sha256", .arg = "H", AT(manifest_sha), .set = set_manifest_sha,
	  .help = "refuse the manifest unless its sha256 is H" },
	{ .name = "mirror", .arg = "URL", AT(mirror),
	  .help = "a base laid out like NVIDIA's redist trees (CUDA's and cuDNN's "
	          "side by side): with --cuda its manifest, with a plan the plan's "
	          "NVIDIA files, and its other downloads (OpenBLAS) at URL/HOST/PATH" },
	{ .name = "mirror-hosts", .arg = "URL", AT(mirror_hosts),
	  .help = "a base holding every download at URL/HOST/PATH (NVIDIA's files "
	          "too), the layout the Dockerfile's PTBUILD_MIRROR and setup.sh read" },
	{ .name = "lock", .arg = "FILE", AT(lock),
	  .help = "fetch exactly the items of a ptbuild.lock/1 file" },
	{ .name = "write-lock", .arg = "FILE", AT(write_lock),
	  .help = "write the ptbuild.lock/1 file of this fetch" },
	{ .name = "plan", .arg = "FILE", AT(plan),
	  .help = "the items of a ptbuild.plan/1 document (cuda.downloads, "
	          "openblas.source), or of every build of a ptbuild.fleet/1 "
	          "document (generate's OUT/fleet.json)" },
	{ .name = "file", .arg = "URL@SHA256", .set = add_file,
	  .help = "also fetch one file kept whole (a runfile, a source tarball) into "
	          "PREFIX/downloads (repeatable)" },
	{ .name = "archive", .arg = "URL@SHA256", .set = add_archive,
	  .help = "also fetch one redist-style archive (a .tar.* with one top "
	          "folder, such as a cuDNN archive whose sha256 is known without "
	          "its manifest) and unpack it into PREFIX like a manifest's "
	          "components (repeatable)" },
	{ .name = "prefix", .arg = "DIR", AT(prefix),
	  .help = "install here (one fetch at a time: a second waits); without it, "
	          "only fill the cache" },
	{ .name = "cache", .arg = "DIR", AT(cache),
	  .help = "cache (default $XDG_CACHE_HOME/ptbuild)" },
	{ .name = "jobs", .arg = "N", AT(jobs), .set = set_jobs,
	  .help = "transfers at once (default 4)" },
	{ .name = "retries", .arg = "N", AT(retries), .set = set_retries,
	  .help = "attempts after the first on transient errors (5)" },
	{ .name = "offline", AT(offline),
	  .help = "use only the cache; fail on a miss, naming every file that is missing" },
	{ .name = "force", AT(force),
	  .help = "fetch a plan's files even when the plan (--plan FILE, the plan "
	          "options', or a fleet build's) reports errors; without it such a "
	          "plan fetches nothing and the exit status is 1" },
	{ .name = "dry-run", .alias = "list", AT(dry_run),
	  .help = "say what would be fetched, from where, how big, what the cache "
	          "holds and where it would go; download nothing but a manifest not "
	          "yet cached (a plan with errors is listed too, and the exit status "
	          "is 1 unless --force)" },
	{ 0 },
};

#undef AT

const struct ptb_cmd ptb_cmd_fetch_def = {
	.name = "fetch", .run = ptb_cmd_fetch,
	.summary = "download, verify and install CUDA components into a prefix",
	.usage =
	"ptbuild fetch [plan options | --cuda VER [--components LIST] | --manifest URL |\n"
	"                     --mirror URL | --mirror-hosts URL | --lock FILE | --plan FILE |\n"
	"                     --archive URL@SHA256] [--prefix DIR] [--cache DIR] [--jobs N] [--offline]",
	.intro =
	"What to fetch: with no source named (or with --facts, --profile,\n"
	"--sysroot, --torch), what the plan names, as 'ptbuild plan' makes it:\n"
	"the CUDA redist files for its platform (when the plan downloads CUDA)\n"
	"and the OpenBLAS source release (when it builds OpenBLAS).  Else\n"
	"components from NVIDIA's redist manifest for --cuda (or --manifest, or\n"
	"--mirror), from a lock file, or from a saved plan.  Every file is checked\n"
	"against its sha256 and size while it downloads, kept in a cache shared by\n"
	"all prefixes, and unpacked into one tree laid out like a CUDA toolkit\n"
	"(CUDA_HOME=PREFIX).  The new tree is built beside the prefix and renamed\n"
	"into place: an interrupted fetch leaves the old prefix or none.\n"
	"\n"
	"A fleet (several --facts, a directory of facts files, or --plan naming\n"
	"a fleet document): each build's files for its own platform, one build\n"
	"after the other, each installed into PREFIX/PLATFORM (x86_64, sbsa,\n"
	"jetson: the directories 'ptbuild generate' writes), all through one\n"
	"cache; --dry-run lists each build's items under its platform, and a\n"
	"build that needs no download says so.\n"
	"\n"
	"A plan with errors (the exit status 1 of 'ptbuild plan': an Orin asked\n"
	"for a CUDA it cannot run, a GPU the CUDA cannot build for) fetches\n"
	"nothing: fetch names its errors (each build's and the fleet's own, for a\n"
	"fleet) and exits 1 before any download, as generate writes nothing for\n"
	"it; --force fetches its files all the same.\n",
	.options = options,
	.epilog =
	"Progress: on a terminal, a line per transfer in flight and one for the\n"
	"whole fetch (bytes, size, percentage, rate, time left), redrawn in\n"
	"place; otherwise (or TERM=dumb) one summary line at the end, retries\n"
	"as they happen, and with -v a line per component; -q prints nothing.\n"
	"\n"
	"Network: https only unless the mirror or manifest given is http or file;\n"
	"redirects only to https.  https_proxy and no_proxy are honoured;\n"
	"CURL_CA_BUNDLE, SSL_CERT_FILE and SSL_CERT_DIR name the CA certificates.\n"
	"\n"
	"Examples:\n"
	"  ptbuild fetch --prefix /usr/local/cuda-13.0     # what this host's plan needs\n"
	"  ptbuild fetch --cuda 12.4.1 --components cuda_nvcc,cuda_cudart,cuda_cccl --prefix /opt/cuda-12.4\n"
	"  ptbuild fetch --lock cuda.lock --prefix /opt/cuda --offline\n"
	"  ptbuild fetch --facts /shared/facts --prefix /opt/cuda   # /opt/cuda/x86_64, /opt/cuda/sbsa\n",
};

/* Let an explicitly given URL use its scheme; a bare path becomes file://. */
static char *explicit_url(const char *u, struct ptb_net_opts *net, struct ptb_err *err)
{
	if (strncmp(u, "https://", 8) == 0)
		return ptb_xstrdup(u);
	if (strncmp(u, "http://", 7) == 0) {
		net->allow_http = 1;
		return ptb_xstrdup(u);
	}
	if (strncmp(u, "file://", 7) == 0) {
		net->allow_file = 1;
		return ptb_xstrdup(u);
	}
	if (strstr(u, "://")) {
		ptb_err_set(err, PTB_EUSAGE, "'%s': only https, http and file URLs are supported", u);
		return NULL;
	}
	net->allow_file = 1;
	if (u[0] == '/')
		return ptb_xasprintf("file://%s", u);
	{
		char cwd[4096];

		if (!getcwd(cwd, sizeof cwd)) {
			ptb_err_set(err, PTB_EIO, "cannot find the current directory");
			return NULL;
		}
		return ptb_xasprintf("file://%s/%s", cwd, u);
	}
}

/* What fetch keeps to free at the end. */
struct kept {
	char *mirror, *manifest, *components, *cuda;
	cJSON *nvidia;            /* recipes/fetch.lua's defaults, once asked */
};

/* What fetch knows of NVIDIA without a plan, from the recipes
 * (fetch.defaults): {cuda_redist, cudnn_redist, platform?}, the platform
 * this machine's (uname -m).  Asked once; NULL with err. */
static const cJSON *nvidia(struct ptb_ctx *ctx, struct kept *k, struct ptb_err *err)
{
	struct utsname u;
	struct ptb_lua *lua;
	cJSON *args;
	int rc;

	if (k->nvidia)
		return k->nvidia;
	if (!(lua = ptb_ctx_lua(ctx, err)))
		return NULL;
	args = cJSON_CreateObject();
	if (uname(&u) == 0)
		cJSON_AddStringToObject(args, "machine", u.machine);
	rc = ptb_recipe_call(lua, "fetch", "defaults", args, &k->nvidia, NULL, err);
	cJSON_Delete(args);
	if (rc != 0)
		return NULL;
	if (!ptb_json_str(k->nvidia, "cuda_redist") || !ptb_json_str(k->nvidia, "cudnn_redist")) {
		ptb_err_set(err, PTB_ERECIPE, "recipe 'fetch.defaults' returned no cuda_redist and cudnn_redist base URLs");
		cJSON_Delete(k->nvidia);
		k->nvidia = NULL;
	}
	return k->nvidia;
}

/* url with NVIDIA's CUDA or cuDNN redist base (nv's) replaced by the
 * mirror's (NULL when url is under neither).  One mirror directory holds
 * both trees: their relative paths (cuda_nvcc/..., cudnn/...) do not
 * collide. */
static char *mirrored(const char *url, const char *mirror, const cJSON *nv)
{
	static const char *const bases[] = { "cuda_redist", "cudnn_redist" };

	for (size_t b = 0; b < sizeof bases / sizeof *bases; b++) {
		const char *base = ptb_json_str(nv, bases[b]);
		size_t bl = strlen(base);

		while (bl && base[bl - 1] == '/')
			bl--;
		if (strncmp(url, base, bl) == 0 && url[bl] == '/')
			return ptb_path_join(mirror, url + bl + 1);
	}
	return NULL;
}

/* https://HOST/PATH as MIRROR/HOST/PATH (NULL for any other URL). */
static char *hosts_url(const char *url, const char *mirror)
{
	if (strncmp(url, "https://", 8) != 0 || !url[8] || url[8] == '/')
		return NULL;
	return ptb_path_join(mirror, url + 8);
}

/* Take the items the plan names out of the mirror instead: NVIDIA's
 * CUDA and cuDNN files at their redist paths (above), anything else the
 * plan downloads over https (OpenBLAS, ACL) at MIRROR/HOST/PATH, the
 * layout the Dockerfile's PTBUILD_MIRROR reads. */
static void mirror_items(struct ptb_fetch_list *l, const char *mirror, const cJSON *nv)
{
	for (size_t i = 0; i < l->n; i++) {
		const char *url = l->items[i].url;
		char *u = nv ? mirrored(url, mirror, nv) : NULL;

		if (!u)
			u = hosts_url(url, mirror);
		if (u) {
			free(l->items[i].url);
			l->items[i].url = u;
		}
	}
}

/* The items of a manifest body, as the options select them. */
static int select_items(struct opts *o, const char *url, const struct ptb_buf *body,
                        struct ptb_fetch_list *l, struct ptb_err *err)
{
	struct ptb_manifest_sel sel = { 0 };
	char *base, **comps = NULL, *list = NULL;
	cJSON *doc;
	int rc;

	doc = ptb_json_parse(body->data, body->len, url, err);
	if (!doc)
		return -1;
	base = ptb_xstrndup(url, (size_t)(strrchr(url, '/') - url + 1));
	sel.platform = l->platform;
	sel.variant = o->variant;
	sel.cuda = o->cuda;
	if (o->components) {
		char *save = NULL, *tok;
		size_t n = 0;

		list = ptb_xstrdup(o->components);
		comps = ptb_xcalloc(strlen(list) + 1, sizeof *comps);
		for (tok = strtok_r(list, ", ", &save); tok; tok = strtok_r(NULL, ", ", &save))
			comps[n++] = tok;
		sel.components = (const char *const *)comps;
		sel.ncomponents = n;
	}
	rc = ptb_manifest_select(doc, url, base, &sel, l, err);
	cJSON_Delete(doc);
	free(base);
	free(comps);
	free(list);
	return rc;
}

static int in_cache(const char *cache, const struct ptb_fetch_item *it, char **path);

/* The manifest at url could not be reached.  When the cache holds that
 * manifest and every file this fetch would take from it (and every
 * --file), --offline can stand in for the network: say so first. */
static void hint_offline(struct opts *o, const struct ptb_net_opts *net, const char *cache,
                         const char *url, const struct ptb_fetch_list *l, struct ptb_err *err)
{
	struct ptb_net_opts off = *net;
	struct ptb_fetch_list s = { 0 };
	struct ptb_err e = { 0 };
	struct ptb_buf body;
	char sha[65], why[sizeof err->hint];
	size_t have = 0, need;

	off.offline = 1;
	off.unreachable = NULL;
	ptb_buf_init(&body);
	s.platform = l->platform ? ptb_xstrdup(l->platform) : NULL;
	if (ptb_fetch_small(url, cache, o->manifest_sha, &off, &body, sha, &e) == 0 &&
	    select_items(o, url, &body, &s, &e) == 0) {
		for (size_t i = 0; i < s.n; i++) {
			char *path;

			have += in_cache(cache, &s.items[i], &path);
			free(path);
		}
		need = s.n;
		for (int i = 0; i < o->nfiles; i++) {
			const char *at = strrchr(o->files[i], '@');
			char *path = ptb_xasprintf("%s/sha256/%s", cache, at ? at + 1 : "");

			have += at && ptb_path_is_file(path);
			need++;
			free(path);
		}
		if (need > 0 && have == need) {
			snprintf(why, sizeof why, "%s", err->hint);
			ptb_err_hint(err, "the cache '%s' holds this manifest and all %zu file%s it needs: "
			             "run the same fetch with --offline%s%s", cache, need, need == 1 ? "" : "s",
			             *why ? "; or: " : "", why);
		}
	}
	ptb_buf_free(&body);
	ptb_fetch_list_free(&s);
}

/* A manifest fetched for --cuda (NVIDIA's or a mirror's) against what
 * ptbuild carries of NVIDIA's redistrib_<cuda>.json (recipe fetch.pins):
 * every selected component it carries must have NVIDIA's path, size and
 * sha256.  0, or -1 with err (PTB_EIO) naming the first that differs. */
static int hold_to_pins(struct ptb_ctx *ctx, const struct opts *o, const struct ptb_fetch_list *l,
                        struct ptb_err *err)
{
	struct ptb_lua *lua = ptb_ctx_lua(ctx, err);
	cJSON *args, *res = NULL;
	const cJSON *f;
	int rc;

	if (!lua)
		return -1;
	args = cJSON_CreateObject();
	cJSON_AddStringToObject(args, "cuda", o->cuda);
	cJSON_AddStringToObject(args, "platform", l->platform ? l->platform : "");
	rc = ptb_recipe_call(lua, "fetch", "pins", args, &res, NULL, err);
	cJSON_Delete(args);
	if (rc != 0)
		return -1;
	for (size_t i = 0; i < l->n && rc == 0; i++) {
		const struct ptb_fetch_item *it = &l->items[i];

		cJSON_ArrayForEach(f, cJSON_GetObjectItemCaseSensitive(res, "files")) {
			const char *name = ptb_json_str(f, "name"), *rel = ptb_json_str(f, "relative_path");
			const char *sha = ptb_json_str(f, "sha256");
			const cJSON *size = cJSON_GetObjectItemCaseSensitive(f, "size");
			size_t ul = strlen(it->url), rl = rel ? strlen(rel) : 0;

			if (!name || strcmp(name, it->name) != 0)
				continue;
			if (!rel || !sha || ul < rl || strcmp(it->url + ul - rl, rel) != 0 || strcmp(it->sha256, sha) != 0 ||
			    (cJSON_IsNumber(size) && it->size != (int64_t)size->valuedouble)) {
				ptb_err_set(err, PTB_EIO, "the manifest '%s' names another %s than NVIDIA's redistrib_%s.json, "
				            "which ptbuild carries: %s (%lld bytes, sha256 %.12s...), not %s (%.0f bytes, sha256 %.12s...)",
				            l->manifest_url ? l->manifest_url : "?", it->name, o->cuda, it->url,
				            (long long)it->size, it->sha256, rel ? rel : "?",
				            cJSON_IsNumber(size) ? size->valuedouble : -1.0, sha ? sha : "?");
				ptb_err_hint(err, "a mirror must serve NVIDIA's files unchanged; to install from a manifest of "
				             "your own, give it with --manifest (and --manifest-sha256)");
				rc = -1;
			}
			break;
		}
	}
	cJSON_Delete(res);
	return rc;
}

/* --cuda as the release label whose manifest NVIDIA publishes (recipe
 * fetch.label): a minor release ("13.4") is its last update ("13.4.2"),
 * said in a note; o->cuda then points at k->cuda.  0, or -1 with err. */
static int cuda_label(struct ptb_ctx *ctx, struct opts *o, struct kept *k, struct ptb_err *err)
{
	struct ptb_lua *lua = ptb_ctx_lua(ctx, err);
	cJSON *args, *res = NULL;
	const char *label;

	if (!lua)
		return -1;
	args = cJSON_CreateObject();
	cJSON_AddStringToObject(args, "cuda", o->cuda);
	if (ptb_recipe_call(lua, "fetch", "label", args, &res, NULL, err) != 0) {
		cJSON_Delete(args);
		return -1;
	}
	cJSON_Delete(args);
	label = ptb_json_str(res, "label");
	if (label && strcmp(label, o->cuda) != 0) {
		ptb_note("--cuda %s: fetching its last update, CUDA %s (NVIDIA publishes redistrib_%s.json, none for %s)",
		         o->cuda, label, label, o->cuda);
		k->cuda = ptb_xstrdup(label);
		o->cuda = k->cuda;
	}
	cJSON_Delete(res);
	return 0;
}

/* The items of o's manifest: --manifest, else redistrib_CUDA.json under
 * the mirror or NVIDIA's redist base redist. */
static int from_manifest(struct opts *o, struct ptb_net_opts *net, const char *cache,
                         const char *redist, struct ptb_fetch_list *l, struct ptb_err *err)
{
	struct ptb_buf body;
	char *url = NULL;
	int rc = -1, unreachable = 0;

	if (o->manifest) {
		url = explicit_url(o->manifest, net, err);
	} else {
		char *m = o->mirror ? explicit_url(o->mirror, net, err) : ptb_xstrdup(redist);

		if (m) {
			char *name = ptb_xasprintf("redistrib_%s.json", o->cuda);

			url = ptb_path_join(m, name);
			free(name);
		}
		free(m);
		if (url && o->mirror_hosts) {
			/* NVIDIA's manifest URL under the mirror's HOST/PATH tree */
			char *h = explicit_url(o->mirror_hosts, net, err), *u = h ? hosts_url(url, h) : NULL;

			free(url);
			free(h);
			url = u;
		}
	}
	if (!url)
		return -1;
	ptb_buf_init(&body);
	net->unreachable = &unreachable;
	if (ptb_fetch_small(url, cache, o->manifest_sha, net, &body, l->manifest_sha256, err) != 0) {
		if (unreachable && !net->offline)
			hint_offline(o, net, cache, url, l, err);
		goto out;
	}
	if (select_items(o, url, &body, l, err) != 0)
		goto out;
	l->manifest_url = url;
	url = NULL;
	rc = 0;
out:
	net->unreachable = NULL;
	ptb_buf_free(&body);
	free(url);
	return rc;
}

/* The plan's problems (a fleet build's, named by its platform where),
 * before anything is fetched: what ptbuild plan would say of the CUDA
 * about to be downloaded (an Orin that cannot run it, data assumed) is
 * said here too, an error as an error unless --force.  Returns the
 * number of errors (counted under -q too). */
static int say_problems(const struct ptb_ctx *ctx, const struct opts *o, const cJSON *plan,
                        const char *where)
{
	const cJSON *problems = cJSON_GetObjectItemCaseSensitive(plan, "problems");
	int errors;

	if (ctx->verbosity < 0)
		return ptb_problems_count(problems, "error");
	errors = ptb_problems_log(problems, where, o->force);
	if (errors && o->force)
		ptb_note("the plan%s%s has %d error%s ('ptbuild plan' exits 1 for it): fetching its files all the same (--force)",
		         where ? " of " : "", where ? where : "", errors, errors == 1 ? "" : "s");
	return errors;
}

/* A plan with errors fetches nothing without --force, as generate writes
 * nothing for it.  what names the plan ("the plan", "the plan 'FILE'",
 * "the fleet plan"), why its errors.  -1 with err (PTB_EFOUND); for a
 * --dry-run, 0: it lists the files all the same and the refusal is said
 * at the end (o->refusal, exit 1). */
static int refuse_errors(struct opts *o, const char *what, int errors, const char *why,
                         struct ptb_err *err)
{
	struct ptb_err *e = o->dry_run ? &o->refusal : err;

	ptb_err_set(e, PTB_EFOUND, "%s has %d error%s (%s): %s", what, errors, errors == 1 ? "" : "s",
	            why ? why : "?", o->dry_run ? "without --dry-run nothing would be fetched"
	                                         : "nothing fetched");
	ptb_err_hint(e, "fix the plan (each error is said above with its fix), or fetch its files anyway with --force");
	if (!o->dry_run)
		return -1;
	o->refused = 1;
	return 0;
}

/* say_problems, then refuse_errors for a plan with errors: 0 to go on,
 * -1 with err. */
static int judge_plan(const struct ptb_ctx *ctx, struct opts *o, const cJSON *plan,
                      const char *what, struct ptb_err *err)
{
	int errors = say_problems(ctx, o, plan, NULL), rc = 0;

	if (errors && !o->force) {
		char *why = ptb_problems_join_codes(cJSON_GetObjectItemCaseSensitive(plan, "problems"), "error");

		rc = refuse_errors(o, what, errors, why, err);
		free(why);
	}
	return rc;
}

/* The items a plan document names: its downloads, taken from the mirror
 * when one is given, and, when the plan says so (cuda.files_from_manifest:
 * a CUDA release whose checksums ptbuild does not carry), the plan's CUDA
 * components resolved through its manifest.  A plan saved before that key
 * existed says it by an empty cuda.downloads. */
static int plan_items(struct ptb_ctx *ctx, struct opts *o, const cJSON *plan,
                      struct ptb_net_opts *net, const char *cache,
                      struct ptb_fetch_list *l, struct kept *k, struct ptb_err *err)
{
	const char *src = ptb_json_str(plan, "cuda.source");
	const char *root = ptb_json_str(plan, "cuda.root");
	const cJSON *says = ptb_json_get(plan, "cuda.files_from_manifest"), *nv = NULL;
	int resolve = cJSON_IsBool(says) ? cJSON_IsTrue(says)
	                                 : cJSON_GetArraySize(ptb_json_get(plan, "cuda.downloads")) == 0;

	if (ptb_fetch_items_from_plan(plan, l, err) != 0) {
		if (o->plan) {
			/* A saved plan is an input file: name it (exit 2). */
			char msg[sizeof err->msg];

			snprintf(msg, sizeof msg, "%s", err->msg);
			ptb_err_set(err, PTB_EUSAGE, "bad plan file '%s': %s", o->plan, msg);
		} else {
			err->code = PTB_ERECIPE;   /* the recipes made this plan */
		}
		return -1;
	}
	if (o->mirror) {
		if (!(nv = nvidia(ctx, k, err)) || !(k->mirror = explicit_url(o->mirror, net, err)))
			return -1;
		o->mirror = k->mirror;
		mirror_items(l, o->mirror, nv);
	} else if (o->mirror_hosts) {
		if (!(k->mirror = explicit_url(o->mirror_hosts, net, err)))
			return -1;
		mirror_items(l, k->mirror, NULL);
	}
	if (src && strcmp(src, "download") == 0 && resolve && ptb_json_str(plan, "cuda.manifest")) {
		struct ptb_buf comps;
		const cJSON *c;

		ptb_buf_init(&comps);
		cJSON_ArrayForEach(c, ptb_json_get(plan, "cuda.components"))
			if (cJSON_IsString(c))
				ptb_buf_printf(&comps, "%s%s", comps.len ? "," : "", c->valuestring);
		k->manifest = o->mirror ? mirrored(ptb_json_str(plan, "cuda.manifest"), o->mirror, nv)
		            : o->mirror_hosts ? hosts_url(ptb_json_str(plan, "cuda.manifest"), k->mirror) : NULL;
		if (!k->manifest)
			k->manifest = ptb_xstrdup(ptb_json_str(plan, "cuda.manifest"));
		o->manifest = k->manifest;
		o->components = k->components = ptb_buf_detach(&comps);
		if (from_manifest(o, net, cache, NULL, l, err) != 0)
			return -1;
	} else if (src && strcmp(src, "download") != 0 && ctx->verbosity >= 0) {
		/* a Jetson's CUDA: where the plan says it comes from
		 * (cuda.origin; a plan saved before it: JetPack) */
		int jp = strcmp(src, "jetpack") == 0;
		const char *origin = ptb_json_str(plan, "cuda.origin");
		int own = !origin || strcmp(origin, "JetPack") == 0;

		ptb_note("the plan uses CUDA %s %s%s at %s: no CUDA to fetch%s",
		         ptb_json_str(plan, "cuda.full_version") ? ptb_json_str(plan, "cuda.full_version") : "",
		         jp ? "from " : "installed", jp ? (origin ? origin : "JetPack") : "",
		         root ? root : "?", jp && !own ? " (setup.sh says how to install it)" : "");
	}
	return 0;
}

/* The name an --archive item gets: the archive's file name without its
 * .tar.* ending (NVIDIA's cudnn-linux-x86_64-9.24.0.43_cuda13-archive);
 * it names share/licenses/<name> and the item in messages and locks.
 * Caller frees. */
static char *archive_name(const char *base)
{
	const char *t = strstr(base, ".tar");

	if (t && t > base && (t[4] == '\0' || t[4] == '.'))
		return ptb_xstrndup(base, (size_t)(t - base));
	if (strlen(base) > 4 && strcmp(base + strlen(base) - 4, ".tgz") == 0)
		return ptb_xstrndup(base, strlen(base) - 4);
	return ptb_xstrdup(base);
}

/* --file and --archive: one item each, URL@SHA256, the URL's scheme let
 * through as for --manifest.  0, or -1 with err (PTB_EUSAGE naming the
 * option and its value). */
static int add_files(struct opts *o, struct ptb_net_opts *net, struct ptb_fetch_list *l,
                     struct ptb_err *err)
{
	for (int i = 0; i < o->nfiles; i++) {
		const char *opt = o->unpack[i] ? "--archive" : "--file";
		const char *at = strrchr(o->files[i], '@'), *b, *why;
		struct ptb_fetch_item *it;
		char *url, *name;

		if (!at || at == o->files[i] || !ptb_fetch_is_sha256(at + 1)) {
			ptb_err_set(err, PTB_EUSAGE, "%s '%s': expected URL@SHA256 (64 lowercase hex digits)", opt, o->files[i]);
			return -1;
		}
		url = ptb_xstrndup(o->files[i], (size_t)(at - o->files[i]));
		if (strncmp(url, "https://", 8) != 0) {
			char *u = explicit_url(url, net, err);
			free(url);
			if (!u)
				return -1;
			url = u;
		}
		b = strrchr(url, '/');
		b = b && b[1] ? b + 1 : url;
		name = o->unpack[i] ? archive_name(b) : ptb_xstrdup(b);
		if (o->unpack[i] && !ptb_fetch_name_ok(name, &why)) {
			ptb_err_set(err, PTB_EUSAGE, "%s '%s': the archive's name '%s' %s", opt, o->files[i], name, why);
			ptb_err_hint(err, "give the URL of the archive file itself (.../NAME.tar.xz)");
			free(name);
			free(url);
			return -1;
		}
		it = ptb_fetch_list_add(l);
		it->name = name;
		it->url = url;
		memcpy(it->sha256, at + 1, 65);
		it->kind = o->unpack[i] ? PTB_ITEM_ARCHIVE : PTB_ITEM_FILE;
	}
	return 0;
}

/* The prefix already holds exactly this set. */
/* The cache file of an item, when the cache holds one of the right size
 * (it is hashed again when used). */
static int in_cache(const char *cache, const struct ptb_fetch_item *it, char **path)
{
	struct stat st;

	*path = ptb_xasprintf("%s/sha256/%s", cache, it->sha256);
	return stat(*path, &st) == 0 && S_ISREG(st.st_mode) &&
	       (it->size < 0 || st.st_size == it->size);
}

/* --dry-run: what a fetch would do, on stdout. */
static void dry_run(const struct opts *o, const struct ptb_fetch_list *l, const char *cache,
                    int64_t total)
{
	int64_t need = 0;
	size_t hits = 0, unsized = 0, unsized_need = 0;
	char b[32];

	for (size_t i = 0; i < l->n; i++) {
		char *path;
		int hit = in_cache(cache, &l->items[i], &path);

		hits += hit;
		unsized += l->items[i].size < 0;
		if (!hit && l->items[i].size > 0)
			need += l->items[i].size;
		else if (!hit && l->items[i].size < 0)
			unsized_need++;
		free(path);
	}
	/* an item no source gave a size for (a --file, a cuDNN archive known
	 * by its sha256 alone) is counted apart: the byte total leaves it out */
	ptb_fmt_bytes(b, sizeof b, (double)total);
	printf("would fetch %zu component%s (", l->n, l->n == 1 ? "" : "s");
	if (unsized == l->n)
		printf("sizes unknown");
	else if (unsized)
		printf("%s and %zu of unknown size", b, unsized);
	else
		printf("%s", b);
	printf(") for %s", l->platform ? l->platform : "this platform");
	if (o->prefix)
		printf(" into %s\n", o->prefix);
	else
		printf(" into the cache %s (no --prefix: nothing installed)\n", cache);
	ptb_fmt_bytes(b, sizeof b, (double)need);
	printf("cache %s holds %zu of them; %s to download", cache, hits, b);
	if (unsized_need)
		printf(" and %zu file%s of unknown size", unsized_need, unsized_need == 1 ? "" : "s");
	printf("\n");
	if (l->manifest_url)
		printf("manifest %s\n", l->manifest_url);
	for (size_t i = 0; i < l->n; i++) {
		const struct ptb_fetch_item *it = &l->items[i];
		char *path;
		int hit = in_cache(cache, it, &path);

		if (it->size >= 0)
			ptb_fmt_bytes(b, sizeof b, (double)it->size);
		else
			snprintf(b, sizeof b, "size unknown");
		printf("  %-22s %-10s %-11s %.12s  %s\n", it->name, it->version ? it->version : "-", b,
		       it->sha256, hit ? path : it->url);
		free(path);
	}
}

/* --offline: every item the cache lacks, named at once. */
static int offline_missing(const struct ptb_fetch_list *l, const char *cache, struct ptb_err *err)
{
	struct ptb_buf names;
	size_t n = 0;

	ptb_buf_init(&names);
	for (size_t i = 0; i < l->n; i++) {
		char *path;

		if (!in_cache(cache, &l->items[i], &path)) {
			ptb_buf_printf(&names, "\n  '%s' (sha256 %s)", l->items[i].name, l->items[i].sha256);
			n++;
		}
		free(path);
	}
	if (n) {
		ptb_err_set(err, PTB_EIO, "--offline: the cache '%s' lacks %zu of %zu file%s:%s", cache, n, l->n,
		            l->n == 1 ? "" : "s", names.data);
		ptb_err_hint(err, "run the same fetch once with the network (or --mirror), then --offline");
	}
	ptb_buf_free(&names);
	return n ? -1 : 0;
}

static int up_to_date(const char *prefix, const struct ptb_fetch_list *l)
{
	struct ptb_fetch_list have = { 0 };
	struct ptb_err e = { 0 };
	char *lock = ptb_install_lock_path(prefix);
	int same = 0;

	if (ptb_path_is_file(lock) && ptb_lock_read(lock, &have, &e) == 0 && have.n == l->n) {
		same = 1;
		for (size_t i = 0; i < l->n && same; i++)
			same = strcmp(have.items[i].sha256, l->items[i].sha256) == 0 &&
			       strcmp(have.items[i].name, l->items[i].name) == 0;
	}
	ptb_fetch_list_free(&have);
	free(lock);
	return same;
}

static int on_ready(void *ud, struct ptb_fetch_item *it, struct ptb_err *err)
{
	if (ud)
		return ptb_install_add(ud, it, err);   /* hashed as it unpacks */
	return it->from_cache ? ptb_fetch_verify(it, err) : 0;
}

/* A cache entry found damaged was evicted: worth another round when
 * online (each round evicts at least one, so l->n rounds at most). */
static int retry_damaged(const struct ptb_fetch_list *l, int offline, int round)
{
	int any = 0;

	for (size_t i = 0; i < l->n; i++)
		any |= l->items[i].damaged;
	return any && !offline && (size_t)round < l->n;
}

static int on_poll(void *ud, struct ptb_err *err)
{
	return ud ? ptb_install_poll(ud, err) : 0;
}

/* Archives unpack while they download when a worker is free. */
static int on_stream(void *ud, struct ptb_fetch_item *it, const char *part)
{
	return ud ? ptb_install_stream(ud, it, part) : -1;
}

static void on_abandon(void *ud, struct ptb_fetch_item *it)
{
	if (ud)
		ptb_install_abandon(ud, it);
}

static const struct ptb_fetch_stream stream_hooks = { on_stream, on_abandon };

/* Children unpack after chdir into the staging tree: every path they are
 * given must be absolute. */
static char *absolute(const char *p)
{
	char cwd[4096];

	if (p[0] == '/' || !getcwd(cwd, sizeof cwd))
		return ptb_xstrdup(p);
	return ptb_xasprintf("%s/%s", cwd, p);
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* --lock FILE: its items; a lock names its URLs itself, so their schemes
 * are let through.  0, or -1 with err. */
static int lock_items(const struct opts *o, struct ptb_net_opts *net, struct ptb_fetch_list *l,
                      struct ptb_err *err)
{
	if (ptb_lock_read(o->lock, l, err) != 0)
		return -1;
	for (size_t i = 0; i < l->n; i++) {
		net->allow_http |= strncmp(l->items[i].url, "http://", 7) == 0;
		net->allow_file |= strncmp(l->items[i].url, "file://", 7) == 0;
	}
	return 0;
}

/* Plan options (or none): what the plan made here needs.  0, 1 when it
 * needs no download (said), or -1 with err. */
static int plan_mode_items(struct ptb_ctx *ctx, struct opts *o, struct ptb_net_opts *net,
                           const char *cache, struct ptb_fetch_list *l, struct kept *k,
                           struct ptb_err *err)
{
	cJSON *plan = NULL;
	struct ptb_lua *lua;

	if (o->cuda)
		o->p.cuda = o->cuda;       /* here --cuda chooses the plan's CUDA */
	lua = ptb_ctx_lua(ctx, err);
	if (!lua || ptb_plan_make(lua, &o->p, &plan, NULL, err) != 0)
		return -1;
	if (judge_plan(ctx, o, plan, "the plan", err) != 0 ||
	    plan_items(ctx, o, plan, net, cache, l, k, err) != 0) {
		cJSON_Delete(plan);
		return -1;
	}
	const char *src = ptb_json_str(plan, "cuda.source");
	const char *root = ptb_json_str(plan, "cuda.root");
	if (!o->prefix && root && src && strcmp(src, "download") == 0 && ctx->verbosity >= 0)
		ptb_note("only the cache is filled; --prefix %s installs where the plan expects CUDA", root);
	cJSON_Delete(plan);
	if (add_files(o, net, l, err) != 0)
		return -1;
	if (l->n == 0) {
		if (ctx->verbosity >= 0)
			printf("nothing to fetch: the plan needs no download\n");
		return 1;
	}
	return 0;
}

/* --plan FILE, --cuda, --manifest and --file: their items, for the
 * platform --platform or this machine's.  0, 1 when a --plan needs no
 * download (said), or -1 with err. */
static int named_items(struct ptb_ctx *ctx, struct opts *o, struct ptb_net_opts *net,
                       const char *cache, struct ptb_fetch_list *l, struct kept *k,
                       struct ptb_err *err)
{
	if (o->plan) {
		/* Checked by form as generate --plan checks it. */
		cJSON *plan = ptb_plan_load(o->plan, err);
		char *what = ptb_xasprintf("the plan '%s'", o->plan);
		int bad = !plan || judge_plan(ctx, o, plan, what, err) != 0 ||
		          plan_items(ctx, o, plan, net, cache, l, k, err) != 0;

		free(what);
		cJSON_Delete(plan);
		if (bad)
			return -1;
	}
	if (o->platform) {
		free(l->platform);
		l->platform = ptb_xstrdup(o->platform);
	} else if (!l->platform) {
		const cJSON *nv = nvidia(ctx, k, err);

		if (!nv)
			return -1;
		if (ptb_json_str(nv, "platform"))
			l->platform = ptb_xstrdup(ptb_json_str(nv, "platform"));
	}
	if (!l->platform) {
		ptb_err_set(err, PTB_EUSAGE, "cannot tell the NVIDIA platform of this machine");
		ptb_err_hint(err, "give --platform linux-x86_64, linux-sbsa or linux-aarch64");
		return -1;
	}
	if (!k->manifest && (o->manifest || (o->cuda && !o->plan))) {
		const cJSON *nv = o->manifest ? NULL : nvidia(ctx, k, err);

		if (!o->manifest && !nv)
			return -1;
		if (!o->manifest && !k->cuda && cuda_label(ctx, o, k, err) != 0)
			return -1;
		if (from_manifest(o, net, cache, nv ? ptb_json_str(nv, "cuda_redist") : NULL, l, err) != 0)
			return -1;
		if (!o->manifest && hold_to_pins(ctx, o, l, err) != 0)
			return -1;
	}
	if (add_files(o, net, l, err) != 0)
		return -1;
	/* a plan that uses an installed toolkit: nothing to do, as for the
	 * plan the options make (plan_mode_items) and a fleet's build */
	if (o->plan && l->n == 0) {
		if (ctx->verbosity >= 0)
			printf("nothing to fetch: the plan needs no download\n");
		return 1;
	}
	return 0;
}

/* The items to fetch, by what the options name.  0, 1 when there is
 * nothing to do (said), or -1 with err. */
static int collect_items(struct ptb_ctx *ctx, struct opts *o, int plan_mode, struct ptb_net_opts *net,
                         const char *cache, struct ptb_fetch_list *l, struct kept *k,
                         struct ptb_err *err)
{
	if (o->lock)
		return lock_items(o, net, l, err);
	if (plan_mode)
		return plan_mode_items(ctx, o, net, cache, l, k, err);
	return named_items(ctx, o, net, cache, l, k, err);
}

/* The bytes the items' sources give sizes for (each item named with -v). */
static int64_t known_sizes(const struct ptb_fetch_list *l)
{
	int64_t total = 0;

	for (size_t i = 0; i < l->n; i++) {
		total += l->items[i].size > 0 ? l->items[i].size : 0;
		ptb_debug("item %s: %s", l->items[i].name, l->items[i].url);
	}
	return total;
}

/* The bytes of the fetched items no source gave a size for (--file). */
static int64_t found_sizes(const struct ptb_fetch_list *l)
{
	int64_t total = 0;

	for (size_t i = 0; i < l->n; i++) {
		struct stat st;

		if (l->items[i].size <= 0 && l->items[i].path && stat(l->items[i].path, &st) == 0)
			total += st.st_size;
	}
	return total;
}

/* libcurl is loaded when a fetch needs it.  0, or -1 with err. */
static int load_curl(struct ptb_err *err)
{
	if (ptb_curl_load() != 0) {
		ptb_err_set(err, PTB_EIO, "fetch needs libcurl, which cannot be loaded: %s", ptb_curl_error());
		ptb_err_hint(err, "install it (Debian/Ubuntu: apt-get install libcurl4)");
		return -1;
	}
	return 0;
}

/* The network options: fetch's, and the progress display the terminal
 * allows. */
static void net_setup(const struct ptb_ctx *ctx, const struct opts *o, struct ptb_net_opts *net)
{
	ptb_net_opts_default(net);
	if (o->jobs)
		net->jobs = o->jobs;
	if (o->retries >= 0)
		net->retries = o->retries;
	net->offline = o->offline;
	if (ctx->verbosity < 0)
		net->progress = 0;
	else if (isatty(2) && !(getenv("TERM") && strcmp(getenv("TERM"), "dumb") == 0))
		net->progress = 2;
	else
		net->progress = 1;
}

/* Download every item (and install into --prefix), starting over while
 * retry_damaged allows: the staging tree may hold some of a damaged
 * round's files.  *in is the install under way (the caller ends it);
 * *received grows by what came over the network.  0, or -1 with err. */
static int fetch_and_install(const struct opts *o, struct ptb_net_opts *net, const char *cache,
                             struct ptb_fetch_list *l, struct ptb_install **in,
                             int64_t *received, struct ptb_err *err)
{
	int workers = (int)sysconf(_SC_NPROCESSORS_ONLN);

	net->prog = ptb_progress_new(net->progress, l->n);
	ptb_fetch_catch_signals();
	net->stream = &stream_hooks;
	for (int round = 0;; round++) {
		if (o->prefix && !(*in = ptb_install_begin(o->prefix, workers > 0 ? workers : 1, err)))
			return -1;
		if (ptb_fetch_all(l, cache, net, on_ready, on_poll, *in, err) == 0 &&
		    (!*in || ptb_install_commit(*in, l, err) == 0))
			break;
		if (!retry_damaged(l, o->offline, round) || ptb_fetch_stop)
			return -1;
		ptb_warn("%s; downloading it again", err->msg);
		ptb_err_clear(err);
		ptb_install_end(*in);
		*in = NULL;
		for (size_t i = 0; i < l->n; i++) {
			l->items[i].damaged = l->items[i].from_cache = 0;
			free(l->items[i].path);
			l->items[i].path = NULL;
		}
		*received += ptb_progress_received(net->prog, NULL);
		ptb_progress_draw(net->prog, 1);
		ptb_progress_free(net->prog);
		net->prog = ptb_progress_new(net->progress, l->n);
	}
	*received += ptb_progress_received(net->prog, NULL);
	return 0;
}

/* The one line a log gets: how much, how much of it came over the
 * network and how fast (in net_secs), where it went, in all_secs; with
 * -v each item's path. */
static void print_summary(const struct ptb_ctx *ctx, const struct opts *o, struct ptb_net_opts *net,
                          const struct ptb_fetch_list *l, const char *cache, int64_t total,
                          int64_t received, double net_secs, double all_secs)
{
	char b[32], got[32], rate[32], what[128];

	ptb_fmt_bytes(b, sizeof b, (double)total);
	ptb_fmt_bytes(got, sizeof got, (double)received);
	ptb_fmt_bytes(rate, sizeof rate, net_secs > 0 ? (double)received / net_secs : 0);
	if (received > 0)
		snprintf(what, sizeof what, "%s, %s downloaded at %s/s", b, got, rate);
	else
		snprintf(what, sizeof what, "%s, all from the cache", b);
	ptb_progress_draw(net->prog, 1);
	if (o->prefix)
		printf("installed %zu component%s (%s) into %s in %.1f s\n", l->n, l->n == 1 ? "" : "s", what, o->prefix, all_secs);
	else
		printf("fetched %zu component%s (%s) into %s in %.1f s\n", l->n, l->n == 1 ? "" : "s", what, cache, all_secs);
	if (ctx->verbosity > 0)
		for (size_t i = 0; i < l->n; i++)
			printf("  %s  %s\n", l->items[i].name, l->items[i].path);
}

/* Parse argv into o and check how the sources combine: -1 to go on
 * (*plan_mode: fetch what a plan needs), else the status to return. */
static int read_options(struct ptb_ctx *ctx, int argc, char **argv,
                        struct opts *o, int *plan_mode)
{
	int rc = ptb_opt_parse(ctx, &ptb_cmd_fetch_def, argc, argv, o);

	if (rc >= 0)
		return rc;
	o->plan_opts = ptb_cmd_plan_opts_given(&o->p, 1);
	if (optind < argc)
		return ptb_cli_usage("fetch", "unexpected argument '%s'", argv[optind]);
	/* Nothing named: fetch what the plan (this host's, or the one the plan
	 * options describe) needs. */
	*plan_mode = o->plan_opts || (!o->cuda && !o->manifest && !o->lock && !o->plan && !o->nfiles);
	if (*plan_mode && (o->plan || o->lock || o->manifest))
		return ptb_cli_usage("fetch", "plan options exclude --plan, --lock and --manifest");
	if (o->mirror && o->mirror_hosts)
		return ptb_cli_usage("fetch", "--mirror and --mirror-hosts exclude each other (two layouts of a mirror)");
	if ((o->mirror || o->mirror_hosts) && o->manifest)
		return ptb_cli_usage("fetch", "--%s and --manifest exclude each other", o->mirror ? "mirror" : "mirror-hosts");
	if ((o->mirror || o->mirror_hosts) && !o->cuda && !*plan_mode && !o->plan)
		return ptb_cli_usage("fetch", "--%s needs --cuda VER to find redistrib_VER.json, or a plan",
		                     o->mirror ? "mirror" : "mirror-hosts");
	if (o->lock && (o->manifest || o->mirror || o->mirror_hosts || o->components || o->plan || o->nfiles))
		return ptb_cli_usage("fetch", "--lock fetches exactly its own items; drop --manifest, --mirror, --mirror-hosts, --components, --plan, --file and --archive");
	return -1;
}

/* Fetch the items of l (install into o->prefix): the dry run, or the
 * download, with the prefix held while it is written.  0, or -1 with
 * err. */
static int fetch_list(struct ptb_ctx *ctx, const struct opts *o, struct ptb_net_opts *net,
                      const char *cache, struct ptb_fetch_list *l, double t0, struct ptb_err *err)
{
	struct ptb_install *in = NULL;
	char *hold_path = NULL;
	int hold = -1, rc = -1;
	int64_t total, received = 0;
	double t_net;

	if (l->n == 0) {
		ptb_err_set(err, PTB_EUSAGE, "nothing to fetch");
		return -1;
	}
	total = known_sizes(l);
	if (o->dry_run) {
		dry_run(o, l, cache, total);
		return 0;
	}
	/* One fetch into a prefix at a time: a second waits, then usually
	 * finds the prefix up to date. */
	if (o->prefix && (hold = ptb_install_hold(o->prefix, &hold_path, err)) < 0)
		return -1;
	if (o->prefix && up_to_date(o->prefix, l)) {
		if (ctx->verbosity >= 0)
			printf("%s is up to date (%zu component%s)\n", o->prefix, l->n, l->n == 1 ? "" : "s");
		if (o->write_lock && ptb_lock_write(o->write_lock, l, err) != 0)
			goto out;
		rc = 0;
		goto out;
	}
	if (o->offline && offline_missing(l, cache, err) != 0)
		goto out;
	t_net = now_s();
	if (fetch_and_install(o, net, cache, l, &in, &received, err) != 0)
		goto out;
	total += found_sizes(l);
	if (o->write_lock && ptb_lock_write(o->write_lock, l, err) != 0)
		goto out;
	if (ctx->verbosity >= 0)
		print_summary(ctx, o, net, l, cache, total, received, now_s() - t_net, now_s() - t0);
	rc = 0;
out:
	ptb_install_end(in);
	ptb_progress_draw(net->prog, 1);
	ptb_progress_free(net->prog);
	net->prog = NULL;
	ptb_install_release(hold, hold_path);
	return rc;
}

static void kept_free(struct kept *k)
{
	free(k->mirror);
	free(k->manifest);
	free(k->components);
	free(k->cuda);
	cJSON_Delete(k->nvidia);
	memset(k, 0, sizeof *k);
}

/* The node names a fleet target serves, "a, b" (caller frees). */
static char *target_nodes(const cJSON *target)
{
	struct ptb_buf b;
	const cJSON *n;

	ptb_buf_init(&b);
	cJSON_ArrayForEach(n, cJSON_GetObjectItemCaseSensitive(target, "nodes"))
		if (cJSON_IsString(n))
			ptb_buf_printf(&b, "%s%s", b.len ? ", " : "", n->valuestring);
	if (!b.len)
		ptb_buf_adds(&b, "no node");
	return ptb_buf_detach(&b);
}

/* A fleet's problems, its own (a node no build serves, stale or skipped
 * files) and each build's (named by its platform), all said before
 * anything is fetched; with an error among them and no --force, nothing
 * is: the refusal names each build with errors and their codes.  0 to go
 * on, -1 with err. */
static int judge_fleet(const struct ptb_ctx *ctx, struct opts *o, const cJSON *fleet,
                       struct ptb_err *err)
{
	const cJSON *targets = cJSON_GetObjectItemCaseSensitive(fleet, "targets"), *b;
	const cJSON *own = cJSON_GetObjectItemCaseSensitive(fleet, "problems");
	struct ptb_buf why;
	int i = 0, errors, rc = 0;

	ptb_buf_init(&why);
	errors = ctx->verbosity < 0 ? ptb_problems_count(own, "error") : ptb_problems_log(own, "(fleet)", o->force);
	if (errors) {
		char *codes = ptb_problems_join_codes(own, "error");

		ptb_buf_printf(&why, "the fleet's own: %s", codes ? codes : "?");
		free(codes);
	}
	cJSON_ArrayForEach(b, cJSON_GetObjectItemCaseSensitive(fleet, "builds")) {
		const char *pf = ptb_json_str(cJSON_GetArrayItem(targets, i++), "platform");
		int n = say_problems(ctx, o, b, pf ? pf : "?");

		if (n) {
			char *codes = ptb_problems_join_codes(cJSON_GetObjectItemCaseSensitive(b, "problems"), "error");

			ptb_buf_printf(&why, "%sbuild '%s': %s", why.len ? "; " : "", pf ? pf : "?", codes ? codes : "?");
			free(codes);
			errors += n;
		}
	}
	if (errors && !o->force) {
		char *what = o->plan ? ptb_xasprintf("the fleet plan '%s'", o->plan) : ptb_xstrdup("the fleet plan");

		rc = refuse_errors(o, what, errors, why.data, err);
		free(what);
	}
	ptb_buf_free(&why);
	return rc;
}

/* A fleet: what each build needs, one after the other, each into
 * PREFIX/PLATFORM (the directory generate writes its files to), all
 * through the one cache.  0, or -1 with err (the build named). */
static int fetch_fleet(struct ptb_ctx *ctx, struct opts *o, const cJSON *fleet,
                       struct ptb_net_opts *net, const char *cache, double t0, struct ptb_err *err)
{
	const cJSON *targets = cJSON_GetObjectItemCaseSensitive(fleet, "targets"), *b;
	int i = 0, rc = 0, nbuilds = cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(fleet, "builds"));

	if (judge_fleet(ctx, o, fleet, err) != 0)
		return -1;
	cJSON_ArrayForEach(b, cJSON_GetObjectItemCaseSensitive(fleet, "builds")) {
		const cJSON *t = cJSON_GetArrayItem(targets, i++);
		const char *pf = ptb_json_str(t, "platform");
		const char *src = ptb_json_str(b, "cuda.source");
		struct ptb_fetch_list l = { 0 };
		struct kept k = { 0 };
		struct opts ob = *o;
		char *nodes = target_nodes(t), *prefix = NULL;

		if (!pf || !*pf || strchr(pf, '/') || strcmp(pf, ".") == 0 || strcmp(pf, "..") == 0) {
			ptb_err_set(err, PTB_ERECIPE, "fleet build %d has no platform that can name a directory", i - 1);
			free(nodes);
			return -1;
		}
		if (o->prefix)
			ob.prefix = prefix = ptb_path_join(o->prefix, pf);
		if (ctx->verbosity >= 0)
			printf("%s%s: CUDA %s (%s) for %s\n", i > 1 ? "\n" : "", pf,
			       ptb_json_str(b, "cuda.version") ? ptb_json_str(b, "cuda.version") : "?",
			       src ? src : "?", nodes);
		if (plan_items(ctx, &ob, b, net, cache, &l, &k, err) != 0 || add_files(&ob, net, &l, err) != 0) {
			rc = -1;
		} else if (l.n == 0) {
			if (ctx->verbosity >= 0)
				printf("%s: nothing to fetch: this build needs no download\n", pf);
		} else {
			if (!o->prefix && !o->dry_run && src && strcmp(src, "download") == 0 && ctx->verbosity >= 0)
				ptb_note("%s: only the cache is filled; --prefix DIR installs this build into DIR/%s", pf, pf);
			rc = fetch_list(ctx, &ob, net, cache, &l, t0, err);
		}
		if (rc != 0) {
			char msg[sizeof err->msg];

			snprintf(msg, sizeof msg, "%s", err->msg);
			snprintf(err->msg, sizeof err->msg, "fleet build '%.64s' (%d of %d): %.900s", pf, i, nbuilds, msg);
		}
		ptb_fetch_list_free(&l);
		kept_free(&k);
		free(nodes);
		free(prefix);
		if (rc != 0 || ptb_fetch_stop)
			return -1;
	}
	return 0;
}

/* The fleet the options name, or NULL: plan options for several facts
 * files, or --plan naming a fleet document.  *fail is set when it cannot
 * be made (err). */
static cJSON *fleet_of(struct ptb_ctx *ctx, struct opts *o, int plan_mode, int *fail, struct ptb_err *err)
{
	cJSON *doc = NULL;
	int is_fleet = 0;

	*fail = 0;
	if (plan_mode && ptb_plan_is_fleet(&o->p)) {
		struct ptb_lua *lua = ptb_ctx_lua(ctx, err);

		if (o->cuda)
			o->p.cuda = o->cuda;       /* --cuda chooses the builds' CUDA */
		if (!lua || ptb_fleet_make(lua, &o->p, &doc, err) != 0)
			*fail = 1;
		return doc;
	}
	if (!plan_mode && o->plan) {
		doc = ptb_plan_load_any(o->plan, &is_fleet, err);
		if (!doc)
			*fail = 1;
		else if (!is_fleet) {
			cJSON_Delete(doc);
			doc = NULL;
		}
	}
	return doc;
}

int ptb_cmd_fetch(struct ptb_ctx *ctx, int argc, char **argv)
{
	struct opts o = { .p.cmd = "fetch", .jobs = 0, .retries = -1 };
	struct ptb_err err = { 0 };
	struct ptb_fetch_list l = { 0 };
	struct ptb_net_opts net = { 0 };
	char *cache = NULL, *prefix_abs = NULL;
	struct kept keep = { 0 };
	cJSON *fleet = NULL;
	int rc, fail = 0;
	double t0 = now_s();
	int plan_mode = 0;

	rc = read_options(ctx, argc, argv, &o, &plan_mode);
	if (rc >= 0)
		return rc;

	net_setup(ctx, &o, &net);
	{
		char *c = ptb_cache_dir(o.cache);
		cache = absolute(c);
		free(c);
	}
	if (o.prefix)
		o.prefix = prefix_abs = absolute(o.prefix);
	if (load_curl(&err) != 0) {
		free(cache);
		free(prefix_abs);
		return ptb_report(&err);
	}
	curl_global_init(CURL_GLOBAL_DEFAULT);
	ptb_debug("sha256: %s", ptb_sha256_impl());

	fleet = fleet_of(ctx, &o, plan_mode, &fail, &err);
	if (fail)
		goto fail;
	if (fleet) {
		if (o.write_lock || o.platform || o.components || o.variant) {
			ptb_err_set(&err, PTB_EUSAGE, "a fleet fetches each build's own items: --%s does not apply",
			            o.write_lock ? "write-lock" : o.platform ? "platform" : o.components ? "components" : "variant");
			ptb_err_hint(&err, "drop it, or fetch one build with --plan OUT/PLATFORM/plan.json (ptbuild generate writes it)");
			goto fail;
		}
		if (fetch_fleet(ctx, &o, fleet, &net, cache, t0, &err) != 0)
			goto fail;
		goto done;
	}
	rc = collect_items(ctx, &o, plan_mode, &net, cache, &l, &keep, &err);
	if (rc < 0)
		goto fail;
	if (rc > 0)
		goto done;
	if (fetch_list(ctx, &o, &net, cache, &l, t0, &err) != 0)
		goto fail;
done:
	rc = 0;
	if (o.refused)
		rc = ptb_report(&o.refusal);   /* a --dry-run of a plan with errors */
	goto out;
fail:
	rc = ptb_report(&err);
	if (rc == 0)
		rc = PTB_EIO;
out:
	cJSON_Delete(fleet);
	ptb_fetch_list_free(&l);
	free(cache);
	free(prefix_abs);
	kept_free(&keep);
	curl_global_cleanup();
	return rc;
}
