-- The `ptbuild plan` recipe: facts + options in, the ptbuild.plan/1
-- document out (or { errors = [...] } for values the user must fix).
-- Input { facts, facts_source, torch?, cuda?, arch_list?, max_jobs? }.
-- `env` leaves as an ordered array of {name, value}; C turns it into an
-- object in that order.
local A = ptb.include("lib/archlist")
local T = ptb.include("lib/toolkit")
local G = ptb.include("lib/targets")
local H = ptb.include("lib/host")
local B = ptb.include("lib/buildenv")
local pytorch = ptb.include("data/pytorch")
local cuda = ptb.include("data/cuda")
local acldata = ptb.include("data/acl")
local W = ptb.include("lib/wheels")
local C = ptb.include("lib/checks")
local gpuname = ptb.include("lib/gpuname")

local M = {}

local function problem(list, severity, code, message, fix)
  list[#list + 1] = { severity = severity, code = code, message = message, fix = fix }
end

local function append(dst, src)
  for _, v in ipairs(src) do dst[#dst + 1] = v end
end

M.torch_release = A.torch_release

function M.known_torch()
  local out = {}
  for _, r in ipairs(pytorch.releases) do out[#out + 1] = r.version end
  return out
end

function M.known_cuda()
  local out = {}
  for _, v in ipairs(A.known_versions()) do
    if A.vcmp(v, "11.8") >= 0 then out[#out + 1] = v end
  end
  return out
end

-- The cuDNN PyTorch release torch's own Linux wheels of CUDA release r
-- use (data/pytorch.lua wheel_cudnn), or nil when ptbuild does not know.
local function wheel_cudnn(torch, r)
  return torch and (pytorch.wheel_cudnn[torch.version] or {})[r.version] or nil
end

local contains = A.contains

-- Problems about the chosen CUDA that are not about GPUs or compilers.
-- How to get cuDNN beside a toolkit that lacks it: ptbuild fetch from
-- NVIDIA's cuDNN manifest into a prefix of its own, then CUDNN_ROOT (which
-- PyTorch's FindCUDNN reads); a toolkit tree is not fetch's to add to.
-- The cuDNN is the one the plan would download with the toolkit
-- (T.cudnn: the release's wheel's, when carried).
local function cudnn_fix(r, platform, root, torch)
  local major = r.version:match("^%d+")
  local e, c = T.cudnn(r, platform, wheel_cudnn(torch, r))
  if e then
    local prefix = ("/opt/cudnn-%s-cuda%s"):format(e.version, major)
    if not c.manifest_sha256 then
      -- carried as per-archive digests: the archive itself, held to its
      -- own sha256 (no manifest of NVIDIA's to pin)
      return ("ptbuild fetch --archive %s@%s --prefix %s, then export CUDNN_ROOT=%s"):format(
        e.url, e.sha256, prefix, prefix)
    end
    return ("ptbuild fetch --manifest %sredistrib_%s.json --manifest-sha256 %s --components cudnn --variant cuda%s --prefix %s, then export CUDNN_ROOT=%s"):format(
      c.base_url, c.label, c.manifest_sha256, major, prefix, prefix)
  end
  return ("install cuDNN for CUDA %s (the redist 'cudnn' archive for %s, cuda%s variant) into %s, or set CUDNN_ROOT"):format(
    major, platform, major, root)
end

-- Platform: every installed toolkit built for another platform (the rule
-- of lib/checks.lua); an error when the plan uses it (or its directory),
-- a warning otherwise.  Each is judged by its own release, as doctor
-- judges it: what a Jetson needs depends on the CUDA (an Orin on L4T 39
-- runs the SBSA toolkit of 13.2 and later, the JetPack one before), so
-- JetPack 7.2's own SBSA 13.2 is no wrong toolkit beside a plan of 12.6.
local function platform_problems(p, facts, r, platform, choice)
  for _, t in ipairs(facts.toolkits or {}) do
    local code, tp = C.toolkit_platform_problem(facts, A.release(t.version or "") or r, t)
    if code then
      local sev = (t.root == choice.root) and "error" or "warning"
      if code == "sbsa-toolkit-on-jetson" then
        problem(p, sev, code,
          ("the CUDA toolkit in %s is the SBSA (ARM server) build; this Jetson needs the JetPack (L4T) toolkit: SBSA binaries fail at import on %s"):format(
            t.root, C.jetson_module_word(facts)),
          ("remove %s and install CUDA from JetPack ('apt install nvidia-jetpack' or cuda-toolkit from the L4T repository)"):format(t.root))
      elseif code == "jetson-toolkit-on-server" then
        problem(p, sev, code,
          ("the CUDA toolkit in %s is the Jetson (L4T) build; this machine needs %s"):format(t.root, platform),
          ("remove %s from PATH and install the %s toolkit (ptbuild fetch)"):format(t.root, platform))
      else
        problem(p, sev, code,
          ("the CUDA toolkit in %s is a %s build; this machine needs %s"):format(t.root, tp, platform),
          ("remove %s and install the %s toolkit (ptbuild fetch)"):format(t.root, platform))
      end
    end
  end
end

-- PyTorch support: one rule for every CUDA it ships no wheels for --
-- an error when its build refuses it, a warning when the build accepts
-- it untested -- and a fix that names only a CUDA this machine runs;
-- where the driver alone stands between the machine and a CUDA with
-- wheels, the fix names the driver that opens it (W.upgrade).
-- Adds to problem list p.
local function torch_support_problems(p, facts, torch, r, items)
  local builds, why_not, how = T.torch_builds(torch, r)
  if builds ~= "wheels" then
    local alt = T.suggest(facts, torch, r, items)
    local up = not alt and W.upgrade(facts, torch, items)
    if how == "unknown" then
      -- older than its wheels, and no source says whether its CMake takes it
      problem(p, "warning", "torch-cuda-untested",
        ("PyTorch %s ships no CUDA %s wheels (it ships %s): %s; the combination is untested upstream"):format(
          torch.version, r.version, table.concat(torch.cuda, ", "), why_not),
        alt and ("prefer --cuda %s unless you need %s"):format(alt.version, r.version)
          or ("keep %s only if PyTorch %s's cmake/public/cuda.cmake accepts it (its 'PyTorch requires CUDA X.Y or above' line), and run PyTorch's CUDA tests on the result"):format(r.version, torch.version))
    elseif not builds then
      problem(p, "error", "torch-cuda-unsupported",
        ("PyTorch %s does not build with CUDA %s: %s (it ships wheels for %s)"):format(torch.version, r.version, why_not, table.concat(torch.cuda, ", ")),
        alt and ("use --cuda %s, or a PyTorch release that supports CUDA %s"):format(alt.version, r.version)
          or ("use a PyTorch release that supports CUDA %s"):format(r.version))
    else
      -- of a release newer than the tables nothing says the build takes
      -- it: what is known is that no maximum ptbuild knows of stops it
      problem(p, "warning", "torch-cuda-untested",
        (r.unknown and "PyTorch %s ships no CUDA %s wheels on download.pytorch.org (it ships %s): its CMake sets no maximum CUDA that ptbuild knows of, but nothing ptbuild has says it builds with CUDA %s, newer than ptbuild's tables; the combination is untested upstream"
          or "PyTorch %s ships no CUDA %s wheels on download.pytorch.org (it ships %s): its build accepts CUDA %s, but the combination is untested upstream"):format(
          torch.version, r.version, table.concat(torch.cuda, ", "), r.version),
        alt and ("prefer --cuda %s unless you need %s"):format(alt.version, r.version)
          or #C.gpus_not_built(facts, r) > 0
            and ("no CUDA that PyTorch %s ships wheels for suits this machine, and CUDA %s does not build its GPUs either: build with one that does and run PyTorch's CUDA tests on the result"):format(torch.version, r.version)
          or ("no CUDA that PyTorch %s ships wheels for suits this machine: keep %s and run PyTorch's CUDA tests on the result%s"):format(
            torch.version, r.version, up and (", or upgrade the driver (" .. up.text .. ")") or ""))
    end
  end
end

-- The words for a Jetson whose JetPack runs CUDA r only through an
-- upgrade package ptbuild names none of (checks jetson_runs "unnamed",
-- j its answer): message and fix of driver-minor-compat, for a plan and
-- a fleet's Jetson nodes alike.
function M.jetson_unnamed_words(j, r)
  return T.jetson_unnamed_text(j.jetpack, j.own, r), C.jetson_unnamed_fix(j, r)
end

-- Whether the driver runs CUDA r: too old, only through minor-version
-- compatibility, or not seen at all.  Adds to problem list p.
local function driver_problems(p, facts, r, torch, items)
  -- a Jetson whose module has no release of its L4T's JetPack: one
  -- error naming both (jetson-facts-disagree), and nothing planned on
  -- either (lib/checks jetson_mismatch)
  local mis = C.jetson_mismatch(facts)
  if mis then problem(p, mis.severity, mis.code, mis.text, mis.fix) end
  local runs = C.driver(r, facts.driver)
  local old_for, first = T.driver_predates(facts)
  -- a Jetson whose L4T and driver disagree: one problem naming both
  -- (lib/checks jetson_facts_disagree), in place of what either says
  -- (jetson-facts-disagree where the driver's answer is not the problem)
  local dis = not old_for and C.jetson_facts_disagree(facts, r)
  if dis then problem(p, dis.severity, dis.code, dis.text, dis.fix) end
  -- on a Jetson every driver answer is the Jetson rule's (lib/checks
  -- jetson_driver): its driver comes with its JetPack
  local jd = C.jetson_driver(facts, r, nil, nil, torch)
  if dis and dis.code ~= "jetson-facts-disagree" then
    -- the driver's answer, in the words of both facts
  elseif jd ~= nil then
    if jd then problem(p, jd.severity, jd.code, jd.text, jd.fix) end
  elseif old_for and runs ~= "too-old" then
    -- the toolkit would run, the GPU would not (lib/toolkit driver_predates)
    problem(p, "error", "driver-too-old",
      T.predates_text(facts, old_for, first) .. ": it runs no CUDA code on that GPU, whatever the toolkit",
      T.predates_fix(facts, first, r))
  elseif runs == "too-old" then
    local d = facts.driver
    -- the older CUDA the driver runs is a way out only when it builds
    -- the GPUs too (a Rubin needs 13.4 whatever the driver)
    local ceiling = d.cuda_max and A.release(d.cuda_max)
    local stuck, up
    for _, x in ipairs(ceiling and C.gpus_not_built(facts, ceiling) or {}) do
      if x.code == "gpu-newer-than-toolkit" then stuck = stuck or x end
    end
    if stuck then up = W.upgrade(facts, torch, items) end
    problem(p, "error", "driver-too-old",
      ("driver %s cannot run CUDA %s (it needs %s); nvidia-smi's '%s: %s' is the newest CUDA this driver runs, not an installed toolkit"):format(
        d.version, r.version, T.driver_need_compat(r), T.smi_cuda_label(d), d.cuda_max or "?"),
      -- the least driver that runs the chosen CUDA first (T.driver_least:
      -- minor-version compatibility's, then its own), then what a driver
      -- opens in wheels where that is another CUDA (W.upgrade)
      stuck and ("install %s: CUDA %s, the newest this driver runs, does not build the %s (compute capability %s)%s"):format(
          T.driver_least(facts, r), d.cuda_max, stuck.gpu.name or "GPU", stuck.gpu.compute_capability,
          (up and A.vcmp(up.release.version, r.version) < 0) and ("; for wheels: " .. up.text) or "")
        or ("install %s, or use CUDA %s or older (--cuda)"):format(T.driver_least(facts, r), d.cuda_max or "the driver's"))
  elseif runs == "compat" then
    problem(p, "warning", "driver-minor-compat",
      ("driver %s (CUDA %s at most) runs CUDA %s only through minor-version compatibility: PTX compiled by CUDA %s cannot be JIT-compiled by this driver"):format(
        facts.driver.version, facts.driver.cuda_max or "?", r.version, r.version),
      ("install %s to run CUDA %s directly"):format(T.driver_at_least(r), r.version))
  elseif runs == "unknown" and #(facts.gpus or {}) == 0 and facts.host.platform ~= "jetson" then
    -- the GPUs of --arch-list are the target's: a newer one raises the
    -- least driver (T.compat_driver), as a GPU seen would
    local target, ccs, seen = {}, {}, {}
    for _, it in ipairs(items or {}) do
      target[#target + 1] = { compute_capability = it.cc }
      if not seen[it.cc] then ccs[#ccs + 1], seen[it.cc] = it.cc, true end
    end
    -- with --arch-list the list is the user's, not the wheels'
    local asked = #ccs > 0
    problem(p, "warning", "no-gpu-detected",
      ("no NVIDIA driver or GPU was seen: the arch list %s, and the machine that runs the built PyTorch needs %s"):format(
        asked and ("is --arch-list's (" .. table.concat(ccs, ";") .. ")") or "comes from PyTorch's wheels",
        T.driver_least({ gpus = target }, r)),
      asked and "check that the machines that will run this build have that driver and GPUs of that list"
        or "pass --arch-list with the compute capabilities of the GPUs that will run this build")
  end
end

-- The CUDAs this Jetson can have that PyTorch release torch builds:
-- those with a package here or that are the JetPack's own, or an SBSA
-- toolkit this Jetson's L4T runs (13.2 and later on L4T 39); only what
-- --cuda takes (11.8 on: not JetPack 5's 11.4, which a plan takes only
-- installed and with no --cuda).  Two lists:
-- the CUDAs the release builds (T.torch_builds), and those older than
-- its oldest wheel CUDA where ptbuild has read no CMake minimum of it
-- (2.8 to 2.12: plan takes them with torch-cuda-untested), oldest first.
-- A --cuda offered from them must not meet torch-cuda-unsupported or
-- jetson-orin-needs-cuda-13.2 next.
local function jetson_offer(facts, torch, platform)
  local sure, unread = {}, {}
  for _, v in ipairs(M.known_cuda()) do
    local rv = A.release(v)
    local pv = T.platform(facts, rv)
    local installs = pv == platform and contains(rv.platforms, pv) and T.jetson_source(facts, rv)
      or pv == "linux-sbsa" and contains(rv.platforms, pv) and not T.orin_sbsa_blocked(facts, rv)
    if installs then
      local builds, _, how = T.torch_builds(torch, rv)
      if builds then sure[#sure + 1] = v elseif how == "unknown" then unread[#unread + 1] = v end
    end
  end
  return sure, unread
end

-- cuda-platform-missing's fix on a Jetson: the CUDAs of jetson_offer,
-- else the newest PyTorch release that builds one this Jetson can have,
-- else that no release ptbuild knows does (a Nano's JetPack 4 has CUDA
-- 10.2 alone, which no release in the tables builds).  Returns the fix
-- and, apart, what it says of the CUDAs whose CMake minimum is unread
-- (to follow the fix's other ways out).
local function jetson_choose(facts, torch, platform)
  local sure, unread = jetson_offer(facts, torch, platform)
  local list = table.concat(unread, ", ")
  local cmake = #unread > 0 and ("only if PyTorch %s's cmake/public/cuda.cmake accepts %s (its 'PyTorch requires CUDA X.Y or above' line): PyTorch %s ships no wheel older than CUDA %s, and ptbuild has read no CMake minimum of it"):format(
    torch.version, #unread > 1 and "them" or "it", torch.version, torch.cuda[1])
  if #sure > 0 then
    return ("choose one it has (--cuda %s)"):format(table.concat(sure, ", ")),
      cmake and ("; --cuda %s %s"):format(list, cmake) or ""
  elseif cmake then
    return ("choose one it has (--cuda %s), but %s"):format(list, cmake), ""
  end
  for i = #pytorch.releases, 1, -1 do
    local t = pytorch.releases[i]
    local s = jetson_offer(facts, t, platform)
    if #s > 0 then
      return ("no CUDA ptbuild can install on this Jetson builds PyTorch %s: choose PyTorch %s, the newest release that builds one it has (--torch %s --cuda %s)"):format(
        torch.version, t.version, t.version, s[#s]), ""
    end
  end
  return "ptbuild can install no CUDA on this Jetson that a PyTorch release it knows builds", ""
end

-- The way out of jetson_source's "ubuntu" refusal: a JetPack on the
-- Ubuntu release the packages are for, where the module has one.
local function jetson_flash_tail(facts, r)
  local has, want, name, l4t = T.jetson_flash_has(facts, r)
  if has == false then
    return ("; no JetPack for the %s is on Ubuntu %s (its L4T releases: %s)"):format(
      name, table.concat(want, ", "), table.concat(l4t, ", "))
  end
  return ", or flash a JetPack whose Ubuntu release has CUDA " .. r.version
end

-- Whether NVIDIA publishes a toolkit of CUDA r for the platform (one
-- found installed was checked by platform_problems), and whether a
-- Jetson Orin can run it.  Adds to problem list p.
local function toolkit_problems(p, facts, torch, r, tk, platform)
  if tk then
    -- platform_problems checked it
  elseif not contains(r.platforms, platform) then
    problem(p, "error", "cuda-platform-missing",
      ("NVIDIA publishes no %s toolkit for CUDA %s"):format(platform, r.version),
      platform == "linux-aarch64" and "Jetson Orin uses JetPack's CUDA (12.x); CUDA 13 reaches Orin through the SBSA toolkit with JetPack 7.2 (CUDA 13.2)"
        or "choose another CUDA with --cuda")
  end
  if not tk and platform == "linux-aarch64" and facts.host.platform == "jetson" and contains(r.platforms, platform) then
    local src, why, kind = T.jetson_source(facts, r)
    if not src then
      local choose, unread = jetson_choose(facts, torch, platform)
      local tail = kind == "ubuntu" and jetson_flash_tail(facts, r)
        or kind == "unnamed" and (", or install CUDA %s from NVIDIA's Jetson downloads and plan again (ptbuild then takes the installed toolkit)"):format(r.version)
        or ""
      problem(p, "error", "cuda-platform-missing",
        why .. (kind == "unnamed" and ": ptbuild cannot say how to install CUDA %s on this Jetson"
          or ": no CUDA %s can be installed on this Jetson"):format(r.version),
        choose .. tail .. unread)
    end
  end
  -- an Orin on an SBSA CUDA it does not run, and the way out, or an
  -- older module that runs none (lib/checks orin_sbsa_route: the code
  -- and words doctor gives too)
  local orin = platform == "linux-sbsa" and C.orin_sbsa_route(facts, torch, r)
  if orin then
    problem(p, "error", orin.code, orin.text, orin.fix)
  end
end

-- A Jetson whose module needs a newer CUDA than r on every JetPack it
-- runs (lib/checks.lua jetson_cuda_too_old: Jetson Thor before CUDA 13.0
-- [thor-cuda13]).  The fix is the CUDA to take, with the PyTorch release
-- that builds it when this one builds none.  Message and fix of
-- jetson-thor-needs-cuda-13, for a plan and a fleet's Jetson nodes alike;
-- nil when the module runs r.
function M.jetson_module_words(facts, torch, r, items)
  local x = C.jetson_cuda_too_old(facts, r)
  if not x then return nil end
  local use, fix = T.suggest(facts, torch, r, items), nil
  if use then
    fix = ("use CUDA %s or newer (--cuda %s)"):format(x.need, use.version)
  else
    local need, first = A.release(x.need), nil
    for _, t in ipairs(pytorch.releases) do
      if need and T.torch_builds(t, need) then first = t; break end
    end
    fix = first and ("use CUDA %s or newer, with PyTorch %s or newer: PyTorch %s builds no CUDA that new (--torch %s --cuda %s)"):format(
        x.need, first.version, torch.version, first.version, x.need)
      or ("use CUDA %s or newer (--cuda %s)"):format(x.need, x.need)
  end
  return x.text, fix
end

local function jetson_module_problems(p, facts, torch, r, items)
  local message, fix = M.jetson_module_words(facts, torch, r, items)
  if message then problem(p, "error", "jetson-thor-needs-cuda-13", message, fix) end
end

-- A Jetson whose JetPack runs no SBSA CUDA r (lib/checks.lua
-- jetpack_too_old [tegra-upgrade]: Jetson Thor on JetPack 7.0 or 7.1
-- with CUDA 13.1 or later).  The fix: the JetPack's own CUDA, when the
-- PyTorch release builds with it, or the JetPack to flash.  Message and
-- fix of jetpack-too-old-for-cuda, for a plan and a fleet's Jetson nodes
-- alike; nil when the JetPack runs r.
function M.jetpack_words(facts, torch, r)
  local x = C.jetpack_too_old(facts, r)
  if not x then return nil end
  local ownr = A.release(x.own)
  local fix = {}
  if ownr and T.torch_builds(torch, ownr) then
    fix[#fix + 1] = ("use CUDA %s, the one JetPack %s runs (--cuda %s)"):format(x.own, x.jetpack, x.own)
  end
  if x.flash then
    fix[#fix + 1] = x.flash_has and ("flash %s, which runs CUDA %s, and plan again"):format(x.flash, x.flash_runs)
      or ("flash %s, which runs CUDA %s (none of them %s), and choose one of those"):format(x.flash, x.flash_runs, r.version)
  end
  return x.text, #fix > 0 and table.concat(fix, ", or ") or ("use the CUDA JetPack %s runs"):format(x.jetpack)
end

local function jetpack_problems(p, facts, torch, r)
  local message, fix = M.jetpack_words(facts, torch, r)
  if message then problem(p, "error", "jetpack-too-old-for-cuda", message, fix) end
end

-- The glibc limits of the toolkit binaries: too old for CUDA r's
-- libraries, or too new for its headers.  Adds to problem list p.
local function glibc_problems(p, facts, r)
  local glibc = facts.host.glibc
  if glibc then
    if A.vcmp(r.version, cuda.glibc.min.since) >= 0 and A.vcmp(glibc, cuda.glibc.min.version) < 0 then
      problem(p, "error", "glibc-too-old",
        ("glibc %s is older than CUDA %s's libraries need (%s: 'undefined reference to log2f@GLIBC_2.27')"):format(glibc, r.version, cuda.glibc.min.version),
        "use CUDA 12.6 or older, or a newer distribution")
    end
    if A.vcmp(r.version, cuda.glibc.max.upto) <= 0 and A.vcmp(glibc, cuda.glibc.max.below) >= 0 then
      problem(p, "error", "glibc-too-new",
        ("glibc %s declares C23 math functions that clash with CUDA %s's headers (fixed in CUDA %s)"):format(glibc, r.version, T.glibc_fixed_in()),
        ("use CUDA %s or newer"):format(T.glibc_fixed_in()))
    end
  end
end

-- Other CUDA toolkits on the machine than the plan's.  Adds to problem
-- list p; returns their roots, sorted.
local function other_toolkits(p, facts, choice)
  local others = {}
  for _, t in ipairs(facts.toolkits or {}) do
    if t.root ~= choice.root then others[#others + 1] = t.root end
  end
  if #others > 0 then
    table.sort(others)
    problem(p, "warning", "multiple-toolkits",
      ("other CUDA toolkits are installed (%s): mixing them fails with 'Found two conflicting CUDA versions' or loads the wrong libraries"):format(table.concat(others, ", ")),
      ("use the plan's environment: it puts only %s on PATH and LD_LIBRARY_PATH"):format(choice.root))
  end
  return others
end

-- The problems of building with CUDA release r here: PyTorch's support,
-- the driver, the platform, glibc, cuDNN, assumed data, other toolkits.
-- Returns the problem list and the other toolkits' roots.
function M.cuda_problems(facts, torch, r, tk, platform, choice, items)
  local p = {}
  if choice.undecided then
    -- no CUDA chosen (facts that cannot both be true): the one error, and
    -- nothing judged against a guess of one (lib/checks jetson_mismatch)
    local mis = C.jetson_mismatch(facts)
    problem(p, mis.severity, mis.code, mis.text, mis.fix)
    return p, other_toolkits({}, facts, choice)
  end
  torch_support_problems(p, facts, torch, r, items)
  driver_problems(p, facts, r, torch, items)
  platform_problems(p, facts, r, platform, choice)
  toolkit_problems(p, facts, torch, r, tk, platform)
  jetson_module_problems(p, facts, torch, r, items)
  jetpack_problems(p, facts, torch, r)
  glibc_problems(p, facts, r)
  -- cuDNN: PyTorch turns USE_CUDNN off with only a CMake warning when it
  -- finds none (scenarios S25); JetPack ships it.
  if choice.source ~= "jetpack" and not (tk and tk.cudnn) and not choice.cudnn then
    problem(p, "warning", "cudnn-not-found",
      tk and ("no cuDNN was found with the toolkit in %s: PyTorch would build without it, silently"):format(tk.root)
        or ("CUDA %s downloads do not include cuDNN: PyTorch would build without it, silently"):format(r.version),
      cudnn_fix(r, platform, choice.root, torch))
  end
  if r.unknown and tk then
    -- a release newer than the tables, installed (T.unknown_release)
    local message, fix = C.unknown_release_words(facts, r, tk, torch)
    problem(p, "warning", "cuda-release-unknown", message, fix)
  end
  local what = C.assumed_data(r)
  if what then
    problem(p, "warning", "cuda-data-assumed",
      ("the %s of CUDA %s are assumed equal to those of CUDA %s (no source ptbuild has lists them)"):format(what, r.version,
        A.release_before(r) or "the release before it"),
      r.assumed and ("check with '%s/bin/nvcc --list-gpu-arch' after install"):format(choice.root)
        or ("check the #if guards of %s/include/crt/host_config.h"):format(choice.root))
  end
  return p, other_toolkits(p, facts, choice)
end

-- The architectures detect read from torch's libtorch_cuda (t.archs):
-- its SASS, and its PTX of generic ("8.6") architectures.  Returns
-- archs (nil when none were read), sass, ptx.
local function torch_archs(t)
  local archs = type(t.archs) == "table" and t.archs or nil
  local sass, ptx = {}, {}
  for _, a in ipairs(archs and type(archs.sass) == "table" and archs.sass or {}) do
    if type(a) == "string" then sass[#sass + 1] = a end
  end
  for _, a in ipairs(archs and type(archs.ptx) == "table" and archs.ptx or {}) do
    if type(a) == "string" and a:match("^%d+%.%d$") then ptx[#ptx + 1] = a end
  end
  return archs, sass, ptx
end

-- The arch list torch was built with, as TORCH_CUDA_ARCH_LIST writes it
-- ("8.6;9.0+PTX"), from its SASS and PTX.  Returns the list's entries
-- and the set of the generic ("8.6", not "9.0a") SASS.
local function built_arch_list(sass, ptx)
  local generic, has_ptx, has_sass, list = {}, {}, {}, {}
  for _, a in ipairs(ptx) do has_ptx[a] = true end
  for _, a in ipairs(sass) do
    if a:match("^%d+%.%d$") then generic[#generic + 1] = a; has_sass[a] = true end
  end
  for _, a in ipairs(generic) do list[#list + 1] = a .. (has_ptx[a] and "+PTX" or "") end
  for _, a in ipairs(ptx) do if not has_sass[a] then list[#list + 1] = a .. "+PTX" end end
  return list, has_sass
end

-- The code in torch a GPU of capability cc runs: its best generic SASS,
-- else arch-specific or family SASS, else PTX.  Returns code, kind
-- ("sass" or "ptx"), both nil when it has nothing for the GPU.
local function gpu_runs(list, sass, has_sass, cc)
  local code, kind = W.gpu_code(table.concat(list, ";"), cc)
  -- "+PTX" in the list also means SASS: only PTX for an arch it has
  -- no SASS of
  if kind == "sass" and not has_sass[code:gsub("^sm_(%d+)(%d)$", "%1.%2")] then
    code, kind = code:gsub("^sm_", "compute_") .. " (PTX, JIT-compiled on first use)", "ptx"
  end
  if kind ~= "sass" then
    local gmaj, gmin = cc:match("^(%d+)%.(%d+)$")
    for _, a in ipairs(gmaj and sass or {}) do
      local maj, min, v = a:match("^(%d+)%.(%d)([af])$")
      if v == "a" and maj .. "." .. min == cc or
         v == "f" and maj == gmaj and tonumber(min) <= tonumber(gmin) then
        code, kind = ("sm_%s%s%s"):format(maj, min, v), "sass"
      end
    end
  end
  return code, kind
end

-- Why the installed torch as a whole may not cover the GPUs: a CPU-only
-- build, architectures not read, a driver too old for its CUDA.  Adds
-- to v.reasons (and a need), and lowers v.covered.
local function torch_reasons(v, archs, cuda_r, need, jit)
  local t, facts = v.t, v.facts
  if t.cuda == nil or t.cuda == ptb.null then
    v.covered = false
    v.reasons[#v.reasons + 1] = ("torch %s is a CPU-only build (torch/version.py names no CUDA)"):format(t.version)
  elseif not archs then
    v.covered = nil
    v.reasons[#v.reasons + 1] = ("the architectures of torch %s's libtorch_cuda were not read (%s)"):format(
      t.version, type(t.libtorch_cuda) == "string" and t.libtorch_cuda or "no libtorch_cuda found")
  end
  if cuda_r and v.runs == nil then
    v.covered = false
    v.reasons[#v.reasons + 1] = ("driver %s is too old for the CUDA %s torch %s was built with (it needs %s)"):format(
      tostring(facts.driver and facts.driver.version), t.cuda, t.version, T.driver_need_compat(cuda_r))
    need(("a CUDA that driver %s runs (%s at most); or %s, which runs this torch as it is"):format(
      tostring(facts.driver and facts.driver.version), tostring(facts.driver and facts.driver.cuda_max or "?"),
      T.driver_least(facts, cuda_r, jit)))
  end
end

-- How GPU g (shown as `name`) runs the installed torch, given the code
-- and kind gpu_runs found: a reason added to v.reasons (and v.jit for
-- PTX); v.covered false when it cannot run it.  Returns the code, of PTX
-- only its first word.
local function gpu_verdict(v, g, name, archs, code, kind)
  local cc = g.compute_capability
  if archs and not code then
    v.covered = false
    v.reasons[#v.reasons + 1] = ("it has no code for %s: \"no kernel image is available for execution on the device\""):format(name)
  elseif kind == "ptx" then
    code = code:match("^%S+")
    v.jit[#v.jit + 1] = tostring(g.name or cc)
    if v.runs == "compat" then
      v.covered = false
      v.reasons[#v.reasons + 1] = ("%s has only its PTX (%s), which driver %s cannot JIT-compile: it runs CUDA %s only through minor-version compatibility"):format(
        name, code, tostring(v.facts.driver and v.facts.driver.version), v.t.cuda)
    else
      v.reasons[#v.reasons + 1] = ("%s has no SASS in it and runs only by JIT-compiling its PTX %s: minutes at first use in every new cache, kernels not tuned for it"):format(name, code)
    end
  elseif kind == "sass" then
    v.reasons[#v.reasons + 1] = ("%s runs its SASS %s"):format(name, code)
  end
  return code
end

-- What a build needs for a GPU of capability cc that runs `code` of
-- kind `kind` now: SASS of its own capability, and a CUDA that builds
-- it.  Adds it through need().  r: the plan's CUDA, nil when it chooses
-- none (cuda.undecided).
local function gpu_need(need, name, cc, code, kind, arch, r)
  if kind == "sass" and code ~= "sm_" .. tostring(cc):gsub("%.", "") then
    need(("nothing for %s, which runs %s; SASS of %s itself only where kernels tuned for it matter"):format(name, code, cc))
  elseif type(cc) == "string" and kind ~= "sass" and cc:match("^%d+%.%d$") then
    local first
    for _, v in ipairs(A.known_versions()) do
      local rr = A.release(v)
      if rr and T.builds_gpu(rr, cc) then first = rr.version; break end
    end
    need(("SASS for %s: TORCH_CUDA_ARCH_LIST with %s (this plan's: %s)%s"):format(name, cc, arch.list,
      first and ("; a CUDA that builds it, %s or newer (%s)"):format(first,
        r and ("this plan's: " .. r.version) or "this plan chooses none until the facts agree") or ""))
  end
end

-- The installed torch (facts.torch, with the architectures detect read
-- from its libtorch_cuda): does it cover each GPU, and what would a source
-- build need?  A GPU runs SASS of its own major and a minor no newer than
-- its own, arch-specific SASS ("9.0a") of exactly its capability, family
-- SASS ("10.0f") of its major, or else PTX it JIT-compiles (W.gpu_code;
-- CUDA C++ Programming Guide, "Binary Compatibility", "PTX
-- Compatibility").  nil when no torch is installed.
local function installed_torch(facts, r, arch, cplan)
  local t = facts.torch
  if type(t) ~= "table" or type(t.version) ~= "string" then return nil end
  local it = { version = t.version, cuda = type(t.cuda) == "string" and t.cuda or ptb.null,
               libtorch_cuda = type(t.libtorch_cuda) == "string" and t.libtorch_cuda or ptb.null,
               gpus = {}, needs = {} }
  local gpus = facts.gpus or {}
  local function need(s) it.needs[#it.needs + 1] = s end
  local archs, sass, ptx = torch_archs(t)
  local list, has_sass = built_arch_list(sass, ptx)
  it.arch_list = archs and table.concat(list, ";") or ptb.null
  it.sass = ptb.array(sass)
  it.ptx = ptb.array(ptx)

  local cuda_r = type(t.cuda) == "string" and A.release(t.cuda) or nil
  -- the verdict so far: covered is true, false or nil (not known)
  local v = { t = t, facts = facts, runs = cuda_r and T.driver_runs(cuda_r, facts.driver),
              reasons = {}, covered = true, jit = {} }
  -- the GPUs that would run it by PTX alone, which no driver of
  -- minor-version compatibility JIT-compiles (T.driver_least)
  local jit = {}
  for _, g in ipairs(archs and gpus or {}) do
    local cc = g.compute_capability
    if type(cc) == "string" and select(2, gpu_runs(list, sass, has_sass, cc)) == "ptx" then
      jit[#jit + 1] = tostring(g.name or cc)
    end
  end
  torch_reasons(v, archs, cuda_r, need, jit)
  if #gpus == 0 and v.covered then v.covered = nil end
  for _, g in ipairs(gpus) do
    local cc = g.compute_capability
    local code, kind
    if archs and type(cc) == "string" then code, kind = gpu_runs(list, sass, has_sass, cc) end
    it.gpus[#it.gpus + 1] = { name = g.name or ptb.null, compute_capability = cc or ptb.null,
                              runs = code or (archs and "none" or ptb.null) }
    local name = ("%s (%s)"):format(tostring(g.name or "GPU"), tostring(cc))
    code = gpu_verdict(v, g, name, archs, code, kind)
    it.gpus[#it.gpus].runs = code or it.gpus[#it.gpus].runs
    gpu_need(need, name, cc, code, kind, arch, not cplan.undecided and r or nil)
  end
  it.covered = v.covered == nil and ptb.null or v.covered
  it.jit = #v.jit > 0
  it.jit_gpus = ptb.array(v.jit)
  local where = cplan.source == "installed" and ("installed in " .. cplan.root) or (cplan.source .. " to " .. cplan.root)
  need(cplan.undecided and ("this plan: no CUDA until the facts agree (see the %s error), TORCH_CUDA_ARCH_LIST=%s"):format(cplan.undecided, arch.list)
    or ("this plan: CUDA %s (%s), TORCH_CUDA_ARCH_LIST=%s"):format(r.version, where, arch.list))
  it.why = ("torch %s%s, %s: %s"):format(t.version, type(t.cuda) == "string" and (" (CUDA " .. t.cuda .. ")") or "",
    #list > 0 and ("built for " .. table.concat(list, ";")) or "no architectures read", table.concat(v.reasons, "; "))
  it.gpus = ptb.array(it.gpus)
  it.needs = ptb.array(it.needs)
  return it
end

-- --cuda X.Y of a release ptbuild's tables lack, installed here: the
-- toolkit's release as its own nvcc answered (T.unknown_release), or
-- the error when its nvcc's GPU list was not read (nothing to judge the
-- arch list by); nil when no toolkit of X.Y is installed.
local function installed_unknown(facts, minor)
  for _, tk in ipairs((facts or {}).toolkits or {}) do
    if type(tk) == "table" and tk.root and A.cuda_minor(tk.version) == minor then
      local r = T.unknown_release(tk)
      if r then return r end
      local g = type(tk.gpu_list) == "table" and tk.gpu_list or nil
      return nil, { kind = "usage",
        message = ("CUDA %s is installed in %s, but ptbuild's tables stop at CUDA %s and its nvcc's GPU list was not read%s: nothing to judge an arch list by"):format(
          minor, tk.root, T.tables_end(), g and type(g.error) == "string" and (" (" .. g.error .. ")") or ""),
        hint = ("run 'ptbuild plan --cuda %s' on the machine itself (detect asks %s/bin/nvcc --list-gpu-arch and --list-gpu-code), or choose a release ptbuild knows"):format(minor, tk.root) }
    end
  end
  return nil
end

-- The PyTorch release (--torch, else the newest) and the CUDA release
-- asked for (--cuda), each a usage error when unknown; --cuda of a
-- release newer than the tables is planned when it is installed here
-- and its nvcc answered (installed_unknown).  Returns torch,
-- want, errors.
local function releases_asked(args)
  local errors = {}
  local torch
  if args.torch then
    torch = M.torch_release(args.torch)
    if not torch then
      errors[#errors + 1] = { kind = "usage", message = ("unknown PyTorch release '%s'"):format(args.torch),
        hint = "known releases: " .. table.concat(M.known_torch(), " ") }
    end
  else
    torch = pytorch.releases[#pytorch.releases]
  end
  local want
  if args.cuda then
    local m, unread
    want, m = A.release(args.cuda)
    if not want and m then want, unread = installed_unknown(args.facts, m) end
    if unread then
      errors[#errors + 1] = unread
    elseif not want or A.vcmp(want.version, "11.8") < 0 then
      -- ptbuild knows the 11.x releases before 11.8 ('ptbuild arch'
      -- checks an arch list against them), but no plan installs them
      local old = want and want.version
      want = nil
      errors[#errors + 1] = { kind = "usage",
        message = old and ("CUDA %s is older than every CUDA a plan installs (11.8 and newer); 'ptbuild arch LIST --cuda %s' still checks an arch list against it"):format(old, old)
          or m and ("unknown CUDA release '%s'"):format(args.cuda) or ("'%s' is not a CUDA version (expected X.Y, X.Y.Z or cuXYZ)"):format(args.cuda),
        hint = "releases a plan installs: " .. table.concat(M.known_cuda(), " ") }
    end
  end
  return torch, want, errors
end

-- A Jetson's side of the plan's cuda block cplan for release r: where
-- a JetPack-era CUDA comes from, and the packages beside the toolkit it
-- needs to run (installer answer inst).
local function jetson_cuda(cplan, facts, r, inst)
  if cplan.source == "jetpack" then
    cplan.jetpack_deb = inst.jetpack_deb
    -- a CUDA the JetPack does not ship: where NVIDIA's Jetson local repo
    -- of it is (its .deb names the update it holds), for setup.sh to name
    local src = T.jetson_source(facts, r)
    local label = src and src:match("_(%d+%.%d+%.%d+)%-%d+_arm64%.deb$")
    -- known not to be the JetPack's own (named local repo or none): setup.sh
    -- must not send the user to nvidia-jetpack for it
    if src ~= "jetpack" then cplan.jetpack_ships = false end
    if label then
      cplan.jetpack_repo = T.local_installer_url(label, src)
    end
    -- where the CUDA comes from, as fetch's and generate's notes say it
    cplan.origin = cplan.jetpack_repo and "NVIDIA's Jetson local repo"
      or cplan.jetpack_ships == false and "NVIDIA's Jetson packages" or "JetPack"
  end
  -- a CUDA newer than the JetPack's runs only with NVIDIA's upgrade
  -- package, from root/compat (setup.sh names it, the environment puts
  -- that directory first on LD_LIBRARY_PATH); the Orin compatibility
  -- package of the release notes (inst.orin_compat) is that package, so
  -- it is named apart only where no upgrade package is known
  local up = T.jetson_upgrade(facts, r, cplan.platform, cplan.root)
  if up then cplan.compat = up
  elseif inst.orin_compat then cplan.orin_compat = inst.orin_compat end
end

-- Where toolkit choice ch of release r comes from (the installer
-- T.platform gave): "installed", "jetpack" or "download", and its root.
local function cuda_source(ch, r, installer)
  if ch.tk then return "installed", ch.tk.root end
  return installer == "jetpack" and "jetpack" or "download", "/usr/local/cuda-" .. r.version
end

-- The cuDNN of a downloaded toolkit, into the same tree (NVIDIA's
-- tarball install: its include/ and lib/ beside CUDA's), where PyTorch's
-- FindCUDNN looks (CUDA_TOOLKIT_ROOT_DIR).  Its checksums come from
-- ptbuild's data even when the CUDA files' come from NVIDIA's manifest
-- (components lists those; fetch resolves them there).  Appends it to
-- the installer answer's downloads; returns it and T.cudnn's info, or nil.
local function cuda_cudnn(args, source, r, platform, want, inst)
  if source ~= "download" or args.no_cudnn then return nil end
  local cudnn, cinfo = T.cudnn(r, platform, want)
  if cudnn then inst.downloads[#inst.downloads + 1] = cudnn end
  return cudnn, cinfo
end

-- A container image of this plan builds for linux/amd64 and linux/arm64
-- (SBSA): the redist files of both, each marked with its platform, for
-- the generated Dockerfile.  fetch uses `downloads` (this host's) only.
local function docker_downloads(args, r, want)
  local docker = {}
  for _, p in ipairs({ "linux-x86_64", "linux-sbsa" }) do
    if contains(r.platforms, p) then
      local files = T.installer(r, p, "redist").downloads
      local c = #files > 0 and not args.no_cudnn and T.cudnn(r, p, want)
      if c then files[#files + 1] = c end
      for _, d in ipairs(files) do
        d.platform = p
        docker[#docker + 1] = d
      end
    end
  end
  return ptb.array(docker)
end

-- A Jetson whose module has no release of its L4T's JetPack (lib/toolkit
-- jetson_mismatch): which toolkit fits rests on the fact in dispute (a
-- Thor on L4T 38 and later takes the SBSA toolkit, a module of JetPack
-- 6.2 JetPack's CUDA 12.6), so the plan's cuda block plans nothing on
-- either guess: no download, runfile, cuDNN, upgrade package or image
-- files, and `undecided` names the error that holds the choice.  Its
-- version, root and platform stay the candidate's, only so that the rest
-- of the plan (the environment's place of a toolkit) can be read.
-- Its why says that, not the candidate's reason (the candidate's
-- source and installer stay too: plan_check.c knows no value for none).
local function undecided_cuda(cplan)
  cplan.undecided = "jetson-facts-disagree"
  cplan.why = ("none chosen until the facts agree (see the %s error): CUDA %s in %s is only the candidate the module alone would take, kept so that the rest of the plan reads, and nothing is downloaded or installed for it"):format(
    cplan.undecided, cplan.version, cplan.root)
  cplan.downloads, cplan.components = ptb.array({}), ptb.array({})
  cplan.docker_downloads = ptb.array({})
  cplan.manifest, cplan.runfile = ptb.null, ptb.null
  cplan.files_from_manifest = false
  cplan.cudnn, cplan.compat, cplan.orin_compat = nil, nil, nil
  cplan.jetpack_deb, cplan.jetpack_repo, cplan.origin = nil, nil, nil
  return cplan
end

-- The plan's CUDA for toolkit choice ch: where it comes from (installed,
-- JetPack or a download) and, for a download, its files with cuDNN, and
-- both Docker platforms' files for a generated image.  Returns the plan's
-- cuda object and the installer's answer, with ncuda (CUDA files with
-- carried checksums) and cudnn (the cuDNN download, if any).
local function cuda_plan(facts, args, ch, torch)
  local r = ch.release
  local platform, installer = T.platform(facts, r)
  local inst = T.installer(r, platform, installer, facts)
  local source, root = cuda_source(ch, r, installer)
  local ncuda = #inst.downloads   -- CUDA files with carried checksums
  local want = wheel_cudnn(torch, r)
  local cudnn, cinfo = cuda_cudnn(args, source, r, platform, want, inst)
  local dl = source == "download"
  local cplan = {
    version = r.version,
    full_version = ch.tk and ch.tk.version or inst.full_version,
    platform = platform, source = source, root = root, installer = installer,
    downloads = ptb.array(dl and inst.downloads or {}),
    manifest = dl and inst.manifest or ptb.null,
    components = ptb.array(dl and inst.components or {}),
    runfile = dl and inst.runfile or ptb.null,
    -- a Jetson's facts that disagree: which one the choice was judged by
    why = ch.why .. C.jetson_facts_clause(facts),
  }
  jetson_cuda(cplan, facts, r, inst)
  -- fetch resolves the CUDA files through the manifest (checksums and all)
  if dl and ncuda == 0 then cplan.files_from_manifest = true end
  if cudnn then
    -- manifest: the cuDNN release's label (redistrib_<label>.json);
    -- wheel_version: what the release's own wheel of this CUDA uses, when
    -- known
    cplan.cudnn = { version = cudnn.version, variant = cudnn.variant, source = "download",
                    manifest = cinfo.label, wheel_version = want }
    -- a release carried as per-archive digests: where the sha256 is from
    if cinfo.sources then cplan.cudnn.archive_sources = ptb.array(cinfo.sources) end
  end
  if args.no_cudnn then cplan.cudnn = { source = "off" } end
  cplan.docker_downloads = docker_downloads(args, r, want)
  if T.jetson_mismatch(facts) then return undecided_cuda(cplan), inst, 0, nil, nil end
  return cplan, inst, ncuda, cudnn, cinfo
end

-- Why the plan downloads this cuDNN: the one the release's own wheel of
-- this CUDA uses (data/pytorch.lua wheel_cudnn) when ptbuild carries it;
-- else the newest carried, and the reason says why, so a user can tell
-- the difference -- a wheel whose cuDNN no source read here names (2.12's
-- cu129) is not a wheel that does not exist.
local function newer_note(cinfo)
  return cinfo.newer_digests and ("; %s, newer, is carried only as per-archive sha256 for the wheels that use it"):format(cinfo.newer_digests) or ""
end
local function cudnn_why(torch, r, platform, cudnn, cinfo)
  local wc, cu = cinfo.wheel, "cu" .. r.version:gsub("%.", "")
  local major = r.version:match("^%d+")
  if cinfo.chosen == "wheel" and not cinfo.manifest_sha256 then
    -- carried as per-archive digests (data/redist.lua archives_from)
    local n = #(cinfo.sources or {})
    return ("the cuDNN PyTorch %s's %s wheels use; ptbuild holds no copy of NVIDIA's redistrib_%s.json, only this archive's sha256 as %s give%s it (%s in ptbuild's sources)%s"):format(
      torch.version, cu, cinfo.label, n == 1 and "one source" or (n .. " sources"), n == 1 and "s" or "",
      table.concat(cinfo.sources or {}, ", "),
      cudnn.size and "" or ", and no size: fetch checks the sha256 alone")
  elseif cinfo.chosen == "wheel" then
    return ("the cuDNN PyTorch %s's %s wheels use, from NVIDIA's redistrib_%s.json, whose checksums ptbuild carries"):format(
      torch.version, cu, cinfo.label)
  elseif wc then
    return ("PyTorch %s's %s wheels use cuDNN %s, %s: the newest cuDNN whose whole NVIDIA manifest ptbuild holds for CUDA %s on %s instead (redistrib_%s.json)%s"):format(
      torch.version, cu, wc,
      cinfo.wheel_carried == "manifest" and ("of which NVIDIA has no %s %s archive"):format(platform, cudnn.variant)
        or cinfo.wheel_carried == "digests" and ("whose %s %s archive no source read gives the sha256 of"):format(platform, cudnn.variant)
        or "whose checksums ptbuild does not carry",
      major, platform, cinfo.label, newer_note(cinfo))
  elseif contains(torch.cuda, r.version) then
    return ("ptbuild does not know the cuDNN PyTorch %s's %s wheels use: the newest cuDNN whose whole NVIDIA manifest ptbuild holds for CUDA %s on %s (redistrib_%s.json)%s"):format(
      torch.version, cu, major, platform, cinfo.label, newer_note(cinfo))
  end
  return ("PyTorch %s has no %s wheel to take the cuDNN of: the newest cuDNN whose whole NVIDIA manifest ptbuild holds for CUDA %s on %s (redistrib_%s.json)%s"):format(
    torch.version, cu, major, platform, cinfo.label, newer_note(cinfo))
end

-- The CUDA decision of a plan that chooses none (undecided_cuda): the
-- row says so and points at the error; nothing else about CUDA is said.
local function decide_undecided(decide, facts, cplan)
  local mis = T.jetson_mismatch(facts)
  decide("cuda", ("none chosen until the facts agree (see the %s error)"):format(cplan.undecided),
    ("which toolkit fits rests on the facts in dispute: a Jetson runs the CUDA of its JetPack (the %s's are those of L4T %s), and L4T %s's JetPack %s has no release for the %s; ptbuild plans no toolkit, download, cuDNN or upgrade package on either guess.  The environment and CMake values below keep the place of CUDA %s (%s), the toolkit the module alone would take, only so that the rest of the plan reads: they are no choice; USE_CUDNN is 0, as the plan provides no cuDNN"):format(
      mis.family, table.concat(mis.runs, ", "), mis.l4t, mis.jetpack, mis.family, cplan.version, cplan.root))
end

-- The decisions about CUDA: the toolkit, the runfile alternative, cuDNN
-- and where the file list comes from.
local function decide_cuda(decide, facts, torch, args, ch, cplan, inst, ncuda, cudnn, cinfo)
  local r, source, root, installer = ch.release, cplan.source, cplan.root, cplan.installer
  if cplan.undecided then return decide_undecided(decide, facts, cplan) end
  local how = source == "installed" and "installed" or
    (source == "jetpack" and "from JetPack" or ("download, " .. installer .. (ncuda > 0 and (", " .. ncuda .. " files with sha256") or ", resolved from the manifest")))
  if source == "jetpack" then
    -- a CUDA the JetPack does not ship comes from NVIDIA's Jetson local
    -- repo of this Ubuntu release: name it, or nobody knows where to look
    local src, _, kind = T.jetson_source(facts, r)
    if not src then
      -- no Jetson package of it for this Ubuntu release, none the upgrade
      -- serves on this JetPack, or none ptbuild names (jetson_source)
      how = kind == "ubuntu" and "from no package for this Ubuntu release (see cuda-platform-missing)"
        or "from no package that installs on this JetPack (see cuda-platform-missing)"
    elseif src ~= "jetpack" then
      how = "from NVIDIA's Jetson local repo " .. src
    end
  end
  local why = cplan.why
  local upd = source ~= "installed" and T.asked_update(args.cuda, cplan.full_version)
  if upd then why = upd .. (why:match("^%-%-cuda [%d.]+(.*)$") or ("; " .. why)) end
  decide("cuda", ("CUDA %s (%s) for %s, %s, in %s"):format(r.version, cplan.full_version, cplan.platform, how, root), why)
  if source == "download" and inst.runfile ~= ptb.null then
    local rf = inst.runfile
    decide("alternative", rf.name, rf.sha256
      and ("the runfile installer (needs root; sha256 " .. rf.sha256:sub(1, 12) .. "...)")
      or rf.md5 and rf.size and ("the runfile installer (needs root; NVIDIA publishes no sha256 of it, only md5 %s and %d bytes: check both before running it)"):format(rf.md5, rf.size)
      or rf.md5 and ("the runfile installer (needs root; NVIDIA publishes no sha256 of it, only md5 %s: check it before running it)"):format(rf.md5)
      or "the runfile installer (needs root; unpinned: ptbuild knows no checksum of it -- check NVIDIA's md5sum.txt)")
  end
  if cplan.orin_compat then
    -- an Orin on the SBSA toolkit (data/cuda.lua orin_compat): the plan's
    -- cuda block names the package; the text must too, or an Orin user
    -- never hears of it.  It serves an Orin on L4T 39 and later only
    -- (lib/toolkit orin_sbsa_blocked): on an older L4T the decision must
    -- not send the user to install it beside a CUDA that will not run
    local oc = cplan.orin_compat
    local l4t = facts.jetson and facts.jetson.l4t
    local serves = ("what lets an Orin on JetPack 7.2 (L4T 39) or newer, whose driver is older than CUDA %s, run the SBSA toolkit"):format(r.version)
    decide("orin_compat", ("%s %s"):format(oc.name, oc.version),
      T.orin_sbsa_blocked(facts, r)
        and ("%s; on L4T %s it does not (see the jetson-orin-needs-cuda-13.2 problem)"):format(serves, tostring(l4t or "?"))
        or ("%s; NVIDIA lists it for arm64-sbsa among CUDA %s's components, and ptbuild does not download it: install it from NVIDIA's CUDA %s packages"):format(
          serves, oc.label, oc.label))
  end
  if cplan.compat then
    local jp, own = T.jetpack(facts)
    local oc = inst.orin_compat
    decide("cuda_compat", ("%s, %s first on LD_LIBRARY_PATH"):format(cplan.compat.package, cplan.compat.dir),
      ("JetPack %s's driver is CUDA %s's: programs built with CUDA %s run on it only with NVIDIA's CUDA upgrade package for Jetson%s, whose driver libraries the environment loads from %s"):format(
        jp, own, r.version, oc and (" (the %s %s of CUDA %s's components)"):format(oc.name, oc.version, oc.label) or "",
        cplan.compat.dir))
  end
  if args.no_cudnn then
    decide("cudnn", "off (USE_CUDNN=0)", "--no-cudnn")
  elseif cudnn then
    local why = cudnn_why(torch, r, cplan.platform, cudnn, cinfo)
    decide("cudnn", ("cuDNN %s (%s variant), downloaded with the toolkit into %s"):format(cudnn.version, cudnn.variant, root),
      why .. "; without one PyTorch builds with USE_CUDNN off, silently")
  end
  if source == "download" and ncuda == 0 then
    decide("downloads", inst.manifest, "ptbuild holds no copy of this manifest: fetch reads the file list and checksums from it")
  end
end

-- The decision about an installed torch (itorch), said second, after the
-- wheel's.
local function decide_installed_torch(decisions, decide, facts, itorch)
  local gnames = {}
  for _, g in ipairs(facts.gpus or {}) do gnames[#gnames + 1] = tostring(g.name or g.compute_capability) end
  local who = #gnames > 0 and table.concat(gnames, ", ") or "the GPUs (none seen)"
  local jit = ""
  if itorch.jit then
    jit = #itorch.jit_gpus == #gnames and " only by JIT-compiling PTX"
      or (" (%s only by JIT-compiling PTX)"):format(table.concat(itorch.jit_gpus, ", "))
  end
  decide("installed_torch",
    itorch.covered == true and ("torch %s covers %s%s"):format(itorch.version, who, jit)
      or itorch.covered == false and ("torch %s does not cover %s"):format(itorch.version, who)
      or ("torch %s: coverage unknown"):format(itorch.version),
    itorch.why .. ". A source build needs: " .. table.concat(itorch.needs, "; "))
  local last = table.remove(decisions)
  for i, x in ipairs(decisions) do
    if x.topic == "wheel" then table.insert(decisions, i + 1, last); break end
  end
end

-- What the environment names and the facts do not hold is built by a
-- step of setup.sh and of the Dockerfile, or is off with the reason:
-- ACL (plan.acl) and NCCL.
local function decide_acl_nccl(decide, plan, env, ch)
  local envv = {}
  for _, kv in ipairs(env) do envv[kv.name] = kv.value end
  if envv.USE_MKLDNN_ACL == "1" then
    local tv = (plan.torch or {}).version
    local row = acldata.releases[tv] or { url = acldata.url, sha256 = acldata.sha256 }
    local version = row.cd or acldata.version
    plan.acl = { root = envv.ACL_ROOT_DIR or acldata.root, via = "source", version = version,
                 url = row.url, sha256 = row.sha256,
                 scons_flags = table.concat(acldata.scons_flags, " ") }
    local which = row.cd and ("the ACL PyTorch %s's aarch64 wheels were built with (its oneDNN checks the ACL API)"):format(tv)
      or "the 52.x ACL ptbuild pins (PyTorch's CD builds 52.x from 2.10 on)"
    decide("acl", ("Arm Compute Library %s from source into %s%s"):format(version, plan.acl.root,
        row.sha256 and "" or (", unpinned: ptbuild knows no sha256 of its source archive -- check %s"):format(row.url)),
      "oneDNN uses ACL on aarch64 (USE_MKLDNN_ACL=1), as PyTorch's aarch64 wheels do; its configure fails without it, so setup.sh and the Dockerfile build it with PyTorch's scons flags: "
        .. which)
  elseif envv.USE_MKLDNN_ACL == "0" then
    decide("acl", "off (USE_MKLDNN_ACL=0)", "the CPU lacks LSE atomics: ACL built for armv8.2-a would die with 'Illegal instruction'")
  end
  if envv.USE_SYSTEM_NCCL == "1" then
    decide("nccl", ("the toolkit's NCCL %s in %s (USE_SYSTEM_NCCL=1)"):format(tostring(ch.tk and ch.tk.nccl or "?"), envv.NCCL_ROOT or plan.cuda.root),
      "found with the toolkit; the container image has none and builds PyTorch's own (USE_SYSTEM_NCCL=0)")
  elseif envv.USE_SYSTEM_NCCL == "0" then
    decide("nccl", "PyTorch's own NCCL, built from its source (USE_SYSTEM_NCCL=0)",
      "no NCCL was found with the toolkit: a system NCCL would fail find_package(NCCL REQUIRED)")
  elseif envv.USE_NCCL == "0" then
    decide("nccl", "off (USE_NCCL=0)", "an integrated GPU has no NVLink or InfiniBand peers")
  end
end

-- Is the limit a decision quotes for compiler `kind` a copy of the
-- release before r (data/cuda.lua compilers_assumed) rather than one read
-- from the installed toolkit's host_config.h?
local function assumed_limit(r, tk, kind)
  local read = tk and (kind == "clang" and tk.clang_max or kind ~= "clang" and tk.gcc_max)
  return r.compilers_assumed and not read
end

-- "gcc 16, clang 22 at most", each limit ptbuild knows (C.limits lim).
local function limits_text(lim)
  local parts = {}
  for _, k in ipairs({ "gcc", "clang" }) do
    parts[#parts + 1] = lim[k .. "_max"] and ("%s %d"):format(k, lim[k .. "_max"]) or (k .. " unknown")
  end
  return table.concat(parts, ", ") .. " at most"
end

-- The host compiler's decision; returns what the build environment needs
-- of it ({switched, cxx}).
local function decide_host_compiler(decide, hc, r, tk, undecided)
  local hinfo = { switched = hc.switched }
  if undecided and hc.host then
    -- no CUDA chosen (plan's undecided_cuda): no nvcc to judge it by
    hinfo.cxx = H.cxx_of(hc.host.path)
    decide("host_compiler", ("%s (%s %s)"):format(hinfo.cxx, hc.kind, hc.host.version),
      ("not judged against an nvcc: no CUDA is chosen until the facts agree (see the %s error)"):format(undecided))
    return hinfo
  end
  if hc.unjudged then
    local lim = C.limits(r, tk)
    decide("host_compiler", ("%s (named by CUDAHOSTCXX)"):format(hc.unjudged),
      ("ptbuild knows no version of it, so it cannot check it against nvcc %s (%s)"):format(r.version, limits_text(lim)))
  elseif hc.host then
    hinfo.cxx = H.cxx_of(hc.host.path)
    local lim = C.limits(r, tk)
    local by = hc.named_by and (", named by " .. hc.named_by) or ""
    decide("host_compiler", ("%s (%s %s)"):format(hinfo.cxx, hc.kind, hc.host.version),
      hc.switched and (hc.named_by and ("%s names %s %s, which %s with nvcc %s"):format(hc.named_by, C.compiler_kind(hc.default), hc.default.version,
            hc.maybe and "may not work" or "does not work", r.version)
          or ("the default gcc %s %s with nvcc %s"):format(hc.default.version, hc.maybe and "may not work" or "does not work", r.version))
        or hc.refused and ("refused by nvcc %s%s: see the gcc-too-new problem"):format(r.version, by)
        or hc.unsure and ("not known to work with nvcc %s%s (only its version %s is known): see the gcc-too-new problem"):format(r.version, by, hc.host.version)
        or (hc.kind == "clang" and lim.clang_max or hc.kind ~= "clang" and lim.gcc_max)
          and ("accepted by nvcc %s (%s %d at most%s)%s"):format(r.version, hc.kind,
            hc.kind == "clang" and lim.clang_max or lim.gcc_max,
            assumed_limit(r, tk, hc.kind) and ", assumed from the release before it" or "", by)
        or ("not judged: the newest %s nvcc %s accepts is unknown to ptbuild (see the cuda-release-unknown problem)%s"):format(hc.kind, r.version, by))
  end
  return hinfo
end

-- PATH and LD_LIBRARY_PATH: the toolkit at root first, the other
-- toolkits out.  A distribution's toolkit (Debian's nvidia-cuda-toolkit)
-- is in the system's own /usr: /usr/bin holds the shell and compilers
-- too, so it is never stripped from PATH, and the loader's default
-- directories already hold its libraries (nothing goes on
-- LD_LIBRARY_PATH for it).  A Jetson's CUDA upgrade package (compat, the
-- plan's cuda.compat) goes before the toolkit's lib64, as NVIDIA's
-- example runs it [tegra-upgrade].  Returns path_prepend, path_remove.
local function path_edits(root, others, compat)
  local remove_path, remove_lib = {}, {}
  for _, o in ipairs(others) do
    if o ~= "/usr" then
      remove_path[#remove_path + 1] = o .. "/bin"
      remove_lib[#remove_lib + 1] = o .. "/lib64"
    end
  end
  local prepend_lib = root == "/usr" and {} or { root .. "/lib64" }
  if compat then table.insert(prepend_lib, 1, compat.dir) end
  return { PATH = { root .. "/bin" }, LD_LIBRARY_PATH = ptb.array(prepend_lib) },
         { PATH = ptb.array(remove_path), LD_LIBRARY_PATH = ptb.array(remove_lib) }
end

-- The host's side of the build: BLAS (with the CPU's LSE atomics),
-- MAX_JOBS and the distribution's packages, each decided, their problems
-- appended.  Returns blas, its environment, jobs, packages.
local function host_choices(facts, args, decide, problems)
  local blas, benv, bp = H.openblas(facts)
  append(problems, bp)
  decide("blas", facts.host.arch == "aarch64" and ("OpenBLAS TARGET=%s via %s"):format(blas.target, blas.via) or "PyTorch's default (MKL if found)",
    blas.note .. (blas.alternative and ("; alternative: " .. blas.alternative) or ""))
  if facts.host.arch == "aarch64" then
    local lse = false
    for _, f in ipairs(facts.host.cpu and facts.host.cpu.features or {}) do if f == "atomics" then lse = true end end
    if facts.host.cpu and facts.host.cpu.features and not lse then
      problem(problems, "warning", "cpu-no-lse",
        ("the CPU (%s) lacks LSE atomics (no 'atomics' in its features): code built for armv8.2-a dies with 'Illegal instruction'"):format(facts.host.cpu.model_name or "aarch64"),
        "the plan turns the Arm Compute Library off (USE_MKLDNN_ACL=0); never build with -march=native for other machines")
    end
  end
  -- Jobs
  local jobs, jp = H.max_jobs(facts, args.max_jobs)
  append(problems, jp)
  local _, _, res_txt = H.resources(facts)
  decide("max_jobs", tostring(jobs), ("%s, about %d GiB per CUDA compile job"):format(res_txt, H.GIB_PER_JOB))
  local pkgs = H.packages(facts, blas)
  if pkgs.manager ~= ptb.null then
    decide("packages", pkgs.manager .. ": " .. table.concat(pkgs.names, " "), "build tools" .. (blas.via == "package" and " and OpenBLAS" or "") .. " from the distribution"
      .. (pkgs.note and ("; " .. pkgs.note) or ""))
  end
  return blas, benv, jobs, pkgs
end

-- The Python the build runs in: setup.py stops on one older than the
-- release accepts [pt-setup]; its C++ does not compile for one newer than
-- it builds with (lib/checks python_newer).  Adds to problem list p.
local function python_problems(p, facts, torch)
  local old = C.python_too_old(facts, torch)
  if old then
    problem(p, "error", "python-too-old",
      ("python3 %s (%s) is older than PyTorch %s builds with (Python %s or newer): its setup.py stops with \"You are using Python %s. Python >=%s is required.\""):format(
        old.have, old.path, torch.version, old.need, old.have, old.need),
      ("build from a virtual environment of Python %s-%s (pythonX.Y -m venv .venv && . .venv/bin/activate, with an X.Y in that range)%s"):format(
        torch.python.min, torch.python.max,
        old.newest and (", or build PyTorch %s, the newest release that still takes Python %s"):format(old.newest.version, old.have) or ""))
  end
  local new = C.python_too_new(facts, torch)
  if new then
    problem(p, C.PYTHON_TOO_NEW, "python-too-new",
      ("python3 %s (%s) is %s"):format(new.have, new.path, new.why),
      ("build from a virtual environment of Python %s-%s (python%s -m venv .venv && . .venv/bin/activate)%s"):format(
        torch.python.min, new.max, new.max,
        new.first and (", or build PyTorch %s (--torch %s), the first release that builds with Python %s"):format(new.first.version, new.first.version, new.have) or ""))
  end
end

-- The release asked for, and whether an official wheel would do instead:
-- asked before a multi-hour build.  Returns the wheel's verdict.
local function decide_release(decide, facts, torch, args)
  decide("torch", "PyTorch " .. torch.version, args.torch and "--torch" or "the newest release ptbuild knows (choose with --torch)")
  local wheel = W.cover(facts, torch)
  if wheel.undecided then
    decide("wheel", "none judged until the facts agree", wheel.why)
    return wheel
  end
  -- not covered for want of a driver: the one that would let a wheel do
  local up = wheel.covered == false and not wheel.python_blocked and W.upgrade(facts, torch)
  if up and up.wheel then
    wheel.why = ("%s; with %s%s its cu%s wheel would cover this machine"):format(wheel.why, up.need, up.least and "," or "", up.wheel)
  end
  -- the command with what the wheel's needs add (lib/wheels steps)
  decide("wheel", wheel.covered and W.steps(wheel) or
    (wheel.covered == nil and ("perhaps: " .. W.steps(wheel)) or "no official wheel covers this machine"), wheel.why)
  return wheel
end

-- The arch list asked for, when it parses (G.choose reports it when not).
local function asked_arch_items(arch_list, torch)
  if not arch_list then return nil end
  local items, errs = A.parse(arch_list, torch)
  if #errs == 0 then return items end
  return nil
end

-- The CUDA toolkit and its installer, and what is wrong with them.
-- Returns the choice (lib/toolkit), the plan's cuda and the other
-- toolkits PATH must lose.
local function decide_toolkit(decide, problems, facts, torch, args, want, want_items)
  local ch = T.choose(facts, torch, want, want_items)
  local cplan, inst, ncuda, cudnn, cinfo = cuda_plan(facts, args, ch, torch)
  -- an installed toolkit judged by its own nvcc's GPU list (detect asked
  -- it: its release's list in data/cuda.lua has no source)
  if ch.tk and ch.release.gpu_list_nvcc then
    cplan.gpu_list = { from = "nvcc", nvcc = ch.release.gpu_list_nvcc }
  end
  local cp, others = M.cuda_problems(facts, torch, ch.release, ch.tk, cplan.platform, cplan, want_items)
  append(problems, cp)
  decide_cuda(decide, facts, torch, args, ch, cplan, inst, ncuda, cudnn, cinfo)
  return ch, cplan, others
end

-- The machine the plan is for, as far as its facts say: generate picks
-- the Docker base image by it (a wheel's Python and glibc are the
-- image's).  Only the values the facts have; an object even when empty.
local function machine_of(facts)
  local h = type(facts.host) == "table" and facts.host or {}
  local os = type(h.os) == "table" and h.os or {}
  local py = type(facts.python) == "table" and facts.python or {}
  local function str(v) return type(v) == "string" and v or nil end
  return ptb.object({ arch = str(h.arch), os_id = str(os.id), os_version = str(os.version_id),
                      glibc = str(h.glibc), python = str(py.version) })
end

-- The plan document from the steps' results (s), with the environment
-- and CMake cache lib/buildenv makes of them.  Returns it and the env.
local function plan_document(args, s, decisions, problems)
  local d = { facts = args.facts, root = s.cuda.root, release = s.release, arch = s.arch, host = s.host,
              blas_env = s.blas_env, jobs = s.jobs, tk = s.tk,
              -- a plan that chooses no CUDA provides no cuDNN either
              no_cudnn = args.no_cudnn or s.cuda.undecided ~= nil }
  local env = B.env(d)
  local path_prepend, path_remove = path_edits(s.cuda.root, s.others, s.cuda.compat)
  return {
    schema = "ptbuild.plan/1",
    facts_source = args.facts_source or "host",
    machine = machine_of(args.facts),
    torch = { version = s.torch.version, tag = s.torch.tag, default = args.torch == nil },
    wheel = s.wheel,
    installed_torch = s.installed,   -- absent when no torch is installed
    cuda = s.cuda,
    torch_cuda_arch_list = s.arch.list,
    arch_list_source = s.arch.source,
    cmake = B.cmake(d, env),
    env = env,
    path_prepend = path_prepend,
    path_remove = path_remove,
    openblas = s.blas,
    packages = s.packages,
    max_jobs = s.jobs,
    cmake_fresh = true,
    decisions = decisions,
    problems = ptb.array(problems),
  }, env
end

-- The problems of list ps that do not rest on a CUDA, where the plan
-- chooses none (cplan.undecided): a GPU or compiler judged against the
-- candidate toolkit would be judged on a guess.  All of them otherwise.
local GUESSED = { ["toolkit-drops-gpu"] = true, ["gpu-newer-than-toolkit"] = true, ["arch-list-empty"] = true,
                  ["arch-not-built-by-toolkit"] = true, ["gcc-too-new"] = true, ["cuda-data-assumed"] = true }
local function unguessed(cplan, ps)
  if not cplan.undecided then return ps end
  local out = {}
  for _, x in ipairs(ps) do
    if not GUESSED[x.code] then out[#out + 1] = x end
  end
  return out
end

function M.make(args)
  local facts = args.facts
  gpuname.fill(facts)
  local torch, want, errors = releases_asked(args)
  if #errors > 0 then return { errors = errors } end

  local problems = {}
  local decisions = {}
  local function decide(topic, choice, why) decisions[#decisions + 1] = { topic = topic, choice = choice, why = why } end

  local wheel = decide_release(decide, facts, torch, args)
  python_problems(problems, facts, torch)
  local want_items = asked_arch_items(args.arch_list, torch)
  local ch, cplan, others = decide_toolkit(decide, problems, facts, torch, args, want, want_items)
  local r = ch.release

  local arch, ap, aerr = G.choose(facts, torch, r, cplan.platform, args.arch_list)
  if #aerr > 0 then return { errors = aerr } end
  append(problems, unguessed(cplan, ap))
  decide("arch_list", arch.list ~= "" and arch.list or "none",
    arch.why .. (r.gpu_list_from and ("; judged by the GPU list from %s, not ptbuild's tables"):format(r.gpu_list_from) or "")
      .. (cplan.undecided and "; not judged against a CUDA: none is chosen until the facts agree" or ""))

  local hc, hp = H.host_compiler(facts, r, torch, ch.tk)
  append(problems, unguessed(cplan, hp))
  local hinfo = decide_host_compiler(decide, hc, r, ch.tk, cplan.undecided)
  local blas, benv, jobs, pkgs = host_choices(facts, args, decide, problems)

  -- The torch already installed: does it do, and what would a build add?
  local itorch = installed_torch(facts, r, arch, cplan)
  if itorch then decide_installed_torch(decisions, decide, facts, itorch) end

  local plan, env = plan_document(args, {
    torch = torch, wheel = wheel, installed = itorch, cuda = cplan, release = r, tk = ch.tk,
    others = others, arch = arch, host = hinfo, blas = blas, blas_env = benv, jobs = jobs,
    packages = pkgs }, decisions, problems)
  decide_acl_nccl(decide, plan, env, ch)
  return plan
end

return M
