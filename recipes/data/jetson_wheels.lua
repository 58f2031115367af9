-- Jetson: the PyTorch wheels NVIDIA and jetson-containers publish for each
-- JetPack (L4T release with the aarch64-jetson CUDA, L4T 32-36).  PyTorch
-- itself publishes none for these; from JetPack 7 (L4T 38, Thor; Orin from
-- L4T 39) the GPU runs the SBSA toolkit and PyTorch's own linux-sbsa wheels
-- (data/pytorch.lua) are the ones to check, as lib/wheels.lua does.
--
-- Sources (ids resolve in recipes/data/sources.lua):
--   [jc-torch]   dusty-nv/jetson-containers@dd206bf packages/ml/pytorch
--                config.py (JetPack 4: the 1.10 wheel, a download then a
--                pip install of the file, Dockerfile.wget)
--   [jc-pip]     the same @dd206bf packages/cuda/cuda/config.py pip_cache:
--                the pip index is https://pypi.jetson-ai-lab.io/jp<JetPack
--                major>/cu<CUDA> on an L4T Jetson; install.sh then runs
--                pip install torch==<version> against it
--   [jc-arch]    the same @dd206bf jetson_containers/l4t_version.py:
--                get_cuda_arch (TORCH_CUDA_ARCH_LIST the wheels are built
--                with: L4T 36 8.7; L4T 34-35 7.2 8.7; L4T 32 5.3 6.2 7.2),
--                get_lsb_release and DEFAULT_PYTHON_VERSIONS (L4T 32
--                Ubuntu 18.04 Python 3.6; 34-35 20.04 3.8; 36 22.04 3.10)
--   [jc-torch-2401] the same @0b3d071b packages/pytorch/config.py: NVIDIA's
--                JetPack 5 wheels (v512 2.1, 2.0, v50 1.13 and 1.12) for
--                every L4T 35
--   [nv-forum-torch] NVIDIA's "PyTorch for Jetson" forum topic (72048):
--                wheels per JetPack with the L4T releases each names
--   [nv-forum-jp61] NVIDIA's answer in forum topic 318629: 2.4.0, 2.5.0
--                and 2.6.0rc1 at pypi.jetson-ai-lab.dev/jp6/cu126 for
--                JetPack 6.1
--   [jal-files]  torch wheel files on pypi.jetson-ai-lab.io/jp6/cu126
--                (2.7.0, 2.8.0, 2.9.1, each with its sha256) named in public
--                install scripts
--   [jal-files-211] torch 2.10.0 and 2.11.0 wheel files on the same index
--                (2.10.0 with its sha256), named in public setup scripts
--   [jal-cudss]  public Jetson setup scripts and notes: the jp6/cu126
--                wheels from torch 2.8 on (2.8.0, 2.9.1, 2.10.0, 2.11.0)
--                need libcudss.so.0, which JetPack 6 does not ship, and the
--                fix (nvidia-cudss-cu12 with --no-deps, its lib folder on the
--                loader path)
--   [jc-cudss]   jetson-containers' PyTorch builds depend on cuDSS from
--                2025-08-08 (after torch 2.7.0) and its NVIDIA .deb route
--   [nv-redist-jp6] NVIDIA's wheels under
--                developer.download.nvidia.com/compute/redist/jp/v60 and v61
--                as public install scripts name them, and which L4T each is for
-- arch: the TORCH_CUDA_ARCH_LIST of jetson-containers' builds [jc-arch].
-- NVIDIA's own redist wheels state none that ptbuild read; they are taken
-- to carry the same modules (those the JetPack supports), which is what
-- NVIDIA builds them for [nv-forum-torch].
-- Not here, because no source read shows the wheel file: jp6/cu126 wheels
-- of torch 2.12 and 2.13 (jetson-containers lists those versions and builds
-- them when the pip server lacks them), JetPack 6.0's jp6/cu122 index, and
-- the pre-2.0 JetPack 4 wheels older than 1.10.

local M = {}

-- Per JetPack major: the Python of its Ubuntu and the arch list [jc-arch]
M.python = { ["4"] = "3.6", ["5"] = "3.8", ["6"] = "3.10" }
M.arch = { ["4"] = "5.3;6.2;7.2", ["5"] = "7.2;8.7", ["6"] = "8.7" }

-- Whose wheels a row's address serves, by its host, for the words that
-- set them apart from PyTorch's own on download.pytorch.org: the Jetson AI
-- Lab pip index [jc-pip], where NVIDIA provides its JetPack 6 builds
-- [nv-forum-jp61]; NVIDIA's redist [nv-redist-jp6] and its forum's box.com
-- links [nv-forum-torch].
M.publisher = {
  ["pypi.jetson-ai-lab.io"] = "the Jetson AI Lab's",
  ["developer.download.nvidia.com"] = "NVIDIA's",
  ["nvidia.box.com"] = "NVIDIA's",
}

local JAL6 = "https://pypi.jetson-ai-lab.io/jp6/cu126"          -- [jc-pip]
local NV = "https://developer.download.nvidia.com/compute/redist/jp"
local BOX = "https://nvidia.box.com/shared/static/"

-- What a row's needs names: a library the wheel links that its JetPack
-- does not ship, and how it is installed.  cuDSS: the jp6/cu126 wheels
-- from torch 2.8 on link libcudss.so.0 and import torch fails without it
-- [jal-cudss]; pip's nvidia-cudss-cu12 with --no-deps (its dependencies
-- bring pip's cuBLAS 12.9, which shadows JetPack's 12.6: cublasCreate
-- fails) from the same index, its library in site-packages/nvidia/cu12/lib
-- (nvidia/cudss/lib in older cuDSS wheels), which is off the loader path
-- until LD_LIBRARY_PATH (or ldconfig) names it [jal-cudss]; or NVIDIA's
-- cudss-local-tegra-repo .deb and apt-get install cudss [jc-cudss].
-- torch 2.7.0 predates jetson-containers' cuDSS dependency [jc-cudss].
M.needs = {
  cudss = {
    name = "cuDSS", lib = "libcudss.so.0", pip = "nvidia-cudss-cu12", index = JAL6,
    dirs = { "nvidia/cu12/lib", "nvidia/cudss/lib" },
    fails = "libcudss.so.0: cannot open shared object file",
    nodeps = "else pip's cuBLAS 12.9, which its dependencies bring, shadows JetPack's cuBLAS 12.6 and cublasCreate fails",
    deb = "cudss-local-tegra-repo",
  },
}

-- Rows, newest torch first within a JetPack.  jetpack: the JetPack
-- major.minor releases it is for; torch: its PyTorch minor; pip: the
-- version pip installs; index: a pip index (pip install torch==<pip>
-- --index-url <index>); url: a wheel file (pip install <url>); download:
-- a file whose address does not end in the wheel's name (fetched to
-- <file> first); needs: what else it needs installed (M.needs).
M.wheels = {
  -- JetPack 6.1 and 6.2 (L4T 36.4.x), CUDA 12.6
  { jetpack = { "6.1", "6.2" }, torch = "2.11", pip = "2.11.0", cuda = "12.6", index = JAL6, needs = { "cudss" } }, -- [jal-files-211] [jal-cudss]
  { jetpack = { "6.1", "6.2" }, torch = "2.10", pip = "2.10.0", cuda = "12.6", index = JAL6, needs = { "cudss" } }, -- [jal-files-211] [jal-cudss]
  { jetpack = { "6.1", "6.2" }, torch = "2.9", pip = "2.9.1", cuda = "12.6", index = JAL6, needs = { "cudss" } }, -- [jal-files] [jal-cudss]
  { jetpack = { "6.1", "6.2" }, torch = "2.8", pip = "2.8.0", cuda = "12.6", index = JAL6, needs = { "cudss" } }, -- [jal-files] [jal-cudss]
  { jetpack = { "6.1", "6.2" }, torch = "2.7", pip = "2.7.0", cuda = "12.6", index = JAL6 },     -- [jal-files] (no cuDSS [jc-cudss])
  { jetpack = { "6.1", "6.2" }, torch = "2.6", pip = "2.6.0rc1", cuda = "12.6", index = JAL6 },  -- [nv-forum-jp61]
  { jetpack = { "6.1", "6.2" }, torch = "2.5", pip = "2.5.0", cuda = "12.6", index = JAL6 },     -- [nv-forum-jp61]
  { jetpack = { "6.1", "6.2" }, torch = "2.4", pip = "2.4.0", cuda = "12.6", index = JAL6 },     -- [nv-forum-jp61]
  -- NVIDIA's own JetPack 6.1 wheel (L4T 36.4.x) [nv-redist-jp6]
  { jetpack = { "6.1", "6.2" }, torch = "2.5", pip = "2.5.0a0+872d972e41.nv24.08.17622132", cuda = "12.6",
    url = NV .. "/v61/pytorch/torch-2.5.0a0+872d972e41.nv24.08.17622132-cp310-cp310-linux_aarch64.whl" },
  -- JetPack 6.0 (L4T 36.2, 36.3), CUDA 12.2 [nv-redist-jp6]
  { jetpack = { "6.0" }, torch = "2.4", pip = "2.4.0a0+07cecf4168.nv24.05.14710581", cuda = "12.2",
    url = NV .. "/v60/pytorch/torch-2.4.0a0+07cecf4168.nv24.05.14710581-cp310-cp310-linux_aarch64.whl" },
  -- JetPack 5.1.x (L4T 35.2.1 on), CUDA 11.4 [jc-torch-2401] [nv-forum-torch]
  { jetpack = { "5.1" }, torch = "2.1", pip = "2.1.0a0+41361538.nv23.06", cuda = "11.4",
    url = NV .. "/v512/pytorch/torch-2.1.0a0+41361538.nv23.06-cp38-cp38-linux_aarch64.whl" },
  { jetpack = { "5.1" }, torch = "2.0", pip = "2.0.0+nv23.05", cuda = "11.4",
    download = BOX .. "i8pukc49h3lhak4kkn67tg9j4goqm0m7.whl", file = "torch-2.0.0+nv23.05-cp38-cp38-linux_aarch64.whl" },
  -- JetPack 5.0.2 and 5.1.x (L4T 35), CUDA 11.4 [jc-torch-2401] [nv-forum-torch]
  { jetpack = { "5.0", "5.1" }, torch = "1.13", pip = "1.13.0a0+340c4120.nv22.06", cuda = "11.4",
    url = NV .. "/v50/pytorch/torch-1.13.0a0+340c4120.nv22.06-cp38-cp38-linux_aarch64.whl" },
  { jetpack = { "5.0", "5.1" }, torch = "1.12", pip = "1.12.0a0+8a1a93a9.nv22.5", cuda = "11.4",
    url = NV .. "/v50/pytorch/torch-1.12.0a0+8a1a93a9.nv22.5-cp38-cp38-linux_aarch64.whl" },
  -- JetPack 4.6.x (L4T 32.7), CUDA 10.2 [jc-torch] [nv-forum-torch]
  { jetpack = { "4.6" }, torch = "1.10", pip = "1.10.0", cuda = "10.2",
    download = BOX .. "fjtbno0vpo676a25cgvuqc1wty0fkkg6.whl", file = "torch-1.10.0-cp36-cp36m-linux_aarch64.whl" },
}

return M
