-- checks: the rules that `ptbuild plan` and `ptbuild doctor` both judge a
-- machine by, decided here once so that the two can never disagree.  Each
-- rule answers a question about a CUDA release and the facts; plan.lua and
-- doctor.lua only word the answer (their codes, messages and fixes are
-- their own).  tests/integration/t0131-plan-doctor-agree.sh runs both over
-- every profile and fixture and compares what they raise.
local A = ptb.include("lib/archlist")
local V = ptb.include("lib/version")
local T = ptb.include("lib/toolkit")
local cuda = ptb.include("data/cuda")
local archs = ptb.include("data/archs")
local pytorch = ptb.include("data/pytorch")
local L4T = ptb.include("data/l4t")
local jetson = ptb.include("data/jetson")

local M = {}

local function major(v) return tonumber(tostring(v):match("^(%d+)")) end

local contains = A.contains

-- How the driver runs release r: "direct", "compat" (minor-version
-- compatibility only), "unknown" (no driver seen) or "too-old".
-- (driver-too-old, driver-minor-compat)
function M.driver(r, driver)
  return T.driver_runs(r, driver) or "too-old"
end

-- The oldest architecture data/archs.lua knows (3.0).
local function oldest_arch()
  local o
  for cc in pairs(archs) do
    if not o or A.vcmp(cc, o) < 0 then o = cc end
  end
  return o
end

-- Does release r build the GPU of capability cc?  nil when it does; else
-- "toolkit-drops-gpu" and the last CUDA that built it, or
-- "gpu-newer-than-toolkit" and the first that builds it (nil: none known).
-- The GPU is named as r names it: Thor is sm_101 before CUDA 13 and
-- sm_110 from 13.0 (T.gpu_arch), so nvcc 12.8 builds Thor code (a Jetson
-- Thor, whose JetPack 7 runs CUDA 13 alone, is jetson_cuda_too_old's
-- to judge).  A GPU no listed release builds is older, not newer, when data/archs.lua says
-- which CUDA last built it (Kepler 3.0: 10.2) or when it is older than
-- every architecture there (Fermi 2.x): "toolkit-drops-gpu" with that
-- CUDA, or with nil.
function M.gpu_build(r, cc)
  if T.builds_gpu(r, cc) then return nil end
  local arch = T.gpu_arch(cc, r)
  local first, last = A.span(arch, "")
  if last and A.vcmp(r.version, last) > 0 then return "toolkit-drops-gpu", last end
  if first and A.vcmp(first, r.version) < 0 then
    -- an earlier release builds it but r does not (r judged by its own
    -- nvcc's list, A.judged_release, which left it out): dropped, not
    -- newer; the last release before r that builds it
    local prev
    for _, v in ipairs(A.known_versions()) do
      if A.vcmp(v, r.version) < 0 and A.builds(A.release(v), arch, "") then prev = v end
    end
    return "toolkit-drops-gpu", prev
  end
  if not first then
    if archs[arch] and archs[arch].last then return "toolkit-drops-gpu", archs[arch].last end
    if not archs[arch] and A.vcmp(arch, oldest_arch()) < 0 then return "toolkit-drops-gpu", nil end
  end
  return "gpu-newer-than-toolkit", first
end

M.oldest_arch = oldest_arch

-- A Jetson whose module needs a newer CUDA than r on every JetPack it
-- runs (Jetson Thor: 13.0, T.jetson_cuda_min [thor-cuda13]): nil, or
-- { name (the module), need (that CUDA), cc (its GPU) }.
-- (jetson-thor-needs-cuda-13)
function M.jetson_cuda_too_old(facts, r)
  local need, name = T.jetson_cuda_min(facts)
  if not need or A.vcmp(r.version, need) >= 0 then return nil end
  local cc = T.jetson_cc(facts)
  -- CUDA 12.8 and 12.9 name Thor sm_101 (T.gpu_arch); older ones none
  local known = cc and T.builds_gpu(r, cc) and ("CUDA %s knows it only as sm_%s"):format(
    r.version, A.digits(T.gpu_arch(cc, r))) or ("CUDA %s does not know it at all"):format(r.version)
  return { name = name, need = need, cc = cc,
    text = ("CUDA %s does not build for %s (GPU %s): its JetPacks (7 and later) run CUDA 13's driver, which calls the GPU compute capability 11.0, and %s; NVIDIA supports it from CUDA %s"):format(
      r.version, name, tostring(cc or "?"), known, need) }
end

-- The JetPacks (major.minor) of L4T major l, "5.0-5.1" or "7.2".
local function l4t_of_major(l)
  local lo, hi
  for l4t, j in pairs(L4T.jetpack) do
    local mm = j:match("^(%d+%.%d+)")
    if l4t:match("^(%d+)%.") == l then
      if not lo or A.vcmp(mm, lo) < 0 then lo = mm end
      if not hi or A.vcmp(mm, hi) > 0 then hi = mm end
    end
  end
  if not lo then return "?" end
  return lo == hi and lo or (lo .. "-" .. hi)
end

-- The first L4T release data/l4t.lua gives JetPack jp (major.minor), or nil.
local function l4t_of(jp)
  local first
  for l4t, j in pairs(L4T.jetpack) do
    if j:match("^(%d+%.%d+)") == jp and (not first or A.vcmp(l4t, first) < 0) then first = l4t end
  end
  return first
end

-- Does JetPack jp (major.minor[.patch]) run CUDA v with its own driver
-- or an upgrade package ptbuild names (data/jetson.lua upgrade
-- [tegra-upgrade]): cuda-compat-X-Y on JetPack 5 and 6, on JetPack 7 the
-- package of upgrade.sbsa's row (13.4 on 7.2)?  false for a CUDA NVIDIA's
-- table serves through a package no source read names (13.3 on 7.2).
local function named_on(jp, v)
  local mm = jp:match("^(%d+%.%d+)")
  if L4T.cuda[mm] == v then return true end
  if (tonumber(jp:match("^(%d+)")) or 0) < 7 then return jetson.upgrade_serves(jp, v) end
  local row = jetson.upgrade.sbsa[v]
  return row ~= nil and row.jetpack == mm
end

-- The CUDAs JetPack jp runs (list, oldest first) in words, each it runs
-- only through a package ptbuild cannot name said to: "13.2, 13.3 (only
-- through an NVIDIA upgrade package ptbuild cannot name), 13.4".
local function cudas_words(jp, list)
  local out = {}
  for _, v in ipairs(list) do
    out[#out + 1] = named_on(jp, v) and v
      or (v .. " (only through an NVIDIA upgrade package ptbuild cannot name)")
  end
  return table.concat(out, ", ")
end

-- A Jetson whose JetPack runs no SBSA CUDA r (T.jetson_sbsa_runs
-- [tegra-upgrade]: Jetson Thor on JetPack 7.0 or 7.1 runs CUDA 13.0
-- alone; its driver is 13.0's and NVIDIA's upgrade package supports no
-- 13.1 or later there).  nil, or { jetpack, own (its CUDA), text, flash
-- (the JetPack that runs r, else the newest known: "JetPack 7.2 (L4T
-- 39.2)"), flash_runs (the CUDAs that one runs), flash_has (whether r is
-- among them) }.  (jetpack-too-old-for-cuda)
function M.jetpack_too_old(facts, r)
  local runs, jp, own, ok = T.jetson_sbsa_runs(facts, r)
  if runs then return nil end
  local rows = ptb.include("data/jetson").upgrade.sbsa_serves
  local to = ok[1]
  if not to then
    for k in pairs(rows) do
      if A.vcmp(k, jp:match("^(%d+%.%d+)")) > 0 and (not to or A.vcmp(k, to) > 0) then to = k end
    end
  end
  local l4t = facts.jetson and facts.jetson.l4t
  local x = { jetpack = jp, own = own, flash_has = ok[1] ~= nil,
    text = ("CUDA %s will not run on this Jetson's JetPack %s (L4T %s): its driver is CUDA %s's, and NVIDIA's CUDA upgrade package for Jetson supports no CUDA %s there (CUDA for Tegra, 'Use the Right Upgrade Package': JetPack 7.0 runs 13.0 alone, '13.1 onwards' not compatible); on a Jetson the JetPack, not minor-version compatibility, decides which CUDA runs"):format(
      r.version, jp, tostring(l4t or "?"), own, r.version) }
  if to then
    local l = l4t_of(to)
    x.flash = ("JetPack %s%s"):format(to, l and (" (L4T " .. l:gsub("%.0$", "") .. ")") or "")
    local list = { L4T.cuda[to] }
    for _, v in ipairs(rows[to].serves) do list[#list + 1] = v end
    x.flash_runs = cudas_words(to, list)
  end
  return x
end

-- The CUDAs a JetPack's driver runs by NVIDIA's table [tegra-upgrade]
-- (data/jetson.lua upgrade): its own, then those newer that the upgrade
-- package serves on it (13.2, 13.3, 13.4 on JetPack 7.2).
local function jetpack_cudas(jp, own)
  local list = { own }
  local row = jetson.upgrade.sbsa_serves[jp:match("^(%d+%.%d+)")]
  for _, v in ipairs(row and row.serves or jetson.upgrade.serves[jp:match("^(%d+)")] or {}) do
    if A.vcmp(v, own) > 0 then list[#list + 1] = v end
  end
  return list
end

-- Whether NVIDIA's table judges CUDA v on JetPack jp [tegra-upgrade]:
-- JetPack 4 to 6 wholly (none before 5, 5.x to 12.2, 6.x to 12.9), 7.0
-- and 7.1 wholly (13.0 alone), 7.2 up to 13.4 (`upto`); past that, or on
-- a JetPack 7 with no row, nothing is known.
local function jetpack_judges(jp, v)
  local row = jetson.upgrade.sbsa_serves[jp:match("^(%d+%.%d+)")]
  if row then return not row.upto or A.vcmp(v, row.upto) <= 0 end
  local maj = tonumber(jp:match("^(%d+)"))
  return maj ~= nil and maj < 7
end

-- The one rule of a Jetson whose L4T and driver disagree: the JetPack
-- its L4T names has the driver of CUDA `own` and runs `cudas` (its own,
-- and those its upgrade package serves), while the driver reports a
-- ceiling older than `own` ("behind": L4T 39.2, JetPack 7.2 with CUDA
-- 13.2, beside a driver of CUDA 13.0) or newer than any CUDA that
-- JetPack runs ("ahead": L4T 36.4, JetPack 6.2, beside a driver of CUDA
-- 13.0; L4T 38.2, JetPack 7.0, beside one of CUDA 13.2).  A ceiling the
-- JetPack runs through its upgrade package (12.8 on JetPack 6.2, the
-- package's libcuda on LD_LIBRARY_PATH) is no disagreement, nor one past
-- what NVIDIA's table judges (13.5 on JetPack 7.2).  nil, or
-- { dir, jp, own, cudas, l4t, driver }.  raw: judge the L4T's JetPack
-- even where the module has no release of it (T.jetpack takes none from
-- such facts; jetson_mismatch names this disagreement beside its own).
local function l4t_vs_driver(facts, raw)
  if (facts.host or {}).platform ~= "jetson" then return nil end
  local d = facts.driver
  local jp, own = T.jetpack(facts)
  if raw and not jp then
    local l4t = facts.jetson and facts.jetson.l4t
    jp = type(l4t) == "string" and L4T.jetpack[l4t] or nil
    own = jp and L4T.cuda[jp:match("^(%d+%.%d+)")]
  end
  if not (own and type(d) == "table" and type(d.cuda_max) == "string") then return nil end
  local cudas = jetpack_cudas(jp, own)
  local dir
  if A.vcmp(d.cuda_max, own) < 0 then
    dir = "behind"
  elseif not contains(cudas, d.cuda_max) and jetpack_judges(jp, d.cuda_max) then
    dir = "ahead"
  else
    return nil
  end
  return { dir = dir, jp = jp, own = own, cudas = cudas, driver = d,
           l4t = tostring(facts.jetson and facts.jetson.l4t) }
end

-- A Jetson whose facts disagree (l4t_vs_driver), in words, for CUDA r
-- (nil: none chosen, as in a doctor with no toolkit).
--   "behind": ptbuild trusts the driver, as T.jetpack_runs does ("the
--     driver seen stands"): it is what runs the programs, while
--     /etc/nv_tegra_release is a file that an upgrade not finished, or
--     not rebooted into, can leave ahead of it.  The problem is the
--     driver's (driver-minor-compat, warning, when it runs r through
--     minor-version compatibility; driver-too-old, error, when not at
--     all) or, where it runs r directly, jetson-facts-disagree
--     (warning): the machine is still half-upgraded, or its file wrong.
--   "ahead": the CUDA detect reports is the answer of the libcuda.so.1
--     the loader finds first (src/detect/probe_gpu.c dlopens the
--     soname), which is an upgrade package's own where its compat
--     directory is on LD_LIBRARY_PATH [tegra-upgrade]; no source read
--     tells that from an L4T release file older than the driver, so the
--     words say ptbuild cannot tell which is right.  It plans by the
--     JetPack (T.jetpack_runs decides by it), whose own CUDA a newer
--     driver runs too.  jetson-facts-disagree (warning), whatever r.
-- nil, or { code, severity, text, fix }.  flag: how the fix names a CUDA
-- to take ("--cuda" in a plan).  Plan, doctor and fleet alike.
function M.jetson_facts_disagree(facts, r, flag)
  local x = l4t_vs_driver(facts)
  if not x then return nil end
  local d, jp = x.driver, x.jp
  local facts_said = ("the facts disagree: L4T %s is JetPack %s, whose driver is CUDA %s's (it runs CUDA %s), but the driver (%s) reports CUDA %s"):format(
    x.l4t, jp, x.own, cudas_words(jp, x.cudas), tostring(d.version), d.cuda_max)
  if x.dir == "ahead" then
    return { code = "jetson-facts-disagree", severity = "warning",
      text = facts_said .. (", which NVIDIA's upgrade table gives JetPack %s no way to run; ptbuild cannot tell from what it reads which is right: the driver's CUDA is the answer of the first libcuda.so.1 the loader finds, an upgrade package's own where a /usr/local/cuda-X.Y/compat directory is on LD_LIBRARY_PATH, or the L4T release file is older than the driver that runs; ptbuild plans by the L4T's JetPack, whose CUDA %s a newer driver runs too"):format(
        jp, x.own),
      fix = ("compare /etc/nv_tegra_release with 'cat /proc/driver/nvidia/version' and look for a compat directory in 'echo $LD_LIBRARY_PATH' (JetPack %s runs CUDA %s); set right the one that is wrong and run 'ptbuild detect' again, or keep to CUDA %s (%s %s)"):format(
        jp, cudas_words(jp, x.cudas), x.own, flag or "--cuda", x.own) }
  end
  local runs = r and M.driver(r, d)
  local code, severity, by
  if runs == "compat" then
    code, severity = "driver-minor-compat", "warning"
    by = (": by the driver, CUDA %s runs here only through minor-version compatibility, without PTX JIT"):format(r.version)
  elseif runs == "too-old" then
    code, severity = "driver-too-old", "error"
    by = (": by the driver, CUDA %s does not run here"):format(r.version)
  elseif runs == "direct" then
    code, severity = "jetson-facts-disagree", "warning"
    by = (": by the driver, CUDA %s runs here directly, and none newer than %s does until the upgrade is finished"):format(r.version, d.cuda_max)
  elseif not r then
    code, severity, by = "jetson-facts-disagree", "warning", ""
  else
    return nil
  end
  return { code = code, severity = severity,
    text = facts_said .. (" at most; ptbuild trusts the driver, which runs the programs, while the L4T release is a file an unfinished JetPack upgrade can leave ahead of it%s"):format(by),
    fix = ("compare /etc/nv_tegra_release with 'cat /proc/driver/nvidia/version', then finish the JetPack %s upgrade and reboot into it%s, or use CUDA %s, the newest this driver runs (%s %s)"):format(
      jp, r and contains(x.cudas, r.version) and (" (it runs CUDA %s)"):format(r.version) or "", d.cuda_max, flag or "--cuda", d.cuda_max) }
end

-- A Jetson whose L4T names a JetPack its module has no release of
-- (T.jetson_mismatch [jetson-lineup]: a Jetson Thor on L4T 36, JetPack
-- 6; an Orin on L4T 38, JetPack 7.0): facts that cannot both be true,
-- of which ptbuild cannot tell the wrong one, so it plans by neither (no
-- JetPack's CUDA, upgrade package or flash).  The fix says how to read
-- both again: the L4T release file and the module's compatible string.
-- nil, or { code, severity, text, fix }.  Plan, doctor and fleet alike.
-- (jetson-facts-disagree, an error: unlike the L4T and the driver, which
-- an unfinished upgrade can part, these two never go together)
-- Where the driver disagrees with that L4T too (l4t_vs_driver, judged
-- on the L4T's JetPack all the same), the one error names that as well,
-- and its fix reads the driver too: one problem of that code, naming
-- every disagreement, never a second jetson-facts-disagree.
function M.jetson_mismatch(facts)
  local x = T.jetson_mismatch(facts)
  if not x then return nil end
  local runs = {}
  for _, l in ipairs(x.runs) do
    local first = l4t_of_major(l)
    runs[#runs + 1] = ("L4T %s (JetPack %s)"):format(l, first)
  end
  local dv = l4t_vs_driver(facts, true)
  local driver = dv and ("; the driver (%s) reports CUDA %s, which disagrees with that L4T as well: JetPack %s's driver is CUDA %s's (it runs CUDA %s)"):format(
    tostring(dv.driver.version), dv.driver.cuda_max, dv.jp, dv.own, cudas_words(dv.jp, dv.cudas)) or ""
  return { code = "jetson-facts-disagree", severity = "error",
    text = ("the facts cannot both be true: the module is %s (%s, GPU %s), which has releases on %s only, but L4T %s is JetPack %s, which has none for it%s; ptbuild cannot tell which fact is wrong, so it plans no JetPack's CUDA, upgrade package or flash by either"):format(
      x.module, x.family, x.cc, table.concat(runs, ", "), x.l4t, x.jetpack, driver),
    fix = ("compare the L4T release in 'head -n 1 /etc/nv_tegra_release' with the module in its compatible string ('tr \"\\0\" \" \" < /proc/device-tree/compatible')%s, set right the fact that is wrong and run 'ptbuild detect' again"):format(
      dv and " and the driver in 'cat /proc/driver/nvidia/version'" or "") }
end

-- The plan's CUDA choice against a Jetson's facts that disagree
-- (l4t_vs_driver): a clause for the reason of the choice, or "".
function M.jetson_facts_clause(facts)
  local x = l4t_vs_driver(facts)
  if not x then return "" end
  if x.dir == "behind" then
    return ("; judged by the driver, which reports CUDA %s at most, not by L4T %s's JetPack %s (CUDA %s), as the facts disagree (see the problems)"):format(
      x.driver.cuda_max, x.l4t, x.jp, x.own)
  end
  return ("; judged by L4T %s's JetPack %s (CUDA %s), not by the driver's CUDA %s, as the facts disagree (see the problems)"):format(
    x.l4t, x.jp, x.own, x.driver.cuda_max)
end

-- The module of a Jetson's facts (data/jetson.lua modules, by its GPU)
-- when no JetPack 7 (L4T 38 or later) has a release for it: Xavier, TX2,
-- Nano, TX1 [jetson-lineup]; else nil.
local function no_sbsa_module(facts)
  local m = T.jetson_module(facts)
  if not (m and m.l4t) then return nil end
  for _, l in ipairs(m.l4t) do
    if tonumber(l) >= 38 then return nil end
  end
  return m
end

-- The newest JetPack (major.minor) of a release the module of a
-- Jetson's facts has (data/jetson.lua modules[].l4t, data/l4t.lua), or
-- nil: JetPack 5.1 for a Xavier, 7.2 for an Orin or a Thor.
local function module_last_jetpack(facts)
  local m = T.jetson_module(facts)
  local best
  for jp in pairs(m and m.l4t and L4T.cuda or {}) do
    local l = l4t_of(jp)
    if l and contains(m.l4t, l:match("^(%d+)")) and (not best or A.vcmp(jp, best) > 0) then best = jp end
  end
  return best
end

-- The CUDAs a Jetson runs that build its GPU (capability cc, nil: all),
-- oldest first, and how to name the newest: those of the JetPack of its
-- L4T (its own and those its upgrade package serves), else, on an L4T
-- ptbuild does not know, those of its module's last JetPack.
local function jetson_cudas_here(facts, cc)
  local jp, own = T.jetpack(facts)
  local what = "the newest this Jetson runs"
  if not own then
    jp = module_last_jetpack(facts)
    own = jp and L4T.cuda[jp]
    what = ("the newest that JetPack %s, this module's last, runs"):format(tostring(jp))
  end
  local list = {}
  for _, v in ipairs(own and jetpack_cudas(jp, own) or {}) do
    local rv = A.release(v)
    if rv and (not cc or T.builds_gpu(rv, cc)) then list[#list + 1] = v end
  end
  return list, what
end

-- An Orin-class Jetson on an SBSA CUDA r it does not run
-- (T.orin_sbsa_blocked: the SBSA toolkit serves it only from CUDA 13.2
-- with JetPack 7.2, L4T 39 [data/jetson.lua]), and the way out.  From
-- 13.2 the L4T is the bar, not the release: the fix keeps the CUDA asked
-- for (13.4 and on with the CUDA Compatibility Package (Orin) they list)
-- and flashes JetPack 7.2, or takes the JetPack's own CUDA when torch
-- builds with it; on L4T 39 already, only the release is the bar.  nil,
-- or { code, text, fix }.  flag: how the fix names a CUDA to take
-- ("--cuda" in a plan).  code: jetson-orin-needs-cuda-13.2 for an Orin;
-- jetson-module-too-old-for-cuda for a module no JetPack 7 has a release
-- for (Xavier, TX2, Nano, TX1), whose JetPack runs no CUDA 13 at all, so
-- that no code promises 13.2 where no 13.2 runs.  Plan and doctor alike.
function M.orin_sbsa_route(facts, torch, r, flag)
  -- (facts that cannot both be true plan no way out: jetson_mismatch)
  if (facts.host or {}).platform ~= "jetson" or T.platform(facts, r) ~= "linux-sbsa"
     or not T.orin_sbsa_blocked(facts, r) or T.jetson_mismatch(facts) then
    return nil
  end
  flag = flag or "--cuda"
  local l4t = facts.jetson and facts.jetson.l4t
  local m = no_sbsa_module(facts)
  if m then
    -- a module no JetPack 7 has a release for (Xavier and older): the
    -- SBSA toolkit never runs on it, so no flash helps; the CUDAs its
    -- own JetPack runs are the way
    local list, what = jetson_cudas_here(facts, T.jetson_cc(facts))
    local use = M.jetson_use(list, torch, flag, what)
    return { code = "jetson-module-too-old-for-cuda",
      text = ("this Jetson (%s, GPU %s, L4T %s) runs no SBSA CUDA: NVIDIA's SBSA toolkit runs on a Jetson only with JetPack 7 (L4T 38 and later), which has no release for the %s (its L4T releases: %s); CUDA %s will not run here"):format(
        m.name, T.jetson_cc(facts), tostring(l4t or "?"), m.name, table.concat(m.l4t, ", "), r.version),
      fix = use or "use a CUDA the JetPack of this Jetson runs (JetPack 5 at most: CUDA 11.4, or 12.2 through NVIDIA's upgrade package)" }
  end
  local min = jetson.sbsa_min_cc.from13_minor
  local use = A.vcmp(r.version, min) < 0 and min or r.version
  local oc = cuda.orin_compat[use]
  local with = oc and (" with the CUDA Compatibility Package (Orin) " .. oc.version) or ""
  local fix
  if type(l4t) == "string" and A.vcmp(l4t, "39") >= 0 then
    -- already on JetPack 7.2: the release is the bar, not the flash
    fix = ("use CUDA %s or newer (%s %s)%s: this JetPack runs Orin on the SBSA toolkit from CUDA %s"):format(
      min, flag, use, with, min)
  else
    -- the way back that needs no flash: the CUDA this JetPack ships,
    -- when the PyTorch release builds with it
    local jp, own = T.jetpack(facts)
    local ownr = own and A.release(own)
    local back = not own and "use the CUDA your JetPack ships, or "
      or ownr and T.torch_builds(torch, ownr) and ("use JetPack %s's CUDA %s (%s %s), or "):format(jp, own, flag, own)
      or ""
    fix = ("%sflash JetPack 7.2 and use CUDA %s%s"):format(back, use, with)
  end
  return { code = "jetson-orin-needs-cuda-13.2",
    text = ("this Jetson (GPU %s, L4T %s) reaches CUDA 13 only through the SBSA toolkit, from CUDA %s with JetPack 7.2 (L4T 39); CUDA %s will not run here"):format(
      T.jetson_cc(facts), l4t or "?", min, r.version),
    fix = fix }
end

-- How a Jetson runs release r, newer than its JetPack's own CUDA, from
-- the toolkit at root [tegra-upgrade]: its driver comes with the JetPack,
-- so neither minor-version compatibility nor a driver install applies.
-- nil (no Jetson, or a CUDA the JetPack's driver runs itself), or
--   "too-old", M.jetpack_too_old's answer: the JetPack runs no such CUDA;
--   "upgrade", { package, dir }: through NVIDIA's upgrade package;
--   "orin-blocked": an Orin that runs no SBSA CUDA r at all
--     (T.orin_sbsa_blocked; jetson-orin-needs-cuda-13.2 gives the way out);
--   "unnamed", { jetpack, own }: through one ptbuild names none of.
function M.jetson_runs(facts, r, root)
  local x = M.jetpack_too_old(facts, r)
  if x then return "too-old", x end
  local up = T.jetson_upgrade(facts, r, T.platform(facts, r), root)
  if up then return "upgrade", up end
  -- an Orin that runs no SBSA CUDA r at all (before L4T 39 or 13.2):
  -- no package and no driver helps; jetson-orin-needs-cuda-13.2 says so
  if ((facts or {}).host or {}).platform == "jetson" and T.platform(facts, r) == "linux-sbsa"
      and T.orin_sbsa_blocked(facts, r) then
    return "orin-blocked"
  end
  local jp, own = T.jetson_upgrade_unnamed(facts, r)
  if jp then return "unnamed", { jetpack = jp, own = own, named = T.jetson_named(facts) } end
  return nil
end

-- The fix for jetson_runs "unnamed" (j its answer): NVIDIA's package of
-- CUDA r, which ptbuild cannot name, or a CUDA the JetPack runs with its
-- own driver or a package ptbuild names (T.jetson_named), the newest of
-- them as the one to take.  flag: how a CUDA to take is named ("--cuda"
-- in a plan).  (driver-minor-compat, plan and doctor alike)
function M.jetson_unnamed_fix(j, r, flag)
  flag = flag or "--cuda"
  local named = j.named or {}
  local install = ("install NVIDIA's CUDA %s upgrade package for Jetson and put its directory first on LD_LIBRARY_PATH (CUDA for Tegra, 'CUDA Upgradable Package for Jetson')"):format(r.version)
  if #named == 0 then
    return install .. ", or use a CUDA whose package ptbuild names"
  end
  local newest = named[#named]
  if #named == 1 then
    return ("%s, or use CUDA %s, JetPack %s's own (%s %s)"):format(install, newest, j.jetpack, flag, newest)
  end
  local list = table.concat(named, ", ", 1, #named - 1) .. " or " .. newest
  return ("%s, or use CUDA %s, which JetPack %s runs with its own driver or an upgrade package ptbuild names (%s %s)"):format(
    install, list, j.jetpack, flag, newest)
end

-- The JetPacks (major.minor, oldest first) whose driver runs CUDA r on
-- this Jetson's module by NVIDIA's table [tegra-upgrade]: r is the
-- JetPack's own CUDA or one its upgrade package serves (jetpack_cudas),
-- and T.jetpack_runs of these facts on that JetPack's L4T runs it (the
-- module's floor: Thor from 13.0; an Orin's SBSA bar: 13.2 on L4T 39).
-- None older than the facts' own JetPack: a flash back is no upgrade.
local function jetpacks_running(facts, r)
  local mine = T.jetpack(facts)
  local keys = {}
  for jp in pairs(L4T.cuda) do keys[#keys + 1] = jp end
  table.sort(keys, function(x, y) return A.vcmp(x, y) < 0 end)
  local out = {}
  for _, jp in ipairs(keys) do
    local l = l4t_of(jp)
    if l and (not mine or A.vcmp(jp, mine:match("^(%d+%.%d+)")) >= 0)
        and contains(jetpack_cudas(jp, L4T.cuda[jp]), r.version) then
      local there = setmetatable({ driver = false,
        jetson = setmetatable({ l4t = l }, { __index = facts.jetson or {} }) }, { __index = facts })
      local how = T.jetpack_runs(there, r)
      if how == "direct" or how == "upgrade-package" or how == "upgrade-package-unnamed" then out[#out + 1] = jp end
    end
  end
  return out
end

-- The JetPack that brings a Jetson the driver of CUDA r, as a phrase
-- ("JetPack 7.2 (L4T 39.2), the first whose driver runs CUDA 13.2"), or
-- nil when no JetPack ptbuild knows runs r on this module.  A Jetson's
-- driver comes with its JetPack: where a desktop gets a driver, it gets
-- a JetPack.
function M.jetson_driver_need(facts, r)
  local jp = jetpacks_running(facts, r)[1]
  if not jp then return nil end
  local l = l4t_of(jp):gsub("%.0$", "")
  return ("JetPack %s (L4T %s), the first whose driver runs CUDA %s%s"):format(jp, l, r.version,
    contains({ L4T.cuda[jp] }, r.version) and ""
      or named_on(jp, r.version) and " (with NVIDIA's upgrade package)"
      or " (only through an NVIDIA upgrade package ptbuild cannot name)")
end

-- The newest PyTorch release ptbuild knows whose build takes CUDA v, or
-- nil.
local function newest_torch_for(v)
  local rv, best = A.release(v), nil
  for _, t in ipairs(pytorch.releases) do
    if rv and T.torch_builds(t, rv) then best = t end
  end
  return best
end

-- The way to a CUDA a Jetson runs, of list (oldest first), as a fix's
-- phrase: the newest that PyTorch release torch builds ("use CUDA 12.6,
-- the newest this Jetson runs (--cuda 12.6)"); when it builds none of
-- them (PyTorch 2.14 needs CUDA 12.6, JetPack 5 runs 12.2 at most), the
-- newest of them with the newest release that builds it, and why this
-- one does not ("... with PyTorch 2.7, the newest release that builds
-- it: PyTorch 2.14 does not, its build needs CUDA 12.6 or newer (--torch
-- 2.7 --cuda 12.2)").  what: how the CUDA is named ("the newest this
-- Jetson runs").  flag: how a CUDA is named ("--cuda"; doctor's
-- "ptbuild plan --cuda").  nil when list is empty, or no release ptbuild
-- knows builds its newest.
function M.jetson_use(list, torch, flag, what)
  flag = flag or "--cuda"
  local newest
  for i = #list, 1, -1 do
    local rv = A.release(list[i])
    if not torch or (rv and T.torch_builds(torch, rv)) then
      return ("use CUDA %s, %s%s (%s %s)"):format(list[i], what,
        i == #list and "" or (" that PyTorch %s builds"):format(torch.version), flag, list[i])
    end
    newest = newest or list[i]
  end
  if not newest then return nil end
  local t = newest_torch_for(newest)
  if not t then return nil end
  -- "does not" only where a source says so: a CUDA below the oldest
  -- wheel CUDA of a release whose CMake minimum was not read may build
  local _, why, known = T.torch_builds(torch, A.release(newest))
  return ("use CUDA %s, %s, with PyTorch %s, the newest release that builds it: PyTorch %s %s, %s (%s %s)"):format(
    newest, what, t.version, torch.version, known == "known" and "does not" or "may not", why or "",
    flag:gsub("%-%-cuda$", "--torch " .. t.version .. " --cuda"), newest)
end

-- The fix of toolkit-drops-gpu on a Jetson, whose CUDA is its JetPack's
-- (a desktop CUDA that still builds the GPU, 12.9 for a Xavier, does not
-- run where JetPack 5 runs 12.2 at most [tegra-upgrade]): the Jetson
-- rule's own way out where it raises one (orin_sbsa_route), else the
-- newest CUDA that builds the GPU (capability cc) of those the JetPack
-- of its L4T runs -- of those its module's last JetPack runs when its
-- L4T names none ptbuild knows -- that PyTorch release torch builds
-- (jetson_use).  Facts that cannot both be true name no CUDA.  nil when
-- this is no Jetson.  flag: how a CUDA is named ("--cuda" in a plan).
function M.jetson_drops_fix(facts, r, cc, torch, flag)
  if ((facts or {}).host or {}).platform ~= "jetson" then return nil end
  flag = flag or "--cuda"
  if T.jetson_mismatch(facts) then
    return "no CUDA is named until the facts agree (see the jetson-facts-disagree problem)"
  end
  local route = M.orin_sbsa_route(facts, torch, r, flag)
  if route then return route.fix end
  local list, what = jetson_cudas_here(facts, cc)
  return M.jetson_use(list, torch, flag, what)
    or ("no CUDA a JetPack of this Jetson runs builds compute capability %s that ptbuild knows of"):format(cc)
end

-- Every driver answer on a Jetson, by the Jetson rule: its driver comes
-- with its JetPack (L4T), so a driver that runs CUDA r not directly
-- ("too-old", or "compat": minor-version compatibility) is mended by a
-- JetPack, never by a desktop driver.  nil when this is no Jetson, no
-- driver was seen or it runs r directly; false when another Jetson rule
-- words it (jetson_facts_disagree's driver answer; jetson_runs: the
-- JetPack runs no such CUDA, jetpack-too-old-for-cuda; an Orin on an
-- SBSA CUDA, jetson-orin-needs-cuda-13.2; NVIDIA's upgrade package, which
-- the plan loads); else { code (driver-too-old or driver-minor-compat),
-- severity, text, fix }.  flag: how the fix names a CUDA to take
-- ("--cuda" in a plan).  Plan, doctor and a fleet's Jetson nodes alike.
function M.jetson_driver(facts, r, flag, root, torch)
  if ((facts or {}).host or {}).platform ~= "jetson" then return nil end
  local d = facts.driver
  if type(d) ~= "table" or not d.version then return nil end
  local runs = M.driver(r, d)
  if runs ~= "too-old" and runs ~= "compat" then return nil end
  local dis = M.jetson_facts_disagree(facts, r, flag)
  if dis and dis.code ~= "jetson-facts-disagree" then return false end
  -- facts that cannot both be true: that problem speaks, nothing is
  -- planned on either guess
  if T.jetson_mismatch(facts) then return false end
  local how, j = M.jetson_runs(facts, r, root)
  if how == "unnamed" then
    return { code = "driver-minor-compat", severity = "warning",
      text = T.jetson_unnamed_text(j.jetpack, j.own, r), fix = M.jetson_unnamed_fix(j, r, flag) }
  end
  if how then return false end
  -- the JetPack runs no such CUDA that ptbuild knows of, or ptbuild
  -- knows no JetPack of its L4T: the JetPack that does, and the newest
  -- CUDA this one runs (of its JetPack's, where known: ptbuild plans a
  -- Jetson by it), with the driver seen
  local jp, own = T.jetpack(facts)
  local l4t = facts.jetson and facts.jetson.l4t
  local where = ("on a Jetson the driver comes with the JetPack (L4T %s%s), not from NVIDIA's driver installers"):format(
    tostring(l4t or "?"), jp and (", JetPack " .. jp) or "")
  local text = runs == "too-old"
    and ("driver %s (CUDA %s at most) cannot run CUDA %s; %s"):format(d.version, tostring(d.cuda_max or "?"), r.version, where)
    or ("driver %s (CUDA %s at most) runs CUDA %s only through minor-version compatibility: PTX compiled by CUDA %s cannot be JIT-compiled by this driver; %s"):format(
      d.version, tostring(d.cuda_max or "?"), r.version, r.version, where)
  local floor = T.jetson_cuda_min(facts)
  local runs_here = {}
  for _, v in ipairs(own and jetpack_cudas(jp, own) or { d.cuda_max }) do
    local rv = v and A.release(v)
    -- its own and older by the driver, newer ones by a package ptbuild
    -- names (the plan loads it); none below the module's floor (a Thor
    -- builds nothing before CUDA 13.0)
    local runs_v = rv and (not floor or A.vcmp(v, floor) >= 0)
      and (own and A.vcmp(v, own) > 0 and T.jetpack_runs(facts, rv) == "upgrade-package"
        or (not own or A.vcmp(v, own) <= 0) and T.driver_runs(rv, d) == "direct")
    if runs_v then runs_here[#runs_here + 1] = v end
  end
  local need = M.jetson_driver_need(facts, r)
  local fix = need and ("flash %s"):format(need)
    or ("no JetPack ptbuild knows runs CUDA %s on this Jetson"):format(r.version)
  local use = M.jetson_use(runs_here, torch, flag, "the newest this Jetson runs")
  if use then fix = fix .. (need and ", or " or ": ") .. use end
  return { code = runs == "too-old" and "driver-too-old" or "driver-minor-compat",
    severity = runs == "too-old" and "error" or "warning", text = text, fix = fix }
end

-- The GPUs of the facts that r does not build: { gpu, code, edge } each,
-- in facts order (gpu_build's code and CUDA release).  A Jetson that
-- jetson_cuda_too_old holds back is its problem, not its GPU's: the CUDA
-- gpu_build would name (12.8 builds Thor as sm_101) does not run there.
function M.gpus_not_built(facts, r)
  local out = {}
  if M.jetson_cuda_too_old(facts, r) then return out end
  for _, g in ipairs(facts.gpus or {}) do
    local cc = g.compute_capability
    if type(cc) == "string" then
      local code, edge = M.gpu_build(r, cc)
      if code then out[#out + 1] = { gpu = g, code = code, edge = edge } end
    end
  end
  return out
end

-- The python3 of the facts: its X.Y and how to name it ("/usr/bin/python3",
-- "/opt/venv/bin/python3 -> /usr/bin/python3.8"), or nil: profiles and
-- facts saved before detect read it carry none, and detect may not have
-- told its version.
function M.python(facts)
  local p = facts.python
  if type(p) ~= "table" or type(p.version) ~= "string" then return nil end
  local path = type(p.path) == "string" and p.path or "?"
  if type(p.real) == "string" and p.real ~= path then path = path .. " -> " .. p.real end
  return p.version, path
end

-- Does PyTorch release torch build with the facts' python3?  Its setup.py
-- stops at once on a Python older than its minimum ("You are using Python
-- 3.8.  Python >=3.10 is required.") [pt-setup], the low end of the
-- release's Python range [pt-python].  nil when it does or either is
-- unknown; else { have, path, need (the minimum), newest (the newest
-- release ptbuild knows that still builds with it, or nil) }.
-- (python-too-old)
function M.python_too_old(facts, torch)
  local v, path = M.python(facts)
  local py = torch and torch.python
  if not (v and py and py.min) or A.vcmp(v, py.min) >= 0 then return nil end
  local newest
  for _, r in ipairs(pytorch.releases) do
    if r.python and A.vcmp(v, r.python.min) >= 0 then newest = r end
  end
  return { have = v, path = path, need = py.min, newest = newest }
end

-- A Python newer than every one a release's Linux wheels are built for
-- (its python.max, or its experimental one, which is published too)
-- [pt-python] does not build it: its setup.py does not stop [pt-setup],
-- but its C++ does not compile -- torch/csrc/dynamo/cpython_defs.c
-- copies CPython internals and stops with an #error on the CPython after
-- the newest it was checked against, and a release cut before support
-- for a CPython landed has that guard [pt156595].  The one verdict of
-- plan, doctor (in a checkout of that release) and generate:
M.PYTHON_TOO_NEW = "error"

-- Is Python X.Y[.Z] v newer than PyTorch release torch builds with?  nil
-- when it is not (or either is unknown); else { have (X.Y), max (the
-- newest it builds with), first (the oldest release ptbuild knows that
-- builds with it, or nil), why (a clause: "newer than PyTorch 2.4 builds
-- with (Python 3.8-3.12): ...") }.  (python-too-new)
function M.python_newer(v, torch)
  local py = torch and torch.python
  local mm = type(v) == "string" and v:match("^(%d+%.%d+)")
  if not (mm and py and py.min and py.max) then return nil end
  local top = py.experimental and A.vcmp(py.experimental, py.max) > 0 and py.experimental or py.max
  if A.vcmp(mm, top) <= 0 then return nil end
  local first
  for _, r in ipairs(pytorch.releases) do
    local rp = r.python
    local rtop = rp and (rp.experimental and A.vcmp(rp.experimental, rp.max) > 0 and rp.experimental or rp.max)
    if rp and not first and A.vcmp(mm, rp.min) >= 0 and A.vcmp(mm, rtop) <= 0 then first = r end
  end
  return { have = mm, max = top, first = first,
           why = ("newer than PyTorch %s builds with (Python %s-%s): its C++ does not compile for a CPython it does not support yet (torch/csrc/dynamo/cpython_defs.c stops with an #error), and its setup.py does not refuse it first"):format(
             torch.version, py.min, top) }
end

-- The same of the facts' python3: python_newer's table with path added.
function M.python_too_new(facts, torch)
  local v, path = M.python(facts)
  local new = M.python_newer(v, torch)
  if new then new.path = path end
  return new
end

-- The NVIDIA platform of an installed toolkit: facts' platform or target
-- (T.toolkit_platform), else the targets/ directories doctor read, when
-- they name one platform only.
local target_platform = { ["x86_64-linux"] = "linux-x86_64", ["sbsa-linux"] = "linux-sbsa",
                          ["aarch64-linux"] = "linux-aarch64" }
function M.toolkit_platform(tk)
  local p = T.toolkit_platform(tk)
  if p then return p end
  for _, t in ipairs(type(tk.targets) == "table" and tk.targets or {}) do
    local q = target_platform[t]
    if q and p and q ~= p then return nil end
    p = q or p
  end
  return p
end

-- The Jetson module the facts name, as sbsa-toolkit-on-jetson words it
-- (plan and doctor): "Xavier" for the Jetson Xavier (data/jetson.lua
-- modules, by the GPU's capability), "this Jetson" when none is known.
function M.jetson_module_word(facts)
  local m = T.jetson_module(facts or {})
  return m and (m.name:gsub("^Jetson ", "")) or "this Jetson"
end

-- Is the toolkit tk built for the platform release r needs here?  nil
-- when it is (or cannot be told); else the code -- "sbsa-toolkit-on-jetson"
-- (an ARM server toolkit where JetPack's is needed), "jetson-toolkit-on-
-- server" (JetPack's aarch64-linux toolkit off a Jetson) or
-- "toolkit-wrong-platform" -- with the toolkit's and the needed platform.
function M.toolkit_platform_problem(facts, r, tk)
  local tp, platform = M.toolkit_platform(tk), T.platform(facts, r)
  local host = facts.host or {}
  -- an Orin takes the SBSA toolkit of CUDA 13 only from 13.2 and L4T 39:
  -- before that an SBSA toolkit there fails as on any older Jetson
  if tp == "linux-sbsa" and host.platform == "jetson" and T.orin_sbsa_blocked(facts, r) then
    return "sbsa-toolkit-on-jetson", tp, "linux-aarch64"
  end
  if not tp or tp == platform or (tp == "linux-aarch64" and host.platform == "jetson") then return nil end
  if tp == "linux-sbsa" and platform == "linux-aarch64" then return "sbsa-toolkit-on-jetson", tp, platform end
  if tp == "linux-aarch64" then return "jetson-toolkit-on-server", tp, platform end
  return "toolkit-wrong-platform", tp, platform
end

-- The kind of a compiler detect lists, by its file name without the
-- version suffix detect keeps (gcc-12, clang++-21): "gcc" for gcc and
-- g++, "clang" for clang and clang++, else nil.
function M.compiler_kind(c)
  local base = tostring(c and c.name or ""):match("([^/]*)$"):gsub("%-%d[%d%.]*$", "")
  if base == "gcc" or base == "g++" then return "gcc" end
  if base == "clang" or base == "clang++" then return "clang" end
  return nil
end

-- The C++ driver beside a C compiler's path, what CUDAHOSTCXX names:
-- /usr/bin/gcc-12 -> /usr/bin/g++-12, /usr/bin/clang-21 ->
-- /usr/bin/clang++-21.
function M.cxx_of(path)
  local dir, base = path:match("^(.-)([^/]+)$")
  local cxx = base:gsub("gcc", "g++", 1)
  if not cxx:find("clang++", 1, true) then cxx = cxx:gsub("clang", "clang++", 1) end
  return dir .. cxx
end

-- A gcc C driver with a version: "gcc", or "gcc-12" as detect names the
-- versioned ones beside it.
function M.is_gcc(c)
  local n = c and c.name
  return type(n) == "string" and (n == "gcc" or n:match("^gcc%-%d[%d%.]*$") ~= nil)
    and type(c.version) == "string" and type(c.path) == "string"
end

-- The compiler the environment names for nvcc: CUDAHOSTCXX, else CXX,
-- else CC (env: the variables detect recorded, or those doctor reads),
-- found among the facts' compilers by path or name.  A value may carry
-- flags after the compiler ("gcc-12 -m64"): its first word names it, as
-- CMake and detect read it.  vars: the variables to read, in order
-- (default CUDAHOSTCXX, CXX, CC: nvcc's host compiler).  Returns the
-- compiler (nil when detect did not list it) and the variable; nothing
-- when none is set.
function M.named_compiler(facts, env, vars)
  if type(env) ~= "table" then return nil end
  for _, var in ipairs(vars or { "CUDAHOSTCXX", "CXX", "CC" }) do
    local want = type(env[var]) == "string" and env[var]:match("^%s*(%S+)")
    if want then
      for _, c in ipairs(facts.compilers or {}) do
        if c.path == want or c.name == want then return c, var end
      end
      return nil, var
    end
  end
  return nil
end

-- The gcc a build gets when nothing names another: the one named plain
-- "gcc" on PATH, else the first gcc detect listed.
function M.default_gcc(facts)
  local first
  for _, c in ipairs(facts.compilers or {}) do
    if M.is_gcc(c) then
      first = first or c
      if c.path:match("([^/]+)$") == "gcc" then return c end
    end
  end
  return first
end

-- What of release r's data is a copy of the release before it
-- (data/cuda.lua `assumed`, `compilers_assumed`): the words naming it
-- ("GPU list", "host compiler limits" or both), or nil when all of it
-- has a source.  (cuda-data-assumed)
function M.assumed_data(r)
  if not (r and (r.assumed or r.compilers_assumed)) then return nil end
  return r.assumed and (r.compilers_assumed and "GPU list and host compiler limits" or "GPU list")
    or "host compiler limits"
end

-- What a Jetson can be told of release r, newer than ptbuild's tables:
-- no driver floor, as its driver is its JetPack's and the JetPack, not
-- minor-version compatibility, decides which CUDA runs [tegra-upgrade];
-- a CUDA newer than the JetPack's own runs only through an NVIDIA
-- upgrade package, which ptbuild's tables name none of for r, or not
-- at all where the JetPack runs none that new (M.jetpack_too_old).
local function unknown_release_jetson(facts, r)
  local jp, own = T.jetpack(facts)
  local rule = "on a Jetson the JetPack, not minor-version compatibility, decides which CUDA runs"
  if not own then
    return ("no driver floor: a Jetson's driver comes with its JetPack, which ptbuild does not know here, and %s"):format(rule)
  end
  local head = ("no driver floor: this Jetson's driver is JetPack %s's (CUDA %s's), and %s"):format(jp, own, rule)
  if M.jetpack_too_old(facts, r) then
    return ("%s: JetPack %s runs no CUDA %s (see jetpack-too-old-for-cuda)"):format(head, jp, r.version)
  end
  local m = no_sbsa_module(facts)
  if m and tonumber(r.version:match("^%d+")) >= 13 then
    -- no JetPack 7 for this module: no SBSA CUDA, so no 13.x, runs here
    return ("%s: no JetPack of the %s runs CUDA %s at all (see jetson-module-too-old-for-cuda)"):format(head, m.name, r.version)
  end
  return ("%s: CUDA %s only through an NVIDIA CUDA upgrade package for Jetson that serves it on JetPack %s, which ptbuild's tables do not name"):format(
    head, r.version, jp)
end

-- An installed toolkit of a release newer than ptbuild's tables
-- (T.unknown_release r, toolkit tk), in use: what ptbuild does not know
-- of it -- its driver minimum, the host compiler limits its
-- host_config.h did not give (detect reads gcc's), whether PyTorch
-- release torch supports it -- and the floor it can state: the
-- minor-version compatibility floor of its major (T.compat_floor), none
-- for a major the tables lack; on a Jetson, the JetPack's rule
-- (unknown_release_jetson).  Message and fix of cuda-release-unknown,
-- for plan and doctor alike.
function M.unknown_release_words(facts, r, tk, torch)
  local jetson = ((facts or {}).host or {}).platform == "jetson"
  -- on a Jetson a driver minimum is moot: the JetPack decides
  local unknown = { jetson and "which JetPack runs it" or "its driver minimum" }
  unknown[#unknown + 1] = r.gcc_max and "its clang limit" or "its host compiler limits (gcc and clang)"
  if T.torch_builds(torch, r) == "untested" then
    unknown[#unknown + 1] = ("whether PyTorch %s supports it (it ships no CUDA %s wheels)"):format(torch.version, r.version)
  end
  local last = table.remove(unknown)
  local major = r.version:match("^%d+")
  local floor = r.compat_min and T.compat_floor(r)
  local states = {}
  if jetson then
    -- a Jetson's driver comes with its JetPack [tegra-upgrade]: no
    -- desktop floor applies (jetpack-too-old-for-cuda says the same)
    states[#states + 1] = unknown_release_jetson(facts, r)
  elseif floor then
    states[#states + 1] = ("a driver of %s or newer runs CUDA %s through minor-version compatibility only (without PTX JIT), as every CUDA %s.x up to %s"):format(
      floor, r.version, major, r.compat_from)
  else
    states[#states + 1] = ("no driver floor: CUDA %s is a major ptbuild's tables lack, and minor-version compatibility does not cross majors"):format(major)
  end
  if r.gcc_max then
    states[#states + 1] = ("gcc %d at most, as %s/include/crt/host_config.h says"):format(r.gcc_max, tk.root)
  end
  local alt = T.suggest(facts, torch, r)
  return ("CUDA %s in %s (%s) is newer than ptbuild's tables, which stop at CUDA %s: its GPU list is its own nvcc's answer (%s), but ptbuild does not know %s%s; what it can state: %s"):format(
      r.version, tk.root, tostring(tk.version), r.tables_end, r.gpu_list_from or "none",
      table.concat(unknown, ", "), #unknown > 0 and (" or " .. last) or last, table.concat(states, "; ")),
    (alt and ("prefer --cuda %s, a CUDA ptbuild knows that fits this machine, unless you need %s; else "):format(alt.version, r.version) or "")
      .. (jetson and ("read NVIDIA's CUDA for Tegra ('Use the Right Upgrade Package': which JetPack runs CUDA %s) and CUDA %s's installation guide (its host compilers), and run PyTorch's CUDA tests on the result")
        or "read NVIDIA's CUDA %s release notes (Table 3: its minimum driver) and installation guide (its host compilers), and run PyTorch's CUDA tests on the result")
        :format(r.version, r.version)
end

-- The compiler limits of release r as the toolkit tk states them: its own
-- host_config.h (detect's toolkits[].gcc_max, doctor's observation) where
-- read, else data/cuda.lua's.  A table usable as r by compiler_ok.
function M.limits(r, tk)
  tk = tk or {}
  return { version = r.version, gcc_max = tk.gcc_max or r.gcc_max, clang_max = tk.clang_max or r.clang_max }
end

-- Does full-version conflict c (data/cuda.lua host_conflicts) hold for
-- nvcc of full version `full` with a compiler of `kind` on `arch`?
local function conflict_applies(c, full, kind, arch)
  -- full is a release label (11.4.0) or nvcc's build number (11.4.48):
  -- an update is at most 4, a build 20 and up (data/cuda.lua)
  local build = tonumber(full:match("^%d+%.%d+%.(%d+)") or "")
  local edge = build and build >= 10 and c.nvcc_upto or c.cuda_upto
  local cu = edge and A.vcmp(full, edge) <= 0
    or c.cuda_minor_upto and A.vcmp(A.cuda_minor(full) or full, c.cuda_minor_upto) <= 0
  return c.compiler == kind and cu and (not c.arch or c.arch == arch)
end

-- The versions a compiler version stands for, as [lo, hi): "13.2.0" is
-- itself, "13" every gcc 13 (detect often knows only the major: Debian
-- and Ubuntu name gcc by it, gcc-13 and /usr/lib/gcc/<triplet>/13).
local function span(v)
  local p = V.parts(v)
  if #p == 0 then return nil end
  local hi = {}
  for i, n in ipairs(p) do hi[i] = n end
  hi[#hi] = hi[#hi] + 1
  return table.concat(p, "."), table.concat(hi, "."), #p
end
M.version_span = span

-- Does nvcc of release r (full version `full`) take compiler `kind`
-- ("gcc" or "clang") version v on `arch`?  true, or false and why:
-- newer than its gcc_max / clang_max, or a known conflict of that CUDA
-- version with that compiler (data/cuda.lua host_conflicts).  A version
-- known only in part ("13") is refused when every version it stands for
-- conflicts; when only some do (13.2.0 of "13") it is taken, and the
-- third result names the versions that conflict and why:
-- { versions = "13.2.0", why = ... }.
function M.compiler_ok(r, full, kind, v, arch)
  local max = kind == "clang" and r.clang_max or r.gcc_max
  if max and major(v) and major(v) > max then
    return false, ("newer than nvcc %s accepts (%s %d at most: 'unsupported %s version')")
      :format(r.version, kind, max, kind == "clang" and "clang" or "GNU")
  end
  -- the conflicts hold for CUDA versions up to an edge: with no version
  -- known (a toolkit no file dates) none is claimed
  if type(full) ~= "string" or not full:match("^%d+%.%d+") then return true end
  local lo, hi, n = span(v)
  if not lo then return true end
  local maybe
  for _, c in ipairs(cuda.host_conflicts) do
    if conflict_applies(c, full, kind, arch) then
      if c.exact then
        -- every version of v is c.exact, or c.exact is one of them
        if A.vcmp(lo, c.exact) == 0 and n >= #V.parts(c.exact) then return false, c.why end
        if A.vcmp(lo, c.exact) <= 0 and A.vcmp(c.exact, hi) < 0 then maybe = maybe or c end
      else
        local from, below = c.from, c.below
        if A.vcmp(lo, from) >= 0 and (not below or A.vcmp(hi, below) <= 0) then return false, c.why end
        if A.vcmp(hi, from) > 0 and (not below or A.vcmp(lo, below) < 0) then maybe = maybe or c end
      end
    end
  end
  if maybe then
    return true, nil, { versions = maybe.exact or maybe.below and ("%s to below %s"):format(maybe.from, maybe.below)
                          or (maybe.from .. " or newer"), why = maybe.why }
  end
  return true
end

-- The gcc major to install for nvcc of release r (full version `full`):
-- the newest, from r's gcc_max down to `lowest` (default: 6 below it),
-- that no full-version conflict touches in any of its versions -- gcc
-- 13.2.0 on aarch64 with CUDA 12.4 makes it 12, not 13.  nil when none.
function M.gcc_to_install(r, full, arch, lowest)
  local max = r.gcc_max
  if not max then return nil end
  for m = max, lowest or max - 6, -1 do
    local clear = true
    for _, c in ipairs(type(full) == "string" and full:match("^%d+%.%d+") and cuda.host_conflicts or {}) do
      if conflict_applies(c, full, "gcc", arch)
         and (c.exact and major(c.exact) == m
              or not c.exact and A.vcmp(c.from, tostring(m + 1)) < 0 and (not c.below or A.vcmp(c.below, tostring(m)) > 0)) then
        clear = false
      end
    end
    if clear then return m end
  end
  return nil
end

return M
