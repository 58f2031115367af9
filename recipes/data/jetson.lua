-- Jetson: the GPU of each module and which CUDA toolkit serves it.
--
-- Sources:
--   [jc-l4t]  dusty-nv/jetson-containers@dd206bf jetson_containers/l4t_version.py
--             (L4T -> JetPack table; per-L4T default CUDA; r39 = "JetPack 7.2
--             GA, Orin SBSA", CUDA 13.2)
--   [jp]      NVIDIA JetPack release pages (JetPack 5.1.x = CUDA 11.4,
--             6.0 = 12.2, 6.1/6.2 = 12.6, 7.0 = 13.0 for Thor)
--   [thor]    NVIDIA blog "What's New in CUDA Toolkit 13.0 for Jetson Thor":
--             Thor uses the SBSA toolkit; Orin stays on JetPack (L4T) CUDA
--   [jp72]    NVIDIA's JetPack 7.2 page: L4T 39.2, CUDA 13.2.1, Orin added
--   [nix]     NixOS/nixpkgs cuda-modules _cuda/lib/redist.nix getRedistSystem:
--             SBSA unless capability < 10.1 (CUDA < 13) or < 8.7 (CUDA >= 13)
-- The L4T -> JetPack -> CUDA table is data/l4t.lua (the one detect reads);
-- this file keeps the planning view: module -> GPU, and which toolkit
-- serves it.

-- module keyword (in facts jetson.module) -> GPU compute capability, and
-- l4t: the L4T majors, of those data/l4t.lua names a JetPack for (32,
-- 35, 36, 38, 39), that have a release for the module [jetson-lineup]:
-- Thor from L4T 38 (JetPack 7) [thor-cuda13], 39 too [jp72]; Orin on L4T
-- 35 (JetPack 5), 36 (JetPack 6) and 39 (JetPack 7.2) but not 38, whose
-- Jetson Linux "does not support the Jetson Orin product family"; Xavier
-- up to JetPack 5 (L4T 35) [jp517]; TX2, Nano and TX1 on JetPack 4 (L4T
-- 32) alone.  A Jetson whose L4T names a JetPack its module has none of
-- carries facts that cannot both be true (lib/toolkit jetson_mismatch).
local modules = {
  { match = "thor", cc = "11.0", cc_cuda12 = "10.1", name = "Jetson Thor",   -- [thor] (sm_101 before CUDA 13)
    cuda_min = "13.0", l4t = { "38", "39" } },                               -- [thor-cuda13]
  { match = "orin", cc = "8.7", name = "Jetson Orin",                         -- archs.lua GA10B
    l4t = { "35", "36", "39" } },
  { match = "xavier", cc = "7.2", name = "Jetson Xavier", l4t = { "32", "35" } },
  { match = "tx2", cc = "6.2", name = "Jetson TX2", l4t = { "32" } },
  { match = "nano", cc = "5.3", name = "Jetson Nano", l4t = { "32" } },
  -- Tegra X1 like the Nano (data/gpus.lua tegra210): Linux's
  -- tegra210-p2371-2180.dts, model "NVIDIA Jetson TX1 Developer Kit"
  -- [S_LINUX_DTS]; module P2180 "NVIDIA Jetson TX1" [S_JTOP]; JetPack 4 only
  { match = "tx1", cc = "5.3", name = "Jetson TX1", l4t = { "32" } },
}

-- cuda_min: the first CUDA that builds for the module on any JetPack it
-- runs [thor-cuda13].  Every JetPack for Thor is JetPack 7 or later (L4T
-- 38 on), with CUDA 13.0 as its own CUDA and the driver of CUDA 13, which
-- names Thor's GPU compute capability 11.0 [jc-l4t] [tegra-upgrade];
-- CUDA 13.0 is the first toolkit for Jetson Thor, the one Arm toolkit for
-- servers and Thor [thor], and it renamed Thor from sm_101 to sm_110:
-- CUDA 12.8 and 12.9 know it only as sm_101 [nvcompdx-rn].  NVIDIA's
-- table of the CUDAs JetPack 7.0 runs lists 13.0 alone, no CUDA 12
-- [tegra-upgrade], and no NVIDIA source names a CUDA 12 toolkit, library
-- or PyTorch wheel for Jetson Thor: code built with CUDA 12.8 or 12.9 for
-- sm_101, and their libraries, do not target the device JetPack 7 runs.

-- The lowest GPU capability served by the SBSA toolkit [nix]; Orin (8.7)
-- joins it with CUDA 13.2, JetPack 7.2 being L4T 39.2 with CUDA 13.2.1
-- and the release that adds the Orin family to JetPack 7 [jp72].
local sbsa_min_cc = { before13 = "10.1", from13 = "8.7", from13_minor = "13.2" }

-- NVIDIA's CUDA upgrade package for Jetson [tegra-upgrade]: a JetPack
-- runs a CUDA newer than its own only with "cuda-compat-X-Y", which the
-- CUDA X.Y local repo and NVIDIA's network repository hold (installing
-- the toolkit "cuda-X-Y" pulls it in; "cuda-toolkit-X-Y" does not).  It
-- puts the CUDA X.Y driver (libcuda.so.1, the PTX JIT, nvvm) in
-- /usr/local/cuda-X.Y/compat and "only provides the files, and does not
-- configure the system": LD_LIBRARY_PATH must name that directory.  It is
-- "named after the highest toolkit that it can support": a CUDA at most
-- the JetPack's own needs none.  NVIDIA's table of the CUDAs it serves:
-- JetPack 5.x (11.4 its own): 11.8, 12.0, 12.1, 12.2; JetPack 6.x (12.2
-- its own; 6.1/6.2 ship 12.6): 12.4, 12.5, 12.6, 12.8, 12.9, never 12.3
-- or 13.0 and on.  ONNX Runtime's Jetson build guide [ort-jetson] and
-- jetson-containers' CUDA image [jc-compat] do the same for 12.2 on
-- JetPack 5.1.2 and for every Jetson local repo.
local upgrade = {
  package = "cuda-compat-%d-%d",      -- major, minor
  dir = "compat",                     -- under the toolkit's root
  lib = "libcuda.so.1",               -- what the package puts there
  -- JetPack major -> the CUDAs other than its own the package serves on
  -- the linux-aarch64 toolkit [tegra-upgrade]; none before JetPack 5
  serves = {
    ["5"] = { "11.8", "12.0", "12.1", "12.2" },
    ["6"] = { "12.4", "12.5", "12.6", "12.8", "12.9" },
  },
  -- The SBSA toolkit on JetPack 7: 7.0 takes no CUDA but its own 13.0,
  -- 7.2 (13.2 its own) takes 13.3 and 13.4 [tegra-upgrade].  For 13.4 the
  -- note names Thor's package (cuda-compat-13-4, into compat/) and Orin's
  -- (cuda-compat-orin-13-4, into compat_orin/); no source read names
  -- 13.3's, so it has no row, and every list of 7.2's CUDAs says 13.3
  -- runs only through a package ptbuild cannot name (lib/checks
  -- cudas_words).  CUDA -> { jetpack, thor, orin }.
  sbsa = {
    ["13.4"] = { jetpack = "7.2", thor = { package = "cuda-compat-13-4", dir = "compat" },
                 orin = { package = "cuda-compat-orin-13-4", dir = "compat_orin" } },
  },
  -- JetPack 7 (major.minor) -> the SBSA CUDAs newer than its own that it
  -- runs, all through the package [tegra-upgrade]: NVIDIA's table ("the
  -- JetPack SDK versions that are supported by each CUDA release") marks
  -- JetPack 7.0 "Default" for 13.0 and "X" (not compatible) for "13.1
  -- onwards", and 7.2 "Default" for 13.2, "C" for 13.3 and 13.4.  JetPack
  -- 7.1 (L4T 38.4, CUDA 13.0 and its driver like 7.0) has no row: no CUDA
  -- release supports it, so it runs its own 13.0 alone.  `upto`: the
  -- newest CUDA the row judges; past it (13.5 on 7.2, after the 13.4
  -- edition of the note) nothing is known, and nothing is refused.
  -- Minor-version compatibility is no way round it: the 6.x row marks
  -- 12.3 "X" although the 12.2 driver is of the same major.
  sbsa_serves = {
    ["7.0"] = { serves = {}, upto = nil },       -- "13.1 onwards": X
    ["7.1"] = { serves = {}, upto = nil },       -- no row: no CUDA release
    ["7.2"] = { serves = { "13.3", "13.4" }, upto = "13.4" },
  },
}

-- Does NVIDIA's upgrade package serve CUDA v (X.Y) on JetPack jp?
local function upgrade_serves(jp, v)
  for _, x in ipairs(upgrade.serves[tostring(jp):match("^(%d+)") or ""] or {}) do
    if x == v then return true end
  end
  return false
end

return { modules = modules, sbsa_min_cc = sbsa_min_cc, upgrade = upgrade, upgrade_serves = upgrade_serves }
