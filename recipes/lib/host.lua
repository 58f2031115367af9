-- host: what the build machine's CPU, memory, compilers and distribution
-- mean for the build -- the nvcc host compiler, BLAS/OpenBLAS, MAX_JOBS and
-- distribution packages.  Pure functions of facts and data tables.
local A = ptb.include("lib/archlist")
local C = ptb.include("lib/checks")
local T = ptb.include("lib/toolkit")
local V = ptb.include("lib/version")
local ob = ptb.include("data/openblas")
local pk = ptb.include("data/packages")

local M = {}

local function problem(list, severity, code, message, fix)
  list[#list + 1] = { severity = severity, code = code, message = message, fix = fix }
end

local function major(v) return tonumber(tostring(v):match("^(%d+)")) end
-- v when it is a non-empty string (facts hold null for what detect could not read)
local function str(v) return type(v) == "string" and v ~= "" and v or nil end

-- The C++ driver beside a C compiler's path (lib/checks.lua, doctor's
-- fix names it too).
M.cxx_of = C.cxx_of

-- gcc compilers from facts (gcc and the versioned gcc-12 beside it); the
-- default is the one named plain "gcc" (the one on PATH), else the first
-- listed (lib/checks.lua default_gcc).
function M.gccs(facts)
  local list = {}
  for _, c in ipairs(facts.compilers or {}) do
    if C.is_gcc(c) then list[#list + 1] = c end
  end
  return list, C.default_gcc(facts)
end

local cuda = ptb.include("data/cuda")

-- The full version of the toolkit release r stands for on this machine:
-- an installed one of that minor, else the update ptbuild's installer for
-- this host installs (a Jetson's JetPack repo: lib/toolkit full_label).
function M.cuda_full(facts, r)
  for _, tk in ipairs(facts.toolkits or {}) do
    if tk.version and A.cuda_minor(tk.version) == r.version then return tk.version end
  end
  if not cuda.updates[r.version] then return r.version end
  local _, installer = T.platform(facts, r)
  return T.full_label(r, installer)
end

-- Does nvcc of release r (full version `full`) take compiler `kind`
-- ("gcc" or "clang") version v on `arch`?  true, or false and why.  The
-- rule is plan's and doctor's alike: lib/checks.lua.
M.compiler_ok = C.compiler_ok

-- gcc-too-old for the gcc c that compiles PyTorch's C++ against PyTorch
-- release torch (var: "CXX" when that variable names c), by the versions
-- c.version stands for ("9" is every gcc 9, as detect reads Ubuntu
-- 20.04's 9.4.0): all below the minimum is an error, some a warning; the
-- fix names a major wholly above it.  Adds to problems.
local function too_old(problems, c, torch, lim, var)
  local lo, hi = C.version_span(c.version)
  local least = major(torch.gcc_min) + (A.vcmp(torch.gcc_min, tostring(major(torch.gcc_min))) > 0 and 1 or 0)
  local install = ("install gcc %s and %s"):format(lim.gcc_max and ("%d to %d"):format(least, lim.gcc_max) or least,
    var and ("set %s to its g++"):format(var) or "put it first on PATH")
  if lo and A.vcmp(hi, torch.gcc_min) <= 0 then
    problem(problems, "error", "gcc-too-old",
      ("gcc %s (%s) is older than PyTorch %s accepts ('GCC-%s or newer is required')"):format(c.version, c.path, torch.version, torch.gcc_min),
      install)
  elseif lo and A.vcmp(lo, torch.gcc_min) < 0 then
    problem(problems, "warning", "gcc-too-old",
      ("gcc %s (%s) may be older than PyTorch %s accepts ('GCC-%s or newer is required'): only its version %s is known"):format(
        c.version, c.path, torch.version, torch.gcc_min, c.version),
      ("run '%s -dumpfullversion': if it prints a version below %s, %s"):format(c.path, torch.gcc_min, install))
  end
end

-- PyTorch's 'GCC-9.3 or newer is required' is CMake's check of its C++
-- compiler: the one CXX names (a clang is no gcc to judge), else the
-- default gcc.  Adds gcc-too-old to problems.
local function cxx_too_old(problems, facts, default, torch, lim)
  local cxx = C.named_compiler(facts, facts.env, { "CXX" })
  if cxx and C.compiler_kind(cxx) and type(cxx.version) == "string" then
    if C.compiler_kind(cxx) == "gcc" then too_old(problems, cxx, torch, lim, "CXX") end
  elseif default then
    too_old(problems, default, torch, lim)
  end
end

-- The newest gcc of list that nvcc takes in every version it may be
-- (limits lim, nvcc's full version, the host arch) and that PyTorch
-- release torch accepts; nil when none.
local function best_gcc(list, lim, full, arch, torch)
  local best
  for _, c in ipairs(list) do
    local cok, _, cmaybe = M.compiler_ok(lim, full, "gcc", c.version, arch)
    if cok and not cmaybe and A.vcmp(c.version, torch.gcc_min) >= 0 and
       (not best or A.vcmp(c.version, best.version) > 0) then
      best = c
    end
  end
  return best
end

local contains = A.contains

-- "choose a newer CUDA", made exact: the oldest CUDA after nvcc's own
-- (j.full) whose nvcc takes the compiler j.start in every version it may
-- be, that NVIDIA publishes for this host, that builds its GPUs, whose
-- driver the host has (or lacks a driver to judge) and that PyTorch
-- release j.torch builds.  The fix's tail, naming it when there is one.
-- Where only a newer driver opens such a CUDA, it is named with the
-- driver it needs; where none at all takes the compiler, the tail says so
-- rather than send the user looking.
local function newer_cuda(facts, j)
  local at, kind = A.cuda_minor(j.full), C.compiler_kind(j.start) or "gcc"
  local upgrade
  for _, v in ipairs(A.known_versions()) do
    local rv = A.release(v)
    if at and A.vcmp(v, at) > 0 and T.torch_builds(j.torch, rv)
        and contains(rv.platforms, (T.platform(facts, rv))) and #C.gpus_not_built(facts, rv) == 0 then
      local ok, _, maybe = M.compiler_ok(C.limits(rv), M.cuda_full(facts, rv), kind, j.start.version, j.arch)
      if ok and not maybe and C.driver(rv, facts.driver) ~= "too-old" then
        return ("use --cuda %s, the first newer CUDA whose nvcc takes %s %s and that PyTorch %s builds"):format(
          v, kind, j.start.version, j.torch.version), true
      elseif ok and not maybe and not upgrade then
        -- a Jetson's driver comes with its JetPack (checks
        -- jetson_driver_need): a JetPack, not a desktop driver
        local jetson = (facts.host or {}).platform == "jetson"
        local need = jetson and (C.jetson_driver_need(facts, rv) or ("a JetPack whose driver runs CUDA %s, which ptbuild knows none of"):format(v))
          or T.driver_least(facts, rv)
        upgrade = ("use --cuda %s with %s (driver %s runs CUDA %s at most), the first newer CUDA whose nvcc takes %s %s and that PyTorch %s builds"):format(
          v, need, facts.driver.version, facts.driver.cuda_max or "?", kind, j.start.version, j.torch.version)
      end
    end
  end
  if upgrade then return upgrade, true end
  return ("no CUDA newer than %s that PyTorch %s builds for this machine takes %s %s"):format(
    at or j.full, j.torch.version, kind, j.start.version), false
end

-- The fix that installs gcc m (nil: none to name), then the newer CUDA
-- (j.newer, a choice when j.newer_is_choice; else why there is none).
local function install_or(m, j)
  if not m then return j.newer end
  if j.newer_is_choice then
    return ("install gcc %d (e.g. 'g++-%d') -- ptbuild then passes it to nvcc -- or %s"):format(m, m, j.newer)
  end
  return ("install gcc %d (e.g. 'g++-%d'): ptbuild then passes it to nvcc (%s)"):format(m, m, j.newer)
end

-- The compiler nvcc would take (j.start, named j.what) may be the version
-- nvcc breaks with (j.maybe: only part of its version is known, as detect
-- reads "13" from gcc-13): switch to j.best, else say how to tell.
local function maybe_too_new(problems, res, j)
  local m = C.gcc_to_install(j.lim, j.full, j.arch, major(j.torch.gcc_min))
  local message = ("%s may not work with nvcc %s: only its version %s is known, and %s"):format(
    j.what, j.full, j.start.version, j.maybe.why)
  if j.best then
    res.host, res.kind, res.switched, res.maybe = j.best, "gcc", true, true
    problem(problems, "warning", "gcc-too-new", message,
      ("the plan makes nvcc use %s (gcc %s) through CMAKE_CUDA_HOST_COMPILER and CUDAHOSTCXX"):format(M.cxx_of(j.best.path), j.best.version))
  else
    res.unsure = true
    problem(problems, "warning", "gcc-too-new", message,
      ("run '%s -dumpfullversion': if it prints %s, %s"):format(j.start.path, j.maybe.versions,
        install_or(m, j)))
  end
end

-- The compiler nvcc would take (j.start) does not work with it (j.why):
-- switch to j.best, else refuse, naming the gcc to install.
local function too_new(problems, res, j)
  if j.best then
    res.host, res.kind, res.switched = j.best, "gcc", true
    problem(problems, "warning", "gcc-too-new",
      ("%s does not work with nvcc %s: %s"):format(j.what, j.full, j.why),
      ("the plan makes nvcc use %s (gcc %s) through CMAKE_CUDA_HOST_COMPILER and CUDAHOSTCXX"):format(M.cxx_of(j.best.path), j.best.version))
  else
    res.refused = true
    local m = C.gcc_to_install(j.lim, j.full, j.arch, major(j.torch.gcc_min))
    problem(problems, "error", "gcc-too-new",
      ("%s does not work with nvcc %s: %s; no other gcc installed does"):format(j.what, j.full, j.why),
      install_or(m, j))
  end
end

-- The nvcc host compiler for release r and PyTorch release torch, with
-- the limits the installed toolkit tk (may be nil) states: the compiler
-- the facts' environment names (CUDAHOSTCXX, CXX, CC; lib/checks.lua
-- named_compiler, as doctor reads it), else the default gcc.
-- Returns { default = c?, host = c?, kind, named_by?, switched = bool }, problems.
function M.host_compiler(facts, r, torch, tk)
  local problems = {}
  local lim = C.limits(r, tk)
  local list, default = M.gccs(facts)
  local named, var = C.named_compiler(facts, facts.env)
  if named and not (C.compiler_kind(named) and type(named.version) == "string") then named = nil end
  local start = named or default
  if not start then
    problem(problems, "warning", "no-compiler",
      "no gcc was found on this machine; the plan assumes the build environment brings one",
      lim.gcc_max and ("install gcc %s to %d (CUDA %s accepts up to gcc %d)"):format(torch.gcc_min, lim.gcc_max, r.version, lim.gcc_max)
        or ("install gcc %s or newer (the newest CUDA %s accepts is unknown to ptbuild: see its include/crt/host_config.h)"):format(torch.gcc_min, r.version))
    return { switched = false }, problems
  end
  local kind = C.compiler_kind(start)
  local res = { default = start, host = start, kind = kind, named_by = named and var or nil, switched = false }
  cxx_too_old(problems, facts, default, torch, lim)
  if var == "CUDAHOSTCXX" and not named then
    -- nvcc takes what CUDAHOSTCXX names, and the plan cannot judge it (a
    -- compiler detect did not list, or of no known version): say so
    -- rather than name the default gcc nvcc will not use
    return { switched = false, unjudged = facts.env.CUDAHOSTCXX }, problems
  end
  local full, arch = M.cuda_full(facts, r), facts.host and facts.host.arch
  local ok, why, maybe = M.compiler_ok(lim, full, kind, start.version, arch)
  local j = { start = start, full = full, arch = arch, lim = lim, torch = torch, why = why, maybe = maybe,
    what = named and ("%s=%s (%s %s)"):format(var, facts.env[var], kind, start.version)
      or ("gcc %s (%s)"):format(start.version, start.path),
    -- an installed gcc nvcc takes in every version it may be
    best = not (ok and not maybe) and best_gcc(list, lim, full, arch, torch) or nil }
  if not (ok and not maybe) and not j.best then j.newer, j.newer_is_choice = newer_cuda(facts, j) end
  if ok and maybe then
    maybe_too_new(problems, res, j)
  elseif not ok then
    too_new(problems, res, j)
  end
  return res, problems
end

-- Package manager from os-release id.
function M.manager(facts)
  local id = facts.host and facts.host.os and facts.host.os.id
  if not id then return nil end
  for name, m in pairs(pk.managers) do
    for _, x in ipairs(m.ids) do if x == id then return name end end
  end
  return nil
end

-- Whether the CPU's feature list names every feature of names.
local function has_all(cpu, names)
  local f = {}
  for _, x in ipairs(type(cpu.features) == "table" and cpu.features or {}) do f[x] = true end
  for _, n in ipairs(names) do if not f[n] then return false end end
  return true
end

-- The TARGET an OpenBLAS feature chain picks for the CPU: a chain is a
-- TARGET, or a list of { test, TARGET } taken in order (test nil: always).
local function pick(cpu, chain, tests)
  if type(chain) ~= "table" then return chain end
  for _, step in ipairs(chain) do
    if step[1] == nil or has_all(cpu, tests[step[1]]) then return step[2] end
  end
  return nil
end

-- x86-64 by vendor, family and model as detect reads them from cpuinfo:
-- the pinned OpenBLAS's build TARGET and the kernel set its DYNAMIC_ARCH runs
-- (data/openblas.lua); nil for a CPU the tables do not model.
local function x86_targets(cpu)
  local fam, model = tonumber(cpu.family), tonumber(cpu.model)
  if not fam or not model then return nil end
  local T = ob.x86_tests
  if cpu.vendor == "GenuineIntel" and fam == 6 then
    local row = ob.intel6[model]
    if not row and model < 0x1a then return nil end   -- before Nehalem: not modelled
    local build = row and pick(cpu, row[1], T) or ((model & 0xf) <= 2 and "NORTHWOOD" or pick(cpu, ob.x86_build_fallback, T))
    return build, pick(cpu, row and row[2] or ob.x86_dyn_fallback, T)
  elseif cpu.vendor == "GenuineIntel" and fam >= 15 then
    -- the Pentium 4 case, base family 0xf (64-bit DYNAMIC_ARCH: PRESCOTT)
    return (model & 0xf) <= 2 and "NORTHWOOD" or pick(cpu, ob.x86_build_fallback, T), "PRESCOTT"
  elseif cpu.vendor == "AuthenticAMD" and ob.amd[fam] then
    local row = ob.amd[fam]
    return pick(cpu, row[1], T), pick(cpu, row[2] or ob.x86_dyn_fallback, T)
  end
  return nil
end

-- The part OpenBLAS's build detection reads on a machine whose cores
-- differ: cpuid_arm64.c detect() [ob-cpuid] reads every core's MIDR_EL1,
-- sorts the parts (qsort with cpusort, highest first) and takes the
-- highest, with the implementer of the last core; facts list the parts in
-- cpu.parts (one implementer on every such machine known).  DYNAMIC_ARCH
-- reads the MIDR of the core it starts on [ob-dyn], so its kernel set is
-- taken from the first core's part, as archspec's microarchitecture is.
local function build_part(cpu, part)
  local best, bn = part, tonumber(part)
  for _, p in ipairs(type(cpu.parts) == "table" and cpu.parts or {}) do
    local n = type(p) == "string" and tonumber(p) or nil
    if n and (not bn or n > bn) then best, bn = p, n end
  end
  return best
end

-- OpenBLAS TARGET for the CPU: what OpenBLAS's own build detection picks
-- -- on Arm from implementer:part (ARMV8 for a part it does not list), on
-- x86-64 from vendor, family, model and flags, else from the archspec
-- name.  Second result: true when DYNAMIC_ARCH's run-time detection has
-- a case for the core; third: the kernel set a DYNAMIC_ARCH build of
-- the pinned OpenBLAS runs there (nil when the facts do not tell);
-- fourth: { since = the release before which OpenBLAS treats the core
-- otherwise, sve = true when the run-time case needs SVE } (data/openblas.lua).
function M.openblas_target(cpu)
  if type(cpu) ~= "table" then return nil end
  local impl, part = str(cpu.implementer), str(cpu.part)
  if impl and part then
    impl = impl:lower()
    local whole = ob.arm_implementers[impl]
    local row = ob.arm_parts[impl .. ":" .. build_part(cpu, part):lower()] or whole
    local first = ob.arm_parts[impl .. ":" .. part:lower()] or whole
    local since = row and row.since
    if first and first.since and (not since or V.vcmp(first.since, since) > 0) then since = first.since end
    local info = { since = since, sve = first and first.sve or nil }
    local build = row and row[1] or ob.arm_fallback
    local d = first and first[2]
    -- a case that needs SVE runs NEOVERSEN1's where the facts' features
    -- list some but no SVE (the kernel hides it) [ob-dyn]
    if d and info.sve and type(cpu.features) == "table" and #cpu.features > 0 and not has_all(cpu, { "sve" }) then
      d = "NEOVERSEN1"
    end
    if d then return build, true, d, info end
    return build, false, pick(cpu, ob.dyn_generic, ob.arm_tests), info
  end
  local build, dyn = x86_targets(cpu)
  if build then return build, dyn ~= nil, dyn, {} end
  local t = str(cpu.microarch) and ob.microarch[cpu.microarch]
  if t then return t[1], not impl, t[2], { since = t.since, sve = t.sve } end
  return nil
end

-- The release from which OpenBLAS's getarch.c takes TARGET when VERSION
-- is older (make TARGET=... stops there); nil when VERSION takes it.
function M.openblas_refuses(target, version)
  local since = type(target) == "string" and ob.target_since[target]
  if since and type(version) == "string" and version:match("^%d") and V.vcmp(version, since) < 0 then return since end
  return nil
end

-- "ARMV8SVE" -> " (the kernel reports SVE)": why DYNAMIC_ARCH took a
-- generic kernel set
local generic_why = { ARMV9SME = " (its kernel reports SME)", ARMV8SVE = " (its kernel reports SVE)", ARMV8 = " (no SVE)" }

-- What OpenBLAS's DYNAMIC_ARCH runs on a core it recognises: the kernel
-- set, decided by the facts' features when the run-time case needs SVE
-- and they list any (dynamic_arm64.c takes NEOVERSEN1's without SVE)
-- [ob-dyn]; where gotoblas_corename() names the set otherwise (a table
-- #defined to another's), the name OPENBLAS_VERBOSE=2 prints.
local function dyn_runs(cpu, target, dyn, sve)
  local printed = ob.core_printed[dyn]
  local same = ""
  if printed and target and dyn ~= target and printed == target:lower() then
    same = (" (dynamic_arm64.c #defines gotoblas_%s to gotoblas_%s; OPENBLAS_VERBOSE=2 still prints 'Core: %s')"):format(target, dyn, printed)
  elseif printed then
    same = (" (OPENBLAS_VERBOSE=2 prints 'Core: %s' for it)"):format(printed)
  end
  if not sve then return ("runs the %s kernel set%s"):format(dyn, same) end
  local listed = type(cpu) == "table" and type(cpu.features) == "table" and #cpu.features > 0
  if listed and has_all(cpu, { "sve" }) then
    return ("as this core reports SVE, runs the %s kernel set%s"):format(dyn, same)
  elseif listed then
    return "as this core's features list no SVE, runs NEOVERSEN1's kernel set"
  end
  return ("where the kernel reports SVE, runs the %s kernel set%s; without SVE it runs NEOVERSEN1's"):format(dyn, same)
end

-- The run-time history of the core the library starts on (the facts'
-- first core) where older releases answer otherwise (data/openblas.lua
-- dyn_history); nil where they do not.
local function history_of(cpu)
  local impl, part = str(cpu.implementer), str(cpu.part)
  return impl and part and ob.dyn_history[impl:lower() .. ":" .. part:lower()] or nil
end

-- The distribution's OpenBLAS release and the distribution's name
-- ("Debian 12"), where data/openblas.lua distro_release knows it.
local distro_names = { debian = "Debian", ubuntu = "Ubuntu" }
local function distro_openblas(os)
  if type(os) ~= "table" or not str(os.id) or not str(os.version_id) then return nil end
  local rel = ob.distro_release[os.id .. ":" .. os.version_id]
  return rel, rel and ((distro_names[os.id] or os.id) .. " " .. os.version_id)
end

-- The history entry that holds for release rel (nil before the first).
local function entry_for(hist, rel)
  local e
  for _, h in ipairs(hist) do if V.vcmp(rel, h[1]) >= 0 then e = h end end
  return e
end

-- What a release's DYNAMIC_ARCH runs by history entry e on this core,
-- with what OPENBLAS_VERBOSE=2 prints; the SVE test as dyn_runs does.
local function entry_runs(cpu, e)
  local said = ("the %s kernel set ('Core: %s')"):format(e[2], e[3])
  if not e.sve then
    return "runs " .. said .. ((e[2]:match("^NEOVERSE[NV]%d") and " whether or not the kernel reports SVE") or "")
  end
  local listed = type(cpu.features) == "table" and #cpu.features > 0
  if listed and has_all(cpu, { "sve" }) then
    return "runs " .. said .. ", as this core reports SVE"
  elseif listed then
    return "runs NEOVERSEN1's kernel set ('Core: neoversen1'), as this core's features list no SVE"
  end
  return "runs " .. said .. " where the kernel reports SVE, NEOVERSEN1's without"
end

-- A machine whose cores differ (facts' cpu.parts): the core OpenBLAS's
-- build reads, the highest part, names the model where it is not the
-- first core; second result: what the note adds (nil for one core type).
local function mixed_cores(cpu, model)
  if not (type(cpu) == "table" and type(cpu.parts) == "table" and #cpu.parts > 1
      and str(cpu.implementer) and str(cpu.part)) then
    return model, nil
  end
  local hi = build_part(cpu, cpu.part):lower()
  if hi ~= cpu.part:lower() then
    local names = ptb.include("data/cpus").arm_parts[cpu.implementer:lower()] or {}
    model = ("%s (CPU part %s, the highest of this machine's %s)"):format(
      names[hi] or "the core " .. cpu.implementer .. ":" .. hi, hi, table.concat(cpu.parts, ", "))
  end
  return model, ("; this machine's cores differ (CPU parts %s): OpenBLAS's build detection reads every core and takes the highest part (%s), while its DYNAMIC_ARCH reads the core it starts on, and archspec's microarchitecture the first (%s)"):format(
    table.concat(cpu.parts, ", "), hi, cpu.part)
end

-- The aarch64 route and note for the core: res.target, res.via and
-- res.note from what openblas_target() says of it; model names the core
-- as the facts do (nil when they name none), mgr the package manager.
local function arm_route(res, cpu, model, mgr, target, recognised, dyn, info, os)
  local v = ob.source_build.version
  if target == ob.arm_fallback then target = nil end   -- the generic case below
  local refused = target and M.openblas_refuses(target, v)
  local runs = dyn and dyn ~= target and (" (OpenBLAS %s runs the %s kernel set there)"):format(v, dyn) or ""
  if target and not refused and recognised and info.since then
    -- a core OpenBLAS treats otherwise before info.since: the pinned
    -- release, from source, whatever the distribution ships
    res.target = target
    res.via = "source"
    local list = ob.kernel_list[target]
    res.note = ("%s: TARGET=%s, what OpenBLAS's own build detection picks for it; releases before %s treat this core otherwise and a distribution's OpenBLAS may be one, so OpenBLAS %s is built from source%s; a DYNAMIC_ARCH build of %s (PyTorch's CD: TARGET=ARMV8 DYNAMIC_ARCH=1) recognises this core at run time and, %s"):format(
      model or "this CPU", target, info.since, v,
      list and ("; its kernel/arm64/KERNEL.%s is KERNEL.%s's list"):format(target, list) or "",
      v, dyn_runs(cpu, target, dyn, info.sve))
  elseif target and not refused and recognised then
    res.target = target
    res.via = mgr and "package" or "source"
    res.note = ("%s: TARGET=%s; the distribution's OpenMP build (DYNAMIC_ARCH) detects it at run time%s"):format(model or "this CPU", target, runs)
    local hist = mgr and history_of(cpu)
    if hist then
      local rel, name = distro_openblas(os)
      local e = rel and entry_for(hist, rel)
      if e and e.none then
        -- the distribution's release has no run-time case for the core
        res.via = "source"
        res.note = ("%s: TARGET=%s, what OpenBLAS's own build detection picks for it; %s's OpenBLAS (%s) has no run-time case for this core and would run its generic %s kernels, so OpenBLAS %s is built from source"):format(
          model or "this CPU", target, name, rel, e[2], v)
      elseif e then
        res.note = ("%s: TARGET=%s; %s's OpenBLAS (%s, an OpenMP DYNAMIC_ARCH build) recognises this core at run time and %s"):format(
          model or "this CPU", target, name, rel, entry_runs(cpu, e))
      else
        local parts = {}
        for i = #hist, 1, -1 do
          local h, nx = hist[i], hist[i + 1]
          local span = not nx and (h[1] .. " and later") or
            (V.vcmp(h[1], (nx[1]:gsub("%d+$", function(d) return tostring(tonumber(d) - 1) end))) == 0 and h[1]
             or (h[1] .. " to " .. nx[1]:gsub("%d+$", function(d) return tostring(tonumber(d) - 1) end)))
          parts[#parts + 1] = span .. ": " .. (h.none and ("has no case for it and runs its generic %s kernels ('Core: %s')"):format(h[2], h[3]) or entry_runs(cpu, h))
        end
        res.note = ("%s: TARGET=%s; the distribution's OpenMP build (DYNAMIC_ARCH) decides at run time, by its release: %s"):format(
          model or "this CPU", target, table.concat(parts, "; "))
      end
    end
  elseif target and not refused then
    res.target = target
    res.via = "source"
    res.note = ("%s: OpenBLAS's run-time detection (DYNAMIC_ARCH) does not recognise this part%s; a source build with TARGET=%s, what OpenBLAS's own build detection picks for it, uses those kernels"):format(
      model or "this CPU", dyn and (", and runs its generic " .. dyn .. " kernels" .. (generic_why[dyn] or "")) or "", target)
  else
    res.target = "ARMV8"
    res.via = "source"
    if target then
      -- a TARGET the pinned release's getarch.c refuses: what its
      -- DYNAMIC_ARCH runs there, exactly [ob-dyn]
      res.note = ("OpenBLAS %s has no TARGET=%s (getarch.c knows it from %s on, and stops with 'The TARGET specified on the command line or in Makefile.rule is not supported'); a source build of OpenBLAS %s with TARGET=ARMV8 DYNAMIC_ARCH=1 recognises this core at run time and %s"):format(
        v, target, refused, v, dyn_runs(cpu, target, dyn, info.sve))
    elseif model and recognised then
      res.note = ("%s: OpenBLAS's own detection has no entry for this core and builds TARGET=ARMV8; with DYNAMIC_ARCH=1 OpenBLAS %s recognises it at run time and runs the %s kernels"):format(model, v, dyn)
    elseif model and dyn then
      res.note = ("%s: OpenBLAS's own detection has no entry for this core and builds TARGET=ARMV8; with DYNAMIC_ARCH=1 OpenBLAS %s does not recognise it at run time and runs its generic %s kernels%s"):format(
        model, v, dyn, generic_why[dyn] or "")
    elseif model then
      res.note = model .. ": OpenBLAS's own detection has no entry for this core and builds TARGET=ARMV8; with DYNAMIC_ARCH=1 it runs on every Armv8 core and picks the kernels of the core it finds at run time (SVE ones where present)"
    else
      res.note = "the facts name no CPU core: TARGET=ARMV8 with DYNAMIC_ARCH=1 runs on every Armv8 core and picks the kernels of the core it finds at run time (SVE ones where present)"
    end
  end
end

-- BLAS decision: { target, via, packages, version?, make_flags?, prefix?,
-- alternative?, note }, env entries { {name, value} }, problems.
function M.openblas(facts)
  local host, problems, env = facts.host or {}, {}, {}
  local cpu = host.cpu
  local target, recognised, dyn, info = M.openblas_target(cpu)
  info = info or {}
  local mgr = M.manager(facts)
  local v = ob.source_build.version
  if host.arch ~= "aarch64" then
    local note = "on x86_64 PyTorch looks for MKL (BLAS=MKL is the default); without MKL, CMake's FindBLAS takes the first BLAS it finds, OpenBLAS when installed"
    if target then
      note = note .. ("; OpenBLAS %s built here without TARGET picks %s%s"):format(v, target,
        dyn and ((", and its DYNAMIC_ARCH runs the %s kernels"):format(dyn)) or "")
    end
    return { target = target or ptb.null, via = "none", packages = ptb.array({}), note = note }, env, problems
  end
  local res = { packages = ptb.array({}) }
  -- the core as the facts name it: its model, else its archspec name,
  -- else its implementer:part; nil when the facts name none
  local model = type(cpu) == "table" and (str(cpu.model_name) or str(cpu.microarch)
    or str(cpu.implementer) and str(cpu.part) and ("the core %s:%s"):format(cpu.implementer, cpu.part)) or nil
  local mixed
  model, mixed = mixed_cores(cpu, model)
  arm_route(res, cpu, model, mgr, target, recognised, dyn, info, host.os)
  if mixed then res.note = res.note .. mixed end
  if res.via == "package" then
    res.packages = pk.managers[mgr].openblas
    res.prefix = "/usr"
  else
    res.version = ob.source_build.version
    res.url = ob.source_build.url
    res.sha256 = ob.source_build.sha256
    -- make arguments besides TARGET (which is res.target)
    res.make_flags = {}
    if res.target == "ARMV8" then res.make_flags[1] = "DYNAMIC_ARCH=1" end
    for w in ob.source_build.make_flags:gmatch("%S+") do res.make_flags[#res.make_flags + 1] = w end
    res.prefix = "/opt/OpenBLAS"
  end
  if cpu and cpu.microarch == "neoverse_v2" and host.platform == "sbsa" then
    res.alternative = "NVPL (BLAS=NVPL): NVIDIA's BLAS for Grace, what PyTorch's own CUDA aarch64 wheels use (nvpl_blas, linux-sbsa redist)"
  end
  env[#env + 1] = { "BLAS", "OpenBLAS" }
  env[#env + 1] = { "OpenBLAS_HOME", res.prefix }
  return res, env, problems
end

M.GIB_PER_JOB = 4  -- a CUDA compile job (nvcc + cicc + ptxas, FlashAttention) needs gigabytes (scenarios S34)

-- The cores and memory a build may use: the machine's, or the tighter
-- cgroup limit / CPU affinity detect found (host.limits; scenario S34).
-- Returns cores, mib, a text saying where each came from, and whether the
-- memory is a cgroup limit.
function M.resources(facts)
  local host = facts.host or {}
  local lim = type(host.limits) == "table" and host.limits or {}
  local cores = host.cpu and host.cpu.cores
  local mib = host.memory_mib
  local cores_txt = cores and ("%d cores"):format(cores) or "unknown cores"
  local mib_txt = mib and ("%d GiB of memory"):format(mib // 1024) or "unknown memory"
  local limited = false
  if type(lim.cpus) == "number" and (not cores or lim.cpus < cores) then
    local c = math.max(1, math.floor(lim.cpus))
    cores_txt = ("%d cores (%s CPUs by %s%s)"):format(c, tostring(lim.cpus), lim.cpus_source or "the cgroup",
      cores and ("; the machine has " .. cores) or "")
    cores = c
  end
  if type(lim.memory_mib) == "number" and (not mib or lim.memory_mib < mib) then
    mib_txt = ("%.1f GiB of memory (by %s%s)"):format(lim.memory_mib / 1024, lim.memory_source or "the cgroup",
      mib and ("; the machine has " .. (mib // 1024) .. " GiB") or "")
    mib = lim.memory_mib
    limited = true
  end
  return cores, mib, cores_txt .. ", " .. mib_txt, limited
end

-- MAX_JOBS from memory and cores (limits included); `want` is --max-jobs.
function M.max_jobs(facts, want)
  local problems = {}
  local cores, mib, _, limited = M.resources(facts)
  local more = limited and "raise the memory limit (docker run --memory, the cgroup's memory.max)" or "add memory/swap"
  local by_mem = mib and math.floor(mib / (M.GIB_PER_JOB * 1024)) or nil
  local jobs
  if want then
    jobs = want
    if by_mem and want > by_mem then
      problem(problems, "warning", "memory-too-small",
        ("MAX_JOBS=%d needs about %d GiB, and the build may use %d GiB: compile jobs get killed ('Killed signal terminated program cc1plus')"):format(want, want * M.GIB_PER_JOB, mib // 1024),
        ("use --max-jobs %d or fewer, or %s"):format(math.max(by_mem, 1), more))
    end
  else
    jobs = cores or by_mem or 4
    if by_mem and by_mem < jobs then jobs = by_mem end
    if jobs < 1 then jobs = 1 end
    if mib and mib < M.GIB_PER_JOB * 1024 then
      problem(problems, "error", "memory-too-small",
        ("%d MiB of memory is less than one CUDA compile job needs (about %d GiB)"):format(mib, M.GIB_PER_JOB),
        (limited and more or "add swap or memory") .. ", or set USE_FLASH_ATTENTION=0 USE_MEM_EFF_ATTENTION=0 to drop the largest kernels")
    end
  end
  return jobs, problems
end

-- Which Python the build runs (facts python, src/detect/probe_tools.c),
-- by its files: "system" (the distribution's /usr/bin/python3, or a venv
-- of it: detect reports python.system only when the build's is another
-- interpreter), "conda" (a conda environment's: $CONDA_PREFIX, or a
-- conda, miniforge, mambaforge or micromamba prefix, a venv of one
-- included, as its python3 resolves there), "pyenv" (one pyenv built,
-- under its versions/), "other" (any other interpreter: /usr/local's, a
-- uv-managed one); nil when the facts do not say (facts saved before
-- detect read it, a profile): then the distribution's is assumed.  The
-- second result: the build's python3, its resolved file where known.
function M.python_kind(facts)
  local py = facts.python
  if type(py) ~= "table" or type(py.path) ~= "string" then return nil end
  local file = type(py.real) == "string" and py.real or py.path
  if type(py.system) ~= "table" and (file:match("^/usr/bin/") or file:match("^/bin/")) then
    return "system", file
  end
  local low = (file .. " " .. py.path):lower()
  if py.from == "CONDA_PREFIX" or low:find("conda", 1, true) or low:find("miniforge", 1, true)
      or low:find("mambaforge", 1, true) or low:find("micromamba", 1, true) then
    return "conda", file
  end
  if low:find("/pyenv/versions/", 1, true) or low:find("/.pyenv/versions/", 1, true) then return "pyenv", file end
  return "other", file
end

-- Distribution packages: build tools and, when the plan takes OpenBLAS
-- from the distribution, its package.  The ones that serve only the
-- distribution's python3 (data/packages.lua python: python3-dev and
-- python3-venv) where the build runs it (or the facts do not say which
-- Python it runs); for another Python, a note says what it needs
-- instead: conda's and pyenv's carry their own headers and venv module.
function M.packages(facts, blas)
  local mgr = M.manager(facts)
  if not mgr then return { manager = ptb.null, names = ptb.array({}) } end
  local kind, file = M.python_kind(facts)
  local distro = kind == nil or kind == "system"
  local names, dropped = {}, {}
  for _, n in ipairs(pk.managers[mgr].build) do
    if distro or not contains(pk.managers[mgr].python or {}, n) then names[#names + 1] = n
    else dropped[#dropped + 1] = n end
  end
  if blas.via == "package" then
    for _, n in ipairs(blas.packages) do names[#names + 1] = n end
  end
  table.sort(names)
  local note
  if #dropped > 0 then
    local v = type(facts.python.version) == "string" and facts.python.version or "3.X"
    local what = table.concat(dropped, " and ")
    local serve = ("%s serve%s the distribution's /usr/bin/python3, not the build's"):format(what, #dropped == 1 and "s" or "")
    if kind == "conda" then
      note = ("no %s: the build's Python is a conda environment's (%s), which has its own headers (include/python%s/Python.h) and venv module; %s"):format(
        what, file, v, serve)
    elseif kind == "pyenv" then
      note = ("no %s: the build's Python is one pyenv built (%s), with its own headers (include/python%s/Python.h) and venv module; %s"):format(
        what, file, v, serve)
    else
      note = ("no %s: the build's Python (%s) is not the distribution's; %s: it needs its own headers (include/python%s/Python.h beside it) and venv module"):format(
        what, file, serve, v)
    end
  end
  return { manager = mgr, names = names, note = note }
end

return M
