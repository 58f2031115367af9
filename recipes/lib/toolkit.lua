-- toolkit: which CUDA toolkit a build uses -- an installed one or a
-- download -- for which NVIDIA platform, with which installer, and whether
-- the driver can run it.  Pure functions of facts and data tables.
local A = ptb.include("lib/archlist")
local cuda = ptb.include("data/cuda")
local archs = ptb.include("data/archs")
local jetson = ptb.include("data/jetson")
local L4T = ptb.include("data/l4t")
local redist = ptb.include("data/redist")
local runfiles = ptb.include("data/runfiles")

local M = {}

local contains = A.contains

-- How the driver runs release r: "direct", "compat" (CUDA minor-version
-- compatibility, release notes Table 2), "unknown" (no driver seen: a
-- Docker or CI build) or nil (it cannot).  nvidia-smi's "CUDA Version" is
-- the driver's ceiling (driver.cuda_max), not an installed toolkit.
function M.driver_runs(r, driver)
  if not driver or not driver.version then return "unknown" end
  -- r.driver_min is nil where ptbuild does not know it (data/cuda.lua)
  if r.driver_min and A.vcmp(driver.version, r.driver_min) >= 0 then return "direct" end
  -- a driver of the release's branch (data/cuda.lua driver_branch)
  local dm = tonumber(tostring(driver.version):match("^(%d+)"))
  if r.driver_branch and dm and dm >= tonumber(r.driver_branch) then return "direct" end
  if driver.cuda_max and A.vcmp(driver.cuda_max, r.version) >= 0 then return "direct" end
  local major = r.version:match("^(%d+)")
  local dmajor = driver.cuda_max and driver.cuda_max:match("^(%d+)")
  if r.compat_min and A.vcmp(driver.version, r.compat_min) >= 0 and (not dmajor or dmajor == major) then
    return "compat"
  end
  -- a release newer than the tables (unknown_release) whose major has
  -- no floor there, and no ceiling read from the driver: nothing to say
  if not r.compat_min and not driver.cuda_max then return "unknown" end
  return nil
end

-- The header under which this driver's nvidia-smi prints its ceiling
-- (driver.cuda_max), for messages that point at it: "CUDA Version" up to
-- the r595 drivers, "CUDA UMD Version" from r610 on, whose first line
-- reads "KMD Version" where it read "Driver Version" [smi-umd].  No
-- branch between the two is known; one would read as the newer.
function M.smi_cuda_label(driver)
  local major = tonumber(tostring(driver and driver.version or ""):match("^(%d+)"))
  return major and major > 595 and "CUDA UMD Version" or "CUDA Version"
end

-- The driver release r needs, for messages: its minimum, or where
-- ptbuild's data lacks it, where to read it.  A release known by its
-- driver branch needs any driver of that branch (driver_runs takes one):
-- its driver_min is one known to run it, not the minimum.
function M.driver_need(r)
  if r.driver_branch then
    return ("an r%s driver (%s is known to run it)"):format(r.driver_branch, r.driver_min)
  end
  if r.driver_min and r.driver_min_bound then
    return ("%s (known to run it; NVIDIA's minimum, Table 3, is not in ptbuild's data and may be older)"):format(r.driver_min)
  end
  -- no brackets: callers put this phrase in theirs
  return r.driver_min or ("CUDA %s's own minimum driver, which ptbuild's data lacks and Table 3 of NVIDIA's release notes gives"):format(r.version)
end

-- The driver to install for release r, as a phrase: "driver 580.65.06 or
-- newer"; for a release known by its driver branch, that branch; when
-- ptbuild's data has no minimum for r, the driver r asks for and where its
-- minimum is published.
function M.driver_at_least(r)
  if r.driver_branch then
    return ("an r%s driver or newer (%s or newer is known to run it)"):format(r.driver_branch, r.driver_min)
  end
  if r.driver_min and r.driver_min_bound then
    return ("driver %s or newer (known to run CUDA %s; the minimum may be older)"):format(r.driver_min, r.version)
  end
  return r.driver_min and ("driver %s or newer"):format(r.driver_min)
    or ("the driver CUDA %s asks for (its minimum is not in ptbuild's data: NVIDIA's release notes, Table 3)"):format(r.version)
end

-- The least driver minor-version compatibility runs release r with, as
-- a version one can install: r.compat_min where that is one (12.x
-- 525.60.13, 11.x 450.80.02 [rn-t2]); where NVIDIA's table names a
-- branch alone (13.x ">= 580" [rn-t2]), the least driver of that branch
-- Table 3 lists, the one of the first CUDA of the branch (13.0's
-- 580.65.06 [rn-t3]): "580" is no driver to install.  driver_runs takes
-- any driver of the branch all the same.  A bound (driver_min_bound) is
-- no least driver, and counts for none; nil when the data has no floor.
function M.compat_floor(r)
  local m = r.compat_min
  if not m or m:find(".", 1, true) then return m end
  local least
  for _, v in ipairs(A.known_versions()) do
    local x = A.release(v)
    local d = x and not x.driver_min_bound and x.driver_min
    if d and d:match("^(%d+)%.") == m and (not least or A.vcmp(d, least) < 0) then least = d end
  end
  return least or m
end

-- What release r asks of a driver, for messages: its own (driver_need),
-- and minor-version compatibility's floor where that is older.
function M.driver_need_compat(r)
  local floor = M.compat_floor(r)
  if not floor or (r.driver_min and A.vcmp(floor, r.driver_min) >= 0) then return M.driver_need(r) end
  return ("%s, or %s through minor-version compatibility"):format(M.driver_need(r), floor)
end

-- The least driver that runs release r on this machine, when it is older
-- than r's own minimum (Table 3): minor-version compatibility's floor
-- (compat_floor, Table 2), raised to the driver of the first CUDA that
-- builds each GPU (a driver older than a GPU runs nothing on it,
-- driver_predates).  A driver of 580 runs CUDA 13.2 on an RTX PRO 6000
-- Blackwell (first built by 12.8, whose driver is 570.26) though 13.2's
-- own is 595.45.04; 570.26 runs 12.9 there, not 525.60.13.  nil when
-- only r's own driver (or one of its branch: 13.0's 580.65.06) runs it
-- here, or the data lacks either minimum.
function M.compat_driver(facts, r)
  local least = M.compat_floor(r)
  if not (least and r.driver_min) then return nil end
  local oldest = A.known_versions()[1]
  for _, g in ipairs((facts or {}).gpus or {}) do
    local cc = type(g) == "table" and g.compute_capability
    local first = type(cc) == "string" and A.span(cc, "")
    local fr = first and first ~= oldest and A.release(first)
    if fr and fr.driver_min and A.vcmp(fr.driver_min, least) > 0 then least = fr.driver_min end
  end
  -- one of r's own branch is r's own driver, whatever its minor
  if A.vcmp(least, r.driver_min) >= 0 or least:match("^%d+") == r.driver_min:match("^%d+") then return nil end
  return least
end

-- The least driver upgrade that runs release r on this machine, as a
-- phrase, least first: through minor-version compatibility where that
-- opens r with an older driver than its own (compat_driver), then r's
-- own minimum; else driver_at_least.  jit: the GPUs (names) that would
-- run r's code only by JIT-compiling its PTX (an installed torch with no
-- SASS for them), which minor-version compatibility cannot do: then r's
-- own driver, saying why the lesser one is not enough.
function M.driver_least(facts, r, jit)
  local compat = M.compat_driver(facts, r)
  if not compat then return M.driver_at_least(r) end
  if jit and #jit > 0 then
    return ("%s (driver %s runs CUDA %s through minor-version compatibility, but cannot JIT-compile its PTX, which the %s runs)"):format(
      M.driver_at_least(r), compat, r.version, table.concat(jit, ", the "))
  end
  return ("driver %s or newer, the least that runs CUDA %s (through minor-version compatibility, without PTX JIT; %s runs it directly)"):format(
    compat, r.version, M.driver_at_least(r))
end

-- The name release r gives a GPU of capability cc: Jetson Thor is sm_101
-- before CUDA 13 and sm_110 from 13.0 (data/archs.lua renamed/was).
function M.gpu_arch(cc, r)
  local a = archs[cc]
  if a and a.renamed and a.last and A.vcmp(r.version, a.last) > 0 then return a.renamed end
  if a and a.was and a.first and A.vcmp(r.version, a.first) < 0 then return a.was end
  return cc
end

function M.builds_gpu(r, cc)
  return A.builds(r, M.gpu_arch(cc, r), "")
end

-- The Jetson GPU's capability: from gpus[], else from the module name.
function M.jetson_cc(facts)
  local g = facts.gpus and facts.gpus[1]
  if g and g.compute_capability then return g.compute_capability end
  local mod = facts.jetson and facts.jetson.module
  if type(mod) == "string" then
    local low = mod:lower()
    for _, m in ipairs(jetson.modules) do
      if low:find(m.match, 1, true) then return m.cc end
    end
  end
  return nil
end

-- The module row of a Jetson (data/jetson.lua modules), by its GPU's
-- capability (jetson_cc; Thor also by its CUDA 12 one, 10.1): the first
-- that matches, or nil.
function M.jetson_module(facts)
  local cc = M.jetson_cc(facts)
  if not cc then return nil end
  for _, m in ipairs(jetson.modules) do
    if cc == m.cc or cc == m.cc_cuda12 then return m end
  end
  return nil
end

-- The first CUDA that builds for this Jetson's module on any JetPack it
-- runs (data/jetson.lua cuda_min: Jetson Thor, 13.0 [thor-cuda13]) and
-- the module's name; nil when none is set or this is no Jetson.
function M.jetson_cuda_min(facts)
  if ((facts or {}).host or {}).platform ~= "jetson" then return nil end
  local m = M.jetson_module(facts)
  if m and m.cuda_min then return m.cuda_min, m.name end
  return nil
end

-- NVIDIA platform key and installer for release r on this host
-- (anchors-cuda-install.md section 8): x86_64 -> linux-x86_64; ARM server
-- -> linux-sbsa; Jetson: Orin and older use JetPack (linux-aarch64) before
-- CUDA 13, Thor and every CUDA 13 use the SBSA toolkit.
function M.platform(facts, r)
  local host = facts.host or {}
  if host.arch == "x86_64" then return "linux-x86_64", "redist" end
  if host.platform == "jetson" then
    local cc = M.jetson_cc(facts)
    local thor = cc and (cc == "11.0" or cc == "10.1")
    if thor or A.vcmp(r.version, "13.0") >= 0 then return "linux-sbsa", "redist" end
    return "linux-aarch64", "jetpack"
  end
  return "linux-sbsa", "redist"
end

-- Platform of an installed toolkit from its targets/ directory name (facts
-- toolkits[].target, e.g. "sbsa-linux") or an explicit platform key.
local target_platform = { ["x86_64-linux"] = "linux-x86_64", ["sbsa-linux"] = "linux-sbsa",
                          ["aarch64-linux"] = "linux-aarch64" }
-- detect writes the host vocabulary (x86_64 | sbsa | jetson) in platform.
local host_platform = { x86_64 = "linux-x86_64", sbsa = "linux-sbsa", jetson = "linux-aarch64" }
function M.toolkit_platform(tk)
  if type(tk.platform) == "string" then return host_platform[tk.platform] or tk.platform end
  return target_platform[tk.target or ""]
end

-- The newest release data/cuda.lua lists: where ptbuild's tables stop.
function M.tables_end()
  local last
  for _, r in ipairs(cuda.releases) do
    if not last or A.vcmp(r.version, last) > 0 then last = r.version end
  end
  return last
end

-- An installed toolkit of a release data/cuda.lua does not list (newer
-- than its tables: 13.6, 14.0), as its own nvcc answered (detect's
-- tk.gpu_list): the newest release the tables hold of its major (else
-- the newest of all) judged by that answer (A.judged_release: the GPU
-- code is nvcc's; the a/f variants, which nvcc 13 does not list, that
-- release's of what nvcc builds), renamed, with unknown = true and only
-- what ptbuild can still state: no driver minimum; the minor-version
-- compatibility floor of its major (one per major, Table 2 [rn-t2]:
-- compat_from names the release it is read from), none for a major the
-- tables lack; the gcc limit of its own host_config.h (tk.gcc_max) or
-- none; no clang limit; the toolkit's own platform.  nil for a release
-- the tables list, or a toolkit whose nvcc gave no list.
function M.unknown_release(tk)
  local minor = type(tk) == "table" and A.cuda_minor(tk.version)
  if not minor or A.release(minor) then return nil end
  local g = tk.gpu_list
  if not (type(g) == "table" and type(g.code) == "table" and type(g.arch) == "table") then return nil end
  local major, newest, same = minor:match("^%d+"), nil, nil
  for _, r in ipairs(cuda.releases) do
    if not newest or A.vcmp(r.version, newest.version) > 0 then newest = r end
    if r.version:match("^%d+") == major and (not same or A.vcmp(r.version, same.version) > 0) then same = r end
  end
  local r = A.judged_release(same or newest, tk)
  r.version, r.unknown, r.tables_end = minor, true, M.tables_end()
  r.driver_min, r.driver_branch, r.driver_min_bound, r.compilers_assumed = nil, nil, nil, nil
  r.compat_min = same and same.compat_min or nil
  r.compat_from = same and same.version or nil
  r.gcc_max, r.clang_max = tonumber(tk.gcc_max), nil
  r.platforms = { M.toolkit_platform(tk) }
  return r
end

-- The release of installed toolkit tk, as plan and doctor judge it: as
-- its own nvcc lists its GPUs where detect asked it (its release's list
-- has no source: A.judged_release; a release newer than the tables:
-- unknown_release), else ptbuild's; nil for none of these.
function M.release_of(tk)
  return A.judged_release(A.release(tk.version), tk) or M.unknown_release(tk)
end

-- Installed toolkits, newest first (ties by root), with their release
-- (release_of).
function M.installed(facts)
  local out = {}
  for _, tk in ipairs(facts.toolkits or {}) do
    if tk.version and tk.root then
      out[#out + 1] = { tk = tk, release = M.release_of(tk), minor = A.cuda_minor(tk.version) }
    end
  end
  table.sort(out, function(x, y)
    local c = A.vcmp(x.tk.version, y.tk.version)
    if c ~= 0 then return c > 0 end
    return x.tk.root < y.tk.root
  end)
  return out
end

-- Orin-class Jetsons reach the SBSA toolkit only from CUDA 13.2 with
-- JetPack 7.2 (L4T r39) [data/jetson.lua]; true when that is not met.
function M.orin_sbsa_blocked(facts, r)
  local cc = M.jetson_cc(facts)
  if not cc or A.vcmp(cc, "10.1") >= 0 then return false end
  if A.vcmp(r.version, jetson.sbsa_min_cc.from13_minor) < 0 then return true end
  local l4t = facts.jetson and facts.jetson.l4t
  return l4t ~= nil and A.vcmp(l4t, "39") < 0
end

-- The first CUDA release whose headers live with a glibc of
-- data/cuda.lua's glibc.max.below or newer: the one after max.upto.
function M.glibc_fixed_in()
  local first
  for _, r in ipairs(cuda.releases) do
    if A.vcmp(r.version, cuda.glibc.max.upto) > 0 and (not first or A.vcmp(r.version, first) < 0) then
      first = r.version
    end
  end
  return first
end

-- Can the toolkit's binaries and headers live with the host's glibc?
-- (data/cuda.lua glibc: min.version from min.since; max.below and newer
-- only after max.upto)
function M.glibc_ok(facts, r)
  local g = facts.host and facts.host.glibc
  if not g then return true end
  if A.vcmp(r.version, cuda.glibc.min.since) >= 0 and A.vcmp(g, cuda.glibc.min.version) < 0 then
    return false, ("glibc %s is older than CUDA %s needs (%s)"):format(g, r.version, cuda.glibc.min.version)
  end
  if A.vcmp(r.version, cuda.glibc.max.upto) <= 0 and A.vcmp(g, cuda.glibc.max.below) >= 0 then
    return false, ("glibc %s clashes with CUDA %s's headers (fixed in CUDA %s)"):format(g, r.version, M.glibc_fixed_in())
  end
  return true
end

-- Does PyTorch release `torch` build with CUDA release r?  What it ships
-- wheels for (torch.cuda) is one thing, what its build accepts another:
-- its CMake (cmake/public/cuda.cmake) stops below a minimum -- 2.14.1:
-- "PyTorch requires CUDA 12.6 or above" -- and names no maximum; a CUDA
-- major newer than every wheel's is one its sources were never ported to
-- (CUDA 13 removed APIs that 12-era releases use).  The minimum is the
-- data's (torch.cuda_build_min, where a source shows it [pt-cudamin]).
-- Returns "wheels", "untested" (it builds, upstream ships and tests no
-- wheel for it) or nil, why not, and whether a source says so: a CUDA
-- below the oldest wheel CUDA of a release whose minimum was not read is
-- nil (no plan chooses it) with "unknown", and no problem calls it
-- refused.
function M.torch_builds(torch, r)
  if contains(torch.cuda, r.version) then return "wheels" end
  local lo, oldest, hi = torch.cuda_build_min, torch.cuda[1], torch.cuda[#torch.cuda]
  if lo and A.vcmp(r.version, lo) < 0 then
    return nil, ("its build needs CUDA %s or newer"):format(lo), "known"
  end
  if tonumber(r.version:match("^%d+")) > tonumber(hi:match("^%d+")) then
    return nil, ("it predates CUDA %s (its newest CUDA is %s)"):format(r.version:match("^%d+"), hi), "known"
  end
  if not lo and A.vcmp(r.version, oldest) < 0 then
    return nil, ("CUDA %s is older than its oldest wheel CUDA (%s), and ptbuild knows no source for the oldest CUDA its CMake accepts"):format(r.version, oldest), "unknown"
  end
  return "untested"
end

-- Does release r build every item of an arch list (parsed; nil: none)?
function M.builds_items(r, items)
  for _, it in ipairs(items or {}) do
    if not A.builds(r, it.cc, it.suffix or "") then
      return false, ("CUDA %s does not build %s%s from the arch list"):format(r.version, it.cc, it.suffix or "")
    end
  end
  return true
end

-- A GPU the driver predates: the first CUDA that builds it is newer than
-- the newest CUDA the driver runs (facts driver.cuda_max).  A driver
-- knows only the GPUs of its own CUDA release and before (the driver each
-- toolkit ships "supports all the features introduced in that version",
-- NVIDIA's CUDA Compatibility guide [S_COMPAT]), and minor-version
-- compatibility lends a newer toolkit to it, not a newer GPU: an RTX PRO
-- 6000 Blackwell (12.0, first built by CUDA 12.8) on driver 535 (12.2)
-- runs nothing until the driver is upgraded.  A GPU older than the
-- oldest CUDA known here is not judged (its first CUDA is unknown), nor
-- a Jetson's (its driver is the L4T's).  Returns the GPU and that first
-- CUDA's version, or nil.
function M.driver_predates(facts)
  local d = facts.driver
  if type(d) ~= "table" or type(d.cuda_max) ~= "string" then return nil end
  if (facts.host or {}).platform == "jetson" then return nil end
  local oldest = A.known_versions()[1]
  for _, g in ipairs(facts.gpus or {}) do
    local cc = g.compute_capability
    if type(cc) == "string" then
      local first = A.span(cc, "")
      if first and first ~= oldest and A.vcmp(first, d.cuda_max) > 0 then return g, first end
    end
  end
  return nil
end

-- What driver_predates found, in words: "driver D (CUDA M at most)
-- predates the GPU (compute capability C, first built by CUDA F)".
function M.predates_text(facts, g, first)
  return ("driver %s (CUDA %s at most) predates the %s (compute capability %s, first built by CUDA %s)"):format(
    facts.driver.version, facts.driver.cuda_max, g.name or "GPU", g.compute_capability, first)
end

-- What to install where driver_predates found a GPU newer than the
-- driver (first: the first CUDA that builds it) and CUDA r is the one to
-- run (nil: none chosen or installed): the least driver that runs r here
-- when r is newer than first (driver_least, which is raised to first's
-- driver), else first's own driver.  One answer for plan and doctor: an
-- RTX PRO 6000 on driver 535 with CUDA 13.2 needs 580, not 12.8's 570.26.
function M.predates_fix(facts, first, r)
  if r and r.version and A.vcmp(r.version, first) > 0 then
    return ("install %s"):format(M.driver_least(facts, r))
  end
  return ("install %s: the driver of CUDA %s, the first CUDA that builds this GPU"):format(
    M.driver_at_least(A.release(first)), first)
end

-- The L4T majors data/l4t.lua names a JetPack for: those whose module
-- line-up data/jetson.lua states (modules[].l4t).
local judged_l4t = {}
for l4t in pairs(L4T.jetpack) do judged_l4t[l4t:match("^(%d+)")] = true end

-- A Jetson whose L4T names a JetPack its module has no release of
-- (data/jetson.lua modules[].l4t [jetson-lineup]): a Jetson Thor on L4T
-- 36 (JetPack 6), an Orin on L4T 38 (JetPack 7.0, 7.1).  Such facts
-- cannot both be true, and ptbuild cannot tell which is wrong, so it
-- takes no JetPack from them (M.jetpack).  nil, or { module (as the facts
-- name it, else the family), family, cc, l4t, jetpack, runs (the L4T
-- majors the module has, oldest first) }.  An L4T major whose line-up
-- ptbuild does not know (37, 40) is not judged.
function M.jetson_mismatch(facts)
  if ((facts or {}).host or {}).platform ~= "jetson" then return nil end
  local l4t = facts.jetson and facts.jetson.l4t
  local major = type(l4t) == "string" and l4t:match("^(%d+)%.")
  local jp = type(l4t) == "string" and L4T.jetpack[l4t]
  if not (major and jp and judged_l4t[major]) then return nil end
  local m = M.jetson_module(facts)
  if not m or not m.l4t or contains(m.l4t, major) then return nil end
  local mod = facts.jetson.module
  return { module = type(mod) == "string" and mod or m.name, family = m.name, cc = M.jetson_cc(facts),
           l4t = l4t, jetpack = jp, runs = m.l4t }
end

-- The JetPack of a Jetson's facts (data/l4t.lua, by its L4T) and the
-- CUDA that JetPack ships, or nil when the L4T is not one ptbuild knows,
-- or names a JetPack the module has none of (M.jetson_mismatch: nothing
-- is planned on either guess).
function M.jetpack(facts)
  local l4t = facts.jetson and facts.jetson.l4t
  local jp = type(l4t) == "string" and L4T.jetpack[l4t]
  if not jp or M.jetson_mismatch(facts) then return nil end
  return jp, L4T.cuda[jp:match("^(%d+%.%d+)")]
end

-- The Ubuntu release of a Jetson: its os-release, else (no os-release
-- read) the one its L4T release is built on (data/l4t.lua ubuntu); nil
-- for another distribution.
local function jetson_ubuntu(facts)
  local os = (facts.host or {}).os
  if type(os) == "table" then
    return os.id == "ubuntu" and type(os.version_id) == "string" and os.version_id or nil, os
  end
  local l4t = facts.jetson and facts.jetson.l4t
  return type(l4t) == "string" and L4T.ubuntu[l4t:match("^(%d+)")] or nil
end

-- How a Jetson gets JetPack-era (linux-aarch64) CUDA release r: "jetpack"
-- when the JetPack of its L4T ships r (data/l4t.lua), else the name of
-- NVIDIA's Jetson local-repo .deb for its Ubuntu release (data/cuda.lua
-- jetson_debs: 20.04 for JetPack 5, 22.04 for JetPack 6).  "jetpack" too
-- when the JetPack is not known (a fact missing is no refusal).  Else nil,
-- why, and which: "ubuntu" (the .debs of r are for another Ubuntu
-- release: the JetPack 5 of an Ubuntu 20.04 Jetson has no CUDA 12.6),
-- "served" (NVIDIA's upgrade package serves no CUDA r on this JetPack
-- [tegra-upgrade]: CUDA 12.3 on JetPack 6, anything on JetPack 4) or
-- "unnamed" (NVIDIA may publish one, ptbuild names none: a plan of it
-- could not be carried out).
function M.jetson_source(facts, r)
  local jp, own = M.jetpack(facts)
  if not jp or own == r.version then return "jetpack" end
  local debs = (cuda.updates[r.version] or {}).jetson_debs
  local ubuntu, os = jetson_ubuntu(facts)
  if debs and ubuntu and debs[ubuntu] and jetson.upgrade_serves(jp, r.version) then return debs[ubuntu] end
  local have = {}
  for k in pairs(debs or {}) do if k ~= "label" then have[#have + 1] = k end end
  table.sort(have)
  if not ubuntu then
    return nil, ("NVIDIA's Jetson packages of CUDA are for Ubuntu, and this JetPack %s Jetson runs %s %s"):format(
      jp, tostring(os and os.id or "?"), tostring(os and os.version_id or "")), "ubuntu"
  end
  if #have > 0 and not debs[ubuntu] then
    return nil, ("NVIDIA's Jetson packages of CUDA %s are for Ubuntu %s, not this JetPack %s Ubuntu %s"):format(
      r.version, table.concat(have, ", "), jp, ubuntu), "ubuntu"
  end
  if not jetson.upgrade_serves(jp, r.version) then
    local list = jetson.upgrade.serves[jp:match("^(%d+)")]
    return nil, list and ("NVIDIA's CUDA upgrade for JetPack %s serves CUDA %s, not %s"):format(
        jp:match("^(%d+)"), table.concat(list, ", "), r.version)
      or ("NVIDIA's CUDA upgrade for Jetson serves no CUDA %s on JetPack %s"):format(r.version, jp), "served"
  end
  return nil, ("ptbuild names no NVIDIA Jetson package of CUDA %s for Ubuntu %s (JetPack %s)"):format(
    r.version, ubuntu, jp), "unnamed"
end

-- Whether this Jetson's module has a JetPack on the Ubuntu release that
-- NVIDIA's Jetson packages of CUDA r are for (data/cuda.lua jetson_debs,
-- the module's L4T majors in data/jetson.lua, their Ubuntu in
-- data/l4t.lua): true when it has; false, the Ubuntu releases the
-- packages are for, the module's name and its L4T majors when it has
-- none (a Xavier and CUDA 12.6: 22.04 is JetPack 6's, and the Xavier
-- stops at JetPack 5); nil when the module or the packages are unknown.
function M.jetson_flash_has(facts, r)
  local m = M.jetson_module(facts)
  local debs = (cuda.updates[r.version] or {}).jetson_debs
  if not m or not debs then return nil end
  local want = {}
  for k in pairs(debs) do if k ~= "label" then want[#want + 1] = k end end
  table.sort(want)
  for _, major in ipairs(m.l4t or {}) do
    if L4T.ubuntu[major] and debs[L4T.ubuntu[major]] then return true end
  end
  return false, want, m.name, m.l4t
end

-- NVIDIA's CUDA upgrade package a Jetson needs to run release r from the
-- toolkit at root (data/jetson.lua upgrade [tegra-upgrade]): when r is
-- newer than the CUDA its JetPack ships, the JetPack's driver runs r's
-- programs only with the package's libcuda: cuda-compat-X-Y in
-- root/compat on the linux-aarch64 toolkit; on the SBSA toolkit of
-- JetPack 7.2, the package the note names for r (Orin's own in
-- root/compat_orin).  Returns { package, dir } or nil: no Jetson, a CUDA
-- no newer than the JetPack's, a JetPack ptbuild does not know, or an
-- SBSA CUDA no package of which is named for this JetPack.
function M.jetson_upgrade(facts, r, platform, root)
  if ((facts or {}).host or {}).platform ~= "jetson" then return nil end
  local jp, own = M.jetpack(facts)
  if not own or A.vcmp(r.version, own) <= 0 then return nil end
  root = root or ("/usr/local/cuda-" .. r.version)
  if platform == "linux-aarch64" then
    -- only a CUDA NVIDIA's table serves on this JetPack has one (none
    -- before JetPack 5; never 12.3 on JetPack 6)
    if not jetson.upgrade_serves(jp, r.version) then return nil end
    local maj, min = r.version:match("^(%d+)%.(%d+)")
    return { package = jetson.upgrade.package:format(tonumber(maj), tonumber(min)),
             dir = root .. "/" .. jetson.upgrade.dir }
  end
  local row = platform == "linux-sbsa" and jetson.upgrade.sbsa[r.version]
  if not row or jp:match("^(%d+%.%d+)") ~= row.jetpack then return nil end
  local cc = M.jetson_cc(facts)
  local p = cc and A.vcmp(cc, "10.1") >= 0 and row.thor or row.orin
  return { package = p.package, dir = root .. "/" .. p.dir }
end

-- A Jetson whose JetPack runs release r, newer than its own CUDA, only
-- through an NVIDIA upgrade package ptbuild names none of (NVIDIA's table
-- serves 13.3 on JetPack 7.2, but no source read names its package): the
-- JetPack and its own CUDA, or nil.  Its driver comes with the JetPack,
-- so a newer driver is no way out; the package is.
function M.jetson_upgrade_unnamed(facts, r)
  if ((facts or {}).host or {}).platform ~= "jetson" then return nil end
  local jp, own = M.jetpack(facts)
  if not own or A.vcmp(r.version, own) <= 0 then return nil end
  -- on the linux-aarch64 toolkit every CUDA the table serves has its
  -- package named (jetson_upgrade), and jetson_source refuses the rest:
  -- only an SBSA CUDA can be served and unnamed
  local platform = M.platform(facts, r)
  if platform ~= "linux-sbsa" or M.jetson_upgrade(facts, r, platform) or not M.jetson_sbsa_runs(facts, r) then
    return nil
  end
  return jp, own
end

-- The CUDAs a Jetson's JetPack runs with nothing ptbuild cannot name:
-- its own, and each newer one whose upgrade package ptbuild names
-- (jetpack_runs "upgrade-package": 13.4 on JetPack 7.2, not 13.3),
-- oldest first; {} when the JetPack is not one ptbuild knows.  What a
-- fix offers in place of a CUDA served only by a package it names none
-- of.
function M.jetson_named(facts)
  local _, own = M.jetpack(facts)
  if not own then return {} end
  local out = { own }
  for _, v in ipairs(A.known_versions()) do
    if A.vcmp(v, own) > 0 and M.jetpack_runs(facts, A.release(v)) == "upgrade-package" then out[#out + 1] = v end
  end
  return out
end

-- The words for M.jetson_upgrade_unnamed's case, in plan and doctor alike.
function M.jetson_unnamed_text(jp, own, r)
  return ("JetPack %s's driver is CUDA %s's: programs built with CUDA %s run on it only with NVIDIA's CUDA %s upgrade package for Jetson, which ptbuild names none of; a newer driver is no way out, as a Jetson's driver comes with its JetPack"):format(
    jp, own, r.version, r.version)
end

-- Does this Jetson's JetPack run SBSA CUDA release r (data/jetson.lua
-- upgrade.sbsa_serves [tegra-upgrade])?  true when it does or when
-- nothing is known: no Jetson, a JetPack-era (linux-aarch64) CUDA, a
-- JetPack ptbuild does not know, a CUDA no newer than the JetPack's own
-- or past what NVIDIA's table judges.  Else false, the JetPack, its own
-- CUDA, and the JetPacks NVIDIA's table says run r, oldest first (maybe
-- none): Jetson Thor on JetPack 7.0 or 7.1 runs CUDA 13.0 alone.
function M.jetson_sbsa_runs(facts, r)
  if ((facts or {}).host or {}).platform ~= "jetson" or M.platform(facts, r) ~= "linux-sbsa" then return true end
  local jp, own = M.jetpack(facts)
  if not own or A.vcmp(r.version, own) <= 0 then return true end
  local rows = jetson.upgrade.sbsa_serves
  local row = rows[jp:match("^(%d+%.%d+)")]
  if not row or contains(row.serves, r.version) or (row.upto and A.vcmp(r.version, row.upto) > 0) then
    return true
  end
  local ok = {}
  for k, x in pairs(rows) do
    if L4T.cuda[k] == r.version or contains(x.serves, r.version) then ok[#ok + 1] = k end
  end
  table.sort(ok, function(x, y) return A.vcmp(x, y) < 0 end)
  return false, jp, own, ok
end

-- How a Jetson runs release r, as its JetPack decides [tegra-upgrade]:
-- its driver comes with the JetPack, so neither minor-version
-- compatibility nor a driver install applies.  The same answer as
-- lib/checks.lua jetson_runs (which words it), with the module's own
-- floor (jetson_cuda_min) and an Orin's SBSA bar (orin_sbsa_blocked)
-- first.  nil when not a Jetson, when its JetPack is not one ptbuild
-- knows, or when the driver its facts carry runs less than the JetPack's
-- own CUDA (facts that disagree: the driver seen stands); else
--   "direct": r is no newer than the JetPack's own CUDA;
--   "upgrade-package", { package, dir }: through NVIDIA's upgrade
--     package (jetson_upgrade; root: the toolkit's, for dir);
--   "upgrade-package-unnamed": through one ptbuild names none of;
--   "no": the module or the JetPack runs no CUDA r.
function M.jetpack_runs(facts, r, root)
  if ((facts or {}).host or {}).platform ~= "jetson" then return nil end
  local need = M.jetson_cuda_min(facts)
  if need and A.vcmp(r.version, need) < 0 then return "no" end
  local _, own = M.jetpack(facts)
  if not own then return nil end
  if A.vcmp(r.version, own) <= 0 then
    local d = M.driver_runs(r, facts.driver)
    return (d == "direct" or d == "unknown") and "direct" or nil
  end
  local platform = M.platform(facts, r)
  if not M.jetson_sbsa_runs(facts, r) or (platform == "linux-sbsa" and M.orin_sbsa_blocked(facts, r)) then
    return "no"
  end
  local up = M.jetson_upgrade(facts, r, platform, root)
  if up then return "upgrade-package", up end
  if M.jetson_upgrade_unnamed(facts, r) then return "upgrade-package-unnamed" end
  return "no"
end

-- How a machine runs release r: its JetPack's answer on a Jetson whose
-- JetPack ptbuild knows (jetpack_runs), else its driver's (driver_runs:
-- "direct", "compat", "unknown", nil).  A second result as jetpack_runs
-- gives it.
function M.runs(facts, r)
  local how, up = M.jetpack_runs(facts, r)
  if how then return how, up end
  return M.driver_runs(r, facts.driver)
end

-- What a machine needs beyond itself to run release r, as a phrase, when
-- M.runs says it runs r but not directly: "minor-version compatibility"
-- (a driver older than r's, without PTX JIT), or on a Jetson, whose
-- driver comes with its JetPack, the upgrade package its JetPack takes
-- ("NVIDIA's upgrade package cuda-compat-12-9 (JetPack 6.2, CUDA 12.6)",
-- or one ptbuild names none of).  The second result: whether a choice
-- should prefer a release the machine runs without it -- for minor-
-- version compatibility (no PTX JIT) and for a package ptbuild cannot
-- name (its plan warns of either), not for a named package, which gives
-- the JetPack r's own driver library and which the plan's environment
-- loads (cuda.compat).  nil when it runs r directly, cannot run it, or
-- nothing is known.
function M.runs_need(facts, r)
  local how, up = M.runs(facts, r)
  if how == "compat" then return "minor-version compatibility", true end
  if how ~= "upgrade-package" and how ~= "upgrade-package-unnamed" then return nil end
  local jp, own = M.jetpack(facts)
  if how == "upgrade-package" then
    return ("NVIDIA's upgrade package %s (JetPack %s, CUDA %s)"):format(up.package, jp, own), false
  end
  return ("an NVIDIA upgrade package ptbuild names none of (JetPack %s, CUDA %s)"):format(jp, own), true
end

-- Does release r suit the torch release, the driver, every GPU, the arch
-- list asked for (items, may be nil) and the platform?  Returns true, or
-- false and the first reason.
function M.fits(facts, torch, r, tk, items)
  local builds, why_not = M.torch_builds(torch, r)
  if not builds then
    return false, ("PyTorch %s does not build with CUDA %s: %s"):format(torch.version, r.version, why_not)
  end
  if not M.driver_runs(r, facts.driver) then
    return false, ("driver %s cannot run CUDA %s"):format(facts.driver.version, r.version)
  end
  local old_for = M.driver_predates(facts)
  if old_for then
    return false, ("driver %s predates the %s"):format(facts.driver.version, old_for.name or "GPU")
  end
  for _, g in ipairs(facts.gpus or {}) do
    if g.compute_capability and not M.builds_gpu(r, g.compute_capability) then
      return false, ("CUDA %s does not build for %s (%s)"):format(r.version, g.name or "GPU", g.compute_capability)
    end
  end
  local ok_items, why_items = M.builds_items(r, items)
  if not ok_items then return false, why_items end
  local ok_glibc, why_glibc = M.glibc_ok(facts, r)
  if not ok_glibc then return false, why_glibc end
  local jmin, jname = M.jetson_cuda_min(facts)
  if jmin and A.vcmp(r.version, jmin) < 0 then
    return false, ("%s needs CUDA %s or newer"):format(jname, jmin)
  end
  local jruns, jp, own = M.jetson_sbsa_runs(facts, r)
  if not jruns then
    return false, ("JetPack %s runs CUDA %s, not %s"):format(jp, own, r.version)
  end
  local plat = M.platform(facts, r)
  if tk then
    local tp = M.toolkit_platform(tk)
    if tp and tp ~= plat then
      return false, ("the toolkit in %s is a %s build; this machine needs %s"):format(tk.root, tp, plat)
    end
  elseif not contains(r.platforms, plat) then
    return false, ("CUDA %s has no %s toolkit"):format(r.version, plat)
  elseif plat == "linux-aarch64" and facts.host.platform == "jetson" then
    local src, why = M.jetson_source(facts, r)
    if not src then return false, why end
  end
  if plat == "linux-sbsa" and facts.host.platform == "jetson" then
    local cc = M.jetson_cc(facts)
    if M.orin_sbsa_blocked(facts, r) then
      return false, ("Jetson %s joins the SBSA toolkit only with CUDA %s and JetPack 7.2 (L4T 39)"):format(cc, jetson.sbsa_min_cc.from13_minor)
    end
  end
  return true
end

-- The CUDA releases worth downloading for `torch`, best first: those it
-- ships wheels for, newest first, then the other releases its build
-- accepts (untested upstream), newest first.
function M.candidates(torch)
  local wheels, other = {}, {}
  for _, v in ipairs(A.known_versions()) do
    local r = A.release(v)
    local b = r and M.torch_builds(torch, r)
    if b == "wheels" then wheels[#wheels + 1] = r elseif b then other[#other + 1] = r end
  end
  local newest = function(x, y) return A.vcmp(x.version, y.version) > 0 end
  table.sort(wheels, newest)
  table.sort(other, newest)
  return wheels, other
end

-- The newest release of `list` that fits.  A release whose data is
-- assumed (data/cuda.lua `assumed`: its GPU list and limits copied from
-- the one before) gives way to the newest of the same major whose data
-- is known, that fits and that the driver runs as well.  Then, when the
-- driver runs the one taken only through minor-version compatibility,
-- the newest of the same major that it runs directly instead (no PTX-JIT
-- limits; never a major down).  On a Jetson its JetPack says how it runs
-- a release (M.runs): a CUDA newer than the JetPack's own runs through an
-- upgrade package, which the reason names; one ptbuild names none of
-- gives way as minor-version compatibility does (M.runs_need).  Returns
-- release, how (text) or nil.
local function best_of(facts, torch, list, items)
  local best, assumed
  for _, r in ipairs(list) do
    if M.fits(facts, torch, r, nil, items) then best = r; break end
  end
  if not best then return nil end
  local major = best.version:match("^(%d+)")
  if best.assumed then
    local runs = M.runs(facts, best)
    for _, r in ipairs(list) do
      if not r.assumed and r.version:match("^(%d+)") == major and M.fits(facts, torch, r, nil, items)
          and (runs ~= "direct" or M.runs(facts, r) == "direct") then
        assumed = (" (CUDA %s, newer, would be planned on data ptbuild assumes from %s)"):format(
          best.version, A.release_before(best) or r.version)
        best = r
        break
      end
    end
  end
  local need, prefer_other = M.runs_need(facts, best)
  if not need then return best, assumed or "" end
  if not prefer_other then return best, (" (through %s)"):format(need) .. (assumed or "") end
  for _, r in ipairs(list) do
    if r.version:match("^(%d+)") == major and not r.assumed and M.fits(facts, torch, r, nil, items)
        and not select(2, M.runs_need(facts, r)) and M.runs(facts, r) ~= "unknown" then
      return r, (" directly (CUDA %s would need %s)"):format(best.version, need) .. (assumed or "")
    end
  end
  return best, assumed and (" through " .. need .. assumed) or (" (through %s)"):format(need)
end

-- A CUDA to propose instead of r (in a problem's fix): of the releases
-- PyTorch ships wheels for that fit this machine and arch list (never one
-- the driver cannot run), the one closest to r -- within r's major when
-- the release tested one there, since a major brings its own cuDNN and
-- library variants; else across majors -- taking the newest not newer
-- than r, else the oldest newer one; nil when there is none or it is r.
local function closest(list, r)
  local below, above
  for _, c in ipairs(list) do   -- newest first
    if A.vcmp(c.version, r.version) < 0 then below = below or c else above = c end
  end
  return below or above
end

function M.suggest(facts, torch, r, items)
  local fit, same = {}, {}
  local major = r.version:match("^(%d+)")
  for _, c in ipairs((M.candidates(torch))) do   -- newest first
    if M.fits(facts, torch, c, nil, items) then
      if c.version == r.version then return nil end
      fit[#fit + 1] = c
      if c.version:match("^(%d+)") == major then same[#same + 1] = c end
    end
  end
  return closest(same, r) or closest(fit, r)
end

-- "every GPU", or when one's compute capability is unknown (it cannot be
-- said to be built) "every GPU whose compute capability is known".
local function every_gpu(facts)
  for _, g in ipairs(facts.gpus or {}) do
    if type(g.compute_capability) ~= "string" then return "every GPU whose compute capability is known" end
  end
  return "every GPU"
end

-- A build host with no driver and no GPU (a container, CI) meets neither
-- test: a choice's reason says so rather than that both were passed.
local function blind(facts)
  return not (facts.driver and facts.driver.version) and #(facts.gpus or {}) == 0
end

-- --cuda X.Y: that release, in the installed toolkit of it when there is one.
local function asked_release(inst, want)
  for _, i in ipairs(inst) do
    if i.minor == want.version then
      return { release = i.release or want, tk = i.tk, why = "--cuda " .. want.version .. ", installed in " .. i.tk.root }
    end
  end
  return { release = want, why = "--cuda " .. want.version }
end

-- Installed toolkits, newest first: one PyTorch ships wheels for, else
-- one its build accepts untested -- either before any download.  Returns
-- the choice, or nil and why each installed one was passed over.
local function installed_release(facts, torch, inst, items)
  local skipped, untested = {}, nil
  for _, i in ipairs(inst) do
    if i.release and not i.release.unknown then
      local ok, why = M.fits(facts, torch, i.release, i.tk, items)
      -- judged by the toolkit's own nvcc (A.judged_release): say so
      local by = i.release.gpu_list_from and (" (GPU list from %s)"):format(i.release.gpu_list_from) or ""
      if ok and M.torch_builds(torch, i.release) == "wheels" then
        return { release = i.release, tk = i.tk, why = "installed in " .. i.tk.root .. " and suits this build" .. by }
      elseif ok then
        untested = untested or i
      else
        skipped[#skipped + 1] = ("%s: %s%s"):format(i.tk.root, why, by)
      end
    end
  end
  if untested then
    return { release = untested.release, tk = untested.tk,
      why = ("installed in %s and suits this build (PyTorch %s's build accepts CUDA %s; download.pytorch.org has no wheel of it)"):format(
        untested.tk.root, torch.version, untested.release.version) }
  end
  return nil, skipped
end

-- A release to download that fits: the newest PyTorch ships wheels for,
-- else the newest other its build accepts; nil when none fits.
local function fitting_release(facts, torch, wheels, other, items, skipped)
  local best, how = best_of(facts, torch, wheels, items)
  local why, every = nil, every_gpu(facts)
  if best then
    why = blind(facts) and ("the newest CUDA that PyTorch %s ships wheels for%s (no driver or GPU seen to judge it by)"):format(torch.version, how)
      or ("the newest CUDA that PyTorch %s ships wheels for, the driver runs%s and that builds %s"):format(torch.version, how, every)
  else
    best, how = best_of(facts, torch, other, items)
    if best then
      why = blind(facts) and ("no CUDA PyTorch %s ships wheels for suits this machine: the newest its build accepts%s (no driver or GPU seen to judge it by)"):format(torch.version, how)
        or ("no CUDA PyTorch %s ships wheels for suits this machine: the newest its build accepts that the driver runs%s and that builds %s"):format(torch.version, how, every)
    end
  end
  if not best then return nil end
  if #skipped > 0 then why = why .. " (installed toolkit not used: " .. table.concat(skipped, "; ") .. ")" end
  return { release = best, why = why }
end

-- Nothing fits: the release whose only problem is one a user can mend or
-- must know of, so that the problems name that one.
local function least_unfit_release(facts, torch, wheels, other, items)
  -- Nothing the driver runs fits: the best release that fits all else
  -- (every GPU, the arch list, glibc, the platform), so that the one
  -- problem left is the driver, which an upgrade mends.
  local nodriver = setmetatable({ driver = false }, { __index = facts })
  local best = best_of(nodriver, torch, wheels, items) or best_of(nodriver, torch, other, items)
  if best and facts.driver then
    return { release = best, why = ("no CUDA this driver runs suits this build: the newest PyTorch %s takes that builds %s (the driver must be upgraded for it)"):format(torch.version, every_gpu(facts)) }
  end
  -- No CUDA builds the GPUs (older than every CUDA ptbuild knows, or
  -- newer): the best the driver runs for the rest, so that the GPUs are
  -- the problem named, not a driver no upgrade would help.
  local nogpu = setmetatable({ gpus = {} }, { __index = facts })
  if facts.gpus and #facts.gpus > 0 then
    local how
    best, how = best_of(nogpu, torch, wheels, items)
    if not best then best, how = best_of(nogpu, torch, other, items) end
    if best then
      return { release = best, why = ("no CUDA PyTorch %s takes builds every GPU: the newest that the driver runs%s"):format(torch.version, how) }
    end
  end
  -- The newest the release supports on this platform; the problems say
  -- why it does not fit.
  for _, r in ipairs(wheels) do
    if contains(r.platforms, M.platform(facts, r)) then
      return { release = r, why = ("no CUDA fits every constraint; the newest PyTorch %s supports"):format(torch.version) }
    end
  end
  return { release = wheels[1] or A.release(torch.cuda[#torch.cuda]), why = "no CUDA fits every constraint" }
end

-- Installed toolkits of a release newer than ptbuild's tables
-- (unknown_release): a plan takes a release it knows over them, and its
-- reason names them (their driver minimum and compiler limits are
-- unknown), unless no release it knows fits and one of them does.
-- Returns the words naming them beside a known choice, and the one that
-- fits with the words for choosing it; nil when there are none.
local function unknown_installed(facts, torch, inst, items)
  local names, first, fit = {}, nil, nil
  for _, i in ipairs(inst) do
    if i.release and i.release.unknown then
      first = first or i
      names[#names + 1] = ("%s (CUDA %s)"):format(i.tk.root, tostring(i.tk.version))
      if not fit and M.fits(facts, torch, i.release, i.tk, items) then fit = i end
    end
  end
  if not first then return nil end
  local tail = ("newer than ptbuild's tables, which stop at CUDA %s: its driver minimum, host compiler limits and PyTorch's support of it are unknown here"):format(M.tables_end())
  local mention = ("installed but not chosen: %s, %s (--cuda %s plans it, judged by its own nvcc's GPU list)"):format(
    table.concat(names, ", "), tail, first.release.version)
  return mention, fit, fit and ("no CUDA ptbuild knows fits this build: installed in %s (CUDA %s), judged by its own nvcc's GPU list (%s), %s"):format(
      fit.tk.root, tostring(fit.tk.version), fit.release.gpu_list_from, tail)
end

-- Choose: an installed toolkit that fits, else the best release PyTorch
-- ships wheels for that fits, else the best other release its build
-- accepts that fits, else the newest it supports.  `want` (a release from
-- --cuda) overrides; `items` is the parsed --arch-list (or nil).
-- Returns { release, tk?, why }.
function M.choose(facts, torch, want, items)
  local inst = M.installed(facts)
  if want then return asked_release(inst, want) end
  local chosen, skipped = installed_release(facts, torch, inst, items)
  local wheels, other = M.candidates(torch)
  chosen = chosen or fitting_release(facts, torch, wheels, other, items, skipped)
  local unknown, u, uwhy = unknown_installed(facts, torch, inst, items)
  if not chosen and u then
    return { release = u.release, tk = u.tk, why = uwhy }
  end
  chosen = chosen or least_unfit_release(facts, torch, wheels, other, items)
  if unknown then chosen.why = chosen.why .. "; " .. unknown end
  return chosen
end

local only13 = { cuda_crt = true, cuda_culibos = true, libnvvm = true }

-- Installer details: downloads (redist files with sha256 from NVIDIA's
-- manifest), the runfile alternative, the manifest URL.
-- The "CUDA Compatibility Package (Orin)" release r ships (data/cuda.lua
-- orin_compat), when this host is an Orin-class Jetson (below Thor's 10.1)
-- taking the SBSA toolkit; nil otherwise, and for a module JetPack 7.2
-- (L4T 39) has no release of (Xavier and older, data/jetson.lua
-- modules[].l4t): the package serves the Orin family alone.
function M.orin_compat(facts, r, platform)
  if platform ~= "linux-sbsa" or not facts or (facts.host or {}).platform ~= "jetson" then return nil end
  local cc = M.jetson_cc(facts)
  if not cc or A.vcmp(cc, "10.1") >= 0 then return nil end
  local m = M.jetson_module(facts)
  if m and m.l4t and not contains(m.l4t, "39") then return nil end
  local c = cuda.orin_compat[r.version]
  return c and { name = "CUDA Compatibility Package (Orin)", version = c.version, label = c.label } or nil
end

-- What a plan says of --cuda asked, when it names an update (X.Y.Z) other
-- than full, the one the plan installs: a release is planned as one
-- update, its last (full_label), so 13.4.1 is answered with 13.4.2, and
-- the reason must say so rather than quote "--cuda 13.4".  An update no
-- table here names (13.4.3) is said to be unknown.  nil when asked is
-- no update or is full.
function M.asked_update(asked, full)
  local v = type(asked) == "string" and asked:match("^%s*(%d+%.%d+%.%d+)%s*$")
  if not v or A.vcmp(v, full) == 0 then return nil end
  local known = runfiles[v] ~= nil or redist.labels[v] ~= nil
  for _, up in pairs(cuda.updates) do if up.label == v then known = true end end
  if known then
    return ("--cuda %s: a plan installs one update of each CUDA release, here %s, not %s"):format(asked, full, v)
  end
  return ("--cuda %s: ptbuild knows no CUDA %s; a plan installs one update of each CUDA release, here %s"):format(asked, v, full)
end

-- The update of release r an installer puts on the machine: the minor's
-- last (12.8.2), but JetPack's local repo may hold an earlier one (its
-- cuda-tegra-repo-...-12-8-local_12.8.1 installs 12.8.1).
function M.full_label(r, installer)
  local up = cuda.updates[r.version] or { label = r.version .. ".0" }
  if installer == "jetpack" and up.jetson_debs and up.jetson_debs.label then return up.jetson_debs.label end
  return up.label
end

-- Where NVIDIA's download tree keeps an installer of release label
-- (a runfile, a Jetson local-repo .deb): .../cuda/<label>/local_installers/.
function M.local_installer_url(label, name)
  return ("https://developer.download.nvidia.com/compute/cuda/%s/local_installers/%s"):format(label, name)
end

-- facts (optional) pick the Jetson local repo of the host's Ubuntu release
-- and the Orin compatibility package.
function M.installer(r, platform, installer, facts)
  local up = cuda.updates[r.version] or { label = r.version .. ".0" }
  local out = {
    full_version = M.full_label(r, installer),
    manifest = redist.base_url .. "redistrib_" .. up.label .. ".json",
    downloads = {}, components = {},
    runfile = ptb.null,
    orin_compat = M.orin_compat(facts, r, platform),
  }
  local rf = (runfiles[up.label] or {})[platform]
  if rf then
    out.runfile = { name = rf.name, sha256 = rf.sha256, md5 = rf.md5, size = rf.size,
      url = M.local_installer_url(up.label, rf.name) }
  end
  if installer == "jetpack" then
    local os = facts and facts.host and facts.host.os
    local ubuntu = type(os) == "table" and os.id == "ubuntu" and os.version_id or nil
    out.jetpack_deb = ubuntu and up.jetson_debs and up.jetson_debs[ubuntu] or ptb.null
    return out
  end
  local lab = redist.labels[up.label]
  local files = lab and lab.platforms[platform]
  if files then
    for _, f in ipairs(files) do
      out.downloads[#out.downloads + 1] = { name = f.name, url = redist.base_url .. f.relative_path,
                                            sha256 = f.sha256, size = f.size }
      out.components[#out.components + 1] = f.name
    end
  else
    -- A label whose manifest tools/data/redist does not hold (none in
    -- data/redist.lua's labels): no file list or sha256 here, so fetch
    -- reads both from NVIDIA's manifest, unpinned, and the plan says so.
    local v13 = A.vcmp(r.version, "13.0") >= 0
    for _, c in ipairs(redist.components) do
      if v13 or not only13[c] then out.components[#out.components + 1] = c end
    end
  end
  return out
end

-- The cuDNN archive that goes with CUDA release r on platform, as a
-- download entry, from the cuDNN releases whose checksums ptbuild carries
-- (data/redist.lua cudnn_releases, newest first): the variant of r's major
-- version ("cuda12", "cuda13") of cuDNN `want` (the version the PyTorch
-- release's own wheel of r uses, data/pytorch.lua wheel_cudnn) when one
-- carried release is that version and has that archive; else of the
-- newest carried manifest that has it.  A release carried from per-archive
-- digests (no manifest_sha256: no source shows NVIDIA's manifest file
-- whole) is taken only as `want`: it is carried for the wheels that use
-- it, and the fallback stays a manifest ptbuild holds whole.  A release
-- without an archive for the platform and variant (9.20.0 has no cuda13
-- one for linux-aarch64) is never chosen.  Returns the entry (without
-- size where no source gave one) and what was chosen: { label,
-- manifest_sha256 (nil for per-archive digests), base_url, sources (the
-- archive's source ids, per-archive digests only) } of the release,
-- `wheel` (want), `chosen` ("wheel" or "newest") and `wheel_carried`
-- (want is a carried release's: "manifest" or "digests", how it is
-- carried; false otherwise) and `newer_digests` (for a "newest" pick:
-- the version of the newest release above it carried only as per-archive
-- digests that has the archive, else nil); nil when no carried cuDNN has
-- the archive (CUDA 11 on linux-aarch64).
function M.cudnn(r, platform, want)
  local variant = "cuda" .. r.version:match("^%d+")
  local function archive(c) return c.platforms[platform] and c.platforms[platform][variant] end
  local pick, chosen
  for _, c in ipairs(redist.cudnn_releases or {}) do
    if want and c.version == want and archive(c) then pick, chosen = c, "wheel" break end
  end
  if not pick then
    for _, c in ipairs(redist.cudnn_releases or {}) do
      if c.manifest_sha256 and archive(c) then pick, chosen = c, "newest" break end
    end
  end
  if not pick then return nil end
  -- want is a carried release's, for another archive: "manifest" (NVIDIA
  -- has no such archive) or "digests" (no source read gives its sha256)
  local carried = false
  for _, c in ipairs(redist.cudnn_releases) do
    if c.version == want then carried = c.manifest_sha256 and "manifest" or "digests" end
  end
  -- the newest release above a "newest" pick that is carried only as
  -- per-archive digests and has the archive: the plan names it, so that
  -- "newest" is not read as "newest ptbuild knows"
  local newer
  if chosen == "newest" then
    for _, c in ipairs(redist.cudnn_releases) do
      if c == pick then break end
      if not c.manifest_sha256 and archive(c) then newer = newer or c.version end
    end
  end
  local e = archive(pick)
  return { name = "cudnn", version = pick.version, url = pick.base_url .. e.relative_path,
           sha256 = e.sha256, size = e.size, variant = variant },
         { label = pick.label, manifest_sha256 = pick.manifest_sha256, base_url = pick.base_url,
           sources = not pick.manifest_sha256 and e.sources or nil,
           wheel = want, chosen = chosen, wheel_carried = carried, newer_digests = newer }
end

return M
