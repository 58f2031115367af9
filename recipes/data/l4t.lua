-- L4T (what detect reads on a Jetson): L4T release -> JetPack, module part
-- numbers -> names, JetPack -> CUDA.  (data/jetson.lua holds the planning
-- view: L4T -> CUDA, module -> GPU, which toolkit serves it.)
--
-- Sources (ids resolve in recipes/data/sources.lua):
--   [S_JTOP]  rbonghi/jetson_stats jtop/core/jetson_variables.py
--             (NVIDIA_JETPACK, module table) and issue #864 (R39.2 on Orin)
--   [S_LINUX_DTS] linux arch/arm64/boot/dts/nvidia (compatible strings)
--   [S_JETPACK51] [S_JETPACK61] JetPack release notes; [S_NV_BLOG_THOR]
--   CUDA of JetPack 4.4.1-4.6.x: gist Tiryoh/2b5dc1f86ab6bc3e6922e97a4c1ac2f2
--   [jp514] [jp515] NVIDIA's JetPack 5.1.4 and 5.1.5 pages; [jp72] NVIDIA's
--   JetPack 7.2 page; [jp721] NVIDIA's Jetson apt repository for r39.2;
--   [jp516] JetPack 5.1.6 = L4T 35.6.4; [jp71] NVIDIA's JetPack 7.1 page
--   [jp622] JetPack 6.2.2 = L4T 36.5 ([S_JTOP] agrees; [jc-l4t]'s
--   "36.5.0": "6.2.1" is the one table that differs)
--   [jp517] JetPack 5.1.7 = L4T 35.6.5, the JetPack 5 compute stack
--   (CUDA 11.4), the last JetPack for Xavier; [jp623] JetPack 6.2.3 =
--   L4T 36.5.2, CUDA 12.6 (both 2026, after [S_JTOP]'s and [jc-l4t]'s
--   copies: device notes and a JetPack version matrix name them)
--   [l4t-3563] L4T 35.6.3: [S_JTOP] "5.1.5" and a device's notes
--   "R35.6.3, JetPack 5.15"; one other device's notes say "JetPack 5.1.4"
--   (NVIDIA's 5.1.5 page names 35.6.1 and 35.6.2, its 5.1.6 one 35.6.4;
--   no NVIDIA page names 35.6.3).  Both readings are JetPack 5.1 with
--   CUDA 11.4 and the same wheels; 5.1.5 is taken, the reading of the
--   table the rest of this one comes from, between 35.6.2 (5.1.5) and
--   35.6.4 (5.1.6).
--   [l4t-3642] L4T 36.4.2: [S_JTOP] "6.1 (rev1)", [jc-l4t] "6.1.1", two
--   devices' notes and drivers built for it call it JetPack 6.1 (the last
--   session also saw a table saying "6.2"; NVIDIA's Jetson Linux archive
--   lists 36.4 and 36.4.3, no 36.4.2).  The value taken is "6.1", what
--   all but that one agree on and no more; 6.1 and 6.2 both ship CUDA
--   12.6 and take the same wheels, so the choice changes no plan.
--   [l4t-3620] L4T 36.2: JetPack 6.0 DP, the developer preview of 6.0
--   ([jc-l4t] "6.0 DP", CUDA 12.2 there); NVIDIA's v60 wheels serve L4T
--   36.2 and 36.3 alike [nv-redist-jp6], and 6.0's CUDA is 12.2
--   [tegra-upgrade], so it reads as 6.0.
-- Not here because no source read says which JetPack they belong to:
-- 39.0.0 and
-- 39.1.0: both are JetPack 7.2 pre-releases ("7.2 EA" in [S_JTOP] and
-- [jc-l4t]; [jc-l4t] calls 39.1.0 "7.2 GA"), while NVIDIA's 7.2 page
-- names 39.2 [jp72].

local M = {}

-- L4T "major.minor.patch" -> JetPack [S_JTOP]
M.jetpack = {
  ["32.6.1"] = "4.6",                                   -- [S_JTOP] [jc-l4t]
  ["32.7.1"] = "4.6.1", ["32.7.2"] = "4.6.2", ["32.7.3"] = "4.6.3",
  ["32.7.4"] = "4.6.4", ["32.7.5"] = "4.6.5", ["32.7.6"] = "4.6.6",
  ["35.1.0"] = "5.0.2", ["35.2.1"] = "5.1", ["35.3.1"] = "5.1.1",
  ["35.4.1"] = "5.1.2", ["35.5.0"] = "5.1.3",
  ["35.6.0"] = "5.1.4",                                 -- [jp514]
  ["35.6.1"] = "5.1.5", ["35.6.2"] = "5.1.5",           -- [jp515]
  ["35.6.3"] = "5.1.5",                                 -- [l4t-3563] (sources disagree)
  ["35.6.4"] = "5.1.6",                                 -- [jp516]
  ["35.6.5"] = "5.1.7",                                 -- [jp517]
  ["36.2.0"] = "6.0",                                   -- [l4t-3620]
  ["36.3.0"] = "6.0", ["36.4.0"] = "6.1", ["36.4.3"] = "6.2",
  ["36.4.2"] = "6.1",                                   -- [l4t-3642]
  ["36.4.4"] = "6.2.1", ["36.4.7"] = "6.2.1",
  ["36.5.0"] = "6.2.2",                                 -- [jp622]
  ["36.5.2"] = "6.2.3",                                 -- [jp623]
  ["38.2.0"] = "7.0", ["38.2.1"] = "7.0", ["38.2.2"] = "7.0",  -- "38.2.x -> 7.0"
  ["38.4.0"] = "7.1",
  ["39.2.0"] = "7.2",                                   -- [jp72]
  ["39.2.1"] = "7.2.1",                                 -- [jp721]
}

-- JetPack major.minor -> CUDA it ships
M.cuda = {
  ["4.6"] = "10.2",                                     -- gist Tiryoh
  ["5.0"] = "11.4", ["5.1"] = "11.4",                   -- [S_JETPACK51]
  ["6.0"] = "12.2", ["6.1"] = "12.6", ["6.2"] = "12.6", -- [S_JETPACK61]; 6.0 from version.json 12.2.140 (research note 3.1)
  ["7.0"] = "13.0", ["7.1"] = "13.0",                   -- [S_NV_BLOG_THOR]; 7.1 [jp71]
  ["7.2"] = "13.2",                                     -- [jp72] 13.2.1; 7.2.1 ships 13.2.2 [jp721]
}

-- L4T major -> the Ubuntu release its root file system is [jc-arch]
-- (what a Jetson runs when no os-release was read)
M.ubuntu = { ["32"] = "18.04", ["34"] = "20.04", ["35"] = "20.04", ["36"] = "22.04",
             ["38"] = "24.04", ["39"] = "24.04" }

-- Module part numbers from the device-tree compatible [S_JTOP] [S_LINUX_DTS]
M.modules = {
  { match = "p3701%-0000", name = "Jetson AGX Orin (32GB)" },
  { match = "p3701%-0004", name = "Jetson AGX Orin (32GB)" },
  { match = "p3701%-0005", name = "Jetson AGX Orin (64GB)" },
  { match = "p3767%-000[01]", name = "Jetson Orin NX" },
  { match = "p3767%-000[345]", name = "Jetson Orin Nano" },
  { match = "p3834%-0008", name = "Jetson AGX Thor Developer Kit" },
  { match = "p3668", name = "Jetson Xavier NX" },
  { match = "p2888", name = "Jetson AGX Xavier" },
  { match = "p2972", name = "Jetson AGX Xavier" },
  { match = "p3448", name = "Jetson Nano" },
  { match = "p3450", name = "Jetson Nano" },
  { match = "p3541", name = "Jetson Nano 2GB" },
  { match = "p3310", name = "Jetson TX2" },
  { match = "p2180", name = "Jetson TX1" },              -- module p2180-1000 [S_JTOP]
  { match = "p2371%-2180", name = "Jetson TX1" },        -- its developer kit [S_LINUX_DTS]
}

return M
