/* stub-cuda.c - a stand-in libcuda.so.1 for the detect tests, built three
 * ways: STUB_MODE 0 answers two GPUs, 1 hangs in cuInit, 2 crashes in
 * cuInit.  Only the driver API calls ptbuild makes are here (cuda.h). */
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef STUB_MODE
#define STUB_MODE 0
#endif

static const struct { const char *name; int major, minor; size_t mib; } gpus[] = {
	{ "NVIDIA GeForce RTX 4090", 8, 9, 24564 },
	{ "NVIDIA RTX A6000", 8, 6, 48677 },
};

int cuInit(unsigned flags)
{
	/* PTB_STUB_CUDA_LOG: a file each cuInit adds a line to, for tests
	 * that count how often the driver is probed */
	const char *log = getenv("PTB_STUB_CUDA_LOG");

	(void)flags;
	if (log) {
		FILE *f = fopen(log, "a");

		if (f) {
			fputs("cuInit\n", f);
			fclose(f);
		}
	}
#if STUB_MODE == 1
	for (;;)
		pause();
#elif STUB_MODE == 2
	raise(SIGSEGV);
#endif
	return 0;
}

int cuDriverGetVersion(int *v) { *v = 12040; return 0; }
int cuDeviceGetCount(int *n) { *n = 2; return 0; }

int cuDeviceGet(int *dev, int ordinal)
{
	if (ordinal < 0 || ordinal > 1)
		return 101;   /* CUDA_ERROR_INVALID_DEVICE */
	*dev = ordinal;
	return 0;
}

int cuDeviceGetName(char *name, int len, int dev)
{
	strncpy(name, gpus[dev].name, (size_t)len);
	name[len - 1] = '\0';
	return 0;
}

int cuDeviceGetAttribute(int *v, int attr, int dev)
{
	if (attr == 75) { *v = gpus[dev].major; return 0; }
	if (attr == 76) { *v = gpus[dev].minor; return 0; }
	return 1;   /* CUDA_ERROR_INVALID_VALUE */
}

int cuDeviceTotalMem_v2(size_t *bytes, int dev)
{
	*bytes = gpus[dev].mib << 20;
	return 0;
}
