-- CPU cores and microarchitectures -> OpenBLAS TARGET, the kernel set a
-- DYNAMIC_ARCH build runs on them, and how PyTorch's own builds pick a BLAS.
--
-- Every row is checked against the release ptbuild builds (source_build
-- below, 0.3.30), read from its source tree: OpenMathLib/OpenBLAS tag
-- v0.3.30 = commit 993fad6a [ob-0330].  Sources (ids resolve in
-- recipes/data/sources.lua):
--   [ob-cpuid] cpuid_arm64.c@v0.3.30: build-time TARGET per MIDR part
--   [ob-dyn]   driver/others/dynamic_arm64.c@v0.3.30: run-time kernel set
--   [ob-getarch] getarch.c, TargetList.txt, Makefile.system,
--              kernel/arm64/KERNEL.*@v0.3.30: TARGETs the release accepts
--   [archspec] archspec/archspec microarchitectures.json (names in facts)
--   [pt-ob]    pytorch/pytorch .ci/docker/common/install_openblas.sh: CD
--              builds OpenBLAS v0.3.30 with NUM_THREADS=128 USE_OPENMP=1
--              NO_SHARED=0 DYNAMIC_ARCH=1 TARGET=ARMV8 CFLAGS=-O3
--   [pt-nvpl]  .ci/docker/common/install_nvpl.sh and aarch64_wheel_ci_build.py:
--              CUDA aarch64 wheels use BLAS=NVPL (nvpl_blas 0.5.0.1,
--              nvpl_lapack 0.3.2, linux-sbsa redist; needs Armv8.1-a)
--   [pt-deps]  cmake/Dependencies.cmake: BLAS defaults to MKL; when MKL is
--              not found and BLAS was not set, FindBLAS picks what it finds

-- Arm.  TARGET: what OpenBLAS's own build picks when no TARGET is given.
-- getarch runs cpuid_arm64.c detect() [ob-cpuid] (lines 188-423): it
-- reads every core's MIDR_EL1 from /sys/devices/system/cpu/cpuN/regs/
-- identification/midr_el1, takes the highest part number of all cores
-- (qsort with cpusort, line 282) and the implementer of the last, and
-- knows exactly the parts below (lines 287-346); any other Armv8 core is
-- ARMV8 (the "CPU architecture: 8" fallback, lines 349-369; 419).
-- ptbuild's facts carry the first core's implementer and part: the same
-- on one-core-type servers; on a mixed system OpenBLAS takes the highest
-- part (an Apple M1 under Linux: Firestorm 0x023, so ARMV8, not VORTEX).
-- dyn: the kernel set a DYNAMIC_ARCH=1 build (no DYNAMIC_LIST) runs on
-- the part: get_coretype() in dynamic_arm64.c [ob-dyn] (lines 286-488)
-- reads MIDR_EL1 of the core it runs on and returns a gotoblas_* table;
-- in the default build CORTEXA55 is #defined to CORTEXA53's table and
-- CORTEXA72, CORTEXA73 and FALKOR to CORTEXA57's (lines 142-147), and
-- NEOVERSEV2 to NEOVERSEN2's (line 173).  The Neoverse V1, N2 and V2 cases
-- (lines 385-403) need the kernel to report SVE (HWCAP_SVE); without it
-- they run NEOVERSEN1's.  false: get_coretype() has no case for the part;
-- it then runs ARMV9SME's where the kernel reports SME, ARMV8SVE's where
-- it reports SVE (lines 474-483), else ARMV8's (486, then 512;
-- dyn_generic below).
local arm_parts = {
  -- ["implementer:part"] = { TARGET, dyn }     [ob-cpuid] line, [ob-dyn] line
  ["0x41:0xd03"] = { "CORTEXA53", "CORTEXA53" },     -- 288, 374
  ["0x41:0xd05"] = { "CORTEXA55", "CORTEXA53" },     -- 302, 405 (143: A55 = A53's)
  ["0x41:0xd07"] = { "CORTEXA57", "CORTEXA57" },     -- 290, 376  Jetson Nano/TX1
  ["0x41:0xd08"] = { "CORTEXA72", "CORTEXA57" },     -- 292, 378 (145)  Graviton1
  ["0x41:0xd09"] = { "CORTEXA73", "CORTEXA57" },     -- 294, 380 (146)
  ["0x41:0xd0b"] = { "CORTEXA76", false },           -- 318
  ["0x41:0xd0c"] = { "NEOVERSEN1", "NEOVERSEN1" },   -- 296, 382  Graviton2, Ampere Altra
  ["0x41:0xd40"] = { "NEOVERSEV1", "NEOVERSEV1" },   -- 298, 391  Graviton3
  ["0x41:0xd44"] = { "CORTEXX1", false },            -- 310
  ["0x41:0xd46"] = { "CORTEXA510", false },          -- 304
  ["0x41:0xd47"] = { "CORTEXA710", false },          -- 306
  ["0x41:0xd49"] = { "NEOVERSEN2", "NEOVERSEN2" },   -- 300, 385
  ["0x41:0xd4c"] = { "CORTEXX2", false },            -- 312
  ["0x41:0xd4d"] = { "CORTEXA710", false },          -- 308  Cortex-A715
  ["0x41:0xd4e"] = { "CORTEXX2", false },            -- 314  Cortex-X3
  ["0x41:0xd4f"] = { "NEOVERSEV2", "NEOVERSEN2" },   -- 316, 397 (173)  Grace, Graviton4, Axion
  ["0x42:0x516"] = { "ARMV8", "THUNDERX2T99" },      -- none, 412  Broadcom Vulcan
  ["0x43:0x0a1"] = { "THUNDERX", "THUNDERX" },       -- 325, 419
  ["0x43:0x0af"] = { "THUNDERX2T99", "THUNDERX2T99" }, -- 327, 421
  ["0x43:0x0b8"] = { "THUNDERX3T110", "THUNDERX3T110" }, -- 329, 423
  ["0x46:0x001"] = { "A64FX", "A64FX" },             -- 338, 431
  ["0x48:0xd01"] = { "TSV110", "TSV110" },           -- 332, 439  Kunpeng 920
  ["0x50:0x000"] = { "EMAG8180", "EMAG8180" },       -- 335, 446
  ["0x51:0xc00"] = { "FALKOR", "CORTEXA57" },        -- 322, 461 (147)
  ["0x61:0x022"] = { "VORTEX", "NEOVERSEN1" },       -- 341, 467  Apple M1 Icestorm
  ["0x70:0x660"] = { "FT2000", false }, ["0x70:0x661"] = { "FT2000", false }, -- 344 Phytium
  ["0x70:0x662"] = { "FT2000", false }, ["0x70:0x663"] = { "FT2000", false }, -- 344
  ["0xc0:0xac3"] = { "ARMV8", "NEOVERSEN1" },        -- none, 453  AmpereOne
  ["0xc0:0xac4"] = { "ARMV8", "NEOVERSEN1" },        -- none, 454  AmpereOne A
}
-- Implementers whose every part get_coretype() sends to one kernel set
-- [ob-dyn] (line 465: Apple, any part -> NEOVERSEN1).
local arm_implementers = { ["0x61"] = "NEOVERSEN1" }
-- Every other Arm part: what cpuid_arm64.c falls back to [ob-cpuid]
-- (Jetson Orin's Cortex-A78AE 0xd42, Xavier's Carmel 0x4e:0x004, Thor's
-- Neoverse V3AE 0xd83, Neoverse V3 0xd84, N3 0xd8e, Cortex-X925 0xd85,
-- Apple M1 Firestorm 0x023 among them).
local arm_fallback = "ARMV8"
-- The kernel set DYNAMIC_ARCH runs on a part get_coretype() has no case
-- for, by the first feature /proc/cpuinfo lists [ob-dyn] (474-486, 512).
local dyn_generic = { { "sme", "ARMV9SME" }, { "sve", "ARMV8SVE" }, { nil, "ARMV8" } }
local arm_tests = { sme = { "sme" }, sve = { "sve" } }

-- archspec microarch -> { TARGET, dyn } when the facts carry no
-- implementer and part
local microarch = {
  neoverse_n1 = { "NEOVERSEN1", "NEOVERSEN1" }, neoverse_v1 = { "NEOVERSEV1", "NEOVERSEV1" },
  neoverse_n2 = { "NEOVERSEN2", "NEOVERSEN2" }, neoverse_v2 = { "NEOVERSEV2", "NEOVERSEN2" },
  cortex_a72 = { "CORTEXA72", "CORTEXA57" }, a64fx = { "A64FX", "A64FX" },
  thunderx2 = { "THUNDERX2T99", "THUNDERX2T99" },
  -- x86 (names only; not yet checked against 0.3.30)
  haswell = { "HASWELL" }, broadwell = { "HASWELL" }, skylake = { "HASWELL" }, alderlake = { "HASWELL" },
  skylake_avx512 = { "SKYLAKEX" }, cascadelake = { "SKYLAKEX" }, icelake = { "SKYLAKEX" },
  sapphirerapids = { "SAPPHIRERAPIDS" }, zen = { "ZEN" }, zen2 = { "ZEN" }, zen3 = { "ZEN" },
  zen4 = { "COOPERLAKE" }, zen5 = { "COOPERLAKE" },
}

-- TARGETs the pinned release refuses: getarch.c@v0.3.30 has no
-- FORCE_NEOVERSEV2, so `make TARGET=NEOVERSEV2` stops at its line 1827
-- (#error "The TARGET specified ... is not supported"), and TargetList.txt
-- does not list it [ob-getarch] (nor does any release from 0.3.26 on).
-- A build without TARGET on a Neoverse V2 gets CORE=NEOVERSEV2, whose
-- kernel/arm64/KERNEL.NEOVERSEV2 is KERNEL.ARMV8SVE's list.
local fragile = {
  NEOVERSEV2 = "OpenBLAS 0.3.30 has no TARGET=NEOVERSEV2 (getarch.c stops with 'The TARGET specified on the command line or in Makefile.rule is not supported')",
}

-- The source release a build pins: the one PyTorch's CD builds [pt-ob].
-- The sha256 is that of the GitHub archive of tag v0.3.30, which is also
-- the release asset's: [spack-ob] and [cports-ob] list it for the release
-- asset url below, [brew-ob] for archive/refs/tags/v0.3.30.tar.gz.
-- Debian and Ubuntu repack it (0.3.30+ds drops lapack-netlib/ and
-- relapack/), so their orig tarball has another digest [ob-0330].
local source_build = {
  version = "0.3.30",                                       -- [pt-ob] [spack-ob]
  url = "https://github.com/OpenMathLib/OpenBLAS/releases/download/v0.3.30/OpenBLAS-0.3.30.tar.gz", -- [spack-ob]
  sha256 = "27342cff518646afb4c2b976d809102e368957974c250a25ccc965e53063c95d", -- [spack-ob] [cports-ob] [brew-ob]
  make_flags = "USE_OPENMP=1 NUM_THREADS=256 NO_SHARED=0 CFLAGS=-O3",
  -- NUM_THREADS 256 (CD uses 128): Grace pairs have 144 cores, and OpenBLAS
  -- aborts past NUM_THREADS (OpenMathLib/OpenBLAS#5638, scenarios S28)
}

return { arm_parts = arm_parts, arm_implementers = arm_implementers, arm_fallback = arm_fallback,
         dyn_generic = dyn_generic, arm_tests = arm_tests,
         microarch = microarch, fragile = fragile, source_build = source_build }
