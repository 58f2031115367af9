/* fuzz_detect.c - detect's parsers (in recipes/detect.lua: os-release,
 * cpuinfo, meminfo, /proc/driver/nvidia, GPU information, version.json,
 * cuDNN defines, `nvcc --version` output...) on arbitrary contents.  The input's
 * first byte picks which observation of a real machine (GH200 fixture,
 * tests/fuzz/detect-base.json) is replaced by the rest.  Whatever the
 * content, enrich must return facts that pass the facts contract: a bad
 * file is a missing fact with a note, never an error.  A first byte of
 * 0xF0 or more picks one of the cgroup files instead (/proc/self/cgroup
 * naming nested v1 and v2 groups, and their limit files); 0xE0..0xE3 a
 * compiler's `--version` output, 0xE4..0xE7 the strings read from a
 * compiler's binary (one a line) and its lib/gcc, 0xE8..0xEF an installed
 * torch's version.py (the version-valued facts: they must leave in the
 * form the facts contract checks, or as null).  Every input also goes, by
 * its second byte, into one place of the build environment doctor judges
 * (detect.environment: cgroup, cpuinfo, binfmt, host_config.h, version.py,
 * dist-info, conda-meta and library names), whose document must pass
 * ptb_facts_validate_environment. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "detect/facts.h"
#include "lua/engine.h"
#include "util/json.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct ptb_lua *lua;
static cJSON *base;

static const char *const slots[] = {
	"files./etc/os-release", "files./proc/sys/kernel/osrelease",
	"files./sys/devices/system/cpu/online", "files./proc/meminfo",
	"files./proc/self/smaps", "files./proc/driver/nvidia/version",
	"host.cpuinfo", "host.glibc", "host.elf_machine", "env.CUDA_HOME",
};

static const char *const cgroup_slots[] = {
	"files./proc/self/cgroup", "files./sys/fs/cgroup/a/memory.max",
	"files./sys/fs/cgroup/cpu.max", "files./sys/fs/cgroup/memory/a/memory.limit_in_bytes",
	"files./sys/fs/cgroup/cpu/cpu.cfs_quota_us",
};

/* Set the string at a dotted path whose last key may contain dots (files). */
static void set_str(cJSON *root, const char *path, const char *val)
{
	const char *dot = strchr(path, '.');
	char top[64];
	size_t n = (size_t)(dot - path);

	memcpy(top, path, n);
	top[n] = '\0';
	cJSON *obj = cJSON_GetObjectItemCaseSensitive(root, top);
	if (!cJSON_IsObject(obj))
		abort();
	cJSON_DeleteItemFromObjectCaseSensitive(obj, dot + 1);
	cJSON_AddStringToObject(obj, dot + 1, val);
}

/* The environment doctor judges (detect.environment): the same text in
 * one of the places probe_env.c fills, chosen by the second byte. */
static const char *const env_slots[] = {
	"files./proc/1/cgroup", "files./proc/cpuinfo",
	"files./proc/sys/fs/binfmt_misc/qemu-aarch64", "toolkit.host_config_gnuc",
	"toolkit.nvcc_binary_version", "torch.version_py", "torch.dist_info",
	"conda.meta", "pip.dist_info", "lib.real", "lib.name",
};

static void put(cJSON *obj, const char *key, cJSON *v)
{
	if (!cJSON_IsObject(obj)) {
		cJSON_Delete(v);
		return;
	}
	cJSON_DeleteItemFromObjectCaseSensitive(obj, key);
	cJSON_AddItemToObject(obj, key, v);
}

static void environment(const uint8_t *data, size_t size, const char *text)
{
	struct ptb_err err = { 0 };
	cJSON *raw = cJSON_CreateObject(), *env = NULL, *e, *first;
	const char *slot = env_slots[(size > 1 ? data[1] : 0) % (sizeof env_slots / sizeof *env_slots)];

	e = cJSON_Duplicate(cJSON_GetObjectItem(base, "environment"), 1);
	cJSON_AddItemToObject(raw, "environment", e);
	cJSON_AddStringToObject(raw, "arch", data[0] & 1 ? "aarch64" : "x86_64");
	if (strncmp(slot, "files.", 6) == 0) {
		put(cJSON_GetObjectItem(e, "files"), slot + 6, cJSON_CreateString(text));
	} else if (strncmp(slot, "toolkit.", 8) == 0) {
		first = cJSON_GetArrayItem(cJSON_GetObjectItem(e, "toolkits"), 0);
		if (strcmp(slot + 8, "nvcc_binary_version") == 0)
			cJSON_DeleteItemFromObject(first, "version_json");
		put(first, slot + 8, cJSON_CreateString(text));
	} else if (strncmp(slot, "torch.", 6) == 0) {
		first = cJSON_GetArrayItem(cJSON_GetObjectItem(e, "torch"), 0);
		if (strcmp(slot + 6, "version_py") == 0) {
			put(first, "version_py", cJSON_CreateString(text));
		} else {
			cJSON *a = cJSON_CreateArray();

			cJSON_AddItemToArray(a, cJSON_CreateString(text));
			put(first, "egg_info", a);
		}
	} else if (strcmp(slot, "conda.meta") == 0) {
		cJSON *a = cJSON_CreateArray();

		cJSON_AddItemToArray(a, cJSON_CreateString(text));
		put(cJSON_GetObjectItem(e, "conda"), "meta", a);
	} else if (strcmp(slot, "pip.dist_info") == 0) {
		put(cJSON_GetArrayItem(cJSON_GetObjectItem(e, "pip_nvidia"), 0), "dist_info", cJSON_CreateString(text));
	} else {
		first = cJSON_GetArrayItem(cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(e, "loader"), 0), "libs"), 0);
		put(first, slot + 4, cJSON_CreateString(text));
	}
	ptb_lua_reset_budget(lua);
	if (ptb_lua_call(lua, "detect", "environment", raw, &env, &err) != 0 ||
	    ptb_facts_validate_environment(env, "fuzz", &err) != 0) {
		fprintf(stderr, "fuzz_detect: environment (%s): %s\n%s\n", slot, err.msg, err.hint);
		abort();
	}
	cJSON_Delete(env);
	cJSON_Delete(raw);
}

/* The strings ptb.version_strings gives this run (any file), or NULL. */
static cJSON *fuzz_strings;

static int version_strings(void *ctx, const cJSON *arg, cJSON **out, struct ptb_err *err)
{
	(void)ctx;
	(void)arg;
	(void)err;
	*out = cJSON_CreateObject();
	if (fuzz_strings)
		cJSON_AddItemToObject(*out, "strings", cJSON_Duplicate(fuzz_strings, 1));
	return 0;
}

/* A compiler known by the strings of its binary (ptb.version_strings,
 * src/detect/probe_tools.c): the text's lines as its strings, its first
 * line also as a lib/gcc directory of its prefix; named with a major or
 * not by the byte. */
static void binary_compiler(cJSON *raw, uint8_t pick, const char *text)
{
	cJSON *c = cJSON_GetArrayItem(cJSON_GetObjectItem(raw, "compilers"), 0);
	cJSON *strs = cJSON_CreateArray(), *libs = cJSON_CreateArray();
	const char *p = text;
	char *line, *dir;

	if (!c) {
		cJSON_Delete(strs);
		cJSON_Delete(libs);
		return;
	}
	while (*p && cJSON_GetArraySize(strs) < 40) {
		size_t n = strcspn(p, "\n");

		line = ptb_xstrndup(p, n);
		cJSON_AddItemToArray(strs, cJSON_CreateString(line));
		free(line);
		p += n + (p[n] != '\0');
	}
	line = ptb_xstrndup(text, strcspn(text, "\n"));
	dir = ptb_xasprintf("/opt/x/lib/gcc/x86_64-pc-linux-gnu/%s", line);
	cJSON_AddItemToArray(libs, cJSON_CreateString(dir));
	free(dir);
	free(line);
	cJSON_DeleteItemFromObject(c, "name");
	cJSON_DeleteItemFromObject(c, "target");
	cJSON_DeleteItemFromObject(c, "version_output");
	cJSON_AddStringToObject(c, "name", pick & 1 ? "gcc" : (pick & 2 ? "clang-18" : "g++-13"));
	cJSON_AddStringToObject(c, "target", pick & 1 ? "/opt/rh/gcc-toolset-13/root/usr/bin/gcc" : "/opt/x/bin/gcc");
	fuzz_strings = strs;
	if (pick & 2)
		cJSON_AddItemToObject(c, "lib_gcc", libs);
	else
		cJSON_Delete(libs);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ptb_err err = { 0 };
	const char *src = getenv("top_srcdir");

	if (!lua) {
		char *recipes = ptb_xasprintf("%s/recipes", src ? src : ".");
		char *basef = ptb_xasprintf("%s/tests/fuzz/detect-base.json", src ? src : ".");
		const char *path[1] = { recipes };
		struct ptb_lua_opts o = { .path = path, .npath = 1 };
		struct ptb_buf b;

		lua = ptb_lua_new(&o, &err);
		ptb_buf_init(&b);
		if (!lua || ptb_file_read(basef, 0, &b, &err) != 0)
			abort();
		base = ptb_json_parse(b.data, b.len, basef, &err);
		if (!base)
			abort();
		ptb_buf_free(&b);
		/* recipes is kept by the engine's copy; free ours */
		free(recipes);
		free(basef);
	}
	if (size < 1 || size > 65536)
		return 0;
	size_t nslots = sizeof slots / sizeof *slots;
	size_t slot = data[0] % (nslots + 3);
	char *text = ptb_xstrndup((const char *)data + 1, size - 1);
	if (strlen(text) != size - 1) {          /* the C side reads text files */
		free(text);
		return 0;
	}
	cJSON *raw = cJSON_Duplicate(base, 1), *facts = NULL;
	if (data[0] >= 0xE0 && data[0] < 0xE4) {
		cJSON *c = cJSON_GetArrayItem(cJSON_GetObjectItem(raw, "compilers"), 0);
		if (c) {
			cJSON_DeleteItemFromObject(c, "name");
			cJSON_DeleteItemFromObject(c, "target");
			cJSON_AddStringToObject(c, "name", "cc");
			cJSON_AddStringToObject(c, "target", "/usr/bin/cc");
			cJSON_AddStringToObject(c, "version_output", text);
		}
	} else if (data[0] >= 0xE4 && data[0] < 0xE8) {
		binary_compiler(raw, data[0], text);
	} else if (data[0] >= 0xE8 && data[0] < 0xF0) {
		cJSON *t = cJSON_CreateObject();
		cJSON_AddStringToObject(t, "site", "/usr/lib/python3/dist-packages");
		cJSON_AddArrayToObject(t, "dist_info");
		cJSON_AddStringToObject(t, "version_py", text);
		cJSON_AddItemToArray(cJSON_GetObjectItem(raw, "torch"), t);
	} else if (data[0] >= 0xF0) {
		set_str(raw, "files./proc/self/cgroup", "0::/a/b\n4:memory:/a\n1:cpu,cpuacct:/\n");
		set_str(raw, "files./sys/fs/cgroup/cpu/cpu.cfs_period_us", "100000\n");
		set_str(raw, "files./sys/fs/cgroup/a/b/cpu.max", "200000 100000\n");
		set_str(raw, cgroup_slots[(data[0] - 0xF0) % (sizeof cgroup_slots / sizeof *cgroup_slots)], text);
	} else if (slot < nslots) {
		set_str(raw, slots[slot], text);
	} else if (slot == nslots) {              /* a GPU's information file */
		cJSON *g = cJSON_GetArrayItem(ptb_json_get(raw, "nvidia") ?
			cJSON_GetObjectItem(cJSON_GetObjectItem(raw, "nvidia"), "procfs_gpus") : NULL, 0);
		if (g) {
			cJSON_DeleteItemFromObject(g, "information");
			cJSON_AddStringToObject(g, "information", text);
		}
	} else if (slot == nslots + 2) {          /* `nvcc --version` output */
		cJSON *t = cJSON_GetArrayItem(cJSON_GetObjectItem(raw, "toolkits"), 0);
		if (t) {
			cJSON_DeleteItemFromObject(t, "version_json");
			cJSON_DeleteItemFromObject(t, "nvcc_version_output");
			cJSON_AddStringToObject(t, "nvcc_version_output", text);
		}
	} else {                                  /* the cuDNN header defines */
		cJSON *t = cJSON_GetArrayItem(cJSON_GetObjectItem(raw, "toolkits"), 0);
		cJSON *h = t ? cJSON_GetObjectItem(t, "cudnn_header") : NULL;
		if (h) {
			cJSON_DeleteItemFromObject(h, "defines");
			cJSON_AddStringToObject(h, "defines", text);
		}
	}
	environment(data, size, text);
	free(text);
	ptb_lua_reset_budget(lua);
	ptb_lua_offer(lua, "version_strings", version_strings, NULL);
	if (ptb_lua_call(lua, "detect", "enrich", raw, &facts, &err) != 0 ||
	    ptb_facts_validate(facts, "fuzz", &err) != 0) {
		/* a parser raised, or the facts broke the contract */
		fprintf(stderr, "fuzz_detect: %s\n%s\n", err.msg, err.hint);
		abort();
	}
	cJSON_Delete(facts);
	cJSON_Delete(raw);
	cJSON_Delete(fuzz_strings);
	fuzz_strings = NULL;
	return 0;
}
