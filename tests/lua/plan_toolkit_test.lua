-- plan_toolkit_test.lua - lib/toolkit: driver, GPU names, platform,
-- choice and installer, table-driven.
local t = ptb.include("tap")
local A = ptb.include("lib/archlist")
local T = ptb.include("lib/toolkit")
local pytorch = ptb.include("data/pytorch")
local cuda = ptb.include("data/cuda")

local function R(v) return (A.release(v)) end
local function torch(v)
  for _, r in ipairs(pytorch.releases) do if r.version == v then return r end end
end

-- driver_runs: { driver version, cuda_max, CUDA release, expected }
local drivers = {
  { "580.95.05", "13.0", "13.0", "direct" },
  { "580.95.05", "13.0", "13.2", "compat" },     -- 13.x floor 580 [rn-t2]
  { "575.57.08", "12.9", "13.0", nil },           -- below the 13.x floor
  { "550.54.15", "12.4", "12.6", "compat" },      -- 12.x floor 525.60.13
  { "550.54.15", "12.4", "12.4", "direct" },
  { "520.61.05", "11.8", "12.0", nil },           -- 11.x driver, 12.x needs 525.60.13
  { "470.256.02", "11.4", "11.8", "compat" },     -- 11.x floor 450.80.02
  { "570.124.06", "12.8", "12.8", "direct" },
  { "560.28.03", nil, "12.6", "direct" },         -- no ceiling read: the version decides
  { "615.71.09", "13.4", "13.4", "direct" },      -- 13.4.1's own driver [dlfw2608] [umd134]
  { "610.43.02", "13.3", "13.4", "compat" },
  { "615.20.01", nil, "13.4", "direct" },         -- an r615 driver runs 13.4 [ptx-rel]
  -- 13.5: 620.70.06 an upper bound [nvdrv62070]; below it the ceiling
  -- decides, else the 580 floor
  { "620.70.06", nil, "13.5", "direct" },
  { "620.10.01", "13.5", "13.5", "direct" },
  { "620.10.01", nil, "13.5", "compat" },
  { "615.71.09", "13.4", "13.5", "compat" },
  { "575.57.08", "12.9", "13.5", nil },
}
for _, c in ipairs(drivers) do
  t.is(T.driver_runs(R(c[3]), { version = c[1], cuda_max = c[2] }), c[4],
    ("driver %s runs CUDA %s: %s"):format(c[1], c[3], tostring(c[4])))
end
t.is(T.driver_runs(R("12.8"), nil), "unknown", "no driver: unknown")

-- driver_need: the minimum, or where to read it when the data lacks it
-- 13.4 is known by its branch: any r615 driver runs it (driver_runs
-- above), 615.71.09 is one known to [dlfw2608] [ptx-rel]
t.is(T.driver_need(R("13.4")), "an r615 driver (615.71.09 is known to run it)",
  "13.4 needs an r615 driver, not 615.71.09 exactly")
t.is(T.driver_runs(R("13.4"), { version = "615.10.01" }), "direct", "... as driver_runs says of an earlier r615 driver")
t.is(T.driver_need(R("13.5")), "620.70.06 (known to run it; NVIDIA's minimum, Table 3, is not in ptbuild's data and may be older)",
  "13.5: 620.70.06 is known to run it, an upper bound of the minimum [nvdrv62070]")
t.is(T.driver_at_least(R("13.5")), "driver 620.70.06 or newer (known to run CUDA 13.5; the minimum may be older)",
  "13.5: the driver to install is worded as a bound too")
t.is(T.driver_at_least(R("13.2")), "driver 595.45.04 or newer", "13.2: its Table 3 minimum, worded plainly")
-- a release whose minimum the data lacks (none today): the messages say
-- where to read it
local unknown = { version = "13.6", compat_min = "580" }
t.like(T.driver_need(unknown), "Table 3", "no minimum in the data: driver_need says where to read it")
t.like(T.driver_at_least(unknown), "Table 3", "no minimum in the data: driver_at_least says where to read it")

-- compat_floor: the least driver minor-version compatibility runs a
-- release with, as one to install.  Table 2 names 13.x's by its branch
-- alone (">= 580" [rn-t2]); the least r580 driver Table 3 lists is
-- 13.0's 580.65.06 [rn-t3].  12.x and 11.x name full versions [rn-t2].
for _, c in ipairs({
  { "11.8", "450.80.02" }, { "12.0", "525.60.13" }, { "12.9", "525.60.13" },
  { "13.0", "580.65.06" }, { "13.2", "580.65.06" }, { "13.4", "580.65.06" }, { "13.5", "580.65.06" },
}) do
  t.is(T.compat_floor(R(c[1])), c[2], ("CUDA %s: minor-version compatibility from driver %s"):format(c[1], c[2]))
end
t.is(T.compat_floor({ version = "14.1", compat_min = "700" }), "700",
  "a branch no release of the data has a driver of: the branch itself, not a guess")
t.is(T.compat_floor({ version = "99.0" }), nil, "no floor in the data: none")
-- driver_need_compat: own, then the floor where it is older
t.is(T.driver_need_compat(R("13.2")), "595.45.04, or 580.65.06 through minor-version compatibility", "13.2: own, then 580.65.06")
t.is(T.driver_need_compat(R("13.0")), "580.65.06", "13.0: its own is the floor, said once")
t.is(T.driver_need_compat(R("12.0")), "525.60.13", "12.0: likewise")
-- compat_driver / driver_least: raised to the driver of each GPU's first
-- CUDA; nil where only the release's own driver (or branch) runs it
local function gpus(...)
  local out = {}
  for _, cc in ipairs({ ... }) do out[#out + 1] = { compute_capability = cc } end
  return { gpus = out }
end
for _, c in ipairs({
  { "12.6", gpus("8.0"), "525.60.13" },           -- A100, first 11.0 [rn-t2]
  { "12.9", gpus("8.0", "12.0"), "570.26" },      -- RTX PRO 6000, first 12.8 [rn-t3]
  { "12.8", gpus("12.0"), nil },                  -- 12.8's own driver
  { "13.4", gpus("9.0"), "580.65.06" },
  { "13.4", gpus("10.7"), nil },                  -- Rubin: first 13.4, its own branch
  { "13.0", gpus("8.0"), nil },                   -- 13.0's own is the floor
  { "11.8", gpus("7.0"), "450.80.02" },
  { "11.8", gpus("8.0"), "450.80.02" },           -- 11.0's 450.51.05 is below the floor
}) do
  local ccs = {}
  for _, g in ipairs(c[2].gpus) do ccs[#ccs + 1] = g.compute_capability end
  t.is(T.compat_driver(c[2], R(c[1])), c[3], ("CUDA %s on GPUs %s: least driver %s"):format(
    c[1], table.concat(ccs, ","), tostring(c[3])))
end
t.is(T.driver_least(gpus("8.0"), R("12.8"), { "NVIDIA A100" }),
  "driver 570.26 or newer (driver 525.60.13 runs CUDA 12.8 through minor-version compatibility, but cannot JIT-compile its PTX, which the NVIDIA A100 runs)",
  "a GPU that runs PTX alone: the release's own driver, saying why [S_COMPAT]")
t.is(T.driver_least(gpus("8.0"), R("12.8"), {}),
  "driver 525.60.13 or newer, the least that runs CUDA 12.8 (through minor-version compatibility, without PTX JIT; driver 570.26 or newer runs it directly)",
  "no GPU on PTX alone: the least driver first")

-- asked_update: --cuda naming an update other than the one a plan
-- installs (each release's last, data/cuda.lua updates [tk-csv]) is
-- said, and an update no table names is called unknown: { asked, the
-- update planned, the text, or nil }
for _, c in ipairs({
  { "13.4.1", "13.4.2", "--cuda 13.4.1: a plan installs one update of each CUDA release, here 13.4.2, not 13.4.1" },
  { "12.8.1", "12.8.2", "--cuda 12.8.1: a plan installs one update of each CUDA release, here 12.8.2, not 12.8.1" },
  { "13.4.3", "13.4.2", "--cuda 13.4.3: ptbuild knows no CUDA 13.4.3; a plan installs one update of each CUDA release, here 13.4.2" },
  { "13.4.2", "13.4.2", nil }, { "13.4", "13.4.2", nil }, { "cu134", "13.4.2", nil }, { nil, "13.4.2", nil },
}) do
  t.is(T.asked_update(c[1], c[2]), c[3], ("--cuda %s, planned %s: %s"):format(tostring(c[1]), c[2], tostring(c[3])))
end

-- gpu_arch / builds_gpu: Thor is 10.1 before CUDA 13 and 11.0 after
local names = {
  { "10.7", "13.3", "10.7", false }, { "10.7", "13.4", "10.7", true },  -- Rubin [pt190654]
  { "10.7", "13.5", "10.7", true },
  { "11.0", "12.8", "10.1", true }, { "11.0", "13.0", "11.0", true },
  { "10.1", "13.0", "11.0", true }, { "10.1", "12.9", "10.1", true },
  { "6.1", "13.0", "6.1", false }, { "6.1", "12.9", "6.1", true },
  { "12.0", "12.6", "12.0", false }, { "12.0", "12.8", "12.0", true },
  { "9.0", "11.8", "9.0", true }, { "8.7", "13.0", "8.7", true },
}
for _, c in ipairs(names) do
  t.is(T.gpu_arch(c[1], R(c[2])), c[3], ("capability %s under CUDA %s is %s"):format(c[1], c[2], c[3]))
  t.is(T.builds_gpu(R(c[2]), c[1]), c[4], ("CUDA %s builds %s: %s"):format(c[2], c[1], tostring(c[4])))
end

-- platform: { host.arch, host.platform, gpu cc, jetson module, CUDA, platform, installer }
local plats = {
  { "x86_64", "x86_64", "9.0", nil, "12.8", "linux-x86_64", "redist" },
  { "aarch64", "sbsa", "9.0", nil, "12.8", "linux-sbsa", "redist" },
  { "aarch64", "sbsa", nil, nil, "13.0", "linux-sbsa", "redist" },
  { "aarch64", "jetson", "8.7", nil, "12.6", "linux-aarch64", "jetpack" },
  { "aarch64", "jetson", "8.7", nil, "13.2", "linux-sbsa", "redist" },
  { "aarch64", "jetson", "11.0", nil, "13.0", "linux-sbsa", "redist" },
  { "aarch64", "jetson", nil, "Jetson AGX Thor", "13.0", "linux-sbsa", "redist" },
  { "aarch64", "jetson", nil, "Jetson Orin Nano 8GB", "12.6", "linux-aarch64", "jetpack" },
  { "aarch64", "jetson", "7.2", nil, "11.8", "linux-aarch64", "jetpack" },
}
for _, c in ipairs(plats) do
  local f = { host = { arch = c[1], platform = c[2] }, gpus = {},
              jetson = c[4] and { module = c[4] } or nil }
  if c[3] then f.gpus[1] = { compute_capability = c[3] } end
  local p, i = T.platform(f, R(c[5]))
  t.is(p .. " " .. i, c[6] .. " " .. c[7], ("%s/%s cc %s CUDA %s -> %s"):format(c[1], c[2], c[3] or c[4], c[5], c[6]))
end
t.is(T.toolkit_platform({ target = "sbsa-linux" }), "linux-sbsa", "targets/sbsa-linux is SBSA")
t.is(T.toolkit_platform({ target = "aarch64-linux" }), "linux-aarch64", "targets/aarch64-linux is Jetson")
t.is(T.toolkit_platform({ platform = "linux-x86_64", target = "sbsa-linux" }), "linux-x86_64", "an explicit platform wins")
t.is(T.toolkit_platform({}), nil, "unknown platform")

-- choose: { description, facts, torch, want, expected CUDA, expected source ("tk" | "dl") }
local function x86(gpu, driver, cuda_max, toolkits)
  return { host = { arch = "x86_64", platform = "x86_64" },
           driver = driver and { version = driver, cuda_max = cuda_max } or nil,
           gpus = gpu and { { name = "G", compute_capability = gpu } } or {},
           toolkits = toolkits or {} }
end
local function tk(v, root) return { version = v, root = root or ("/usr/local/cuda-" .. v:match("^%d+%.%d+")), target = "x86_64-linux" } end
local choices = {
  { "installed toolkit that suits", x86("8.9", "570.124.06", "12.8", { tk("12.8.93") }), "2.11", nil, "12.8", "tk" },
  -- PyTorch 2.14 ships no 12.8 wheels, but its build accepts 12.8 (>= 12.6):
  -- the installed toolkit, not a download.
  { "installed toolkit the build accepts untested", x86("8.9", "570.124.06", "12.8", { tk("12.8.93") }), "2.14", nil, "12.8", "tk" },
  { "an installed wheel CUDA before an untested one", x86("8.9", "570.124.06", "12.8", { tk("12.8.93"), tk("12.6.85") }), "2.14", nil, "12.6", "tk" },
  { "installed toolkit older than the build accepts", x86("8.9", "570.124.06", "12.8", { tk("12.4.131") }), "2.14", nil, "12.6", "dl" },
  { "installed toolkit that cannot build the arch list", x86(nil, nil, nil, { tk("13.0.88") }), "2.14", nil, "12.6", "dl", "7.0;8.0" },
  { "installed toolkit that builds the arch list", x86(nil, nil, nil, { tk("13.0.88") }), "2.14", nil, "13.0", "tk", "8.0;9.0+PTX" },
  { "no wheel CUDA fits: the build's newest the driver runs", x86("12.0", "570.124.06", "12.8"), "2.14", nil, "12.8", "dl" },
  { "newest installed of two that suit", x86("8.9", "580.95.05", "13.0", { tk("12.6.85"), tk("13.0.88") }), "2.11", nil, "13.0", "tk" },
  { "newest the driver runs directly", x86("9.0", "580.95.05", "13.0"), "2.14", nil, "13.0", "dl" },
  { "compat only when nothing runs directly", x86("9.0", "550.54.15", "12.4"), "2.14", nil, "12.6", "dl" },
  { "CUDA 13 drops the GPU", x86("6.1", "580.95.05", "13.0", { tk("13.0.88") }), "2.14", nil, "12.6", "dl" },
  { "GPU too new for 12.6", x86("12.0", "570.124.06", "12.8"), "2.7", nil, "12.8", "dl" },
  { "no GPU, no driver", x86(nil, nil, nil), "2.9", nil, "13.0", "dl" },
  { "--cuda with that toolkit installed", x86("8.9", "580.95.05", "13.0", { tk("12.8.93") }), "2.9", "12.8", "12.8", "tk" },
  { "--cuda to download", x86("8.9", "580.95.05", "13.0"), "2.9", "12.6", "12.6", "dl" },
  { "nothing fits: the newest supported", x86("8.0", "470.256.02", "11.4"), "2.9", nil, "13.0", "dl" },
  -- Rubin (10.7) needs 13.4 or newer; 13.5's GPU list and limits are
  -- assumed from 13.4's, so 13.4, whose data is known, is planned
  { "Rubin, driver 580: 13.4's known data over 13.5's assumed", x86("10.7", "580.95.05", "13.0"), "2.14", nil, "13.4", "dl" },
  { "Rubin, a driver that runs 13.5: still 13.4", x86("10.7", "620.10.01", "13.5"), "2.14", nil, "13.4", "dl" },
  -- nothing the driver runs builds the GPU: the CUDA that does, so that
  -- the one problem left is the driver (was 13.2, which cannot build it)
  { "Rubin, driver 550: 13.4, not a CUDA that cannot build it", x86("10.7", "550.54.15", "12.4"), "2.14", nil, "13.4", "dl" },
  -- no CUDA builds a Kepler 3.0: the wheel CUDA the driver runs, so that
  -- the GPU is the one problem (not a driver no upgrade would help)
  { "Kepler only, driver 550: 12.6, which the driver runs", x86("3.0", "550.54.15", "12.4"), "2.14", nil, "12.6", "dl" },
}
for _, c in ipairs(choices) do
  local ch = T.choose(c[2], torch(c[3]), c[4] and R(c[4]) or nil, c[7] and (A.parse(c[7])) or nil)
  t.is(ch.release.version .. " " .. (ch.tk and "tk" or "dl"), c[5] .. " " .. c[6], "choose: " .. c[1])
end

-- An assumed release gives way to the newest of its major whose data is
-- known, and the driver rule still holds for that one: driver 560 runs
-- 12.6 directly and 12.8 and 12.9 only through minor-version
-- compatibility, so were 12.9's data assumed the plan would still take
-- 12.6, as it does when nothing is assumed -- not 12.8 through
-- compatibility.  The data is marked for this case alone.
do
  local h100 = x86("9.0", "560.35.05", "12.6")
  local plain = T.choose(h100, torch("2.8"))
  t.is(plain.release.version, "12.6", "choose: driver 560, PyTorch 2.8: 12.6 directly over 12.9 through compatibility")
  R("12.9").assumed = true
  local ch = T.choose(h100, torch("2.8"))
  R("12.9").assumed = nil
  t.is(ch.release.version, "12.6", "choose: 12.9's data assumed: still 12.6 directly, not 12.8 through compatibility")
  t.ok(ch.why:find("directly (CUDA 12.8 would need minor-version compatibility) (CUDA 12.9, newer, would be planned on data ptbuild assumes from 12.8)", 1, true) ~= nil,
    "choose: ... and the reason says both: " .. ch.why)
end

-- torch_builds: what PyTorch's build accepts, not what it ships wheels for
local builds = { { "2.14", "13.0", "wheels" }, { "2.14", "12.8", "untested" }, { "2.14", "13.3", "untested" },
                 { "2.14", "12.4", "nil" }, { "2.4", "13.0", "nil" }, { "2.9", "13.1", "untested" },
                 -- cu129 wheels of 2.9.1, 2.10.0 and 2.11.0 [pt-matrix] [pt-cu129]
                 { "2.9", "12.9", "wheels" }, { "2.10", "12.9", "wheels" }, { "2.11", "12.9", "wheels" },
                 -- 2.12-2.14 wheel CUDAs [release] [pt-matrix]: 12.6, 13.0, 13.2; cu128 gone from 2.12
                 { "2.12", "13.2", "wheels" }, { "2.12", "12.8", "untested" }, { "2.13", "12.6", "wheels" },
                 { "2.13", "13.2", "wheels" }, { "2.14", "13.2", "wheels" }, { "2.14", "12.6", "wheels" },
                 -- below the oldest wheel CUDA: refused only under the
                 -- minimum a source shows [pt-cudamin] -- 2.6's CMake takes
                 -- 11.0, 2.13's 12.1, 2.14's 12.6 -- else untested (2.12's
                 -- minimum was not read: it is at most 2.13's 12.1)
                 { "2.6", "11.0", "untested" }, { "2.6", "11.4", "untested" },
                 { "2.13", "12.1", "untested" }, { "2.13", "12.0", "nil" },
                 { "2.14", "12.5", "nil" }, { "2.12", "12.4", "nil" }, { "2.4", "11.7", "nil" } }
for _, c in ipairs(builds) do
  t.is(tostring(T.torch_builds(torch(c[1]), R(c[2]))), c[3], ("PyTorch %s with CUDA %s: %s"):format(c[1], c[2], c[3]))
end
-- a refusal says whether a source shows it: 2.12's and 2.4's minimum was
-- not read, so CUDA below their wheels' is not chosen but not called refused
for _, c in ipairs({ { "2.14", "12.5", "known" }, { "2.13", "12.0", "known" }, { "2.4", "13.0", "known" },
                     { "2.12", "12.4", "unknown" }, { "2.4", "11.7", "unknown" } }) do
  local _, _, how = T.torch_builds(torch(c[1]), R(c[2]))
  t.is(how, c[3], ("PyTorch %s with CUDA %s: the refusal is %s"):format(c[1], c[2], c[3]))
end
-- suggest: a wheel CUDA this machine runs, never one its driver cannot
local s1 = T.suggest(x86("8.9", "570.124.06", "12.8"), torch("2.14"), R("12.8"))
t.is(s1 and s1.version, "12.6", "suggest: driver 570 gets 12.6, not 13.2")
t.is(T.suggest(x86("12.0", "570.124.06", "12.8"), torch("2.14"), R("12.8")), nil,
  "suggest: nothing when no wheel CUDA both builds sm_120 and runs on driver 570")
t.is(T.suggest(x86("9.0", "580.95.05", "13.0"), torch("2.14"), R("13.0")), nil, "suggest: nothing instead of the CUDA itself")
-- suggest: the wheel CUDA closest to the request -- the newest not newer
-- than it, else the oldest newer one -- of those that fit: a driver that
-- runs CUDA 13.4 runs every 2.14 wheel CUDA (12.6, 13.0, 13.2) directly
for _, c in ipairs({ { "12.8", "12.6" }, { "12.9", "12.6" }, { "13.1", "13.0" }, { "13.3", "13.2" },
                     { "13.5", "13.2" }, { "11.8", "12.6" }, { "12.4", "12.6" } }) do
  local s = T.suggest(x86("9.0", "615.71.09", "13.4"), torch("2.14"), R(c[1]))
  t.is(s and s.version, c[2], ("suggest: --cuda %s with PyTorch 2.14 on driver 615 proposes %s"):format(c[1], c[2]))
end
-- within the request's major first: PyTorch 2.7 ships 11.8, 12.6 and 12.8,
-- so --cuda 12.2 is told 12.6 (a cuda12 cuDNN and library set), not 11.8
for _, c in ipairs({ { "12.2", "12.6" }, { "12.5", "12.6" }, { "12.9", "12.8" }, { "11.4", "11.8" }, { "13.0", "12.8" } }) do
  local s = T.suggest(x86("9.0", "615.71.09", "13.4"), torch("2.7"), R(c[1]))
  t.is(s and s.version, c[2], ("suggest: --cuda %s with PyTorch 2.7 proposes %s"):format(c[1], c[2]))
end

-- fits reasons
local ok, why = T.fits(x86("9.0", "550.54.15", "12.4"), torch("2.14"), R("13.0"))
t.is(ok, false, "fits: driver 550 cannot run 13.0")
t.like(why, "driver 550.54.15 cannot run CUDA 13.0", "fits names the driver")
local orin = { host = { arch = "aarch64", platform = "jetson" }, gpus = { { compute_capability = "8.7" } },
               jetson = { l4t = "36.4.3" }, toolkits = {} }
ok, why = T.fits(orin, torch("2.14"), R("13.2"))
t.is(ok, false, "fits: Orin on L4T 36 cannot take CUDA 13.2 (SBSA)")
t.like(why, "JetPack 7.2", "fits names JetPack 7.2")
orin.jetson.l4t = "39.1.0"
t.is((T.fits(orin, torch("2.14"), R("13.2"))), true, "fits: Orin on L4T 39 takes CUDA 13.2")

-- The CUDA Compatibility Package (Orin) from 13.4 [rn134] [rn1342] [rn135]:
-- { GPU cc, host platform, CUDA, toolkit platform, package version or nil }
for _, c in ipairs({
  { "8.7", "jetson", "13.4", "linux-sbsa", "13.4.47145772" },  -- [rn1342]: 13.4.2 installed
  { "8.7", "jetson", "13.5", "linux-sbsa", "13.5.47659993" },  -- [rn135]
  { "8.7", "jetson", "13.2", "linux-sbsa", nil },              -- none before 13.4
  { "11.0", "jetson", "13.4", "linux-sbsa", nil },             -- Thor needs none
  { "8.7", "jetson", "12.6", "linux-aarch64", nil },           -- JetPack's own CUDA
  { "9.0", "sbsa", "13.4", "linux-sbsa", nil },                -- a Grace server
}) do
  local f = { host = { arch = "aarch64", platform = c[2] }, gpus = { { compute_capability = c[1] } },
              jetson = c[2] == "jetson" and { l4t = "39.2.0" } or nil, toolkits = {} }
  local got = T.installer(R(c[3]), c[4], "redist", f).orin_compat
  t.is(got and got.version, c[5], ("Orin compat: cc %s on %s, CUDA %s (%s): %s"):format(c[1], c[2], c[3], c[4], tostring(c[5])))
end

-- glibc_ok: { glibc, CUDA, ok }.  glibc 2.42 declares C23 rsqrt/rsqrtf
-- noexcept; CUDA 13.0's and 13.1's crt/math_functions.h do not: nvcc
-- 13.1 (V13.1.115) fails on glibc 2.42 (Tumbleweed, Fedora 43, Devuan)
-- and 2.43 (Ubuntu 26.04), 13.2 and 13.3 build there [glibc-rsqrt];
-- spack dates the fix 13.1 [spack], the reports 13.2: the later holds.
local glibcs = { { "2.26", "12.6", true }, { "2.26", "12.8", false }, { "2.27", "12.8", true },
                 { "2.42", "13.0", false }, { "2.41", "13.0", true }, { nil, "12.8", true },
                 { "2.42", "13.1", false }, { "2.43", "13.1", false }, { "2.41", "13.1", true },
                 { "2.42", "13.2", true }, { "2.43", "13.3", true } }
for _, c in ipairs(glibcs) do
  t.is((T.glibc_ok({ host = { glibc = c[1] } }, R(c[2]))), c[3], ("glibc %s with CUDA %s: %s"):format(c[1], c[2], tostring(c[3])))
end
local _, why = T.glibc_ok({ host = { glibc = "2.43" } }, R("13.1"))
t.like(why or "", "fixed in CUDA 13%.2", "glibc 2.43 with CUDA 13.1: the reason names 13.2, the first release without the clash")
local fed = x86("8.9", "580.95.05", "13.0")
fed.host.glibc = "2.42"
t.is(T.choose(fed, torch("2.14")).release.version, "13.2", "glibc 2.42: CUDA 13.0 passed over for 13.2")

-- installer: downloads with sha256 where ptbuild holds the manifest
local inst = T.installer(R("12.8"), "linux-x86_64", "redist")
t.is(inst.full_version, "12.8.2", "12.8 installs 12.8.2, its last update [ctk-catalog]")
t.ok(#inst.downloads >= 10, "12.8.2 x86_64: downloads listed")
local nvcc
for _, d in ipairs(inst.downloads) do if d.name == "cuda_nvcc" then nvcc = d end end
t.is(nvcc and nvcc.url, "https://developer.download.nvidia.com/compute/cuda/redist/cuda_nvcc/linux-x86_64/cuda_nvcc-linux-x86_64-12.8.93-archive.tar.xz", "nvcc URL")
t.like(nvcc and nvcc.sha256 or "", "^%x+$", "nvcc sha256 is hex")
t.is(#(nvcc and nvcc.sha256 or ""), 64, "nvcc sha256 has 64 digits")
t.is(inst.runfile.name, "cuda_12.8.2_570.211.01_linux.run", "12.8.2 runfile name")
inst = T.installer(R("12.8"), "linux-sbsa", "redist")
t.is(inst.runfile.name, "cuda_12.8.2_570.211.01_linux_sbsa.run", "12.8.2 SBSA runfile name")
for _, d in ipairs(inst.downloads) do t.like(d.url, "linux%-sbsa", "SBSA download " .. d.name) end
inst = T.installer(R("13.2"), "linux-sbsa", "redist")
t.is(inst.full_version, "13.2.2", "13.2 installs 13.2.2")
t.ok(#inst.downloads >= 10, "13.2.2 SBSA: its manifest is carried, downloads listed")
for _, d in ipairs(inst.downloads) do t.is(#d.sha256, 64, "13.2.2 SBSA " .. d.name .. " pinned") end
t.is(inst.manifest, "https://developer.download.nvidia.com/compute/cuda/redist/redistrib_13.2.2.json", "13.2.2 manifest URL")
t.ok(#inst.components > 0, "13.2.2: components to resolve from the manifest")
t.is(inst.runfile.name, "cuda_13.2.2_595.71.05_linux_sbsa.run", "13.2.2: its runfile [ctk-catalog]")
t.is(inst.runfile.sha256, nil, "13.2.2: no sha256 published for it")
t.is(inst.runfile.md5 .. " " .. inst.runfile.size, "de619f6c9c419863383a2065cc93fbd5 4229968117", "13.2.2: NVIDIA's md5 and size")
-- Jetson local repos by the host's Ubuntu release [jc]: the 12.2 deb on
-- NVIDIA's server is the Ubuntu 20.04 (JetPack 5) one
local function jf(id, ver) return { host = { os = { id = id, version_id = ver } } } end
for _, c in ipairs({
  { "12.6", "22.04", "cuda-tegra-repo-ubuntu2204-12-6-local_12.6.3-1_arm64.deb" },
  { "12.2", "20.04", "cuda-tegra-repo-ubuntu2004-12-2-local_12.2.2-1_arm64.deb" },
  { "12.2", "22.04", ptb.null },   -- JetPack 6: not the 20.04 deb
  { "11.8", "20.04", "cuda-tegra-repo-ubuntu2004-11-8-local_11.8.0-1_arm64.deb" },
  { "11.8", "22.04", ptb.null },
  { "12.8", "20.04", ptb.null },   -- only a 22.04 deb is named
}) do
  inst = T.installer(R(c[1]), "linux-aarch64", "jetpack", jf("ubuntu", c[2]))
  t.is(inst.jetpack_deb, c[3], ("Jetson CUDA %s on Ubuntu %s: %s"):format(c[1], c[2], c[3] == ptb.null and "none" or c[3]))
end
t.is(T.installer(R("12.6"), "linux-aarch64", "jetpack").jetpack_deb, ptb.null, "no os-release: no local repo guessed")
-- the Jetson repo of 12.8 and 12.9 is an earlier update than the SBSA and
-- x86_64 label (12.8.2, 12.9.2): the plan names the update it installs
for _, c in ipairs({ { "12.8", "12.8.1" }, { "12.9", "12.9.1" }, { "12.6", "12.6.3" } }) do
  inst = T.installer(R(c[1]), "linux-aarch64", "jetpack", jf("ubuntu", "22.04"))
  t.is(inst.full_version, c[2], ("Jetson CUDA %s installs %s from its local repo"):format(c[1], c[2]))
end
-- 13.4 installs 13.4.2 from the manifest ptbuild carries; CCCL, renamed
-- cccl in 13.4 [redistrib_13.4.2.json], is among the downloads; the
-- runfiles have names but no sha256 anywhere ptbuild could read one
for _, plat in ipairs({ "linux-x86_64", "linux-sbsa" }) do
  inst = T.installer(R("13.4"), plat, "redist")
  t.is(inst.full_version, "13.4.2", "13.4 installs 13.4.2 (" .. plat .. ")")
  local seen = {}
  for _, d in ipairs(inst.downloads) do seen[d.name] = d end
  t.ok(seen.cccl ~= nil, "13.4.2 " .. plat .. ": CCCL (cccl) is downloaded")
  t.ok(seen.cuda_nvcc ~= nil and #seen.cuda_nvcc.sha256 == 64, "13.4.2 " .. plat .. ": nvcc pinned")
  t.is(inst.runfile.sha256, nil, "13.4.2 " .. plat .. ": runfile unpinned")
end
t.is(T.installer(R("13.4"), "linux-x86_64", "redist").runfile.name, "cuda_13.4.2_linux.run", "13.4.2 runfile name")
inst = T.installer(R("13.5"), "linux-x86_64", "redist")
t.is(#inst.downloads, 0, "13.5: no manifest held, no downloads invented")
-- every manifest in data/redist.lua is the label of a release (none
-- orphaned): the update a plan installs or an earlier one of its minor
local redist = ptb.include("data/redist")
for label in pairs(redist.labels) do
  local used = false
  for _, up in pairs(cuda.updates) do
    if up.label == label or (label:match("^%d+%.%d+") == up.label:match("^%d+%.%d+")
        and A.vcmp(label, up.label) < 0) then used = true end
  end
  t.ok(used, "manifest " .. label .. " is the label of a CUDA release")
end
-- every release from 11.8 has an update label
for _, r in ipairs(cuda.releases) do
  if A.vcmp(r.version, "11.8") >= 0 then
    t.ok(cuda.updates[r.version] ~= nil, r.version .. ": update label known")
  end
end

-- An installed toolkit judged by its own nvcc's list (A.judged_release)
-- that leaves out a GPU earlier releases build: the GPU is dropped by
-- it, with the last release before it that builds it -- not "newer than
-- the toolkit" with a first CUDA older than the toolkit itself.
do
  local C = ptb.include("lib/checks")
  local nv = { from = "nvcc", nvcc = "/usr/local/cuda-13.5/bin/nvcc",
               arch = { "compute_80", "compute_90", "compute_100", "compute_120" },
               code = { "sm_80", "sm_90", "sm_100", "sm_120" } }
  local r = A.judged_release(R("13.5"), { gpu_list = nv })
  local code, edge = C.gpu_build(r, "8.9")
  t.is(code, "toolkit-drops-gpu", "nvcc 13.5 lists no sm_89: toolkit-drops-gpu")
  t.is(edge, "13.4", "... the last release before it that builds sm_89, 13.4")
  t.is(C.gpu_build(r, "9.0"), nil, "... sm_90, which it lists, is built")
  code, edge = C.gpu_build(R("12.6"), "12.0")
  t.is(code .. " " .. edge, "gpu-newer-than-toolkit 12.8", "ptbuild's 12.6 and a Blackwell 12.0: newer, first built by 12.8")
  code, edge = C.gpu_build(R("13.0"), "7.0")
  t.is(code .. " " .. edge, "toolkit-drops-gpu 12.9", "ptbuild's 13.0 and a Volta 7.0: dropped, last built by 12.9")
end

t.done()
