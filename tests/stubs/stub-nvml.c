/* stub-nvml.c - a stand-in libnvidia-ml.so.1 for the detect tests: STUB_MODE
 * 0 answers two GPUs (driver version from $STUB_NVML_DRIVER, default
 * 550.54.15), 1 hangs in nvmlInit_v2, 2 crashes in it (nvml.h calls only). */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef STUB_MODE
#define STUB_MODE 0
#endif

struct mem { unsigned long long total, free, used; };
static const struct { const char *name; int major, minor; unsigned long long mib; } gpus[] = {
	{ "NVIDIA H100 80GB HBM3", 9, 0, 81559 },
	{ "NVIDIA H100 80GB HBM3", 9, 0, 81559 },
};
static int handles[2];

int nvmlInit_v2(void)
{
#if STUB_MODE == 1
	for (;;)
		pause();
#elif STUB_MODE == 2
	raise(SIGSEGV);
#endif
	return 0;
}

int nvmlShutdown(void) { return 0; }

int nvmlSystemGetDriverVersion(char *v, unsigned len)
{
	const char *d = getenv("STUB_NVML_DRIVER");

	strncpy(v, d ? d : "550.54.15", len);
	v[len - 1] = '\0';
	return 0;
}

int nvmlSystemGetCudaDriverVersion_v2(int *v) { *v = 12040; return 0; }
int nvmlDeviceGetCount_v2(unsigned *n) { *n = 2; return 0; }

int nvmlDeviceGetHandleByIndex_v2(unsigned i, void **h)
{
	if (i > 1)
		return 2;   /* NVML_ERROR_INVALID_ARGUMENT */
	*h = &handles[i];
	return 0;
}

static int idx(void *h) { return (int)((int *)h - handles); }

int nvmlDeviceGetName(void *h, char *name, unsigned len)
{
	strncpy(name, gpus[idx(h)].name, len);
	name[len - 1] = '\0';
	return 0;
}

int nvmlDeviceGetCudaComputeCapability(void *h, int *major, int *minor)
{
	*major = gpus[idx(h)].major;
	*minor = gpus[idx(h)].minor;
	return 0;
}

int nvmlDeviceGetMemoryInfo(void *h, struct mem *m)
{
	m->total = gpus[idx(h)].mib << 20;
	m->free = m->total;
	m->used = 0;
	return 0;
}
