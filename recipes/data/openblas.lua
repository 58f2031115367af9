-- CPU cores and microarchitectures -> OpenBLAS TARGET, the kernel set a
-- DYNAMIC_ARCH build runs on them, and how PyTorch's own builds pick a BLAS.
--
-- Every row is checked against the release ptbuild builds (source_build
-- below, 0.3.30), read from its source tree: OpenMathLib/OpenBLAS tag
-- v0.3.30 = commit 993fad6a [ob-0330].  Sources (ids resolve in
-- recipes/data/sources.lua):
--   [ob-cpuid] cpuid_arm64.c@v0.3.30: build-time TARGET per MIDR part
--   [ob-dyn]   driver/others/dynamic_arm64.c@v0.3.30: run-time kernel set
--   [ob-x86]   cpuid_x86.c@v0.3.30 get_coretype(): build-time x86 TARGET
--   [ob-dynx]  driver/others/dynamic.c@v0.3.30 get_coretype() and
--              gotoblas_dynamic_init(): run-time x86 kernel set
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
-- ptbuild's facts carry the first core's implementer and part (archspec
-- reads the first core) and, where the cores differ, every part
-- (cpu.parts): lib/host.lua looks the highest up here, as OpenBLAS does
-- (an Apple M1 under Linux: Firestorm 0x023, so ARMV8, not VORTEX; an
-- RK3588: Cortex-A76 0xd0b, so CORTEXA76, not the first core's CORTEXA55).
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

-- x86-64.  OpenBLAS tests CPU features with cpuid and xgetbv; Linux lists
-- the same in /proc/cpuinfo flags only when the OS enables them, so each
-- test is the flags that name its bits:  support_avx (cpuid 1 ecx bit 28
-- and XCR0 bits 1-2), support_avx2 (leaf 7 ebx bit 5), support_avx512
-- (leaf 7 ebx bit 31, AVX512VL, and XCR0 bits 5-7), support_avx512_bf16
-- (leaf 7.1 eax bit 5), support_amx_bf16 (leaf 7 edx bits 22 and 24 and
-- XCR0 bits 17-18) [ob-x86] lines 197-290, [ob-dynx] lines 325-420.
local x86_tests = {
  avx = { "avx" }, avx2 = { "avx", "avx2" }, avx512 = { "avx", "avx2", "avx512vl" },
  bf16 = { "avx", "avx2", "avx512vl", "avx512_bf16" }, amx = { "avx", "avx2", "avx512vl", "amx_bf16", "amx_tile" },
}
-- Chains of { test, TARGET }: the first whose test passes (nil: always).
local AMX = { { "amx", "SAPPHIRERAPIDS" }, { "bf16", "COOPERLAKE" }, { "avx512", "SKYLAKEX" },
              { "avx2", "HASWELL" }, { "avx", "SANDYBRIDGE" }, { nil, "NEHALEM" } }
local BF16 = { { "bf16", "COOPERLAKE" }, { "avx512", "SKYLAKEX" }, { "avx2", "HASWELL" },
               { "avx", "SANDYBRIDGE" }, { nil, "NEHALEM" } }
local AVX512 = { { "avx512", "SKYLAKEX" }, { "avx2", "HASWELL" }, { "avx", "SANDYBRIDGE" }, { nil, "NEHALEM" } }
local AVX2 = { { "avx2", "HASWELL" }, { "avx", "SANDYBRIDGE" }, { nil, "NEHALEM" } }
local SNB = { { "avx", "SANDYBRIDGE" }, { nil, "NEHALEM" } }
-- cpuid_x86.c get_coretype() tests only AVX before HASWELL (NO_AVX2 unset)
local HSW = { { "avx", "HASWELL" }, { nil, "NEHALEM" } }
local SKX = { { "bf16", "COOPERLAKE" }, { nil, "SKYLAKEX" } }
local ZEN = { { "bf16", "COOPERLAKE" }, { "avx512", "SKYLAKEX" }, { "avx", "ZEN" }, { nil, "BARCELONA" } }
local ZEN_DYN = { { "avx", "ZEN" }, { nil, "BARCELONA" } }

-- Intel family 6, by model (cpuinfo "model", decimal there): the chain
-- OpenBLAS's build detection [ob-x86] (get_coretype, lines 2029-2445)
-- and DYNAMIC_ARCH [ob-dynx] (get_coretype, lines 458-962) take.  A build
-- on a model its switch does not list falls through to the Pentium 4 case
-- and picks PRESCOTT (line 2444; models 0x00-0x02 NORTHWOOD): so do the
-- Emerald Rapids 0xcf, Arrow Lake-H 0xc5, Lunar Lake 0xbd and Meteor
-- Lake 0xac; the unlisted 0xae and 0xaf fall into the Raptor Lake case
-- (AVX2), 0xb6 into Arrow Lake-S's.
-- DYNAMIC_ARCH returns NULL for an unlisted model and then takes
-- x86_dyn_fallback (gotoblas_dynamic_init, lines 1142-1148).
local intel6 = {
  -- model -> { build chain, dynamic chain }           Intel name
  [0x1a] = { "NEHALEM", "NEHALEM" }, [0x1e] = { "NEHALEM", "NEHALEM" },   -- Nehalem
  [0x1f] = { "NEHALEM", "NEHALEM" }, [0x2e] = { "NEHALEM", "NEHALEM" },
  [0x25] = { "NEHALEM", "NEHALEM" }, [0x2c] = { "NEHALEM", "NEHALEM" },   -- Westmere
  [0x2f] = { "NEHALEM", "NEHALEM" },
  [0x2a] = { SNB, SNB }, [0x2d] = { SNB, SNB },                           -- Sandy Bridge
  [0x3a] = { SNB, SNB }, [0x3e] = { SNB, SNB },                           -- Ivy Bridge
  [0x3c] = { HSW, AVX2 }, [0x3f] = { HSW, AVX2 },                         -- Haswell
  [0x45] = { HSW, AVX2 }, [0x46] = { HSW, AVX2 },
  [0x3d] = { HSW, AVX2 }, [0x47] = { HSW, AVX2 },                         -- Broadwell
  [0x4f] = { HSW, AVX2 }, [0x56] = { HSW, AVX2 },
  [0x4e] = { HSW, AVX2 }, [0x5e] = { HSW, AVX2 },                         -- Skylake
  [0x8e] = { HSW, AVX2 }, [0x9e] = { HSW, AVX2 },                         -- Kaby/Coffee Lake
  [0xa5] = { HSW, AVX2 }, [0xa6] = { HSW, AVX2 },                         -- Comet Lake
  [0x57] = { HSW, AVX2 },                                                 -- Knights Landing
  [0x55] = { SKX, BF16 },                                                 -- Skylake-SP, Cascade/Cooper Lake
  [0x66] = { "SKYLAKEX", AVX2 },                                          -- Cannon Lake
  [0x6a] = { SKX, BF16 }, [0x6c] = { SKX, BF16 },                         -- Ice Lake SP/D
  [0x7d] = { "SKYLAKEX", AVX512 }, [0x7e] = { "SKYLAKEX", AVX512 },       -- Ice Lake
  [0x8c] = { AVX512, AVX512 }, [0x8d] = { AVX512, AVX512 },               -- Tiger Lake
  [0x9d] = { AVX512, nil },                                               -- Ice Lake NNPI
  [0xa7] = { AVX512, AVX512 },                                            -- Rocket Lake
  [0xa0] = { AVX512, nil },                                               -- "Meteor Lake" (OpenBLAS's comment)
  [0x8f] = { AMX, AMX },                                                  -- Sapphire Rapids
  [0xad] = { AMX, nil },                                                  -- Granite Rapids
  [0x97] = { AVX2, BF16 }, [0x9a] = { AVX2, BF16 },                       -- Alder Lake
  [0xaa] = { HSW, nil },                                                  -- Meteor Lake
  [0xb7] = { AVX2, nil }, [0xba] = { AVX2, nil }, [0xbf] = { AVX2, nil }, -- Raptor Lake
  [0xbe] = { AVX2, nil },                                                 -- Alder Lake-N
  [0xae] = { AVX2, nil }, [0xaf] = { AVX2, nil },                         -- Granite Rapids-D, Sierra Forest
  [0xc6] = { AMX, nil }, [0xb6] = { AMX, nil },                           -- Arrow Lake-S, Grand Ridge
  [0x7a] = { "NEHALEM", "NEHALEM" },                                       -- Goldmont Plus
}
local x86_build_fallback = "PRESCOTT"
local x86_dyn_fallback = { { "bf16", "COOPERLAKE" }, { "avx512", "SKYLAKEX" }, { "avx2", "HASWELL" },
                           { "avx", "SANDYBRIDGE" }, { nil, "PRESCOTT" } }
-- AMD by cpuinfo "cpu family" (base family 0xf plus the extended family
-- OpenBLAS switches on): Zen and Zen 2 (23), Zen 3 and 4 (25), Zen 5 (26).
-- [ob-x86] lines 2500-2522; [ob-dynx] lines 887-916 (26: no case, so
-- x86_dyn_fallback)
local amd = {
  [23] = { ZEN, ZEN_DYN }, [25] = { ZEN, ZEN }, [26] = { ZEN, nil },
}

-- archspec microarch -> { TARGET, dyn } when the facts carry only a name
-- (a facts file written by hand: detected facts carry family and model):
-- the rows above for the models archspec gives that name, where they all
-- agree.  arrowlake and arrowlake_s are not here: Arrow Lake-H (0xc5) and
-- Lunar Lake (0xbd) build PRESCOTT, Arrow Lake-S (0xc6) HASWELL; sapphirerapids is the
-- Sapphire Rapids 0x8f row (Emerald Rapids 0xcf builds PRESCOTT, and
-- DYNAMIC_ARCH runs COOPERLAKE's there).
local microarch = {
  neoverse_n1 = { "NEOVERSEN1", "NEOVERSEN1" }, neoverse_v1 = { "NEOVERSEV1", "NEOVERSEV1" },
  neoverse_n2 = { "NEOVERSEN2", "NEOVERSEN2" }, neoverse_v2 = { "NEOVERSEV2", "NEOVERSEN2" },
  cortex_a72 = { "CORTEXA72", "CORTEXA57" }, a64fx = { "A64FX", "A64FX" },
  thunderx2 = { "THUNDERX2T99", "THUNDERX2T99" },
  nehalem = { "NEHALEM", "NEHALEM" }, westmere = { "NEHALEM", "NEHALEM" },
  sandybridge = { "SANDYBRIDGE", "SANDYBRIDGE" }, ivybridge = { "SANDYBRIDGE", "SANDYBRIDGE" },
  haswell = { "HASWELL", "HASWELL" }, broadwell = { "HASWELL", "HASWELL" }, skylake = { "HASWELL", "HASWELL" },
  mic_knl = { "HASWELL", "HASWELL" },
  skylake_avx512 = { "SKYLAKEX", "SKYLAKEX" }, cascadelake = { "SKYLAKEX", "SKYLAKEX" },
  cannonlake = { "SKYLAKEX", "HASWELL" }, icelake = { "SKYLAKEX", "SKYLAKEX" },
  sapphirerapids = { "SAPPHIRERAPIDS", "SAPPHIRERAPIDS" }, alderlake = { "HASWELL", "HASWELL" },
  zen = { "ZEN", "ZEN" }, zen2 = { "ZEN", "ZEN" }, zen3 = { "ZEN", "ZEN" },
  zen4 = { "COOPERLAKE", "COOPERLAKE" }, zen5 = { "COOPERLAKE", "COOPERLAKE" },
}

-- TARGETs the pinned release refuses: getarch.c@v0.3.30 has no
-- FORCE_NEOVERSEV2, so `make TARGET=NEOVERSEV2` stops at its line 1827
-- (#error "The TARGET specified ... is not supported"), and TargetList.txt
-- does not list it [ob-getarch] (nor does any release from 0.3.26 on).
-- A build without TARGET on a Neoverse V2 gets CORE=NEOVERSEV2, whose
-- kernel/arm64/KERNEL.NEOVERSEV2 is KERNEL.ARMV8SVE's list.
-- History, for a plan that pins another release: 0.3.26 ran ARMV8SVE's
-- kernels on a V2 at run time, 0.3.27-0.3.29 #defined it to NEOVERSEV1
-- [ob4444], 0.3.30 to NEOVERSEN2 [ob5144]; #4702 added V2 detection and
-- #5385 reports the TARGET missing from TargetList.txt [ob4702].
local fragile = {
  NEOVERSEV2 = "OpenBLAS 0.3.30 has no TARGET=NEOVERSEV2 (getarch.c stops with 'The TARGET specified on the command line or in Makefile.rule is not supported')",
}

-- The source release a build pins: the one PyTorch's CD builds [pt-ob].
-- Checked again 2026-12-02 [ob-0334]: OpenBLAS has released 0.3.31 to
-- 0.3.34 since, and PyTorch's main moved its CD build to 0.3.34 in July
-- 2026; the copies of install_openblas.sh read here still say 0.3.30.
-- The pin stays 0.3.30 because every TARGET and kernel-set row above is
-- read from 0.3.30's tree, and no copy of 0.3.34's cpuid_arm64.c,
-- dynamic_arm64.c, cpuid_x86.c or dynamic.c could be read: moving the
-- version without them would pair 0.3.34's archive with 0.3.30's answers.
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
         dyn_generic = dyn_generic, arm_tests = arm_tests, x86_tests = x86_tests, intel6 = intel6, amd = amd,
         x86_build_fallback = x86_build_fallback, x86_dyn_fallback = x86_dyn_fallback,
         microarch = microarch, fragile = fragile, source_build = source_build }
