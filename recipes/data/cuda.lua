-- CUDA toolkit releases: the GPU code nvcc builds, the drivers they need,
-- the host compilers nvcc accepts, and the platforms NVIDIA publishes.
--
-- Sources (IDs resolve in shared/data/detection-sources.csv):
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

local releases = {
  -- driver_min: Linux minimum of the GA release [rn-t3]; compat_min: the
  -- minor-version compatibility floor [rn-t2]; gcc_max/clang_max [nix].
  { version = "11.0", sm = sm110, sm_a = {}, sm_f = {}, driver_min = "450.51.05", compat_min = "450.80.02",
    gcc_max = 9, clang_max = 9, platforms = { "linux-x86_64", "linux-ppc64le" } },
  { version = "11.1", sm = sm111, sm_a = {}, sm_f = {}, driver_min = "455.23", compat_min = "450.80.02",
    gcc_max = 10, clang_max = 10, platforms = { "linux-x86_64", "linux-ppc64le" } },
  { version = "11.2", sm = sm111, sm_a = {}, sm_f = {}, driver_min = "460.27.03", compat_min = "450.80.02",
    gcc_max = 10, clang_max = 11, platforms = { "linux-x86_64", "linux-ppc64le" } },
  { version = "11.3", sm = sm111, sm_a = {}, sm_f = {}, driver_min = "465.19.01", compat_min = "450.80.02",
    gcc_max = 10, clang_max = 11, platforms = { "linux-x86_64", "linux-ppc64le" } },
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
  -- 13.1-13.3: drivers from [rn-t3] (13.3 from [meson] only); the arch and
  -- compiler lists are not published per release: assumed equal to 13.0.
  { version = "13.1", sm = sm130, sm_a = { "9.0", "10.0", "10.3", "11.0", "12.0", "12.1" },
    sm_f = { "10.0", "10.3", "11.0", "12.0", "12.1" }, driver_min = "590.44.01", compat_min = "580",
    gcc_max = 15, clang_max = 20, platforms = { "linux-x86_64", "linux-sbsa" }, assumed = true },
  { version = "13.2", sm = sm130, sm_a = { "9.0", "10.0", "10.3", "11.0", "12.0", "12.1" },
    sm_f = { "10.0", "10.3", "11.0", "12.0", "12.1" }, driver_min = "595.45.04", compat_min = "580",
    gcc_max = 15, clang_max = 20, platforms = { "linux-x86_64", "linux-sbsa" }, assumed = true },
  { version = "13.3", sm = sm130, sm_a = { "9.0", "10.0", "10.3", "11.0", "12.0", "12.1" },
    sm_f = { "10.0", "10.3", "11.0", "12.0", "12.1" }, driver_min = "610.43.02", compat_min = "580",
    gcc_max = 15, clang_max = 20, platforms = { "linux-x86_64", "linux-sbsa" }, assumed = true },
}

return { releases = releases }
