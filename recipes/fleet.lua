-- The fleet recipe: facts of many machines in, one build per platform out.
-- Input { nodes = [{ name, source, facts }], torch?, cuda?, arch_list?,
-- max_jobs?, no_cudnn?, build_node? }: the nodes C loaded, each named by
-- the host name its facts carry or its file.  Output the ptbuild.fleet/1
-- document: builds[] (one ordinary plan per platform, made by plan.make on
-- the build machine's facts with the GPUs of every node of the platform),
-- targets[] beside it (the platform, build machine, nodes served and which
-- node forced each decision), nodes[] (each node, the build that serves it
-- and how its driver runs that CUDA) and problems[] of nodes no build
-- serves.  Every problem names the node it comes from.
--
-- The CUDA of a platform is chosen the way a single plan chooses it
-- (lib/toolkit.lua), with "fits" required of every node: the newest
-- release PyTorch ships wheels for that every node's driver runs and that
-- builds every node's GPUs; when some node runs it only through
-- minor-version compatibility (on a Jetson: through an upgrade package
-- ptbuild names none of, T.runs_need), the newest of the same major that
-- every node runs directly, if there is one.  A node no CUDA serves at all (its
-- driver is too old for any release that builds its GPU) is left out of
-- its build and named with the fix its own plan gives; a node that fits
-- alone but not with the rest is left out of the choice that serves the
-- most nodes.
local P = ptb.include("plan")
local A = ptb.include("lib/archlist")
local T = ptb.include("lib/toolkit")
local C = ptb.include("lib/checks")
local pytorch = ptb.include("data/pytorch")

local M = {}
local own_error

-- Build platforms in the order the document lists them.
local ORDER = { "x86_64", "sbsa", "jetson" }

function M.platform_of(facts)
  local h = facts.host or {}
  if h.platform == "jetson" then return "jetson" end
  if h.arch == "x86_64" then return "x86_64" end
  if h.arch == "aarch64" then return "sbsa" end
  return nil
end

local function problem(list, severity, code, node, message, fix)
  list[#list + 1] = { severity = severity, code = code, node = node, message = message, fix = fix }
end

local function copy(t)
  if type(t) ~= "table" then return t end
  local o = {}
  for k, v in pairs(t) do o[k] = copy(v) end
  return setmetatable(o, getmetatable(t))
end

local function num(v) return type(v) == "number" and v or 0 end

-- The machine that runs a platform's build: the one --build-node names,
-- else the one with the most cores (then memory, then name): a PyTorch
-- build is hours of compile jobs.
local function build_machine(nodes, wanted)
  for _, n in ipairs(nodes) do
    if wanted and n.name == wanted then return n, "--build-node" end
  end
  local best
  for _, n in ipairs(nodes) do
    local h = n.facts.host or {}
    local c, m = num(h.cpu ~= ptb.null and h.cpu and h.cpu.cores), num(h.memory_mib)
    if not best or c > best.c or (c == best.c and (m > best.m or (m == best.m and n.name < best.n.name))) then
      best = { n = n, c = c, m = m }
    end
  end
  local why = #nodes == 1 and "the only node of this platform"
    or ("the most CPU cores of the %d nodes (%d; choose another with --build-node)"):format(#nodes, best.c)
  return best.n, why
end

-- Does r fit every node?  true, or false with the first node that it
-- does not fit and why.  The build machine's installed toolkit (tk) is
-- checked on the build machine only.
local function fits_all(nodes, torch, r, items, build, tk)
  for _, n in ipairs(nodes) do
    local ok, why = T.fits(n.facts, torch, r, n == build and tk or nil, items)
    if not ok then return false, n, why end
  end
  return true
end

-- The nodes that run r only through something beside their own driver
-- or JetPack, each { node, need } (T.runs_need: minor-version
-- compatibility; on a Jetson, whose driver comes with its JetPack, the
-- upgrade package its JetPack takes): those a choice should avoid
-- (minor-version compatibility, a package ptbuild names none of), and
-- those that only need a named package.
local function indirect(nodes, r)
  local avoid, packaged = {}, {}
  for _, n in ipairs(nodes) do
    local need, prefer_other = T.runs_need(n.facts, r)
    if need then table.insert(prefer_other and avoid or packaged, { node = n, need = need }) end
  end
  return avoid, packaged
end

-- Why node n runs r only through `need`, for --explain.
local function only_through(n, r, need)
  if T.runs(n.facts, r) == "compat" then
    return ("its driver %s runs CUDA %s only through minor-version compatibility"):format(n.facts.driver.version, r.version)
  end
  return ("its JetPack's driver runs CUDA %s only through %s"):format(r.version, need)
end

-- " (through NEED on NODE, NODE; through NEED2 on NODE)": each need of
-- list (indirect's), with its nodes.
local function through_text(list)
  local order, by = {}, {}
  for _, x in ipairs(list) do
    if not by[x.need] then order[#order + 1] = x.need; by[x.need] = {} end
    table.insert(by[x.need], x.node.name)
  end
  local parts = {}
  for _, need in ipairs(order) do
    parts[#parts + 1] = ("through %s on %s"):format(need, table.concat(by[need], ", "))
  end
  return " (" .. table.concat(parts, "; ") .. ")"
end

-- The newest release of list that fits every node, preferring one every
-- node runs directly within the same major (as toolkit.lua's best_of
-- does for one machine): its driver without minor-version compatibility,
-- a Jetson's JetPack without an upgrade package.  Returns r, how, limit:
-- limit names the node that ruled out the newest release of list, for
-- --explain.
local function best_for(nodes, torch, list, items)
  local best, limit
  for _, r in ipairs(list) do
    local ok, n, why = fits_all(nodes, torch, r, items)
    if ok then best = r; break end
    -- the release just newer than the choice, and every node it misses
    local others = {}
    for _, m in ipairs(nodes) do
      if m ~= n and not T.fits(m.facts, torch, r, nil, items) then others[#others + 1] = m.name end
    end
    limit = { node = n.name, release = r.version,
              why = why .. (#others > 0 and (" (nor does it fit " .. table.concat(others, ", ") .. ")") or "") }
  end
  if not best then return nil, nil, limit end
  local ind, packaged = indirect(nodes, best)
  if #ind == 0 then return best, #packaged > 0 and through_text(packaged) or "", limit end
  local cn, need = ind[1].node, ind[1].need
  local major = best.version:match("^(%d+)")
  for _, r in ipairs(list) do
    if r.version:match("^(%d+)") == major and fits_all(nodes, torch, r, items) and #indirect(nodes, r) == 0 then
      local _, pk = indirect(nodes, r)
      return r, (" directly (CUDA %s would need %s on %s)%s"):format(best.version, need, cn.name,
          #pk > 0 and through_text(pk) or ""),
        { node = cn.name, why = only_through(cn, best, need), release = best.version }
    end
  end
  for _, x in ipairs(packaged) do ind[#ind + 1] = x end
  return best, through_text(ind), limit
end

-- The CUDA of a platform: the build machine's installed toolkit when it
-- fits every node, else the best release for all.  An installed release
-- newer than the tables (T.unknown_release: driver minimum, compiler
-- limits and PyTorch's support unknown) is taken, as a single plan
-- takes it, only when no release ptbuild knows fits (--cuda X.Y asks
-- for it).  Returns { release, tk?, why, limit? } or nil.
local function choose(nodes, torch, items, build)
  local untested, newer
  for _, i in ipairs(T.installed(build.facts)) do
    if i.release and i.release.unknown then
      if not newer and fits_all(nodes, torch, i.release, items, build, i.tk) then newer = i end
    elseif i.release and fits_all(nodes, torch, i.release, items, build, i.tk) then
      if T.torch_builds(torch, i.release) == "wheels" then
        return { release = i.release, tk = i.tk,
          why = ("installed on the build machine %s in %s, and every node's driver runs it"):format(build.name, i.tk.root) }
      end
      untested = untested or i
    end
  end
  if untested then
    return { release = untested.release, tk = untested.tk,
      why = ("installed on the build machine %s in %s (PyTorch %s's build accepts CUDA %s; it ships no wheel of it), and every node's driver runs it"):format(
        build.name, untested.tk.root, torch.version, untested.release.version) }
  end
  local wheels, other = T.candidates(torch)
  local r, how, limit = best_for(nodes, torch, wheels, items)
  if r then
    return { release = r, limit = limit,
      why = #nodes == 1
        and ("the newest CUDA that PyTorch %s ships wheels for, that the driver of %s, this build's only node, runs%s and that builds its GPUs"):format(
          torch.version, nodes[1].name, how)
        or ("the newest CUDA that PyTorch %s ships wheels for, that every node's driver runs%s and that builds every GPU of the %d nodes"):format(
          torch.version, how, #nodes) }
  end
  r, how, limit = best_for(nodes, torch, other, items)
  if r then
    return { release = r, limit = limit,
      why = ("no CUDA PyTorch %s ships wheels for suits every node: the newest its build accepts that every node's driver runs%s and that builds every GPU"):format(
        torch.version, how) }
  end
  if newer then
    return { release = newer.release, tk = newer.tk,
      why = ("no CUDA ptbuild knows serves every node: installed on the build machine %s in %s (CUDA %s), newer than ptbuild's tables, which stop at CUDA %s, judged by its own nvcc's GPU list"):format(
        build.name, newer.tk.root, tostring(newer.tk.version), newer.release.tables_end) }
  end
  return nil
end

-- Nodes that no CUDA serves even alone: their own plan's first error is
-- the reason and the fix.
local function alone_fits(n, torch, items)
  local wheels, other = T.candidates(torch)
  for _, list in ipairs({ wheels, other }) do
    for _, r in ipairs(list) do
      if T.fits(n.facts, torch, r, nil, items) then return true end
    end
  end
  for _, i in ipairs(T.installed(n.facts)) do
    if i.release and T.fits(n.facts, torch, i.release, i.tk, items) then return true end
  end
  return false
end

-- Why no CUDA serves node n, and the fix: when its driver is what stops
-- it, the driver of the oldest release that builds its GPUs; else the
-- first error of its own plan.
local function unserved_why(n, torch, items, args)
  local wheels, other = T.candidates(torch)
  local oldest
  for _, list in ipairs({ wheels, other }) do
    for _, r in ipairs(list) do
      local builds = true
      for _, g in ipairs(n.facts.gpus or {}) do
        if type(g.compute_capability) == "string" and not T.builds_gpu(r, g.compute_capability) then builds = false end
      end
      if builds and (not oldest or A.vcmp(r.version, oldest.version) < 0) then oldest = r end
    end
  end
  local d = n.facts.driver
  if oldest and type(d) == "table" and d.version and not T.driver_runs(oldest, d) then
    return ("its driver %s (CUDA %s at most) runs no CUDA that PyTorch %s builds for its GPUs: the oldest, CUDA %s, needs %s"):format(
      d.version, d.cuda_max or "?", torch.version, oldest.version, T.driver_need_compat(oldest)),
      ("install %s on %s (or a newer one, for a newer CUDA)"):format(T.driver_least(n.facts, oldest), n.name)
  end
  local e = own_error(n, args)
  if e then return e.message, e.fix end
  return "its own plan finds no CUDA that fits", "plan it alone with 'ptbuild plan --facts FILE' to see why"
end

function own_error(n, args)
  local solo = P.make({ facts = n.facts, facts_source = n.source, torch = args.torch,
                        arch_list = args.arch_list, no_cudnn = args.no_cudnn })
  for _, p in ipairs(solo.problems or {}) do
    if p.severity == "error" then return p end
  end
  return nil
end

-- The release that serves the most nodes (newest first among equals),
-- for nodes that each fit alone but have no CUDA in common.
local function most_served(nodes, torch, items)
  local wheels, other = T.candidates(torch)
  local best, bestn
  for _, list in ipairs({ wheels, other }) do
    for _, r in ipairs(list) do
      local k = 0
      for _, n in ipairs(nodes) do
        if T.fits(n.facts, torch, r, nil, items) then k = k + 1 end
      end
      if k > 0 and (not bestn or k > bestn) then best, bestn = r, k end
    end
  end
  return best
end

-- Every GPU of the group's nodes once per capability, each with the node
-- it was first seen on.
local function union_gpus(nodes)
  local out, seen = {}, {}
  for _, n in ipairs(nodes) do
    for _, g in ipairs(n.facts.gpus or {}) do
      local cc = g.compute_capability
      if type(cc) == "string" and not seen[cc] then
        seen[cc] = n.name
        local c = copy(g)
        c.index = #out
        c.node = n.name
        out[#out + 1] = c
      end
    end
  end
  return out, seen
end

-- Oldest and newest GPU of the nodes, for --explain.
local function gpu_extremes(nodes)
  local lo, hi
  for _, n in ipairs(nodes) do
    for _, g in ipairs(n.facts.gpus or {}) do
      local cc = g.compute_capability
      if type(cc) == "string" then
        if not lo or A.vcmp(cc, lo.cc) < 0 then lo = { cc = cc, node = n.name, name = g.name } end
        if not hi or A.vcmp(cc, hi.cc) > 0 then hi = { cc = cc, node = n.name, name = g.name } end
      end
    end
  end
  return lo, hi
end

local function lowest_driver(nodes)
  local lo
  for _, n in ipairs(nodes) do
    local d = n.facts.driver
    if type(d) == "table" and d.version and (not lo or A.vcmp(d.version, lo.version) < 0) then
      lo = { version = d.version, cuda_max = d.cuda_max, node = n.name }
    end
  end
  return lo
end

-- Problem codes of lib/targets.lua about one GPU, and the nodes that
-- have the GPU a message names (by compute capability, else by name).
local GPU_CODES = { ["gpu-unknown"] = true, ["toolkit-drops-gpu"] = true, ["gpu-newer-than-toolkit"] = true,
                    ["gpu-not-in-arch-list"] = true, ["gpu-ptx-only"] = true }
local function gpu_nodes(p, nodes)
  local names = {}
  for _, n in ipairs(nodes) do
    for _, g in ipairs(n.facts.gpus or {}) do
      local cc = type(g.compute_capability) == "string" and g.compute_capability
      local nm = type(g.name) == "string" and g.name
      if (cc and (p.message:find("capability " .. cc, 1, true) or p.message:find("(" .. cc .. ")", 1, true)))
          or (not cc and nm and p.message:find("'" .. nm .. "'", 1, true)) then
        names[#names + 1] = n.name
        break
      end
    end
  end
  return #names > 0 and table.concat(names, ", ") or nil
end

local function set_decision(plan, topic, why)
  for _, d in ipairs(plan.decisions) do
    if d.topic == topic then d.why = why end
  end
end

-- The release --cuda asks for: one ptbuild's tables hold, else one
-- newer than them installed on the build machine and judged by its own
-- nvcc (T.unknown_release, as a single plan takes it); nil when --cuda
-- is neither (build_group then gives plan's own error for it).
local function asked_release(args, build)
  if not args.cuda then return nil end
  local r, minor = A.release(args.cuda)
  if r then return r end
  for _, i in ipairs(T.installed(build.facts)) do
    if i.release and i.release.unknown and i.minor == minor then return i.release end
  end
  return nil
end

-- The CUDA release for one platform's nodes: --cuda, or the choice that
-- serves them all, or else the most.  Nodes no CUDA serves, even alone,
-- are named (fleet problems) and left out.  Returns the choice {release,
-- why, tk?, limit?}, the nodes served, the build machine and why; nil
-- when no node is left.
local function choose_cuda(platform, nodes, args, torch, items, fleet_problems, node_rows)
  local build, build_why = build_machine(nodes, args.build_node)
  local want = asked_release(args, build)
  if want then
    return { release = want, why = "--cuda " .. want.version }, nodes, build, build_why
  end
  local served = {}
  for _, n in ipairs(nodes) do
    if alone_fits(n, torch, items) then
      served[#served + 1] = n
    else
      local why, fix = unserved_why(n, torch, items, args)
      problem(fleet_problems, "error", "fleet-node-unserved", n.name,
        ("node '%s' (%s) cannot be served by any CUDA PyTorch %s builds: %s"):format(
          n.name, n.source, torch.version, why), fix)
      node_rows[n.name].why = "no CUDA serves it"
    end
  end
  if #served == 0 then return nil end
  build, build_why = build_machine(served, args.build_node)
  local ch = choose(served, torch, items, build)
  if ch then return ch, served, build, build_why end
  -- each fits alone, not together: serve the most
  local r = most_served(served, torch, items)
  local keep = {}
  for _, n in ipairs(served) do
    local ok, why = T.fits(n.facts, torch, r, nil, items)
    if ok then
      keep[#keep + 1] = n
    else
      problem(fleet_problems, "error", "fleet-node-unserved", n.name,
        ("node '%s' (%s) is left out of the %s build: CUDA %s serves the most nodes, and %s"):format(
          n.name, n.source, platform, r.version, why),
        ("plan '%s' alone (ptbuild plan --facts %s) and build for it separately"):format(
          n.name, (n.source:gsub("^file:", ""))))
      node_rows[n.name].why = ("CUDA %s does not fit: %s"):format(r.version, why)
    end
  end
  served = keep
  build, build_why = build_machine(served, args.build_node)
  ch = choose(served, torch, items, build) or { release = r, why = "" }
  ch.why = ("no CUDA suits every node: CUDA %s serves the most (%d of %d); %s"):format(
    r.version, #served, #nodes, ch.why)
  return ch, served, build, build_why
end

-- How a Jetson node runs CUDA r newer than its JetPack's own, plan's
-- answer (checks jetson_runs) in plan's words, led by the node's name:
-- its driver comes with the JetPack, so a driver install is no fix.  An
-- upgrade package other than the one the build loads (an Orin's beside a
-- Thor's) is the node's to install.  runs: how its driver runs r.
-- Returns true when the JetPack, not minor-version compatibility,
-- decides how r runs there.
local function jetson_node_problems(plan, torch, r, n, runs)
  if ((n.facts.host or {}).platform) ~= "jetson" then return false end
  local how, j = C.jetson_runs(n.facts, r, plan.cuda.root)
  local lead = ("node '%s': "):format(n.name)
  if how == "too-old" then
    local message, fix = P.jetpack_words(n.facts, torch, r)
    problem(plan.problems, "error", "jetpack-too-old-for-cuda", n.name, lead .. message, fix)
  elseif how == "unnamed" and runs == "compat" then
    local message, fix = P.jetson_unnamed_words(j, r)
    problem(plan.problems, "warning", "driver-minor-compat", n.name, lead .. message, fix)
  elseif how == "upgrade" then
    local loads = type(plan.cuda.compat) == "table" and plan.cuda.compat.package
    if loads ~= j.package then
      local jp, own = T.jetpack(n.facts)
      problem(plan.problems, "warning", "fleet-node-upgrade-package", n.name,
        lead .. ("JetPack %s's driver is CUDA %s's: programs built with CUDA %s run on it only with NVIDIA's CUDA upgrade package %s, which the build's environment does not load (%s)"):format(
          jp, own, r.version, j.package, loads and ("it loads %s, the build machine's"):format(loads) or "the build machine needs none"),
        ("sudo apt-get install -y %s on %s and put %s first on LD_LIBRARY_PATH there"):format(j.package, n.name, j.dir))
    end
  end
  return how ~= nil
end

-- CUDA's libraries load on every node: its glibc floor is each node's
-- (its headers' ceiling is the build machine's alone), and binaries
-- built on the build machine need its glibc.  Adds node n's problems.
local function node_glibc_problems(plan, r, n, build)
  local build_glibc = build.facts.host and build.facts.host.glibc
  local gok, gwhy = T.glibc_ok(n.facts, r)
  if not gok and gwhy:find("older", 1, true) then
    problem(plan.problems, "error", "glibc-too-old", n.name,
      ("node '%s': %s: its libraries fail to load there"):format(n.name, gwhy),
      ("use CUDA 12.6 or older (--cuda), or update the distribution of %s"):format(n.name))
  end
  local g = n.facts.host and n.facts.host.glibc
  if type(g) == "string" and type(build_glibc) == "string" and A.vcmp(g, build_glibc) < 0 then
    problem(plan.problems, "warning", "fleet-glibc-older", n.name,
      ("node '%s' has glibc %s, older than the build machine %s's %s: binaries built there may need symbols it lacks ('GLIBC_%s not found')"):format(
        n.name, g, build.name, build_glibc, build_glibc),
      ("build on the node with the oldest glibc (--build-node %s), or in a container of its distribution"):format(n.name))
  end
end

-- Each node is judged by its own nvcc's answer: the build compiles on
-- the build machine, by the GPU list its toolkit gives (plan.make on its
-- facts), but a node with a toolkit of the same release whose own nvcc
-- (detect's toolkits[].gpu_list: a patched or older update) lacks a
-- target of the build's arch list fails there what the fleet's
-- environment compiles with it (torch.utils.cpp_extension reads
-- TORCH_CUDA_ARCH_LIST), and doctor there raises arch-list-invalid.
-- A warning per such toolkit, naming the node, its nvcc and the target.
local function node_nvcc_problems(plan, r, n, build)
  local items = A.parse(plan.torch_cuda_arch_list or "")
  for _, tk in ipairs(n.facts.toolkits or {}) do
    local g = type(tk) == "table" and tk.gpu_list
    if type(g) == "table" and type(g.code) == "table" and type(g.arch) == "table"
        and A.cuda_minor(tk.version) == r.version and #items > 0 then
      local errs = A.check_nvcc(items, { nvcc = tostring(g.nvcc), version = r.version, arch = g.arch, code = g.code })
      if #errs > 0 then
        problem(plan.problems, "warning", "fleet-node-nvcc-lacks", n.name,
          ("node '%s': its CUDA %s in %s (%s) does not build the build's arch list %s, as its own nvcc answers: %s; the build itself runs on %s, whose nvcc builds it, but what the fleet's environment compiles on %s (torch.utils.cpp_extension, by TORCH_CUDA_ARCH_LIST) fails there"):format(
            n.name, r.version, tostring(tk.root), tostring(tk.version), plan.torch_cuda_arch_list, errs[1].message, build.name, n.name),
          ("install on %s the CUDA %s update the build machine %s has (%s), or compile extensions there with a TORCH_CUDA_ARCH_LIST its nvcc lists (%s)"):format(
            n.name, r.version, build.name, tostring((plan.cuda or {}).full_version or r.version), errs[1].hint))
      end
    end
  end
end

-- Per served node: how its driver runs CUDA r, its GPUs in the arch list
-- (node_rows), and the problems that are its own (in plan.problems).  A
-- Jetson node's module is judged as its own plan judges it (checks
-- jetson_cuda_too_old: a Jetson Thor needs CUDA 13), whatever the build
-- machine's module.
local function node_problems(plan, torch, r, items, build, served, platform, node_rows)
  for _, n in ipairs(served) do
    local row = node_rows[n.name]
    row.build = platform
    local runs = T.driver_runs(r, n.facts.driver)
    -- a Jetson's JetPack, not its driver, decides (T.jetpack_runs)
    row.cuda_runs = T.jetpack_runs(n.facts, r) or runs or "no"
    if n ~= build then
      local message, fix = P.jetson_module_words(n.facts, torch, r, items)
      if message then
        problem(plan.problems, "error", "jetson-thor-needs-cuda-13", n.name,
          ("node '%s': %s"):format(n.name, message), fix)
      end
      -- a Jetson node whose L4T and driver disagree: plan's one problem
      -- naming both (checks jetson_facts_disagree), in place of what
      -- either says alone
      -- either says alone (jetson-facts-disagree beside what the rest
      -- says, where the driver's answer is no problem)
      local mis = C.jetson_mismatch(n.facts)
      if mis then
        problem(plan.problems, mis.severity, mis.code, n.name, ("node '%s': %s"):format(n.name, mis.text), mis.fix)
      end
      local dis = C.jetson_facts_disagree(n.facts, r)
      if dis then
        problem(plan.problems, dis.severity, dis.code, n.name, ("node '%s': %s"):format(n.name, dis.text), dis.fix)
      end
      local theirs = dis and dis.code ~= "jetson-facts-disagree"
      local jetpack_decides = not theirs and jetson_node_problems(plan, torch, r, n, runs)
      -- a Jetson node's driver answer is the Jetson rule's (checks
      -- jetson_driver), as in its own plan
      local jd = not theirs and C.jetson_driver(n.facts, r, nil, plan.cuda.root, torch)
      if theirs then
        -- the driver's answer, in the words of both facts
      elseif jd ~= nil then
        if jd and not jetpack_decides then
          problem(plan.problems, jd.severity, jd.code, n.name, ("node '%s': %s"):format(n.name, jd.text),
            ("%s on %s"):format(jd.fix, n.name))
        end
      elseif runs == nil then
        problem(plan.problems, "error", "driver-too-old", n.name,
          ("node '%s': driver %s cannot run CUDA %s (it needs %s)"):format(
            n.name, n.facts.driver.version, r.version, T.driver_need_compat(r)),
          ("install %s on %s"):format(T.driver_least(n.facts, r), n.name))
      elseif runs == "compat" and not jetpack_decides then
        problem(plan.problems, "warning", "driver-minor-compat", n.name,
          ("node '%s': driver %s (CUDA %s at most) runs CUDA %s only through minor-version compatibility: PTX compiled by CUDA %s cannot be JIT-compiled there"):format(
            n.name, n.facts.driver.version, n.facts.driver.cuda_max or "?", r.version, r.version),
          ("install %s on %s to run CUDA %s directly"):format(T.driver_at_least(r), n.name, r.version))
      end
      node_glibc_problems(plan, r, n, build)
      node_nvcc_problems(plan, r, n, build)
    end
    local gpus = {}
    for _, gpu in ipairs(n.facts.gpus or {}) do
      local cc = gpu.compute_capability
      if type(cc) == "string" then
        gpus[#gpus + 1] = cc
      end
    end
    row.gpus = ptb.array(gpus)
  end
end

-- Which node forced each decision of the build (ch as choose_cuda gives
-- it; want: the --cuda release, if any).
local function explain_build(plan, ch, want, build, build_why, served, torch)
  local r = ch.release
  local explain = {}
  explain[#explain + 1] = { decision = "build_machine", node = build.name, why = build_why }
  local ld = lowest_driver(served)
  if want then
    explain[#explain + 1] = { decision = "cuda", node = ptb.null, why = "--cuda " .. want.version }
  elseif ch.tk then
    explain[#explain + 1] = { decision = "cuda", node = build.name, why = ch.why }
  elseif ch.limit then
    explain[#explain + 1] = { decision = "cuda", node = ch.limit.node,
      why = ("CUDA %s, not %s: %s"):format(r.version, ch.limit.release, ch.limit.why) }
  else
    explain[#explain + 1] = { decision = "cuda", node = ptb.null,
      why = ("CUDA %s is the newest PyTorch %s supports; no node limits it"):format(r.version, torch.version) }
  end
  if ld then
    explain[#explain + 1] = { decision = "lowest_driver", node = ld.node,
      why = ("driver %s (CUDA %s at most) is the oldest%s"):format(ld.version, ld.cuda_max or "?",
        #served > 1 and (" of the %d nodes"):format(#served) or ", on the only node") }
  end
  local lo, hi = gpu_extremes(served)
  if lo then
    explain[#explain + 1] = { decision = "oldest_gpu", node = lo.node,
      why = ("%s (%s) is the lowest entry of the arch list %s"):format(lo.name or "GPU", lo.cc, plan.torch_cuda_arch_list) }
    explain[#explain + 1] = { decision = "newest_gpu", node = hi.node,
      why = ("%s (%s) is the highest entry, which carries the PTX"):format(hi.name or "GPU", hi.cc) }
  end
  explain[#explain + 1] = { decision = "host_compiler", node = build.name,
    why = "the compiler is the build machine's" }
  return explain
end

-- A served node other than the build machine with a toolkit of release
-- minor installed whose own nvcc's answer fits every node: node, its
-- installed entry (T.installed), or nil.
local function fits_elsewhere(served, torch, items, build, minor)
  for _, n in ipairs(served) do
    for _, i in ipairs(n ~= build and T.installed(n.facts) or {}) do
      if i.release and i.minor == minor and fits_all(served, torch, i.release, items, n, i.tk) then return n, i end
    end
  end
  return nil
end

-- The choice ch named a release by ptbuild's tables, but plan.make took
-- the build machine's installed toolkit of it, judged by its own nvcc
-- (a patched or older update that lacks a node's target: with
-- --build-node, or when none fits): say so in ch.why, with the node it
-- fails, and keep the toolkit (ch.tk) and a node whose own toolkit of
-- the release fits (ch.alt) for the fixes.
local function took_installed(plan, ch, served, torch, items, build)
  local i
  for _, x in ipairs(T.installed(build.facts)) do
    if x.release and x.tk.root == plan.cuda.root then i = x end
  end
  if not i then return end
  local ok, n, why = fits_all(served, torch, i.release, items, build, i.tk)
  ch.tk = i.tk
  ch.why = ("%s, by ptbuild's tables; the build takes the CUDA %s installed on the build machine %s in %s (%s), judged by its own nvcc%s"):format(
    ch.why, plan.cuda.version, build.name, i.tk.root, tostring(i.tk.version),
    ok and "" or (", which fails node '%s': %s by that nvcc's list"):format(n.name, why))
  if not ok then ch.alt, ch.alt_tk = fits_elsewhere(served, torch, items, build, i.minor) end
end

-- A toolkit-drops-gpu of lib/targets about the installed toolkit's own
-- nvcc: that toolkit is the build machine's, and a node whose toolkit
-- of the release fits (ch.alt, took_installed) is a way out.
local function build_nvcc_words(p, ch, build)
  local v = p.code == "toolkit-drops-gpu" and p.message:match("^the installed CUDA (%S+), judged by its own nvcc")
  if not v then return end
  p.message = ("the CUDA %s installed on the build machine %s%s"):format(v, build.name, p.message:sub(#("the installed CUDA " .. v) + 1))
  if ch.alt then
    p.fix = ("%s; or build on %s (--build-node %s), whose CUDA %s in %s builds every node's GPUs by its own nvcc"):format(
      p.fix, ch.alt.name, ch.alt.name, tostring(ch.alt_tk.tk.version), ch.alt_tk.tk.root)
  end
end

-- --cuda of a release newer than the tables that the build machine
-- lacks: plan's errors, each saying which other node has it installed
-- (asked_release takes it there) and --build-node NODE, if one does.
local function installed_on_other(errors, nodes, build, cuda)
  local _, minor = A.release(cuda)
  for _, n in ipairs(nodes) do
    for _, i in ipairs(n ~= build and T.installed(n.facts) or {}) do
      if i.release and i.release.unknown and i.minor == minor then
        for _, e in ipairs(errors or {}) do
          e.message = ("%s on the build machine %s; node '%s' has it installed in %s (%s)"):format(
            e.message, build.name, n.name, i.tk.root, tostring(i.tk.version))
          e.hint = ("build on %s, which has it: --build-node %s"):format(n.name, n.name)
        end
        return errors
      end
    end
  end
  return errors
end

-- One platform's build.  Returns plan, target, or nil, errors.
local function build_group(platform, nodes, args, torch, items, fleet_problems, node_rows)
  if args.cuda and not asked_release(args, build_machine(nodes, args.build_node)) then
    -- a --cuda no plan of the build machine takes: that plan's error
    -- (before, the fleet went on as if no --cuda was given)
    local build = build_machine(nodes, args.build_node)
    local solo = P.make({ facts = build.facts, cuda = args.cuda, torch = args.torch })
    return nil, installed_on_other(solo.errors, nodes, build, args.cuda)
  end
  local ch, served, build, build_why = choose_cuda(platform, nodes, args, torch, items, fleet_problems, node_rows)
  if not ch then return nil end
  local want = asked_release(args, build)
  local r = ch.release

  -- The build machine's facts with every served node's GPUs, its own
  -- first: what plan.make judges by the first GPU is the build
  -- machine's (a Jetson's module, so its upgrade package: a Thor's, not
  -- an Orin node's).
  local merged = copy(build.facts)
  local order = { build }
  for _, n in ipairs(served) do
    if n ~= build then order[#order + 1] = n end
  end
  merged.gpus = ptb.array((union_gpus(order)))
  -- A toolkit the choice did not pick must not win in plan.make's choice.
  local plan = P.make({ facts = merged, torch = args.torch, cuda = r.version,
    arch_list = args.arch_list, max_jobs = args.max_jobs, no_cudnn = args.no_cudnn,
    facts_source = ("fleet:%s (%d node%s, built on %s)"):format(platform, #served, #served == 1 and "" or "s", build.name) })
  if plan.errors then return nil, plan.errors end
  -- The machine is the build machine's: a wheel built for its OS is the
  -- nodes' only when they all run that OS release, else generate keeps
  -- its default base image.
  for _, n in ipairs(served) do
    local o, bo = n.facts.host and n.facts.host.os, build.facts.host and build.facts.host.os
    if type(o) ~= "table" or type(bo) ~= "table" or o.id ~= bo.id or o.version_id ~= bo.version_id then
      plan.machine = nil
    end
  end
  if not want and not ch.tk and plan.cuda.source == "installed" then
    took_installed(plan, ch, served, torch, items, build)
  end
  if not want then
    plan.cuda.why = ch.why
    set_decision(plan, "cuda", ch.why)
  end
  -- Problems of the plan come from the build machine's facts, but for
  -- those about a GPU: they belong to the nodes that have it.  A Jetson
  -- node whose module r does not serve (a Thor before CUDA 13) gets
  -- jetson-thor-needs-cuda-13 below, as its own plan does, not its GPU's
  -- problem (CUDA 12.8 names a Thor sm_101, which its JetPack never
  -- runs): a GPU problem of such nodes only is dropped.
  local judged, held = {}, {}
  for _, n in ipairs(served) do
    local list = (n ~= build and C.jetson_cuda_too_old(n.facts, r)) and held or judged
    list[#list + 1] = n
  end
  local kept = {}
  for _, p in ipairs(plan.problems) do
    local owners = GPU_CODES[p.code] and not p.node and gpu_nodes(p, judged)
    if GPU_CODES[p.code] and not p.node and not owners and gpu_nodes(p, held) then
      owners = false
    else
      p.node = p.node or owners or build.name
      build_nvcc_words(p, ch, build)
      kept[#kept + 1] = p
    end
  end
  plan.problems = kept
  node_problems(plan, torch, r, items, build, served, platform, node_rows)
  plan.problems = ptb.array(plan.problems)

  local names = {}
  for _, n in ipairs(served) do names[#names + 1] = n.name end
  return plan, { platform = platform, build_machine = build.name, nodes = ptb.array(names),
                 explain = explain_build(plan, ch, want, build, build_why, served, torch) }
end

function M.make(args)
  local torch
  if args.torch then
    torch = P.torch_release(args.torch)
    if not torch then
      return { errors = { { kind = "usage", message = ("unknown PyTorch release '%s'"):format(args.torch),
        hint = "known releases: " .. table.concat(P.known_torch(), " ") } } }
    end
  else
    torch = pytorch.releases[#pytorch.releases]
  end
  local items
  if args.arch_list then
    local it, errs = A.parse(args.arch_list)
    if #errs == 0 then items = it end
  end
  local groups, rows, row_list, problems = {}, {}, {}, {}
  for _, n in ipairs(args.nodes or {}) do
    ptb.include("lib/gpuname").fill(n.facts)
    local p = M.platform_of(n.facts)
    local row = { name = n.name, source = n.source, taken_at = n.taken_at or ptb.null,
                  taken_from = n.taken_from or ptb.null, platform = p or ptb.null, build = ptb.null,
                  cuda_runs = ptb.null, gpus = ptb.array({}) }
    rows[n.name] = row
    row_list[#row_list + 1] = row
    if p then
      groups[p] = groups[p] or {}
      table.insert(groups[p], n)
    else
      problem(problems, "error", "fleet-node-platform", n.name,
        ("node '%s' (%s): host.arch '%s' is none of the platforms a PyTorch CUDA build targets (x86_64, SBSA, Jetson)"):format(
          n.name, n.source, tostring(n.facts.host and n.facts.host.arch)),
        "gather its facts again with 'ptbuild detect --json' on the node itself")
      row.why = "unknown platform"
    end
  end
  if args.build_node and not rows[args.build_node] then
    return { errors = { { kind = "usage", message = ("--build-node '%s' is none of the fleet's nodes"):format(args.build_node),
      hint = "the nodes: " .. table.concat((function() local t = {} for _, r in ipairs(row_list) do t[#t + 1] = r.name end return t end)(), " ") } } }
  end
  local builds, targets = {}, {}
  for _, p in ipairs(ORDER) do
    if groups[p] then
      local plan, target = build_group(p, groups[p], args, torch, items, problems, rows)
      if plan == nil and target then return { errors = target } end
      if plan then
        builds[#builds + 1] = plan
        targets[#targets + 1] = target
      end
    end
  end
  for _, r in ipairs(row_list) do r.why = r.why or ptb.null end
  return {
    schema = "ptbuild.fleet/1",
    torch = torch.version,
    builds = ptb.array(builds),
    targets = ptb.array(targets),
    nodes = ptb.array(row_list),
    problems = ptb.array(problems),
  }
end

return M
