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
local arm_parts = {
  -- ["implementer:part"] = TARGET   (archspec name for reference)
  ["0x41:0xd03"] = "CORTEXA53",           -- [ob-cpuid]
  ["0x41:0xd05"] = "CORTEXA55",           -- [ob-cpuid]
  ["0x41:0xd07"] = "CORTEXA57",           -- [ob-cpuid] Jetson Nano/TX1
  ["0x41:0xd08"] = "CORTEXA72",           -- [ob-cpuid] Graviton1
  ["0x41:0xd09"] = "CORTEXA73",           -- [ob-cpuid]
  ["0x41:0xd0b"] = "CORTEXA76",           -- [ob-cpuid]
  ["0x41:0xd0c"] = "NEOVERSEN1",          -- [ob-cpuid] Graviton2, Ampere Altra
  ["0x41:0xd40"] = "NEOVERSEV1",          -- [ob-cpuid] Graviton3
  ["0x41:0xd49"] = "NEOVERSEN2",          -- [ob-cpuid]
  ["0x41:0xd4f"] = "NEOVERSEV2",          -- [ob4702] Grace, Graviton4, Axion
  ["0x46:0x001"] = "A64FX",               -- [ob-cpuid]
  ["0x43:0x0af"] = "THUNDERX2T99",        -- [ob-cpuid]
  ["0x48:0xd01"] = "TSV110",              -- [ob-cpuid] Kunpeng 920
  ["0x50:0x000"] = "EMAG8180",            -- [ob-cpuid]
}

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

return { arm_parts = arm_parts, microarch = microarch, fragile = fragile, source_build = source_build,
         dynamic_kernels = dynamic_kernels }
