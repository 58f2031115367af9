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
  { "NVIDIA DRIVE P2021", "10.0" },   -- the driver's name, device 29bb, chip GB102 [S_NV_OGKM] [S_PCIIDS]
  { "NVIDIA RTX Spark N1X", "12.1" }, -- pci.ids' name, devices 2e03/2e06, GB10's chip GB20B [S_PCIIDS]
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
  -- 13.3 GA 610.43.02 [meson]; 13.4's 615.71.09 [dlfw2608], an upper
  -- bound, and any r615 driver runs 13.4 code [ptx-rel]; 13.5's upper
  -- bound 620.70.06 [nvdrv62070], with no branch: an older r620 driver
  -- reads as 13.4
  { "610.43.02", "13.3" }, { "610.999.99", "13.3" }, { "615.71.08", "13.4" }, { "615.20.01", "13.4" },
  { "615.71.09", "13.4" }, { "620.10.01", "13.4" }, { "620.70.05", "13.4" }, { "620.70.06", "13.5" },
  { "699.99.99", "13.5" },
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
  { "# R35 (release), REVISION: 6.4, GCID: 41822316, BOARD: generic, EABI: aarch64", "35.6.4", "5.1.6", "11.4" },  -- [jp516]
  { "# R38 (release), REVISION: 4.0, GCID: 42810017, BOARD: generic, EABI: aarch64", "38.4.0", "7.1", "13.0" },    -- [S_JTOP] [jp71]
  { "# R39 (release), REVISION: 2.0, GCID: 43412345, BOARD: generic, EABI: aarch64", "39.2.0", "7.2", "13.2" },    -- [jp72]
  { "# R39 (release), REVISION: 2.1, GCID: 44512345, BOARD: generic, EABI: aarch64", "39.2.1", "7.2.1", "13.2" },  -- [jp721]
  { "# R35 (release), REVISION: 6.3, GCID: 41234567, BOARD: generic, EABI: aarch64", "35.6.3", "5.1.5", "11.4" },  -- [l4t-3563]
  { "# R36 (release), REVISION: 4.2, GCID: 38123456, BOARD: generic, EABI: aarch64", "36.4.2", "6.1", "12.6" },    -- [l4t-3642]
  { "# R35 (release), REVISION: 6.5, GCID: 45012345, BOARD: generic, EABI: aarch64", "35.6.5", "5.1.7", "11.4" },  -- [jp517]
  { "# R36 (release), REVISION: 5.2, GCID: 45123456, BOARD: generic, EABI: aarch64", "36.5.2", "6.2.3", "12.6" },  -- [jp623]
  -- no source read names the JetPack of these: none is claimed
  { "# R39 (release), REVISION: 0.0, GCID: 42000001, BOARD: generic, EABI: aarch64", "39.0.0", nil, nil },
  { "# R39 (release), REVISION: 1.0, GCID: 42000002, BOARD: generic, EABI: aarch64", "39.1.0", nil, nil },
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

-- The environment doctor judges (detect.environment): what the markers of
-- data/containers.lua, the loader's directories, pip, conda and torch
-- names mean.  { name, edit of the raw environment, arch, check(env) }
local function env_of(edit, arch)
  local e = {
    vars = { PATH = "/usr/bin" },
    toolkits = { { root = "/usr/local/cuda-12.8", version_json = { cuda = "12.8.1", cuda_nvcc = "12.8.93" },
                   targets = { "x86_64-linux" }, host_config_gnuc = "#if __GNUC__ > 14", nvcc_machine = "x86_64" } },
    path_nvcc = { { nvcc = "/usr/local/cuda/bin/nvcc", root = "/usr/local/cuda-12.8" } },
    loader = {
      { dir = "/opt/c/lib64", via = "LD_LIBRARY_PATH", libs = { { name = "libcudart.so.12", real = "/opt/c/lib64/libcudart.so.12.8.90" } } },
      { dir = "/usr/lib/aarch64-linux-gnu", via = "default", libs = { { name = "libopenblas.so.0" } } },
      { dir = "/usr/lib/x86_64-linux-gnu", via = "default", libs = { { name = "libcuda.so.1", real = "/usr/lib/x86_64-linux-gnu/libcuda.so.570.86.10" } } },
      { dir = "/usr/local/cuda/compat", via = "ld.so.conf", libs = { { name = "libcuda.so.1", real = "/usr/local/cuda-12.8/compat/libcuda.so.575.57.08" } } },
    },
    exists = {}, files = {},
  }
  edit(e)
  return D.environment({ environment = e, arch = arch or "x86_64" })
end
local function lib_names(env)
  local out = {}
  for _, l in ipairs(env.libs) do out[#out + 1] = l.lib .. "@" .. l.via .. "=" .. tostring(l.version) .. (l.compat and "(compat)" or "") end
  return table.concat(out, " ")
end
local envs = {
  { "no marker: not in a container", function() end, nil,
    function(v) return not v.container.inside and v.container.marker == nil and not v.container.gpu_devices end },
  { "/.dockerenv: Docker", function(e) e.exists["/.dockerenv"] = true end, nil,
    function(v) return v.container.inside and v.container.marker == "/.dockerenv" and v.container.runtime == "Docker" end },
  { "/run/.containerenv: Podman", function(e) e.exists["/run/.containerenv"] = true end, nil,
    function(v) return v.container.marker == "/run/.containerenv" and v.container.runtime == "Podman" end },
  { "kubepods in PID 1's cgroup: Kubernetes", function(e) e.files["/proc/1/cgroup"] = "0::/kubepods/besteffort/pod1/abc\n" end, nil,
    function(v) return v.container.marker == "/proc/1/cgroup" and v.container.runtime == "Kubernetes" end },
  { "a plain cgroup: no container", function(e) e.files["/proc/1/cgroup"] = "0::/init.scope\n" end, nil,
    function(v) return not v.container.inside end },
  { "/dev/nvidiactl: a GPU device inside", function(e) e.exists["/dev/nvidiactl"] = true end, nil,
    function(v) return v.container.gpu_devices end },
  { "qemu-aarch64 enabled, qemu-x86_64 disabled", function(e)
      e.files["/proc/sys/fs/binfmt_misc/qemu-aarch64"] = "enabled\ninterpreter /usr/bin/qemu-aarch64-static\n"
      e.files["/proc/sys/fs/binfmt_misc/qemu-x86_64"] = "disabled\n" end, nil,
    function(v) return table.concat(v.binfmt_qemu, " ") == "qemu-aarch64" end },
  { "cpuinfo of an Arm CPU", function(e) e.files["/proc/cpuinfo"] = "processor\t: 0\nCPU implementer\t: 0x41\n" end, nil,
    function(v) return v.cpuinfo_kind == "arm" end },
  { "cpuinfo of an x86 CPU", function(e) e.files["/proc/cpuinfo"] = "processor\t: 0\nvendor_id\t: AuthenticAMD\n" end, nil,
    function(v) return v.cpuinfo_kind == "x86" end },
  { "libraries on x86_64: the loader's order, aarch64's default directory left out", function() end, "x86_64",
    function(v) return lib_names(v) == "libcudart@LD_LIBRARY_PATH=12.8.90 libcuda@default=570.86.10 libcuda@ld.so.conf=575.57.08(compat)" end },
  { "libraries on aarch64: x86_64's default directory left out", function() end, "aarch64",
    function(v) return lib_names(v) == "libcudart@LD_LIBRARY_PATH=12.8.90 libopenblas@default=0 libcuda@ld.so.conf=575.57.08(compat)" end },
  { "the toolkit on PATH: version, gcc_max, targets, machine", function() end, nil,
    function(v) local x = v.nvcc_on_path[1]
      return x.root == "/usr/local/cuda-12.8" and x.version == "12.8.93" and x.gcc_max == 14 and
        x.targets[1] == "x86_64-linux" and x.nvcc_machine == "x86_64" and x.nvcc == "/usr/local/cuda/bin/nvcc" end },
  { "CUDA_HOME missing", function(e) e.CUDA_HOME = { given = "/opt/nope" } end, nil,
    function(v) return v.cuda_home.missing == true and v.cuda_home.given == "/opt/nope" end },
  { "pip wheels: the _cuNN part, not _cudnn", function(e)
      e.pip_nvidia = { { dist_info = "nvidia_cudnn_cu12-9.1.0.70.dist-info", site = "/s" },
                       { dist_info = "nvidia_cublas_cu11-11.11.3.6.dist-info", site = "/s" } } end, nil,
    function(v) return v.pip_nvidia[1].cuda_major == 11 and v.pip_nvidia[2].cuda_major == 12 end },
  { "conda: CUDA packages by name and version", function(e)
      e.conda = { prefix = "/opt/conda/envs/pt", meta = { "cudatoolkit-11.8.0-h6a678d5_0.json", "cuda-nvcc-12.4.131-0.json",
                                                           "cuda-nvcc-tools-12.4.131-0.json", "python-3.11.9-h955ad1f_0.json" } } end, nil,
    function(v) return #v.conda.packages == 2 and v.conda.packages[1].name == "cuda-nvcc" and
      v.conda.packages[1].version == "12.4.131" and v.conda.packages[2].version == "11.8.0" end },
  { "Debian's torch: version from the egg-info, CUDA from version.py, generic archs only", function(e)
      e.torch = { { site = "/usr/lib/python3/dist-packages", dist_info = {}, egg_info = { "torch-2.6.0+debian.egg-info" },
                    version_py = "__version__ = '2.6.0'\ncuda = '12.4'\n", libtorch_cuda = "/usr/lib/x86_64-linux-gnu/libtorch_cuda.so.2.6",
                    machine = "x86_64", archs = { sass = { "8.6", "9.0", "9.0a" }, ptx = { "9.0" } } } } end, nil,
    function(v) local x = v.torch[1]
      return x.version == "2.6.0+debian" and x.cuda == "12.4" and table.concat(x.archs.sass, " ") == "8.6 9.0" and x.machine == "x86_64" end },
  { "a torch with no dist-info or egg-info is not listed", function(e)
      e.torch = { { site = "/s", dist_info = {}, egg_info = {}, version_py = "__version__ = '2.6.0'\n" } } end, nil,
    function(v) return #v.torch == 0 end },
}
for _, c in ipairs(envs) do
  local ok, v = pcall(env_of, c[2], c[3])
  t.ok(ok and c[4](v), "environment: " .. c[1] .. (ok and "" or (": " .. tostring(v))))
end
-- the python3 a build would use (raw.python from C): its version from the
-- file it resolves to, else pyvenv.cfg, else one lib/python3.X beside it
local function py(raw)
  local f = D.enrich({ is_host = false, files = {}, host = {}, nvidia = {}, python = raw })
  local note
  for _, n in ipairs(f.notes) do if n:find("python3", 1, true) then note = n end end
  return f.python, note
end
local pys = {
  { "a link to python3.12", { from = "PATH", path = "/usr/bin/python3", real = "/usr/bin/python3.12", lib = {} },
    "3.12", "/usr/bin/python3.12" },
  { "a venv's link to the base interpreter", { from = "VIRTUAL_ENV", path = "/v/bin/python3", real = "/usr/bin/python3.11",
    pyvenv_cfg = "home = /usr/bin\nversion = 3.12.3\n", lib = { "/v/lib/python3.11" } }, "3.11", "/usr/bin/python3.11" },
  { "a copied venv interpreter: pyvenv.cfg's version", { from = "VIRTUAL_ENV", path = "/v/bin/python3", real = "/v/bin/python3",
    pyvenv_cfg = "home = /usr/bin\ninclude-system-site-packages = false\nversion = 3.10.12\n" }, "3.10", "pyvenv.cfg" },
  { "uv's version_info", { from = "VIRTUAL_ENV", path = "/v/bin/python3", real = "/opt/uv/python/bin/python3",
    pyvenv_cfg = "home = /opt/uv/python/bin\nimplementation = CPython\nuv = 0.8.0\nversion_info = 3.13.5\n" }, "3.13", "pyvenv.cfg" },
  { "one lib/python3.X", { from = "CONDA_PREFIX", path = "/c/bin/python3", real = "/c/bin/python3",
    lib = { "/c/lib/python3", "/c/lib/python3.12" } }, "3.12", "/c/lib/python3.12" },
  { "two lib/python3.X: unknown, with a note", { from = "PATH", path = "/usr/bin/python3", real = "/usr/bin/python3",
    lib = { "/usr/lib/python3.11", "/usr/lib/python3.12" } }, ptb.null, nil, "its version is unknown" },
  { "a pyvenv.cfg without a version", { from = "VIRTUAL_ENV", path = "/v/bin/python3", real = "/v/bin/python3",
    pyvenv_cfg = "home = /usr/bin\nversion = unknown\n" }, ptb.null, nil, "its version is unknown" },
  { "python3.12t (free-threaded) is not claimed as 3.12", { from = "PATH", path = "/usr/bin/python3", real = "/usr/bin/python3.12t" },
    ptb.null, nil, "its version is unknown" },
  { "none found", nil, nil, nil, "no python3 found" },
}
for _, c in ipairs(pys) do
  local p, note = py(c[2])
  if c[3] == nil then
    t.is(p, ptb.null, "python: " .. c[1] .. ": null")
  else
    t.is(p.version, c[3], "python: " .. c[1] .. ": " .. tostring(c[3]))
    t.is(p.source, c[4], "python: " .. c[1] .. ": from " .. tostring(c[4]))
    t.is(p.from, c[2].from, "python: " .. c[1] .. ": found by " .. c[2].from)
  end
  t.ok(c[5] == nil and note == nil or (note and note:find(c[5], 1, true)), "python: " .. c[1] .. ": note " .. tostring(c[5]))
end

-- what C is asked to look at comes from data/containers.lua
local w = D.wanted()
local has = {}
for _, p in ipairs(w.exists) do has[p] = true end
for _, p in ipairs(w.files) do has[p] = true end
t.ok(has["/.dockerenv"] and has["/run/.containerenv"] and has["/dev/nvidia0"] and has["/proc/1/cgroup"] and
  has["/proc/sys/fs/binfmt_misc/qemu-x86_64"] and has["/proc/cpuinfo"], "wanted names every marker path of data/containers.lua")

t.done()
