-- CPU cores and microarchitectures -> OpenBLAS TARGET, and how PyTorch's
-- own builds pick a BLAS.
--
-- Sources (ids resolve in recipes/data/sources.lua):
--   [ob-cpuid] OpenMathLib/OpenBLAS cpuid_arm64.c (build-time TARGET per MIDR part)
--   [ob-dyn]   OpenMathLib/OpenBLAS driver/others/dynamic_arm64.c, dynamic.c
--   [ob4702]   OpenMathLib/OpenBLAS#4702: NEOVERSEV2 detection; #5385: the
--              TARGET is missing from TargetList.txt in some releases
--   [archspec] archspec/archspec microarchitectures.json (names in facts)
--   [pt-ob]    pytorch/pytorch .ci/docker/common/install_openblas.sh: CD
--              builds OpenBLAS v0.3.30 with NUM_THREADS=128 USE_OPENMP=1
--              NO_SHARED=0 DYNAMIC_ARCH=1 TARGET=ARMV8 CFLAGS=-O3
--   [pt-nvpl]  .ci/docker/common/install_nvpl.sh and aarch64_wheel_ci_build.py:
--              CUDA aarch64 wheels use BLAS=NVPL (nvpl_blas 0.5.0.1,
--              nvpl_lapack 0.3.2, linux-sbsa redist; needs Armv8.1-a)
--   [pt-deps]  cmake/Dependencies.cmake: BLAS defaults to MKL; when MKL is
--              not found and BLAS was not set, FindBLAS picks what it finds
-- What OpenBLAS's own build picks when no TARGET is given: getarch runs
-- cpuid_arm64.c detect(), which reads the first "CPU implementer" and
-- "CPU part" of /proc/cpuinfo and knows exactly these parts; any other
-- Armv8 core is ARMV8 (its "CPU architecture: 8" fallback).  [ob-cpuid]
-- (cpuid_arm64.c@72461f1c, the same table in the code-index copy
-- @0050a966; the 0.3.30 tag itself was not read.)  dyn: the part is also
-- one DYNAMIC_ARCH's get_coretype() recognises at run time and gives its
-- own kernel set [ob-dyn] (dynamic_arm64.c@72461f1c; Apple parts run the
-- NEOVERSEN1 set there, so VORTEX is no).
local arm_parts = {
  -- ["implementer:part"] = { TARGET, dyn }
  ["0x41:0xd03"] = { "CORTEXA53", true },      -- [ob-cpuid] [ob-dyn]
  ["0x41:0xd05"] = { "CORTEXA55", true },      -- [ob-cpuid] [ob-dyn]
  ["0x41:0xd07"] = { "CORTEXA57", true },      -- [ob-cpuid] [ob-dyn] Jetson Nano/TX1
  ["0x41:0xd08"] = { "CORTEXA72", true },      -- [ob-cpuid] [ob-dyn] Graviton1
  ["0x41:0xd09"] = { "CORTEXA73", true },      -- [ob-cpuid] [ob-dyn]
  ["0x41:0xd0b"] = { "CORTEXA76", false },     -- [ob-cpuid]
  ["0x41:0xd0c"] = { "NEOVERSEN1", true },     -- [ob-cpuid] [ob-dyn] Graviton2, Ampere Altra
  ["0x41:0xd40"] = { "NEOVERSEV1", true },     -- [ob-cpuid] [ob-dyn] Graviton3
  ["0x41:0xd44"] = { "CORTEXX1", false },      -- [ob-cpuid]
  ["0x41:0xd46"] = { "CORTEXA510", false },    -- [ob-cpuid]
  ["0x41:0xd47"] = { "CORTEXA710", false },    -- [ob-cpuid]
  ["0x41:0xd49"] = { "NEOVERSEN2", true },     -- [ob-cpuid] [ob-dyn]
  ["0x41:0xd4c"] = { "CORTEXX2", false },      -- [ob-cpuid]
  ["0x41:0xd4d"] = { "CORTEXA710", false },    -- [ob-cpuid] Cortex-A715
  ["0x41:0xd4e"] = { "CORTEXX2", false },      -- [ob-cpuid] Cortex-X3
  ["0x41:0xd4f"] = { "NEOVERSEV2", true },     -- [ob-cpuid] [ob-dyn] [ob4702] Grace, Graviton4, Axion
  ["0x43:0x0a1"] = { "THUNDERX", true },       -- [ob-cpuid] [ob-dyn]
  ["0x43:0x0af"] = { "THUNDERX2T99", true },   -- [ob-cpuid] [ob-dyn]
  ["0x43:0x0b8"] = { "THUNDERX3T110", true },  -- [ob-cpuid] [ob-dyn]
  ["0x46:0x001"] = { "A64FX", true },          -- [ob-cpuid] [ob-dyn]
  ["0x48:0xd01"] = { "TSV110", true },         -- [ob-cpuid] [ob-dyn] Kunpeng 920
  ["0x50:0x000"] = { "EMAG8180", true },       -- [ob-cpuid] [ob-dyn]
  ["0x51:0xc00"] = { "FALKOR", true },         -- [ob-cpuid] [ob-dyn]
  ["0x61:0x022"] = { "VORTEX", false },        -- [ob-cpuid] Apple M1 Icestorm
  ["0x70:0x660"] = { "FT2000", false }, ["0x70:0x661"] = { "FT2000", false }, -- [ob-cpuid] Phytium
  ["0x70:0x662"] = { "FT2000", false }, ["0x70:0x663"] = { "FT2000", false }, -- [ob-cpuid]
}
-- Every other Arm part: what cpuid_arm64.c falls back to [ob-cpuid]
-- (Jetson Orin's Cortex-A78AE 0xd42, Xavier's Carmel 0x4e:0x004, Thor's
-- Neoverse V3AE 0xd83, AmpereOne 0xc0:0xac3 among them).
local arm_fallback = "ARMV8"

-- archspec microarch -> TARGET (when implementer/part are absent)
local microarch = {
  neoverse_n1 = "NEOVERSEN1", neoverse_v1 = "NEOVERSEV1", neoverse_n2 = "NEOVERSEN2",
  neoverse_v2 = "NEOVERSEV2", cortex_a72 = "CORTEXA72", a64fx = "A64FX", thunderx2 = "THUNDERX2T99",
  -- x86 (x86-targets.csv, [ob-dyn] dynamic.c rules)
  haswell = "HASWELL", broadwell = "HASWELL", skylake = "HASWELL", alderlake = "HASWELL",
  skylake_avx512 = "SKYLAKEX", cascadelake = "SKYLAKEX", icelake = "SKYLAKEX",
  sapphirerapids = "SAPPHIRERAPIDS", zen = "ZEN", zen2 = "ZEN", zen3 = "ZEN",
  zen4 = "COOPERLAKE", zen5 = "COOPERLAKE",
}

-- Targets some OpenBLAS releases refuse at build time: prefer DYNAMIC_ARCH
local fragile = { NEOVERSEV2 = "TARGET=NEOVERSEV2 is missing from TargetList.txt in some OpenBLAS releases (OpenBLAS#5385)" }

-- The source release a build pins: the one PyTorch's CD builds [pt-ob].
--   [spack-ob] spack/spack-packages@1e8cf05
--   repos/spack_repo/builtin/packages/openblas/package.py:
--   version("0.3.30", sha256="27342cff...") for the release asset below;
--   [cports-ob] chimera-linux/cports@19b66183 main/openblas/template.py
--   carries the same sha256 for the same url.
local source_build = {
  version = "0.3.30",                                       -- [pt-ob] [spack-ob]
  url = "https://github.com/OpenMathLib/OpenBLAS/releases/download/v0.3.30/OpenBLAS-0.3.30.tar.gz", -- [spack-ob]
  sha256 = "27342cff518646afb4c2b976d809102e368957974c250a25ccc965e53063c95d", -- [spack-ob] [cports-ob]
  make_flags = "USE_OPENMP=1 NUM_THREADS=256 NO_SHARED=0 CFLAGS=-O3",
  -- NUM_THREADS 256 (CD uses 128): Grace pairs have 144 cores, and OpenBLAS
  -- aborts past NUM_THREADS (OpenMathLib/OpenBLAS#5638, scenarios S28)
}

-- What a DYNAMIC_ARCH build of source_build.version runs on a core whose
-- build TARGET has no kernel set of its own: TARGET -> kernels used.
-- In 0.3.30 driver/others/dynamic_arm64.c returns gotoblas_NEOVERSEV2 for
-- part 0xd4f when the kernel reports SVE (gotoblas_NEOVERSEN1 without it),
-- and gotoblas_NEOVERSEV2 is #defined to gotoblas_NEOVERSEN2 [ob5144];
-- 0.3.27-0.3.29 defined it to gotoblas_NEOVERSEV1, and 0.3.26 ran the
-- generic ARMV8SVE kernels there [ob4444].
local dynamic_kernels = {
  NEOVERSEV2 = "NEOVERSEN2",                                -- [ob5144]
}

return { arm_parts = arm_parts, arm_fallback = arm_fallback, microarch = microarch, fragile = fragile, source_build = source_build,
         dynamic_kernels = dynamic_kernels }
