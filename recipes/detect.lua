-- detect.lua - from raw observations (C: src/detect/probe_*.c) to the facts
-- document (DESIGN.md "facts").  Pure: every input is in `raw`.
--
-- Formats read here and where they are described (ids resolve in
-- recipes/data/sources.lua):
--   /proc/driver/nvidia/version, gpus/*/information   [S_NV_PROCFS]
--   libcuda cuDriverGetVersion 1000*major+10*minor    [S_CONDA_CUDA]
--   NVML cuda driver version, same encoding           [S_NVML_H]
--   version.json / version.txt / nvcc --version        [S_CMAKE_FINDCTK] [S_LOCAL_NVCC130]
--   pip wheel layouts nvidia/cu13, nvidia/cuda_nvcc    [S_LOCAL_NVCC130]
--   cudnn_version.h, nccl.h macros                     [S_LOCAL_NVCC130]
--   /etc/nv_tegra_release, device-tree compatible      [S_JC_L4T] [S_JTOP] [S_LINUX_DTS]
--   cpuinfo -> archspec microarchitecture              [S_ARCHSPEC_PY]

-- Tables load when a machine needs them: a host without a GPU or Jetson
-- never compiles gpus.lua, jetson.lua or cuda.lua (detect must be quick).
local cpus = ptb.include("data/cpus")
local lazy = {}
local function data(name)
  lazy[name] = lazy[name] or ptb.include("data/" .. name)
  return lazy[name]
end

local M = {}

local function trim(s) return (s:gsub("^%s+", ""):gsub("%s+$", "")) end

M.vcmp = ptb.include("lib/version").vcmp   -- -1, 0 or 1, numerically

local function lines(s)
  local t = {}
  for l in (s or ""):gmatch("[^\n]+") do t[#t + 1] = l end
  return t
end

local function words(s)
  local t = {}
  for w in (s or ""):gmatch("%S+") do t[#t + 1] = w end
  return t
end

-- "key<tab>: value" blocks (cpuinfo, NVIDIA information files)
local function keyvals(text)
  local kv = {}
  for _, l in ipairs(lines(text)) do
    local k, v = l:match("^%s*([^:]-)%s*:%s*(.-)%s*$")
    if k and k ~= "" and kv[k] == nil then kv[k] = v end
  end
  return kv
end

---------------------------------------------------------------------------
-- CPU: archspec's host() [S_ARCHSPEC_PY] over its own targets
-- (data/archspec.lua).  Candidates: targets of the machine's family whose
-- vendor is the host's or "generic" and whose features the host has (on
-- aarch64 the generic armv8.x/9.x levels never qualify, only aarch64
-- itself).  The best generic candidate is found first; on Arm, targets
-- whose cpupart is the host's part win when there are any; then only
-- strict descendants of the best generic candidate remain (so a feature
-- switched off in firmware does not drop a Haswell below x86_64_v3), and
-- the one with most ancestors, then most features, wins; ties go to the
-- target archspec registers first.  No descendant: the best generic.

local tinfo = {}
local function target(name)
  if tinfo[name] then return tinfo[name] end
  local t = cpus.targets[name]
  local anc, seen, feats, nf = {}, {}, {}, 0
  local function walk(n)
    for _, p in ipairs(cpus.targets[n].parents) do
      if not seen[p] then seen[p] = true; anc[#anc + 1] = p; walk(p) end
    end
  end
  walk(name)
  for f in t.features:gmatch("%S+") do
    if not feats[f] then feats[f] = true; nf = nf + 1 end
  end
  local family = name
  while #cpus.targets[family].parents > 0 do family = cpus.targets[family].parents[1] end
  tinfo[name] = { name = name, t = t, anc = seen, nanc = #anc, feats = feats, nfeat = nf, family = family }
  return tinfo[name]
end

local function subset(feats, host)
  for f in pairs(feats) do if not host[f] then return false end end
  return true
end

local function better(a, b)
  if not b then return true end
  if a.nanc ~= b.nanc then return a.nanc > b.nanc end
  if a.nfeat ~= b.nfeat then return a.nfeat > b.nfeat end
  return a.t.order < b.t.order  -- Python's max() keeps the first
end

local function best(list)
  local b
  for _, i in ipairs(list) do if better(i, b) then b = i end end
  return b
end

function M.microarch(arch, vendor, part, features)
  if arch ~= "x86_64" and arch ~= "aarch64" then return nil end
  local host = {}
  for _, f in ipairs(features) do host[f] = true end
  local cands, generic = {}, {}
  for n, t in pairs(cpus.targets) do
    local ok = t.vendor == vendor or t.vendor == "generic"
    if ok and arch == "aarch64" and t.vendor == "generic" and n ~= "aarch64" then ok = false end
    if ok then
      local i = target(n)
      if i.family == arch and subset(i.feats, host) then
        cands[#cands + 1] = i
        if t.vendor == "generic" then generic[#generic + 1] = i end
      end
    end
  end
  local bg = best(generic) or target(arch)
  if part and part ~= "" then
    local byp = {}
    for _, i in ipairs(cands) do if i.t.cpupart == part then byp[#byp + 1] = i end end
    if #byp > 0 then cands = byp end
  end
  local desc = {}
  for _, i in ipairs(cands) do if i.anc[bg.name] then desc[#desc + 1] = i end end
  local b = best(desc) or bg
  return b.name
end

local function cpu_facts(raw, arch, notes)
  local text = raw.host.cpuinfo
  if not text or text == "" then
    notes[#notes + 1] = "no /proc/cpuinfo: the CPU is unknown"
    return ptb.null
  end
  local kv = keyvals(text)
  local cpu = {}
  if kv["vendor_id"] then
    cpu.vendor = kv["vendor_id"]
    cpu.model_name = kv["model name"]
    cpu.family = tonumber(kv["cpu family"])
    cpu.model = tonumber(kv["model"])
    cpu.features = words(kv["flags"])
  elseif kv["CPU implementer"] then
    local impl = kv["CPU implementer"]:lower()
    local part = (kv["CPU part"] or ""):lower()
    cpu.implementer = impl
    cpu.part = part ~= "" and part or nil
    cpu.vendor = cpus.arm_vendors[impl] or impl
    cpu.core = cpus.arm_parts[impl] and cpus.arm_parts[impl][part] or nil
    cpu.model_name = kv["model name"] or cpu.core
    cpu.features = words(kv["Features"])
    -- a machine whose cores differ (big.LITTLE, Apple M1): every distinct
    -- part, in cpuinfo's order; the first core's part above decides the
    -- microarchitecture as archspec's (it reads the first processor block
    -- only [S_ARCHSPEC_PY]), OpenBLAS's build reads them all (lib/host.lua)
    local parts = {}
    for _, p in ipairs(type(raw.host.cpuinfo_parts) == "table" and raw.host.cpuinfo_parts or {}) do
      if type(p) == "string" and p ~= "" then parts[#parts + 1] = p:lower() end
    end
    if #parts > 1 then cpu.parts = ptb.array(parts) end
    if not cpu.core then
      notes[#notes + 1] = ("CPU implementer %s part %s is not in ptbuild's core table"):format(impl, part)
    end
  else
    notes[#notes + 1] = "/proc/cpuinfo names neither an x86 vendor nor an Arm implementer"
    cpu.features = words(kv["flags"] or kv["Features"])
  end
  cpu.features = ptb.array(cpu.features)
  local vendor = cpu.vendor
  if cpu.implementer and not cpus.archspec_vendors[cpu.implementer] then vendor = cpu.implementer end
  cpu.microarch = M.microarch(arch, vendor, cpu.part, cpu.features)
  return cpu
end

---------------------------------------------------------------------------
-- host

local function os_release(files)
  local text = files["/etc/os-release"] or files["/usr/lib/os-release"]
  if not text then return nil end
  local kv = {}
  for _, l in ipairs(lines(text)) do
    local k, v = l:match("^([A-Z_]+)=(.*)$")
    if k then kv[k] = v:gsub('^"(.*)"$', "%1"):gsub("^'(.*)'$", "%1") end
  end
  -- an object even when the file names nothing (fuzzing found "[]" here)
  return ptb.object({ id = kv.ID, version_id = kv.VERSION_ID, name = kv.PRETTY_NAME })
end

local function count_cpus(list)
  local n = 0
  for a, b in (list or ""):gmatch("(%d+)%-?(%d*)") do
    n = n + (b ~= "" and (tonumber(b) - tonumber(a) + 1) or 1)
  end
  return n > 0 and n or nil
end

-- Control-group limits a build inherits (scenario S34: a container's
-- --memory and --cpus are not in /proc/meminfo or the online CPU list, and
-- a build sized by those is killed).  files holds /proc/self/cgroup and
-- the limit files of each group and its ancestors (probe_host.c); the
-- tightest value along the path applies.  cgroup v2: memory.max ("max" or
-- bytes), cpu.max ("max 100000" or "quota period"); v1:
-- memory.limit_in_bytes (no limit is LONG_MAX rounded to a page),
-- cpu.cfs_quota_us (-1: none) over cpu.cfs_period_us.  [kernel.org
-- Documentation/admin-guide/cgroup-v2.rst and cgroup-v1/memory.rst,
-- scheduler/sched-bwc.rst]  Returns { memory_bytes, memory_source, cpus,
-- cpus_source } with only the limits found.
local V1_NO_LIMIT = 2 ^ 62
local function group_dirs(base, path)
  local out = {}
  path = path:gsub("/+$", "")
  while true do
    out[#out + 1] = base .. path
    if path == "" then break end
    path = path:match("^(.*)/[^/]*$") or ""
  end
  return out
end

function M.cgroup_limits(files)
  local lim, source_key = {}, { memory_bytes = "memory_source", cpus = "cpus_source" }
  local function tighter(key, v, src)
    if v and (not lim[key] or v < lim[key]) then lim[key], lim[source_key[key]] = v, src end
  end
  -- an integer, or nil; past 2^63 tonumber gives a float that no
  -- integer arithmetic below accepts (fuzzing: a 33-digit memory.max)
  local function num(path)
    local v = files[path]
    return v and math.tointeger(tonumber(v:match("^%s*(%-?%d+)%s*$")))
  end
  for line in (files["/proc/self/cgroup"] or ""):gmatch("[^\n]+") do
    local hier, ctl, path = line:match("^(%d+):([^:]*):(/.*)$")
    if hier == "0" and ctl == "" then
      for _, d in ipairs(group_dirs("/sys/fs/cgroup", path)) do
        local m = num(d .. "/memory.max")
        if m and m > 0 then tighter("memory_bytes", m, d .. "/memory.max") end
        local q, p = (files[d .. "/cpu.max"] or ""):match("^%s*(%d+)%s+(%d+)")
        if q and tonumber(p) > 0 then tighter("cpus", tonumber(q) / tonumber(p), d .. "/cpu.max") end
      end
    elseif hier then
      local set = {}
      for c in ctl:gmatch("[^,]+") do set[c] = true end
      if set.memory then
        for _, d in ipairs(group_dirs("/sys/fs/cgroup/memory", path)) do
          local m = num(d .. "/memory.limit_in_bytes")
          if m and m > 0 and m < V1_NO_LIMIT then tighter("memory_bytes", m, d .. "/memory.limit_in_bytes") end
        end
      end
      if set.cpu then
        for _, d in ipairs(group_dirs("/sys/fs/cgroup/cpu", path)) do
          local q, p = num(d .. "/cpu.cfs_quota_us"), num(d .. "/cpu.cfs_period_us")
          if q and q > 0 and p and p > 0 then tighter("cpus", q / p, d .. "/cpu.cfs_quota_us") end
        end
      end
    end
  end
  return lim
end

-- host.limits: the cgroup limits (and this process's CPU affinity) that
-- are tighter than the machine itself; nil when none are.
local function host_limits(files, h, memory_mib, cores)
  local lim, out = M.cgroup_limits(files), {}
  if lim.memory_bytes then
    local mib = math.tointeger(lim.memory_bytes // (1024 * 1024))
    if not memory_mib or mib < memory_mib then
      out.memory_mib, out.memory_source = mib, lim.memory_source
    end
  end
  local aff = math.tointeger(h.affinity_cpus)
  if aff and aff > 0 and (not lim.cpus or aff < lim.cpus) then
    lim.cpus, lim.cpus_source = aff, "sched_getaffinity (taskset, --cpuset-cpus)"
  end
  if lim.cpus and (not cores or lim.cpus < cores) then
    out.cpus = math.tointeger(lim.cpus) or (math.floor(lim.cpus * 100 + 0.5) / 100)
    out.cpus_source = lim.cpus_source
  end
  return next(out) and out or nil
end

local function host_arch(raw, notes)
  local h = raw.host
  if h.uname_machine then return h.uname_machine, "uname" end
  if h.elf_machine then return h.elf_machine, "ELF header of " .. h.elf_file end
  for _, d in ipairs(h.libdirs or {}) do
    local a = d:match("/usr/lib/(%w+)%-linux%-gnu")
    if a then return a, d end
  end
  local ci = h.cpuinfo or ""
  if ci:find("CPU implementer") then return "aarch64", "/proc/cpuinfo" end
  if ci:find("vendor_id") then return "x86_64", "/proc/cpuinfo" end
  notes[#notes + 1] = "the architecture of the sysroot is unknown (no ELF binary, library directory or cpuinfo)"
  return "unknown", nil
end

---------------------------------------------------------------------------
-- Jetson

local function jetson_facts(raw, kernel)
  local f = raw.files
  local rel = f["/etc/nv_tegra_release"]
  local compat = f["/proc/device-tree/compatible"] or f["/sys/firmware/devicetree/base/compatible"] or ""
  local model = f["/proc/device-tree/model"] or f["/sys/firmware/devicetree/base/model"]
  local soc = compat:match("nvidia,(tegra%d+)")
  local tegra_kernel = kernel and kernel:match("%-tegra$") ~= nil
  if not rel and not soc and not tegra_kernel then return nil end
  local j = { soc = soc }
  if rel then
    local major, rev = rel:match("^#%s*R(%d+)%s*%(release%),%s*REVISION:%s*([%d%.]+)")
    if major then
      local l4t = major .. "." .. rev
      if select(2, l4t:gsub("%.", "")) == 1 then l4t = l4t .. ".0" end
      j.l4t = l4t
      j.board = rel:match("BOARD:%s*([^,]+)")
    end
  end
  if j.l4t then
    j.jetpack = data("l4t").jetpack[j.l4t]
    if not j.jetpack and j.l4t:match("^38%.2%.") then j.jetpack = "7.0" end
    if j.jetpack then j.cuda = data("l4t").cuda[j.jetpack:match("^(%d+%.%d+)")] end
  end
  for _, m in ipairs(data("l4t").modules) do
    if compat:find(m.match) then j.module = m.name; break end
  end
  if model then j.model = trim(model) end
  if not j.module and j.model then j.module = j.model:gsub("^NVIDIA ", "") end
  j.compatible = ptb.array(words(compat))
  return j
end

---------------------------------------------------------------------------
-- driver and GPUs

local function cuda_of_int(v)
  if not v or v <= 0 then return nil end
  return ("%d.%d"):format(v // 1000, (v % 1000) // 10)
end

-- The newest CUDA release whose minimum driver (GA, Linux) this driver
-- meets (data/cuda.lua, [S_RN_T3]), or whose driver branch it is of (a
-- release whose minimum is known only as an upper bound).
function M.cuda_for_driver(version)
  local best
  local major = tonumber(tostring(version):match("^(%d+)"))
  for _, r in ipairs(data("cuda").releases) do
    if r.driver_min and M.vcmp(version, r.driver_min) >= 0
        or r.driver_branch and major and major >= tonumber(r.driver_branch) then best = r.version end
  end
  return best
end

local function driver_facts(raw, notes)
  local nv = raw.nvidia or {}
  local text = raw.files["/proc/driver/nvidia/version"]
  local d = {}
  if text then
    local l = lines(text)[1] or ""
    d.version = l:match("Module%s+for%s+%S+%s+(%d+%.%d+[%.%d]*)") or l:match("Module%s+(%d+%.%d+[%.%d]*)")
    d.kernel_module = l:find("Open Kernel Module", 1, true) and "open" or "proprietary"
    d.source = "/proc/driver/nvidia/version"
    local g = text:match("GCC version:%s+gcc version (%S+)")
    if g then d.built_with_gcc = g end
    if not d.version then
      notes[#notes + 1] = "/proc/driver/nvidia/version has no version ptbuild can read: " .. l
    end
  end
  -- the user-space driver: NVML's answer, else libcuda.so.<version>
  local lib
  if nv.nvml and nv.nvml.status == "ok" and nv.nvml.driver_version ~= "" then
    lib = nv.nvml.driver_version
  else
    for _, p in ipairs(nv.libraries or {}) do
      -- libcuda.so.550.54.15; Jetson's libcuda.so.1.1 names no driver
      local v = p:match("libcuda%.so%.(%d%d%d+%.%d+[%.%d]*)$")
      if v then lib = v; break end
    end
  end
  if not d.version and lib then
    d.version = lib
    d.source = nv.nvml and nv.nvml.status == "ok" and "nvml" or "libcuda.so name"
  end
  if not d.version then return nil end
  if lib then
    d.library_version = lib
    if lib ~= d.version then
      d.mismatch = true
      notes[#notes + 1] = ("the loaded kernel module is %s but the user-space driver is %s: reboot (or reload the nvidia modules) before using the GPU"):format(d.version, lib)
    end
  end
  local cu = nv.cuda and nv.cuda.status == "ok" and cuda_of_int(nv.cuda.driver_api)
  local nm = nv.nvml and nv.nvml.status == "ok" and cuda_of_int(nv.nvml.cuda_driver)
  if cu then
    d.cuda_max, d.cuda_max_source = cu, "libcuda"
  elseif nm then
    d.cuda_max, d.cuda_max_source = nm, "nvml"
  else
    d.cuda_max = M.cuda_for_driver(d.version)
    d.cuda_max_source = d.cuda_max and "driver table" or nil
  end
  return d
end

-- compute capability and architecture of a product name (data/gpus.lua,
-- matched by lib/gpuname)
function M.gpu_cc(name)
  local p = ptb.include("lib/gpuname").product(name)
  if p then return p.cc, p.arch end
  return nil, nil
end

local function probe_note(what, p, notes)
  if not p then return end
  if p.status == "timeout" then
    notes[#notes + 1] = ("%s (%s) did not answer within %d ms and was stopped"):format(what, p.library, p.timeout_ms or 0)
  elseif p.status == "crashed" then
    notes[#notes + 1] = ("%s (%s) crashed (%s)"):format(what, p.library, p.signal or "signal")
  elseif p.status == "error" then
    notes[#notes + 1] = ("%s (%s): %s%s"):format(what, p.library, p.error or "failed",
      p.code and (" (error " .. math.tointeger(p.code) .. ")") or "")
  elseif p.status == "unavailable" then
    notes[#notes + 1] = ("%s could not be loaded: %s"):format(what, p.error or p.library)
  end
end

local function gpu_list(raw, jetson, notes)
  local nv = raw.nvidia or {}
  local out = {}
  local function from_api(p, source)
    for _, g in ipairs(p.devices or {}) do
      local cc = g.cc_major >= 0 and ("%d.%d"):format(g.cc_major, g.cc_minor) or M.gpu_cc(g.name)
      out[#out + 1] = { index = math.tointeger(g.index), name = g.name, compute_capability = cc or ptb.null,
                        memory_mib = g.memory_mib > 0 and math.tointeger(g.memory_mib) or ptb.null, source = source }
    end
  end
  probe_note("libcuda", nv.cuda, notes)
  probe_note("NVML", nv.nvml, notes)
  if nv.cuda and nv.cuda.status == "ok" and #(nv.cuda.devices or {}) > 0 then
    from_api(nv.cuda, "libcuda")
  elseif nv.nvml and nv.nvml.status == "ok" and #(nv.nvml.devices or {}) > 0 then
    from_api(nv.nvml, "nvml")
  elseif #(nv.procfs_gpus or {}) > 0 then
    for i, g in ipairs(nv.procfs_gpus) do
      local kv = keyvals(g.information)
      local name = kv["Model"] or "unknown"
      local cc = M.gpu_cc(name)
      if not cc then
        notes[#notes + 1] = ("GPU %s (%s) is not in ptbuild's GPU table: its compute capability is unknown"):format(g.bus, name)
      end
      out[#out + 1] = { index = i - 1, name = name, compute_capability = cc or ptb.null,
                        memory_mib = ptb.null, bus = g.bus, uuid = kv["GPU UUID"],
                        source = "/proc/driver/nvidia/gpus/" .. g.bus .. "/information" }
    end
  elseif jetson and jetson.soc then
    local t = data("gpus").tegra[jetson.soc]
    if t then
      out[1] = { index = 0, name = t.gpu, compute_capability = t.cc, memory_mib = ptb.null,
                 source = "device-tree compatible " .. jetson.soc }
    else
      notes[#notes + 1] = "Jetson SoC " .. jetson.soc .. " is not in ptbuild's table"
    end
  end
  return out
end

---------------------------------------------------------------------------
-- CUDA toolkits

local function defines(text)
  local d = {}
  for k, v in (text or ""):gmatch("#define%s+([%w_]+)%s+([^\n]*)") do d[k] = trim(v) end
  return d
end

local function toolkit_version(t)
  local vj = t.version_json
  if vj then
    local nvcc, sdk = vj.cuda_nvcc, vj.cuda
    -- the SDK's own number can be a date (11.8.20220929): prefer nvcc's
    if nvcc and nvcc:match("^%d+%.%d+%.%d+$") then return nvcc, "version.json cuda_nvcc" end
    if sdk then
      local a, b, c = sdk:match("^(%d+)%.(%d+)%.?(%d*)")
      if a then
        if c ~= "" and #c <= 4 then return ("%s.%s.%s"):format(a, b, c), "version.json cuda" end
        return a .. "." .. b, "version.json cuda"
      end
    end
  end
  if t.version_txt then
    local v = t.version_txt:match("CUDA Version (%d+%.%d+[%.%d]*)")
    if v then return v, "version.txt" end
  end
  -- a site-packages may hold both wheel families: nvidia/cu13 belongs to
  -- the unsuffixed nvidia_cuda_nvcc (13), nvidia/cuda_nvcc to *_cu12/_cu11
  local want = t.root:match("/nvidia/cuda_nvcc$") and "^nvidia_cuda_nvcc_cu%d+%-"
    or t.root:match("/nvidia/cu%d+$") and "^nvidia_cuda_nvcc%-" or "^nvidia_cuda_nvcc"
  for _, d in ipairs(t.dist_info or {}) do
    local v = d:find(want) and d:match("^nvidia_cuda_nvcc[%w_]-%-(%d+%.%d+[%.%d]*)%.dist%-info$")
    if v then return v, "dist-info " .. d end
  end
  for _, m in ipairs(t.conda_meta or {}) do
    -- cuda-nvcc-12.4.131-0.json (conda's package record)
    local v = m:match("^cuda%-nvcc%-(%d+%.%d+[%.%d]*)%-")
    if v then return v, "conda-meta " .. m end
  end
  -- nvcc's binary holds the line --version prints (a distribution's
  -- package has no version file); read, not run, so a sysroot agrees
  if t.nvcc_binary_version then
    local v = t.nvcc_binary_version:match("release %S+ V(%d+%.%d+[%.%d]*)")
    if v then return v, "nvcc binary " .. t.nvcc_binary end
  end
  if t.nvcc_version_output then
    local v = t.nvcc_version_output:match("release %S+ V(%d+%.%d+[%.%d]*)")
    if v then return v, "nvcc --version" end
  end
  -- the headers and the runtime beside them: the release, then cudart's
  -- full number when it is of that release
  local cv = t.cuda_h and tonumber(t.cuda_h.cuda_version)
  local rel = cv and cv >= 1000 and ("%d.%d"):format(cv // 1000, (cv % 1000) // 10)
  local best
  for _, f in ipairs(t.cudart or {}) do
    local v = f:match("/libcudart%.so%.(%d+%.%d+%.%d+)$")
    if v and (not rel or v:match("^%d+%.%d+") == rel) and
      (not best or M.vcmp(v, best) > 0) then best = v end
  end
  if best then return best, "libcudart " .. best end
  if rel then return rel, "cuda.h CUDA_VERSION" end
  return nil, nil
end

-- What the toolkit's headers and nvcc's ELF header say, into tk: cuDNN
-- and NCCL versions (their version macros), the newest gcc its
-- host_config.h accepts ("#if __GNUC__ > 14" refuses 15: gcc_max 14), the
-- machine nvcc was built for.
local function header_version(tk, key, header, prefix, patch)
  if not header then return end
  local d = defines(header.defines)
  if d[prefix .. "_MAJOR"] then
    tk[key] = ("%s.%s.%s"):format(d[prefix .. "_MAJOR"], d[prefix .. "_MINOR"] or "0", d[prefix .. "_" .. patch] or "0")
    tk[key .. "_header"] = header.path
  end
end

local function toolkit_parts(t, tk)
  header_version(tk, "cudnn", t.cudnn_header, "CUDNN", "PATCHLEVEL")
  header_version(tk, "nccl", t.nccl_header, "NCCL", "PATCH")
  local g = type(t.host_config_gnuc) == "string" and t.host_config_gnuc:match("__GNUC__%s*>%s*(%d%d?%d?)%f[%D]")
  if g and tonumber(g) >= 1 then tk.gcc_max = math.tointeger(tonumber(g)) end
  if type(t.nvcc_machine) == "string" then tk.nvcc_machine = t.nvcc_machine end
end

local function under(path, root)
  return path == root or path:sub(1, #root + 1) == root .. "/"
end

local function toolkit_facts(raw, notes)
  local out = {}
  local first_nvcc = (raw.path_nvcc or {})[1]
  local first_ld = (raw.ld_cudart or {})[1]
  for _, t in ipairs(raw.toolkits or {}) do
    local v, vsrc = toolkit_version(t)
    local tk = { root = t.root, version = v or ptb.null, version_source = vsrc,
                 source = t.found_by[1], found_by = t.found_by, nvcc = t.nvcc or ptb.null,
                 layout = t.layout or (t.nvcc_wrapped and "distribution") or nil,
                 nvcc_real = t.nvcc_wrapped }
    if #t.aliases > 0 then tk.aliases = t.aliases end
    if v then tk.release = v:match("^(%d+%.%d+)") end
    if not v then
      notes[#notes + 1] = "no version file in the CUDA toolkit at " .. t.root ..
        (raw.is_host and "" or " (nvcc is not run for a sysroot)")
    end
    for _, tg in ipairs(t.targets or {}) do
      tk.target = tk.target or tg
      if tg == "x86_64-linux" then tk.platform = "x86_64"
      elseif tg == "sbsa-linux" then tk.platform = "sbsa"
      elseif tg == "aarch64-linux" then tk.platform = "jetson" end
    end
    toolkit_parts(t, tk)
    tk.cudnn = tk.cudnn or ptb.null
    tk.nccl = tk.nccl or ptb.null
    local picked = {}
    if first_nvcc and under(first_nvcc, t.root) then picked[#picked + 1] = "PATH" end
    if first_ld and under(first_ld, t.root) then picked[#picked + 1] = "LD_LIBRARY_PATH" end
    for _, s in ipairs(t.found_by) do
      if s == "CUDA_HOME" or s == "CUDA_PATH" then picked[#picked + 1] = s end
    end
    tk.picked_by = ptb.array(picked)
    out[#out + 1] = tk
  end
  -- two installs where PATH finds one and LD_LIBRARY_PATH loads another
  local p, l
  for _, tk in ipairs(out) do
    for _, s in ipairs(tk.picked_by) do
      if s == "PATH" then p = tk.root elseif s == "LD_LIBRARY_PATH" then l = tk.root end
    end
  end
  if p and l and p ~= l then
    notes[#notes + 1] = ("PATH finds nvcc in %s but LD_LIBRARY_PATH loads libcudart from %s"):format(p, l)
  end
  return out
end

-- nvcc's own GPU list (`--list-gpu-arch`, `--list-gpu-code`) of each
-- toolkit whose release's list ptbuild does not source (lib/archlist
-- list_source: "assumed", a copy of the release before it, or "unknown",
-- a release newer than its tables), as tk.gpu_list = { from = "nvcc",
-- nvcc, arch, code }, or { from = "nvcc", nvcc, error } when it could not
-- answer.  plan, arch and doctor then judge that toolkit by it.  Asked
-- only where C offers ptb.gpu_list (this host, never a sysroot), only of
-- an nvcc built for this host's machine, and never for a release whose
-- list has a source: such a detect runs nothing more.
local function toolkit_gpu_lists(tks, arch)
  if not ptb.gpu_list then return end
  local archlist
  for _, tk in ipairs(tks) do
    local native = tk.nvcc_machine == nil or tk.nvcc_machine == arch
    if type(tk.nvcc) == "string" and type(tk.release) == "string" and native then
      archlist = archlist or ptb.include("lib/archlist")
      if archlist.list_source(archlist.release(tk.release)) ~= "data" then
        local got = ptb.gpu_list(tk.nvcc)
        tk.gpu_list = { from = "nvcc", nvcc = tk.nvcc, error = got.error,
                        arch = not got.error and ptb.array(got.arch) or nil,
                        code = not got.error and ptb.array(got.code) or nil }
      end
    end
  end
end

---------------------------------------------------------------------------
-- compilers

-- The version a compiler's name or path says: gcc-13, g++-13.2,
-- clang-18, /usr/lib/llvm-18/, /opt/rh/gcc-toolset-13/ (a major, mostly)
local function name_version(c)
  return c.name:match("%-(%d+[%.%d]*)$")
    or c.target:match("[/%-]g?cc%-(%d+[%.%d]*)$") or c.target:match("g%+%+%-(%d+[%.%d]*)$")
    or c.target:match("clang%+?%+?%-(%d+[%.%d]*)$") or c.target:match("/llvm%-(%d+)/")
    or c.target:match("/gcc%-toolset%-(%d+)/")
end

-- A file dpkg can have installed: Debian's packages install nothing under
-- /usr/local (Policy 9.1.2), and a gcc-12 built there is not the gcc-12
-- package, whatever its name (c.target: the file behind links).  The
-- same for /usr/lib/gcc: it is the gcc of /usr, not of /usr/local or /opt.
local function in_usr(c)
  local t = tostring(c.target or c.path)
  return t:match("^/usr/") and not t:match("^/usr/local/") or t:match("^/bin/")
end

-- The lib/gcc/<triplet>/<version> directories of the compiler's own
-- prefix: lib_gcc (a gcc outside /usr), else /usr/lib/gcc's for one in /usr
local function libdirs_of(c, gcc_libdirs)
  if c.lib_gcc then return c.lib_gcc end
  local out = {}
  for _, d in ipairs(in_usr(c) and gcc_libdirs or {}) do out[#out + 1] = "/usr/lib/gcc/" .. d end
  return out
end

-- The version-like strings in a file's own bytes (C reads them under the
-- root: src/detect/probe_tools.c), once a file; nil when it is no ELF file
-- to search (absent, a script, too large: a note says so) or when nothing
-- offers the reader (ptb.version_strings exists while detect runs, not in
-- a recipe test).
local function file_strings(file, read)
  if read.seen[file] == nil then
    local r = ptb.version_strings and ptb.version_strings(file) or {}
    if r.note then read.notes[#read.notes + 1] = r.note end
    read.seen[file] = r.strings or false
  end
  return read.seen[file] or nil
end

-- The file that holds a compiler's version and its strings: the driver,
-- else -- a clang is often a small driver over libclang-cpp -- the first
-- of its prefix's libclang-cpp.so.* that holds any (raw: probe_tools.c).
local function compiler_bytes(c, read)
  local strs = file_strings(c.target, read)
  if strs and #strs == 0 and c.name:find("clang") then
    for _, lib in ipairs(c.libclang_cpp or {}) do
      local ls = file_strings(lib, read)
      if ls and #ls > 0 then return lib, ls end
    end
  end
  return c.target, strs
end

-- The X.Y.Z a compiler's bytes (strs, of file) hold, of that major when
-- one is known: only one such version is an answer.  Returns the
-- version, or nil and why not (nil when there was nothing).
local function binary_version(c, file, strs, major)
  local seen, list, other = {}, {}, {}
  for _, s in ipairs(strs or {}) do
    local x = s:gsub("^clang version ", ""):match("^(%d+%.%d+%.%d+)")
    if x and not seen[x] then
      seen[x] = true
      if not major or x:match("^(%d+)") == major then list[#list + 1] = x else other[#other + 1] = x end
    end
  end
  if #list == 1 then return list[1] end
  if #list > 1 then
    return nil, ("%s holds several versions (%s): the full version of %s is unknown"):format(
      file, table.concat(list, ", "), c.path)
  end
  if #other > 0 and #other <= 3 then
    return nil, ("%s holds version %s, not of the %s its name or path gives: the full version of %s is unknown"):format(
      file, table.concat(other, ", "), major, c.path)
  end
  return nil
end

-- The dpkg record of the compiler's package: Debian and Ubuntu name the
-- gcc-13 (g++-13, cpp-13) or clang-18 package by its major and install it
-- at "13.2.0-23ubuntu4", "1:18.1.3-1".
local function dpkg_version(c, major, packages)
  if not in_usr(c) then return nil end
  local want = c.name:find("clang") and { "clang-" .. major } or { "gcc-" .. major, "g++-" .. major, "cpp-" .. major }
  for _, w in ipairs(want) do
    for _, p in ipairs(packages or {}) do
      local full = p.name == w and tostring(p.version):gsub("^%d+:", ""):match("^(%d+%.%d+[%.%d]*)")
      if full and full:match("^(%d+)") == major then
        return (full:gsub("%.$", "")), ("dpkg %s %s"):format(p.name, p.version)
      end
    end
  end
  return nil
end

-- A compiler's version and where it came from, the best source first:
-- its own output (this host), the name with all parts, the dpkg record,
-- the version string in its bytes, lib/gcc/<triplet>/<X.Y.Z>; else the
-- major its name, path or lib/gcc gives.  Its bytes (up to some 60 MB
-- for a clang's libclang-cpp, most of detect's time) are read only when
-- no source before them answers and it was not run.  Third result: a
-- note, when its bytes held no version that fits.
local function compiler_version(c, gcc_libdirs, packages, read)
  local clang = c.name:find("clang")
  if c.version_output then
    local v = c.version_output:match("version (%d+%.%d+[%.%d]*)") or c.version_output:match("^(%d+[%.%d]*)")
    if v then return v, clang and "clang --version" or "gcc -dumpfullversion" end
  end
  local v, src = name_version(c), "name"
  local dirs = libdirs_of(c, gcc_libdirs)
  if not v and not clang then
    -- a plain gcc binary: the one version under its lib/gcc, if only one
    local only, at
    for _, d in ipairs(dirs) do
      local x = d:match("/(%d+[%.%d]*)$")
      if x and only and only ~= x then only = false; break end
      if x and only == nil then only, at = x, d end
    end
    if only then v, src = only, "lib/gcc " .. at end
  end
  if v and v:find("%.%d+%.") then return v, src end
  local major = v and v:match("^(%d+)")
  if major then
    local full, dsrc = dpkg_version(c, major, packages)
    if full then return full, dsrc end
  end
  local bv, why
  if not c.version_output then
    local file, strs = compiler_bytes(c, read)
    bv, why = binary_version(c, file, strs, major)
    if bv then return bv, "binary " .. file end
  end
  if major and not clang then
    for _, d in ipairs(dirs) do
      local full = d:match("/(%d+%.%d+[%.%d]*)$")
      if full and full:match("^(%d+)") == major then return full, "lib/gcc " .. d end
    end
  end
  return v, v and src or nil, why
end

local function compilers_facts(raw, notes)
  local out, byname = {}, {}
  local read = { seen = {}, notes = notes }
  for _, c in ipairs(raw.compilers or {}) do
    local key = c.name .. "\0" .. c.path
    if byname[key] then
      if c.from then
        local e = byname[key]
        e.named_by = e.named_by or {}
        e.named_by[#e.named_by + 1] = c.from
      end
    else
      local v, src, why = compiler_version(c, raw.gcc_libdirs, raw.compiler_packages, read)
      local e = { name = c.name, path = c.path, version = v or ptb.null, version_source = src }
      if why then notes[#notes + 1] = why end
      if c.target ~= c.path then e.target = c.target end
      if c.from then e.named_by = { c.from } end
      byname[key] = e
      out[#out + 1] = e
    end
  end
  return out
end

---------------------------------------------------------------------------
-- installed torch (first site-packages that has one)

local function torch_facts(raw, notes)
  for _, t in ipairs(raw.torch or {}) do
    local v, c
    if t.version_py then
      v = t.version_py:match("__version__%s*=%s*['\"]([^'\"]+)")
      c = t.version_py:match("\ncuda[^=\n]*=%s*['\"]([^'\"]+)")
    end
    if not v then
      for _, d in ipairs(t.dist_info or {}) do
        v = v or d:match("^torch%-(.+)%.dist%-info$")
      end
    end
    if v then
      if not c and t.version_py then c = nil end
      local out = { version = v, cuda = c or ptb.null, site = t.site,
                    source = t.version_py and "torch/version.py" or "dist-info" }
      -- what its libtorch_cuda holds code for: the plan says from it
      -- whether this torch covers the GPUs
      if t.libtorch_cuda then
        out.libtorch_cuda = t.libtorch_cuda
        if t.archs then
          out.archs = { sass = ptb.array(t.archs.sass or {}), ptx = ptb.array(t.archs.ptx or {}) }
        else
          notes[#notes + 1] = ("cannot read the architectures of %s: %s"):format(t.libtorch_cuda, tostring(t.archs_error))
        end
      end
      return out
    end
  end
  return nil
end

---------------------------------------------------------------------------
-- the python3 a build would use (raw.python, src/detect/probe_tools.c):
-- the first on PATH, as pip and setup.py find it; `from` names the
-- environment it belongs to ($VIRTUAL_ENV, $CONDA_PREFIX), else pyenv or
-- PATH.  Its X.Y from the file it resolves to (python3 -> python3.12),
-- else its virtual environment's pyvenv.cfg ("version = 3.12.3", or uv's
-- "version_info = 3.12.3"), else the one lib/python3.X beside it.  Behind
-- pyenv's shim (a script) C has already taken the interpreter of the
-- version pyenv selects (raw.python.pyenv says which and why).  The
-- distribution's /usr/bin/python3, when it is another interpreter, is
-- `system` (the same fields but from): labelled, never what a plan uses.

-- X.Y of one python3 C described, and the file that says it; nil when none.
local function python_version(p)
  local real = type(p.real) == "string" and p.real or nil
  local v = real and real:match("/python(%d+%.%d+)$")
  local src = v and real
  if not v and type(p.pyvenv_cfg) == "string" then
    for _, l in ipairs(lines(p.pyvenv_cfg)) do
      local k, val = l:match("^%s*([%w_]+)%s*=%s*(%S+)")
      local mm = (k == "version" or k == "version_info") and val:match("^(%d+%.%d+)")
      if mm then v, src = mm, "pyvenv.cfg"; break end
    end
  end
  if not v then
    local found, dir = {}, nil
    for _, d in ipairs(type(p.lib) == "table" and p.lib or {}) do
      local mm = type(d) == "string" and d:match("/python(%d+%.%d+)$")
      if mm and not found[mm] then found[#found + 1], found[mm], dir = mm, true, d end
    end
    if #found == 1 then v, src = found[1], dir end
  end
  return v, src, real
end

local function python_facts(raw, notes)
  local p = raw.python
  if type(p) ~= "table" or type(p.path) ~= "string" then
    notes[#notes + 1] = "no python3 found ($VIRTUAL_ENV/bin, $CONDA_PREFIX/bin or PATH): a PyTorch build needs one"
    return nil
  end
  local pe = type(p.pyenv) == "table" and p.pyenv or nil
  if pe and pe.installed == false and type(pe.version) == "string" then
    notes[#notes + 1] = ("pyenv selects Python %s (%s), which is not installed in %s/versions: pyenv install %s, or choose another with pyenv local"):format(
      pe.version, tostring(pe.set_by), tostring(pe.root), pe.version)
  elseif pe and not pe.version then
    notes[#notes + 1] = ("python3 at %s is pyenv's shim, and no PYENV_VERSION, .python-version or %s/version says which Python it runs"):format(
      p.path, tostring(pe.root))
  end
  local v, src, real = python_version(p)
  if not v then
    notes[#notes + 1] = ("python3 at %s: its version is unknown (no pythonX.Y it links to, no pyvenv.cfg, no single lib/python3.X)"):format(p.path)
  end
  -- an environment a variable names, not activated: PATH's python3 builds
  for _, u in ipairs(type(p.unused) == "table" and p.unused or {}) do
    if type(u) == "table" and type(u.var) == "string" and type(u.path) == "string" then
      local dir = u.path:match("^(.*)/bin/python3$") or u.path
      notes[#notes + 1] = ("$%s names %s, but the python3 first on PATH is %s%s: a build runs that one, not %s; activate the environment first (%s) or unset %s"):format(
        u.var, dir, p.path, v and (" (Python " .. v .. ")") or "", u.path,
        u.var == "VIRTUAL_ENV" and (". " .. dir .. "/bin/activate") or ("conda activate " .. dir), u.var)
    end
  end
  local sys
  if type(p.system) == "table" and type(p.system.path) == "string" then
    local sv, ssrc, sreal = python_version(p.system)
    sys = { version = sv or ptb.null, path = p.system.path, real = sreal, source = ssrc }
  end
  return { version = v or ptb.null, path = p.path, real = real, from = p.from, source = src, system = sys }
end

---------------------------------------------------------------------------
-- version forms: the facts contract (src/detect/facts.c, ptb_facts_validate)
-- checks every version-valued key; a value detect read in another form
-- leaves as null with a note, never as an error of the whole run.

-- min..max groups of digits joined by single dots; with tail a PEP 440
-- rest may follow ("2.5.1+cu124"): letters, digits, . + _ -, no "..", no
-- final dot.  The same rules as version_form in src/facts.c.
local function version_form(v, min, max, tail)
  if type(v) ~= "string" then return false end
  local n, i = 0, 1
  while true do
    local _, e = v:find("^%d+", i)
    if not e then return false end
    n, i = n + 1, e + 1
    if v:sub(i, i) == "." and v:sub(i + 1, i + 1):match("^%d$") then i = i + 1 else break end
  end
  if n < min or n > max then return false end
  local rest = v:sub(i)
  if rest == "" then return true end
  return tail and not rest:find("..", 1, true) and rest:sub(-1) ~= "." and
    rest:match("^[%w%.%+_%-]+$") ~= nil
end
M.version_form = version_form

-- top (an array when it ends in []), key, min, max, tail, and whether the
-- key is required there (then the whole object goes)
local FORMS = {
  { "driver", "version", 2, 4, false, true },
  { "driver", "library_version", 2, 4 },
  { "driver", "cuda_max", 2, 2 },
  { "driver", "built_with_gcc", 1, 4 },
  { "gpus[]", "compute_capability", 2, 2 },
  { "toolkits[]", "version", 2, 4 },
  { "toolkits[]", "release", 2, 2 },
  { "toolkits[]", "cudnn", 1, 4 },
  { "toolkits[]", "nccl", 1, 4 },
  { "compilers[]", "version", 1, 4 },
  { "torch", "version", 1, 4, true, true },
  { "torch", "cuda", 2, 3 },
  { "jetson", "l4t", 2, 3 },
  { "jetson", "jetpack", 2, 3 },
  { "jetson", "cuda", 2, 3 },
  { "python", "version", 2, 2 },
}

local function check_forms(facts, notes)
  for _, f in ipairs(FORMS) do
    local top, key, min, max, tail, required = f[1], f[2], f[3], f[4], f[5], f[6]
    local arr = top:match("^(.-)%[%]$")
    local items = arr and facts[arr] or { facts[top] }
    for i, it in ipairs(items) do
      local v = type(it) == "table" and it[key]
      if type(v) == "string" and not version_form(v, min, max, tail) then
        local where = arr and ("%s[%d].%s"):format(arr, i - 1, key) or top .. "." .. key
        notes[#notes + 1] = ("%s: '%s' is not a version ptbuild can read; left out"):format(where, v:sub(1, 40))
        if required then facts[top] = ptb.null else it[key] = ptb.null end
      end
    end
  end
  return facts
end

---------------------------------------------------------------------------

-- The page size: this host's sysconf; for a sysroot a saved smaps, the
-- kernel's build configuration, or Ubuntu's "-64k" kernel flavour name.
-- Returns bytes and where from, or nil.
local function page_size(files, h, arch, kernel)
  local ps, ps_src = h.page_size, h.page_size and "sysconf"
  if not ps and files["/proc/self/smaps"] then
    local kb = files["/proc/self/smaps"]:match("KernelPageSize:%s*(%d+) kB")
    ps, ps_src = kb and tonumber(kb) * 1024, kb and "/proc/self/smaps"
  end
  if not ps and h.kconfig_pages then
    local kb = h.kconfig_pages:match("CONFIG_ARM64_(%d+)K_PAGES=y")
    ps, ps_src = kb and tonumber(kb) * 1024, kb and h.kconfig_file
  end
  if not ps and arch == "aarch64" and kernel and kernel:match("%-64k$") then
    ps, ps_src = 65536, "kernel name " .. kernel
  end
  if not ps and arch == "x86_64" then
    ps, ps_src = 4096, "x86_64 (always 4 KiB base pages)"
  end
  return ps, ps_src
end

-- glibc's version, only a dotted one (fuzzing: a garbage banner broke
-- the contract), with a note when it is unknown or unreadable.
local function glibc_version(h, notes)
  local glibc = type(h.glibc) == "string" and h.glibc:match("^%d+%.%d+$") or
    (type(h.glibc) == "string" and h.glibc:match("^%d+%.%d+%.%d+$")) or nil
  if not h.glibc then notes[#notes + 1] = "glibc version unknown (no libc.so.6 banner)"
  elseif not glibc then notes[#notes + 1] = "glibc version unreadable: '" .. tostring(h.glibc):sub(1, 40) .. "'" end
  return glibc or ptb.null
end

-- The host: architecture, kernel, OS, glibc, page size, memory, CPU and
-- a container's limits.  Returns it and the kernel release (or nil).
local function host_facts(raw, notes)
  local files = raw.files or {}
  local h = raw.host or {}
  local arch, arch_src = host_arch(raw, notes)
  local kernel = files["/proc/sys/kernel/osrelease"] and trim(files["/proc/sys/kernel/osrelease"]) or h.uname_release
  local host = { arch = arch, arch_source = arch_src }
  host.kernel = kernel or ptb.null
  if not kernel then notes[#notes + 1] = "kernel release unknown (no /proc/sys/kernel/osrelease)" end
  host.os = os_release(files) or ptb.null
  if host.os == ptb.null then notes[#notes + 1] = "no /etc/os-release" end
  host.glibc = glibc_version(h, notes)
  local ps, ps_src = page_size(files, h, arch, kernel)
  host.page_size = ps and math.tointeger(ps) or ptb.null
  host.page_size_source = ps_src
  if not ps then notes[#notes + 1] = "page size unknown (no saved /proc/self/smaps, /boot/config-<kernel> or -64k kernel name in the sysroot)" end
  local mem = files["/proc/meminfo"] and files["/proc/meminfo"]:match("MemTotal:%s*(%d+) kB")
  host.memory_mib = mem and math.tointeger(tonumber(mem) // 1024) or ptb.null
  host.cpu = cpu_facts(raw, arch, notes)
  if host.cpu ~= ptb.null then
    local n = count_cpus(files["/sys/devices/system/cpu/online"])
    if not n and (h.cpuinfo_processors or 0) > 0 then n = math.tointeger(h.cpuinfo_processors) end
    host.cpu.cores = n or ptb.null
  end
  host.limits = host_limits(files, h, mem and host.memory_mib,
                            host.cpu ~= ptb.null and host.cpu.cores ~= ptb.null and host.cpu.cores or nil)
  return host, kernel
end

-- The platform a build targets: jetson, sbsa (other aarch64) or the arch.
local function platform_of(host, jetson, raw, notes)
  if jetson then host.platform = "jetson"
  elseif host.arch == "aarch64" then host.platform = "sbsa"
  else host.platform = host.arch end
  local ps = (raw.host or {}).page_size
  if host.platform == "x86_64" and ps and ps ~= 4096 then
    notes[#notes + 1] = "unusual page size on x86_64"
  end
end

-- The GPU side: the driver, the GPUs and the CUDA toolkits, each with a
-- note when there is none.
local function gpu_side(raw, jetson, notes)
  local driver = driver_facts(raw, notes)
  if not driver then
    if jetson and (jetson.l4t or "") < "38" then
      notes[#notes + 1] = "no /proc/driver/nvidia: on Jetson before Thor the GPU driver (nvgpu) is part of L4T"
    else
      notes[#notes + 1] = "no NVIDIA driver: /proc/driver/nvidia/version is absent"
    end
  end
  local gpu = gpu_list(raw, jetson, notes)
  if #gpu == 0 then notes[#notes + 1] = "no GPU found" end
  local tks = toolkit_facts(raw, notes)
  if #tks == 0 then notes[#notes + 1] = "no CUDA toolkit found" end
  return driver, gpu, tks
end

function M.enrich(raw)
  local notes = {}
  -- files C found but did not read (not a regular file) or cut (too large)
  for _, n in ipairs(type(raw.read_notes) == "table" and raw.read_notes or {}) do
    if type(n) == "string" then notes[#notes + 1] = n end
  end
  local host, kernel = host_facts(raw, notes)
  local jetson = jetson_facts(raw, kernel)
  platform_of(host, jetson, raw, notes)
  local driver, gpu, tks = gpu_side(raw, jetson, notes)
  toolkit_gpu_lists(tks, host.arch)
  local env = {}
  for k, v in pairs(raw.env or {}) do env[k] = v end
  env.nvcc_on_path = (raw.path_nvcc or {})[1]
  env.cudart_on_ld_library_path = (raw.ld_cudart or {})[1]

  return check_forms({
    schema = "ptbuild.facts/1",
    host = host,
    driver = driver or ptb.null,
    gpus = ptb.array(gpu),
    toolkits = ptb.array(tks),
    compilers = ptb.array(compilers_facts(raw, notes)),
    jetson = jetson or ptb.null,
    torch = torch_facts(raw, notes) or ptb.null,
    python = python_facts(raw, notes) or ptb.null,
    env = ptb.object(env),
    notes = ptb.array(notes),
  }, notes)
end

---------------------------------------------------------------------------
-- the build environment (doctor): C (src/detect/probe_env.c) hands the
-- variables, the toolkits they name, the loader's directories, site-
-- packages, conda and the marker paths data/containers.lua lists.

-- Every GPU device node data/containers.lua names, discrete or of any
-- Jetson L4T, each once, in its order.
function M.gpu_nodes(c)
  local out, seen = {}, {}
  local function add(list)
    for _, d in ipairs(list) do
      if not seen[d] then seen[d] = true; out[#out + 1] = d end
    end
  end
  add(c.gpu_devices)
  for _, g in ipairs(c.jetson) do add(g.nodes) end
  return out
end

-- The paths C is to look at for detect.environment.
function M.wanted()
  local c = data("containers")
  local exists, files = {}, { c.cgroup.file, c.cpuinfo.file, c.environ.file, c.mountinfo.file }
  for _, m in ipairs(c.markers) do exists[#exists + 1] = m.path end
  for _, d in ipairs(M.gpu_nodes(c)) do exists[#exists + 1] = d end
  for _, h in ipairs(c.binfmt.handlers) do files[#files + 1] = c.binfmt.dir .. "/" .. h end
  return { exists = ptb.array(exists), files = ptb.array(files) }
end

-- A toolkit the environment names, as doctor reports it: read by the
-- same rules as the facts' toolkits.
local function env_toolkit(t, via)
  local tk = { root = t.root, via = via, version = (toolkit_version(t)) }
  toolkit_parts(t, tk)
  if tk.cudnn then tk.cudnn_header = { version = tk.cudnn, path = tk.cudnn_header } end
  tk.cudnn, tk.nccl, tk.nccl_header = nil, nil, nil
  local tg = {}
  for _, x in ipairs(type(t.targets) == "table" and t.targets or {}) do
    if type(x) == "string" then tg[#tg + 1] = x end
  end
  tk.targets = ptb.array(tg)
  return tk
end

local function env_toolkits(e)
  local by_root = {}
  for _, t in ipairs(type(e.toolkits) == "table" and e.toolkits or {}) do
    if type(t.root) == "string" then by_root[t.root] = t end
  end
  local function info(root, via)
    return env_toolkit(by_root[root] or { root = root }, via)
  end
  local out = { nvcc_on_path = {} }
  for _, n in ipairs(type(e.path_nvcc) == "table" and e.path_nvcc or {}) do
    local tk = info(n.root, "PATH")
    tk.nvcc = n.nvcc
    out.nvcc_on_path[#out.nvcc_on_path + 1] = tk
  end
  for _, h in ipairs({ { "CUDA_HOME", "cuda_home" }, { "CUDA_PATH", "cuda_path" } }) do
    local x = e[h[1]]
    if type(x) == "table" and type(x.given) == "string" then
      if type(x.root) == "string" then
        out[h[2]] = info(x.root, h[1])
        out[h[2]].given = x.given
      else
        out[h[2]] = { given = x.given, missing = true }
      end
    end
  end
  if type(e.usr_local_cuda) == "string" then out.usr_local_cuda = info(e.usr_local_cuda, "/usr/local/cuda") end
  out.nvcc_on_path = ptb.array(out.nvcc_on_path)
  return out
end

-- The libraries in the loader's order; of the default directories only
-- those of this host's multiarch triplet.
local function env_libs(e, arch)
  local other = arch == "aarch64" and "x86_64%-linux%-gnu" or "aarch64%-linux%-gnu"
  local out = {}
  for _, d in ipairs(type(e.loader) == "table" and e.loader or {}) do
    if not (d.via == "default" and d.dir:find(other)) then
      for _, l in ipairs(d.libs or {}) do
        local base = l.real and l.real:match("([^/]+)$") or l.name
        local so = base:find(".so.", 1, true)
        local path = (d.dir == "/" and "" or d.dir) .. "/" .. l.name
        local v = so and base:sub(so + 4)
        out[#out + 1] = { name = l.name, lib = l.name:match("^(.-)%.so%.") or l.name, path = path,
                          real = l.real, version = v ~= "" and v or nil, via = d.via,
                          compat = d.dir:find("/compat", 1, true) ~= nil }
      end
    end
  end
  return out
end

local function sorted_by(list, a, b)
  table.sort(list, function(x, y)
    if x[a] ~= y[a] then return tostring(x[a]) < tostring(y[a]) end
    return tostring(x[b]) < tostring(y[b])
  end)
  return ptb.array(list)
end

-- torch installs with a dist-info or egg-info (its version): the CUDA
-- version.py names, libtorch_cuda, its machine and generic architectures.
local function env_torch(e)
  local out = {}
  for _, t in ipairs(type(e.torch) == "table" and e.torch or {}) do
    local v
    for _, list in ipairs({ t.dist_info or {}, t.egg_info or {} }) do
      for _, d in ipairs(list) do
        v = v or d:match("^torch%-(.+)%.dist%-info$") or d:match("^torch%-(.+)%.egg%-info$")
      end
    end
    if v then
      local c = type(t.version_py) == "string" and t.version_py:match("\ncuda[^=\n]*=%s*['\"]([%d.]+)['\"]")
      local x = { version = v, site = t.site, cuda = c and #c < 16 and c or nil,
                  libtorch_cuda = t.libtorch_cuda, machine = t.libtorch_cuda and t.machine or nil }
      if t.libtorch_cuda and type(t.archs) == "table" then
        local a = { sass = {}, ptx = {} }
        for _, k in ipairs({ "sass", "ptx" }) do
          for _, cc in ipairs(t.archs[k] or {}) do
            if cc:match("^%d+%.%d+$") then a[k][#a[k] + 1] = cc end
          end
          a[k] = ptb.array(a[k])
        end
        x.archs = a
      end
      out[#out + 1] = x
    end
  end
  return sorted_by(out, "version", "site")
end

local function env_pip(e)
  local out = {}
  for _, p in ipairs(type(e.pip_nvidia) == "table" and e.pip_nvidia or {}) do
    -- nvidia_cudnn_cu12-...: the "_cuNN" part, not "_cudnn"
    local cu = p.dist_info:match("_cu(%d+)")
    out[#out + 1] = { dist_info = p.dist_info, site = p.site, cuda_major = cu and math.tointeger(tonumber(cu)) }
  end
  return sorted_by(out, "dist_info", "site")
end

-- conda-meta records name-version-build.json of the CUDA packages
local CONDA_CUDA = { "cudatoolkit", "cuda-cudart", "cuda-nvcc", "cuda-version", "cuda-runtime" }
local function env_conda(e)
  if type(e.conda) ~= "table" then return nil end
  local pk = {}
  for _, n in ipairs(e.conda.meta or {}) do
    for _, name in ipairs(CONDA_CUDA) do
      local v = n:sub(1, #name + 1) == name .. "-" and n:match("^(%d[^-]*)%-.*%.json$", #name + 2)
      if v then pk[#pk + 1] = { name = name, version = v } end
    end
  end
  return { prefix = e.conda.prefix, packages = sorted_by(pk, "name", "version") }
end

-- The runtime PID 1's environment names (container=NAME, non-empty), or
-- the type of an overlay-like file system mounted on / (the last mount
-- there) in detect's own mount table: data/containers.lua environ and
-- mountinfo.  Returns marker, runtime and, for an overlay root that names
-- no container engine's storage, true (only likely a container); or nil.
local function env_marks(c, files)
  local env = files[c.environ.file]
  local name = type(env) == "string" and (("\n" .. env):match("\n" .. c.environ.var .. "=([^\n]+)"))
  if name then return c.environ.file, name end
  local mi, top, opts = files[c.mountinfo.file], nil, nil
  for line in (type(mi) == "string" and mi or ""):gmatch("[^\n]+") do
    local point = line:match("^%S+ %S+ %S+ %S+ (%S+)")
    local fstype, o = line:match(" %- (%S+) %S+ ?(%S*)")
    if point == "/" and fstype then top, opts = fstype, o end
  end
  for _, t in ipairs(top and c.mountinfo.root_types or {}) do
    if top == t then
      for _, d in ipairs(c.mountinfo.engine_dirs) do
        if opts:find(d, 1, true) then return c.mountinfo.file, ("unknown (%s root in %s)"):format(t, d) end
      end
      return c.mountinfo.file, ("unknown (%s root file system)"):format(t), true
    end
  end
  return nil
end

-- Inside a container?  The first marker file that exists, else a runtime
-- named in PID 1's cgroup, else in PID 1's environment, else an overlay
-- root (data/containers.lua); the GPU devices passed in; QEMU handlers;
-- what kind of CPU the kernel describes.
local function env_markers(e)
  local c = data("containers")
  local ex = type(e.exists) == "table" and e.exists or {}
  local files = type(e.files) == "table" and e.files or {}
  local ct = {}
  for _, m in ipairs(c.markers) do
    if ex[m.path] == true then ct.marker, ct.runtime = m.path, m.runtime; break end
  end
  local cg = files[c.cgroup.file]
  for _, w in ipairs(ct.marker == nil and type(cg) == "string" and c.cgroup.words or {}) do
    if cg:find(w.word, 1, true) then ct.marker, ct.runtime = c.cgroup.file, w.runtime; break end
  end
  if ct.marker == nil then ct.marker, ct.runtime, ct.inferred = env_marks(c, files) end
  ct.inside = ct.marker ~= nil
  -- the GPU device nodes present (doctor judges a Jetson's by its L4T)
  local devices = {}
  for _, d in ipairs(M.gpu_nodes(c)) do
    if ex[d] == true then devices[#devices + 1] = d end
  end
  ct.devices = ptb.array(devices)
  ct.gpu_devices = #devices > 0
  local bf = {}
  for _, h in ipairs(c.binfmt.handlers) do
    local text = files[c.binfmt.dir .. "/" .. h]
    if type(text) == "string" and text:sub(1, 7) == "enabled" then bf[#bf + 1] = h end
  end
  local kind
  local ci = files[c.cpuinfo.file]
  for _, k in ipairs(type(ci) == "string" and c.cpuinfo.kinds or {}) do
    if ci:find(k.key, 1, true) then kind = k.kind; break end
  end
  return ct, ptb.array(bf), type(ci) == "string" and (kind or "unknown") or nil
end

-- The environment doctor judges.  raw: { environment = <probe_env.c>,
-- arch = the facts' host.arch }.
function M.environment(raw)
  local e = type(raw.environment) == "table" and raw.environment or {}
  local out = env_toolkits(e)
  local env = {}
  for k, v in pairs(type(e.vars) == "table" and e.vars or {}) do env[k] = v end
  out.env = ptb.object(env)
  out.libs = ptb.array(env_libs(e, raw.arch))
  out.pip_nvidia = env_pip(e)
  out.torch = env_torch(e)
  out.conda = env_conda(e)
  out.container, out.binfmt_qemu, out.cpuinfo_kind = env_markers(e)
  return out
end

return M
