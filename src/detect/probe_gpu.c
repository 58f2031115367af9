/* probe_gpu.c - the NVIDIA driver and its GPUs.
 *
 * Files first (/proc/driver/nvidia/version and gpus/<pci>/information;
 * the user-space library names), then, on this host only, libcuda and
 * NVML through dlopen.  Each library runs in a child with a time limit: a
 * broken driver can hang or crash its caller (conda isolates its libcuda
 * probe the same way, conda/plugins/virtual_packages/cuda.py).
 * PTBUILD_LIBCUDA and PTBUILD_LIBNVML name other libraries ("none" skips
 * one); the test suite uses them to load its stand-ins. */
#include "detect/probe.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/run.h"

/* The user-space libraries and the directories their packages use
 * (Debian/Ubuntu, RHEL, Jetson R35 "tegra" and R36+ "nvidia", WSL). */
static const char *const libdirs[] = {
	"/usr/lib/x86_64-linux-gnu", "/usr/lib/aarch64-linux-gnu",
	"/usr/lib/aarch64-linux-gnu/nvidia", "/usr/lib/aarch64-linux-gnu/tegra",
	"/usr/lib64", "/usr/lib64/nvidia", "/usr/lib/wsl/lib",
};

static void put_str(int fd, const char *s)
{
	dprintf(fd, "\"");
	for (; s && *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			dprintf(fd, "\\%c", c);
		else if (c < 0x20)
			dprintf(fd, " ");
		else
			dprintf(fd, "%c", c);
	}
	dprintf(fd, "\"");
}

/* In the child: a crash must be a crash (not a sanitizer's or the
 * caller's handler).  (What a driver prints, run_probe sends to
 * /dev/null.) */
static void child_setup(void)
{
	static const int sigs[] = { SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT };

	for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
		signal(sigs[i], SIG_DFL);
}

/* In a child: open the library, or write {"status":"unavailable"} with
 * the loader's message and return NULL. */
static void *open_or_say(int fd, const char *lib)
{
	void *h = dlopen(lib, RTLD_NOW | RTLD_LOCAL);

	if (!h) {
		dprintf(fd, "{\"status\":\"unavailable\",\"error\":");
		put_str(fd, dlerror());
		dprintf(fd, "}");
	}
	return h;
}

/* ---- libcuda (cuda.h: cuInit, cuDeviceGetAttribute 75/76) ---- */

typedef int (*cu_int_fn)(int *);
typedef int (*cu_init_fn)(unsigned);
typedef int (*cu_get_fn)(int *, int);
typedef int (*cu_name_fn)(char *, int, int);
typedef int (*cu_attr_fn)(int *, int, int);
typedef int (*cu_mem_fn)(size_t *, int);

static int cuda_child(void *arg, int fd)
{
	const char *lib = arg;
	void *h;
	int rc, ver = 0, n = 0;

	child_setup();
	/* conda pops it too: a bad value makes cuInit fail with NO_DEVICE */
	unsetenv("CUDA_VISIBLE_DEVICES");
	if (!(h = open_or_say(fd, lib)))
		return 0;
	cu_init_fn init = (cu_init_fn)dlsym(h, "cuInit");
	cu_int_fn drv = (cu_int_fn)dlsym(h, "cuDriverGetVersion");
	cu_int_fn count = (cu_int_fn)dlsym(h, "cuDeviceGetCount");
	cu_get_fn get = (cu_get_fn)dlsym(h, "cuDeviceGet");
	cu_name_fn name = (cu_name_fn)dlsym(h, "cuDeviceGetName");
	cu_attr_fn attr = (cu_attr_fn)dlsym(h, "cuDeviceGetAttribute");
	cu_mem_fn mem = (cu_mem_fn)dlsym(h, "cuDeviceTotalMem_v2");
	if (!init || !drv || !count || !get || !name || !attr) {
		dprintf(fd, "{\"status\":\"error\",\"error\":\"missing driver API symbols\"}");
		return 0;
	}
	rc = init(0);
	if (rc != 0) {
		dprintf(fd, "{\"status\":\"error\",\"error\":\"cuInit failed\",\"code\":%d}", rc);
		return 0;
	}
	if (drv(&ver) != 0)
		ver = 0;
	if (count(&n) != 0)
		n = 0;
	dprintf(fd, "{\"status\":\"ok\",\"driver_api\":%d,\"devices\":[", ver);
	for (int i = 0; i < n && i < 64; i++) {
		char nm[256] = "";
		int dev = 0, major = -1, minor = -1;
		size_t bytes = 0;

		if (get(&dev, i) != 0)
			continue;
		name(nm, (int)sizeof nm - 1, dev);
		attr(&major, 75, dev);  /* CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR */
		attr(&minor, 76, dev);  /* ..._MINOR */
		if (mem)
			mem(&bytes, dev);
		dprintf(fd, "%s{\"index\":%d,\"name\":", i ? "," : "", i);
		put_str(fd, nm);
		dprintf(fd, ",\"cc_major\":%d,\"cc_minor\":%d,\"memory_mib\":%zu}",
		        major, minor, bytes >> 20);
	}
	dprintf(fd, "]}");
	return 0;
}

/* ---- NVML (nvml.h) ---- */

struct nvml_mem { unsigned long long total, free, used; };
typedef int (*nv_void_fn)(void);
typedef int (*nv_str_fn)(char *, unsigned);
typedef int (*nv_int_fn)(int *);
typedef int (*nv_uint_fn)(unsigned *);
typedef int (*nv_handle_fn)(unsigned, void **);
typedef int (*nv_dname_fn)(void *, char *, unsigned);
typedef int (*nv_cc_fn)(void *, int *, int *);
typedef int (*nv_mem_fn)(void *, struct nvml_mem *);

static int nvml_child(void *arg, int fd)
{
	const char *lib = arg;
	void *h;
	char ver[96] = "";
	int cuda = 0;
	unsigned n = 0;

	child_setup();
	if (!(h = open_or_say(fd, lib)))
		return 0;
	nv_void_fn init = (nv_void_fn)dlsym(h, "nvmlInit_v2");
	nv_void_fn shut = (nv_void_fn)dlsym(h, "nvmlShutdown");
	nv_str_fn dver = (nv_str_fn)dlsym(h, "nvmlSystemGetDriverVersion");
	nv_int_fn cver = (nv_int_fn)dlsym(h, "nvmlSystemGetCudaDriverVersion_v2");
	nv_uint_fn count = (nv_uint_fn)dlsym(h, "nvmlDeviceGetCount_v2");
	nv_handle_fn handle = (nv_handle_fn)dlsym(h, "nvmlDeviceGetHandleByIndex_v2");
	nv_dname_fn dname = (nv_dname_fn)dlsym(h, "nvmlDeviceGetName");
	nv_cc_fn cc = (nv_cc_fn)dlsym(h, "nvmlDeviceGetCudaComputeCapability");
	nv_mem_fn mem = (nv_mem_fn)dlsym(h, "nvmlDeviceGetMemoryInfo");
	if (!cver)
		cver = (nv_int_fn)dlsym(h, "nvmlSystemGetCudaDriverVersion");
	if (!init || !dver || !count || !handle || !dname) {
		dprintf(fd, "{\"status\":\"error\",\"error\":\"missing NVML symbols\"}");
		return 0;
	}
	int rc = init();
	if (rc != 0) {
		dprintf(fd, "{\"status\":\"error\",\"error\":\"nvmlInit failed\",\"code\":%d}", rc);
		return 0;
	}
	if (dver(ver, sizeof ver) != 0)
		ver[0] = '\0';
	if (!cver || cver(&cuda) != 0)
		cuda = 0;
	if (count(&n) != 0)
		n = 0;
	dprintf(fd, "{\"status\":\"ok\",\"driver_version\":");
	put_str(fd, ver);
	dprintf(fd, ",\"cuda_driver\":%d,\"devices\":[", cuda);
	for (unsigned i = 0; i < n && i < 64; i++) {
		void *dev = NULL;
		char nm[96] = "";
		int major = -1, minor = -1;
		struct nvml_mem m = { 0, 0, 0 };

		if (handle(i, &dev) != 0)
			continue;
		dname(dev, nm, sizeof nm);
		if (cc)
			cc(dev, &major, &minor);
		if (mem)
			mem(dev, &m);
		dprintf(fd, "%s{\"index\":%u,\"name\":", i ? "," : "", i);
		put_str(fd, nm);
		dprintf(fd, ",\"cc_major\":%d,\"cc_minor\":%d,\"memory_mib\":%llu}",
		        major, minor, m.total >> 20);
	}
	dprintf(fd, "]}");
	if (shut)
		shut();
	return 0;
}

static cJSON *run_probe(int (*fn)(void *, int), const char *lib)
{
	struct ptb_run r;
	cJSON *res = NULL;
	int started;

	ptb_run_init(&r);
	r.fn = fn;
	r.arg = (void *)lib;
	r.timeout_ms = ptb_probe_timeout_ms();
	/* what a driver prints is not ours to show */
	r.out_to = r.err_to = PTB_RUN_NULL;
	started = ptb_run(&r, NULL) == 0;
	if (started && r.exited)
		res = cJSON_Parse(r.out.data);
	if (!res) {
		res = cJSON_CreateObject();
		if (r.timed_out) {
			cJSON_AddStringToObject(res, "status", "timeout");
			cJSON_AddNumberToObject(res, "timeout_ms", ptb_probe_timeout_ms());
		} else if (started && r.signal) {
			cJSON_AddStringToObject(res, "status", "crashed");
			cJSON_AddStringToObject(res, "signal", strsignal(r.signal));
		} else {
			cJSON_AddStringToObject(res, "status", "error");
			cJSON_AddStringToObject(res, "error", !started ? "could not start the probe" : "no answer");
		}
	}
	cJSON_AddStringToObject(res, "library", lib);
	ptb_run_free(&r);
	return res;
}

/* Which library to load, or NULL to skip: the PTBUILD_* override, else on
 * this host the driver's own soname when the driver looks installed. */
static const char *pick(const struct ptb_root *r, const char *env,
                        const char *soname, int driver_here)
{
	const char *v = ptb_probe_env(env);

	if (v && *v)
		return strcmp(v, "none") == 0 ? NULL : v;
	if (!r->is_host)
		return NULL;
	return driver_here ? soname : NULL;
}

void ptb_probe_gpu(const struct ptb_root *r, cJSON *raw)
{
	cJSON *nv = cJSON_AddObjectToObject(raw, "nvidia");
	cJSON *files = cJSON_GetObjectItemCaseSensitive(raw, "files");
	cJSON *gpus = cJSON_AddArrayToObject(nv, "procfs_gpus");
	cJSON *libs = cJSON_AddArrayToObject(nv, "libraries");
	char **names;
	int driver_here;

	driver_here = ptb_probe_file(r, files, "/proc/driver/nvidia/version", 4096) == 0;
	ptb_probe_file(r, files, "/sys/module/nvidia/version", 256);
	names = ptb_root_list(r, "/proc/driver/nvidia/gpus", NULL);
	for (char **p = names; p && *p; p++) {
		char *f = ptb_xasprintf("/proc/driver/nvidia/gpus/%s/information", *p);
		struct ptb_buf b;

		ptb_buf_init(&b);
		if (ptb_root_read(r, f, 8192, &b) == 0) {
			cJSON *g = cJSON_CreateObject();

			cJSON_AddStringToObject(g, "bus", *p);
			cJSON_AddStringToObject(g, "information", b.data);
			cJSON_AddItemToArray(gpus, g);
		}
		ptb_buf_free(&b);
		free(f);
	}
	ptb_root_names_free(names);

	/* libcuda.so.<driver version> names the user-space driver */
	for (size_t i = 0; i < sizeof libdirs / sizeof libdirs[0]; i++) {
		/* list a (large) library directory only when the driver is there */
		char *one = ptb_xasprintf("%s/libcuda.so.1", libdirs[i]);
		int there = ptb_root_is_file(r, one);
		char **l;

		free(one);
		if (!there)
			continue;
		l = ptb_root_list(r, libdirs[i], "libcuda.so.");

		for (char **p = l; p && *p; p++) {
			char *full = ptb_xasprintf("%s/%s", libdirs[i], *p);

			ptb_probe_add_unique(libs, full);
			if (strcmp(*p, "libcuda.so.1") == 0)
				driver_here = 1;
			free(full);
		}
		ptb_root_names_free(l);
	}

	const char *cu = pick(r, "PTBUILD_LIBCUDA", "libcuda.so.1", driver_here);
	const char *nvml = pick(r, "PTBUILD_LIBNVML", "libnvidia-ml.so.1", driver_here);
	if (cu)
		cJSON_AddItemToObject(nv, "cuda", run_probe(cuda_child, cu));
	if (nvml)
		cJSON_AddItemToObject(nv, "nvml", run_probe(nvml_child, nvml));
}
