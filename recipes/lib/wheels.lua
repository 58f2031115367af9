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
--   Compatibility".
local A = ptb.include("lib/archlist")
local T = ptb.include("lib/toolkit")

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

-- The wheel platform of a machine, or nil with why.
local function platform(facts)
  if facts.jetson then
    return nil, "PyTorch publishes no wheels for Jetson; NVIDIA's per-JetPack wheels are not in ptbuild's data"
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

-- The wheel block of a plan: { covered = true|false|nil (no GPU seen),
-- platform, cuda, index_url, command, gpus = [{name, cc, runs}], why,
-- source_build_adds }.
function M.cover(facts, torch)
  local plat, why_not = platform(facts)
  local w = { covered = false, torch = pip_version(torch) }
  if not plat then
    w.why = why_not
    w.source_build_adds = { "a build for this machine at all" }
    return w
  end
  w.platform = plat
  local gpus = facts.gpus or {}
  local reasons = {}
  -- The newest wheel the driver runs directly, then the newest it runs
  -- through minor-version compatibility.
  local order, later = {}, {}
  for _, cv in ipairs(newest_first((torch.wheels or {})[plat])) do
    local r = A.release(cv)
    local runs = r and T.driver_runs(r, facts.driver)
    if runs == "compat" then later[#later + 1] = { cv, runs } else order[#order + 1] = { cv, runs } end
  end
  for _, x in ipairs(later) do order[#order + 1] = x end
  for _, x in ipairs(order) do
    local cv, runs = x[1], x[2]
    local list = torch.wheels[plat][cv]
    if not runs then
      reasons[#reasons + 1] = ("the cu%s wheel: driver %s cannot run CUDA %s"):format(
        cv:gsub("%.", ""), tostring(facts.driver and facts.driver.version), cv)
    else
      local codes, missing, jit = {}, {}, false
      for _, g in ipairs(gpus) do
        local code, kind = M.gpu_code(list, g.compute_capability)
        codes[#codes + 1] = { name = g.name, cc = g.compute_capability, runs = code or "none" }
        if not code then missing[#missing + 1] = ("%s (%s)"):format(tostring(g.name), tostring(g.compute_capability)) end
        jit = jit or kind == "ptx"
      end
      if #missing > 0 then
        reasons[#reasons + 1] = ("the cu%s wheel (%s) has no code for %s"):format(
          cv:gsub("%.", ""), list, table.concat(missing, ", "))
      elseif runs == "compat" and jit then
        reasons[#reasons + 1] = ("the cu%s wheel: its PTX needs a driver that runs CUDA %s directly (this one runs it only through minor-version compatibility)"):format(
          cv:gsub("%.", ""), cv)
      else
        w.cuda = cv
        w.index_url = ("https://download.pytorch.org/whl/cu%s"):format((cv:gsub("%.", "")))
        w.command = ("pip install torch==%s --index-url %s"):format(w.torch, w.index_url)
        w.gpus = codes
        if #gpus == 0 then
          w.covered = nil
          w.why = ("no GPU was seen: the cu%s wheel (%s) %s; whether it covers the GPUs that will run it depends on them"):format(
            cv:gsub("%.", ""), list, runs == "unknown" and ("needs a driver that runs CUDA " .. cv) or "runs on this driver")
        else
          w.covered = true
          -- Alike GPUs once: "8x NVIDIA H100 80GB HBM3 runs sm_90".
          local how, count, seen = {}, {}, {}
          for _, c in ipairs(codes) do
            local k = ("%s runs %s"):format(tostring(c.name), c.runs)
            if not count[k] then seen[#seen + 1] = k end
            count[k] = (count[k] or 0) + 1
          end
          for _, k in ipairs(seen) do how[#how + 1] = (count[k] > 1 and (count[k] .. "x ") or "") .. k end
          w.why = ("the cu%s wheel's arch list %s covers every GPU: %s%s"):format(cv:gsub("%.", ""), list,
            table.concat(how, "; "), runs == "compat" and " (the driver runs CUDA " .. cv .. " through minor-version compatibility)" or "")
        end
        w.source_build_adds = {
          "code for exactly this machine's GPUs (smaller binaries, no PTX JIT at first use)",
          "a CUDA release or cuDNN the wheels do not ship",
          "patches to PyTorch, or a debug build",
        }
        return w
      end
    end
  end
  if #reasons == 0 then
    reasons[1] = ("PyTorch %s publishes no %s CUDA wheels"):format(torch.version, plat)
  end
  w.why = table.concat(reasons, "; ")
  w.source_build_adds = { "a build that runs on this machine" }
  return w
end

return M
