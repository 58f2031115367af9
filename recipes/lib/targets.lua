-- targets: the TORCH_CUDA_ARCH_LIST of a plan.  GPUs present -> their
-- capabilities with +PTX on the highest; no GPU (Docker, CI) -> the
-- release wheels' list for that CUDA and platform, limited to what the
-- toolkit builds; an explicit list is checked, never replaced.  Never
-- Auto/All/Common; a/f only where nvcc and the PyTorch release accept them.
local A = ptb.include("lib/archlist")
local T = ptb.include("lib/toolkit")
local C = ptb.include("lib/checks")
local archs_data = ptb.include("data/archs")
local pytorch = ptb.include("data/pytorch")

local M = {}

local function problem(list, severity, code, message, fix)
  list[#list + 1] = { severity = severity, code = code, message = message, fix = fix }
end

-- The wheel list PyTorch `torch` ships for CUDA `r` on `platform`; when
-- there is none, the nearest CUDA's list of the same platform (older
-- first), then x86_64's.  Returns list, note.
function M.wheel_list(torch, r, platform)
  local plats = { platform }
  if platform ~= "linux-x86_64" then plats[2] = "linux-x86_64" end
  if platform == "linux-aarch64" then plats = { "linux-sbsa", "linux-x86_64" } end
  for _, p in ipairs(plats) do
    local w = torch.wheels[p]
    if w then
      if w[r.version] then
        local note = nil
        if p ~= platform then note = ("PyTorch %s publishes no %s wheel; using its %s list"):format(torch.version, platform, p) end
        return w[r.version], note
      end
      -- nearest older CUDA, else nearest newer (its list, filtered later
      -- by what the toolkit builds)
      local best, newer
      for v in pairs(w) do
        if A.vcmp(v, r.version) <= 0 and (not best or A.vcmp(v, best) > 0) then best = v end
        if A.vcmp(v, r.version) > 0 and (not newer or A.vcmp(v, newer) < 0) then newer = v end
      end
      best = best or newer
      if best then
        return w[best], ("PyTorch %s has no CUDA %s wheel for %s; starting from its CUDA %s list"):format(torch.version, r.version, p, best)
      end
    end
  end
  return nil
end

-- Items from a list string (already known to parse).
local function items_of(text, r)
  local items = A.parse(text, nil, r)
  return items
end

-- Which item serves a GPU: "sass" (same arch, or same major with a lower
-- minor: sm_80 SASS runs on 8.6/8.7/8.9), "ptx" (JIT from older PTX) or nil.
function M.covers(items, cc)
  local maj, min = cc:match("^(%d+)%.(%d)$")
  maj, min = tonumber(maj), tonumber(min)
  local how
  for _, it in ipairs(items) do
    local m2, n2 = it.cc:match("^(%d+)%.(%d)$")
    m2, n2 = tonumber(m2), tonumber(n2)
    if it.cc == cc and it.suffix ~= "f" then return "sass" end
    if it.suffix == "" and m2 == maj and n2 <= min and not (maj == 11 or maj == 10 and min == 1) then
      return "sass"
    end
    if it.suffix == "f" and m2 == maj and n2 <= min then return "sass" end
    if it.ptx and (m2 < maj or (m2 == maj and n2 <= min)) then how = "ptx" end
  end
  return how
end

-- Checks of items against the PyTorch release's CMake parser.
function M.torch_accepts(torch, items, problems)
  for _, it in ipairs(items) do
    local tok = it.tokens and it.tokens[1] or it.cc
    if it.suffix == "a" and not torch.suffix_a or it.suffix == "f" and not torch.suffix_f then
      problem(problems, "error", "arch-suffix-not-accepted",
        ("PyTorch %s's CMake does not accept '%s' in TORCH_CUDA_ARCH_LIST (the '%s' suffix arrived later)"):format(torch.version, tok, it.suffix),
        ("write %s without the suffix, or build a newer PyTorch"):format(it.cc))
    elseif not torch.two_digit_major and tonumber(it.cc:match("^(%d+)")) >= 10 then
      problem(problems, "error", "arch-not-accepted-by-torch",
        ("PyTorch %s's CMake reads only one-digit majors: '%s' is refused ('Unknown CUDA Architecture Name')"):format(torch.version, tok),
        "build PyTorch 2.7 or newer for Blackwell GPUs")
    end
  end
end

-- The plan's arch list.  Returns { list, items, source, why }, problems,
-- usage errors.
-- The list for the GPUs present: each compute capability CUDA r builds,
-- +PTX on the highest for GPUs to come.
local function gpu_items(gpus, r)
  local seen, ccs = {}, {}
  for _, g in ipairs(gpus) do
    local cc = g.compute_capability
    if cc and not seen[cc] then
      seen[cc] = true
      if T.builds_gpu(r, cc) then
        ccs[#ccs + 1] = T.gpu_arch(cc, r)
      end
    end
  end
  table.sort(ccs, function(x, y) return A.vcmp(x, y) < 0 end)
  if #ccs > 0 then ccs[#ccs] = ccs[#ccs] .. "+PTX" end
  return items_of(table.concat(ccs, ";"), r)
end

-- No GPU seen: PyTorch's release-wheel list (a Jetson's module GPU),
-- less what CUDA r cannot build.  Returns the items and why.
local function wheel_items(facts, torch, r, platform)
  local wl, note = M.wheel_list(torch, r, platform)
  if facts.host.platform == "jetson" and T.jetson_cc(facts) then
    wl = T.gpu_arch(T.jetson_cc(facts), r) .. "+PTX"
    note = "the Jetson module's GPU"
  end
  wl = wl or "8.0;9.0+PTX"
  local items, dropped = {}, {}
  for _, it in ipairs(items_of(wl)) do
    if A.builds(r, it.cc, it.suffix) then items[#items + 1] = it else dropped[#dropped + 1] = it.cc end
  end
  local why = ("no GPU seen: PyTorch %s's release-wheel list for CUDA %s on %s"):format(torch.version, r.version, platform)
  if note then why = why .. " (" .. note .. ")" end
  if #dropped > 0 then why = why .. "; dropped what CUDA " .. r.version .. " cannot build: " .. table.concat(dropped, " ") end
  return items, why
end

-- The items of --arch-list, with an error problem for each the toolkit
-- cannot build.  Returns the items, or nil after adding usage errors
-- when the list does not parse.
local function override_items(override, torch, r, problems, errors)
  local items, errs = A.parse(override, torch)
  if #errs > 0 then
    for _, e in ipairs(errs) do
      errors[#errors + 1] = { kind = "usage", message = "--arch-list: " .. e.message, hint = e.hint }
    end
    return nil
  end
  for _, e in ipairs(A.check(items, r)) do
    problem(problems, "error", "arch-not-built-by-toolkit", e.message, e.hint)
  end
  return items
end

-- A GPU whose compute capability is unknown (not in data/gpus.lua, and
-- no driver API that answers) cannot be checked; without --arch-list it
-- gets no code at all.  Adds its problem.
local function unknown_gpu(problems, g, override)
  local name = g.name and g.name ~= ptb.null and g.name or "GPU"
  problem(problems, override and "warning" or "error", "gpu-unknown",
    ("ptbuild does not know the compute capability of the '%s'%s: %s"):format(name,
      g.index and g.index ~= ptb.null and (" (GPU " .. math.tointeger(g.index) .. ")") or "",
      override and "ptbuild cannot check that --arch-list serves it"
        or "the arch list has no code for it and ptbuild cannot tell which CUDA builds it"),
    override and "check that --arch-list includes the compute capability 'nvidia-smi --query-gpu=name,compute_cap --format=csv' prints for it"
      or "read its compute capability with 'nvidia-smi --query-gpu=name,compute_cap --format=csv' and pass it with --arch-list (12.0 for a compute_cap of 12.0), with a --cuda that builds it")
end

-- The PyTorch side of a fix that sends the user to CUDA v: nothing when
-- release torch builds with it, else the release that does -- the oldest
-- one (newest = false: a GPU newer than the toolkit wants the newer
-- releases) or the newest one (newest = true: a GPU the toolkit dropped
-- needs an older CUDA, and the last release that builds it).
local function torch_for(torch, v, newest)
  local rv = A.release(v)
  if not rv or not torch or T.torch_builds(torch, rv) then return ("(--cuda %s)"):format(v) end
  local pick
  for _, t in ipairs(pytorch.releases) do
    if T.torch_builds(t, rv) and (newest or not pick) then pick = t end
  end
  if not pick then
    return ("(--cuda %s), with a PyTorch release that builds with it: no release ptbuild knows does"):format(v)
  end
  return ("with PyTorch %s%s: PyTorch %s does not build with CUDA %s (--torch %s --cuda %s)"):format(
    pick.version, newest and "" or " or newer", torch.version, v, pick.version, v)
end

-- An installed toolkit judged by its own nvcc's GPU list (r.gpu_list_nvcc,
-- A.judged_release) that leaves out GPU g where ptbuild's tables have
-- r's release build it (a patched or older update), or a release newer
-- than the tables (nvcc's list is all there is): that nvcc is what lacks
-- it, and "CUDA r no longer builds it" would blame the release.  The
-- message names the nvcc; the fix an update of r whose nvcc lists it
-- first, where the tables say one does.  last: the last CUDA that does.
-- On a Jetson the fix is the Jetson rule's (lib/checks jetson_drops_fix,
-- as doctor's): a desktop CUDA such as 12.9 does not run there.
local function nvcc_drops_gpu(problems, g, cc, r, last, torch, facts)
  local sm = "sm_" .. A.digits(T.gpu_arch(cc, r))
  local tabled = A.release(r.version)
  local other = tabled ~= nil and T.builds_gpu(tabled, cc)
  problem(problems, "error", "toolkit-drops-gpu",
    ("the installed CUDA %s, judged by its own nvcc (%s), does not build for the %s (compute capability %s): its GPU list lacks %s%s; the last CUDA that does is %s"):format(
      r.version, r.gpu_list_nvcc, g.name or "GPU", cc, sm,
      other and (", though ptbuild's tables have CUDA %s build it (another update of it may)"):format(r.version) or "", last),
    C.jetson_drops_fix(facts, r, cc, torch)
      or ("%suse CUDA %s %s, or build on a machine without this GPU"):format(
        other and ("install a CUDA %s update whose nvcc lists %s, or "):format(r.version, sm) or "", last, torch_for(torch, last, true)))
end

-- Whether CUDA r builds for GPU g of capability cc, and whether the arch
-- list's items serve it with SASS, only PTX, or not at all.  Adds its
-- problem, if any.
local function known_gpu(problems, g, cc, items, r, torch, facts)
  local arch = T.gpu_arch(cc, r)
  local how = M.covers(items, arch)
  local rule, edge = C.gpu_build(r, cc)
  if rule then
    -- the shared rule (lib/checks.lua): edge is the last CUDA that
    -- built it, or the first that builds it
    if rule == "toolkit-drops-gpu" and edge and A.release(edge) and r.gpu_list_nvcc
        and (r.unknown or T.builds_gpu(A.release(r.version), cc)) then
      nvcc_drops_gpu(problems, g, cc, r, edge, torch, facts)
    elseif rule == "toolkit-drops-gpu" and edge and A.release(edge) then
      local last = edge
      problem(problems, "error", "toolkit-drops-gpu",
        ("CUDA %s no longer builds for the %s (compute capability %s); the last CUDA that does is %s"):format(r.version, g.name or "GPU", cc, last),
        -- on a Jetson a CUDA its JetPack runs (lib/checks jetson_drops_fix)
        C.jetson_drops_fix(facts, r, cc, torch)
          or ("use CUDA %s %s, or build on a machine without this GPU"):format(last, torch_for(torch, last, true)))
    elseif rule == "toolkit-drops-gpu" then
      -- too old for every CUDA ptbuild plans: the last CUDA that built it
      -- is older than all of them, or unknown (older than every
      -- architecture ptbuild knows)
      local known = A.known_versions()
      local oldest = C.oldest_arch()
      problem(problems, "error", "toolkit-drops-gpu",
        edge and ("the %s (compute capability %s) is too old for every CUDA ptbuild knows (%s to %s): the last CUDA that built for it is %s"):format(
          g.name or "GPU", cc, known[1], known[#known], edge)
          or ("the %s (compute capability %s) is too old for every CUDA ptbuild knows (%s to %s): it is older than the oldest GPU architecture ptbuild knows, %s, which CUDA %s last built"):format(
          g.name or "GPU", cc, known[1], known[#known], oldest, archs_data[oldest].last or "?"),
        "build on a machine without this GPU: no CUDA ptbuild knows builds for it")
    else
      local first = edge
      problem(problems, "error", "gpu-newer-than-toolkit",
        ("the %s (compute capability %s) is newer than CUDA %s; the first CUDA that builds for it is %s"):format(g.name or "GPU", cc, r.version, first or "unknown"),
        first and ("use CUDA %s or newer %s"):format(first, torch_for(torch, first, false))
          or "no known CUDA builds for it yet")
    end
  elseif not how then
    problem(problems, "error", "gpu-not-in-arch-list",
      ("the arch list '%s' has no code for the %s (compute capability %s): PyTorch would fail with 'no kernel image is available for execution on the device'"):format(A.torch_list(items), g.name or "GPU", cc),
      ("add %s to --arch-list"):format(arch))
  elseif how == "ptx" then
    problem(problems, "warning", "gpu-ptx-only",
      ("the arch list '%s' reaches the %s (%s) only through PTX: kernels are JIT-compiled at first use and run slower"):format(A.torch_list(items), g.name or "GPU", cc),
      ("add %s to --arch-list"):format(arch))
  end
end

-- The arch list to build: --arch-list, else this machine's GPUs, else
-- PyTorch's wheel list; then whether PyTorch accepts it and every GPU
-- present is served.  Returns the choice (nil on a usage error),
-- problems, errors.
-- Does any CUDA ptbuild knows build the GPU of capability cc?  Neither
-- one newer than all of them nor one older (Kepler 3.0, Fermi) is built.
local function any_cuda_builds(cc)
  for _, v in ipairs(A.known_versions()) do
    if T.builds_gpu(A.release(v), cc) then return true end
  end
  return false
end

function M.choose(facts, torch, r, platform, override)
  local problems, errors = {}, {}
  local gpus = facts.gpus or {}
  local items, source, why

  if override then
    items = override_items(override, torch, r, problems, errors)
    if not items then return nil, problems, errors end
    source, why = "option", "--arch-list"
  elseif #gpus > 0 then
    items = gpu_items(gpus, r)
    source, why = "gpus", "the GPUs of this machine, +PTX on the highest for GPUs to come"
  else
    items, why = wheel_items(facts, torch, r, platform)
    source = "wheels"
  end

  M.torch_accepts(torch, items, problems)
  local cx = A.cpp_extension_check(items, torch, override)
  if cx then
    problem(problems, "warning", cx.kind == "differs" and "arch-read-otherwise-by-cpp-extension"
      or "arch-not-accepted-by-cpp-extension", cx.message, cx.hint)
  end

  -- Every GPU present must be served by the list.  A Jetson that CUDA r
  -- is too old for (lib/checks.lua jetson_cuda_too_old, plan's
  -- jetson-thor-needs-cuda-13) is that problem alone: the CUDA the GPU
  -- rules would name instead does not run there either.
  local held = C.jetson_cuda_too_old(facts, r)
  for _, g in ipairs(gpus) do
    local cc = g.compute_capability
    if not cc or cc == ptb.null then
      unknown_gpu(problems, g, override)
    elseif cc and not held then
      known_gpu(problems, g, cc, items, r, torch, facts)
    end
  end

  if #items == 0 and not held then
    -- no code at all: say why, rather than name a list of nothing "the
    -- GPUs of this machine"
    local unknown = #gpus > 0 and source == "gpus"
    -- and whether any CUDA ptbuild knows builds one of them at all
    local none_builds = #gpus > 0 and source == "gpus"
    for _, g in ipairs(gpus) do
      if type(g.compute_capability) == "string" then
        unknown = false
        if any_cuda_builds(g.compute_capability) then none_builds = false end
      end
    end
    if unknown then
      why = "ptbuild knows the compute capability of none of this machine's GPUs (see the gpu-unknown problem)"
    elseif source == "gpus" then
      why = ("CUDA %s builds none of this machine's GPUs"):format(r.version)
    end
    problem(problems, "error", "arch-list-empty",
      unknown and "no GPU architecture to build for: the compute capability of every GPU here is unknown"
        or ("no GPU architecture is left to build for with CUDA " .. r.version),
      unknown and "pass --arch-list with the compute capabilities 'nvidia-smi --query-gpu=name,compute_cap --format=csv' prints"
        or none_builds and "no CUDA ptbuild knows builds these GPUs: pass --arch-list to build for other GPUs"
        or "choose a CUDA that builds for the GPUs (--cuda) or pass --arch-list")
  end
  return { list = A.torch_list(items), items = items, source = source, why = why }, problems, errors
end

return M
