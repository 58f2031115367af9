-- CPU cores and microarchitectures -> OpenBLAS TARGET, the kernel set a
-- DYNAMIC_ARCH build runs on them, and how PyTorch's own builds pick a BLAS.
--
-- Every row is checked against the release ptbuild builds (source_build
-- below, 0.3.34), read from its source tree: OpenMathLib/OpenBLAS tag
-- v0.3.34 = commit e0166008 [ob-0334-src], diffed against 0.3.30's
-- [ob-0330].  Sources (ids resolve in recipes/data/sources.lua):
--   [ob-cpuid] cpuid_arm64.c@v0.3.34: build-time TARGET per MIDR part
--   [ob-dyn]   driver/others/dynamic_arm64.c@v0.3.34: run-time kernel set
--   [ob-x86]   cpuid_x86.c@v0.3.34 get_coretype(): build-time x86 TARGET
--   [ob-dynx]  driver/others/dynamic.c@v0.3.34 get_coretype() and
--              gotoblas_dynamic_init(): run-time x86 kernel set
--   [ob-getarch] getarch.c, TargetList.txt, Makefile.system,
--              kernel/arm64/KERNEL.*@v0.3.34: TARGETs the release accepts
--   [ob-changes] Changelog.txt@v0.3.34: the release that added a row
--   [archspec] archspec/archspec microarchitectures.json (names in facts)
--   [pt-ob]    pytorch/pytorch .ci/docker/common/install_openblas.sh: CD
--              clones tag v0.3.34 and builds it with NUM_THREADS=128
--              USE_OPENMP=1 NO_SHARED=0 DYNAMIC_ARCH=1 TARGET=ARMV8
--              CFLAGS=-O3 BUILD_BFLOAT16=1
--   [pt-nvpl]  .ci/docker/common/install_nvpl.sh and aarch64_wheel_ci_build.py:
--              CUDA aarch64 wheels use BLAS=NVPL (nvpl_blas 0.5.0.1,
--              nvpl_lapack 0.3.2, linux-sbsa redist; needs Armv8.1-a)
--   [pt-deps]  cmake/Dependencies.cmake: BLAS defaults to MKL; when MKL is
--              not found and BLAS was not set, FindBLAS picks what it finds

-- Arm.  TARGET: what OpenBLAS's own build picks when no TARGET is given.
-- getarch runs cpuid_arm64.c detect() [ob-cpuid] (lines 196-442): it
-- reads every core's MIDR_EL1 from /sys/devices/system/cpu/cpuN/regs/
-- identification/midr_el1 (line 229), takes the highest part number of
-- all cores (qsort with cpusort, line 290) and the implementer of the
-- last (287-288), and knows exactly the parts below (lines 295-361); any
-- other Armv8 core is ARMV8 (the "CPU architecture: 8" fallback, lines
-- 364-384).  Every Apple part is VORTEX (line 356: the part test is
-- commented out; arm_implementers below).
-- ptbuild's facts carry the first core's implementer and part (archspec
-- reads the first core) and, where the cores differ, every part
-- (cpu.parts): lib/host.lua looks the highest up here, as OpenBLAS does
-- (an RK3588: Cortex-A76 0xd0b, so CORTEXA76, not the first core's
-- CORTEXA55).
-- dyn: the kernel set a DYNAMIC_ARCH=1 build (no DYNAMIC_LIST) runs on
-- the part: get_coretype() in dynamic_arm64.c [ob-dyn] (lines 346-554)
-- reads MIDR_EL1 of the core it runs on and returns a gotoblas_* table;
-- in the default Linux build CORTEXA55 is #defined to CORTEXA53's table
-- (line 168), CORTEXA72, CORTEXA73 and FALKOR to CORTEXA57's (174-176),
-- VORTEX and VORTEXM4 to NEOVERSEN1's (191, 215) and NEOVERSEV2 to
-- NEOVERSEN2's (227).  The cases of the Neoverse N2 (447), V1 (453) and
-- V2, V3AE, V3, Cortex-X925 and A725 (459-469) need the kernel to report
-- SVE (HWCAP_SVE); without it they run NEOVERSEN1's (sve = true below).
-- false: get_coretype() has no case for the part; it then runs
-- ARMV9SME's where the kernel reports SME, ARMV8SVE's where it reports
-- SVE (lines 540-549), else ARMV8's (552, then gotoblas_dynamic_init()
-- 574-578; dyn_generic below).
-- since: releases before it give another answer for the part (0.3.30's
-- tree read; the release that changed it named by [ob-changes]: 0.3.31
-- "added support for the NEOVERSEV2 cpu" (getarch.c FORCE_NEOVERSEV2) and
-- "cpu autodetection ... for Ampere One processors", 0.3.32 "Neoverse V3
-- cpus as NEOVERSEV2" and "autodetection of Cortex A725 and X925", 0.3.33
-- "autodetection of Cortex A75/A76" and "of Neoverse V3" in DYNAMIC_ARCH);
-- a distribution's OpenBLAS may be older, so for these parts the plan
-- builds the pinned release instead of taking the distribution's.
local arm_parts = {
  -- ["implementer:part"] = { TARGET, dyn }     [ob-cpuid] line, [ob-dyn] line
  ["0x41:0xd03"] = { "CORTEXA53", "CORTEXA53" },     -- 296, 434
  ["0x41:0xd05"] = { "CORTEXA55", "CORTEXA53" },     -- 310, 471 (168: A55 = A53's)
  ["0x41:0xd07"] = { "CORTEXA57", "CORTEXA57" },     -- 298, 436  Jetson Nano/TX1
  ["0x41:0xd08"] = { "CORTEXA72", "CORTEXA57" },     -- 300, 438 (174)  Graviton1
  ["0x41:0xd09"] = { "CORTEXA73", "CORTEXA57" },     -- 302, 440 (175)
  ["0x41:0xd0a"] = { "ARMV8", "CORTEXA57", since = "0.3.33" },      -- none, 441 (175)  Cortex-A75
  ["0x41:0xd0b"] = { "CORTEXA76", "CORTEXA57", since = "0.3.33" },  -- 329, 442 (175)
  ["0x41:0xd0c"] = { "NEOVERSEN1", "NEOVERSEN1" },   -- 304, 444  Graviton2, Ampere Altra
  ["0x41:0xd40"] = { "NEOVERSEV1", "NEOVERSEV1", sve = true },   -- 306, 453  Graviton3
  ["0x41:0xd44"] = { "CORTEXX1", false },            -- 318
  ["0x41:0xd46"] = { "CORTEXA510", false },          -- 312
  ["0x41:0xd47"] = { "CORTEXA710", false },          -- 314
  ["0x41:0xd49"] = { "NEOVERSEN2", "NEOVERSEN2", sve = true },   -- 308, 447
  ["0x41:0xd4c"] = { "CORTEXX2", false },            -- 320
  ["0x41:0xd4d"] = { "CORTEXA710", false },          -- 316  Cortex-A715
  ["0x41:0xd4e"] = { "CORTEXX2", false },            -- 322  Cortex-X3
  ["0x41:0xd4f"] = { "NEOVERSEV2", "NEOVERSEN2", sve = true, since = "0.3.31" }, -- 324, 459 (227)  Grace, Graviton4, Axion
  ["0x41:0xd83"] = { "NEOVERSEV2", "NEOVERSEN2", sve = true, since = "0.3.33" }, -- 326-328, 460  Thor's Neoverse V3AE
  ["0x41:0xd84"] = { "NEOVERSEV2", "NEOVERSEN2", sve = true, since = "0.3.33" }, -- 326-328, 461  Neoverse V3
  ["0x41:0xd85"] = { "NEOVERSEV2", "NEOVERSEN2", sve = true, since = "0.3.32" }, -- 326-328, 462  Cortex-X925
  ["0x41:0xd87"] = { "NEOVERSEV2", "NEOVERSEN2", sve = true, since = "0.3.32" }, -- 326-328, 463  Cortex-A725
  ["0x42:0x516"] = { "ARMV8", "THUNDERX2T99" },      -- none, 478  Broadcom Vulcan
  ["0x43:0x0a1"] = { "THUNDERX", "THUNDERX" },       -- 336, 485
  ["0x43:0x0af"] = { "THUNDERX2T99", "THUNDERX2T99" }, -- 338, 487
  ["0x43:0x0b8"] = { "THUNDERX3T110", "THUNDERX3T110" }, -- 340, 489
  ["0x46:0x001"] = { "A64FX", "A64FX" },             -- 353, 497
  ["0x48:0xd01"] = { "TSV110", "TSV110" },           -- 343, 505  Kunpeng 920
  ["0x50:0x000"] = { "EMAG8180", "EMAG8180" },       -- 346, 512
  ["0x51:0xc00"] = { "FALKOR", "CORTEXA57" },        -- 333, 527 (176)
  ["0x70:0x660"] = { "FT2000", false }, ["0x70:0x661"] = { "FT2000", false }, -- 359-361 Phytium
  ["0x70:0x662"] = { "FT2000", false }, ["0x70:0x663"] = { "FT2000", false }, -- 359-361
  ["0xc0:0xac3"] = { "AMPERE1", "NEOVERSEN1", since = "0.3.31" },  -- 348-350, 519  AmpereOne
  ["0xc0:0xac4"] = { "AMPERE1", "NEOVERSEN1", since = "0.3.31" },  -- 348-350, 520  AmpereOne A
}
-- Implementers whose every part both detections send to one row: Apple,
-- any part -> VORTEX at build time (cpuid_arm64.c:356), NEOVERSEN1's
-- kernel set at run time (dynamic_arm64.c:531-533; VORTEX and VORTEXM4
-- are NEOVERSEN1's on Linux, lines 191 and 215).  0.3.30 knew only the
-- M1 Icestorm 0x022 at build time; "fixed cpu autodetection for Apple M
-- systems running Linux" is 0.3.31's [ob-changes].
local arm_implementers = { ["0x61"] = { "VORTEX", "NEOVERSEN1", since = "0.3.31" } }
-- Every other Arm part: what cpuid_arm64.c falls back to [ob-cpuid]
-- (Jetson Orin's Cortex-A78AE 0xd42, Xavier's Carmel 0x4e:0x004,
-- Neoverse N3 0xd8e among them).
local arm_fallback = "ARMV8"
-- The kernel set DYNAMIC_ARCH runs on a part get_coretype() has no case
-- for, by the first feature /proc/cpuinfo lists [ob-dyn] (540-552).
local dyn_generic = { { "sme", "ARMV9SME" }, { "sve", "ARMV8SVE" }, { nil, "ARMV8" } }
local arm_tests = { sme = { "sme" }, sve = { "sve" } }
-- The kernel list a TARGET's kernel/arm64/KERNEL.<TARGET> includes whole
-- [ob-getarch]: KERNEL.NEOVERSEV2 is one line, "include
-- $(KERNELDIR)/KERNEL.NEOVERSEN2" (0.3.30's included KERNEL.ARMV8SVE), and
-- KERNEL.AMPERE1 includes KERNEL.NEOVERSEN1; a build with that TARGET
-- compiles those kernels with its own flags (Makefile.arm64: NEOVERSEV2
-- -mcpu=neoverse-v2 with gcc 13 or newer, AMPERE1 -march=armv8.6-a...).
local kernel_list = { NEOVERSEV2 = "NEOVERSEN2", AMPERE1 = "NEOVERSEN1" }
-- The name OPENBLAS_VERBOSE=2 prints ("Core: ...") for a kernel set whose
-- table another name is #defined to, where gotoblas_corename() tests that
-- name first [ob-dyn]: NEOVERSEN2's table is gotoblas_NEOVERSEV2 too
-- (line 227), and line 291 tests NEOVERSEV2 before 292 tests NEOVERSEN2.
local core_printed = { NEOVERSEN2 = "neoversev2" }

-- What older releases' DYNAMIC_ARCH runs on a part, where it differs from
-- the pinned release and the part has no `since` (a distribution's
-- OpenBLAS is older: distro_release below).  Read from get_coretype() and
-- gotoblas_corename() in driver/others/dynamic_arm64.c of every tag from
-- v0.3.20 to v0.3.29 [ob-dynhist] and of 0.3.34 [ob-dyn]: N2 and V1 have
-- a case from 0.3.21 (0.3.20 returns NULL for them: "Falling back to
-- generic ARMV8 core"), and it asks the kernel for SVE from 0.3.24
-- (without SVE: NEOVERSEN1's, with the warning "Your OS does not support
-- SVE instructions"); 0.3.26 #defines A55 to A53's table and A72, A73
-- and Falkor to A57's (each had its own before); 0.3.30 #defines
-- NEOVERSEV2 to NEOVERSEN2's table [ob5144], which gotoblas_corename()
-- names first, so an N2 prints 'neoversev2' from then on.
-- ["impl:part"] = { { from, kernel set, OPENBLAS_VERBOSE=2's name, sve = the
-- case needs SVE, none = no case for the part (the generic set) }, ... },
-- oldest first, each holding until the next; the last is the pinned
-- release's answer.
local dyn_history = {
  ["0x41:0xd49"] = {                                                   -- Neoverse N2
    { "0.3.20", "ARMV8", "armv8", none = true },
    { "0.3.21", "NEOVERSEN2", "neoversen2" },
    { "0.3.24", "NEOVERSEN2", "neoversen2", sve = true },
    { "0.3.30", "NEOVERSEN2", "neoversev2", sve = true },
  },
  ["0x41:0xd40"] = {                                                   -- Neoverse V1
    { "0.3.20", "ARMV8", "armv8", none = true },
    { "0.3.21", "NEOVERSEV1", "neoversev1" },
    { "0.3.24", "NEOVERSEV1", "neoversev1", sve = true },
  },
  ["0x41:0xd05"] = { { "0.3.20", "CORTEXA55", "cortexa55" }, { "0.3.26", "CORTEXA53", "cortexa53" } },
  ["0x41:0xd08"] = { { "0.3.20", "CORTEXA72", "cortexa72" }, { "0.3.26", "CORTEXA57", "cortexa57" } },
  ["0x41:0xd09"] = { { "0.3.20", "CORTEXA73", "cortexa73" }, { "0.3.26", "CORTEXA57", "cortexa57" } },
  ["0x51:0xc00"] = { { "0.3.20", "FALKOR", "falkor" }, { "0.3.26", "CORTEXA57", "cortexa57" } },
}
-- The OpenBLAS a distribution release ships, from its source package
-- [deb-ob]: on arm64 each is a DYNAMIC_ARCH=1 DYNAMIC_OLDER=1
-- TARGET=GENERIC build (debian/rules), and none of their patches touches
-- dynamic_arm64.c except Ubuntu 24.04's, which adds 0.3.27's Neoverse V2
-- case (lp2131041; V2 rows have `since`, so the plan builds from source
-- there anyway).  ["os id:version_id"] = release.
local distro_release = {
  ["debian:12"] = "0.3.21", ["debian:13"] = "0.3.29",
  ["ubuntu:22.04"] = "0.3.20", ["ubuntu:24.04"] = "0.3.26",
}

-- x86-64.  OpenBLAS tests CPU features with cpuid and xgetbv; Linux lists
-- the same in /proc/cpuinfo flags only when the OS enables them, so each
-- test is the flags that name its bits:  support_avx (cpuid 1 ecx bit 28
-- and XCR0 bits 1-2), support_avx2 (leaf 7 ebx bit 5), support_avx512
-- (leaf 7 ebx bit 31, AVX512VL, and XCR0 bits 5-7), support_avx512_bf16
-- (leaf 7.1 eax bit 5), support_amx_bf16 (leaf 7 edx bits 22 and 24 and
-- XCR0 bits 17-18) [ob-x86] lines 200-294, [ob-dynx] lines 325-421.
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
-- OpenBLAS's build detection [ob-x86] (get_coretype, lines 2041-2411)
-- and DYNAMIC_ARCH [ob-dynx] (get_coretype, lines 458-808) take.  A build
-- on a model its switch does not list falls through to the Pentium 4 case
-- (lines 2395-2402): NORTHWOOD for models whose low nibble is 0-2, else
-- x86_build_fallback, a chain of feature tests that 0.3.30 did not have
-- (it picked PRESCOTT there): so does Arrow Lake-H 0xc5.  Cases without a
-- break fall into the next: the unlisted 0xae and 0xaf into the Raptor
-- Lake case (line 2361, AVX2), 0xb6 into Arrow Lake-S's (2374), 0xac
-- through both into Panther Lake's (2382).  0.3.34 adds Jasper Lake 0x9c
-- (2309), Lunar Lake 0xbd (2365), Panther Lake 0xcc (2382) and Emerald
-- Rapids 0xcf (2386) [ob-changes].
-- DYNAMIC_ARCH returns NULL for an unlisted model and then takes
-- x86_dyn_fallback (gotoblas_dynamic_init, lines 1158-1164).
-- the Pentium 4 case an unlisted model falls into [ob-x86] 2395-2402
local x86_build_fallback = { { "amx", "SAPPHIRERAPIDS" }, { "bf16", "COOPERLAKE" }, { "avx512", "SKYLAKEX" },
                             { "avx2", "HASWELL" }, { "avx", "SANDYBRIDGE" }, { nil, "PRESCOTT" } }
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
  -- Atom-class cores both switches list: ATOM and DUNNINGTON builds;
  -- DYNAMIC_ARCH without DYNAMIC_OLDER #defines ATOM to NEHALEM's table
  -- and DUNNINGTON to CORE2's ([ob-dynx] lines 258, 261)
  [0x1b] = { "NEHALEM", "NEHALEM" },                                      -- Nehalem (x86:2085, dynx:489)
  [0x1c] = { "ATOM", "NEHALEM" }, [0x37] = { "ATOM", "NEHALEM" },         -- Bonnell, Bay Trail (x86:2088, 2121; dynx:490, 549)
  [0x1d] = { "DUNNINGTON", "CORE2" },                                     -- Dunnington (x86:2090; dynx:488)
  [0x4c] = { "NEHALEM", "NEHALEM" }, [0x4d] = { "NEHALEM", "NEHALEM" },   -- Braswell, Avoton (x86:2177-2181; dynx:589)
  [0x5c] = { "NEHALEM", "NEHALEM" },                                      -- Apollo Lake (x86:2228; dynx:652)
  [0x5f] = { x86_build_fallback, "NEHALEM" },                             -- Denverton: no build case (x86:2186-2231); dynx:652
  [0x9c] = { "NEHALEM", nil },                                            -- Jasper Lake
  [0xbd] = { AVX2, nil },                                                 -- Lunar Lake
  [0xcc] = { AVX2, nil }, [0xac] = { AVX2, nil },                         -- Panther Lake, Meteor Lake
  [0xcf] = { AMX, nil },                                                  -- Emerald Rapids
}
local x86_dyn_fallback = { { "bf16", "COOPERLAKE" }, { "avx512", "SKYLAKEX" }, { "avx2", "HASWELL" },
                           { "avx", "SANDYBRIDGE" }, { nil, "PRESCOTT" } }
-- AMD by cpuinfo "cpu family" (base family 0xf plus the extended family
-- OpenBLAS switches on): Zen and Zen 2 (23), Zen 3 and 4 (25), Zen 5 (26).
-- [ob-x86] lines 2453-2472; [ob-dynx] lines 897-926 (26: no case, so
-- x86_dyn_fallback)
local amd = {
  [23] = { ZEN, ZEN_DYN }, [25] = { ZEN, ZEN }, [26] = { ZEN, nil },
}

-- archspec microarch -> { TARGET, dyn } when the facts carry only a name
-- (a facts file written by hand: detected facts carry family and model):
-- the rows above for the models archspec gives that name, where they all
-- agree.  arrowlake and arrowlake_s: Arrow Lake-H (0xc5), Lunar Lake
-- (0xbd) and Arrow Lake-S (0xc6) all build HASWELL in 0.3.34 (0.3.30
-- built PRESCOTT on the first two) and DYNAMIC_ARCH runs HASWELL's on
-- them; sapphirerapids is the Sapphire Rapids 0x8f row (Emerald Rapids
-- 0xcf builds SAPPHIRERAPIDS too, but DYNAMIC_ARCH runs COOPERLAKE's there).
local microarch = {
  neoverse_n1 = { "NEOVERSEN1", "NEOVERSEN1" }, neoverse_v1 = { "NEOVERSEV1", "NEOVERSEV1", sve = true },
  neoverse_n2 = { "NEOVERSEN2", "NEOVERSEN2", sve = true },
  neoverse_v2 = { "NEOVERSEV2", "NEOVERSEN2", sve = true, since = "0.3.31" },
  cortex_a72 = { "CORTEXA72", "CORTEXA57" }, a64fx = { "A64FX", "A64FX" },
  thunderx2 = { "THUNDERX2T99", "THUNDERX2T99" },
  nehalem = { "NEHALEM", "NEHALEM" }, westmere = { "NEHALEM", "NEHALEM" },
  sandybridge = { "SANDYBRIDGE", "SANDYBRIDGE" }, ivybridge = { "SANDYBRIDGE", "SANDYBRIDGE" },
  haswell = { "HASWELL", "HASWELL" }, broadwell = { "HASWELL", "HASWELL" }, skylake = { "HASWELL", "HASWELL" },
  mic_knl = { "HASWELL", "HASWELL" },
  skylake_avx512 = { "SKYLAKEX", "SKYLAKEX" }, cascadelake = { "SKYLAKEX", "SKYLAKEX" },
  cannonlake = { "SKYLAKEX", "HASWELL" }, icelake = { "SKYLAKEX", "SKYLAKEX" },
  sapphirerapids = { "SAPPHIRERAPIDS", "SAPPHIRERAPIDS" }, alderlake = { "HASWELL", "HASWELL" },
  arrowlake = { "HASWELL", "HASWELL" }, arrowlake_s = { "HASWELL", "HASWELL" },
  zen = { "ZEN", "ZEN" }, zen2 = { "ZEN", "ZEN" }, zen3 = { "ZEN", "ZEN" },
  zen4 = { "COOPERLAKE", "COOPERLAKE" }, zen5 = { "COOPERLAKE", "COOPERLAKE" },
}

-- TARGETs getarch.c knows only from a release on: `make TARGET=X` with an
-- older release stops at getarch.c's #error "The TARGET specified on the
-- command line or in Makefile.rule is not supported" [ob-getarch].
-- getarch.c@v0.3.30 has none of the three (its #error is line 1827);
-- getarch.c@v0.3.34 has FORCE_NEOVERSEV2 (line 1529), FORCE_AMPERE1
-- (1638) and FORCE_VORTEXM4 (1685); 0.3.31 is the release whose Changelog
-- adds them ("added support for the NEOVERSEV2 cpu", "added dedicated
-- support for the Apple M4 cpu as VORTEXM4", "added cpu autodetection
-- and compiler settings for Ampere One processors") [ob-changes].
-- TargetList.txt@v0.3.34 lists NEOVERSEV2 and VORTEXM4 but not AMPERE1,
-- which getarch.c still takes.  0.3.26-0.3.30 had no FORCE_NEOVERSEV2
-- though their build detection picked CORE=NEOVERSEV2 on a V2 [ob4702].
-- History of the kernels a V2 runs, for a plan that pins another release:
-- 0.3.26 ran ARMV8SVE's at run time, 0.3.27-0.3.29 #defined it to
-- NEOVERSEV1 [ob4444], 0.3.30 to NEOVERSEN2 [ob5144], as 0.3.34 does; a
-- build with the V2's own TARGET compiled KERNEL.ARMV8SVE's list up to
-- 0.3.30 and KERNEL.NEOVERSEN2's in 0.3.34.
local target_since = { NEOVERSEV2 = "0.3.31", AMPERE1 = "0.3.31", VORTEXM4 = "0.3.31" }

-- The source release a build pins: the one PyTorch's CD builds [pt-ob].
-- PyTorch's main moved its CD build from 0.3.30 to 0.3.34 with "Update
-- OpenBLAS to v0.3.34" (opened 2026-07-17); main builds 0.3.34 in
-- September 2026, when a diagnostic PR tests a revert to 0.3.33 that was
-- not merged.  release/2.14 was cut from main in the week of 2026-08-10:
-- that 2.14 builds 0.3.34 follows from main's history, as neither the
-- PR's merge date nor install_openblas.sh at a v2.14 tag could be read
-- [ob-0334] [pt-ob].
-- install_openblas.sh clones the tag (git clone -b v0.3.34 --depth 1):
-- commit is what that clone checks out, the tag's commit [ob-0334-tag];
-- the tarball below is the release asset of the same tag, whose sha256
-- two independent public sources give (and the tag archive has the same
-- digest) [ob-0334-sha].  Debian's 0.3.34+ds orig tarball, whose tree
-- the rows above are read from, is a repack without lapack-netlib/ and
-- relapack/, so it has another digest [ob-0334-src].
local source_build = {
  version = "0.3.34",                                       -- [pt-ob] [ob-0334]
  commit = "e0166008be8e466242aa76b2ff75ce3f0fbf574a",      -- [ob-0334-tag]
  url = "https://github.com/OpenMathLib/OpenBLAS/releases/download/v0.3.34/OpenBLAS-0.3.34.tar.gz", -- [ob-0334-sha]
  sha256 = "cd7e129868320cc2d033afa920e31202dfe0b8066a5b66661900ccc0f197dfed", -- [ob-0334-sha]
  make_flags = "USE_OPENMP=1 NUM_THREADS=256 NO_SHARED=0 CFLAGS=-O3",
  -- NUM_THREADS 256 (CD uses 128): Grace pairs have 144 cores, and OpenBLAS
  -- aborts past NUM_THREADS (OpenMathLib/OpenBLAS#5638, scenarios S28).
  -- No BUILD_BFLOAT16=1 (CD passes it): Makefile.system@v0.3.34 sets it
  -- for every arm64 build (line 282) [ob-getarch].
}

return { arm_parts = arm_parts, arm_implementers = arm_implementers, arm_fallback = arm_fallback,
         dyn_generic = dyn_generic, arm_tests = arm_tests, x86_tests = x86_tests, intel6 = intel6, amd = amd,
         x86_build_fallback = x86_build_fallback, x86_dyn_fallback = x86_dyn_fallback,
         microarch = microarch, kernel_list = kernel_list, core_printed = core_printed, target_since = target_since,
         dyn_history = dyn_history, distro_release = distro_release,
         source_build = source_build }
