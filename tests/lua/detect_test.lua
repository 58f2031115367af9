-- detect_test.lua - the knowledge in detect.lua, table-driven: GPU names
-- to compute capabilities, drivers to the newest CUDA they run, driver
-- /proc formats, and the data tables' consistency.
local t = ptb.include("tap")
local D = ptb.include("detect")
local gpus = ptb.include("data/gpus")
local cpus = ptb.include("data/cpus")

-- model strings as /proc/driver/nvidia/gpus/*/information and NVML print them
local names = {
  { "NVIDIA GeForce RTX 4090", "8.9" },
  { "NVIDIA A100-SXM4-80GB", "8.0" },
  { "NVIDIA A100-PCIE-40GB", "8.0" },
  { "NVIDIA H100 80GB HBM3", "9.0" },
  { "NVIDIA H100 PCIe", "9.0" },
  { "NVIDIA GH200 480GB", "9.0" },
  { "NVIDIA A10G", "8.6" },          -- not A10 (8.6 too, but the longer name wins)
  { "NVIDIA RTX 6000 Ada Generation", "8.9" },
  { "Tesla V100-SXM2-16GB", "7.0" },
  { "NVIDIA TITAN Xp", "6.1" },
  { "NVIDIA B200", "10.0" },
  { "NVIDIA GeForce RTX 5090", "12.0" },
  { "NVIDIA L40S", "8.9" },
  { "NVIDIA Graphics Device", nil },  -- unknown: no guess
  { "NVIDIA A1000", nil },            -- A100 is no prefix at a word boundary
}
for _, c in ipairs(names) do
  t.is(D.gpu_cc(c[1]), c[2], c[1] .. " -> " .. tostring(c[2]))
end
-- asked again (answers are remembered per name), and with padding
t.is(D.gpu_cc("NVIDIA H100 80GB HBM3"), "9.0", "the same name twice: the same answer")
t.is(D.gpu_cc("  NVIDIA A10G  "), "8.6", "surrounding blanks are ignored")
-- every entry of the GPU table is found under its own name
local own = 0
for _, p in ipairs(gpus.products) do
  if D.gpu_cc(p.name) == p.cc then own = own + 1 end
end
t.is(own, #gpus.products, "each of the " .. #gpus.products .. " GPU table entries maps to its own compute capability")

-- newest CUDA a driver runs, from the GA minimums in data/cuda.lua
local drivers = {
  { "450.51.05", "11.0" }, { "470.82.01", "11.4" }, { "525.60.13", "12.0" },
  { "535.129.03", "12.2" }, { "550.54.15", "12.4" }, { "560.35.03", "12.6" },
  { "570.26", "12.8" }, { "575.57.08", "12.9" }, { "580.65.06", "13.0" },
  { "580.65.05", "12.9" }, { "440.33.01", nil },
  -- 13.3 GA 610.43.02 [meson]; 13.4's bundled 615.71.09 [dlfw2608]; 13.5's
  -- minimum is not in the data, so no driver version reads as 13.5
  { "610.43.02", "13.3" }, { "615.71.08", "13.3" }, { "615.71.09", "13.4" },
  { "699.99.99", "13.4" },
}
for _, c in ipairs(drivers) do
  t.is(D.cuda_for_driver(c[1]), c[2], "driver " .. c[1] .. " runs CUDA up to " .. tostring(c[2]))
end

t.is(D.vcmp("570.26", "570.124.06"), -1, "vcmp: 570.26 < 570.124.06 (numeric parts)")
t.is(D.vcmp("12.4", "12.4.0"), 0, "vcmp: missing parts are zero")

-- the two /proc/driver/nvidia/version formats (research note 1.1)
local function driver(line)
  local f = D.enrich({ is_host = false, files = { ["/proc/driver/nvidia/version"] = line .. "\nGCC version:  gcc version 12.3.0\n" },
                       host = {}, nvidia = {} })
  return f.driver
end
local d = driver("NVRM version: NVIDIA UNIX x86_64 Kernel Module  515.76  Mon Sep 12 19:21:56 UTC 2022")
t.is(d.version, "515.76", "proprietary module, two-part version")
t.is(d.kernel_module, "proprietary", "...is the proprietary module")
d = driver("NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  575.57.08  Release Build  (dvs-builder@U16)  Tue May 20 2025")
t.is(d.version, "575.57.08", "open module")
t.is(d.kernel_module, "open", "...is the open module")
t.is(d.cuda_max, "12.9", "...runs CUDA up to 12.9 (driver table)")
d = driver("NVRM version: NVIDIA UNIX x86 Kernel Module  177.82  Tue Nov  4 13:35:57 PST 2008")
t.is(d.version, "177.82", "very old 32-bit format")
t.is(d.cuda_max, nil, "...runs no CUDA ptbuild knows")

-- page size of a sysroot that says it only through its kernel's name
local f = D.enrich({ is_host = false, host = { cpuinfo = "CPU implementer\t: 0x41\nCPU part\t: 0xd4f\n" },
  files = { ["/proc/sys/kernel/osrelease"] = "6.8.0-1013-nvidia-64k\n" }, nvidia = {} })
t.is(f.host.page_size, 65536, "an aarch64 -64k kernel flavour means 64 KiB pages")
t.is(f.host.page_size_source, "kernel name 6.8.0-1013-nvidia-64k", "...and says so")

-- pip: two wheel families side by side in one site-packages
local function tk(root)
  local f = D.enrich({ is_host = false, files = {}, host = {}, nvidia = {},
    toolkits = { { root = root, aliases = {}, found_by = { "pip" }, layout = "pip",
      dist_info = { "nvidia_cuda_nvcc-13.0.88.dist-info", "nvidia_cuda_nvcc_cu12-12.8.93.dist-info" } } } })
  return f.toolkits[1].version
end
t.is(tk("/v/lib/python3.12/site-packages/nvidia/cu13"), "13.0.88", "nvidia/cu13 takes the CUDA 13 wheel's version")
t.is(tk("/v/lib/python3.12/site-packages/nvidia/cuda_nvcc"), "12.8.93", "nvidia/cuda_nvcc takes the _cu12 wheel's version")

-- /etc/nv_tegra_release -> L4T -> JetPack -> the CUDA it ships
-- (data/l4t.lua; the source of each row in brackets; GCIDs are made up,
-- detect reads only R and REVISION)
local function tegra(rel)
  local f = D.enrich({ is_host = false, host = {}, nvidia = {},
    files = { ["/etc/nv_tegra_release"] = rel, ["/proc/device-tree/compatible"] = "nvidia,p3737-0000+p3701-0005\0nvidia,p3701-0005\0nvidia,tegra234\0" } })
  return f.jetson
end
local l4t_rows = {
  { "# R35 (release), REVISION: 6.0, GCID: 37337213, BOARD: generic, EABI: aarch64", "35.6.0", "5.1.4", "11.4" },  -- [jp514]
  { "# R35 (release), REVISION: 6.1, GCID: 39447457, BOARD: generic, EABI: aarch64", "35.6.1", "5.1.5", "11.4" },  -- [jp515]
  { "# R35 (release), REVISION: 6.2, GCID: 40887637, BOARD: generic, EABI: aarch64", "35.6.2", "5.1.5", "11.4" },  -- [jp515]
  { "# R36 (release), REVISION: 4.3, GCID: 38968081, BOARD: generic, EABI: aarch64", "36.4.3", "6.2", "12.6" },    -- [S_JTOP] [S_JETPACK61]
  { "# R39 (release), REVISION: 2.0, GCID: 43412345, BOARD: generic, EABI: aarch64", "39.2.0", "7.2", "13.2" },    -- [jp72]
  { "# R39 (release), REVISION: 2.1, GCID: 44512345, BOARD: generic, EABI: aarch64", "39.2.1", "7.2.1", "13.2" },  -- [jp721]
  -- no source read names the JetPack of these: none is claimed
  { "# R35 (release), REVISION: 6.3, GCID: 41234567, BOARD: generic, EABI: aarch64", "35.6.3", nil, nil },
  { "# R36 (release), REVISION: 4.2, GCID: 38123456, BOARD: generic, EABI: aarch64", "36.4.2", nil, nil },
}
for _, r in ipairs(l4t_rows) do
  local j = tegra(r[1])
  t.is(j.l4t, r[2], "nv_tegra_release -> L4T " .. r[2])
  t.is(j.jetpack, r[3], "L4T " .. r[2] .. " -> JetPack " .. tostring(r[3]))
  t.is(j.cuda, r[4], "L4T " .. r[2] .. " -> CUDA " .. tostring(r[4]))
end

-- tables: every compute capability is X.Y; every Arm target's parents exist
for _, p in ipairs(gpus.products) do
  t.ok(p.cc:match("^%d+%.%d$") ~= nil, p.name .. ": compute capability " .. p.cc)
end
for name, tg in pairs(cpus.targets) do
  for _, parent in ipairs(tg.parents) do
    t.ok(cpus.targets[parent] ~= nil, name .. ": parent " .. parent .. " is a target")
  end
end

-- cgroup limits (S34): the tightest along the group's path, v1 and v2
local G = 1024 * 1024 * 1024
local function lim(files) return D.cgroup_limits(files) end
local l = lim({ ["/proc/self/cgroup"] = "0::/\n", ["/sys/fs/cgroup/memory.max"] = "17179869184\n",
  ["/sys/fs/cgroup/cpu.max"] = "800000 100000\n" })
t.is(l.memory_bytes, 16 * G, "v2 in its own namespace: memory.max at the root")
t.is(l.memory_source, "/sys/fs/cgroup/memory.max", "...named")
t.is(l.cpus, 8, "cpu.max 800000 100000 is 8 CPUs")
l = lim({ ["/proc/self/cgroup"] = "0::/\n", ["/sys/fs/cgroup/memory.max"] = "max\n", ["/sys/fs/cgroup/cpu.max"] = "max 100000\n" })
t.is(l.memory_bytes, nil, "memory.max 'max' is no limit")
t.is(l.cpus, nil, "cpu.max 'max 100000' is no limit")
l = lim({ ["/proc/self/cgroup"] = "0::/system.slice/build.service\n",
  ["/sys/fs/cgroup/system.slice/build.service/memory.max"] = "max\n",
  ["/sys/fs/cgroup/system.slice/memory.max"] = "8589934592\n",
  ["/sys/fs/cgroup/system.slice/build.service/cpu.max"] = "150000 100000\n" })
t.is(l.memory_bytes, 8 * G, "a parent group's limit applies to its children")
t.is(l.memory_source, "/sys/fs/cgroup/system.slice/memory.max", "...and is named")
t.is(l.cpus, 1.5, "a fractional quota is kept (1.5 CPUs)")
l = lim({ ["/proc/self/cgroup"] = "12:memory:/docker/abc\n4:cpu,cpuacct:/docker/abc\n0::/\n",
  ["/sys/fs/cgroup/memory/memory.limit_in_bytes"] = "4294967296\n",
  ["/sys/fs/cgroup/cpu/cpu.cfs_quota_us"] = "200000\n", ["/sys/fs/cgroup/cpu/cpu.cfs_period_us"] = "100000\n" })
t.is(l.memory_bytes, 4 * G, "v1 in a container: the host's path is absent, the mount's root holds the limit")
t.is(l.cpus, 2, "v1 cpu,cpuacct: cfs_quota_us / cfs_period_us")
l = lim({ ["/proc/self/cgroup"] = "4:memory:/\n1:cpu:/\n",
  ["/sys/fs/cgroup/memory/memory.limit_in_bytes"] = "9223372036854771712\n",
  ["/sys/fs/cgroup/cpu/cpu.cfs_quota_us"] = "-1\n", ["/sys/fs/cgroup/cpu/cpu.cfs_period_us"] = "100000\n" })
t.is(next(l), nil, "v1 'no limit' values (LONG_MAX, quota -1) are no limit")
t.is(next(lim({ ["/proc/self/cgroup"] = "garbage\n::\n0::relative\n",
  ["/sys/fs/cgroup/memory.max"] = "1\n" })), nil, "malformed /proc/self/cgroup lines are ignored")
t.is(next(lim({})), nil, "no /proc/self/cgroup: no limits")

-- in the facts: only limits tighter than the machine, affinity included
local function limits(files, host)
  files["/proc/meminfo"] = "MemTotal:       33554432 kB\n"
  files["/sys/devices/system/cpu/online"] = "0-15\n"
  host.cpuinfo = "vendor_id\t: GenuineIntel\nflags\t\t: fpu sse sse2\n"
  return D.enrich({ is_host = false, files = files, host = host, nvidia = {} }).host.limits
end
local hl = limits({ ["/proc/self/cgroup"] = "0::/\n", ["/sys/fs/cgroup/memory.max"] = "12884901888\n",
  ["/sys/fs/cgroup/cpu.max"] = "800000 100000\n" }, {})
t.is(hl and hl.memory_mib, 12288, "host.limits.memory_mib from memory.max")
t.is(hl and hl.cpus, 8, "host.limits.cpus from cpu.max")
t.is(limits({ ["/proc/self/cgroup"] = "0::/\n", ["/sys/fs/cgroup/memory.max"] = "68719476736\n" }, {}), nil,
  "a limit above the machine's memory is no limit: no host.limits")
hl = limits({}, { affinity_cpus = 4 })
t.is(hl and hl.cpus, 4, "CPU affinity narrower than the online CPUs is a limit")
t.is(hl and hl.cpus_source, "sched_getaffinity (taskset, --cpuset-cpus)", "...named")
t.is(limits({}, { affinity_cpus = 16 }), nil, "affinity to every CPU is no limit")

t.done()
