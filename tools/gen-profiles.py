#!/usr/bin/env python3
"""gen-profiles.py - write recipes/profiles/*.json and tests/fixtures/facts/*.json.

The profiles are hand-written facts documents of well-known machines; this
script only keeps them consistent (key order, CPU feature lists copied from
the real /proc/cpuinfo dumps in tests/fixtures/cpuinfo).  Run from the source tree:
    tools/gen-profiles.py [CPUINFO-DIR]
"""
import json, os, sys

CPUINFO = sys.argv[1] if len(sys.argv) > 1 else "tests/fixtures/cpuinfo"

def features(dump):
    for line in open(os.path.join(CPUINFO, dump)):
        if line.split(":")[0].strip() in ("Features", "flags"):
            return line.split(":", 1)[1].split()
    raise SystemExit("no features in " + dump)

def facts(description, source, host, driver, gpus, toolkits, compilers, jetson=None, notes=()):
    return {
        "schema": "ptbuild.facts/1",
        "description": description,
        "source": source,
        "host": host,
        "driver": driver,
        "gpus": gpus,
        "toolkits": toolkits,
        "compilers": compilers,
        "jetson": jetson,
        "notes": list(notes),
    }

def host(arch, platform, os_id, os_ver, glibc, kernel, page, cpu, mem):
    return {"arch": arch, "platform": platform, "os": {"id": os_id, "version_id": os_ver},
            "glibc": glibc, "kernel": kernel, "page_size": page, "cpu": cpu, "memory_mib": mem}

def cpu(vendor, model, impl, part, micro, feats, cores):
    return {"vendor": vendor, "model_name": model, "implementer": impl, "part": part,
            "microarch": micro, "features": feats, "cores": cores}

def gpu(i, name, cc, mem):
    return {"index": i, "name": name, "compute_capability": cc, "memory_mib": mem, "source": "profile"}

def tk(root, version, target, cudnn=None, nccl=None, source="profile"):
    return {"root": root, "version": version, "source": source, "nvcc": root + "/bin/nvcc",
            "cudnn": cudnn, "nccl": nccl, "target": target}

def gcc(version, path):
    return {"name": "gcc", "version": version, "path": path}

grace = features("cpuinfo-aarch64-nvidia-grace-neoverse-v2.txt")
altra = features("cpuinfo-aarch64-ampere-altra-neoverse-n1.txt")
grav3 = features("cpuinfo-aarch64-aws-graviton3-neoverse-v1.txt")
v3ae = features("cpuinfo-aarch64-neoverse-v3ae-archspec.txt")
spr = features("cpuinfo-x86_64-sapphirerapids-archspec.txt")
zen4 = features("cpuinfo-x86_64-zen4-archspec.txt")
# Jetson Orin (Cortex-A78AE r0p1, part 0xd42 [util-linux]): no real dump is in
# tests/fixtures/cpuinfo (the Orin one is constructed); its Features line is
# taken to end 'uscat ilrcpc flagm' on the Armv8.2 base set below.
orin = "fp asimd evtstrm aes pmull sha1 sha2 crc32 atomics fphp asimdhp cpuid asimdrdm lrcpc dcpop asimddp uscat ilrcpc flagm".split()

P = {}
P["gh200"] = facts(
    "NVIDIA GH200 Grace Hopper: 72 Neoverse-V2 cores, 480 GB LPDDR5X, H100 96 GB, 64K-page kernel, no CUDA installed",
    "CPU features: tests/fixtures/cpuinfo/cpuinfo-aarch64-nvidia-grace-neoverse-v2.txt (real Grace dump); part 0xd4f: recipes/data/cpus.lua [util-linux]; "
    "GPU 9.0: recipes/data/gpus.lua; driver 580.95.05 = the driver of the CUDA 13.0.2 runfile (recipes/data/cuda.lua [spack]); 64K pages: Ubuntu -nvidia-64k kernels",
    host("aarch64", "sbsa", "ubuntu", "24.04", "2.39", "6.8.0-1013-nvidia-64k", 65536,
         cpu("ARM", "Neoverse-V2", "0x41", "0xd4f", "neoverse_v2", grace, 72), 491520),
    {"version": "580.95.05", "cuda_max": "13.0"},
    [gpu(0, "NVIDIA GH200 480GB", "9.0", 97871)], [], [gcc("13.3.0", "/usr/bin/gcc")],
    notes=["profile: a fresh GH200 with the driver and no toolkit"])
P["dgx-h100"] = facts(
    "NVIDIA DGX H100: 2x Xeon Platinum 8480C, 2 TB, 8x H100 SXM 80 GB, driver 550 with CUDA 12.4 installed",
    "CPU flags: tests/fixtures/cpuinfo/cpuinfo-x86_64-sapphirerapids-archspec.txt; GPU 9.0: recipes/data/gpus.lua; driver 550.54.15 = the driver of the CUDA 12.4.1 runfile "
    "(recipes/data/cuda.lua [spack]; DGX OS 6 ships the R550 branch); cuDNN 9.1.0 and NCCL 2.21.5 as in PyTorch's CUDA 12.4 images",
    host("x86_64", "x86_64", "ubuntu", "22.04", "2.35", "5.15.0-1042-nvidia", 4096,
         cpu("GenuineIntel", "Intel(R) Xeon(R) Platinum 8480C", None, None, "sapphirerapids", spr, 224), 2097152),
    {"version": "550.54.15", "cuda_max": "12.4"},
    [gpu(i, "NVIDIA H100 80GB HBM3", "9.0", 81559) for i in range(8)],
    [tk("/usr/local/cuda-12.4", "12.4.131", "x86_64-linux", "9.1.0", "2.21.5")],
    [gcc("11.4.0", "/usr/bin/gcc")],
    notes=["profile: DGX OS 6 (Ubuntu 22.04) as shipped"])
P["altra-a100"] = facts(
    "Ampere Altra Q80-30 (80 Neoverse-N1 cores), 256 GB, 2x A100 PCIe 40 GB, driver 535 with CUDA 12.2 (SBSA) installed",
    "CPU features: tests/fixtures/cpuinfo/cpuinfo-aarch64-ampere-altra-neoverse-n1.txt (real Altra dump; implementer 0x41 part 0xd0c, recipes/data/cpus.lua); GPU 8.0: recipes/data/gpus.lua; "
    "driver 535.104.05 = the driver of the CUDA 12.2.2 runfile (recipes/data/cuda.lua [spack])",
    host("aarch64", "sbsa", "ubuntu", "22.04", "2.35", "5.15.0-119-generic", 4096,
         cpu("ARM", "Neoverse-N1", "0x41", "0xd0c", "neoverse_n1", altra, 80), 262144),
    {"version": "535.104.05", "cuda_max": "12.2"},
    [gpu(0, "NVIDIA A100-PCIE-40GB", "8.0", 40960), gpu(1, "NVIDIA A100-PCIE-40GB", "8.0", 40960)],
    [tk("/usr/local/cuda-12.2", "12.2.140", "sbsa-linux", "8.9.7", None)],
    [gcc("11.4.0", "/usr/bin/gcc")],
    notes=["profile: Altra reports implementer 0x41 (Arm), not 0xc0 (recipes/data/cpus.lua)"])
P["graviton3"] = facts(
    "AWS Graviton3 (c7g.16xlarge: 64 Neoverse-V1 cores, 128 GB), Amazon Linux 2023, no GPU: an arm64 image builder",
    "CPU features: tests/fixtures/cpuinfo/cpuinfo-aarch64-aws-graviton3-neoverse-v1.txt (real Graviton3 dump; part 0xd40, recipes/data/cpus.lua); "
    "no AWS Graviton3 instance has an NVIDIA GPU, so this is the CI/Docker case: no driver, no GPU",
    host("aarch64", "sbsa", "amzn", "2023", "2.34", "6.1.112-122.189.amzn2023.aarch64", 4096,
         cpu("ARM", "Neoverse-V1", "0x41", "0xd40", "neoverse_v1", grav3, 64), 131072),
    None, [], [], [gcc("11.4.1", "/usr/bin/gcc")],
    notes=["no NVIDIA driver: /proc/driver/nvidia/version is absent"])
P["jetson-orin"] = facts(
    "NVIDIA Jetson AGX Orin 64 GB, JetPack 6.2 (L4T 36.4.3) with its CUDA 12.6",
    "L4T 36.4.3 = JetPack 6.2, CUDA 12.6: dusty-nv/jetson-containers l4t_version.py; GPU 8.7 (GA10B): recipes/data/gpus.lua; "
    "CPU 12x Cortex-A78AE (part 0xd42): recipes/data/cpus.lua [util-linux]; Jetson has no nvidia-smi/NVML driver record",
    host("aarch64", "jetson", "ubuntu", "22.04", "2.35", "5.15.148-tegra", 4096,
         cpu("ARM", "Cortex-A78AE", "0x41", "0xd42", "neoverse_n1", orin, 12), 62841),
    None,
    [gpu(0, "Orin (nvgpu)", "8.7", 62841)],
    [tk("/usr/local/cuda-12.6", "12.6.68", "aarch64-linux", "9.3.0", None)],
    [gcc("11.4.0", "/usr/bin/gcc")],
    jetson={"l4t": "36.4.3", "module": "Jetson AGX Orin 64GB"},
    notes=["driver: the Jetson GPU driver is part of L4T; no driver version is read"])
P["jetson-thor"] = facts(
    "NVIDIA Jetson AGX Thor, JetPack 7.0 (L4T 38.2) with its SBSA CUDA 13.0",
    "JetPack 7.0 = L4T 38.2, CUDA 13.0, SBSA toolkit for Thor: jetson-containers l4t_version.py and NVIDIA's CUDA 13.0 for Jetson Thor blog; "
    "GPU 11.0 (sm_101 before CUDA 13): recipes/data/archs.lua; CPU 14x Neoverse-V3AE (part 0xd83): tests/fixtures/cpuinfo/cpuinfo-aarch64-neoverse-v3ae-archspec.txt; "
    "driver: the R580 branch of JetPack 7.0 (version representative)",
    host("aarch64", "jetson", "ubuntu", "24.04", "2.39", "6.8.12-tegra", 4096,
         cpu("ARM", "Neoverse-V3AE", "0x41", "0xd83", "neoverse_v3ae", v3ae, 14), 125772),
    {"version": "580.00", "cuda_max": "13.0"},
    [gpu(0, "NVIDIA Thor", "11.0", 125772)],
    [tk("/usr/local/cuda-13.0", "13.0.48", "sbsa-linux", "9.12.0", None)],
    [gcc("13.3.0", "/usr/bin/gcc")],
    jetson={"l4t": "38.2.0", "module": "Jetson AGX Thor Developer Kit"})
P["rtx4090-workstation"] = facts(
    "Workstation: Ryzen 9 7950X, 64 GB, GeForce RTX 4090, Ubuntu 24.04 (gcc 13 and 12), CUDA 12.8 and an old 11.8 installed",
    "CPU flags: tests/fixtures/cpuinfo/cpuinfo-x86_64-zen4-archspec.txt; GPU 8.9: recipes/data/gpus.lua; driver 570.124.06 = the driver of the CUDA 12.8.1 runfile (recipes/data/cuda.lua [spack]); "
    "Ubuntu 24.04 ships gcc 13.3 (default) and gcc-12",
    host("x86_64", "x86_64", "ubuntu", "24.04", "2.39", "6.8.0-51-generic", 4096,
         cpu("AuthenticAMD", "AMD Ryzen 9 7950X 16-Core Processor", None, None, "zen4", zen4, 32), 63430),
    {"version": "570.124.06", "cuda_max": "12.8"},
    [gpu(0, "NVIDIA GeForce RTX 4090", "8.9", 24564)],
    [tk("/usr/local/cuda-12.8", "12.8.93", "x86_64-linux", "9.8.0", None),
     tk("/usr/local/cuda-11.8", "11.8.89", "x86_64-linux", None, None)],
    [gcc("13.3.0", "/usr/bin/gcc"), gcc("12.3.0", "/usr/bin/gcc-12")],
    notes=["two toolkits: the plan must put only one on PATH"])

# Test machines (tests/fixtures/facts): each raises or avoids a problem.
def variant(base, desc, **kw):
    d = json.loads(json.dumps(P[base]))
    d["description"] = desc
    d["source"] = "test fixture derived from profile " + base
    for k, v in kw.items():
        if k.startswith("host_"):
            d["host"][k[5:]] = v
        else:
            d[k] = v
    return d

F = {}
F["gtx1080-cuda13"] = variant("rtx4090-workstation", "GTX 1080 with CUDA 13.0 installed and driver 580",
    gpus=[gpu(0, "NVIDIA GeForce GTX 1080", "6.1", 8192)], driver={"version": "580.95.05", "cuda_max": "13.0"},
    toolkits=[tk("/usr/local/cuda-13.0", "13.0.88", "x86_64-linux")])
F["rtx5090-cuda126"] = variant("rtx4090-workstation", "RTX 5090 with CUDA 12.6 installed and driver 570",
    gpus=[gpu(0, "NVIDIA GeForce RTX 5090", "12.0", 32607)],
    toolkits=[tk("/usr/local/cuda-12.6", "12.6.85", "x86_64-linux")])
F["old-driver"] = variant("dgx-h100", "A100 server with driver 470 (CUDA 11.4 at most)",
    gpus=[gpu(0, "NVIDIA A100-SXM4-80GB", "8.0", 81920)], driver={"version": "470.256.02", "cuda_max": "11.4"}, toolkits=[])
F["gcc15-only"] = variant("rtx4090-workstation", "Fedora 42 with gcc 15 only, RTX 4090, driver 575",
    host_os={"id": "fedora", "version_id": "42"}, host_glibc="2.41", driver={"version": "575.57.08", "cuda_max": "12.9"},
    toolkits=[], compilers=[gcc("15.1.1", "/usr/bin/gcc")])
F["gcc15-and-13"] = variant("rtx4090-workstation", "Ubuntu 25.04 with gcc 15 (default) and gcc-13, RTX 4090, driver 575",
    host_os={"id": "ubuntu", "version_id": "25.04"}, host_glibc="2.41", driver={"version": "575.57.08", "cuda_max": "12.9"},
    toolkits=[], compilers=[gcc("15.0.1", "/usr/bin/gcc"), gcc("13.3.0", "/usr/bin/gcc-13")])
F["rhel8-gcc8"] = variant("dgx-h100", "RHEL 8 with gcc 8.5, A10, driver 550",
    host_os={"id": "rhel", "version_id": "8.10"}, host_glibc="2.28", gpus=[gpu(0, "NVIDIA A10", "8.6", 23028)],
    toolkits=[], compilers=[gcc("8.5.0", "/usr/bin/gcc")])
# RHEL 8's python3 is 3.6 (its platform Python); gcc from gcc-toolset 13
F["rhel8-python36"] = variant("dgx-h100", "RHEL 8.10 with gcc-toolset 13 and its python3 3.6, A10, driver 550",
    host_os={"id": "rhel", "version_id": "8.10"}, host_glibc="2.28", gpus=[gpu(0, "NVIDIA A10", "8.6", 23028)],
    toolkits=[], compilers=[gcc("13.2.1", "/opt/rh/gcc-toolset-13/root/usr/bin/gcc")],
    python={"version": "3.6", "path": "/usr/bin/python3", "real": "/usr/bin/python3.6", "from": "PATH",
            "source": "/usr/bin/python3.6"})
F["amzn2-glibc226"] = variant("dgx-h100", "Amazon Linux 2 (glibc 2.26), T4, driver 570",
    host_os={"id": "amzn", "version_id": "2"}, host_glibc="2.26", gpus=[gpu(0, "Tesla T4", "7.5", 15360)],
    driver={"version": "570.124.06", "cuda_max": "12.8"}, toolkits=[], compilers=[gcc("10.5.0", "/usr/bin/gcc")])
F["fedora43-glibc242"] = variant("rtx4090-workstation", "Fedora 43 (glibc 2.42), RTX 4090, driver 580",
    host_os={"id": "fedora", "version_id": "43"}, host_glibc="2.42", driver={"version": "580.95.05", "cuda_max": "13.0"},
    toolkits=[], compilers=[gcc("15.2.1", "/usr/bin/gcc"), gcc("14.3.1", "/usr/bin/gcc-14")])
F["orin-sbsa-toolkit"] = variant("jetson-orin", "Jetson Orin with the SBSA CUDA 12.6 installed by mistake",
    toolkits=[tk("/usr/local/cuda-12.6", "12.6.85", "sbsa-linux")])
F["altra-jetson-toolkit"] = variant("altra-a100", "Altra server with the Jetson (L4T) CUDA 12.6 installed",
    toolkits=[tk("/usr/local/cuda-12.6", "12.6.68", "aarch64-linux")])
F["x86-sbsa-toolkit"] = variant("rtx4090-workstation", "x86_64 with an SBSA toolkit copied in",
    toolkits=[tk("/usr/local/cuda-12.8", "12.8.93", "sbsa-linux")])
F["lowmem"] = variant("rtx4090-workstation", "8 cores and 3 GiB of memory",
    host_memory_mib=3072, toolkits=[])
F["a72-no-lse"] = variant("graviton3", "Cortex-A72 builder without LSE atomics (Graviton1), no GPU",
    host_cpu=cpu("ARM", "Cortex-A72", "0x41", "0xd08", "cortex_a72", "fp asimd evtstrm aes pmull sha1 sha2 crc32 cpuid".split(), 16),
    host_os={"id": "ubuntu", "version_id": "22.04"}, host_glibc="2.35", host_memory_mib=32768)
# A GPU the driver names but ptbuild's table lacks, seen only through /proc
F["unknown-gpu"] = variant("rtx4090-workstation", "a GPU named only by /proc that is not in ptbuild's GPU table, driver 580",
    gpus=[dict(gpu(0, "NVIDIA Graphics Device", None, None), source="/proc/driver/nvidia/gpus/0000:01:00.0/information")],
    driver={"version": "580.95.05", "cuda_max": "13.0"}, toolkits=[])
F["bare-x86"] = variant("rtx4090-workstation", "x86_64 container: no driver, no GPU, no compiler, unknown OS",
    host_os=None, driver=None, gpus=[], toolkits=[], compilers=[])

for name, d in P.items():
    with open("recipes/profiles/%s.json" % name, "w") as f:
        json.dump(d, f, indent=2); f.write("\n")
for name, d in F.items():
    with open("tests/fixtures/facts/%s.json" % name, "w") as f:
        json.dump(d, f, indent=2); f.write("\n")
