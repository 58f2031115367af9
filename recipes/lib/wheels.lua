-- wheels: does an official PyTorch wheel already cover this machine?
-- Most people who reach for a source build could install one.  A wheel
-- covers the machine when it is built for its platform, the driver runs
-- the wheel's CUDA, and every GPU finds code in the wheel's arch list:
-- SASS of its own major and a minor no newer than its own (cubins are
-- binary compatible within a major), or PTX it can JIT-compile.
--
-- Sources:
--   the wheels' arch lists: data/pytorch.lua (the wheels table per platform and CUDA,
--   each row cited there);
--   the index URL https://download.pytorch.org/whl/cuXYZ: pytorch.org's
--   "Get started" install selector and the release's RELEASE.md
--   ("pip3 install torch --index-url https://download.pytorch.org/whl/cu126");
--   SASS compatibility within a major: CUDA C++ Programming Guide,
--   "Binary Compatibility" (a cubin for X.y runs on X.z, z >= y);
--   PTX JIT of an earlier virtual architecture: the same guide, "PTX
--   Compatibility";
--   a Jetson on L4T (JetPack 4-6): the wheels NVIDIA and jetson-containers
--   publish per JetPack, data/jetson_wheels.lua (each row cited there); a
--   Jetson from L4T 38 (JetPack 7) runs the SBSA toolkit and so PyTorch's
--   linux-sbsa wheels, data/jetson.lua [thor];
--   the Python each release's wheels are built for: data/pytorch.lua
--   (python, [pt-python]; platform_python where one platform differs, and
--   where no source shows a platform's wheel for the oldest Pythons,
--   [pt-index-matrix]); a Jetson wheel's one Python: data/jetson_wheels.lua
--   ([jc-arch]).  pip installs no wheel built for another Python ("No
--   matching distribution"), so a machine whose python3 (facts.python) is
--   outside the range is not covered, whatever its GPUs.
local A = ptb.include("lib/archlist")
local T = ptb.include("lib/toolkit")
local JW = ptb.include("data/jetson_wheels")
local L4T = ptb.include("data/l4t")
local jetson = ptb.include("data/jetson")

local M = {}

local function cc_parts(cc)
  local maj, min = tostring(cc or ""):match("^(%d+)%.(%d+)")
  return tonumber(maj), tonumber(min)
end

-- How a GPU of capability cc runs code built for items (an arch list as
-- lib/archlist's parse gives it: {cc, suffix, ptx}): "sm_XY" (SASS of its
-- own major at the same or an older minor, or built for exactly it with a
-- suffix) and "sass", or "compute_XY (PTX, ...)" and "ptx" (the newest PTX
-- no newer than the GPU), or nil.
function M.runs(items, cc)
  local gmaj, gmin = cc_parts(cc)
  if not gmaj then return nil end
  local sass, ptx
  for _, it in ipairs(items or {}) do
    local maj, min = cc_parts(it.cc)
    if maj then
      local suffix = it.suffix or ""
      if suffix ~= "" and it.cc == cc then
        sass = { maj = maj, min = min, suffix = suffix, exact = true }
      elseif suffix == "" and maj == gmaj and min <= gmin and
          not (sass and (sass.exact or sass.min >= min)) then
        sass = { maj = maj, min = min, suffix = "" }
      end
      if it.ptx and (maj < gmaj or (maj == gmaj and min <= gmin)) and
          (not ptx or maj > ptx.maj or (maj == ptx.maj and min > ptx.min)) then
        ptx = { maj = maj, min = min }
      end
    end
  end
  if sass then return ("sm_%d%d%s"):format(sass.maj, sass.min, sass.suffix), "sass" end
  if ptx then return ("compute_%d%d (PTX, JIT-compiled on first use)"):format(ptx.maj, ptx.min), "ptx" end
  return nil
end

-- The same for a TORCH_CUDA_ARCH_LIST string (a wheel's).
function M.gpu_code(list, cc)
  return M.runs((A.parse(tostring(list or ""))), cc)
end

local function l4t_of(facts)
  local l = facts.jetson and facts.jetson.l4t
  return type(l) == "string" and l or nil
end

local function l4t_major(facts)
  return tonumber((l4t_of(facts) or ""):match("^(%d+)%."))
end

-- The wheel platform of a machine, or nil with why.  A Jetson from L4T 38
-- on is an SBSA machine to PyTorch's wheels; before, "jetson" (the wheels
-- of data/jetson_wheels.lua).
local function platform(facts)
  if facts.jetson then
    local major = l4t_major(facts)
    if major and major >= 38 then return "linux-sbsa" end
    return "jetson"
  end
  local arch = facts.host and facts.host.arch
  if arch == "x86_64" then return "linux-x86_64" end
  if arch == "aarch64" then return "linux-sbsa" end
  return nil, ("PyTorch publishes no CUDA wheels for %s"):format(tostring(arch))
end

local function newest_first(t)
  local keys = {}
  for k in pairs(t or {}) do keys[#keys + 1] = k end
  table.sort(keys, function(a, b) return A.vcmp(a, b) > 0 end)
  return keys
end

local function pip_version(torch)
  local v = torch.tag and torch.tag:match("^v(.+)$")
  return v or (torch.version .. ".0")
end

-- Alike GPUs once: "8x NVIDIA H100 80GB HBM3 runs sm_90".
local function how_gpus(codes)
  local how, count, seen = {}, {}, {}
  for _, c in ipairs(codes) do
    local k = ("%s runs %s"):format(tostring(c.name), c.runs)
    if not count[k] then seen[#seen + 1] = k end
    count[k] = (count[k] or 0) + 1
  end
  for _, k in ipairs(seen) do how[#how + 1] = (count[k] > 1 and (count[k] .. "x ") or "") .. k end
  return table.concat(how, "; ")
end

-- The JetPack of a Jetson's facts: detect's, else its L4T's [S_JTOP].
local function jetpack_of(facts)
  local j, l4t = facts.jetson, l4t_of(facts)
  if type(j.jetpack) == "string" then return j.jetpack end
  return l4t and L4T.jetpack[l4t]
end

-- The python3 of the facts (lib/checks, the same for plan and doctor).
local python_of = ptb.include("lib/checks").python
local python_newer = ptb.include("lib/checks").python_newer

-- The Python range of release torch's wheels for platform plat: the
-- platform's own where the data gives one (platform_python), else the
-- release's; nil when neither is known.
local function wheel_python(torch, plat)
  return (torch.platform_python or {})[plat] or torch.python
end

-- A release's Python range as text: "3.10-3.15", "3.9-3.12 (3.13
-- experimental)", "3.8-3.12 (below 3.10 unverified)".
local function python_range(py)
  if type(py) ~= "table" then return nil end
  return py.min .. "-" .. py.max .. (py.experimental and (" (" .. py.experimental .. " experimental)") or "")
    .. (py.seen_from and (" (below " .. py.seen_from .. " unverified)") or "")
end

-- The part of range py some source shows wheels for: "3.10-3.12".
local function python_seen(py)
  return (py.seen_from or py.min) .. "-" .. py.max
end

-- Whether wheels of range py take Python v: "yes", "experimental",
-- "unverified" (in the range, but older than any wheel a source shows)
-- or nil.
local function python_takes(py, v)
  if A.vcmp(v, py.min) >= 0 and A.vcmp(v, py.max) <= 0 then
    if py.seen_from and A.vcmp(v, py.seen_from) < 0 then return "unverified" end
    return "yes"
  end
  if py.experimental and A.vcmp(v, py.experimental) == 0 then return "experimental" end
  return nil
end

-- Whose a Jetson wheel row is, by the host of its address
-- (data/jetson_wheels.lua publisher): "the Jetson AI Lab's", "NVIDIA's";
-- "the" for a host it does not name.
local function publisher(row)
  local host = tostring(row.index or row.url or row.download or ""):match("^%a+://([^/]+)")
  return host and JW.publisher[host] or "the"
end

local function install_command(row)
  if row.index then return ("pip install torch==%s --index-url %s"):format(row.pip, row.index) end
  if row.url then return "pip install " .. row.url end
  return ("wget -O %s %s && pip install %s"):format(row.file, row.download, row.file)
end

-- The loader-path step for a library a pip wheel puts under
-- site-packages/nvidia/<folder>/lib (data/jetson_wheels.lua needs: dirs):
-- the folder of the first such file on python3's sys.path, put first on
-- LD_LIBRARY_PATH.
local LOADER = [[export LD_LIBRARY_PATH="$(python3 -c 'import glob, os, sys; print(next(os.path.dirname(p) for d in sys.path for p in glob.glob(os.path.join(d, "nvidia/*/lib/%s"))))')${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"]]

-- What else a Jetson wheel row needs installed (data/jetson_wheels.lua
-- needs), each { name, lib, why, commands, alternative }; nil when
-- nothing.  jp: the machine's JetPack.
local function row_needs(row, jp)
  if not row.needs then return nil end
  local out = {}
  for _, key in ipairs(row.needs) do
    local n = JW.needs[key]
    out[#out + 1] = {
      name = n.name, lib = n.lib,
      why = ("it links %s (%s), which JetPack %s does not ship: import torch fails with \"%s\" until %s is installed, with --no-deps (%s), and its folder (site-packages/%s) is on the loader path"):format(
        n.name, n.lib, jp, n.fails, n.pip, n.nodeps, table.concat(n.dirs, " or ")),
      commands = { ("pip install --no-deps %s --index-url %s"):format(n.pip, n.index), LOADER:format(n.lib) },
      alternative = ("NVIDIA's %s .deb, then apt-get install %s"):format(n.deb, key),
    }
  end
  return out
end

-- A wheel block's install command with what its needs add, joined with
-- " && " (what plan's wheel decision and doctor's fixes name).
function M.steps(w)
  local cmd = { w.command }
  for _, n in ipairs(w.needs or {}) do
    for _, c in ipairs(n.commands) do cmd[#cmd + 1] = c end
  end
  return table.concat(cmd, " && ")
end

-- The why of needs, each after "; ".
local function needs_why(needs)
  local t = {}
  for _, n in ipairs(needs or {}) do t[#t + 1] = "; " .. n.why end
  return table.concat(t)
end

-- The wheels published for JetPack jp ("6.2"), newest torch first (the
-- data's order among rows of one torch); {} when there are none.
local function jetpack_wheels(jp)
  local key = jp:match("^(%d+%.%d+)")
  local order = {}
  for i, row in ipairs(JW.wheels) do
    for _, j in ipairs(row.jetpack) do
      if j == key then order[#order + 1] = { row = row, i = i }; break end
    end
  end
  table.sort(order, function(a, b)
    local c = A.vcmp(a.row.torch, b.row.torch)
    if c ~= 0 then return c > 0 end
    return a.i < b.i
  end)
  local rows = {}
  for k, o in ipairs(order) do rows[k] = o.row end
  return rows
end

-- Of rows (newest first), the one of the requested torch, else the
-- newest; and, when it is not the requested one, what a source build
-- adds for it ("torch 2.14 (the JetPack 6.2 wheels stop at 2.9.1)").
local function jetson_pick(rows, torch, jp)
  for _, row in ipairs(rows) do
    if row.torch == torch.version then return row, true, nil end
  end
  local newest, known = rows[1], {}
  for _, row in ipairs(rows) do
    if known[#known] ~= row.torch then known[#known + 1] = row.torch end
  end
  return newest, false, A.vcmp(torch.version, newest.torch) > 0
    and ("torch %s (the JetPack %s wheels stop at %s)"):format(torch.version, jp, newest.pip)
    or ("torch %s (the JetPack %s wheels are torch %s)"):format(torch.version, jp, table.concat(known, ", "))
end

-- A GPU as the wheel messages name it: "NVIDIA A100 (8.0)", or for a GPU
-- whose compute capability no source gave, "(compute capability unknown)".
local function gpu_label(g)
  return ("%s (%s)"):format(g.name or "GPU", g.compute_capability or "compute capability unknown")
end

-- Labels joined, identical ones counted: "8x NVIDIA H100 (9.0), ...".
local function gpu_list(labels)
  local order, n = {}, {}
  for _, l in ipairs(labels) do
    if not n[l] then order[#order + 1] = l end
    n[l] = (n[l] or 0) + 1
  end
  for i, l in ipairs(order) do
    if n[l] > 1 then order[i] = n[l] .. "x " .. l end
  end
  return table.concat(order, ", ")
end

-- Judge the chosen Jetson wheel (w filled with it) against the GPUs and
-- the python3 of the facts: covered, why and source_build_adds.
local function jetson_judge(facts, torch, w, ctx)
  local name, list, adds = ctx.name, w.arch_list, ctx.adds
  local codes, missing = {}, {}
  for _, g in ipairs(facts.gpus or {}) do
    local code = M.gpu_code(list, g.compute_capability)
    codes[#codes + 1] = { name = g.name, cc = g.compute_capability, runs = code or "none" }
    if not code then missing[#missing + 1] = gpu_label(g) end
  end
  w.gpus = codes
  if #missing > 0 then
    w.covered = false
    w.torch, w.cuda, w.index_url, w.url, w.command, w.needs = pip_version(torch), nil, nil, nil, nil, nil
    w.why = ("%s (built for %s) has no code for %s"):format(name, list, gpu_list(missing))
    w.source_build_adds = { "a build that runs on this machine" }
    return w
  end
  local what = ("%s (Python %s, CUDA %s, arch list %s)"):format(name, w.python, w.cuda, list)
  local pick = ctx.exact and "" or ("; no JetPack %s wheel of torch %s is published, so this is the newest"):format(ctx.jp, torch.version)
  local pv, ppath = python_of(facts)
  if pv and pv ~= w.python then
    -- built for one Python: pip refuses it for any other
    local would = #codes == 0 and "it may do" or ("it covers every GPU: " .. how_gpus(codes))
    w.covered = false
    w.python_blocked = true   -- the wheel would do in another Python
    w.why = ("%s is built for Python %s only; this machine's python3 is %s (%s): in a Python %s environment %s (%s)%s%s"):format(
      name, w.python, pv, ppath, w.python, would, w.command, pick, needs_why(w.needs))
    w.torch, w.cuda, w.index_url, w.url, w.command = pip_version(torch), nil, nil, nil, nil
    adds[#adds + 1] = ("a build for Python %s, for which no JetPack %s wheel is published"):format(pv, ctx.jp)
    w.source_build_adds = adds
    return w
  end
  if #codes == 0 then
    w.covered = nil
    w.why = ("no GPU was seen: %s covers the Jetson modules of compute capability %s%s"):format(what, list, pick)
  else
    w.covered = true
    w.why = ("%s covers every GPU: %s%s"):format(what, how_gpus(codes), pick)
  end
  w.why = w.why .. needs_why(w.needs)
  adds[#adds + 1] = ("a CUDA or cuDNN other than JetPack %s's"):format(ctx.jp)
  adds[#adds + 1] = "patches to PyTorch, or a debug build"
  w.source_build_adds = adds
  return w
end

-- A Jetson on L4T (JetPack 4-6): the wheels published for its JetPack,
-- the requested torch's when there is one, else the newest; each GPU
-- must find code in the arch list they are built with.
local function jetson_cover(facts, torch, w)
  local l4t = l4t_of(facts)
  local jp = jetpack_of(facts)
  w.platform = "jetson"
  if not jp then
    w.why = l4t and ("L4T %s is not a release ptbuild maps to a JetPack, so it cannot tell which Jetson wheels fit"):format(l4t)
      or "no L4T release was read (/etc/nv_tegra_release), so ptbuild cannot tell which Jetson wheels fit"
    w.source_build_adds = { "a build for this machine at all" }
    return w
  end
  w.jetpack = jp
  local major = jp:match("^(%d+)")
  local rows = jetpack_wheels(jp)
  if #rows == 0 then
    w.why = ("neither NVIDIA nor jetson-containers publishes a PyTorch wheel for JetPack %s (L4T %s) that ptbuild knows of"):format(jp, tostring(l4t))
    w.source_build_adds = { "a build that runs on this machine" }
    return w
  end
  local row, exact, other = jetson_pick(rows, torch, jp)
  w.torch = row.pip
  w.cuda = row.cuda
  w.python = JW.python[major]
  w.arch_list = JW.arch[major]
  w.index_url = row.index
  w.url = row.url or row.download
  w.command = install_command(row)
  w.needs = row_needs(row, jp)
  return jetson_judge(facts, torch, w, { name = ("%s JetPack %s wheel of torch %s"):format(publisher(row), jp, row.pip),
    jp = jp, exact = exact, adds = { other } })
end

-- The machine's python3 against release torch's wheels of platform plat:
-- { takes = "yes"|"experimental"|"unverified"|nil, version, py (the
-- platform's range), miss (why pip finds no wheel for it), adds (what a
-- source build adds then) }; nil when either is unknown.  Whether a
-- source build takes it is the release's range (setup.py, [pt-setup]).
local function python_fit(facts, torch, w, plat)
  local pv, ppath = python_of(facts)
  local py = wheel_python(torch, plat)
  if not (pv and py and torch.python) then return nil end
  local fit = { version = pv, py = py, takes = python_takes(py, pv) }
  if not fit.takes then
    local which = (torch.platform_python or {})[plat] and (" " .. plat) or ""
    fit.miss = ("torch %s%s wheels are built for Python %s; this machine's python3 is %s (%s)"):format(
      w.torch, which, w.python, pv, ppath)
    -- a Python older than setup.py takes, or newer than the release
    -- builds with, is no gain of a source build: it does not build there
    -- either (checks python_newer)
    local newer = python_newer(pv, torch)
    fit.unbuilt = A.vcmp(pv, torch.python.min) < 0 or newer ~= nil
    fit.adds = A.vcmp(pv, torch.python.min) < 0
      and ("nothing for Python %s: PyTorch %s supports Python %s and newer, so use a Python %s-%s virtual environment"):format(
        pv, torch.version, torch.python.min, torch.python.min, torch.python.max)
      or newer and ("nothing for Python %s: PyTorch %s does not build with it either (%s), so use a Python %s-%s virtual environment"):format(
        pv, torch.version, newer.why, torch.python.min, newer.max)
      or ("a build for Python %s, for which no torch %s wheel is published"):format(pv, w.torch)
  end
  return fit
end

-- The wheel CUDAs of platform plat to try, in order: the newest the
-- driver runs directly, then those it runs through minor-version
-- compatibility; each { cuda, runs }.  Those a Jetson cannot take go to
-- reasons instead.
local function wheel_order(facts, torch, plat, reasons)
  local order, later = {}, {}
  for _, cv in ipairs(newest_first((torch.wheels or {})[plat])) do
    local r = A.release(cv)
    local runs = r and T.driver_runs(r, facts.driver)
    if r and facts.jetson and T.orin_sbsa_blocked(facts, r) then
      reasons[#reasons + 1] = ("the cu%s wheel: Jetson %s joins the SBSA toolkit only with CUDA %s and JetPack 7.2 (L4T 39)"):format(
        cv:gsub("%.", ""), tostring(T.jetson_cc(facts)), jetson.sbsa_min_cc.from13_minor)
    elseif runs == "compat" then later[#later + 1] = { cv, runs } else order[#order + 1] = { cv, runs } end
  end
  for _, x in ipairs(later) do order[#order + 1] = x end
  return order
end

-- w for the cu<cv> wheel whose arch list gives every GPU code (codes),
-- judged with the machine's python3 (fit).
local function wheel_covers(facts, torch, w, cv, runs, list, codes, fit)
  local tag = cv:gsub("%.", "")
  w.cuda = cv
  w.index_url = ("https://download.pytorch.org/whl/cu%s"):format(tag)
  w.command = ("pip install torch==%s --index-url %s"):format(w.torch, w.index_url)
  w.gpus = codes
  if #(facts.gpus or {}) == 0 then
    w.covered = nil
    w.why = ("no GPU was seen: the cu%s wheel (%s) %s; whether it covers the GPUs that will run it depends on them"):format(
      tag, list, runs == "unknown" and ("needs a driver that runs CUDA " .. cv) or "runs on this driver")
  else
    w.covered = true
    w.why = ("the cu%s wheel's arch list %s covers every GPU: %s%s"):format(tag, list,
      how_gpus(codes), runs == "compat" and " (the driver runs CUDA " .. cv .. " through minor-version compatibility)" or "")
  end
  if fit and fit.takes == "experimental" then
    w.why = w.why .. ("; its Python %s wheels are experimental"):format(fit.version)
  end
  if fit and fit.takes == "unverified" then
    -- in the release's range, but no source read shows this wheel
    w.covered = nil
    w.unverified = true
    w.why = ("%s; but no source ptbuild read shows a %s wheel of torch %s for Python %s (they show Python %s), so pip may find none: check %s/torch/ first, or use a Python %s environment"):format(
      w.why, w.platform, w.torch, fit.version, python_seen(fit.py), w.index_url, python_seen(fit.py))
  end
  w.source_build_adds = {
    "code for exactly this machine's GPUs (smaller binaries, no PTX JIT at first use)",
    "a CUDA release or cuDNN the wheels do not ship",
    "patches to PyTorch, or a debug build",
  }
  if fit and fit.miss then
    -- a wheel would cover the GPUs, but pip refuses it for this python3
    w.why = ("%s: in a Python %s virtual environment %s (%s)"):format(fit.miss, python_seen(fit.py),
      w.covered == nil and ("the cu%s wheel may do: %s"):format(tag, w.why) or w.why, w.command)
    w.covered = false
    w.python_blocked = true   -- the wheel would do in another Python
    w.cuda, w.index_url, w.command, w.gpus = nil, nil, nil, codes
    w.source_build_adds = { fit.adds }
  end
  return w
end

-- The wheel block of a plan: { covered = true|false|nil (no GPU seen, or
-- unverified = true: no source shows the wheel for this python3),
-- platform, python (the Python range of the release's wheels, "3.10-3.15"),
-- cuda, index_url, command, gpus = [{name, cc, runs}], why,
-- source_build_adds }; on a Jetson before JetPack 7 platform is "jetson"
-- and the block adds jetpack, python (its wheels' one Python) and
-- arch_list (of its JetPack's wheels) and url (a wheel file, where there
-- is no index).  A machine whose python3 (facts.python) the wheels are
-- not built for is not covered: why says so and names the wheel that a
-- virtual environment of a Python they take would install.
function M.cover(facts, torch)
  local plat, why_not = platform(facts)
  local w = { covered = false, torch = pip_version(torch) }
  -- a Jetson whose module has no release of its L4T's JetPack: which
  -- wheels fit rests on the fact in dispute (lib/toolkit jetson_mismatch)
  local mis = T.jetson_mismatch(facts)
  if mis then
    return { covered = nil, torch = w.torch, platform = "jetson", undecided = "jetson-facts-disagree",
      why = ("which wheels fit rests on the facts in dispute: a Jetson takes the wheels of its JetPack (the Jetson wheels of JetPack 6 and before, PyTorch's own SBSA ones from JetPack 7), and L4T %s's JetPack %s has no release for the %s; ptbuild judges no wheel until the facts agree (see the jetson-facts-disagree error)"):format(
        mis.l4t, mis.jetpack, mis.family),
      source_build_adds = ptb.array({}) }
  end
  if not plat then
    w.why = why_not
    w.source_build_adds = { "a build for this machine at all" }
    return w
  end
  if plat == "jetson" then return jetson_cover(facts, torch, w) end
  w.platform = plat
  w.python = python_range(wheel_python(torch, plat))
  local reasons = {}
  local fit = python_fit(facts, torch, w, plat)
  -- a driver older than a GPU runs no wheel on it (lib/toolkit)
  local old_for, first = T.driver_predates(facts)
  if old_for then
    reasons[1] = T.predates_text(facts, old_for, first) .. ": no wheel runs on it until the driver is upgraded"
    w.driver_blocked = true   -- nor would a source build, before the upgrade
  end
  for _, x in ipairs(old_for and {} or wheel_order(facts, torch, plat, reasons)) do
    local cv, runs = x[1], x[2]
    local list = torch.wheels[plat][cv]
    if not runs then
      reasons[#reasons + 1] = ("the cu%s wheel: driver %s cannot run CUDA %s"):format(
        cv:gsub("%.", ""), tostring(facts.driver and facts.driver.version), cv)
    else
      local codes, missing, jit = {}, {}, false
      for _, g in ipairs(facts.gpus or {}) do
        local code, kind = M.gpu_code(list, g.compute_capability)
        codes[#codes + 1] = { name = g.name, cc = g.compute_capability, runs = code or "none" }
        if not code then missing[#missing + 1] = gpu_label(g) end
        jit = jit or kind == "ptx"
      end
      if #missing > 0 then
        reasons[#reasons + 1] = ("the cu%s wheel (%s) has no code for %s"):format(
          cv:gsub("%.", ""), list, gpu_list(missing))
      elseif runs == "compat" and jit then
        reasons[#reasons + 1] = ("the cu%s wheel: its PTX needs a driver that runs CUDA %s directly (this one runs it only through minor-version compatibility)"):format(
          cv:gsub("%.", ""), cv)
      else
        return wheel_covers(facts, torch, w, cv, runs, list, codes, fit)
      end
    end
  end
  if #reasons == 0 then
    reasons[1] = ("PyTorch %s publishes no %s CUDA wheels"):format(torch.version, plat)
  end
  if fit and fit.miss then table.insert(reasons, 1, fit.miss) end
  w.why = table.concat(reasons, "; ")
  w.source_build_adds = { old_for and "nothing until the driver is upgraded" or "a build that runs on this machine" }
  if fit and fit.unbuilt then w.source_build_adds[2] = fit.adds end
  return w
end


-- The newest CUDA driver d runs directly: nvidia-smi's ceiling where it
-- reads one, else the newest release whose minimum d meets
-- (T.driver_runs, data/cuda.lua driver_min).
local function driver_ceiling(d)
  local best
  for _, v in ipairs(A.known_versions()) do
    local r = A.release(v)
    if r and T.driver_runs(r, d) == "direct" and (not best or A.vcmp(v, best) > 0) then best = v end
  end
  return best
end

-- What a newer driver opens: when the driver seen cannot run a CUDA that
-- PyTorch ships wheels for and that suits this machine in all else (every
-- GPU, the arch list, glibc, the platform: T.fits with the driver set
-- aside), the oldest such release -- the least upgrade that opens one.
-- Returns { release, ceiling (the newest CUDA this driver runs directly),
-- need (the driver to install: T.driver_least of the release where a
-- lesser driver than its own opens it, least = true; else
-- T.driver_at_least), wheel (the cu tag of a wheel that would then cover
-- the machine: M.cover with that driver in place), text } or nil: no
-- driver seen, a Jetson (its driver is its JetPack's), or no such
-- release (one whose minimum driver predates a GPU does not count).
-- items: the parsed --arch-list.
function M.upgrade(facts, torch, items)
  local d = facts.driver
  if type(d) ~= "table" or type(d.version) ~= "string" or (facts.host or {}).platform == "jetson"
      or type(facts.jetson) == "table" then return nil end
  local nodriver = setmetatable({ driver = false }, { __index = facts })
  local function at_min(r)
    return setmetatable({ driver = { version = r.driver_min, cuda_max = r.version } }, { __index = facts })
  end
  local open
  for _, r in ipairs((T.candidates(torch))) do   -- newest first
    -- its minimum driver must know the GPUs too (T.driver_predates)
    if not T.driver_runs(r, d) and T.fits(nodriver, torch, r, nil, items)
        and not (r.driver_min and T.driver_predates(at_min(r))) then open = r end
  end
  if not open then return nil end
  local u = { release = open, ceiling = driver_ceiling(d), need = T.driver_at_least(open) }
  local function covering(f)
    local w = M.cover(f, torch)
    return w.covered and w.cuda or nil
  end
  local own = open.driver_min and covering(at_min(open))
  -- the least driver that opens a wheel CUDA (T.compat_driver: minor-
  -- version compatibility's floor, raised to each GPU's first driver):
  -- where a wheel covers the machine with it (its PTX gets no JIT
  -- there), named with that wheel's CUDA; where none does with it but
  -- one does with the release's own minimum, that minimum
  local least = T.compat_driver(facts, open)
  local lw
  if least then
    local dl = { version = least }
    dl.cuda_max = driver_ceiling(dl)
    lw = covering(setmetatable({ driver = dl }, { __index = facts }))
  end
  local wheel = own
  if lw or (least and not own) then
    u.release = lw and A.release(lw) or open
    u.need = T.driver_least(facts, u.release)
    u.least = u.need ~= T.driver_at_least(u.release)
    wheel = lw
  end
  u.wheel = wheel and wheel:gsub("%.", "") or nil
  local tag = u.release.version:gsub("%.", "")
  u.text = ("driver %s runs CUDA up to %s directly; %s%s opens CUDA %s and PyTorch %s's cu%s wheels%s"):format(
    d.version, u.ceiling or "?", u.need, u.least and "," or "", u.release.version, torch.version,
    u.wheel or tag, u.wheel and ", which cover this machine: no source build needed" or "")
  return u
end

return M
