-- GPU architectures (compute capabilities) that nvcc has known, with the
-- first and last CUDA release that builds each one.
--
-- Sources (ids resolve in recipes/data/sources.lua):
--   [cmake]  Kitware/CMake Modules/Internal/CMakeCUDAArchitecturesAll.cmake
--   [meson]  mesonbuild/meson mesonbuild/modules/cuda.py (_MICROISA_RANGES_DEF)
--   [clang]  llvm/llvm-project clang/lib/Basic/Cuda.cpp (Min/MaxVersionForOffloadArch)
--   [rn110]  CUDA 11.0 release notes: sm_30/sm_32 removed, sm_35/37/50 deprecated
--   [llvm170258] llvm/llvm-project PR 170258: sm_88 and sm_110 arrive with
--            CUDA 13.0; sm_101 is superseded by sm_110 and refused by 13.0+
--   [nvcc13] nvcc 13.0.88 --list-gpu-code, observed on the ptbuild dev machine
--   [pt190654] pytorch/pytorch PR 190654 "Add sm_107 for Rubin support"
--            (2026-07-21): "CUDA 13.4 adds support for the NVIDIA Rubin
--            Architecture (compute capability 10.7)"
--   [ptxas134] ptxas of CUDA 13.4 accepts `.target sm_107a` (a public
--            kernel guide's check, PTX ISA 9.4)
-- `last = nil` means the newest CUDA in data/cuda.lua still builds it; the
-- per-release lists in data/cuda.lua are what the checks use -- `first` and
-- `last` here only answer for releases older than the ones listed there.
return {
  ["3.0"] = { family = "Kepler", chips = "GK104/GK106/GK107", last = "10.2" },          -- [clang] [rn110]
  ["3.2"] = { family = "Kepler", chips = "GK20A (Tegra K1)", last = "10.2" },           -- [clang] [rn110]
  ["3.5"] = { family = "Kepler", chips = "GK110/GK208", last = "11.8" },                -- [cmake] [clang]
  ["3.7"] = { family = "Kepler", chips = "GK210 (Tesla K80)", last = "11.8" },          -- [cmake] [clang]
  ["5.0"] = { family = "Maxwell", chips = "GM107/GM108", last = "12.9" },               -- [cmake] [nvcc13]
  ["5.2"] = { family = "Maxwell", chips = "GM200/GM204/GM206", last = "12.9" },         -- [cmake] [nvcc13]
  ["5.3"] = { family = "Maxwell", chips = "GM20B (Jetson Nano, TX1)", last = "12.9" },  -- [cmake] [nvcc13]
  ["6.0"] = { family = "Pascal", chips = "GP100", last = "12.9" },                      -- [cmake] [nvcc13]
  ["6.1"] = { family = "Pascal", chips = "GP102-GP108 (GTX 10x0)", last = "12.9" },     -- [cmake] [nvcc13]
  ["6.2"] = { family = "Pascal", chips = "GP10B (Jetson TX2)", last = "12.9" },         -- [cmake] [nvcc13]
  ["7.0"] = { family = "Volta", chips = "GV100 (V100)", last = "12.9" },                -- [cmake] [nvcc13]
  ["7.2"] = { family = "Volta", chips = "GV10B/GV11B (Jetson Xavier)", last = "12.9" }, -- [cmake] [nvcc13]
  ["7.5"] = { family = "Turing", chips = "TU102-TU117 (T4, RTX 20x0)" },                -- [cmake] [nvcc13]
  ["8.0"] = { family = "Ampere", chips = "GA100 (A100)", first = "11.0" },              -- [cmake] [clang]
  ["8.6"] = { family = "Ampere", chips = "GA102-GA107 (A10, RTX 30x0)", first = "11.1" }, -- [cmake] [clang]
  ["8.7"] = { family = "Ampere", chips = "GA10B (Jetson Orin)", first = "11.4" },       -- [cmake] [clang]
  ["8.8"] = { family = "Ampere", chips = "(no product published)", first = "13.0" },    -- [llvm170258] [nvcc13]
  ["8.9"] = { family = "Ada", chips = "AD102-AD107 (L4, L40, RTX 40x0)", first = "11.8" }, -- [cmake] [clang]
  ["9.0"] = { family = "Hopper", chips = "GH100 (H100, H200, GH200)", first = "11.8" }, -- [cmake] [clang]
  ["10.0"] = { family = "Blackwell", chips = "GB100 (B200, GB200)", first = "12.8" },   -- [cmake] [clang]
  ["10.1"] = { family = "Blackwell", chips = "GB10B (Jetson Thor, numbering before CUDA 13)",
               first = "12.8", last = "12.9", renamed = "11.0" },                       -- [cmake] [llvm170258]
  ["10.3"] = { family = "Blackwell", chips = "GB110 (B300, GB300)", first = "12.9" },   -- [cmake] [meson]
  ["10.7"] = { family = "Rubin", chips = "Rubin", first = "13.4" },             -- [pt190654] [ptxas134]
  ["11.0"] = { family = "Blackwell", chips = "GB10B (Jetson Thor)", first = "13.0", was = "10.1" }, -- [llvm170258] [nvcc13]
  ["12.0"] = { family = "Blackwell", chips = "GB202-GB207 (RTX 50x0, RTX PRO 6000)", first = "12.8" }, -- [cmake] [clang]
  ["12.1"] = { family = "Blackwell", chips = "GB20B (GB10, DGX Spark)", first = "12.9" }, -- [cmake] [meson]
}
