-- plan_targets_test.lua - lib/targets: the arch list of a plan, table-driven.
local t = ptb.include("tap")
local A = ptb.include("lib/archlist")
local G = ptb.include("lib/targets")
local pytorch = ptb.include("data/pytorch")

local function R(v) return (A.release(v)) end
local function torch(v)
  for _, r in ipairs(pytorch.releases) do if r.version == v then return r end end
end
local function codes(problems)
  local out = {}
  for _, p in ipairs(problems) do out[#out + 1] = p.severity .. ":" .. p.code end
  return table.concat(out, " ")
end
local function facts(platform, ccs, extra)
  local f = { host = { arch = platform == "x86_64" and "x86_64" or "aarch64", platform = platform }, gpus = {} }
  for i, cc in ipairs(ccs) do f.gpus[i] = { name = "GPU" .. i, compute_capability = cc } end
  for k, v in pairs(extra or {}) do f[k] = v end
  return f
end

-- { description, facts, torch, CUDA, platform, --arch-list, list, problem codes }
local cases = {
  { "one GPU", facts("sbsa", { "9.0" }), "2.14", "13.0", "linux-sbsa", nil, "9.0+PTX", "" },
  { "two kinds, +PTX on the highest", facts("x86_64", { "8.6", "8.0", "8.6" }), "2.11", "12.8", "linux-x86_64", nil, "8.0;8.6+PTX", "" },
  { "Thor under CUDA 12.8 is 10.1", facts("jetson", { "11.0" }), "2.8", "12.8", "linux-sbsa", nil, "10.1+PTX", "" },
  { "Thor under CUDA 13 is 11.0", facts("jetson", { "11.0" }), "2.14", "13.0", "linux-sbsa", nil, "11.0+PTX", "" },
  { "no GPU: x86 wheel list", facts("x86_64", {}), "2.9", "12.8", "linux-x86_64", nil, "7.0;7.5;8.0;8.6;9.0;10.0;12.0", "" },
  -- (2.14's cu130 wheels carry no PTX [pt-cu129] [pt-archlist]; 2.10's do)
  { "no GPU: SBSA wheel list", facts("sbsa", {}), "2.14", "13.0", "linux-sbsa", nil, "8.0;9.0;10.0;11.0;12.0", "" },
  { "no GPU: SBSA wheel list with its PTX", facts("sbsa", {}), "2.10", "13.0", "linux-sbsa", nil, "8.0;9.0;10.0;11.0;12.0+PTX", "" },
  { "no GPU: nearest older wheel", facts("sbsa", {}), "2.8", "12.8", "linux-sbsa", nil, "8.0;9.0;10.0;12.0", "" },
  { "no GPU: wheel list limited to the toolkit", facts("x86_64", {}), "2.9", "12.4", "linux-x86_64", nil, "5.0;6.0;7.0;7.5;8.0;8.6;9.0", "" },
  { "no GPU: CUDA 13 drops 5.0-7.0", facts("x86_64", {}), "2.8", "13.0", "linux-x86_64", nil, "7.5;8.0;8.6;9.0;10.0;12.0+PTX", "" },
  { "Jetson without gpus[]: the module", facts("jetson", {}, { jetson = { module = "Jetson AGX Orin" } }), "2.14", "12.6", "linux-aarch64", nil, "8.7+PTX", "" },
  { "CUDA 13 and a GTX 1080", facts("x86_64", { "6.1" }), "2.14", "13.0", "linux-x86_64", nil, "", "error:toolkit-drops-gpu error:arch-list-empty" },
  { "RTX 5090 and CUDA 12.6", facts("x86_64", { "12.0" }), "2.7", "12.6", "linux-x86_64", nil, "", "error:gpu-newer-than-toolkit error:arch-list-empty" },
  { "mixed: one GPU dropped", facts("x86_64", { "6.1", "8.9" }), "2.14", "13.0", "linux-x86_64", nil, "8.9+PTX", "error:toolkit-drops-gpu" },
  -- older than every CUDA ptbuild knows: Kepler 3.0 (last built by CUDA
  -- 10.2) and Fermi 2.1 (older than every architecture in data/archs) are
  -- dropped GPUs, never GPUs newer than the toolkit
  { "Kepler 3.0 and CUDA 12.6", facts("x86_64", { "3.0" }), "2.7", "12.6", "linux-x86_64", nil, "", "error:toolkit-drops-gpu error:arch-list-empty" },
  { "Fermi 2.1 and CUDA 11.8", facts("x86_64", { "2.1" }), "2.7", "11.8", "linux-x86_64", nil, "", "error:toolkit-drops-gpu error:arch-list-empty" },
  { "override covering the GPU", facts("x86_64", { "8.9" }), "2.11", "12.8", "linux-x86_64", "8.9;9.0+PTX", "8.9;9.0+PTX", "" },
  { "override: 8.0 SASS runs on 8.6", facts("x86_64", { "8.6" }), "2.11", "12.8", "linux-x86_64", "8.0", "8.0", "" },
  { "override missing the GPU", facts("x86_64", { "8.9" }), "2.11", "12.8", "linux-x86_64", "9.0", "9.0", "error:gpu-not-in-arch-list" },
  { "override: PTX only", facts("x86_64", { "8.9" }), "2.11", "12.8", "linux-x86_64", "7.5+PTX", "7.5+PTX", "warning:gpu-ptx-only" },
  { "override: 10.0 SASS does not run on Thor", facts("jetson", { "11.0" }), "2.9", "13.0", "linux-sbsa", "10.0", "10.0", "error:gpu-not-in-arch-list" },
  -- a Jetson Thor with CUDA 12.9 is plan's jetson-thor-needs-cuda-13 alone
  -- (lib/checks.lua jetson_cuda_too_old): no GPU problem beside it
  { "Thor with CUDA 12.9: the Jetson rule's", facts("jetson", { "11.0" }), "2.8", "12.9", "linux-sbsa", nil, "10.1+PTX", "" },
  { "override: 9.0a only on 9.0", facts("x86_64", { "9.0" }), "2.11", "12.8", "linux-x86_64", "9.0a", "9.0a", "" },
  { "override: a not accepted? (2.4 accepts a)", facts("x86_64", { "9.0" }), "2.4", "12.4", "linux-x86_64", "9.0a", "9.0a", "" },
  { "override: f refused by 2.8", facts("sbsa", {}), "2.8", "12.9", "linux-sbsa", "10.0f", "10.0f", "error:arch-suffix-not-accepted warning:arch-not-accepted-by-cpp-extension" },
  { "override: f accepted by 2.9 (not by cpp_extension)", facts("sbsa", {}), "2.9", "12.9", "linux-sbsa", "10.0f", "10.0f", "warning:arch-not-accepted-by-cpp-extension" },
  { "override: one-digit majors in 2.5", facts("sbsa", {}), "2.5", "12.4", "linux-sbsa", "9.0;10.0", "9.0;10.0", "error:arch-not-built-by-toolkit error:arch-not-accepted-by-torch warning:arch-not-accepted-by-cpp-extension" },
  -- what only PyTorch's CMake reads: cpp_extension (of that release) refuses it
  { "override: 8.8 is in no cpp_extension list", facts("x86_64", {}), "2.14", "13.0", "linux-x86_64", "8.8;9.0", "8.8;9.0", "warning:arch-not-accepted-by-cpp-extension" },
  { "override: X.Y(A.B) is no cpp_extension form", facts("x86_64", {}), "2.11", "12.8", "linux-x86_64", "8.6(8.0)", "8.6(8.0)", "warning:arch-not-accepted-by-cpp-extension" },
  { "override: 10.1 in cpp_extension of 2.8", facts("sbsa", {}), "2.8", "12.8", "linux-sbsa", "10.1", "10.1", "" },
  { "override: 10.1 gone from cpp_extension in 2.9", facts("sbsa", {}), "2.9", "12.8", "linux-sbsa", "10.1", "10.1", "warning:arch-not-accepted-by-cpp-extension" },
  { "override: 12.1a accepted by cpp_extension of 2.14", facts("sbsa", {}), "2.14", "13.0", "linux-sbsa", "12.1a+PTX", "12.1a+PTX", "" },
  { "override the toolkit cannot build", facts("x86_64", {}), "2.14", "13.0", "linux-x86_64", "5.0;7.5", "5.0;7.5", "error:arch-not-built-by-toolkit" },
}
for _, c in ipairs(cases) do
  local res, problems, errors = G.choose(c[2], torch(c[3]), R(c[4]), c[5], c[6])
  t.is(#errors, 0, c[1] .. ": no usage error")
  t.is(res.list, c[7], c[1] .. ": list")
  t.is(codes(problems), c[8], c[1] .. ": problems")
  t.ok(not res.list:find("Auto") and not res.list:find("All") and not res.list:find("Common"), c[1] .. ": never Auto/All/Common")
end

-- The fix of a GPU the CUDA cannot build names the CUDA to take and,
-- when the PyTorch release asked for does not build with that CUDA, the
-- release that does -- not "a PyTorch release that supports it".
-- { cc, torch, CUDA, code, fix }
for _, c in ipairs({
  { "12.0", "2.7", "12.6", "gpu-newer-than-toolkit", "use CUDA 12.8 or newer (--cuda 12.8)" },
  { "10.7", "2.8", "12.9", "gpu-newer-than-toolkit",
    "use CUDA 13.4 or newer with PyTorch 2.9 or newer: PyTorch 2.8 does not build with CUDA 13.4 (--torch 2.9 --cuda 13.4)" },
  { "6.1", "2.14", "13.0", "toolkit-drops-gpu", "use CUDA 12.9 (--cuda 12.9), or build on a machine without this GPU" },
  { "3.7", "2.14", "12.6", "toolkit-drops-gpu",
    "use CUDA 11.8 with PyTorch 2.7: PyTorch 2.14 does not build with CUDA 11.8 (--torch 2.7 --cuda 11.8), or build on a machine without this GPU" },
}) do
  local _, problems = G.choose(facts("x86_64", { c[1] }), torch(c[2]), R(c[3]), "linux-x86_64", nil)
  local fix
  for _, p in ipairs(problems) do if p.code == c[4] then fix = p.fix end end
  t.is(fix, c[5], ("%s, PyTorch %s, CUDA %s: %s's fix names the CUDA and the release"):format(c[1], c[2], c[3], c[4]))
end

-- what the plan says of a GPU too old for every CUDA it knows: the GPU by
-- name, the CUDA that last built it, and no --cuda to try
local known = A.known_versions()
local span = known[1] .. " to " .. known[#known]
for _, c in ipairs({
  { "3.0", "NVIDIA GeForce GTX 680", "the NVIDIA GeForce GTX 680 (compute capability 3.0) is too old for every CUDA ptbuild knows (" .. span .. "): the last CUDA that built for it is 10.2" },
  { "2.1", "NVIDIA GeForce 410M", "the NVIDIA GeForce 410M (compute capability 2.1) is too old for every CUDA ptbuild knows (" .. span .. "): it is older than the oldest GPU architecture ptbuild knows, 3.0, which CUDA 10.2 last built" },
}) do
  local f = facts("x86_64", { c[1] })
  f.gpus[1].name = c[2]
  local _, problems = G.choose(f, torch("2.7"), R("12.6"), "linux-x86_64", nil)
  local p = problems[1] or {}
  t.is(p.message, c[3], c[2] .. ": too old for every CUDA, named")
  t.is(p.fix, "build on a machine without this GPU: no CUDA ptbuild knows builds for it", c[2] .. ": no --cuda to try")
end

-- usage errors: the list does not parse
for _, bad in ipairs({ "Auto", "All", "Common", "sm_90", "8.0,9.0", "", "08.0", "9.0a(9.0)", "8.6(08.0)" }) do
  local _, _, errors = G.choose(facts("x86_64", {}), torch("2.14"), R("13.0"), "linux-x86_64", bad)
  t.ok(#errors > 0 and errors[1].kind == "usage", ("--arch-list '%s' is a usage error"):format(bad))
end

-- covers: { list, capability, how }
local covers = {
  { "8.0", "8.6", "sass" }, { "8.0", "8.7", "sass" }, { "8.0", "9.0", nil }, { "8.0+PTX", "9.0", "ptx" },
  { "9.0a", "9.0", "sass" }, { "9.0a", "9.0", "sass" }, { "10.0", "10.3", "sass" }, { "10.0", "11.0", nil },
  { "12.0", "12.1", "sass" }, { "10.0f", "10.3", "sass" }, { "9.0+PTX", "8.9", nil },
}
for _, c in ipairs(covers) do
  local items = A.parse(c[1])
  t.is(G.covers(items, c[2]), c[3], ("'%s' serves %s: %s"):format(c[1], c[2], tostring(c[3])))
end

-- wheel_list: every release has an x86_64 list for each CUDA it supports
for _, r in ipairs(pytorch.releases) do
  for _, v in ipairs(r.cuda) do
    local l = G.wheel_list(r, R(v), "linux-x86_64")
    t.ok(l ~= nil and #A.parse(l) > 0, ("PyTorch %s CUDA %s: x86_64 wheel list"):format(r.version, v))
  end
end

t.done()
