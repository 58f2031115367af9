-- PyTorch releases (2.4 -> newest): the CUDA versions each supports, the
-- arch lists of its release wheels per CUDA and platform, and the build
-- quirks a source build meets.
--
-- Sources (ids resolve in recipes/data/sources.lua):
--   [builder]  pytorch/builder release/2.4 (@4ce1afeb), release/2.5 (@aec5fb5d)
--              manywheel/build_cuda.sh (git): x86_64 5.0;6.0;7.0;7.5;8.0;8.6
--              + 9.0 (12.1, 12.4) or + 3.7;9.0 (11.8); cuDNN 9.1.0.70
--              (common/install_cuda.sh, install_cuda_aarch64.sh).  Its
--              cuda-aarch64 case ("9.0" for 12.4) was not what built the
--              aarch64 wheels: aarch64_linux/aarch64_ci_build.sh ran
--              aarch64_wheel_ci_build.py with no TORCH_CUDA_ARCH_LIST
--              [pt140844]; the lists here keep "9.0", the one arch every
--              source gives them (the conservative reading: a wheel is
--              claimed for Hopper alone).
--   [pt140844] pytorch/pytorch PR #140844 (2024-11-15): the aarch64 CUDA
--              nightly 2.6.0.dev20241113+cu124, built without
--              TORCH_CUDA_ARCH_LIST, reports sm_50 sm_80 sm_86 sm_89 sm_90
--              sm_90a; PR #144436 (2025-01-10): "CUDA ARM build did not
--              call build_cuda.sh" -- it added the lists to
--              aarch64_ci_build.sh (9.0 for 12.6).  Whether release/2.6
--              took #144436 was not found; 2.6's "9.0" is the same
--              conservative reading.
--   [pt-bcuda-25q1] build_cuda.sh of main around the 2.6 and 2.7 branch
--              cuts (forks' copies): before the 2.6 cut 12.4 and 12.6
--              ...;9.0+PTX; between the cuts 11.8 and 12.4 as [builder]'s,
--              12.6 ...;9.0+PTX, 12.8 5.0;...;8.6;9.0;10.0;12.0+PTX.
--              Neither tag's own file was read, and the sources disagree
--              on 9.0+PTX: 2.6's and 2.7's lists here are the smaller ones
--              (no +PTX on 12.4 or 12.6, no 5.0/6.0 on 12.8), the
--              conservative reading -- it claims no PTX JIT for a newer GPU.
--   [pt-ti6492] pytorch/test-infra PR #6492 (2025-04-02): "Cuda 12.6 aarch
--              is not supported in Release 2.7. We release 12.8 aarch".
--   [bcuda]    pytorch/pytorch .ci/manywheel/build_cuda.sh (stored versions
--              @00c7a380 and 799d09f; third-party copies of v2.6.0-v2.9.0)
--   [aarch64]  pytorch/pytorch .ci/aarch64_linux/aarch64_ci_build.sh, PRs
--              #144436 #146378 #157843 #161257 #162364 #163764
--   [release]  pytorch/pytorch RELEASE.md compatibility matrix, seen through
--              copies (PyTorchKorea pytorch.kr; a zh translation for 2.12-2.14)
--   [pt-matrix] generate_binary_build_matrix.py per tag, transcribed by a
--              public tracker: for 2.12-2.14 its CUDA_ARCHES and cuDNN pins
--              agree with [release]'s stable and experimental CUDA (2.12,
--              2.13: 12.6 + 13.0, 13.2 experimental, cuDNN 9.10.2.21 /
--              9.20.0.48; 2.14: 12.6, 13.0, 13.2, cuDNN 9.10.2.21 /
--              9.24.0.43).  2.12.1 and 2.13.0 also publish a Linux-only
--              cu129 wheel (12.9.1, cuDNN 9.20.0.48) that the matrix omits
--              (2.12.0 has none: [pt-cu129]); its arch lists are
--              [pt-cu129]'s below.  2.9.1, 2.10.0 and 2.11.0 publish a
--              Linux-only cu129 wheel as well (x86_64 and aarch64; cuDNN
--              9.10.2.21, 9.10.2.21, 9.17.1.4), which RELEASE.md omits too.
--   [pt-cu129] one secondary source only: a wheel-index data file that
--              transcribes TORCH_CUDA_ARCH_LIST per release tag from
--              build_cuda.sh (v2.12.1) and build_env_setup.py (v2.13.0),
--              checked against download.pytorch.org: cu129 x86_64
--              7.5;8.0;8.6;9.0;10.0;12.0, aarch64 8.0;9.0;10.0;12.0, for
--              both 2.12.1 and 2.13.0.  It is not consistent about +PTX
--              (its notes say the 2.12.1 script adds +PTX for 12.9, its
--              table has none), so the lists here carry none: the
--              conservative reading, which claims no PTX JIT for GPUs
--              newer than 12.0.  The aarch64 list is the one
--              aarch64_ci_build.sh gave 12.9 in the 2.9 cycle [aarch64].
--              For 2.9.1-2.11.0 its table gives cu129 12.0+PTX (2.10.0's
--              is what build_cuda.sh@799d09f computes [pt-bcuda210]), and
--              from 2.11.0 cu130 (and cu132) without +PTX: the shipped
--              2.13.0 and 2.14.1 cu130 wheels list no compute_120, 2.10.0's
--              does [pt-archlist]; the build_env_setup.py read for
--              [pt-envsetup] (main, between tags) still adds it.
--   [pt-aarch64-29] .ci/aarch64_linux/aarch64_ci_build.sh@0fb2b95f (the
--              v2.9.0 state: 12.6, 12.8, 13.0 and no 12.9 case): the 2.9
--              aarch64 lists.  The cu129 aarch64 wheel of 2.9.1 came from
--              release/2.9 after that; its list here is the 12.9 one of
--              the 2.8 cycle [aarch64], an inference ([pt-cu129] reads
--              build_cuda.sh, which aarch64 did not use before 2.10).
--   [pt-cudnn211] torch 2.11.0+cu128's METADATA pins
--              nvidia-cudnn-cu12==9.19.0.56, as [pt-matrix] reads the v2.11.0
--              matrix (cu130 9.19.0.56 too, cu129 9.17.1.4); RELEASE.md's
--              row for 2.11 still says 9.17.1.4 for 12.8 and 13.0.
--   [pt-aarch64-25] 2.4 and 2.5 did publish linux-aarch64 CUDA wheels, on
--              the cu124 index and without the +cu124 local version:
--              torch-2.4.0 and torch-2.5.1 cp39-cp312 linux_aarch64.
--   [pt-index-matrix] a scrape of download.pytorch.org/whl/cuXYZ/torch/
--              (CUDA 12.4 on, Python 3.10 on) per torch, Python and
--              platform.  aarch64: cu124 2.4.0, 2.4.1, 2.5.0 and 2.5.1 for
--              3.10-3.12, no 3.13 (x86_64 has it) -- so the tags' patches
--              v2.4.1 and v2.5.1 exist on aarch64 and the pip lines name
--              them; cu126 2.6.0 3.10-3.13 and no 2.7.x or 2.8.0; cu128
--              2.7.0 and 2.7.1 3.10-3.13 and no 2.8.0; cu129 2.8.0
--              3.10-3.13.  It reads no Python below 3.10, so an older
--              Python the release supports is unverified on aarch64
--              (platform_python seen_from) unless another source shows it:
--              2.5.1 cp39 [pt-aarch64-25], 2.7.0 and 2.7.1 cp39 [pt-aarch64-27].
--   [pt-aarch64-28] no cu128 aarch64 wheel of 2.8.0: uv's resolver lists
--              torch 2.8.0+cu128 wheels for manylinux_2_28_x86_64 and
--              win_amd64 only (2.7.x and 2.9.x have aarch64 ones), agreeing
--              with [pt-index-matrix]; pytorch/pytorch#160162's "pip install
--              torch==2.8 --index-url .../cu128" for GH200 is contradicted
--              by both, so 2.8's aarch64 row stays cu129 alone.
--   [cmake-re] cmake/Modules_CUDA_fix/upstream/FindCUDA/select_compute_arch.cmake:
--              2.4-2.6 regex `^([0-9]\.[0-9]a?...)` (one-digit major, `a`
--              from issue #125413); Blackwell era (@00afc038, 2.7+) `[0-9]+`
--              majors; an optional a/f suffix with PR #157999 (release assumed 2.9, unverified)
--   [cppext]   torch/utils/cpp_extension.py allowed lists: 2.7-2.8 know 10.1,
--              2.9 replaces it by 11.0 (issue #166120); no `f` anywhere.
--              Lists: stored versions of _get_cuda_arch_flags -- Hopper era
--              (3.5 ... 9.0a), @0011ec5c (Blackwell: 10.0 10.1 12.0 and
--              their a), and the CUDA 13 one (10.3 11.0 12.1, no 10.1);
--              which release first carried 12.1 is unverified (2.9 assumed)
--   [pt-envsetup] .ci/manywheel/build_env_setup.py (@00505f29 and
--              @83d50900, main between the 2.13 and 2.14 tags; it replaced
--              build_cuda.sh): TORCH_CUDA_ARCH_LIST_TABLE per wheel CUDA
--              and host arch.  Its CUDA set (12.6, 13.0, 13.2) is the one
--              [release] gives 2.12, 2.13 and 2.14, and its sets are the
--              2.12-2.14 rows below: 12.6 x86_64 5.0-9.0, aarch64 8.0;9.0;
--              13.0 and 13.2 x86_64 7.5;8.0;8.6;9.0;10.0;12.0, aarch64
--              8.0;9.0;10.0;11.0;12.0.  Those versions add +PTX to 12.0; the
--              tags' release builds do not [pt-cu129] [pt-archlist], so the
--              rows carry none.
--   [pt190654] pytorch/pytorch PR 190654 "Add sm_107 for Rubin support"
--              (2026-07-21, before the 2.14 release): CUDA 13.4 adds
--              compute capability 10.7; PyTorch made Rubin-aware
--   [gcc]      CMakeLists.txt @00117da6: "GCC-9.3 or newer is required"
--   [pt-cudamin] the CUDA below which the release's CMake stops
--              (cmake/public/cuda.cmake: "PyTorch requires CUDA X.Y or
--              above.", a FATAL_ERROR): 2.6 11.0 (Debian trixie's
--              libtorch-dev 2.6.0+dfsg-7, Caffe2/public/cuda.cmake line
--              72); 2.13 12.1 and 2.14 12.6 (PyTorch 2.14.0's release
--              notes, PR #192257: "increased from 12.1 to 12.6 ...
--              Configuring a source build with CUDA 12.1 through 12.5 now
--              fails"; Debian unstable's libtorch-dev 2.14.1+dfsg-1 line
--              73).  The other releases' minimum was not read: it lies
--              between 11.0 (2.6's) and 12.1 (2.13's) for 2.7-2.12, and is
--              at most 11.0 for 2.4 and 2.5 (the check only rises); those
--              rows carry none, so a CUDA below their oldest wheel CUDA is
--              called untested, never refused.
--   [tag]      tag: the git tag of the release's newest patch ptbuild can
--              name with a source; the Dockerfile clones it (PyTorch tags
--              releases vX.Y.Z; there is no vX.Y tag).  v2.4.1, v2.5.1:
--              RELEASE.md's patch table (PR #148888, 2025-03); v2.7.1:
--              github.com/pytorch/pytorch/releases/tag/v2.7.1 (spack #50807);
--              v2.9.1: releases/tag/v2.9.1 (2025-11-12; spack-packages
--              #2392); v2.12.1: PR #186813 "Update version to 2.12.1"
--              (2026-06-09); v2.14.1: PyTorch's announcement that 2.14.1 is
--              on PyPI and download.pytorch.org (dev-discuss t/3455,
--              2026-09-30), and Debian unstable's pytorch 2.14.1.
--              v2.6.0 (RELEASE.md: no patch planned), v2.8.0, v2.10.0,
--              v2.11.0 and v2.13.0: the release's own X.Y.0 tag, which
--              every release has; a later patch may exist (--torch-ref).
--
--   [pt-python] the Python of each release's Linux wheels: RELEASE.md's
--              compatibility matrix, Python column (through [release]'s zh
--              copy, which keeps the table in English): 2.4 >=3.8 <=3.12;
--              2.5 >=3.9 <=3.12, 3.13 experimental; 2.6-2.8 >=3.9 <=3.13;
--              2.9-2.12 >=3.10 <=3.14; 2.13, 2.14 >=3.10 <=3.15 (the "t"
--              free-threaded builds are not modelled).  Agreeing: replicate's
--              torch_specs (2.4 3.8-3.12, 2.5 3.9-3.12, 2.6 and 2.7
--              3.9-3.13); generate_binary_build_matrix.py of the 2.7 cycle
--              (FULL_PYTHON_VERSIONS 3.9-3.13, used for linux and
--              linux-aarch64 alike); [pt-matrix]'s tracker (2.12.1 3.10-3.14,
--              2.13.0 adds 3.15 on Linux only, release/2.14 3.10-3.15).
--
-- python: { min, max, experimental } the X.Y of the CPython the release's
-- Linux CUDA wheels are built for; experimental ones are published too
-- [pt-python].  platform_python.<platform>: the same for one platform
-- where it differs (2.5's aarch64 wheels have no 3.13), with seen_from:
-- the oldest Python whose wheel of that platform a source shows -- from
-- min up to it the wheel's existence is unverified, and the plan says so.
-- cuda: every CUDA minor the release builds wheels for (stable and
-- experimental), oldest first.  wheels.<platform>.<cuda> = the wheel's
-- TORCH_CUDA_ARCH_LIST.  aarch64 lists before 2.7 are from the nightly
-- scripts; 2.4.0 and 2.5.1 aarch64 wheels are on the cu124 index [pt-aarch64-25].
-- cuda_build_min: the oldest CUDA the release's CMake accepts, where a
-- source shows it [pt-cudamin]; nil where none was read.
-- What torch.utils.cpp_extension accepts in TORCH_CUDA_ARCH_LIST (each
-- also with +PTX) [cppext].
local cx_hopper = "3.5;3.7;5.0;5.2;5.3;6.0;6.1;6.2;7.0;7.2;7.5;8.0;8.6;8.7;8.9;9.0;9.0a"
local cx_27 = cx_hopper .. ";10.0;10.0a;10.1;10.1a;12.0;12.0a"
local cx_29 = cx_hopper .. ";10.0;10.0a;10.3;10.3a;11.0;11.0a;12.0;12.0a;12.1;12.1a"
-- 2.14 names Rubin: sm_107 [pt190654]; its wheels need not build it (sm_107
-- runs sm_100 code, the PR says), so no wheel list carries 10.7.
local cx_214 = cx_29 .. ";10.7;10.7a"

-- Its named_arches, in its order (it replaces each name in the text, in
-- this order, before splitting at ';'), each value as written there
-- [cppext] [cppext-names]: 2.4-2.6 Hopper-era; 2.7-2.8 @0011ec5c; 2.9-2.13 with
-- Thor as 11.0 (issue #166120); 2.14 adds Rubin (Debian's 2.14.1).
local cxn_hopper = {
  { "Kepler+Tesla", "3.7" }, { "Kepler", "3.5+PTX" }, { "Maxwell+Tegra", "5.3" },
  { "Maxwell", "5.0;5.2+PTX" }, { "Pascal", "6.0;6.1+PTX" }, { "Volta+Tegra", "7.2" },
  { "Volta", "7.0+PTX" }, { "Turing", "7.5+PTX" }, { "Ampere+Tegra", "8.7" },
  { "Ampere", "8.0;8.6+PTX" }, { "Ada", "8.9+PTX" }, { "Hopper", "9.0+PTX" },
}
local function cxn(extra)
  local out = {}
  for _, p in ipairs(cxn_hopper) do out[#out + 1] = p end
  for _, p in ipairs(extra) do out[#out + 1] = p end
  return out
end
local cxn_27 = cxn({ { "Blackwell+Tegra", "10.1" }, { "Blackwell", "10.0;12.0+PTX" } })
local cxn_29 = cxn({ { "Blackwell+Tegra", "11.0" }, { "Blackwell", "10.0;10.3;12.0;12.1+PTX" } })
local cxn_214 = cxn({ { "Blackwell+Tegra", "11.0" }, { "Blackwell", "10.0;10.3;12.0;12.1+PTX" }, { "Rubin", "10.7+PTX" } })

local x_old = "3.7;5.0;6.0;7.0;7.5;8.0;8.6;9.0"       -- cu118 [builder] (appended as ";3.7;9.0" after 8.6 there)
local x_12 = "5.0;6.0;7.0;7.5;8.0;8.6;9.0"            -- cu121..cu126 [builder] [bcuda]
local x_129 = "7.5;8.0;8.6;9.0;10.0;12.0"             -- cu129 of 2.12.1, 2.13.0 [pt-cu129]
local s_129 = "8.0;9.0;10.0;12.0"                     -- the same, aarch64 (SBSA) [pt-cu129]
local x_129p = "7.0;7.5;8.0;8.6;9.0;10.0;12.0+PTX"    -- cu129 of 2.9.1, 2.10.0 [pt-cu129] [pt-bcuda210]
local s_129p = "8.0;9.0;10.0;12.0+PTX"                -- cu129 aarch64 of 2.10.0, 2.11.0 [pt-cu129] [pt-bcuda210]
-- From 2.11.0 the 13.x wheels carry no PTX [pt-cu129] [pt-archlist]
local x_13 = "7.5;8.0;8.6;9.0;10.0;12.0"
local s_13 = "8.0;9.0;10.0;11.0;12.0"

local releases = {
  { version = "2.4", python = { min = "3.8", max = "3.12" }, tag = "v2.4.1", released = "2024-07", cuda = { "11.8", "12.1", "12.4" }, experimental = { "12.4" },
    wheels = { ["linux-x86_64"] = { ["11.8"] = x_old, ["12.1"] = x_12, ["12.4"] = x_12 },   -- [builder]
               ["linux-sbsa"] = { ["12.4"] = "9.0" } },                                      -- [builder] [pt140844] [pt-aarch64-25]
    platform_python = { ["linux-sbsa"] = { min = "3.8", max = "3.12", seen_from = "3.10" } },   -- [pt-index-matrix]
    gcc_min = "9.3", suffix_a = true, suffix_f = false, two_digit_major = false, thor = "10.1", cpp_extension = cx_hopper, cpp_extension_names = cxn_hopper },
  { version = "2.5", python = { min = "3.9", max = "3.12", experimental = "3.13" }, tag = "v2.5.1", released = "2024-10", cuda = { "11.8", "12.1", "12.4" }, experimental = {},
    wheels = { ["linux-x86_64"] = { ["11.8"] = x_old, ["12.1"] = x_12, ["12.4"] = x_12 },   -- [builder]
               ["linux-sbsa"] = { ["12.4"] = "9.0" } },
    -- no 3.13 on aarch64: cp39-cp312 only [pt-aarch64-25] [pt-index-matrix]
    platform_python = { ["linux-sbsa"] = { min = "3.9", max = "3.12" } },
    gcc_min = "9.3", suffix_a = true, suffix_f = false, two_digit_major = false, thor = "10.1", cpp_extension = cx_hopper, cpp_extension_names = cxn_hopper },
  { version = "2.6", python = { min = "3.9", max = "3.13" }, tag = "v2.6.0", released = "2025-01", cuda = { "11.8", "12.4", "12.6" }, experimental = { "12.6" },
    wheels = { ["linux-x86_64"] = { ["11.8"] = x_old, ["12.4"] = x_12, ["12.6"] = x_12 },   -- [builder] [pt-bcuda-25q1]
               ["linux-sbsa"] = { ["12.6"] = "9.0" } },                                      -- [pt140844] [pt-index-matrix]
    platform_python = { ["linux-sbsa"] = { min = "3.9", max = "3.13", seen_from = "3.10" } },   -- [pt-index-matrix]
    gcc_min = "9.3", suffix_a = true, suffix_f = false, two_digit_major = false, thor = "10.1", cpp_extension = cx_hopper, cpp_extension_names = cxn_hopper,
    cuda_build_min = "11.0" },                                                               -- [pt-cudamin]
  { version = "2.7", python = { min = "3.9", max = "3.13" }, tag = "v2.7.1", released = "2025-04", cuda = { "11.8", "12.6", "12.8" }, experimental = { "12.8" },
    wheels = { ["linux-x86_64"] = { ["11.8"] = x_old, ["12.6"] = x_12, ["12.8"] = "7.5;8.0;8.6;9.0;10.0;12.0+PTX" },  -- [pt-bcuda-25q1]
               ["linux-sbsa"] = { ["12.8"] = "9.0;10.0;12.0" } },                            -- [aarch64] #146378 [pt148169] [pt-ti6492] [pt-index-matrix]
    gcc_min = "9.3", suffix_a = true, suffix_f = false, two_digit_major = true, thor = "10.1", cpp_extension = cx_27, cpp_extension_names = cxn_27 },
  { version = "2.8", python = { min = "3.9", max = "3.13" }, tag = "v2.8.0", released = "2025-07", cuda = { "12.6", "12.8", "12.9" }, experimental = { "12.9" },
    wheels = { ["linux-x86_64"] = { ["12.6"] = x_12, ["12.8"] = "7.0;7.5;8.0;8.6;9.0;10.0;12.0",
                                    ["12.9"] = "7.0;7.5;8.0;8.6;9.0;10.0;12.0+PTX" },       -- [bcuda] @00c7a380
               ["linux-sbsa"] = { ["12.9"] = "8.0;9.0;10.0;12.0" } },                        -- [aarch64] #157843 [pt-index-matrix] [pt-aarch64-28]
    platform_python = { ["linux-sbsa"] = { min = "3.9", max = "3.13", seen_from = "3.10" } },   -- [pt-index-matrix]
    gcc_min = "9.3", suffix_a = true, suffix_f = false, two_digit_major = true, thor = "10.1", cpp_extension = cx_27, cpp_extension_names = cxn_27 },
  -- 2.9: cu129 from 2.9.1 (Linux only) [pt-matrix] [pt-cu129]
  { version = "2.9", python = { min = "3.10", max = "3.14" }, tag = "v2.9.1", released = "2025-10", cuda = { "12.6", "12.8", "12.9", "13.0" }, experimental = { "13.0" },
    wheels = { ["linux-x86_64"] = { ["12.6"] = x_12, ["12.8"] = "7.0;7.5;8.0;8.6;9.0;10.0;12.0", ["12.9"] = x_129p,
                                    ["13.0"] = "7.5;8.0;8.6;9.0;10.0;12.0+PTX" },           -- [bcuda] #161257 [pt-cu129]
               ["linux-sbsa"] = { ["12.6"] = "8.0;9.0", ["12.8"] = "8.0;9.0;10.0;12.0", ["12.9"] = s_129,
                                  ["13.0"] = "8.0;9.0;10.0;11.0;12.0+PTX" } },               -- [aarch64] #163764 [pt-aarch64-29]
    gcc_min = "9.3", suffix_a = true, suffix_f = true, two_digit_major = true, thor = "11.0", cpp_extension = cx_29, cpp_extension_names = cxn_29 },
  { version = "2.10", python = { min = "3.10", max = "3.14" }, tag = "v2.10.0", released = "2026-01", cuda = { "12.6", "12.8", "12.9", "13.0" }, experimental = { "13.0" },
    wheels = { ["linux-x86_64"] = { ["12.6"] = x_12, ["12.8"] = "7.0;7.5;8.0;8.6;9.0;10.0;12.0", ["12.9"] = x_129p,
                                    ["13.0"] = "7.5;8.0;8.6;9.0;10.0;12.0+PTX" },           -- [pt-bcuda210] [pt-cu129]
               ["linux-sbsa"] = { ["12.6"] = "8.0;9.0", ["12.8"] = "8.0;9.0;10.0;12.0", ["12.9"] = s_129p,
                                  ["13.0"] = "8.0;9.0;10.0;11.0;12.0+PTX" } },
    gcc_min = "9.3", suffix_a = true, suffix_f = true, two_digit_major = true, thor = "11.0", cpp_extension = cx_29, cpp_extension_names = cxn_29 },
  { version = "2.11", python = { min = "3.10", max = "3.14" }, tag = "v2.11.0", released = "2026-03", cuda = { "12.6", "12.8", "12.9", "13.0" }, experimental = {},
    wheels = { ["linux-x86_64"] = { ["12.6"] = x_12, ["12.8"] = "7.5;8.0;8.6;9.0;10.0;12.0",  -- drops 7.0 [release]
                                    ["12.9"] = "7.5;8.0;8.6;9.0;10.0;12.0+PTX", ["13.0"] = x_13 },  -- [pt-cu129]
               ["linux-sbsa"] = { ["12.6"] = "8.0;9.0", ["12.8"] = "8.0;9.0;10.0;12.0", ["12.9"] = s_129p,
                                  ["13.0"] = s_13 } },
    gcc_min = "9.3", suffix_a = true, suffix_f = true, two_digit_major = true, thor = "11.0", cpp_extension = cx_29, cpp_extension_names = cxn_29 },
  -- 2.12: cu129 from 2.12.1 on [pt-matrix] [pt-cu129]
  { version = "2.12", python = { min = "3.10", max = "3.14" }, tag = "v2.12.1", released = "2026-05", cuda = { "12.6", "12.9", "13.0", "13.2" }, experimental = { "13.2" },
    wheels = { ["linux-x86_64"] = { ["12.6"] = x_12, ["12.9"] = x_129, ["13.0"] = x_13, ["13.2"] = x_13 },  -- [pt-envsetup] [pt-cu129]
               ["linux-sbsa"] = { ["12.6"] = "8.0;9.0", ["12.9"] = s_129, ["13.0"] = s_13, ["13.2"] = s_13 } },
    gcc_min = "9.3", suffix_a = true, suffix_f = true, two_digit_major = true, thor = "11.0", cpp_extension = cx_29, cpp_extension_names = cxn_29 },
  -- 2.13: C++17 -> C++20 [release]
  { version = "2.13", python = { min = "3.10", max = "3.15" }, tag = "v2.13.0", released = "2026-07", cuda = { "12.6", "12.9", "13.0", "13.2" }, experimental = { "13.2" },
    wheels = { ["linux-x86_64"] = { ["12.6"] = x_12, ["12.9"] = x_129, ["13.0"] = x_13, ["13.2"] = x_13 },  -- [pt-cu129] [pt-archlist]
               ["linux-sbsa"] = { ["12.6"] = "8.0;9.0", ["12.9"] = s_129, ["13.0"] = s_13, ["13.2"] = s_13 } },
    gcc_min = "9.3", suffix_a = true, suffix_f = true, two_digit_major = true, thor = "11.0", cpp_extension = cx_29, cpp_extension_names = cxn_29, cxx = "C++20",
    cuda_build_min = "12.1" },                                                               -- [pt-cudamin]
  { version = "2.14", python = { min = "3.10", max = "3.15" }, tag = "v2.14.1", released = "2026-09", cuda = { "12.6", "13.0", "13.2" }, experimental = {},
    wheels = { ["linux-x86_64"] = { ["12.6"] = x_12, ["13.0"] = x_13, ["13.2"] = x_13 },     -- [pt-cu129] [pt-archlist]
               ["linux-sbsa"] = { ["12.6"] = "8.0;9.0", ["13.0"] = s_13, ["13.2"] = s_13 } },
    gcc_min = "9.3", suffix_a = true, suffix_f = true, two_digit_major = true, thor = "11.0", cpp_extension = cx_214, cpp_extension_names = cxn_214, cxx = "C++20",
    cuda_build_min = "12.6" },                                                               -- [pt-cudamin]
  -- No 2.15 row: the sources read show release/2.15 (cut 2026-10-05) and
  -- its RC1 (2026-10-08) on the test channel, not a 2.15.0 release [pt215].
}

-- The cuDNN of each release's Linux wheels per wheel CUDA: the
-- nvidia-cudnn pin of generate_binary_build_matrix.py at the tag
-- [pt-matrix], and the same numbers in RELEASE.md's compatibility matrix
-- [release] (2.4-2.6 list one cuDNN for every CUDA of the release) but for
-- 2.11, whose RELEASE.md row predates the v2.11.0 pins [pt-cudnn211], and
-- the cu129 wheels, which RELEASE.md does not list.
local wheel_cudnn = {
  ["2.4"] = { ["11.8"] = "9.1.0.70", ["12.1"] = "9.1.0.70", ["12.4"] = "9.1.0.70" },
  ["2.5"] = { ["11.8"] = "9.1.0.70", ["12.1"] = "9.1.0.70", ["12.4"] = "9.1.0.70" },
  ["2.6"] = { ["11.8"] = "9.1.0.70", ["12.4"] = "9.1.0.70", ["12.6"] = "9.5.1.17" },
  ["2.7"] = { ["11.8"] = "9.1.0.70", ["12.6"] = "9.5.1.17", ["12.8"] = "9.7.1.26" },
  ["2.8"] = { ["12.6"] = "9.10.2.21", ["12.8"] = "9.10.2.21", ["12.9"] = "9.10.2.21" },
  ["2.9"] = { ["12.6"] = "9.10.2.21", ["12.8"] = "9.10.2.21", ["12.9"] = "9.10.2.21", ["13.0"] = "9.13.0.50" },
  ["2.10"] = { ["12.6"] = "9.10.2.21", ["12.8"] = "9.10.2.21", ["12.9"] = "9.10.2.21", ["13.0"] = "9.15.1.9" },
  -- 2.11: the v2.11.0 pins, not RELEASE.md's 9.17.1.4 for 12.8 and 13.0 [pt-cudnn211]
  ["2.11"] = { ["12.6"] = "9.10.2.21", ["12.8"] = "9.19.0.56", ["12.9"] = "9.17.1.4", ["13.0"] = "9.19.0.56" },
  ["2.12"] = { ["12.6"] = "9.10.2.21", ["12.9"] = "9.20.0.48", ["13.0"] = "9.20.0.48", ["13.2"] = "9.20.0.48" },
  ["2.13"] = { ["12.6"] = "9.10.2.21", ["12.9"] = "9.20.0.48", ["13.0"] = "9.20.0.48", ["13.2"] = "9.20.0.48" },
  -- 2.14's 9.24.0.43: no source read shows NVIDIA's redistrib_9.24.0.json
  -- whole [cudnn924], so data/redist.lua carries its Linux archives'
  -- sha256 alone, each with its sources [cudnn924-nv] [cudnn924-cf]
  -- (tools/data/redist/cudnn-archive-digests.csv); a 2.14 plan of CUDA 13
  -- takes it, a platform without a carried archive the newest manifest.
  ["2.14"] = { ["12.6"] = "9.10.2.21", ["13.0"] = "9.24.0.43", ["13.2"] = "9.24.0.43" },
}

return { releases = releases, wheel_cudnn = wheel_cudnn }
