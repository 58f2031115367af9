/* probe_host.c - host facts: arch, os, kernel, glibc, memory, cpuinfo,
 * Jetson markers.  Files are passed on as text; detect.lua reads them. */
#define _GNU_SOURCE 1  /* sched_getaffinity, CPU_COUNT */
#include "detect/probe.h"

#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

int ptb_probe_file(const struct ptb_root *r, cJSON *files, const char *path,
                   size_t max)
{
	struct ptb_buf b;

	ptb_buf_init(&b);
	if (ptb_root_read(r, path, max, &b) != 0) {
		ptb_buf_free(&b);
		return -1;
	}
	for (size_t i = 0; i < b.len; i++)
		if (b.data[i] == '\0')
			b.data[i] = '\n';
	cJSON_AddStringToObject(files, path, b.data);
	ptb_buf_free(&b);
	return 0;
}

void ptb_probe_add_unique(cJSON *arr, const char *s)
{
	const cJSON *it;

	cJSON_ArrayForEach(it, arr)
		if (cJSON_IsString(it) && strcmp(it->valuestring, s) == 0)
			return;
	cJSON_AddItemToArray(arr, cJSON_CreateString(s));
}

/* The value of a "key : value" line that starts at p, trimmed, into out
 * (at most n - 1 bytes); 0 when the line has no colon. */
static int line_value(const char *p, char *out, size_t n)
{
	const char *c = p, *e;
	size_t len;

	while (*c && *c != '\n' && *c != ':')
		c++;
	if (*c != ':')
		return 0;
	for (c++; *c == ' ' || *c == '\t'; c++)
		;
	for (e = c; *e && *e != '\n'; e++)
		;
	while (e > c && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
		e--;
	len = (size_t)(e - c) < n - 1 ? (size_t)(e - c) : n - 1;
	memcpy(out, c, len);
	out[len] = '\0';
	return 1;
}

/* The first processor block of cpuinfo (what archspec reads), the number
 * of "processor" lines, and every distinct "CPU part" of all the blocks,
 * in the order they appear (a mixed-core Arm machine lists two or more;
 * OpenBLAS's build detection reads every core). */
static void cpuinfo(const struct ptb_root *r, cJSON *host)
{
	struct ptb_buf b;
	int nproc = 0;
	const char *p, *end;
	cJSON *parts = cJSON_CreateArray();
	char v[32];

	ptb_buf_init(&b);
	if (ptb_root_read(r, "/proc/cpuinfo", 4u << 20, &b) != 0) {
		ptb_buf_free(&b);
		cJSON_Delete(parts);
		return;
	}
	for (p = b.data; *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : p + strlen(p)) {
		if (strncmp(p, "processor", 9) == 0 && (p[9] == ' ' || p[9] == '\t' || p[9] == ':'))
			nproc++;
		else if (strncmp(p, "CPU part", 8) == 0 && line_value(p, v, sizeof v) && v[0])
			ptb_probe_add_unique(parts, v);
	}
	cJSON_AddItemToObject(host, "cpuinfo_parts", parts);
	/* first block: up to the first blank line after some content */
	end = strstr(b.data, "\n\n");
	if (end)
		b.data[end - b.data + 1] = '\0';
	cJSON_AddStringToObject(host, "cpuinfo", b.data);
	cJSON_AddNumberToObject(host, "cpuinfo_processors", nproc);
	ptb_buf_free(&b);
}

/* glibc of a sysroot: the banner in libc.so.6 ("... release version
 * 2.35."), or an old-style libc-2.31.so name. */
static void glibc_of_root(const struct ptb_root *r, cJSON *host)
{
	static const char *const dirs[] = {
		"/usr/lib/x86_64-linux-gnu", "/usr/lib/aarch64-linux-gnu",
		"/lib/x86_64-linux-gnu", "/lib/aarch64-linux-gnu",
		"/usr/lib64", "/lib64", "/usr/lib", "/lib",
	};
	for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; i++) {
		char *f = ptb_xasprintf("%s/libc.so.6", dirs[i]);
		struct ptb_buf b;

		ptb_buf_init(&b);
		if (ptb_root_read(r, f, 8u << 20, &b) == 0) {
			const char *key = "release version ";
			for (size_t k = 0; k + 16 < b.len; k++) {
				if (b.data[k] == 'r' && memcmp(b.data + k, key, 16) == 0) {
					const char *v = b.data + k + 16;
					size_t n = strspn(v, "0123456789.");

					while (n && v[n - 1] == '.')
						n--;
					if (n) {
						char *s = ptb_xstrndup(v, n);
						cJSON_AddStringToObject(host, "glibc", s);
						free(s);
						ptb_buf_free(&b);
						free(f);
						return;
					}
				}
			}
		}
		ptb_buf_free(&b);
		free(f);
		char **old = ptb_root_list(r, dirs[i], "libc-2.");
		if (old && old[0]) {
			size_t n = strspn(old[0] + 5, "0123456789.");
			if (n > 1 && old[0][5 + n - 1] == '.') {
				char *s = ptb_xstrndup(old[0] + 5, n - 1);
				cJSON_AddStringToObject(host, "glibc", s);
				free(s);
				ptb_root_names_free(old);
				return;
			}
		}
		ptb_root_names_free(old);
	}
}

/* CONFIG_ARM64_<n>K_PAGES=y from /boot/config-<release> */
static void kconfig_pages(const struct ptb_root *r, const cJSON *files, cJSON *host)
{
	const char *rel = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(files, "/proc/sys/kernel/osrelease"));
	struct ptb_buf b;
	char *f;

	if (!rel)
		return;
	f = ptb_xasprintf("/boot/config-%.*s", (int)strcspn(rel, "\n"), rel);
	ptb_buf_init(&b);
	if (ptb_root_read(r, f, 1u << 20, &b) == 0) {
		for (char *line = b.data; line && *line; ) {
			char *nl = strchr(line, '\n');

			if (nl)
				*nl = '\0';
			if (strncmp(line, "CONFIG_ARM64_", 13) == 0 && strstr(line, "K_PAGES=y")) {
				cJSON_AddStringToObject(host, "kconfig_pages", line);
				cJSON_AddStringToObject(host, "kconfig_file", f);
				break;
			}
			line = nl ? nl + 1 : NULL;
		}
	}
	ptb_buf_free(&b);
	free(f);
}

/* Control-group limits a build inherits (a container's --memory and
 * --cpus; systemd slices).  /proc/self/cgroup names this process's group
 * in each hierarchy; the limit files of that group and of every ancestor
 * up to the mount's root are passed on (the tightest one applies, and in
 * a container whose cgroup namespace is its own the group is the root).
 * cgroup v2: memory.max, cpu.max; v1: memory.limit_in_bytes,
 * cpu.cfs_quota_us and cpu.cfs_period_us. */
/* Whether a comma-separated v1 controller list ("cpu,cpuacct") names c. */
static int has_controller(const char *list, const char *c)
{
	size_t n = strlen(c);

	for (const char *p = list; *p; p += strcspn(p, ","), p += *p == ',')
		if (strncmp(p, c, n) == 0 && (p[n] == ',' || p[n] == '\0'))
			return 1;
	return 0;
}

static void cgroup_files(const struct ptb_root *r, cJSON *files)
{
	struct ptb_buf b;
	int groups = 0;

	ptb_buf_init(&b);
	if (ptb_root_read(r, "/proc/self/cgroup", 1u << 16, &b) != 0 || !b.data) {
		ptb_buf_free(&b);
		return;
	}
	cJSON_AddStringToObject(files, "/proc/self/cgroup", b.data);
	for (char *line = b.data; line && *line && groups < 16; ) {
		char *nl = strchr(line, '\n'), *c1, *c2;
		static const char *const v2[] = { "memory.max", "cpu.max", NULL };
		static const char *const mem1[] = { "memory.limit_in_bytes", NULL };
		static const char *const cpu1[] = { "cpu.cfs_quota_us", "cpu.cfs_period_us", NULL };
		const char *const *names = NULL;
		const char *base = NULL;

		if (nl)
			*nl = '\0';
		c1 = strchr(line, ':');
		c2 = c1 ? strchr(c1 + 1, ':') : NULL;
		if (c2 && c2[1] == '/' && !strstr(c2 + 1, "/..")) {
			*c1 = *c2 = '\0';
			if (strcmp(line, "0") == 0 && !c1[1]) {
				base = "/sys/fs/cgroup";
				names = v2;
			} else if (has_controller(c1 + 1, "memory")) {
				base = "/sys/fs/cgroup/memory";
				names = mem1;
			} else if (has_controller(c1 + 1, "cpu")) {
				base = "/sys/fs/cgroup/cpu";
				names = cpu1;
			}
		}
		if (base) {
			/* the group's directory and each ancestor's, deepest first */
			char *path = ptb_xstrdup(c2 + 1);
			size_t len = strlen(path);

			groups++;
			for (int depth = 0; depth < 32; depth++) {
				while (len > 1 && path[len - 1] == '/')
					path[--len] = '\0';
				for (const char *const *n = names; *n; n++) {
					char *f = ptb_xasprintf("%s%s/%s", base, strcmp(path, "/") ? path : "", *n);

					if (!cJSON_GetObjectItemCaseSensitive(files, f))
						ptb_probe_file(r, files, f, 256);
					free(f);
				}
				if (strcmp(path, "/") == 0)
					break;
				char *slash = strrchr(path, '/');
				if (!slash)
					break;
				slash[slash == path ? 1 : 0] = '\0';
				len = strlen(path);
			}
			free(path);
		}
		line = nl ? nl + 1 : NULL;
	}
	ptb_buf_free(&b);
}

void ptb_probe_host(const struct ptb_root *r, cJSON *raw)
{
	static const char *const small[] = {
		"/etc/os-release", "/usr/lib/os-release", "/proc/sys/kernel/osrelease",
		"/sys/devices/system/cpu/online", "/etc/nv_tegra_release",
		"/proc/device-tree/compatible", "/proc/device-tree/model",
		"/sys/firmware/devicetree/base/compatible",
		"/sys/firmware/devicetree/base/model",
	};
	cJSON *host = cJSON_AddObjectToObject(raw, "host");
	cJSON *files = cJSON_GetObjectItemCaseSensitive(raw, "files");
	struct ptb_buf b;

	for (size_t i = 0; i < sizeof small / sizeof small[0]; i++)
		ptb_probe_file(r, files, small[i], 16384);
	ptb_buf_init(&b);
	if (ptb_root_head(r, "/proc/meminfo", 512, &b) == 0)
		cJSON_AddStringToObject(files, "/proc/meminfo", b.data);
	cpuinfo(r, host);
	cgroup_files(r, files);

	if (r->is_host) {
		struct utsname u;
		long ps = sysconf(_SC_PAGESIZE);
		char v[64];
		cpu_set_t set;

		/* the CPUs this process may run on (taskset, --cpuset-cpus) */
		if (sched_getaffinity(0, sizeof set, &set) == 0)
			cJSON_AddNumberToObject(host, "affinity_cpus", CPU_COUNT(&set));

		if (uname(&u) == 0) {
			cJSON_AddStringToObject(host, "uname_machine", u.machine);
			cJSON_AddStringToObject(host, "uname_release", u.release);
		}
		if (ps > 0)
			cJSON_AddNumberToObject(host, "page_size", (double)ps);
		if (confstr(_CS_GNU_LIBC_VERSION, v, sizeof v) > 0 &&
		    strncmp(v, "glibc ", 6) == 0)
			cJSON_AddStringToObject(host, "glibc", v + 6);
	} else {
		static const char *const elfs[] = {
			"/bin/sh", "/usr/bin/sh", "/bin/bash", "/usr/bin/env",
			"/bin/ls", "/usr/bin/ls",
		};
		for (size_t i = 0; i < sizeof elfs / sizeof elfs[0]; i++) {
			const char *m = ptb_root_elf_machine(r, elfs[i]);

			if (m) {
				cJSON_AddStringToObject(host, "elf_machine", m);
				cJSON_AddStringToObject(host, "elf_file", elfs[i]);
				break;
			}
		}
		/* page size of a sysroot: what its (saved) smaps says, else the
		 * running kernel's build configuration */
		if (ptb_root_head(r, "/proc/self/smaps", 4096, &b) == 0)
			cJSON_AddStringToObject(files, "/proc/self/smaps", b.data);
		kconfig_pages(r, files, host);
		glibc_of_root(r, host);
	}
	ptb_buf_free(&b);

	cJSON *libdirs = cJSON_AddArrayToObject(host, "libdirs");
	static const char *const ld[] = {
		"/usr/lib/x86_64-linux-gnu", "/usr/lib/aarch64-linux-gnu",
	};
	for (size_t i = 0; i < sizeof ld / sizeof ld[0]; i++)
		if (ptb_root_is_dir(r, ld[i]))
			cJSON_AddItemToArray(libdirs, cJSON_CreateString(ld[i]));
}
