-- doctor: the checks that explain the classic PyTorch + CUDA build failures
-- before a multi-hour build.  Input { facts = <ptbuild.facts/1>, observed =
-- <the environment detect.environment made of what src/detect/probe_env.c
-- saw: env, nvcc on PATH, CUDA_HOME, libraries in loader order, pip/conda
-- CUDA packages, container and emulation markers> }.
-- Output { findings = [...], checks = N }.  Each check carries the label
-- (S01..S40) of the failure scenario it was written for; the error texts
-- quoted in messages are the ones users reported.
local archlist = ptb.include("lib/archlist")
local checks_lib = ptb.include("lib/checks")
local host_lib = ptb.include("lib/host")
local toolkit = ptb.include("lib/toolkit")
local wheels = ptb.include("lib/wheels")
local pytorch = ptb.include("data/pytorch")
local containers = ptb.include("data/containers")

local M = {}

local function ver_mm(v)
  local a, b = tostring(v or ""):match("^(%d+)%.(%d+)")
  return a and (tonumber(a) .. "." .. tonumber(b)) or nil
end

local function major(v) return tonumber(tostring(v or ""):match("^(%d+)")) end

-- The toolkit a build would use: CUDA_HOME, else the first nvcc on PATH,
-- else /usr/local/cuda, else the first one detect found.  Its version
-- falls back to what detect read for the same root.
function M.toolkit(f, o)
  local tk
  if o.cuda_home and not o.cuda_home.missing then tk = o.cuda_home
  elseif o.nvcc_on_path and o.nvcc_on_path[1] then tk = o.nvcc_on_path[1]
  elseif o.usr_local_cuda then tk = o.usr_local_cuda
  elseif f.toolkits and f.toolkits[1] then
    local t = f.toolkits[1]
    tk = { root = t.root, version = t.version, via = "detect", targets = { t.target }, platform = t.platform,
           gcc_max = t.gcc_max }
  end
  -- the version detect read, and its nvcc's GPU list where detect asked
  -- (toolkits[].gpu_list: the release's list in data/cuda.lua has no source)
  for _, t in ipairs(tk and f.toolkits or {}) do
    if t.root == tk.root or archlist.contains(t.aliases, tk.root) then
      tk.version = tk.version or t.version
      if type(t.gpu_list) == "table" then tk.gpu_list = t.gpu_list end
    end
  end
  return tk
end

local function gpus(f)
  local out = {}
  for _, g in ipairs(f.gpus or {}) do
    if g.compute_capability then out[#out + 1] = g end
  end
  return out
end

-- Does code built for `items` (parsed arch list) run on a GPU of cc?
-- SASS for X.y runs on X.z (z >= y) unless arch-specific (a); PTX for
-- an arch <= cc is JIT-compiled by the driver.
function M.covers(items, cc)
  local code, how = wheels.runs(items, cc)
  if code then return true, how end
  return false
end

-- An installed torch's architectures (detect: archs.sass, archs.ptx) as
-- arch-list items, and how they read in a finding's "seen".
local function torch_items(t)
  local items = {}
  for _, a in ipairs(t.archs.sass or {}) do items[#items + 1] = { cc = a, suffix = "", ptx = false } end
  for _, a in ipairs(t.archs.ptx or {}) do items[#items + 1] = { cc = a, suffix = "", ptx = true } end
  return items
end

local function torch_seen(t)
  return (t.libtorch_cuda or t.site) .. " holds SASS " .. table.concat(t.archs.sass or {}, " ") ..
    "; PTX " .. table.concat(t.archs.ptx or {}, " ")
end

local function first_lib(o, lib, pred)
  for _, l in ipairs(o.libs or {}) do
    if l.lib == lib and (not pred or pred(l)) then return l end
  end
end

-- Forward compatibility (a newer cuda-compat libcuda on an older kernel
-- driver) "is applicable only for systems with NVIDIA Data Center GPUs,
-- select NGC Server Ready SKUs of RTX cards, Jetson boards": NVIDIA, "CUDA
-- Compatibility", https://docs.nvidia.com/deploy/cuda-compatibility/
-- [S_COMPAT].  Which GPUs are which is the segment of the GPU's row in
-- data/gpus.lua (the columns of NVIDIA's pages [S_NV_GPUS] [S_NV_LEGACY]),
-- found by the same whole-word match detect uses, so an "RTX A2000" is
-- never taken for an "A2".  A GeForce, TITAN or Quadro without RTX is
-- refused; an RTX workstation card may be a Server Ready SKU (a warning);
-- a GPU ptbuild cannot place, a warning.
local gpuname = ptb.include("lib/gpuname")
local targets = ptb.include("lib/targets")

-- Each check: code, severity, scenario, run(ctx) -> nil | finding | list.
local checks = {}
local function check(code, severity, scenario, run)
  checks[#checks + 1] = { code = code, severity = severity, scenario = scenario, run = run }
end

-- doctor's words for a Jetson's upgrade package (checks_lib.jetson_runs
-- "upgrade"): the package and the directory it loads from, as plan's
-- cuda_compat names them; a Jetson's driver comes with its JetPack.
local function jetson_upgrade_finding(c, r, up)
  local jp, own = toolkit.jetpack(c.f)
  return { severity = "warning",
    message = ("JetPack %s's driver is CUDA %s's: programs built with CUDA %s run on it only with NVIDIA's CUDA upgrade package %s, whose libraries must come first on LD_LIBRARY_PATH"):format(
      tostring(jp), tostring(own), r.version, up.package),
    seen = ("JetPack %s, toolkit %s (%s)"):format(tostring(jp), c.tk.root, tostring(c.tk.version)),
    fix = ("sudo apt-get install -y %s and put %s first on LD_LIBRARY_PATH (the environment files ptbuild generate writes do)"):format(up.package, up.dir) }
end

check("driver-too-old", "error", "S03", function(c)
  -- a Jetson that runs its CUDA through NVIDIA's upgrade package: load
  -- that, as plan's cuda_compat does (its driver comes with its JetPack;
  -- one whose JetPack runs no such CUDA is jetpack-too-old-for-cuda's)
  if c.tk and c.rel then
    -- a Jetson whose L4T and driver disagree: what plan says of it
    local dis = not toolkit.driver_predates(c.f) and checks_lib.jetson_facts_disagree(c.f, c.rel, "ptbuild plan --cuda")
    -- (one it runs directly is jetson-facts-disagree's)
    if dis and dis.code ~= "jetson-facts-disagree" then
      return { severity = dis.severity, message = dis.text, fix = dis.fix,
        seen = ("L4T %s, driver %s (CUDA %s at most), toolkit %s (%s)"):format(tostring(c.f.jetson.l4t),
          tostring(c.f.driver.version), c.f.driver.cuda_max, c.tk.root, tostring(c.tk.version)) }
    end
    local how, up = checks_lib.jetson_runs(c.f, c.rel, c.tk.root)
    if how == "upgrade" then return jetson_upgrade_finding(c, c.rel, up) end
  end
  if not (c.f.driver and c.f.driver.version) then return end
  local d = c.f.driver.version
  -- a GPU newer than the driver runs nothing, whatever the toolkit; the
  -- driver to install runs the toolkit in use too, as plan's
  local old_for, first = toolkit.driver_predates(c.f)
  if old_for then
    return {
      message = toolkit.predates_text(c.f, old_for, first) .. ": it runs no CUDA code on that GPU, whatever the toolkit",
      seen = "driver " .. d .. ", GPU " .. tostring(old_for.name or old_for.compute_capability)
        .. (c.tk and (", toolkit %s (%s)"):format(c.tk.root, tostring(c.tk.version)) or ""),
      fix = toolkit.predates_fix(c.f, first, c.tk and c.rel or nil) }
  end
  if not (c.tk and c.rel) then return end
  local r = c.rel
  local runs = checks_lib.driver(r, c.f.driver)
  if runs == "direct" or runs == "unknown" then return end
  -- on a Jetson, the Jetson rule's words, as plan's (its driver comes
  -- with its JetPack; false: another Jetson rule speaks)
  local jd = checks_lib.jetson_driver(c.f, r, "ptbuild plan --cuda", c.tk.root, c.torch or pytorch.releases[#pytorch.releases])
  if jd ~= nil then
    if not jd then return end
    return { severity = jd.severity, message = jd.text, fix = jd.fix,
      seen = ("L4T %s, driver %s (CUDA %s at most), toolkit %s (%s)"):format(tostring(c.f.jetson and c.f.jetson.l4t),
        d, tostring(c.f.driver.cuda_max), c.tk.root, tostring(c.tk.version)) }
  end
  local ceiling = c.f.driver.cuda_max and (" (nvidia-smi's \"%s: %s\" is the newest CUDA this driver runs, not the toolkit installed)"):format(toolkit.smi_cuda_label(c.f.driver), c.f.driver.cuda_max) or ""
  if runs == "compat" then
    -- a minimum ptbuild's data lacks (a release newer than its tables)
    -- is said once, not in brackets within brackets
    local asks = r.driver_min and (" (%s)"):format(toolkit.driver_need(r))
      or (", whose minimum driver ptbuild's data lacks (Table 3 of NVIDIA's release notes gives it)")
    return { severity = "warning",
      message = ("driver %s is older than CUDA %s asks%s; it runs it only through minor-version compatibility, without PTX JIT%s")
        :format(d, r.version, asks, ceiling),
      seen = "driver " .. d .. ", toolkit " .. c.tk.root .. " (" .. c.tk.version .. ")",
      fix = ("install %s, or build with SASS for every GPU (no +PTX reliance)"):format(toolkit.driver_at_least(r)) }
  end
  return {
    message = ("driver %s is too old for CUDA %s, which needs %s%s; the build will end in \"CUDA driver version is insufficient for CUDA runtime version\"")
      :format(d, r.version, toolkit.driver_need_compat(r), ceiling),
    seen = "driver " .. d .. ", toolkit " .. c.tk.root .. " (" .. c.tk.version .. ")",
    fix = ("install %s, or use a toolkit no newer than CUDA %s"):format(toolkit.driver_least(c.f, r), c.f.driver.cuda_max or "the driver supports") }
end)

-- A Jetson whose L4T and driver disagree where the driver's answer for
-- the toolkit in use is no problem (it runs it directly, or none is in
-- use): plan's jetson-facts-disagree, by the one rule (lib/checks
-- jetson_facts_disagree); driver-too-old words the rest.
check("jetson-facts-disagree", "warning", "S03", function(c)
  -- a module with no release of its L4T's JetPack: an error, and the one
  -- Jetson answer (lib/checks jetson_mismatch)
  local mis = checks_lib.jetson_mismatch(c.f)
  if mis then
    return { severity = mis.severity, message = mis.text, fix = mis.fix,
      seen = ("L4T %s, module %s, GPU %s"):format(tostring(c.f.jetson.l4t), tostring(c.f.jetson.module),
        tostring(toolkit.jetson_cc(c.f))) }
  end
  local dis = checks_lib.jetson_facts_disagree(c.f, c.tk and c.rel or nil, "ptbuild plan --cuda")
  if not dis or dis.code ~= "jetson-facts-disagree" then return end
  return { severity = dis.severity, message = dis.text, fix = dis.fix,
    seen = ("L4T %s, driver %s (CUDA %s)%s"):format(tostring(c.f.jetson.l4t), tostring(c.f.driver.version),
      c.f.driver.cuda_max, c.tk and (", toolkit %s (%s)"):format(c.tk.root, tostring(c.tk.version)) or "") }
end)

check("driver-library-mismatch", "error", "S06", function(c)
  local d = c.f.driver and c.f.driver.version
  if not d then return end
  for _, lib in ipairs({ "libcuda", "libnvidia-ml" }) do
    local l = first_lib(c.o, lib, function(x) return not x.compat and x.version and x.version:match("^%d+%.%d+") end)
    if l and l.version ~= d then
      return {
        message = ("the loaded kernel module is %s but user-space %s is %s: \"Failed to initialize NVML: Driver/library version mismatch\" until the machine reboots")
          :format(d, lib, l.version),
        seen = "/proc/driver/nvidia/version " .. d .. "; " .. (l.real or l.path),
        fix = "reboot so the new kernel module loads (or reload it: rmmod nvidia_uvm nvidia_drm nvidia_modeset nvidia, then modprobe nvidia)" }
    end
  end
end)

-- A published wheel that covers this machine (lib/wheels.lua: platform,
-- driver, every GPU's SASS or PTX; on a Jetson, its JetPack's wheels): of
-- the installed torch's release first (a reinstall from another index),
-- else the newest release that has one.  nil when none does, or when no
-- release is known.
local function covering_wheel(c, t)
  local cands = { archlist.torch_release(t.version) }
  for i = #pytorch.releases, 1, -1 do cands[#cands + 1] = pytorch.releases[i] end
  for _, r in ipairs(cands) do
    local w = wheels.cover(c.f, r)
    if w.covered == true then
      if w.jetpack then   -- a Jetson's: the wheels of its JetPack
        w.list = w.arch_list
        w.name = ("the JetPack %s wheel of torch %s"):format(w.jetpack, w.torch)
      else
        w.list = r.wheels[w.platform][w.cuda]
        w.name = ("the cu%s wheel of torch %s"):format((w.cuda:gsub("%.", "")), w.torch)
      end
      return w
    end
  end
  return nil
end

check("torch-lacks-gpu", "error", "S02", function(c)
  local out = {}
  for _, t in ipairs(c.o.torch or {}) do
    if t.archs then
      local items = torch_items(t)
      for _, g in ipairs(c.gpus) do
        if not M.covers(items, g.compute_capability) then
          local w = covering_wheel(c, t)
          local fix = ("rebuild with TORCH_CUDA_ARCH_LIST including %s (ptbuild plan does this)"):format(g.compute_capability)
          out[#out + 1] = {
            message = ("the installed torch %s has no code for %s (compute capability %s): \"no kernel image is available for execution on the device\"%s")
              :format(t.version, g.name or "GPU", g.compute_capability,
                      w and ("; %s has it (arch list %s)"):format(w.name, w.list) or ""),
            seen = torch_seen(t),
            fix = w and (wheels.steps(w) .. ", or " .. fix) or fix }
        end
      end
    end
  end
  return out
end)

-- A GPU with no SASS in the installed torch but PTX it can JIT from: it
-- runs, after the driver compiles every kernel at first use (minutes, then
-- cached in ~/.nv/ComputeCache), and only with a driver that reads that
-- PTX's ISA.  (NVIDIA, CUDA C++ Programming Guide, "PTX Compatibility".)
check("torch-gpu-ptx-only", "warning", "S02", function(c)
  local out = {}
  for _, t in ipairs(c.o.torch or {}) do
    if t.archs then
      local items = torch_items(t)
      for _, g in ipairs(c.gpus) do
        local ok, how = M.covers(items, g.compute_capability)
        if ok and how == "ptx" then
          local w = covering_wheel(c, t)
          out[#out + 1] = {
            message = ("the installed torch %s has no SASS for %s (compute capability %s): it runs only by JIT-compiling its PTX (%s) at first use, minutes per process until the driver's cache holds it, with kernels not tuned for this GPU")
              :format(t.version, g.name or "GPU", g.compute_capability, table.concat(t.archs.ptx, " ")),
            seen = torch_seen(t),
            fix = ("install %s, or rebuild with TORCH_CUDA_ARCH_LIST including %s (ptbuild plan does this)")
              :format(w and (w.name .. " (arch list " .. w.list .. "): " .. wheels.steps(w))
                        or ("a torch built for " .. g.compute_capability), g.compute_capability) }
        end
      end
    end
  end
  return out
end)

-- The CUDA an installed torch was built with (torch/version.py), against
-- the driver and against a libcudart that LD_LIBRARY_PATH puts first.
local function torch_cuda(c, t)
  return t.cuda or (c.f.torch and c.f.torch.cuda ~= ptb.null and c.f.torch.cuda) or nil
end

check("torch-driver-too-old", "error", "S03", function(c)
  if not (c.f.driver and c.f.driver.version) then return end
  local out = {}
  for _, t in ipairs(c.o.torch or {}) do
    local cv = torch_cuda(c, t)
    local r = cv and archlist.release(cv)
    if r then
      local how = checks_lib.driver(r, c.f.driver)
      if how ~= "direct" and how ~= "unknown" then
        -- the GPUs that run this torch by its PTX alone: no driver of
        -- minor-version compatibility JIT-compiles it (toolkit.driver_least)
        local jit = {}
        for _, g in ipairs(t.archs and c.gpus or {}) do
          local ok, kind = M.covers(torch_items(t), g.compute_capability)
          if ok and kind == "ptx" then jit[#jit + 1] = tostring(g.name or g.compute_capability) end
        end
        -- through minor-version compatibility a GPU with PTX alone gets
        -- no code: an error, as where the driver is too old
        local stuck = how == "compat" and #jit > 0
        out[#out + 1] = {
          severity = how == "compat" and not stuck and "warning" or nil,
          message = how == "compat"
            and ("driver %s is older than the CUDA %s the installed torch %s was built with (%s): it runs only through minor-version compatibility, without PTX JIT%s")
              :format(c.f.driver.version, cv, t.version, toolkit.driver_need(r),
                      stuck and ("; the %s has only its PTX, and gets no code (\"the provided PTX was compiled with an unsupported toolchain\")"):format(table.concat(jit, ", the ")) or "")
            or ("driver %s is too old for the CUDA %s the installed torch %s was built with (it needs %s): torch.cuda.is_available() will be False, \"The NVIDIA driver on your system is too old\"")
              :format(c.f.driver.version, cv, t.version, toolkit.driver_need_compat(r)),
          seen = ("driver %s; %s/torch/version.py cuda = '%s'"):format(c.f.driver.version, t.site, cv),
          -- a compat warning's fix is r's own driver: the host's runs it
          fix = ("install %s, or a torch built for a CUDA no newer than %s")
            :format(how == "compat" and toolkit.driver_at_least(r) or toolkit.driver_least(c.f, r, jit),
                    c.f.driver.cuda_max or "the driver supports") }
      end
    end
  end
  return out
end)

-- A libcudart's version is the full one of its real file
-- (libcudart.so.12.8.90) or only its soname's (libcudart.so.11.0, .so.12):
-- a soname names the major alone -- every CUDA 11 release's is 11.0 -- so
-- only a full version says which minor it is.
check("torch-cudart-mismatch", "error", "S21", function(c)
  local out = {}
  for _, t in ipairs(c.o.torch or {}) do
    local cv = torch_cuda(c, t)
    local tmaj, tmin = tostring(cv or ""):match("^(%d+)%.(%d+)")
    if tmaj then
      for _, l in ipairs(c.o.libs or {}) do
        local lv = tostring(l.version or "")
        local lmaj = lv:match("^(%d+)")
        local lmin = lv:match("^%d+%.(%d+)%.%d+")
        if l.via == "LD_LIBRARY_PATH" and l.lib == "libcudart" and lmaj and
          (lmaj ~= tmaj or (lmin and tonumber(lmin) < tonumber(tmin))) then
          local what = lmin and ("libcudart " .. lv) or ("libcudart %s.x (%s)"):format(lmaj, l.name or ("libcudart.so." .. lv))
          out[#out + 1] = {
            severity = lmaj == tmaj and "warning" or nil,
            message = ("LD_LIBRARY_PATH puts %s first, but the installed torch %s was built with CUDA %s: %s")
              :format(what, t.version, cv, lmaj ~= tmaj
                and "a process that imports torch loads the other CUDA's runtime (\"undefined symbol\" or \"CUDA driver version is insufficient\" at import)"
                or "an older runtime than torch was built against may lack symbols it uses"),
            seen = "LD_LIBRARY_PATH → " .. (l.real or l.path) .. "; " .. t.site .. "/torch/version.py cuda = '" .. cv .. "'",
            fix = ("remove %s from LD_LIBRARY_PATH when running torch, or install a torch built for CUDA %s")
              :format((l.path or ""):match("^(.*)/[^/]*$") or l.path, lmin and (lmaj .. "." .. lmin) or (lmaj .. ".x")) }
          break
        end
      end
    end
  end
  return out
end)

-- Read as the CMake of the release to be built when doctor runs in its
-- checkout (names and forms per release, as 'ptbuild arch --torch'
-- reads them: lib/archlist, lib/targets torch_accepts), else the newest's.
check("arch-list-invalid", "error", "S17", function(c)
  local l = c.o.env and c.o.env.TORCH_CUDA_ARCH_LIST
  if not l then return end
  local items, errs = archlist.parse(l, c.torch, c.rel)
  local nv = c.tk and c.tk.gpu_list and c.tk.gpu_list.code and c.tk.gpu_list
  if #errs == 0 and c.rel and not c.rel.unknown then
    errs = archlist.check(items, c.rel)
  elseif #errs == 0 and nv then
    -- a release ptbuild's tables lack: its nvcc's answer alone judges
    errs = archlist.check_nvcc(items, { nvcc = tostring(nv.nvcc), version = archlist.cuda_minor(c.tk.version) or "?",
                                        arch = nv.arch, code = nv.code })
  end
  if #errs == 0 and c.torch then
    local problems = {}
    targets.torch_accepts(c.torch, items, problems)
    for _, p in ipairs(problems) do errs[#errs + 1] = { message = p.message, hint = p.fix } end
  end
  if #errs > 0 then
    return { message = "TORCH_CUDA_ARCH_LIST='" .. l .. "' will fail the build: " .. errs[1].message,
      seen = "environment TORCH_CUDA_ARCH_LIST=" .. l .. (c.rel and (", toolkit CUDA " .. c.rel.version) or "")
        .. (nv and (", GPU list from nvcc " .. tostring(nv.nvcc)) or "")
        .. (c.torch and (", PyTorch " .. c.torch.version .. " in " .. c.src.path) or ""),
      fix = (errs[1].hint or "use an explicit list such as '8.0;9.0+PTX' (ptbuild plan computes one)")
        -- a copied list's refusal: name the check that asks this nvcc
        -- (doctor itself runs nothing)
        .. (errs[1].assumed and c.tk and c.tk.root
          and ("; 'ptbuild validate --cuda-home %s --arch-list \"%s\"' asks that toolkit's nvcc and compiles the list")
            :format(c.tk.root, l) or "") }
  end
end)

check("arch-list-missing-gpu", "error", "S18", function(c)
  local l = c.o.env and c.o.env.TORCH_CUDA_ARCH_LIST
  if not l then return end
  local items, errs = archlist.parse(l, c.torch)
  if #errs > 0 then return end
  local out = {}
  for _, g in ipairs(c.gpus) do
    if not M.covers(items, g.compute_capability) then
      out[#out + 1] = {
        message = ("TORCH_CUDA_ARCH_LIST='%s' has no code for %s (compute capability %s): the build will run into \"no kernel image is available for execution on the device\"")
          :format(l, g.name or "GPU " .. g.index, g.compute_capability),
        seen = "environment TORCH_CUDA_ARCH_LIST=" .. l,
        fix = ("add %s to TORCH_CUDA_ARCH_LIST and configure afresh (rm build/CMakeCache.txt)"):format(g.compute_capability) }
    end
  end
  return out
end)

-- A GPU whose compute capability ptbuild does not know (not in
-- data/gpus.lua, and no driver API answered): the checks of GPUs against
-- the toolkit and the arch list pass it over, so say so, as plan's
-- gpu-unknown does, with how to learn it.
check("gpu-unknown", "warning", nil, function(c)
  local out = {}
  for _, g in ipairs(c.f.gpus or {}) do
    if not g.compute_capability or g.compute_capability == ptb.null then
      local name = g.name and g.name ~= ptb.null and g.name or "GPU"
      local idx = g.index and g.index ~= ptb.null and math.tointeger(g.index)
      out[#out + 1] = {
        message = ("ptbuild does not know the compute capability of the '%s'%s: doctor cannot check that %s builds it or that TORCH_CUDA_ARCH_LIST has code for it")
          :format(name, idx and (" (GPU " .. idx .. ")") or "", c.rel and ("CUDA " .. c.rel.version) or "a toolkit"),
        seen = ("GPU %s '%s'%s, compute capability unknown"):format(idx or "?", name,
          type(g.source) == "string" and (" (from " .. g.source .. ")") or ""),
        fix = ("read it with 'nvidia-smi --query-gpu=name,compute_cap --format=csv', then check it with 'ptbuild arch X.Y%s' and put it in TORCH_CUDA_ARCH_LIST")
          :format(c.rel and (" --cuda " .. c.rel.version) or "") }
    end
  end
  return out
end)

-- The GPUs the toolkit in use does not build, by the rule plan applies
-- (lib/checks.lua: Thor is sm_101 to CUDA 12.9 and sm_110 from 13.0).
check("toolkit-drops-gpu", "error", "S16", function(c)
  if not c.rel then return end
  local out = {}
  for _, x in ipairs(checks_lib.gpus_not_built(c.f, c.rel)) do
    local g, cc, last = x.gpu, x.gpu.compute_capability, x.edge
    if x.code == "toolkit-drops-gpu" then
      out[#out + 1] = {
        message = ("CUDA %s cannot build for %s (compute capability %s): \"nvcc fatal : Unsupported gpu architecture 'compute_%s'\"")
          :format(c.rel.version, g.name or "the GPU", cc, archlist.digits(toolkit.gpu_arch(cc, c.rel))),
        seen = "toolkit " .. c.tk.root .. " (" .. c.tk.version .. "), GPU " .. (g.name or "") .. " " .. cc,
        -- on a Jetson a CUDA its JetPack runs, as plan names it
        fix = checks_lib.jetson_drops_fix(c.f, c.rel, cc, c.torch or pytorch.releases[#pytorch.releases], "ptbuild plan --cuda")
          or last and ("use CUDA %s, the last release that builds sm_%s"):format(last, archlist.digits(toolkit.gpu_arch(cc, c.rel)))
          or ("no CUDA ptbuild knows builds sm_%s: build on a machine without this GPU"):format(archlist.digits(toolkit.gpu_arch(cc, c.rel))) }
    end
  end
  return out
end)

check("gpu-newer-than-toolkit", "error", "S15", function(c)
  if not c.rel then return end
  local out = {}
  -- where the driver stops short of a CUDA with wheels that builds the
  -- GPUs, what a newer one opens, for the newest PyTorch (as plan says)
  local up = wheels.upgrade(c.f, c.torch or pytorch.releases[#pytorch.releases])
  for _, x in ipairs(checks_lib.gpus_not_built(c.f, c.rel)) do
    local g, cc, first = x.gpu, x.gpu.compute_capability, x.edge
    if x.code == "gpu-newer-than-toolkit" then
      out[#out + 1] = {
        message = ("%s (compute capability %s) is newer than CUDA %s: nvcc cannot build for it"):format(g.name or "the GPU", cc, c.rel.version),
        seen = "toolkit " .. c.tk.root .. " (" .. c.tk.version .. "), GPU " .. (g.name or "") .. " " .. cc,
        fix = first and ("install CUDA %s or newer%s"):format(first, up and (" (" .. up.text .. ")") or "")
          or "no known CUDA builds for it yet" }
    end
  end
  return out
end)

-- A Jetson whose module the toolkit in use is too old for, by the rule
-- plan applies (lib/checks.lua jetson_cuda_too_old: Jetson Thor needs
-- CUDA 13.0 [thor-cuda13]).
check("jetson-thor-needs-cuda-13", "error", "S15", function(c)
  if not c.rel then return end
  local x = checks_lib.jetson_cuda_too_old(c.f, c.rel)
  if not x then return end
  return {
    message = x.text,
    seen = "toolkit " .. c.tk.root .. " (" .. tostring(c.tk.version) .. "), " .. x.name,
    fix = ("install CUDA %s or newer (ptbuild plan --cuda %s) and build with it"):format(x.need, x.need) }
end)

-- A Jetson whose JetPack does not run the toolkit in use, by the rule
-- plan applies (lib/checks.lua jetpack_too_old [tegra-upgrade]: Jetson
-- Thor on JetPack 7.0 or 7.1 runs CUDA 13.0 alone).
check("jetpack-too-old-for-cuda", "error", "S15", function(c)
  if not c.rel then return end
  local x = checks_lib.jetpack_too_old(c.f, c.rel)
  if not x then return end
  return {
    message = x.text,
    seen = "toolkit " .. c.tk.root .. " (" .. tostring(c.tk.version) .. "), JetPack " .. x.jetpack,
    fix = ("build with CUDA %s, the one JetPack %s runs%s"):format(x.own, x.jetpack,
      x.flash and (", or flash %s, which runs CUDA %s"):format(x.flash, x.flash_runs) or "") }
end)

-- An Orin-class Jetson whose toolkit in use is an SBSA CUDA it does not
-- run, with the way out plan names (lib/checks.lua orin_sbsa_route: from
-- CUDA 13.2 with JetPack 7.2, L4T 39), judged against the newest PyTorch
-- ptbuild knows, as plan's default is (doctor is not told which release
-- will be built).
local function sbsa_route(c, code)
  if not c.rel then return end
  local x = checks_lib.orin_sbsa_route(c.f, c.torch or pytorch.releases[#pytorch.releases], c.rel, "ptbuild plan --cuda")
  if not x or x.code ~= code then return end
  return {
    message = x.text,
    seen = ("toolkit %s (%s), L4T %s"):format(c.tk.root, tostring(c.tk.version), tostring((c.f.jetson or {}).l4t or "?")),
    fix = x.fix }
end
check("jetson-orin-needs-cuda-13.2", "error", "S10", function(c)
  return sbsa_route(c, "jetson-orin-needs-cuda-13.2")
end)

-- A module no JetPack 7 has a release for (Xavier and older) whose
-- toolkit in use is an SBSA CUDA: its JetPack runs no CUDA 13 at all,
-- and the fix names the CUDAs it does run (the same rule, its own code).
check("jetson-module-too-old-for-cuda", "error", "S10", function(c)
  return sbsa_route(c, "jetson-module-too-old-for-cuda")
end)

check("gcc-too-new", "error", "S14", function(c)
  if not c.tk then return end
  -- the limits: the installed toolkit's own host_config.h where read, else
  -- data/cuda.lua's; the full-version edges from data/cuda.lua
  local rel = c.rel or {}
  -- a toolkit no file dates is named by its directory; compiler_ok
  -- claims no version-edge conflict for it
  local r = checks_lib.limits({ version = rel.version or c.tk.version or ("in " .. c.tk.root),
                                gcc_max = rel.gcc_max, clang_max = rel.clang_max }, c.tk)
  if not (r.gcc_max or r.clang_max) then return end
  local full = c.tk.version or r.version
  local whose = c.tk.version and ("CUDA " .. full .. "'s nvcc") or ("the nvcc " .. r.version)
  local arch = c.f.host and c.f.host.arch
  -- what CUDAHOSTCXX, CXX or CC names (lib/checks.lua named_compiler, as
  -- plan reads it): here the environment doctor runs in, for a node
  -- known by its facts the one its facts recorded; else the gcc plan
  -- takes by default
  local env
  if c.facts_only then env = c.f.env else env = c.o.env end
  local chosen, var = checks_lib.named_compiler(c.f, env)
  if not var then chosen = checks_lib.default_gcc(c.f) end
  local k = chosen and checks_lib.compiler_kind(chosen)
  if not k or type(chosen.version) ~= "string" then return end
  -- maybe: only part of its version is known, and some of the versions
  -- it stands for meet a full-version conflict (a warning)
  local ok, why, maybe = checks_lib.compiler_ok(r, full, k, chosen.version, arch)
  if ok and not maybe then return end
  -- an installed gcc nvcc takes in every version it may be, and that
  -- PyTorch takes too (the newest release's 'GCC-9.3 or newer', as plan
  -- holds its choice to the release it plans)
  local gcc_min = (c.torch or pytorch.releases[#pytorch.releases]).gcc_min
  local older
  for _, cc in ipairs(c.f.compilers or {}) do
    local cok, _, cmaybe = checks_lib.compiler_ok(r, full, "gcc", cc.version, arch)
    if checks_lib.is_gcc(cc) and cok and not cmaybe and archlist.vcmp(cc.version, gcc_min) >= 0
       and (not older or archlist.vcmp(cc.version, older.version) > 0) then older = cc end
  end
  -- host_config.h's #error is the symptom of a compiler over nvcc's
  -- limit only; a full-version conflict (gcc 13.2.0 on aarch64 with 12.4)
  -- passes it and fails later, as its own why says
  local limit = k == "clang" and r.clang_max or r.gcc_max
  local cmajor = tonumber(chosen.version:match("^(%d+)"))
  local symptom = limit and cmajor and cmajor > limit
    and (" (\"#error -- unsupported %s version!\" at the first .cu)"):format(k == "clang" and "clang" or "GNU") or ""
  local max = checks_lib.gcc_to_install(r, full, arch, tonumber(gcc_min:match("^(%d+)")))
  local install = max and ("install gcc %d (e.g. apt-get install g++-%d) and set CUDAHOSTCXX=/usr/bin/g++-%d"):format(max, max, max)
    or "install a CUDA toolkit whose nvcc takes this compiler"
  return {
    severity = maybe and "warning" or nil,
    message = maybe and ("%s %s may not work with %s: only its version %s is known, and %s")
        :format(k, chosen.version, whose, chosen.version, maybe.why)
      or ("%s %s does not work with %s: %s%s"):format(k, chosen.version, whose, why, symptom),
    seen = (chosen.path or chosen.name) .. (c.tk.gcc_max and (", " .. c.tk.root .. "/include/crt/host_config.h") or "")
      .. (var and (" (named by " .. var .. ")") or c.facts_only and " (the default compiler: the node's facts name no CUDAHOSTCXX, CXX or CC)" or ""),
    fix = older and ("set CUDAHOSTCXX=%s (gcc %s is installed)"):format(checks_lib.cxx_of(older.path), older.version)
      or maybe and ("run '%s -dumpfullversion': if it prints %s, %s"):format(chosen.path or chosen.name, maybe.versions, install)
      or install }
end)

-- A toolkit in use of a release whose GPU list or compiler limits ptbuild
-- copies from the release before it (lib/checks.lua assumed_data, the
-- rule plan raises cuda-data-assumed by): the checks above judged it by
-- that copy, which no source backs.
check("cuda-data-assumed", "warning", nil, function(c)
  local what = c.rel and checks_lib.assumed_data(c.rel)
  if not what then return end
  return {
    message = ("the %s of CUDA %s are assumed equal to those of CUDA %s (no source ptbuild has lists them): what doctor says of this toolkit's GPUs and host compilers rests on that copy")
      :format(what, c.rel.version, archlist.release_before(c.rel) or "the release before it"),
    seen = ("toolkit %s (%s)"):format(c.tk.root, tostring(c.tk.version or c.rel.version)),
    fix = c.rel.assumed and ("check with '%s/bin/nvcc --list-gpu-arch' and the #if guards of %s/include/crt/host_config.h")
      :format(c.tk.root, c.tk.root) or ("check the #if guards of %s/include/crt/host_config.h"):format(c.tk.root) }
end)

-- A toolkit in use of a release newer than ptbuild's tables, judged by
-- its own nvcc's GPU list (lib/toolkit unknown_release): what ptbuild
-- does not know of it and the floor it can state, in plan's words
-- (lib/checks unknown_release_words).
check("cuda-release-unknown", "warning", nil, function(c)
  if not (c.rel and c.rel.unknown) then return end
  local message, fix = checks_lib.unknown_release_words(c.f, c.rel, c.tk, c.torch or pytorch.releases[#pytorch.releases])
  return { message = message, fix = fix,
    seen = ("toolkit %s (%s), GPU list from %s"):format(c.tk.root, tostring(c.tk.version), c.rel.gpu_list_from) }
end)

-- The Python a build here runs in, against the release of the checkout
-- doctor runs in, else the newest PyTorch ptbuild knows: its setup.py
-- stops on a Python older than its minimum [pt-setup] [pt-python].  An
-- error for the checkout's release; a warning for the newest, since an
-- older release may be the one meant (it names the newest release that
-- still builds with this Python).
check("python-too-old", "warning", nil, function(c)
  local torch = c.torch or pytorch.releases[#pytorch.releases]
  local old = checks_lib.python_too_old(c.f, torch)
  if not old then return end
  return {
    severity = c.torch and "error" or nil,
    message = ("python3 %s is older than PyTorch %s (%s) builds with: its setup.py stops with \"You are using Python %s. Python >=%s is required.\"%s")
      :format(old.have, torch.version, c.torch and ("the checkout in " .. c.src.path) or "the newest release ptbuild knows",
        old.have, old.need,
        old.newest and ("; PyTorch %s is the newest release that still takes Python %s"):format(old.newest.version, old.have) or ""),
    seen = "python3 " .. old.path,
    fix = ("build from a virtual environment of Python %s-%s (pythonX.Y -m venv .venv && . .venv/bin/activate)")
      :format(torch.python.min, torch.python.max) }
end)

-- A Python newer than every one the release builds with (lib/checks
-- python_newer [pt-python] [pt156595]): its C++ does not compile.  An
-- error in a checkout of that release, as plan and generate hold it;
-- outside one, judged against the newest release, a warning.
check("python-too-new", "warning", nil, function(c)
  local torch = c.torch or pytorch.releases[#pytorch.releases]
  local new = checks_lib.python_too_new(c.f, torch)
  if not new then return end
  return {
    severity = c.torch and checks_lib.PYTHON_TOO_NEW or nil,
    message = ("python3 %s is %s%s%s"):format(new.have, new.why,
      c.torch and (" (judged against the checkout in %s)"):format(c.src.path) or " (judged against the newest release ptbuild knows)",
      new.first and ("; PyTorch %s is the first release that builds with Python %s"):format(new.first.version, new.have) or ""),
    seen = "python3 " .. new.path,
    fix = ("build from a virtual environment of Python %s-%s (python%s -m venv .venv && . .venv/bin/activate)%s")
      :format(torch.python.min, new.max, new.max,
        new.first and c.torch and (", or check out PyTorch %s (git checkout %s)"):format(new.first.version, new.first.tag) or "") }
end)

-- The working directory looks like a PyTorch checkout (version.txt,
-- torch/, setup.py) but its version.txt is no version: found, not named
-- with --source, so doctor goes on without a checkout and says why.
check("source-version-unreadable", "warning", nil, function(c)
  local b = c.src_bad
  if not b then return end
  return {
    message = ("the working directory %s looks like a PyTorch checkout, but %s: doctor judged no checkout"):format(b.path, b.version_error),
    seen = b.path .. "/version.txt",
    fix = b.version_hint ~= "" and b.version_hint or nil }
end)

-- The checkout's git submodules, as PyTorch's setup.py checks them
-- (check_submodules [pt-submodules]): every folder .gitmodules lists
-- (or, without a .gitmodules, as in a source archive, every folder of
-- the release's fixed list [pt-submodules-default]) must hold one of
-- CMakeLists.txt, Makefile, setup.py, LICENSE, LICENSE.md, LICENSE.txt,
-- else it stops with "Could not find any of ... in ..."; when every
-- folder is missing or empty it first runs 'git submodule update --init
-- --recursive' itself: in a git checkout that may mend the tree (git and
-- the network), a warning; without .git it stops with "Submodule
-- initialization failed", an error.  Last, fbgemm's own asmjit submodule
-- must hold CMakeLists.txt.  USE_SYSTEM_LIBS (true, read as below) skips
-- the check.  The tree is the machine's: a node known by its facts
-- lists this check as needing it.
local submodule_files = "CMakeLists.txt, Makefile, setup.py, LICENSE, LICENSE.md, LICENSE.txt"

-- What setup.py names itself, by release [pt-submodules-default]: the
-- folders get_submodule_folders returns when the checkout has no
-- .gitmodules, and where fbgemm's nested asmjit lies.  Each row holds
-- from its release to the next row's; one older than all is the first
-- row's, an unknown newer one the last's.
--   2.4: v2.4.0's list still names foxi and QNNPACK (issue #131864: the
--        v2.4.0 source archive stops at third_party/QNNPACK); fbgemm's
--        third_party/asmjit.
--   2.5: foxi (PR #132976) and QNNPACK (PR #133177) left the list in
--        August 2024, before 2.5 branched; read in 2.6.0's setup.py
--        (Debian's pytorch 2.6.0+dfsg orig archive, pytorch-v2.6.0),
--        which still checks fbgemm/third_party/asmjit.
--   2.8: fbgemm/external/asmjit, as the pathlib setup.py of the 2.8
--        cycle (Python 3.9 minimum, str2bool) and of 2.9 on reads it;
--        the list unchanged.
--   2.7: its setup.py was not read, nor when fbgemm moved asmjit: its
--        list is 2.6's and 2.8's alike, and asmjit with a CMakeLists.txt
--        in either place passes (one missing from both is named by
--        2.6's place), so no sound 2.7 tree is faulted on a guess.
local setup_folders = {
  { since = "2.4", list = { "gloo", "cpuinfo", "onnx", "foxi", "QNNPACK", "fbgemm", "cutlass" },
    asmjit = "third_party/fbgemm/third_party/asmjit" },
  { since = "2.5", list = { "gloo", "cpuinfo", "onnx", "fbgemm", "cutlass" },
    asmjit = "third_party/fbgemm/third_party/asmjit" },
  { since = "2.7", list = { "gloo", "cpuinfo", "onnx", "fbgemm", "cutlass" },
    asmjit = "third_party/fbgemm/third_party/asmjit", or_asmjit = "third_party/fbgemm/external/asmjit" },
  { since = "2.8", list = { "gloo", "cpuinfo", "onnx", "fbgemm", "cutlass" },
    asmjit = "third_party/fbgemm/external/asmjit" },
}
function M.setup_folders(release)
  local row = setup_folders[1]
  for _, r in ipairs(setup_folders) do
    if release and archlist.vcmp(release, r.since) >= 0 then row = r end
  end
  return row
end

-- USE_SYSTEM_LIBS as the checkout's setup.py reads it [pt-submodules]:
-- str2bool since PR #156040 (June 2025, after 2.7 branched; the 2.8
-- cycle's setup.py has it): stripped, case-insensitive, true for 1,
-- true, t, yes, y, on, enable, enabled, found; false for 0, false, f,
-- no, n, off, disable, disabled, notfound, none, null, nil, undefined,
-- n/a; any other text, blanks alone included, raises ValueError; before
-- it bool(os.getenv(...)), true for any non-empty text, 0 included.
-- Every later or unknown release gets str2bool.
local str2bool_true = { ["1"] = true, ["true"] = true, t = true, yes = true, y = true, on = true,
  enable = true, enabled = true, found = true }
local str2bool_false = { ["0"] = true, ["false"] = true, f = true, no = true, n = true, off = true,
  disable = true, disabled = true, notfound = true, none = true, null = true, ["nil"] = true,
  undefined = true, ["n/a"] = true }
-- What Python's str.strip() takes off both ends (str.isspace): ASCII
-- \t \n \v \f \r, \x1c-\x1f and space, and, in the UTF-8 an environment
-- holds, U+0085, U+00A0, U+1680, U+2000-U+200A, U+2028, U+2029, U+202F,
-- U+205F, U+3000.  (Its lower() leaves no other text equal to one of
-- str2bool's words: they are ASCII.)
local py_blank = { "\xC2\x85", "\xC2\xA0", "\xE1\x9A\x80", "\xE2\x80\xA8", "\xE2\x80\xA9",
  "\xE2\x80\xAF", "\xE2\x81\x9F", "\xE3\x80\x80" }
for b = 0x80, 0x8A do py_blank[#py_blank + 1] = "\xE2\x80" .. string.char(b) end
local function py_strip(v)
  local function blank_at(i, back)
    local ch = v:sub(i, i)
    if ch:match("[\t\n\v\f\r\x1c-\x1f ]") then return 1 end
    for _, u in ipairs(py_blank) do
      local at = back and i - #u + 1 or i
      if at >= 1 and v:sub(at, at + #u - 1) == u then return #u end
    end
  end
  local a, e = 1, #v
  while a <= e do
    local n = blank_at(a, false)
    if not n then break end
    a = a + n
  end
  while e >= a do
    local n = blank_at(e, true)
    if not n or e - n + 1 < a then break end
    e = e - n
  end
  return v:sub(a, e)
end
M.py_strip = py_strip

-- true (skip the check), false (check), or nil and the text str2bool
-- raises on (setup.py stops)
local function system_libs(c, v)
  if type(v) ~= "string" or v == "" then return false end
  if c.src and c.src.release and archlist.vcmp(c.src.release, "2.8") < 0 then return true end
  local w = py_strip(v):lower()
  if str2bool_true[w] then return true end
  if str2bool_false[w] then return false end
  return nil, w
end

-- A USE_SYSTEM_LIBS str2bool cannot read: setup.py's check_submodules
-- raises before it looks at a folder, so the build stops there.
check("source-use-system-libs-invalid", "error", nil, function(c)
  local s = c.o.source
  if type(s) ~= "table" then return end
  local ok, w = system_libs(c, s.use_system_libs)
  if ok ~= nil then return end
  return {
    message = ("USE_SYSTEM_LIBS='%s' is neither true nor false to PyTorch %s's setup.py: it stops with \"ValueError: Invalid string value for boolean conversion: %s\"")
      :format(s.use_system_libs, c.src.release or s.version, w),
    seen = "environment USE_SYSTEM_LIBS=" .. s.use_system_libs,
    fix = "set USE_SYSTEM_LIBS=1 to build against the system's libraries, or unset it (0, off) to build the submodules" }
end)

-- A .gitmodules that is there but no file setup.py can read (source
-- observation s): it opens it all the same (a FIFO blocks it, a folder
-- makes it raise).  The finding, or nil.
local function gitmodules_unread(s)
  local u = s.gitmodules_unread
  if type(u) ~= "string" then return nil end
  return {
    message = ("%s/.gitmodules %s: PyTorch's setup.py opens it to list the submodules and %s")
      :format(s.path, u == "unreadable" and "cannot be read" or ("is " .. u .. ", not a readable file"),
        u:find("FIFO", 1, true) and "waits on it for ever" or "stops with an error"),
    seen = s.path .. "/.gitmodules: " .. u,
    fix = s.git and ("cd %s && git checkout -- .gitmodules"):format(s.path)
      or ("remove %s/.gitmodules, or unpack the source archive afresh"):format(s.path) }
end

-- A .gitmodules "path" line without '=' (s.gitmodules_noeq: its line,
-- text and index, the number of paths before it) [pt-submodules-noeq]:
-- setup.py to 2.7 takes line.split("=", 1)[1] and raises IndexError
-- there, before it checks a folder; 2.8 on takes line.partition("=")[-1],
-- "", so the line names the checkout's top, a folder that is there and
-- holds setup.py.  The finding for a release to 2.7, or nil.
local function gitmodules_noeq(c, s)
  local q = s.gitmodules_noeq
  if type(q) ~= "table" or type(q.line) ~= "number" or type(q.text) ~= "string" then return nil end
  if not c.src.release or archlist.vcmp(c.src.release, "2.8") >= 0 then return nil end
  local value = q.text:match("^path[ \t]*(.-)$")
  local write = value ~= "" and (" as 'path = %s'"):format(value) or ""
  return {
    message = ("%s/.gitmodules line %d, '%s', has no '=': PyTorch %s's setup.py takes each 'path' line's text after its '=' (line.split(\"=\", 1)[1]) and stops there with \"IndexError: list index out of range\", before it checks a submodule")
      :format(s.path, q.line, q.text, c.src.release),
    seen = ("%s/.gitmodules:%d: %s"):format(s.path, q.line, q.text),
    fix = s.git and ("write line %d%s, or restore the file: cd %s && git checkout -- .gitmodules"):format(q.line, write, s.path)
      or ("write line %d of %s/.gitmodules%s"):format(q.line, s.path, write) }
end

-- The exception os.listdir raises for an errno, as Python names it.
local py_oserror = { [1] = "PermissionError", [13] = "PermissionError", [2] = "FileNotFoundError",
  [20] = "NotADirectoryError" }

-- A folder setup.py lists first (every one before it missing or empty)
-- that cannot be listed (m: { path, state = "unreadable" }, u: its
-- s.unreadable row): os.listdir (os.scandir to pathlib's iterdir from
-- 2.8) raises there [pt-submodules].  The finding.
local function unreadable_raise(s, m, u)
  local n = type(u.errno) == "number" and math.tointeger(u.errno) or 0
  local perm = n == 1 or n == 13
  local where = s.path .. "/" .. m.path
  return {
    message = ("%s cannot be read (%s): PyTorch's setup.py lists it to see whether any submodule is checked out and stops with \"%s: [Errno %d] %s: '%s'\"")
      :format(where, u.error, py_oserror[n] or "OSError", n, u.error, where),
    seen = ("%s/.gitmodules%s; %s unreadable (%s)"):format(s.path, s.gitmodules == false and " absent" or "", m.path, u.error),
    fix = perm and ("let the user who builds read it (chmod -R u+rwX %s), or build as its owner"):format(where)
      or ("the file system fails to list %s: check the disk (dmesg), then check the submodule out afresh"):format(where) }
end

-- The submodules setup.py checks ({ path, state }) and how they are
-- named: its own list for the release where there is no .gitmodules
-- (row: M.setup_folders), else those .gitmodules lists (with, from 2.8,
-- the checkout's top where a path line has no '=').
local function checked_submodules(c, s, row, folders)
  if s.gitmodules ~= false then
    local subs = {}
    for _, m in ipairs(type(s.submodules) == "table" and s.submodules or {}) do subs[#subs + 1] = m end
    local q = s.gitmodules_noeq
    if type(q) == "table" and type(q.index) == "number" then
      table.insert(subs, math.min(q.index, #subs) + 1, { path = ".", state = "ok" })
    end
    return subs, ("of the %d git submodules the checkout's .gitmodules lists"):format(#subs)
  end
  local subs = {}
  for _, name in ipairs(row.list) do
    local p = "third_party/" .. name
    subs[#subs + 1] = { path = p, state = type(folders[p]) == "string" and folders[p] or "missing" }
  end
  return subs, ("of the %d folders PyTorch %s's setup.py checks when the checkout has no .gitmodules"):format(#subs,
    c.src.release or s.version)
end

check("source-submodules-missing", "error", nil, function(c)
  local s = c.o.source
  if type(s) ~= "table" then return end
  if system_libs(c, s.use_system_libs) ~= false then return end
  local row = M.setup_folders(c.src.release)
  local folders = type(s.folders) == "table" and s.folders or {}
  local init = "'git submodule update --init --recursive'"
  local unread = gitmodules_unread(s) or gitmodules_noeq(c, s)
  if unread then return unread end
  local subs, listed = checked_submodules(c, s, row, folders)
  local unlisted = type(s.unreadable) == "table" and s.unreadable or {}
  -- check_for_files stats a folder's files: one it cannot list passes
  -- when they are there all the same
  local function passes(path, state)
    local u = unlisted[path]
    return state == "ok" or (state == "unreadable" and type(u) == "table" and u.files == true)
  end
  local bad, none = {}, true
  for _, m in ipairs(subs) do
    if none and m.state == "unreadable" and type(unlisted[m.path]) == "table" then
      -- all() lists each folder until one is neither missing nor empty
      return unreadable_raise(s, m, unlisted[m.path])
    end
    if not passes(m.path, m.state) then bad[#bad + 1] = m end
    if m.state ~= "missing" and m.state ~= "empty" then none = false end
  end
  local top = #bad
  none = none and #subs > 0
  -- then, whatever .gitmodules lists, fbgemm's nested submodule, which
  -- an init without --recursive leaves empty; CMakeLists.txt only
  local asmjit = folders[row.asmjit]
  local nested = type(asmjit) == "string" and not passes(row.asmjit, asmjit)
    and not (row.or_asmjit and passes(row.or_asmjit, folders[row.or_asmjit]))
  if nested then bad[#bad + 1] = { path = row.asmjit, state = asmjit, files = "CMakeLists.txt" } end
  if #bad == 0 then return end
  local named = {}
  for i = 1, math.min(#bad, 6) do
    local b, u = bad[i], unlisted[bad[i].path]
    named[#named + 1] = ("%s %s"):format(b.path, b.state == "no-files" and "(holds none of its files)"
      or b.state == "unreadable" and type(u) == "table" and ("unreadable (%s)"):format(u.error) or b.state)
  end
  if #bad > 6 then named[#named + 1] = ("and %d more"):format(#bad - 6) end
  local tag = c.torch and s.version:match("^%d+%.%d+%.%d+$") and ("v" .. s.version)
  local what = top > 0
    and ("%d %s are not checked out%s"):format(top, listed,
      nested and (", nor fbgemm's nested submodule " .. row.asmjit) or "")
    or ("fbgemm's nested submodule %s is not checked out (an init without --recursive leaves it empty)"):format(row.asmjit)
  local says
  -- a git checkout whose .gitmodules is gone: git has nothing to init
  local lost = s.git and s.gitmodules == false
  if none and not lost then
    -- every one missing or empty: setup.py inits them itself first, which
    -- mends the tree where git and the network are at hand
    what = ("none %s is checked out"):format(listed)
    says = s.git
      and ("PyTorch's setup.py will run %s itself before it builds, which needs git and the network; should that fail it stops with \"Submodule initialization failed\" (\"Please run: git submodule update --init --recursive\")"):format(init)
      or ("PyTorch's setup.py runs %s itself, which fails outside a git checkout: it stops with \"Submodule initialization failed\" (\"Please run: git submodule update --init --recursive\")"):format(init)
  else
    says = ("PyTorch's setup.py stops with \"Could not find any of %s in %s/%s\" (\"Did you run %s?\")")
      :format(bad[1].files or submodule_files, s.path, bad[1].path, init)
    if none then
      what = ("none %s is checked out"):format(listed)
      says = ("PyTorch's setup.py runs %s itself, which finds no .gitmodules to init from, then "):format(init)
        .. says:gsub("^PyTorch's setup.py ", "")
    end
  end
  return {
    severity = none and s.git and not lost and "warning" or nil,
    message = what .. ": " .. says,
    seen = ("%s/.gitmodules%s; %s"):format(s.path, s.gitmodules == false and " absent" or "", table.concat(named, ", ")),
    fix = lost and ("cd %s && git checkout -- .gitmodules && git submodule update --init --recursive"):format(s.path)
      or s.git and ("cd %s && git submodule update --init --recursive"):format(s.path)
      or ("%s has no .git, so its submodules cannot be fetched in place: clone it with its submodules (git clone --recursive%s https://github.com/pytorch/pytorch)")
        :format(s.path, tag and (" --branch " .. tag) or "") }
end)

-- The toolkit in use against the checkout's release (lib/toolkit
-- torch_builds, plan's rule): refused below the minimum its CMake names
-- where a source shows it ("PyTorch requires CUDA X.Y or above."
-- [pt-cudamin]) or for a CUDA major newer than all its wheels'; untested
-- where PyTorch's CI built no wheel of it.  Only in a checkout (the
-- release is its version.txt's); a node known by its facts lists these.
-- A release newer than all ptbuild knows is held to the newest known
-- release's CMake minimum, since that minimum only rises from release to
-- release [pt-cudamin]; nothing else of that release is said of it (a
-- newer release may ship wheels of a newer CUDA).  Returns what
-- torch_builds does, or nil, why, "floor" and the release whose minimum
-- refuses the toolkit.
local function source_cuda(c)
  local s = c.o.source
  if type(s) ~= "table" or not c.rel then return nil end
  if c.torch then return toolkit.torch_builds(c.torch, c.rel) end
  local newest = pytorch.releases[#pytorch.releases]
  local min = newest.cuda_build_min
  if not (min and c.src and c.src.release and archlist.vcmp(c.src.release, newest.version) > 0) then return nil end
  if archlist.vcmp(c.rel.version, min) >= 0 then return nil end
  return nil, ("its build needs CUDA %s or newer"):format(min), "floor", newest
end

local function source_seen(c)
  return ("toolkit %s (%s); %s/version.txt %s"):format(c.tk.root, tostring(c.tk.version), c.src.path, c.src.version)
end

-- A CUDA PyTorch release torch ships wheels for that this machine runs,
-- as a fix (nil: none, or the toolkit in use is that CUDA).
local function cuda_alt(c, torch)
  local alt = toolkit.suggest(c.f, torch, c.rel)
  return alt and ("install CUDA %s, a CUDA PyTorch %s ships wheels for that this machine runs (ptbuild plan --torch %s --cuda %s, then ptbuild fetch), and point CUDA_HOME and PATH at it")
    :format(alt.version, torch.version, torch.version, alt.version)
end

check("torch-cuda-unsupported", "error", "S02", function(c)
  local builds, why, how, basis = source_cuda(c)
  if how == "floor" then
    local min = basis.cuda_build_min
    return {
      message = ("PyTorch %s (the checkout in %s) does not build with CUDA %s, the toolkit in use: ptbuild has no data for PyTorch %s, and the CMake of PyTorch %s, the newest release it knows, stops with \"PyTorch requires CUDA %s or above.\", a minimum that only rises from release to release")
        :format(c.src.version, c.src.path, c.rel.version, c.src.release, basis.version, min),
      seen = source_seen(c),
      fix = cuda_alt(c, basis) or ("install CUDA %s or newer and point CUDA_HOME and PATH at it"):format(min) }
  end
  if builds or how ~= "known" then return end
  local min = c.torch.cuda_build_min
  local cmake = min and archlist.vcmp(c.rel.version, min) < 0
    and (": its CMake stops with \"PyTorch requires CUDA %s or above.\""):format(min) or (": " .. why)
  return {
    message = ("PyTorch %s (the checkout in %s) does not build with CUDA %s, the toolkit in use%s (its wheels are built with CUDA %s)")
      :format(c.torch.version, c.src.path, c.rel.version, cmake, table.concat(c.torch.cuda, ", ")),
    seen = source_seen(c),
    fix = cuda_alt(c, c.torch) or ("check out a PyTorch release that builds with CUDA %s, or install a CUDA PyTorch %s ships wheels for (%s)")
      :format(c.rel.version, c.torch.version, table.concat(c.torch.cuda, ", ")) }
end)

check("torch-cuda-untested", "warning", nil, function(c)
  local builds, why, how = source_cuda(c)
  if not (builds == "untested" or how == "unknown") then return end
  return {
    message = ("PyTorch %s (the checkout in %s) ships no CUDA %s wheels: PyTorch's CI built and tested it with CUDA %s only, not with the toolkit in use%s")
      :format(c.torch.version, c.src.path, c.rel.version, table.concat(c.torch.cuda, ", "),
        how == "unknown" and ("; " .. why) or ""),
    seen = source_seen(c),
    fix = (cuda_alt(c, c.torch) and (cuda_alt(c, c.torch) .. ", unless you need CUDA " .. c.rel.version))
      or ("keep CUDA %s and run PyTorch's CUDA tests on the result"):format(c.rel.version) }
end)

check("mixed-cuda-installs", "error", "S21", function(c)
  local roots, order = {}, {}
  local function add(what, t)
    if t and t.root and not roots[t.root] then
      roots[t.root] = what
      order[#order + 1] = what .. " → " .. t.root
    end
  end
  add("CUDA_HOME", c.o.cuda_home and not c.o.cuda_home.missing and c.o.cuda_home or nil)
  add("CUDA_PATH", c.o.cuda_path and not c.o.cuda_path.missing and c.o.cuda_path or nil)
  add("nvcc on PATH", c.o.nvcc_on_path and c.o.nvcc_on_path[1])
  local out = {}
  if #order > 1 then
    out[#out + 1] = {
      message = "CUDA_HOME, CUDA_PATH and the nvcc on PATH name different toolkits: CMake and torch.utils.cpp_extension will each pick another (\"Found two conflicting CUDA versions\")",
      seen = table.concat(order, "; "),
      fix = "point CUDA_HOME, CUDA_PATH and PATH at one toolkit (source ptbuild.env from ptbuild generate)" }
  end
  if c.tk and c.tk.root then
    for _, l in ipairs(c.o.libs or {}) do
      if l.via == "LD_LIBRARY_PATH" and l.lib == "libcudart" then
        local real = l.real or l.path
        if real:sub(1, #c.tk.root + 1) ~= c.tk.root .. "/" then
          out[#out + 1] = {
            message = ("LD_LIBRARY_PATH loads libcudart from another CUDA install than the toolkit in use (%s): expect \"undefined symbol\" errors at import"):format(c.tk.root),
            seen = "LD_LIBRARY_PATH → " .. real,
            fix = "remove the other toolkit's lib64 from LD_LIBRARY_PATH" }
          break
        end
      end
    end
  end
  return out
end)

check("conda-cuda-shadow", "warning", "S23", function(c)
  local cd = c.o.conda
  if not (cd and cd.packages and c.tk and c.tk.version) then return end
  for _, p in ipairs(cd.packages) do
    if (p.name == "cudatoolkit" or p.name == "cuda-cudart" or p.name == "cuda-version")
      and ver_mm(p.version) ~= ver_mm(c.tk.version) then
      return {
        message = ("the conda environment carries CUDA %s (%s) but the nvcc a build uses is CUDA %s: \"The detected CUDA version mismatches the version that was used to compile PyTorch\"")
          :format(p.version, p.name, c.tk.version),
        seen = cd.prefix .. "/conda-meta: " .. p.name .. " " .. p.version .. "; toolkit " .. c.tk.root,
        fix = ("install cuda-nvcc %s into the environment, or remove %s from it"):format(ver_mm(p.version), p.name) }
    end
  end
end)

check("openblas-missing", "warning", "S26", function(c)
  if (c.f.host or {}).arch ~= "aarch64" then return end
  if first_lib(c.o, "libopenblas") then return end
  return {
    message = "libopenblas.so.0 is not on the loader path: a BLAS=OpenBLAS build of PyTorch on aarch64 will not find it (\"libopenblas.so.0: cannot open shared object file\")",
    seen = "searched LD_LIBRARY_PATH, /etc/ld.so.conf and the default library directories",
    fix = "apt-get install libopenblas-dev (or dnf install openblas-devel), build OpenBLAS for the core with ptbuild's setup.sh, or use NVPL on Grace" }
end)

check("cudnn-mismatch", "error", "S24", function(c)
  local h = c.tk and c.tk.cudnn_header
  local l = first_lib(c.o, "libcudnn", function(x) return x.version and x.version:match("^%d+%.%d+") end)
  if not (h and l) then return end
  if ver_mm(h.version) == ver_mm(l.version) then return end
  return {
    message = ("the cuDNN header says %s but the loader finds libcudnn %s: \"cuDNN version incompatibility: PyTorch was compiled against ... but found runtime version ...\"")
      :format(h.version, l.version),
    seen = h.path .. " vs " .. (l.real or l.path) .. " (via " .. l.via .. ")",
    fix = "install the cuDNN library that matches the header (or the header that matches the library), and drop the other from LD_LIBRARY_PATH" }
end)

check("foreign-binary", "error", "S07", function(c)
  local host = (c.f.host or {}).arch
  if not host or host == ptb.null or host == "unknown" then return end
  local out = {}
  if c.tk and c.tk.nvcc_machine and c.tk.nvcc_machine ~= host then
    out[#out + 1] = {
      message = ("the toolkit's nvcc is an %s program on an %s host: \"exec format error\""):format(c.tk.nvcc_machine, host),
      seen = c.tk.root .. "/bin/nvcc",
      fix = ("install the CUDA toolkit for %s"):format(host == "aarch64" and "linux-sbsa (or JetPack on Jetson)" or "linux-x86_64") }
  end
  for _, t in ipairs(c.o.torch or {}) do
    if t.machine and t.machine ~= host then
      out[#out + 1] = {
        message = ("the installed torch was built for %s, this host is %s"):format(t.machine, host),
        seen = t.libtorch_cuda,
        fix = "reinstall or rebuild torch for this architecture" }
    end
  end
  return out
end)

-- The toolkit in use built for another platform, by the rule plan applies
-- (lib/checks.lua); its platform from detect's facts or the targets/
-- directories seen.  nil, or the shared rule's code and platforms.
local function platform_problem(c)
  if not c.tk then return nil end
  return checks_lib.toolkit_platform_problem(c.f, c.rel or { version = "0.0" }, c.tk)
end

local function target_dir(c, tp)
  local dirs = { ["linux-sbsa"] = "sbsa-linux", ["linux-aarch64"] = "aarch64-linux", ["linux-x86_64"] = "x86_64-linux" }
  return c.tk.root .. "/targets/" .. (dirs[tp] or tp)
end

check("sbsa-toolkit-on-jetson", "error", "S10", function(c)
  local code, tp = platform_problem(c)
  if code ~= "sbsa-toolkit-on-jetson" then return end
  return {
    message = ("an SBSA (ARM server) CUDA toolkit is installed on a Jetson: its libraries do not run on L4T (%s needs JetPack's CUDA)"):format(
      checks_lib.jetson_module_word(c.f)),
    seen = target_dir(c, tp),
    fix = "install CUDA from JetPack (apt install nvidia-jetpack / cuda-toolkit from the L4T repo) and remove the SBSA toolkit" }
end)

check("jetson-toolkit-on-server", "error", "S09", function(c)
  local code, tp = platform_problem(c)
  if code ~= "jetson-toolkit-on-server" then return end
  return {
    message = "a Jetson (L4T, aarch64-linux) CUDA toolkit is installed on an ARM server: NVIDIA builds linux-sbsa for servers with different options",
    seen = target_dir(c, tp),
    fix = "install the linux-sbsa toolkit (the sbsa repository or runfile, or ptbuild fetch)" }
end)

check("toolkit-wrong-platform", "error", "S07", function(c)
  local code, tp, platform = platform_problem(c)
  if code ~= "toolkit-wrong-platform" then return end
  return {
    message = ("the CUDA toolkit in %s is a %s build; this machine needs %s"):format(c.tk.root, tp, platform),
    seen = target_dir(c, tp),
    fix = ("install the %s toolkit (ptbuild fetch) and point CUDA_HOME and PATH at it"):format(platform) }
end)

check("forward-compat-unsupported", "error", "S05", function(c)
  local l = first_lib(c.o, "libcuda")
  if not (l and l.compat) then return end
  local out = {}
  local seen = (l.real or l.path) .. " (via " .. l.via .. ")"
  local fix = "remove the compat directory from LD_LIBRARY_PATH / ld.so.conf, or upgrade the driver instead"
  local e804 = "\"CUDA failure 804: forward compatibility was attempted on non supported HW\""
  for _, g in ipairs(c.gpus) do
    local p = g.name and gpuname.product(g.name)
    local segment = p and p.segment
    local rtx = g.name and g.name:find("%f[%w]RTX%f[%W]") and not g.name:find("GeForce")
    if segment == "workstation" and not rtx then
      out[#out + 1] = {
        message = ("a CUDA forward-compatibility libcuda is loaded first, but %s (a workstation/consumer GPU) does not support forward compatibility: %s")
          :format(g.name, e804),
        seen = seen, fix = fix }
    elseif segment == "workstation" then
      out[#out + 1] = { severity = "warning",
        message = ("a CUDA forward-compatibility libcuda is loaded first; %s supports forward compatibility only as one of the NGC Server Ready SKUs of RTX cards, otherwise CUDA fails with %s")
          :format(g.name, e804),
        seen = seen, fix = fix .. ", unless this card is a Server Ready SKU" }
    elseif g.name and segment ~= "datacenter" and segment ~= "jetson" then
      out[#out + 1] = { severity = "warning",
        message = ("a CUDA forward-compatibility libcuda is loaded first, and ptbuild cannot tell whether %s supports it (NVIDIA supports forward compatibility on data-center GPUs, select Server Ready RTX cards and Jetson only; %s)")
          :format(g.name, p and "NVIDIA's list does not show its segment" or "the GPU is not in ptbuild's table"),
        seen = seen, fix = fix .. ", if CUDA fails with error 804" }
    end
  end
  return out
end)

-- Was a container given the GPU?  A Jetson's GPU device nodes are its
-- L4T's (data/containers.lua `jetson`, by the L4T major; any L4T's where
-- the L4T is unknown or not listed), and a Jetson GPU counts only by a
-- node or by a libcuda or NVML answer: one read from the device tree is
-- the board's, whatever the container was given.  Elsewhere a discrete
-- GPU's node (data/containers.lua gpu_devices) or a GPU that libcuda or
-- NVML answered for: /proc/driver/nvidia/gpus is the host's kernel view,
-- which the NVIDIA Container Toolkit narrows to the GPUs it passes in (a
-- tmpfs over /proc/driver/nvidia, each given GPU's entry bound back
-- [nvc-procfs]) and which a container started without it shows whole
-- (inferred: procfs is the kernel's, not the container's), GPUs it
-- cannot open among them.  Returns given, and for a Jetson not
-- given the nodes looked for and their L4T row (nil: unknown).
local function jetson_nodes(f)
  local j = type(f.jetson) == "table" and f.jetson or nil
  if not j and (f.host or {}).platform ~= "jetson" then return nil end
  local major = j and type(j.l4t) == "string" and j.l4t:match("^(%d+)%.") or nil
  for _, g in ipairs(containers.jetson) do
    if g.l4t == major then return g.nodes, g end
  end
  local all, seen = {}, {}
  for _, g in ipairs(containers.jetson) do
    for _, n in ipairs(g.nodes) do
      if not seen[n] then seen[n] = true; all[#all + 1] = n end
    end
  end
  return all, nil
end

local function answered(c)
  for _, g in ipairs(c.gpus) do
    if g.source == "libcuda" or g.source == "nvml" then return true end
  end
  return false
end

local function container_gpu(c)
  local ct = c.o.container or {}
  local nodes, gen = jetson_nodes(c.f)
  if not nodes then return ct.gpu_devices == true or answered(c) end
  local have = {}
  for _, d in ipairs(type(ct.devices) == "table" and ct.devices or {}) do
    if type(d) == "string" then have[d] = true end
  end
  for _, n in ipairs(nodes) do
    if have[n] then return true end
  end
  if answered(c) then return true end
  return false, nodes, gen
end

-- "/dev/{a,b} /dev/nvgpu/igpu0/{c,d}": paths grouped by folder, in order
local function braced(paths)
  local dirs, by = {}, {}
  for _, p in ipairs(paths) do
    local d, b = p:match("^(.*)/([^/]+)$")
    if not by[d] then by[d] = {}; dirs[#dirs + 1] = d end
    by[d][#by[d] + 1] = b
  end
  local out = {}
  for _, d in ipairs(dirs) do
    local b = by[d]
    out[#out + 1] = d .. "/" .. (#b == 1 and b[1] or "{" .. table.concat(b, ",") .. "}")
  end
  return table.concat(out, " ")
end

check("docker-build-no-arch-list", "error", "S20", function(c)
  local ct = c.o.container or {}
  if not ct.inside then return end
  local given, nodes = container_gpu(c)
  if given then return end
  if c.o.env and c.o.env.TORCH_CUDA_ARCH_LIST then return end
  -- an overlay root alone: live media and overlayroot hosts boot one too
  local maybe = ct.inferred == true
  return { severity = maybe and "warning" or nil,
    message = (maybe and "probably inside a container (an overlay root file system that names no container engine's storage; a host booted from live media or overlayroot has one too)"
      or "inside a container") .. " with no GPU and no TORCH_CUDA_ARCH_LIST: PyTorch's build falls back to \"Automatic GPU detection failed. Building for common architectures.\", a list that may not match the GPUs you deploy on (and holds 5.0, which CUDA 13 refuses)",
    seen = "container (" .. (ct.marker or "marker") .. "); " ..
      (nodes and "none of this Jetson's GPU device nodes" or "no /dev/nvidia*") .. "; TORCH_CUDA_ARCH_LIST unset",
    fix = "set TORCH_CUDA_ARCH_LIST explicitly (ptbuild generate writes it into the Dockerfile)" }
end)

-- A Jetson container given none of its L4T's GPU nodes: NVIDIA's runtime
-- passes them in from its CSV files (--runtime nvidia; "default-runtime"
-- for docker build) [jc-default-runtime], or a CDI spec made in CSV mode
-- does (--device nvidia.com/gpu=all) [nvct-cdi-csv].
check("jetson-container-no-gpu", "warning", "S20", function(c)
  local ct = c.o.container or {}
  if not ct.inside then return end
  local given, nodes, gen = container_gpu(c)
  if given or not nodes then return end
  local j = type(c.f.jetson) == "table" and c.f.jetson or {}
  local l4t = type(j.l4t) == "string" and j.l4t or nil
  local which
  if gen then
    which = ("L4T %s, JetPack %s"):format(l4t, type(j.jetpack) == "string" and j.jetpack or gen.jetpack)
  else
    which = l4t and ("L4T %s, whose GPU nodes ptbuild does not list, so those of every L4T were looked for"):format(l4t)
      or "its L4T unknown, so the GPU nodes of every L4T were looked for"
  end
  return {
    message = ("inside a container on a Jetson (%s) given none of the GPU's device nodes: CUDA cannot reach the GPU here, so nothing built here can be run or validated in it"):format(which),
    seen = ("container (%s); none of %s"):format(ct.marker or "marker", braced(nodes)),
    fix = ("start the container with --runtime nvidia, which passes these in from %s (for docker build: \"default-runtime\": \"nvidia\" in /etc/docker/daemon.json), or by CDI: sudo nvidia-ctk cdi generate --mode=csv --output=/etc/cdi/nvidia.yaml, then --device nvidia.com/gpu=all; or pass each node with --device")
      :format(gen and "/etc/nvidia-container-runtime/host-files-for-container.d/" .. gen.csv
              or "/etc/nvidia-container-runtime/host-files-for-container.d") }
end)

check("qemu-emulation", "warning", "S08", function(c)
  local h = c.f.host or {}
  if h.arch == "aarch64" and c.o.cpuinfo_kind == "x86" then
    return { severity = "error",
      message = "this aarch64 system runs under QEMU emulation on an x86 CPU: a PyTorch + CUDA build will take days or die with \"qemu: uncaught target signal 11 (Segmentation fault)\"",
      seen = "host.arch aarch64 but /proc/cpuinfo describes an x86 CPU",
      fix = "build on a native arm64 machine (docker buildx with a native arm64 node; ptbuild generate writes docker-bake.hcl for that)" }
  end
  for _, q in ipairs(c.o.binfmt_qemu or {}) do
    if (q == "qemu-aarch64" and h.arch == "x86_64") or (q == "qemu-x86_64" and h.arch == "aarch64") then
      return {
        message = ("%s is registered in binfmt_misc: docker buildx will build the other architecture's image under QEMU, which is unreliable and slow for CUDA builds"):format(q),
        seen = "/proc/sys/fs/binfmt_misc/" .. q,
        fix = "use a native builder for each platform (docker buildx create --append with an arm64 node)" }
    end
  end
end)

check("pip-cuda-majors-mixed", "error", "S40", function(c)
  local majors, names, order = {}, {}, {}
  for _, p in ipairs(c.o.pip_nvidia or {}) do
    if p.cuda_major then
      if not majors[p.cuda_major] then order[#order + 1] = p.cuda_major end
      majors[p.cuda_major] = true
      names[#names + 1] = p.dist_info
    end
  end
  if #order > 1 then
    table.sort(order)
    local o = {}
    for _, m in ipairs(order) do o[#o + 1] = "cu" .. m end
    return {
      message = "pip NVIDIA wheels for several CUDA majors are installed side by side (" .. table.concat(o, ", ") .. "): torch may preload the wrong libcudart",
      seen = table.concat(names, " "),
      fix = "pip uninstall the wheels of the CUDA major you do not use" }
  end
end)

check("cuda-home-unset", "warning", "S39", function(c)
  local e = c.o.env or {}
  if e.CUDA_HOME or e.CUDA_PATH or c.o.usr_local_cuda then return end
  if c.o.nvcc_on_path and c.o.nvcc_on_path[1] then
    return {
      message = "CUDA_HOME and CUDA_PATH are unset and there is no /usr/local/cuda: extension builds guess the toolkit from the nvcc on PATH",
      seen = "nvcc on PATH: " .. c.o.nvcc_on_path[1].nvcc,
      fix = "export CUDA_HOME=" .. c.o.nvcc_on_path[1].root }
  end
end)

check("max-jobs-too-high", "warning", "S34", function(c)
  local h = c.f.host or {}
  -- a cgroup limit (docker --memory) is what the build really gets
  local _, mem, _, limited = host_lib.resources(c.f)
  if not mem then return end
  local seen = limited and ("host.limits.memory_mib %d (%s)"):format(mem, h.limits.memory_source or "cgroup")
    or "host.memory_mib " .. mem
  local per = 4096       -- MiB per CUDA compile job; builder commit 465d98b0 and S34
  local ok = math.max(1, mem // per)
  local mj = c.o.env and tonumber(c.o.env.MAX_JOBS)
  -- unset, the build runs about one job per CPU (setup.py's cpu_count, or
  -- Ninja's own default)
  local cores = h.cpu and h.cpu.cores
  local jobs, what = mj, "MAX_JOBS=" .. tostring(mj)
  if not jobs then jobs, what = cores, "MAX_JOBS unset, so one job per core (" .. tostring(cores) .. ")" end
  if jobs and jobs > ok then
    return {
      message = ("%s with %d MiB of memory: CUDA compile jobs need about 4 GiB each; expect \"Killed signal terminated program cc1plus\"")
        :format(what, mem),
      seen = seen,
      fix = ("export MAX_JOBS=%d"):format(ok) }
  end
end)

-- What drives a Jetson's GPU: not an NVIDIA driver install but a part
-- of its L4T -- the nvgpu kernel module on Orin, whose L4T loads it at
-- boot [tegra-modules], and on the Jetsons whose GPU NVML names "(nvgpu)"
-- [nvct-thor]; on Jetson Thor NVIDIA's open GPU kernel modules (OpenRM),
-- L4T loading no nvgpu there [tegra-modules], its GPU an NVML device like
-- a discrete one [nvct-thor], so /proc/driver/nvidia/version names it.
-- "thor" or "nvgpu" by the module's GPU (Thor: 10.1 on), else by the L4T
-- (L4T 38 is Thor's alone, before it nvgpu's); nil when neither says (L4T
-- 39 runs both).
local function jetson_gpu_driver(f)
  local cc = toolkit.jetson_cc(f)
  if type(cc) == "string" then return archlist.vcmp(cc, "10.1") >= 0 and "thor" or "nvgpu" end
  local maj = type(f.jetson) == "table" and major(f.jetson.l4t) or nil
  if maj == 38 then return "thor" end
  if maj and maj < 38 then return "nvgpu" end
  return nil
end

check("no-driver", "warning", "S13", function(c)
  if c.f.driver or #c.gpus > 0 then return end
  if (c.f.host or {}).platform == "jetson" then
    local l4t = type(c.f.jetson) == "table" and c.f.jetson.l4t
    local by = jetson_gpu_driver(c.f)
    local what = by == "thor" and "NVIDIA's open GPU kernel modules, which L4T loads on Jetson Thor in place of nvgpu"
      or by == "nvgpu" and "the nvgpu kernel module" .. (toolkit.jetson_cc(c.f) == "8.7" and ", which L4T loads at boot on Orin" or "")
      or "the nvgpu kernel module on Orin and the Jetsons before it, NVIDIA's open GPU kernel modules on Jetson Thor"
    local check_it = by == "thor" and "'cat /proc/driver/nvidia/version' (it names the driver once loaded)"
      or by == "nvgpu" and "'lsmod | grep nvgpu' ('sudo modprobe nvgpu' loads it)"
      or "'lsmod | grep nvgpu' on Orin, 'cat /proc/driver/nvidia/version' on Thor"
    return {
      message = ("no GPU driver and no GPU found on this Jetson%s: a Jetson's GPU driver is part of its L4T, not an NVIDIA driver install (%s), and nothing runs on the GPU until it is loaded"):format(
        type(l4t) == "string" and (" (L4T %s)"):format(l4t) or "", what),
      seen = "no /proc/driver/nvidia/version, no GPU" .. (type(l4t) == "string" and (", L4T %s"):format(l4t) or ", no L4T release read"),
      fix = ("check %s and 'cat /etc/nv_tegra_release'; where the driver or the release is missing, reinstall the JetPack's L4T (or flash it) and reboot, then run ptbuild doctor again"):format(check_it) }
  end
  return {
    message = "no NVIDIA driver and no GPU found: nothing can run here, so set TORCH_CUDA_ARCH_LIST for the GPUs you deploy on (validate will compile only)",
    seen = "no /proc/driver/nvidia/version, no GPU",
    fix = "ptbuild plan --arch-list LIST (or --profile of the target machine)" }
end)

check("page-size-64k", "warning", "S35", function(c)
  local h = c.f.host or {}
  if h.page_size ~= 65536 then return end
  return {
    message = "this kernel uses 64 KiB pages: prebuilt dependencies built for 4 KiB pages (jemalloc: \"Unsupported system page size\") fail, and PyTorch's own libraries need the max-page-size linker flag",
    seen = "host.page_size 65536",
    fix = "build with CMAKE_SHARED_LINKER_FLAGS=-Wl,-z,max-page-size=0x10000 (ptbuild plan sets it)" }
end)

check("no-toolkit", "warning", "S21", function(c)
  if c.tk then return end
  return {
    message = c.facts_only and "no CUDA toolkit in its facts (detect found none by CUDA_HOME, PATH or /usr/local/cuda there)"
      or "no CUDA toolkit found (CUDA_HOME, PATH, /usr/local/cuda)",
    seen = c.facts_only and "toolkits: none" or "nothing to build with",
    fix = "ptbuild fetch installs the toolkit the plan chooses" }
end)

M.checks = checks

-- The observation of a node doctor cannot see (a fleet's, known by its
-- facts only): reading any key of it marks the check as needing the
-- machine; every key reads as absent.
local function unseen(c)
  return setmetatable({}, { __index = function() c.touched = true end,
                            __newindex = function() c.touched = true end })
end

-- Input { facts, observed } for this machine; { facts, facts_only = true }
-- for a node known by its facts alone: the checks that read the
-- observation are not run but named in needs_machine.
function M.check(args)
  local f, o = args.facts or {}, args.observed or {}
  gpuname.fill(f)
  local c = { f = f, o = o, gpus = gpus(f), facts_only = args.facts_only }
  -- the checkout doctor runs in (--source): its release, when ptbuild
  -- knows it, is the one the checks judge by; the tree itself is read
  -- through the observation (c.o.source), so a node known by its facts
  -- names the checks that read it
  local src = type(args.source) == "table" and args.source or nil
  -- a checkout found as the working directory, not named by --source,
  -- whose version.txt is no version: a warning, and no checkout judged
  if src and src.version_error then
    c.src_bad, src = src, nil
  end
  if src then
    local maj, min = tostring(src.version):match("^(%d+)%.(%d+)")
    c.src = { path = src.path, version = src.version, release = maj and (tonumber(maj) .. "." .. tonumber(min)) }
    c.torch = archlist.torch_release(src.version)
    o.source = src
  end
  c.tk = M.toolkit(f, args.facts_only and {} or o)
  -- the toolkit's release as plan judges it (lib/toolkit release_of)
  c.rel = c.tk and c.tk.version and toolkit.release_of(c.tk) or nil
  if args.facts_only then c.o = unseen(c) end
  local findings, needs = {}, {}
  for _, ch in ipairs(checks) do
    c.touched = false
    local ok, r = pcall(ch.run, c)
    if not ok and not c.touched then error(r, 0) end
    if c.touched then
      needs[#needs + 1] = ch.code
      r = nil
    end
    if r and r.message then r = { r } end
    for _, x in ipairs(r or {}) do
      findings[#findings + 1] = {
        severity = x.severity or ch.severity,
        code = ch.code,
        scenario = ch.scenario,
        message = x.message,
        seen = x.seen,
        fix = x.fix,
      }
    end
  end
  -- errors first, then warnings; each in check order
  local sorted = {}
  for _, sev in ipairs({ "error", "warning" }) do
    for _, x in ipairs(findings) do
      if x.severity == sev then sorted[#sorted + 1] = x end
    end
  end
  return {
    schema = "ptbuild.doctor/1",
    toolkit = c.tk and { root = c.tk.root, version = c.tk.version or ptb.null, via = c.tk.via,
                         gpu_list = c.tk.gpu_list and c.tk.gpu_list.code and { from = "nvcc", nvcc = c.tk.gpu_list.nvcc } or nil } or ptb.null,
    source = c.src and { path = c.src.path, version = c.src.version, release = c.src.release or ptb.null,
                         known = c.torch ~= nil } or ptb.null,
    findings = ptb.array(sorted),
    checks = #checks - #needs,
    needs_machine = args.facts_only and ptb.array(needs) or nil,
  }
end

return M
