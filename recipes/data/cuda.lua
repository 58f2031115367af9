-- CUDA toolkit releases: the GPU code nvcc builds, the drivers they need,
-- the host compilers nvcc accepts, and the platforms NVIDIA publishes.
--
-- Sources (ids resolve in recipes/data/sources.lua):
--   [rn-t3]  CUDA Toolkit release notes, Table 3 "CUDA Toolkit and
--            Corresponding Driver Versions" (GA and last-update Linux minimums)
--            https://docs.nvidia.com/cuda/cuda-toolkit-release-notes/index.html
--   [rn-t2]  same page, Table 2 "Minimum Required Driver Version for CUDA
--            Minor Version Compatibility" (13.x >= 580; 12.x >= 525.60.13;
--            11.x >= 450.80.02) and https://docs.nvidia.com/deploy/cuda-compatibility/
--   [cmake]  Kitware/CMake Modules/Internal/CMakeCUDAArchitecturesAll.cmake
--            (the real architectures of nvcc's "all" per toolkit version)
--   [clang]  llvm/llvm-project clang/lib/Basic/Cuda.cpp
--   [nvcc13] nvcc 13.0.88 on the ptbuild dev machine: --list-gpu-code,
--            --help (allowed --gpu-architecture values, with the a/f forms),
--            include/crt/host_config.h (__GNUC__ > 15 and clang >= 21 refused)
--   [nix]    NixOS/nixpkgs cuda-modules nvcc compatibilities (max gcc/clang
--            per CUDA minor, taken from NVIDIA's host compiler support pages)
--   [rn-comp] the per-release "CUDA Toolkit Component Versions"/platform
--            tables in the release notes (x86_64, arm64-sbsa, aarch64-jetson)
--   [thor]   NVIDIA blog "What's new in CUDA Toolkit 13.0 for Jetson Thor":
--            one Arm toolkit for SBSA servers and Thor; Orin stays on JetPack
--   [quansight69] nvcc 12.8.93 warns that sm_50..sm_72 are deprecated
--
-- sm:   real architectures nvcc builds SASS for (also valid compute_X)
-- sm_a: arch-specific variants (sm_90a...), sm_f: family variants (sm_100f...)
-- Entries marked `assumed = true` copy the previous release's lists because
-- no source lists them separately yet; ptbuild says so when it uses them.

local legacy11 = { "3.5", "3.7", "5.0", "5.2", "5.3", "6.0", "6.1", "6.2", "7.0", "7.2", "7.5" }

local function plus(list, ...)
  local out = {}
  for _, v in ipairs(list) do out[#out + 1] = v end
  for _, v in ipairs({ ... }) do out[#out + 1] = v end
  return out
end

local sm110 = plus(legacy11, "8.0")                      -- [cmake] [clang]: 11.0 adds 8.0
local sm111 = plus(sm110, "8.6")                         -- [cmake] [clang]: 11.1 adds 8.6
local sm114 = plus(sm111, "8.7")                         -- [cmake] [clang]: 11.4 adds 8.7
local sm118 = plus(sm114, "8.9", "9.0")                  -- [cmake] [clang]: 11.8 adds 8.9, 9.0
-- [cmake] [clang]: 12.0 removes 3.5 and 3.7
local sm120 = { "5.0", "5.2", "5.3", "6.0", "6.1", "6.2", "7.0", "7.2", "7.5",
                "8.0", "8.6", "8.7", "8.9", "9.0" }
local sm128 = plus(sm120, "10.0", "10.1", "12.0")        -- [cmake]: 12.8 adds 10.0, 10.1, 12.0
local sm129 = plus(sm128, "10.3", "12.1")                -- [cmake] [meson]: 12.9 adds 10.3, 12.1
-- [nvcc13] [clang]: 13.0 removes everything below 7.5, renames 10.1 to 11.0, adds 8.8
local sm130 = { "7.5", "8.0", "8.6", "8.7", "8.8", "8.9", "9.0", "10.0", "10.3",
                "11.0", "12.0", "12.1" }
-- [pt190654] [ptxas134]: 13.4 adds 10.7 (Rubin)
local sm134 = { "7.5", "8.0", "8.6", "8.7", "8.8", "8.9", "9.0", "10.0", "10.3", "10.7",
                "11.0", "12.0", "12.1" }

-- Audit of 12.8-13.4, 2026-12-01, each cell against a source read that
-- day (tests/lua/data_sources_test.lua holds the values):
--   driver_min 12.8-13.3: [meson]'s Table 3 rows (12.8.0 570.26 ...
--     13.3.0 610.43.02) agree; 13.4 stays the upper bound noted below.
--   gcc_max/clang_max: [spack-cuda] (gcc@15: up to 12.9, gcc@16: up to
--     13.3, clang@20: up to 12.9, clang@21: 13.0, clang@22: up to 13.3),
--     [nix] (12.8-13.0) and [nix131] (13.1, 13.2) agree, and so do the
--     host_config.h guards of 12.8, 12.9 and 13.3 [hostcfg-obs] and 13.0
--     [nvcc13].
--   sm, sm_a, sm_f: NVIDIA's PTX release history [ptx-rel] (PTX ISA 8.7
--     for 12.8 ... 9.4 for 13.4), [llvm-nvptx], [cmake] and nvcc 13.0
--     [nvcc13] agree.  [meson] alone gives sm_120a from 12.9; PTX ISA
--     8.7 names sm_120a for CUDA 12.8, LLVM has it from CUDA_128 and
--     vLLM builds 12.0a with nvcc 12.8 [vllm120a]: NVIDIA's own table is
--     kept.  The drop of everything below 7.5 in 13.0: [nvcc13], and CMS
--     drops Volta for "CUDA 13" [cmsdist10616].
-- Audit of 11.0-12.6, 2026-12-02, each cell against sources read that
-- day (tests/lua/data_sources_test.lua holds the values):
--   driver_min: [meson]'s Table 3 rows (11.0.2 GA 450.51.05 ... 12.6.0
--     560.28.03); from 11.3 on the driver each x.y.0 runfile bundles
--     is the same [spack].  compat_min: 450.80.02 and 525.60.13 [rn-t2].
--   gcc_max/clang_max: the guards of crt/host_config.h of 11.2.2,
--     11.5.1, 11.8.0, 12.0.1, 12.2.2, 12.4.1 and 12.5.0 as Debian and
--     Ubuntu package them [deb-hostcfg]; [spack-cuda] and nixpkgs'
--     older table [nix-old] for every release.  They disagree on 11.6
--     (spack: clang 13; nixpkgs: 12, kept as the conservative value) and
--     on 11.1.1 (spack: clang 11; nixpkgs and this table: 10, kept).
--   sm, sm_a: [cmake], [clang] (first and last CUDA per arch) and
--     NVIDIA's PTX release history [ptx-rel] agree; [meson] alone gives
--     sm_87 from 11.5, where PTX ISA 7.4 (CUDA 11.4) lists it.
local releases = {
  -- driver_min: Linux minimum of the GA release [rn-t3]; compat_min: the
  -- minor-version compatibility floor [rn-t2], for 13.x a branch (">=
  -- 580": any r580 driver runs it), which messages print as the least
  -- driver of that branch Table 3 lists, 13.0's 580.65.06 [rn-t3]
  -- (lib/toolkit compat_floor); gcc_max/clang_max [nix].
  -- platforms: an SBSA runfile from 11.0.2 on [spack], SBSA redist
  -- archives from 11.4.
  { version = "11.0", sm = sm110, sm_a = {}, sm_f = {}, driver_min = "450.51.05", compat_min = "450.80.02",
    gcc_max = 9, clang_max = 9, platforms = { "linux-x86_64", "linux-sbsa", "linux-ppc64le" } },
  { version = "11.1", sm = sm111, sm_a = {}, sm_f = {}, driver_min = "455.23", compat_min = "450.80.02",
    gcc_max = 10, clang_max = 10, platforms = { "linux-x86_64", "linux-sbsa", "linux-ppc64le" } },
  { version = "11.2", sm = sm111, sm_a = {}, sm_f = {}, driver_min = "460.27.03", compat_min = "450.80.02",
    gcc_max = 10, clang_max = 11, platforms = { "linux-x86_64", "linux-sbsa", "linux-ppc64le" } },
  { version = "11.3", sm = sm111, sm_a = {}, sm_f = {}, driver_min = "465.19.01", compat_min = "450.80.02",
    gcc_max = 10, clang_max = 11, platforms = { "linux-x86_64", "linux-sbsa", "linux-ppc64le" } },
  { version = "11.4", sm = sm114, sm_a = {}, sm_f = {}, driver_min = "470.42.01", compat_min = "450.80.02",
    gcc_max = 11, clang_max = 12, platforms = { "linux-x86_64", "linux-sbsa", "linux-ppc64le" } },
  { version = "11.5", sm = sm114, sm_a = {}, sm_f = {}, driver_min = "495.29.05", compat_min = "450.80.02",
    gcc_max = 11, clang_max = 12, platforms = { "linux-x86_64", "linux-sbsa", "linux-ppc64le" } },
  { version = "11.6", sm = sm114, sm_a = {}, sm_f = {}, driver_min = "510.39.01", compat_min = "450.80.02",
    gcc_max = 11, clang_max = 12, platforms = { "linux-x86_64", "linux-sbsa", "linux-ppc64le" } },
  { version = "11.7", sm = sm114, sm_a = {}, sm_f = {}, driver_min = "515.43.04", compat_min = "450.80.02",
    gcc_max = 11, clang_max = 13, platforms = { "linux-x86_64", "linux-sbsa", "linux-ppc64le" } },
  -- 11.8: first release with a linux-aarch64 (Jetson) redist entry [rn-comp]
  { version = "11.8", sm = sm118, sm_a = {}, sm_f = {}, driver_min = "520.61.05", compat_min = "450.80.02",
    gcc_max = 11, clang_max = 14, platforms = { "linux-x86_64", "linux-sbsa", "linux-aarch64", "linux-ppc64le" } },
  -- 12.0: sm_90a, the first arch-specific target [cmake] [clang]
  { version = "12.0", sm = sm120, sm_a = { "9.0" }, sm_f = {}, driver_min = "525.60.13", compat_min = "525.60.13",
    gcc_max = 12, clang_max = 14, platforms = { "linux-x86_64", "linux-sbsa", "linux-aarch64", "linux-ppc64le" } },
  { version = "12.1", sm = sm120, sm_a = { "9.0" }, sm_f = {}, driver_min = "530.30.02", compat_min = "525.60.13",
    gcc_max = 12, clang_max = 15, platforms = { "linux-x86_64", "linux-sbsa", "linux-aarch64", "linux-ppc64le" } },
  { version = "12.2", sm = sm120, sm_a = { "9.0" }, sm_f = {}, driver_min = "535.54.03", compat_min = "525.60.13",
    gcc_max = 12, clang_max = 16, platforms = { "linux-x86_64", "linux-sbsa", "linux-aarch64", "linux-ppc64le" } },
  { version = "12.3", sm = sm120, sm_a = { "9.0" }, sm_f = {}, driver_min = "545.23.06", compat_min = "525.60.13",
    gcc_max = 12, clang_max = 16, platforms = { "linux-x86_64", "linux-sbsa", "linux-ppc64le" } },
  { version = "12.4", sm = sm120, sm_a = { "9.0" }, sm_f = {}, driver_min = "550.54.14", compat_min = "525.60.13",
    gcc_max = 13, clang_max = 17, platforms = { "linux-x86_64", "linux-sbsa", "linux-aarch64", "linux-ppc64le" } },
  { version = "12.5", sm = sm120, sm_a = { "9.0" }, sm_f = {}, driver_min = "555.42.02", compat_min = "525.60.13",
    gcc_max = 13, clang_max = 17, platforms = { "linux-x86_64", "linux-sbsa", "linux-aarch64" } },
  -- there is no CUDA 12.7 [rn-t3]; JetPack 6.1/6.2 ship 12.6
  { version = "12.6", sm = sm120, sm_a = { "9.0" }, sm_f = {}, driver_min = "560.28.03", compat_min = "525.60.13",
    gcc_max = 13, clang_max = 18, platforms = { "linux-x86_64", "linux-sbsa", "linux-aarch64" } },
  -- 12.8: Blackwell (10.0, 10.1 = Thor, 12.0) with a variants [cmake]; nvcc
  -- warns that 5.0-7.2 are deprecated [quansight69]
  { version = "12.8", sm = sm128, sm_a = { "9.0", "10.0", "10.1", "12.0" }, sm_f = {},
    driver_min = "570.26", compat_min = "525.60.13",
    gcc_max = 14, clang_max = 19, platforms = { "linux-x86_64", "linux-sbsa", "linux-aarch64" } },
  -- 12.9: 10.3 and 12.1, and the family-specific f suffix [cmake] [meson]
  { version = "12.9", sm = sm129, sm_a = { "9.0", "10.0", "10.1", "10.3", "12.0", "12.1" },
    sm_f = { "10.0", "10.1", "10.3", "12.0", "12.1" }, driver_min = "575.51.03", compat_min = "525.60.13",
    gcc_max = 14, clang_max = 19, platforms = { "linux-x86_64", "linux-sbsa", "linux-aarch64" } },
  -- 13.0: verified with nvcc 13.0.88 [nvcc13]; one Arm toolkit for SBSA and
  -- Thor, no linux-aarch64 (Orin) toolkit [thor]
  { version = "13.0", sm = sm130, sm_a = { "9.0", "10.0", "10.3", "11.0", "12.0", "12.1" },
    sm_f = { "10.0", "10.3", "11.0", "12.0", "12.1" }, driver_min = "580.65.06", compat_min = "580",
    gcc_max = 15, clang_max = 20, platforms = { "linux-x86_64", "linux-sbsa" } },
  -- 13.1-13.3: drivers from [rn-t3] (13.3 from [meson] only).  GPU code:
  -- [meson]'s table of nvcc's architectures (through 13.3.1, "as of
  -- 2026-07-13") adds and removes nothing after 13.0, so the lists are
  -- 13.0's.  NVIDIA's PTX release history agrees on the additions: PTX
  -- ISA 9.1 (CUDA 13.1, r590), 9.2 (13.2, r595) and 9.3 (13.3, r610) name
  -- exactly 9.0's targets (13.0, r580) [ptx-rel], and no target is first
  -- supported by 13.1-13.3 [llvm-nvptx].  Host compilers [spack-cuda]:
  -- gcc 16 and clang 22 refused through 13.3, clang 21 accepted from 13.1.
  { version = "13.1", sm = sm130, sm_a = { "9.0", "10.0", "10.3", "11.0", "12.0", "12.1" },
    sm_f = { "10.0", "10.3", "11.0", "12.0", "12.1" }, driver_min = "590.44.01", compat_min = "580",
    gcc_max = 15, clang_max = 21, platforms = { "linux-x86_64", "linux-sbsa" },  },
  { version = "13.2", sm = sm130, sm_a = { "9.0", "10.0", "10.3", "11.0", "12.0", "12.1" },
    sm_f = { "10.0", "10.3", "11.0", "12.0", "12.1" }, driver_min = "595.45.04", compat_min = "580",
    gcc_max = 15, clang_max = 21, platforms = { "linux-x86_64", "linux-sbsa" },  },
  { version = "13.3", sm = sm130, sm_a = { "9.0", "10.0", "10.3", "11.0", "12.0", "12.1" },
    sm_f = { "10.0", "10.3", "11.0", "12.0", "12.1" }, driver_min = "610.43.02", compat_min = "580",
    gcc_max = 15, clang_max = 21, platforms = { "linux-x86_64", "linux-sbsa" },  },
  -- 13.4: Rubin, compute capability 10.7, sm_107 and sm_107a [pt190654]
  -- [ptxas134]; the GA release is versioned 13.4.1 (13.4.0 was a developer
  -- preview) [rn134].  driver_min: 615.71.09, the driver NVIDIA's
  -- TensorRT-LLM pairs with 13.4.1 in its DLFW 26.08 image (it installs
  -- the runfile with --toolkit only) [dlfw2608], which reports "CUDA
  -- 13.4" [umd134]; 13.4 is the r615 branch [ptx-rel].
  -- NVIDIA's cuda-compat-13-4 package, versioned by the 13.4 driver it
  -- carries, is 615.71.09 beside cuda-13-4-13.4.2 too [al2023-1342].
  -- Table 3 itself was not read, so this is an upper bound of the minimum.
  -- PTX ISA 9.4 (CUDA 13.4, driver branch r615) adds sm_107, sm_107a and
  -- sm_107f [gcc-nvptx107] [ptx-rel].
  -- Host compilers: gcc 16 (13.4.92's crt/host_config.h refuses only
  -- __GNUC__ > 16 [hostcfg134]) and clang 22 (the 13.4 Update 1
  -- installation guide: GCC 6-16, Clang 7-22 [ig1342]); CMS, updating its
  -- stack to 13.4.1, names the same: "add support for GCC 16 and clang 22
  -- as host compilers" [cmsdist10844].
  -- driver_branch: every driver of branch r615 or newer runs 13.4 code
  -- (PTX ISA 9.4 needs r615 [ptx-rel]), so an r615 driver older than the
  -- upper bound above still reads as CUDA 13.4.
  { version = "13.4", sm = sm134, sm_a = { "9.0", "10.0", "10.3", "10.7", "11.0", "12.0", "12.1" },
    sm_f = { "10.0", "10.3", "10.7", "11.0", "12.0", "12.1" }, driver_min = "615.71.09", driver_branch = "615", compat_min = "580",
    gcc_max = 16, clang_max = 22, platforms = { "linux-x86_64", "linux-sbsa" } },
  -- 13.5: released [rn135]; its GPU list and host compiler limits are
  -- assumed equal to 13.4's.  driver_min: 620.70.06, the driver whose
  -- CUDA forward-compatibility package NVIDIA published for CUDA 13.5
  -- (cuda_compat variant "cuda13.5" of redistrib_620.70.06.json, released
  -- 2026-11-04, the release date of redistrib_13.5.0.json) [nvdrv62070]:
  -- like 13.4's, an upper bound of the minimum, since Table 3 was not
  -- read; no driver branch is recorded (no source names r620 as 13.5's).
  -- driver_min_bound: the messages call 620.70.06 a driver known to run
  -- 13.5 and say the minimum may be older, never that 13.5 needs it.
  -- Searched again 2026-12-02 and not found: Table 3's 13.5 row, a 13.5
  -- host_config.h or installation guide, a PTX ISA 9.5 target list,
  -- redistrib_13.5.0.json whole (only its first entry was read) and any
  -- 13.5 runfile digest.
  { version = "13.5", sm = sm134, sm_a = { "9.0", "10.0", "10.3", "10.7", "11.0", "12.0", "12.1" },
    sm_f = { "10.0", "10.3", "10.7", "11.0", "12.0", "12.1" }, driver_min = "620.70.06", driver_min_bound = true, compat_min = "580",
    gcc_max = 16, clang_max = 22, platforms = { "linux-x86_64", "linux-sbsa" }, assumed = true,
    compilers_assumed = true },
}

-- The label ptbuild installs for each minor release: its last update.
-- The runfile installers of every release label (name, bundled driver,
-- sha256 where published, NVIDIA's md5 and size) are data/runfiles.lua,
-- generated by tools/gen-runfiles.py from tools/data/runfiles.csv
-- ([spack], [ctk-catalog], [dlfw2608], [setupcuda1342]).
--   [tk-csv]   the last update of each minor, from the release notes
--              Table 3 [rn-t3]; [ctk-catalog] lists the later updates
--              12.3.2, 12.8.2, 12.9.2, 13.0.3 and 13.1.2 (CUDA 12.8.2 and
--              13.0.3 ship cuBLAS fixes and a newer driver, 12.9.2 and
--              13.1.2 cuBLAS fixes alone: their manifests [nixpkgs-redist])
--   [jc]       dusty-nv/jetson-containers@dd206bf packages/cuda/cuda/config.py:
--              the local-repo .deb names used on Jetson (no sha256 published),
--              by the Ubuntu release of the L4T they install on (20.04: L4T
--              35 / JetPack 5; 22.04: L4T 36 / JetPack 6); `label`
--              when that .deb is an earlier update than the minor's last
-- The redist archives of each label (names, sizes, sha256) are in
-- data/redist.lua, from the manifest copies in tools/data/redist
-- [nixpkgs-redist], with the earlier updates 12.3.1, 12.8.1, 12.9.1,
-- 13.0.2 and 13.1.1 (fetch --cuda holds those labels to them too).  13.5.0
-- has none: its plan's files and sha256 come from NVIDIA's manifest at
-- fetch time.
--   [rn1342]   https://docs.nvidia.com/cuda/archive/13.4.2/cuda-toolkit-release-notes/
--              ("CUDA Toolkit 13.4 Update 1")
local updates = {
  ["11.8"] = { label = "11.8.0",
    jetson_debs = { ["20.04"] = "cuda-tegra-repo-ubuntu2004-11-8-local_11.8.0-1_arm64.deb" } }, -- [jc]
  ["12.0"] = { label = "12.0.1" },
  ["12.1"] = { label = "12.1.1" },
  ["12.2"] = { label = "12.2.2",
    -- 12.2 for Ubuntu 22.04 (JetPack 6) is no download of NVIDIA's in [jc]
    jetson_debs = { ["20.04"] = "cuda-tegra-repo-ubuntu2004-12-2-local_12.2.2-1_arm64.deb" } }, -- [jc]
  -- 12.3: its last update is 12.3.2, "CUDA 12.3 Update 2" [nv-vgpu-cuda];
  -- 12.3.1 was the one before it.
  ["12.3"] = { label = "12.3.2" },
  ["12.4"] = { label = "12.4.1",
    jetson_debs = { ["22.04"] = "cuda-tegra-repo-ubuntu2204-12-4-local_12.4.1-1_arm64.deb" } }, -- [jc]
  ["12.5"] = { label = "12.5.1" },
  ["12.6"] = { label = "12.6.3",
    jetson_debs = { ["22.04"] = "cuda-tegra-repo-ubuntu2204-12-6-local_12.6.3-1_arm64.deb" } }, -- [jc]
  ["12.8"] = { label = "12.8.2",
    jetson_debs = { label = "12.8.1", ["22.04"] = "cuda-tegra-repo-ubuntu2204-12-8-local_12.8.1-1_arm64.deb" } }, -- [jc]
  ["12.9"] = { label = "12.9.2",
    jetson_debs = { label = "12.9.1", ["22.04"] = "cuda-tegra-repo-ubuntu2204-12-9-local_12.9.1-1_arm64.deb" } }, -- [jc]
  ["13.0"] = { label = "13.0.3" },
  ["13.1"] = { label = "13.1.2" },
  ["13.2"] = { label = "13.2.2" },
  ["13.3"] = { label = "13.3.1" },
  -- 13.4: 13.4.2 is "13.4 Update 1" [rn1342]; its manifest is in
  -- data/redist.lua.  From 13.4.1 the runfile name carries no driver
  -- version: no driver is bundled, the Linux driver is released apart
  -- from the toolkit from 13.4 on [unbundle134].  No sha256 of its
  -- runfiles is published where ptbuild could read it; NVIDIA's md5 of
  -- them is (md5sum.txt [setupcuda1342]), but no size: the plan names
  -- the md5 alone.
  ["13.4"] = { label = "13.4.2" },
  -- 13.5: the release notes name no update [rn135]; no manifest and no
  -- runfile of it are in ptbuild's data (fetch reads NVIDIA's manifest).
  ["13.5"] = { label = "13.5.0" },
}

-- "CUDA Compatibility Package (Orin)": from 13.4 each release lists one for
-- arm64-sbsa, Linux, in its component table: what lets a Jetson Orin on a
-- JetPack whose driver is older run the SBSA toolkit's newer CUDA.
-- 13.4 GA (13.4.1) shipped 13.4.46343957 [rn134]; 13.4 Update 1 (13.4.2,
-- the label ptbuild installs) 13.4.47145772 [rn1342]; 13.5 13.5.47659993
-- [rn135].  None is named before 13.4 (13.0-13.3 notes list no Orin
-- package [rn-comp]).
local orin_compat = {
  ["13.4"] = { version = "13.4.47145772", label = "13.4.2" },  -- [rn1342]
  ["13.5"] = { version = "13.5.47659993", label = "13.5.0" },  -- [rn135]
}

-- glibc limits of the toolkit binaries [spack]: `conflicts glibc@:2.26 when
-- @12.8:` (libcusolver needs log2f@GLIBC_2.27) and `conflicts glibc@2.42:
-- when @:13.0` (C23 math prototypes, "fixed in cuda@13.1").  The sources
-- disagree on 13.1: nvcc 13.1 (V13.1.115, 13.1.1 and 13.1.2 alike) stops
-- at crt/math_functions.h's rsqrt/rsqrtf on glibc 2.42 (Tumbleweed,
-- Fedora 43, Devuan) and 2.43 (Ubuntu 26.04), where 13.2 and 13.3 build
-- [glibc-rsqrt]: the conservative edge, 13.1, is kept.  The first release
-- after max.upto is the one a plan names as the fix.
-- Host compilers that nvcc refuses or miscompiles with, by full version
-- [spack-cuda]: spack/spack-packages@1e8cf05 repos/spack_repo/builtin/
-- build_systems/cuda.py.  A rule applies when the toolkit's full version
-- is at most cuda_upto, or its minor at most cuda_minor_upto, and the
-- compiler's version is in [from, below) or is `exact` (all parts
-- compared), on `arch` when given.  A full version is a release label
-- (11.4.0: the update, at most 4) for a toolkit a plan downloads, and
-- nvcc's own number (11.4.48: a build, 20 and up) for one detect found
-- installed; nvcc_upto is the edge in nvcc's numbers: 11.4.0 is nvcc
-- 11.4.48 ("Built on Wed_Jun__2_2021 ... V11.4.48"), 11.4.1 is 11.4.100
-- (Jul_14_2021) [nvcc114].  The per-release gcc_max/clang_max above hold
-- the major limits; these are the edges.
local host_conflicts = {
  { compiler = "gcc", from = "10", below = "11", cuda_upto = "11.4.0", nvcc_upto = "11.4.48",
    why = "gcc 10 breaks nvcc up to 11.4.0 (spack: gist ax3l/9489132#gistcomment-3860114)" },
  { compiler = "gcc", from = "11", cuda_upto = "11.4.0", nvcc_upto = "11.4.48",
    why = "gcc 11 is supported only from CUDA 11.4.1" },
  { compiler = "clang", from = "12", cuda_upto = "11.4.0", nvcc_upto = "11.4.48",
    why = "clang 12 is supported only from CUDA 11.4.1" },
  { compiler = "gcc", from = "11.2", cuda_minor_upto = "11.5",
    why = "gcc 11.2 and newer break nvcc 11.4-11.5 (std_function.h: 'parameter packs not expanded')" },
  { compiler = "gcc", exact = "13.2.0", cuda_minor_upto = "12.4", arch = "aarch64",
    why = "gcc 13.2.0 on aarch64 breaks nvcc up to 12.4 at the first .cu (spack PR 39666)" },
}

local glibc = { min = { since = "12.8", version = "2.27" }, max = { upto = "13.1", below = "2.42" } }

return { releases = releases, updates = updates, glibc = glibc, host_conflicts = host_conflicts,
         orin_compat = orin_compat }
