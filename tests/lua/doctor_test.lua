-- doctor_test.lua - every doctor check: a case that raises it, and the clean
-- machine that raises nothing.
local t = ptb.include("tap")
local doctor = ptb.include("doctor")

local function copy(x)
  if type(x) ~= "table" then return x end
  local o = {}
  for k, v in pairs(x) do o[k] = copy(v) end
  return o
end

-- A healthy x86 workstation: RTX 4090, driver 570, CUDA 12.8 everywhere.
local clean_facts = {
  schema = "ptbuild.facts/1",
  host = { arch = "x86_64", platform = "x86_64", page_size = 4096, memory_mib = 65536,
           cpu = { cores = 16 } },
  driver = { version = "570.86.10", cuda_max = "12.8" },
  gpus = { { index = 0, name = "NVIDIA GeForce RTX 4090", compute_capability = "8.9", source = "nvml" } },
  toolkits = { { root = "/usr/local/cuda-12.8", version = "12.8.93" } },
  compilers = { { name = "gcc", version = "12.3.0", path = "/usr/bin/gcc" },
                { name = "g++", version = "12.3.0", path = "/usr/bin/g++" } },
}
local tk = { root = "/usr/local/cuda-12.8", version = "12.8.93", gcc_max = 14,
             targets = { "x86_64-linux" }, nvcc_machine = "x86_64",
             cudnn_header = { version = "9.7.0", path = "/usr/local/cuda-12.8/include/cudnn_version.h" } }
local clean_obs = {
  env = { PATH = "/usr/local/cuda-12.8/bin:/usr/bin", CUDA_HOME = "/usr/local/cuda-12.8",
          TORCH_CUDA_ARCH_LIST = "8.9", MAX_JOBS = "8" },
  cuda_home = copy(tk),
  nvcc_on_path = { copy(tk) },
  usr_local_cuda = copy(tk),
  libs = {
    { lib = "libcuda", name = "libcuda.so.1", path = "/usr/lib/x86_64-linux-gnu/libcuda.so.1",
      version = "570.86.10", via = "default", compat = false },
    { lib = "libcudnn", name = "libcudnn.so.9", path = "/usr/local/cuda-12.8/lib64/libcudnn.so.9",
      version = "9.7.0", via = "LD_LIBRARY_PATH", compat = false },
    { lib = "libcudart", name = "libcudart.so.12", path = "/usr/local/cuda-12.8/lib64/libcudart.so.12",
      real = "/usr/local/cuda-12.8/lib64/libcudart.so.12.8.90", version = "12.8.90", via = "LD_LIBRARY_PATH", compat = false },
  },
  pip_nvidia = {}, torch = {},
  container = { inside = false, gpu_devices = true },
  binfmt_qemu = {}, cpuinfo_kind = "x86",
}

-- src: the PyTorch checkout doctor runs in (probe_source.c's
-- observation), or nil
local function run(facts, obs, src)
  return doctor.check({ facts = facts, observed = obs, source = src })
end

-- A checkout of PyTorch `version` (version.txt) with submodules (path,
-- state) all checked out unless given.
local function checkout(version, subs)
  return { path = "/src/pytorch", version = version, git = true, gitmodules = true,
           submodules = subs or { { path = "third_party/pybind11", state = "ok" }, { path = "third_party/cpuinfo", state = "ok" } } }
end

-- The toolkit in use (CUDA_HOME, PATH, /usr/local/cuda alike) at version.
local function toolkit_at(o, version)
  for _, x in ipairs({ o.cuda_home, o.nvcc_on_path[1], o.usr_local_cuda }) do x.version = version end
end

local function codes(res)
  local out = {}
  for _, f in ipairs(res.findings) do out[#out + 1] = f.code end
  return table.concat(out, " ")
end

local base = run(clean_facts, clean_obs)
t.is(codes(base), "", "a healthy workstation raises nothing")
t.is(base.toolkit.root, "/usr/local/cuda-12.8", "the toolkit in use is CUDA_HOME's")
t.ok(base.checks >= 15, "at least 15 checks (" .. base.checks .. ")")

-- { code, mutate(facts, observed), pattern the message must have, severity }
-- A Jetson AGX Thor on JetPack (l4t: its L4T, or none) whose toolkit,
-- on every path doctor looks at, is SBSA CUDA `version` for aarch64.
local function thor(f, o, version, l4t)
  f.host = { arch = "aarch64", platform = "jetson", page_size = 4096, memory_mib = 125772, cpu = { cores = 14 } }
  f.gpus = { { index = 0, name = "NVIDIA Thor", compute_capability = "11.0" } }
  f.driver = { version = "580.00", cuda_max = "13.0" }
  if l4t then f.jetson = { l4t = l4t, module = "Jetson AGX Thor Developer Kit" } end
  o.env.TORCH_CUDA_ARCH_LIST = nil
  for _, x in ipairs({ o.cuda_home, o.nvcc_on_path[1], o.usr_local_cuda }) do
    x.version = version; x.nvcc_machine = "aarch64"; x.targets = { "sbsa-linux" }
  end
end

local cases = {
  { "driver-too-old", function(f) f.driver = { version = "535.104.05", cuda_max = "12.2" } end,
    "driver 535.104.05.*only through minor%-version compatibility", "warning" },
  { "driver-too-old", function(f, o)
      f.driver = { version = "470.82.01", cuda_max = "11.4" }
      f.gpus[1] = { index = 0, name = "NVIDIA GeForce RTX 3090", compute_capability = "8.6" }
      o.env.TORCH_CUDA_ARCH_LIST = "8.6" end,
    "too old for CUDA 12.8.*nvidia%-smi's \"CUDA Version: 11.4\" is the newest CUDA this driver runs", "error" },
  -- from r610 nvidia-smi prints its ceiling as "CUDA UMD Version" [smi-umd]:
  -- the message names the header this driver prints
  { "driver-too-old", function(f, o)
      f.driver = { version = "610.43.02", cuda_max = "13.3" }
      f.toolkits[1].version = "13.4.92"
      o.cuda_home.version, o.usr_local_cuda.version, o.nvcc_on_path[1].version = "13.4.92", "13.4.92", "13.4.92"
    end,
    "driver 610%.43%.02 is older than CUDA 13%.4.*nvidia%-smi's \"CUDA UMD Version: 13%.3\" is the newest CUDA this driver runs", "warning" },
  -- a driver older than the GPU (Ada: CUDA 11.8, R520) runs nothing on it
  { "driver-too-old", function(f) f.driver = { version = "470.82.01", cuda_max = "11.4" } end,
    "driver 470%.82%.01 %(CUDA 11%.4 at most%) predates the NVIDIA GeForce RTX 4090 %(compute capability 8%.9, first built by CUDA 11%.8%)", "error" },
  { "driver-library-mismatch", function(f, o) o.libs[1].version = "570.124.06" end,
    "kernel module is 570.86.10 but user%-space libcuda is 570.124.06", "error" },
  { "torch-lacks-gpu", function(f, o)
      o.torch = { { version = "2.5.1+cu124", site = "/usr/lib/python3/dist-packages",
                    libtorch_cuda = "/x/libtorch_cuda.so", archs = { sass = { "5.0", "8.0", "9.0" }, ptx = {} } } }
      f.gpus[1] = { index = 0, name = "NVIDIA GeForce RTX 5090", compute_capability = "12.0" } end,
    "torch 2.5.1%+cu124 has no code for NVIDIA GeForce RTX 5090", "error" },
  { "torch-gpu-ptx-only", function(f, o)
      o.torch = { { version = "2.6.0+debian", site = "/usr/lib/python3/dist-packages", cuda = "12.4",
                    libtorch_cuda = "/x/libtorch_cuda.so", archs = { sass = { "8.6", "9.0" }, ptx = { "9.0" } } } }
      f.gpus[1] = { index = 0, name = "NVIDIA GeForce RTX 5090", compute_capability = "12.0" } end,
    "torch 2.6.0%+debian has no SASS for NVIDIA GeForce RTX 5090.*PTX %(9.0%)", "warning" },
  { "torch-driver-too-old", function(f, o)
      o.torch = { { version = "2.6.0+debian", site = "/usr/lib/python3/dist-packages", cuda = "12.4" } }
      f.driver = { version = "470.256.02", cuda_max = "11.4" } end,
    "driver 470.256.02 is too old for the CUDA 12.4 the installed torch 2.6.0%+debian", "error" },
  { "torch-cudart-mismatch", function(f, o)
      o.torch = { { version = "2.6.0+debian", site = "/usr/lib/python3/dist-packages", cuda = "12.4" } }
      o.libs[#o.libs + 1] = { lib = "libcudart", name = "libcudart.so.13", path = "/opt/c13/lib64/libcudart.so.13",
                              version = "13.0.96", via = "LD_LIBRARY_PATH" } end,
    "LD_LIBRARY_PATH puts libcudart 13.0.96 first, but the installed torch 2.6.0%+debian was built with CUDA 12.4", "error" },
  { "arch-list-missing-gpu", function(f, o) o.env.TORCH_CUDA_ARCH_LIST = "7.5;9.0" end,
    "no code for NVIDIA GeForce RTX 4090 %(compute capability 8.9%)", "error" },
  { "arch-list-invalid", function(f, o) o.env.TORCH_CUDA_ARCH_LIST = "8.9;3.5" end,
    "CUDA 12.8 does not build sm_35", "error" },
  { "arch-list-invalid", function(f, o) o.env.TORCH_CUDA_ARCH_LIST = "8.9,9.0" end,
    "unknown architecture '8.9,9.0'", "error" },
  { "toolkit-drops-gpu", function(f, o)
      f.gpus[1] = { index = 0, name = "NVIDIA GeForce GTX 1080", compute_capability = "6.1" }
      o.env.TORCH_CUDA_ARCH_LIST = nil
      for _, x in ipairs({ o.cuda_home, o.nvcc_on_path[1], o.usr_local_cuda }) do x.version = "13.0.88" end
      f.driver = { version = "580.65.06", cuda_max = "13.0" } end,
    "CUDA 13.0 cannot build for NVIDIA GeForce GTX 1080.*compute_61", "error" },
  { "gpu-newer-than-toolkit", function(f, o)
      f.gpus[1] = { index = 0, name = "NVIDIA GeForce RTX 5090", compute_capability = "12.0" }
      o.env.TORCH_CUDA_ARCH_LIST = nil
      for _, x in ipairs({ o.cuda_home, o.nvcc_on_path[1], o.usr_local_cuda }) do x.version = "12.6.85" end end,
    "RTX 5090 %(compute capability 12.0%) is newer than CUDA 12.6", "error" },
  { "jetson-thor-needs-cuda-13", function(f, o) thor(f, o, "12.9.86") end,
    "CUDA 12%.9 does not build for Jetson Thor %(GPU 11%.0%).*knows it only as sm_101", "error" },
  -- JetPack 7.0's driver runs CUDA 13.0 alone [tegra-upgrade]
  { "jetpack-too-old-for-cuda", function(f, o) thor(f, o, "13.1.115", "38.2.0") end,
    "CUDA 13%.1 will not run on this Jetson's JetPack 7%.0 %(L4T 38%.2%.0%): its driver is CUDA 13%.0's", "error" },
  { "gcc-too-new", function(f, o)
      f.compilers = { { name = "gcc", version = "15.1.0", path = "/usr/bin/gcc" },
                      { name = "g++", version = "13.3.0", path = "/usr/bin/g++-13" } } end,
    "gcc 15.1.0 does not work with CUDA 12.8.93's nvcc: newer than nvcc 12.8 accepts %(gcc 14 at most", "error" },
  -- clang as CUDAHOSTCXX: 13.0 refuses clang 21 [spack-cuda] [nvcc13]
  { "gcc-too-new", function(f, o)
      f.compilers = { { name = "clang++", version = "21.1.0", path = "/usr/bin/clang++-21" },
                      { name = "g++", version = "13.3.0", path = "/usr/bin/g++-13" } }
      o.env.CUDAHOSTCXX = "/usr/bin/clang++-21"
      for _, x in ipairs({ o.cuda_home, o.nvcc_on_path[1], o.usr_local_cuda }) do x.version = "13.0.88" end end,
    "clang 21.1.0 does not work with CUDA 13.0.88's nvcc: newer than nvcc 13.0 accepts %(clang 20 at most", "error" },
  -- Ubuntu 20.04's python3 3.8: PyTorch 2.14's setup.py wants 3.10
  -- [pt-setup]; 2.4 is the last release for 3.8 [pt-python]
  { "python-too-old", function(f, o)
      f.python = { version = "3.8", path = "/usr/bin/python3", real = "/usr/bin/python3.8", from = "PATH" } end,
    "python3 3.8 is older than PyTorch 2.14 .*Python >=3.10 is required.*; PyTorch 2.4 is the newest release that still takes Python 3.8", "warning" },
  { "mixed-cuda-installs", function(f, o)
      o.nvcc_on_path[1] = { root = "/usr/local/cuda-11.8", version = "11.8.89", nvcc = "/usr/local/cuda-11.8/bin/nvcc" } end,
    "name different toolkits", "error" },
  { "mixed-cuda-installs", function(f, o)
      o.libs[3].real = "/usr/local/cuda-12.1/lib64/libcudart.so.12.1.105" end,
    "LD_LIBRARY_PATH loads libcudart from another CUDA install", "error" },
  { "conda-cuda-shadow", function(f, o)
      o.conda = { prefix = "/opt/conda/envs/pt", packages = { { name = "cudatoolkit", version = "11.8.0" } } } end,
    "conda environment carries CUDA 11.8.0", "warning" },
  { "openblas-missing", function(f, o) f.host.arch = "aarch64"; f.host.platform = "sbsa"
      for _, x in ipairs({ o.cuda_home, o.nvcc_on_path[1], o.usr_local_cuda }) do x.nvcc_machine = "aarch64"; x.targets = { "sbsa-linux" } end end,
    "libopenblas.so.0 is not on the loader path", "warning" },
  { "cudnn-mismatch", function(f, o) o.libs[2].version = "8.9.7" end,
    "cuDNN header says 9.7.0 but the loader finds libcudnn 8.9.7", "error" },
  { "foreign-binary", function(f, o) o.cuda_home.nvcc_machine = "aarch64" end,
    "nvcc is an aarch64 program on an x86_64 host", "error" },
  { "sbsa-toolkit-on-jetson", function(f, o)
      f.host = { arch = "aarch64", platform = "jetson", page_size = 4096, memory_mib = 65536, cpu = { cores = 12 } }
      f.gpus = { { index = 0, name = "Orin", compute_capability = "8.7", source = "soc" } }
      f.driver = nil
      o.env.TORCH_CUDA_ARCH_LIST = "8.7"
      for _, x in ipairs({ o.cuda_home, o.nvcc_on_path[1], o.usr_local_cuda }) do x.nvcc_machine = "aarch64"; x.targets = { "sbsa-linux" } end
      o.libs = { { lib = "libopenblas", path = "/usr/lib/aarch64-linux-gnu/libopenblas.so.0", via = "default", compat = false } } end,
    "SBSA %(ARM server%) CUDA toolkit is installed on a Jetson", "error" },
  -- an SBSA CUDA 13.4 on an Orin still on JetPack 6.2: the JetPack 7.2
  -- route plan names (lib/checks.lua orin_sbsa_route)
  { "jetson-orin-needs-cuda-13.2", function(f, o)
      f.host = { arch = "aarch64", platform = "jetson", page_size = 4096, memory_mib = 65536, cpu = { cores = 12 } }
      f.gpus = { { index = 0, name = "Orin", compute_capability = "8.7", source = "soc" } }
      f.driver = nil
      f.jetson = { l4t = "36.4.3", module = "Jetson AGX Orin 64GB" }
      o.env.TORCH_CUDA_ARCH_LIST = "8.7"
      for _, x in ipairs({ o.cuda_home, o.nvcc_on_path[1], o.usr_local_cuda }) do
        x.version = "13.4.0"; x.nvcc_machine = "aarch64"; x.targets = { "sbsa-linux" }
      end end,
    "%(GPU 8%.7, L4T 36%.4%.3%) reaches CUDA 13 only through the SBSA toolkit, from CUDA 13%.2 with JetPack 7%.2", "error" },
  -- an SBSA CUDA 13.0 on a Xavier: no JetPack 7 has a release for it,
  -- so no 13.2 runs there either (its own code, not the Orin's)
  { "jetson-module-too-old-for-cuda", function(f, o)
      f.host = { arch = "aarch64", platform = "jetson", page_size = 4096, memory_mib = 32768, cpu = { cores = 8 } }
      f.gpus = { { index = 0, name = "Xavier", compute_capability = "7.2", source = "soc" } }
      f.driver = nil
      f.jetson = { l4t = "35.6.5", module = "Jetson AGX Xavier" }
      o.env.TORCH_CUDA_ARCH_LIST = "7.2"
      for _, x in ipairs({ o.cuda_home, o.nvcc_on_path[1], o.usr_local_cuda }) do
        x.version = "13.0.48"; x.nvcc_machine = "aarch64"; x.targets = { "sbsa-linux" }
      end end,
    "%(Jetson Xavier, GPU 7%.2, L4T 35%.6%.5%) runs no SBSA CUDA", "error" },
  { "jetson-toolkit-on-server", function(f, o)
      f.host.arch = "aarch64"; f.host.platform = "sbsa"
      for _, x in ipairs({ o.cuda_home, o.nvcc_on_path[1], o.usr_local_cuda }) do x.nvcc_machine = "aarch64"; x.targets = { "aarch64-linux" } end
      o.libs[#o.libs + 1] = { lib = "libopenblas", path = "/usr/lib/aarch64-linux-gnu/libopenblas.so.0", via = "default", compat = false } end,
    "Jetson %(L4T, aarch64%-linux%) CUDA toolkit is installed on an ARM server", "error" },
  { "toolkit-wrong-platform", function(f, o)
      for _, x in ipairs({ o.cuda_home, o.nvcc_on_path[1], o.usr_local_cuda }) do x.targets = { "sbsa-linux" } end end,
    "/usr/local/cuda%-12.8 is a linux%-sbsa build; this machine needs linux%-x86_64", "error" },
  { "forward-compat-unsupported", function(f, o)
      table.insert(o.libs, 1, { lib = "libcuda", path = "/usr/local/cuda-12.8/compat/libcuda.so.1", version = "570.124.06",
        via = "LD_LIBRARY_PATH", compat = true }) end,
    "RTX 4090 %(a workstation/consumer GPU%) does not support forward compatibility.*804", "error" },
  { "docker-build-no-arch-list", function(f, o)
      f.driver = nil; f.gpus = {}; o.env.TORCH_CUDA_ARCH_LIST = nil
      o.container = { inside = true, gpu_devices = false } end,
    "Automatic GPU detection failed", "error" },
  { "jetson-container-no-gpu", function(f, o)
      f.host.arch = "aarch64"; f.host.platform = "jetson"; f.driver = nil
      f.gpus = { { index = 0, name = "Orin", compute_capability = "8.7", source = "device-tree compatible tegra234" } }
      f.jetson = { l4t = "35.6.0", jetpack = "5.1.4" }
      o.container = { inside = true, marker = "/.dockerenv", gpu_devices = false, devices = {} } end,
    "on a Jetson %(L4T 35%.6%.0, JetPack 5%.1%.4%) given none of the GPU's device nodes", "warning" },
  { "qemu-emulation", function(f, o)
      f.host.arch = "aarch64"; f.host.platform = "sbsa"; o.cpuinfo_kind = "x86"
      for _, x in ipairs({ o.cuda_home, o.nvcc_on_path[1], o.usr_local_cuda }) do x.nvcc_machine = "aarch64"; x.targets = { "sbsa-linux" } end
      o.libs[#o.libs + 1] = { lib = "libopenblas", path = "/usr/lib/aarch64-linux-gnu/libopenblas.so.0", via = "default", compat = false } end,
    "runs under QEMU emulation", "error" },
  { "qemu-emulation", function(f, o) o.binfmt_qemu = { "qemu-aarch64" } end,
    "qemu%-aarch64 is registered in binfmt_misc", "warning" },
  { "pip-cuda-majors-mixed", function(f, o)
      o.pip_nvidia = { { dist_info = "nvidia_cudnn_cu11-8.5.0.96.dist-info", cuda_major = 11 },
                       { dist_info = "nvidia_cudnn_cu12-9.1.0.70.dist-info", cuda_major = 12 } } end,
    "several CUDA majors are installed side by side %(cu11, cu12%)", "error" },
  { "cuda-home-unset", function(f, o) o.env.CUDA_HOME = nil; o.cuda_home = nil; o.usr_local_cuda = nil
      o.nvcc_on_path[1].nvcc = "/opt/cuda/bin/nvcc" end,
    "CUDA_HOME and CUDA_PATH are unset", "warning" },
  { "max-jobs-too-high", function(f, o) o.env.MAX_JOBS = "32" end,
    "MAX_JOBS=32 with 65536 MiB", "warning" },
  { "max-jobs-too-high", function(f, o) o.env.MAX_JOBS = nil; f.host.memory_mib = 16384 end,
    "MAX_JOBS unset, so one job per core %(16%)", "warning" },
  { "no-driver", function(f, o) f.driver = nil; f.gpus = {} end,
    "no NVIDIA driver and no GPU found", "warning" },
  -- a Thor whose L4T says JetPack 7.2 while its driver reports CUDA 13.0,
  -- with CUDA 12.8 in use, which that driver runs directly
  { "jetson-facts-disagree", function(f, o) f.host.arch = "aarch64"; f.host.platform = "jetson"
      f.jetson = { l4t = "39.2.0", module = "Jetson AGX Thor" }; f.driver = { version = "580.00", cuda_max = "13.0" } end,
    "the facts disagree: L4T 39%.2%.0 is JetPack 7%.2, whose driver is CUDA 13%.2's.*reports CUDA 13%.0 at most.*CUDA 12%.8 runs here directly", "warning" },
  -- CUDA 13.5's GPU list and compiler limits are copies of 13.4's
  -- (data/cuda.lua assumed): a 13.5 toolkit in use says so, as plan does
  { "cuda-data-assumed", function(f, o) f.toolkits[1].version = "13.5.40"
      for _, x in ipairs({ o.cuda_home, o.nvcc_on_path[1], o.usr_local_cuda }) do x.version = "13.5.40" end end,
    "the GPU list and host compiler limits of CUDA 13%.5 are assumed equal to those of CUDA 13%.4", "warning" },
  -- a toolkit of a release newer than the tables, judged by its own
  -- nvcc's GPU list (detect's toolkits[].gpu_list): what is unknown, and
  -- the minor-version compatibility floor of CUDA 13 (plan's words)
  { "cuda-release-unknown", function(f, o) toolkit_at(o, "13.6.20")
      f.toolkits[1].version = "13.6.20"
      f.toolkits[1].gpu_list = { from = "nvcc", nvcc = "/usr/local/cuda-12.8/bin/nvcc",
                                 arch = { "compute_89", "compute_90" }, code = { "sm_89", "sm_90" } }
      f.driver = { version = "580.65.06", cuda_max = "13.0" } end,
    "CUDA 13%.6 in /usr/local/cuda%-12%.8 %(13%.6%.20%) is newer than ptbuild's tables, which stop at CUDA 13%.5: .*does not know its driver minimum, its clang limit or whether PyTorch 2%.14 supports it.*a driver of 580%.65%.06 or newer runs CUDA 13%.6 through minor%-version compatibility only.*gcc 14 at most", "warning" },
  -- a GPU ptbuild knows no compute capability of: the GPU checks pass it
  -- over, so doctor names it and how to learn its compute capability
  { "gpu-unknown", function(f) f.gpus = { { index = 0, name = "NVIDIA Graphics Device",
      source = "/proc/driver/nvidia/gpus/0000:01:00.0/information" } } end,
    "compute capability of the 'NVIDIA Graphics Device' %(GPU 0%): doctor cannot check that CUDA 12%.8 builds it", "warning" },
  { "page-size-64k", function(f) f.host.page_size = 65536 end,
    "64 KiB pages", "warning" },
  { "no-toolkit", function(f, o) o.cuda_home = nil; o.nvcc_on_path = {}; o.usr_local_cuda = nil; f.toolkits = {}
      o.env.CUDA_HOME = nil end,
    "no CUDA toolkit found", "warning" },
  -- in a PyTorch checkout: a submodule left empty, setup.py's stop
  -- [pt-submodules]; the release's CMake minimum and wheel CUDAs
  -- [pt-cudamin] [release]; a Python past its wheels' range [pt-python]
  { "source-submodules-missing", function(f, o)
      return checkout("2.14.0a0", { { path = "third_party/pybind11", state = "empty" }, { path = "third_party/cpuinfo", state = "ok" } }) end,
    "1 of the 2 git submodules .*Could not find any of CMakeLists.txt, Makefile, setup.py, LICENSE, LICENSE.md, LICENSE.txt in /src/pytorch/third_party/pybind11", "error" },
  -- USE_SYSTEM_LIBS that str2bool cannot read: setup.py raises
  -- [pt-submodules]
  { "source-use-system-libs-invalid", function(f, o)
      local s = checkout("2.14.0a0"); s.use_system_libs = " Maybe "; return s end,
    "USE_SYSTEM_LIBS=' Maybe ' is neither true nor false to PyTorch 2.14's setup.py: it stops with \"ValueError: Invalid string value for boolean conversion: maybe\"", "error" },
  -- found as the working directory, its version.txt no version: the
  -- probe's observation, judged as a warning
  { "source-version-unreadable", function(f, o)
      return { path = "/src/pytorch", version_error = "'/src/pytorch/version.txt' reads 'main': expected a PyTorch version such as 2.14.0a0",
               version_hint = "restore it from the checkout" } end,
    "the working directory /src/pytorch looks like a PyTorch checkout, but '/src/pytorch/version.txt' reads 'main'", "warning" },
  { "torch-cuda-unsupported", function(f, o) toolkit_at(o, "12.4.131"); return checkout("2.14.0a0") end,
    "PyTorch 2.14 %(the checkout in /src/pytorch%) does not build with CUDA 12.4, the toolkit in use: its CMake stops with \"PyTorch requires CUDA 12.6 or above.\"", "error" },
  { "torch-cuda-untested", function(f, o) return checkout("2.14.1") end,
    "ships no CUDA 12.8 wheels: PyTorch's CI built and tested it with CUDA 12.6, 13.0, 13.2 only", "warning" },
  { "python-too-new", function(f, o)
      f.python = { version = "3.16.0", path = "/usr/bin/python3", from = "PATH" } end,
    "python3 3.16 is newer than PyTorch 2.14 builds with %(Python 3.10%-3.15%): its C%+%+ does not compile.*%(judged against the newest release ptbuild knows%)", "warning" },
  { "python-too-new", function(f, o)
      f.python = { version = "3.13.1", path = "/usr/bin/python3", from = "PATH" }; return checkout("2.4.0") end,
    "python3 3.13 is newer than PyTorch 2.4 builds with %(Python 3.8%-3.12%).*%(judged against the checkout in /src/pytorch%); PyTorch 2.5 is the first release that builds with Python 3.13", "error" },
}

local raised = {}
for _, c in ipairs(cases) do
  local f, o = copy(clean_facts), copy(clean_obs)
  local res = run(f, o, c[2](f, o))
  local hit
  for _, x in ipairs(res.findings) do
    if x.code == c[1] then hit = x break end
  end
  t.ok(hit ~= nil, c[1] .. " is raised (got: " .. codes(res) .. ")")
  t.like(hit and hit.message, c[3], c[1] .. ": message names what was seen")
  t.is(hit and hit.severity, c[4], c[1] .. ": severity " .. c[4])
  t.ok(hit and hit.fix and #hit.fix > 0 and hit.seen and #hit.seen > 0, c[1] .. ": has seen and fix")
  raised[c[1]] = true
end
-- every check has a raising case
for _, ch in ipairs(doctor.checks) do
  t.ok(raised[ch.code], "check " .. ch.code .. " has a test that raises it")
end

-- A Jetson with no driver and no GPU seen: its GPU driver is part of its
-- L4T (nvgpu on Orin and before, the open kernel modules on Thor), not
-- an NVIDIA driver install; the words and the fix name which, by the
-- module or else the L4T, both where neither says.
for _, c in ipairs({
  { "Jetson AGX Orin", "36.4.3", "the nvgpu kernel module, which L4T loads at boot on Orin", "check 'lsmod | grep nvgpu'" },
  { "Jetson AGX Orin", "39.2.0", "the nvgpu kernel module, which L4T loads at boot on Orin", "check 'lsmod | grep nvgpu'" },
  { "Jetson Nano", "32.7.6", "the nvgpu kernel module", "check 'lsmod | grep nvgpu'" },
  { "Jetson AGX Thor", "38.2.0", "NVIDIA's open GPU kernel modules, which L4T loads on Jetson Thor in place of nvgpu", "check 'cat /proc/driver/nvidia/version'" },
  { nil, "38.4.0", "NVIDIA's open GPU kernel modules, which L4T loads on Jetson Thor in place of nvgpu", "check 'cat /proc/driver/nvidia/version'" },
  { nil, "39.2.0", "the nvgpu kernel module on Orin and the Jetsons before it, NVIDIA's open GPU kernel modules on Jetson Thor", "check 'lsmod | grep nvgpu' on Orin, 'cat /proc/driver/nvidia/version' on Thor" },
}) do
  local f, o = copy(clean_facts), copy(clean_obs)
  f.host.arch = "aarch64"; f.host.platform = "jetson"; f.driver = nil; f.gpus = {}
  f.jetson = { l4t = c[2], module = c[1] }
  local hit
  for _, x in ipairs(run(f, o).findings) do
    if x.code == "no-driver" then hit = x end
  end
  local what = ("%s, L4T %s"):format(c[1] or "no module", c[2])
  t.is(hit and hit.message, ("no GPU driver and no GPU found on this Jetson (L4T %s): a Jetson's GPU driver is part of its L4T, not an NVIDIA driver install (%s), and nothing runs on the GPU until it is loaded"):format(c[2], c[3]),
    what .. ": no-driver says the GPU driver is L4T's, and which")
  t.ok(hit and hit.fix:sub(1, #c[4]) == c[4] and hit.fix:find("'cat /etc/nv_tegra_release'", 1, true) ~= nil,
    what .. ": the fix checks " .. c[4]:sub(7) .. " and the L4T release (got: " .. tostring(hit and hit.fix) .. ")")
end

-- A Jetson container is judged by its L4T's GPU nodes: { l4t (nil:
-- unknown), nodes present, GPU source, given? }.  A GPU read from the
-- device tree is the board's; one libcuda answered for is reachable.
for _, c in ipairs({
  { "32.7.6", { "/dev/nvhost-ctrl-gpu", "/dev/nvmap" }, "device-tree", true },
  { "32.7.6", { "/dev/nvgpu/igpu0/ctrl" }, "device-tree", false },
  { "32.7.6", { "/dev/nvmap", "/dev/nvhost-ctrl" }, "device-tree", false },
  { "35.6.0", { "/dev/nvhost-ctrl-gpu" }, "device-tree", true },
  { "35.6.0", { "/dev/nvgpu/igpu0/ctrl" }, "device-tree", true },
  { "35.6.0", { "/dev/nvidia0" }, "device-tree", false },
  { "36.4.0", { "/dev/nvgpu/igpu0/ctrl" }, "device-tree", true },
  { "36.4.0", {}, "device-tree", false },
  { "36.4.0", {}, "libcuda", true },
  { "38.2.0", { "/dev/nvidia0", "/dev/nvidiactl" }, "device-tree", true },
  { "38.2.0", { "/dev/nvhost-ctrl-gpu" }, "device-tree", false },
  { "39.2.0", { "/dev/nvidia-uvm" }, "device-tree", true },
  { "34.1.1", { "/dev/nvhost-ctrl-gpu" }, "device-tree", true },
  { nil, { "/dev/nvgpu/igpu0/ctrl" }, "device-tree", true },
  { nil, { "/dev/nvidia0" }, "device-tree", true },
  { nil, {}, "device-tree", false },
}) do
  local f, o = copy(clean_facts), copy(clean_obs)
  f.host.arch = "aarch64"; f.host.platform = "jetson"; f.driver = nil
  f.gpus = { { index = 0, name = "Orin", compute_capability = "8.7", source = c[3] } }
  f.jetson = { l4t = c[1] }
  o.env.TORCH_CUDA_ARCH_LIST = nil
  o.container = { inside = true, marker = "/.dockerenv", gpu_devices = #c[2] > 0, devices = c[2] }
  local got = " " .. codes(run(f, o)) .. " "
  local what = ("L4T %s with {%s} (GPU by %s)"):format(c[1] or "unknown", table.concat(c[2], " "), c[3])
  if c[4] then
    t.ok(not got:find(" jetson%-container%-no%-gpu ") and not got:find(" docker%-build%-no%-arch%-list "),
      what .. ": the GPU was given (got:" .. got .. ")")
  else
    t.ok(got:find(" jetson%-container%-no%-gpu ") and got:find(" docker%-build%-no%-arch%-list "),
      what .. ": no GPU given, and no arch list (got:" .. got .. ")")
  end
end

-- libcudart known only by its soname (libcudart.so.11.0, no file of the
-- full version beside it): "11.0" is the soname every CUDA 11 release
-- carries, not CUDA 11.0, so it says nothing of the minor.  A torch+cu118
-- with CUDA 11.8's lib64 first is no mismatch; a torch+cu124 is, and the
-- finding names the soname and CUDA 11, not a CUDA 11.0 to install a torch of.
for _, c in ipairs({
  { "11.8", nil, "torch built with CUDA 11.8, libcudart.so.11.0 of CUDA 11: no finding" },
  { "12.4", "LD_LIBRARY_PATH puts libcudart 11%.x %(libcudart%.so%.11%.0%) first, but the installed torch 2%.5%.1%+cu124 was built with CUDA 12%.4",
    "torch built with CUDA 12.4, libcudart.so.11.0: the soname and CUDA 11.x named" },
}) do
  local f, o = copy(clean_facts), copy(clean_obs)
  o.torch = { { version = "2.5.1+cu" .. c[1]:gsub("%.", ""), site = "/usr/lib/python3/dist-packages", cuda = c[1] } }
  o.libs[#o.libs] = { lib = "libcudart", name = "libcudart.so.11.0", path = "/usr/local/cuda-11.8/lib64/libcudart.so.11.0",
                      version = "11.0", via = "LD_LIBRARY_PATH" }
  local res = run(f, o)
  local x
  for _, y in ipairs(res.findings) do if y.code == "torch-cudart-mismatch" then x = y end end
  if c[2] then
    t.like(x and x.message or "", c[2], c[3])
    t.ok(x ~= nil and not x.fix:find("CUDA 11.0", 1, true), "... and its fix names no torch for CUDA 11.0" .. (x and (": " .. x.fix) or ""))
  else
    t.ok(x == nil, c[3] .. (x and (": " .. x.message) or ""))
  end
end

-- The installed torch lacks the GPU; an official wheel has it: the
-- finding names that wheel and its install command, and only when
-- lib/wheels.lua says the wheel covers this machine (platform, driver,
-- every GPU).  { torch, gpu cc, driver, cuda_max, code, wheel pattern or
-- false }
local W = ptb.include("lib/wheels")
local function finding(res, code)
  for _, x in ipairs(res.findings) do if x.code == code then return x end end
end
for _, w in ipairs({
  -- driver 570 runs CUDA 12.9 through minor-version compatibility, and
  -- the cu129 wheel of 2.13.0 is 12.0 SASS, no PTX [pt-cu129]
  { "2.5.1+cu124", { sass = { "5.0", "8.0", "9.0" }, ptx = {} }, "12.0", "570.86.10", "12.8",
    "torch-lacks-gpu", "the cu129 wheel of torch 2%.13%.0 has it %(arch list [^)]*12%.0" },
  { "2.5.1+cu124", { sass = { "5.0", "8.0", "9.0" }, ptx = {} }, "12.0", "580.65.06", "13.0",
    "torch-lacks-gpu", "the cu13%d wheel of torch 2%.%d+%.%d+ has it %(arch list [^)]*12%.0" },
  { "2.6.0+debian", { sass = { "8.6", "9.0" }, ptx = { "9.0" } }, "12.0", "570.86.10", "12.8",
    "torch-gpu-ptx-only", "the cu129 wheel of torch 2%.13%.0 %(arch list [^)]*12%.0" },
  -- a Tesla K80 (3.7): the cu118 wheels of the same release still carry sm_37
  { "2.5.1+cu124", { sass = { "5.0", "8.0", "9.0" }, ptx = {} }, "3.7", "470.256.02", "11.4",
    "torch-lacks-gpu", "the cu118 wheel of torch 2%.5%.1 has it %(arch list 3%.7;" },
  -- a Tesla K40 (3.5): no wheel of any known release has code for it
  { "2.5.1+cu124", { sass = { "5.0", "8.0", "9.0" }, ptx = {} }, "3.5", "470.256.02", "11.4",
    "torch-lacks-gpu", false },
}) do
  local f, o = copy(clean_facts), copy(clean_obs)
  o.torch = { { version = w[1], site = "/x/site-packages", libtorch_cuda = "/x/libtorch_cuda.so", archs = w[2] } }
  f.gpus[1] = { index = 0, name = "GPU " .. w[3], compute_capability = w[3] }
  f.driver = { version = w[4], cuda_max = w[5] }
  local x = finding(run(f, o), w[6])
  local name = ("torch %s on %s, driver %s"):format(w[1], w[3], w[4])
  t.ok(x ~= nil, name .. ": " .. w[6])
  x = x or { message = "", fix = "" }
  local text = x.message .. " | " .. x.fix
  if w[7] then
    t.like(text, w[7], name .. ": names the wheel that has the GPU")
    local cu = text:match("the cu(%d+) wheel")
    t.like(x.fix, "pip install torch==[%d.]+ %-%-index%-url https://download%.pytorch%.org/whl/cu" .. tostring(cu),
           name .. ": ... and its install command")
    -- the same wheel lib/wheels.lua finds covering the machine
    local tv = text:match("wheel of torch (%d+%.%d+)")
    local rel
    for _, r in ipairs(ptb.include("data/pytorch").releases) do if r.version == tv then rel = r end end
    local wc = rel and W.cover(f, rel)
    t.ok(wc and wc.covered == true and wc.cuda:gsub("%.", "") == cu, name .. ": which W.cover confirms")
  else
    t.ok(not text:find("wheel", 1, true), name .. ": no wheel named (" .. text .. ")")
  end
end

-- The wheel named must be one the machine's python3 can take
-- (facts.python against data/pytorch.lua's ranges, [pt-python]): an RTX
-- 5090 (12.0) lacks code in the installed torch; wheels with sm_120 start
-- at 2.7 (Python 3.9 on).  { python3, wheel pattern or false }
for _, c in ipairs({
  { nil, "the cu13%d wheel of torch 2%.14%.1 has it" },
  { "3.12", "the cu13%d wheel of torch 2%.14%.1 has it" },
  { "3.9", "the cu12%d wheel of torch 2%.8%.0 has it" },
  { "3.8", false },
  { "3.16", false },
}) do
  local f, o = copy(clean_facts), copy(clean_obs)
  o.torch = { { version = "2.5.1+cu124", site = "/x/site-packages", libtorch_cuda = "/x/libtorch_cuda.so",
                archs = { sass = { "5.0", "8.0", "9.0" }, ptx = {} } } }
  f.gpus[1] = { index = 0, name = "NVIDIA GeForce RTX 5090", compute_capability = "12.0" }
  f.driver = { version = "580.65.06", cuda_max = "13.0" }
  f.python = c[1] and { version = c[1], path = "/usr/bin/python3", real = "/usr/bin/python" .. c[1], from = "PATH" }
  local x = finding(run(f, o), "torch-lacks-gpu") or { message = "", fix = "" }
  local name = "RTX 5090, python3 " .. tostring(c[1])
  if c[2] then
    t.like(x.message, c[2], name .. ": names a wheel its Python takes")
    t.like(x.fix, "^pip install torch==", name .. ": ... and its install command")
  else
    t.ok(x.message ~= "" and not (x.message .. x.fix):find("wheel", 1, true), name .. ": no wheel named (" .. x.message .. ")")
  end
end

-- On a Jetson on L4T the wheel that has the GPU is its JetPack's
-- (data/jetson_wheels.lua): the installed torch's version when that
-- JetPack has it, else the newest.  { what, L4T, GPU cc, installed torch,
-- its SASS, wheel pattern, fix pattern (false: no wheel) }
for _, c in ipairs({
  { "Orin, JetPack 6.2, a torch 2.8.0 without sm_87 [jal-files]", "36.4.3", "8.7", "2.8.0", { "9.0", "10.0" },
    "the JetPack 6%.2 wheel of torch 2%.8%.0 has it %(arch list 8%.7%)",
    "^pip install torch==2%.8%.0 %-%-index%-url https://pypi%.jetson%-ai%-lab%.io/jp6/cu126 && pip install %-%-no%-deps nvidia%-cudss%-cu12 %-%-index%-url https://pypi%.jetson%-ai%-lab%.io/jp6/cu126 && export LD_LIBRARY_PATH=.-libcudss%.so%.0.-, or rebuild" },
  { "Orin, JetPack 6.2, a torch 2.14 without sm_87: the newest wheel [jal-files-211]", "36.4.3", "8.7", "2.14.1", { "9.0" },
    "the JetPack 6%.2 wheel of torch 2%.11%.0 has it",
    "^pip install torch==2%.11%.0 %-%-index%-url https://pypi%.jetson%-ai%-lab%.io/jp6/cu126 && pip install %-%-no%-deps nvidia%-cudss%-cu12 %-%-index%-url https://pypi%.jetson%-ai%-lab%.io/jp6/cu126 && export LD_LIBRARY_PATH=.-libcudss%.so%.0.-, or rebuild" },
  { "Xavier, JetPack 5.1.2, a torch built for Orin only [jc-torch-2401]", "35.4.1", "7.2", "2.1.0", { "8.7" },
    "the JetPack 5%.1%.2 wheel of torch 2%.1%.0a0%+41361538%.nv23%.06 has it %(arch list 7%.2;8%.7%)",
    "^pip install https://developer%.download%.nvidia%.com/compute/redist/jp/v512/pytorch/torch%-2%.1%.0a0" },
  { "a 7.2 GPU on JetPack 6: no wheel has it [jc-arch]", "36.4.3", "7.2", "2.8.0", { "8.7" }, false, false },
}) do
  local f, o = copy(clean_facts), copy(clean_obs)
  f.host = { arch = "aarch64", platform = "jetson", page_size = 4096, memory_mib = 62841, cpu = { cores = 12 } }
  f.jetson = { l4t = c[2] }
  f.driver = nil
  f.gpus = { { index = 0, name = "Jetson GPU", compute_capability = c[3] } }
  o.torch = { { version = c[4], site = "/x/site-packages", libtorch_cuda = "/x/libtorch_cuda.so", archs = { sass = c[5], ptx = {} } } }
  local x = finding(run(f, o), "torch-lacks-gpu")
  t.ok(x ~= nil, c[1] .. ": torch-lacks-gpu")
  x = x or { message = "", fix = "" }
  if c[6] then
    t.like(x.message, c[6], c[1] .. ": names the JetPack's wheel")
    t.like(x.fix, c[7], c[1] .. ": ... and its install command")
  else
    t.ok(not (x.message .. x.fix):find("wheel", 1, true), c[1] .. ": no wheel named (" .. x.message .. ")")
  end
end

-- Jetson Thor (11.0) is sm_101 to CUDA 12.9, but every JetPack it runs
-- is JetPack 7 with CUDA 13's driver: a CUDA before 13.0 is the Jetson
-- rule's error alone, as the plan says (lib/checks.lua
-- jetson_cuda_too_old [thor-cuda13]); 13.0 builds it as sm_110.
for _, c in ipairs({ { "12.8.93", "jetson-thor-needs-cuda-13" }, { "12.6.85", "jetson-thor-needs-cuda-13" }, { "13.0.48", nil } }) do
  local f, o = copy(clean_facts), copy(clean_obs)
  f.host = { arch = "aarch64", platform = "jetson", page_size = 4096, memory_mib = 125772, cpu = { cores = 14 } }
  f.gpus = { { index = 0, name = "NVIDIA Thor", compute_capability = "11.0" } }
  f.driver = { version = "580.00", cuda_max = "13.0" }
  o.env.TORCH_CUDA_ARCH_LIST = nil
  for _, x in ipairs({ o.cuda_home, o.nvcc_on_path[1], o.usr_local_cuda }) do
    x.version = c[1]; x.nvcc_machine = "aarch64"; x.targets = { "sbsa-linux" }
  end
  local res = run(f, o)
  local got = finding(res, "gpu-newer-than-toolkit") or finding(res, "toolkit-drops-gpu")
    or finding(res, "jetson-thor-needs-cuda-13")
  t.is(got and got.code, c[2], "Jetson Thor with CUDA " .. c[1] .. ": " .. tostring(c[2] or "builds it"))
  t.is(finding(res, "sbsa-toolkit-on-jetson"), nil, "Jetson Thor with CUDA " .. c[1] .. ": its SBSA toolkit is right")
end

-- A GPU older than every CUDA ptbuild knows is dropped, never newer: the
-- Kepler 3.0 with its last CUDA (10.2), the Fermi 2.1 with none to try.
for _, c in ipairs({
  { "NVIDIA GeForce GTX 680", "3.0", "use CUDA 10.2, the last release that builds sm_30" },
  { "NVIDIA GeForce 410M", "2.1", "no CUDA ptbuild knows builds sm_21: build on a machine without this GPU" },
}) do
  local f, o = copy(clean_facts), copy(clean_obs)
  f.gpus = { { index = 0, name = c[1], compute_capability = c[2] } }
  o.env.TORCH_CUDA_ARCH_LIST = nil
  local res = run(f, o)
  t.is(finding(res, "gpu-newer-than-toolkit"), nil, c[1] .. " (" .. c[2] .. "): not newer than the toolkit")
  local x = finding(res, "toolkit-drops-gpu") or {}
  t.is(x.fix, c[3], c[1] .. " (" .. c[2] .. "): dropped, and what to do")
end

-- covers(): binary compatibility within a major, PTX for newer GPUs
local A = ptb.include("lib/archlist")
local items = A.parse("8.0;9.0a;7.5+PTX")
t.ok(doctor.covers(items, "8.6"), "sm_80 SASS runs on 8.6")
t.ok(not doctor.covers(A.parse("8.6"), "8.0"), "sm_86 SASS does not run on 8.0")
t.ok(doctor.covers(items, "12.0"), "PTX 7.5 JITs on 12.0")
t.ok(not doctor.covers(A.parse("9.0a"), "10.0"), "sm_90a is for 9.0 only")
-- forward compatibility: "only for systems with NVIDIA Data Center GPUs,
-- select NGC Server Ready SKUs of RTX cards, Jetson boards" [S_COMPAT];
-- the segment is the column of NVIDIA's GPU pages [S_NV_GPUS] [S_NV_LEGACY],
-- matched by whole model name.
for _, r in ipairs({
  { "NVIDIA A100-SXM4-80GB", nil },                             -- Data Center column
  { "NVIDIA GH200 480GB", nil },
  { "Tesla V100-PCIE-16GB", nil },                               -- legacy page, Data Center
  { "NVIDIA A10G", nil },
  { "NVIDIA H20", nil },                                         -- the H100 family's China part
  { "NVIDIA RTX PRO 6000 Blackwell Server Edition", nil },       -- Data Center column
  { "Jetson AGX Orin", nil },                                    -- Jetson boards
  { "NVIDIA RTX PRO 6000 Blackwell Workstation Edition", "warning" }, -- RTX: maybe a Server Ready SKU
  { "NVIDIA RTX A2000", "warning" },                             -- not an "A2"
  { "NVIDIA GeForce RTX 4090", "error" },
  { "NVIDIA TITAN V", "error" },
  { "Quadro P4000", "error" },
  { "NVIDIA GB10", "warning" },                                  -- the copy does not show its column
  { "NVIDIA Mystery X1", "warning" },                            -- not in the table
}) do
  local name, want = r[1], r[2]
  local f, o = copy(clean_facts), copy(clean_obs)
  f.gpus[1].name = name
  table.insert(o.libs, 1, { lib = "libcuda", path = "/usr/local/cuda-12.8/compat/libcuda.so.1",
    version = "570.124.06", via = "LD_LIBRARY_PATH", compat = true })
  local got
  for _, x in ipairs(run(f, o).findings) do
    if x.code == "forward-compat-unsupported" then got = x.severity end
  end
  t.is(got, want, ("%s: forward compatibility %s"):format(name,
    want == nil and "allowed" or want == "error" and "refused" or "a warning"))
end
-- A node known by its facts alone (a fleet's): every check that reads
-- the observation is named in needs_machine and raises nothing; the
-- others judge the facts, with the toolkit the facts name.
do
  local f = copy(clean_facts)
  f.driver.version = "535.104.05"; f.driver.cuda_max = "12.2"   -- too old for its 12.8
  local res = doctor.check({ facts = f, facts_only = true })
  local needs = {}
  for _, c in ipairs(res.needs_machine) do needs[c] = true end
  t.ok(needs["cuda-home-unset"] and needs["qemu-emulation"] and needs["max-jobs-too-high"],
       "facts only: the checks of the environment need the machine")
  t.ok(not needs["driver-too-old"] and not needs["gcc-too-new"] and not needs["toolkit-drops-gpu"],
       "facts only: driver, compiler and GPU checks are judged by the facts")
  t.is(codes(res), "driver-too-old", "facts only: the old driver against the facts' CUDA 12.8, and nothing guessed")
  t.is(res.toolkit.root, "/usr/local/cuda-12.8", "facts only: the toolkit is the facts' own")
  t.is(res.checks + #res.needs_machine, #doctor.checks, "facts only: every check either judged or named")
  t.is(run(f, clean_obs).needs_machine, nil, "with an observation: no needs_machine")
end
-- gcc_too_new(arch, compilers): the gcc-too-new finding of the clean
-- machine with these compilers and CUDA 12.4 (host_config.h: gcc 13 at
-- most) in every place a toolkit is looked for.
local function gcc_too_new(arch, compilers)
  local f, o = copy(clean_facts), copy(clean_obs)
  if arch then f.host = copy(f.host or {}); f.host.arch = arch end
  f.compilers = compilers
  for _, x in ipairs({ o.cuda_home, o.nvcc_on_path[1], o.usr_local_cuda }) do
    x.version = "12.4.131"; x.gcc_max = 13
  end
  for _, x in ipairs(run(f, o).findings) do if x.code == "gcc-too-new" then return x end end
end

-- The gcc a gcc-too-new fix names is one that nvcc takes there: Ubuntu
-- 24.04's gcc 13.2.0 breaks CUDA 12.4 on aarch64 (a GH200), so gcc 12,
-- not the gcc 13 that is installed.
do
  local hit = gcc_too_new("aarch64", { { name = "gcc", version = "13.2.0", path = "/usr/bin/gcc" } })
  t.is(hit and hit.fix, "install gcc 12 (e.g. apt-get install g++-12) and set CUDAHOSTCXX=/usr/bin/g++-12",
    "gcc 13.2.0 with CUDA 12.4 on aarch64: the fix names gcc 12")
  -- gcc 13 is within 12.4's host_config.h: no '#error' is promised
  t.ok(hit and hit.message:find("first .cu (spack PR 39666)", 1, true) and not hit.message:find("#error", 1, true),
    "... the message gives the failure at the first .cu, not host_config.h's #error (got: " .. tostring(hit and hit.message) .. ")")
  hit = gcc_too_new(nil, { { name = "gcc", version = "14.2.0", path = "/usr/bin/gcc" } })
  t.ok(hit and hit.message:find("(\"#error -- unsupported GNU version!\" at the first .cu)", 1, true),
    "gcc 14 over 12.4's limit: host_config.h's #error is the symptom")
end

-- ... and with the gcc known only as "13" (as detect reads gcc-13): a
-- warning, since it may be 13.2.0, with how to tell
do
  local hit = gcc_too_new("aarch64", { { name = "gcc", version = "13", path = "/usr/bin/gcc" } })
  t.is(hit and hit.severity, "warning", "gcc known as 13 with CUDA 12.4 on aarch64: a warning")
  t.is(hit and hit.fix, "run '/usr/bin/gcc -dumpfullversion': if it prints 13.2.0, install gcc 12 (e.g. apt-get install g++-12) and set CUDAHOSTCXX=/usr/bin/g++-12",
    "... whose fix says how to tell")
end

-- The installed gcc a gcc-too-new fix names is one PyTorch takes, as the
-- plan's choice is (its 'GCC-9.3 or newer is required'): a gcc 8.5 that
-- nvcc 12.4 would take is no fix for a gcc 14 it refuses.
do
  local gcc14 = { name = "gcc", version = "14.2.0", path = "/usr/bin/gcc" }
  local gcc8 = { name = "gcc-8", version = "8.5.0", path = "/usr/bin/gcc-8" }
  local hit = gcc_too_new(nil, { gcc14, gcc8 })
  t.is(hit and hit.fix, "install gcc 13 (e.g. apt-get install g++-13) and set CUDAHOSTCXX=/usr/bin/g++-13",
    "gcc 14 refused with a gcc 8.5 beside it: the fix installs gcc 13, not CUDAHOSTCXX=g++-8")
  hit = gcc_too_new(nil, { gcc14, gcc8, { name = "gcc-11", version = "11.4.0", path = "/usr/bin/gcc-11" } })
  t.is(hit and hit.fix, "set CUDAHOSTCXX=/usr/bin/g++-11 (gcc 11.4.0 is installed)", "... with a gcc 11.4 too: that one")
end

-- In a checkout of each release: the checks judge by that release's
-- data, each row with its source.  { version.txt, mutate, code, pattern
-- (nil: the code must not be raised), source }
local by_release = {
  { "2.13.0a0", function(f, o) o.env.TORCH_CUDA_ARCH_LIST = "Rubin" end, "arch-list-invalid",
    "'Rubin' is not a name PyTorch 2.13's CMake knows %(it arrived in 2.14%)" },            -- [cmake-names] Rubin from 2.14
  { "2.14.0a0", function(f, o) o.env.TORCH_CUDA_ARCH_LIST = "Blackwell" end, "arch-list-invalid", nil },  -- [cmake-names]
  { "2.6.0", function(f, o) o.env.TORCH_CUDA_ARCH_LIST = "Blackwell" end, "arch-list-invalid",
    "'Blackwell' is not a name PyTorch 2.6's CMake knows %(it arrived in 2.7%)" },           -- [cmake-names] @00afc038
  { "2.6.0", function(f, o) o.env.TORCH_CUDA_ARCH_LIST = "8.9;10.0" end, "arch-list-invalid",
    "PyTorch 2.6" },                                                                           -- [cmake-re] one-digit majors
  -- (sm_120f: CUDA 12.9 on)
  { "2.8.0", function(f, o) o.env.TORCH_CUDA_ARCH_LIST = "8.9;12.0f"; toolkit_at(o, "12.9.86") end, "arch-list-invalid", "PyTorch 2.8" },  -- [cmake-re] f from 2.9
  { "2.9.0", function(f, o) o.env.TORCH_CUDA_ARCH_LIST = "8.9;12.0f"; toolkit_at(o, "12.9.86") end, "arch-list-invalid", nil },
  { "2.14.0", function(f, o) toolkit_at(o, "12.4.131") end, "torch-cuda-unsupported", "requires CUDA 12.6 or above" },  -- [pt-cudamin]
  { "2.14.0", function(f, o) toolkit_at(o, "12.6.85") end, "torch-cuda-untested", nil },     -- a 2.14 wheel CUDA [release]
  { "2.14.0", function(f, o) toolkit_at(o, "12.6.85") end, "torch-cuda-unsupported", nil },
  { "2.13.0", function(f, o) toolkit_at(o, "12.1.105") end, "torch-cuda-untested", "CUDA 12.6, 12.9, 13.0, 13.2 only" },  -- [pt-cudamin] 12.1
  { "2.13.0", function(f, o) toolkit_at(o, "12.0.140") end, "torch-cuda-unsupported", "requires CUDA 12.1 or above" },
  { "2.12.1", function(f, o) toolkit_at(o, "12.4.131") end, "torch-cuda-untested", "ptbuild knows no source for the oldest CUDA its CMake accepts" },
  { "2.12.1", function(f, o) toolkit_at(o, "12.4.131") end, "torch-cuda-unsupported", nil },  -- 2.12's minimum unread
  { "2.6.0", function(f, o) toolkit_at(o, "11.4.152") end, "torch-cuda-untested", "CUDA 11.8, 12.4, 12.6 only" },  -- [pt-cudamin] 11.0
  { "2.8.0", function(f, o) toolkit_at(o, "13.0.88") end, "torch-cuda-unsupported", "it predates CUDA 13 %(its newest CUDA is 12.9%)" },
  { "2.8.0", function(f) f.python = { version = "3.8.10", path = "/usr/bin/python3", from = "PATH" } end,
    "python-too-old", "older than PyTorch 2.8 %(the checkout in /src/pytorch%).*Python >=3.9 is required" },  -- [pt-python] 2.6-2.8 >=3.9
  { "2.8.0", function(f) f.python = { version = "3.14.0", path = "/usr/bin/python3", from = "PATH" } end,
    "python-too-new", "newer than PyTorch 2.8 builds with %(Python 3.9%-3.13%).*%(judged against the checkout in /src/pytorch%); PyTorch 2.9 is the first release that builds with Python 3.14" },
  { "2.5.1", function(f) f.python = { version = "3.13.1", path = "/usr/bin/python3", from = "PATH" } end,
    "python-too-new", nil },                                                                   -- [pt-python] 3.13 experimental in 2.5
  { "2.4.1", function(f) f.python = { version = "3.13.1", path = "/usr/bin/python3", from = "PATH" } end,
    "python-too-new", "newer than PyTorch 2.4 builds with %(Python 3.8%-3.12%)" },
  -- a release ptbuild has no data for: judged by release data only where
  -- it holds for a newer release, the newest known CMake minimum (it only
  -- rises [pt-cudamin]: 2.14's 12.6); none of it for an older release
  { "2.15.0a0", function(f, o) toolkit_at(o, "12.4.131") end, "torch-cuda-unsupported",
    "PyTorch 2%.15%.0a0 %(the checkout in /src/pytorch%) does not build with CUDA 12%.4, the toolkit in use: ptbuild has no data for PyTorch 2%.15, and the CMake of PyTorch 2%.14, the newest release it knows, stops with \"PyTorch requires CUDA 12%.6 or above%.\"" },
  { "2.15.0a0", function(f, o) toolkit_at(o, "12.6.85") end, "torch-cuda-unsupported", nil },
  { "2.15.0a0", function(f, o) toolkit_at(o, "12.6.85") end, "torch-cuda-untested", nil },
  { "2.15.0a0", function(f, o) toolkit_at(o, "13.4.48") end, "torch-cuda-untested", nil },
  { "2.3.1", function(f, o) toolkit_at(o, "11.4.152") end, "torch-cuda-unsupported", nil },
  { "2.15.0a0", function(f, o) o.env.TORCH_CUDA_ARCH_LIST = "8.9;Blackwell" end, "arch-list-invalid", nil },
}
for _, c in ipairs(by_release) do
  local f, o = copy(clean_facts), copy(clean_obs)
  c[2](f, o)
  local res = run(f, o, checkout(c[1]))
  local hit
  for _, x in ipairs(res.findings) do
    if x.code == c[3] then hit = x end
  end
  if c[4] then
    t.like(hit and hit.message, c[4], ("PyTorch %s checkout: %s"):format(c[1], c[3]))
  else
    t.is(hit and hit.message, nil, ("PyTorch %s checkout: no %s"):format(c[1], c[3]))
  end
end

-- the document names the checkout and its release
local sres = run(copy(clean_facts), copy(clean_obs), checkout("2.13.0a0"))
t.is(sres.source.path .. " " .. sres.source.version .. " " .. sres.source.release .. " " .. tostring(sres.source.known),
  "/src/pytorch 2.13.0a0 2.13 true", "the document's source: path, version, release, known")
sres = run(copy(clean_facts), copy(clean_obs), checkout("2.15.0a0"))
t.is(sres.source.release .. " " .. tostring(sres.source.known), "2.15 false", "a release ptbuild has no data for: known false")
t.is(run(copy(clean_facts), copy(clean_obs)).source, ptb.null, "no checkout: source null")
-- USE_SYSTEM_LIBS (setup.py skips its submodule check) silences it
local sys = checkout("2.14.0a0", { { path = "third_party/pybind11", state = "empty" } })
sys.use_system_libs = "1"
t.is(codes(run(copy(clean_facts), copy(clean_obs), sys)):find("source-submodules-missing", 1, true), nil,
  "USE_SYSTEM_LIBS=1: no source-submodules-missing")
-- every submodule empty and no .git: setup.py's own 'git submodule
-- update' fails there, and the fix clones with the release's tag
local bare = checkout("2.14.1", { { path = "third_party/pybind11", state = "missing" }, { path = "third_party/cpuinfo", state = "empty" } })
bare.git = false
for _, x in ipairs(run(copy(clean_facts), copy(clean_obs), bare).findings) do
  if x.code == "source-submodules-missing" then
    t.like(x.message, "none of the 2 .*fails outside a git checkout: it stops with \"Submodule initialization failed\"", "no .git, all empty: setup.py's own init fails")
    t.is(x.severity, "error", "... an error")
    t.like(x.fix, "git clone %-%-recursive %-%-branch v2.14.1 https://github.com/pytorch/pytorch", "... the fix clones the release's tag")
  end
end
-- every submodule empty in a git checkout: setup.py inits them itself
bare.git = true
for _, x in ipairs(run(copy(clean_facts), copy(clean_obs), bare).findings) do
  if x.code == "source-submodules-missing" then
    t.is(x.severity, "warning", "a git checkout, all empty: a warning")
    t.like(x.message, "setup.py will run 'git submodule update %-%-init %-%-recursive' itself", "... setup.py inits them itself")
  end
end
-- no .gitmodules (a source archive): setup.py's own list of folders for
-- the release, and fbgemm's asmjit where that release looks for it
-- [pt-submodules-default].  VERSION, folders not ok (path=state), .git,
-- the message (nil: no finding), the source of the row
local all_ok = { "gloo", "cpuinfo", "onnx", "foxi", "QNNPACK", "fbgemm", "cutlass" }
for _, c in ipairs({
  { "2.4.0", { ["third_party/QNNPACK"] = "missing" }, false,
    "1 of the 7 folders PyTorch 2.4's setup.py checks when the checkout has no .gitmodules are not checked out: PyTorch's setup.py stops with \"Could not find any of CMakeLists.txt, Makefile, setup.py, LICENSE, LICENSE.md, LICENSE.txt in /src/pytorch/third_party/QNNPACK\"",
    "issue #131864: v2.4.0's archive stops at QNNPACK" },
  { "2.5.1", { ["third_party/QNNPACK"] = "missing", ["third_party/foxi"] = "missing" }, false, nil,
    "PRs #132976, #133177: foxi and QNNPACK left the list before 2.5" },
  { "2.6.0a0", { ["third_party/fbgemm/external/asmjit"] = "missing" }, false, nil,
    "2.6.0's setup.py (Debian 2.6.0+dfsg): fbgemm/third_party/asmjit" },
  { "2.6.0a0", { ["third_party/fbgemm/third_party/asmjit"] = "empty" }, false,
    "fbgemm's nested submodule third_party/fbgemm/third_party/asmjit is not checked out.*Could not find any of CMakeLists.txt in /src/pytorch/third_party/fbgemm/third_party/asmjit",
    "2.6.0's setup.py: its last check" },
  { "2.6.0a0", { ["third_party/cutlass"] = "no-files" }, false,
    "1 of the 5 folders PyTorch 2.6's setup.py checks.*in /src/pytorch/third_party/cutlass\"", "2.6.0's setup.py list" },
  { "2.7.1", { ["third_party/fbgemm/third_party/asmjit"] = "missing" }, false, nil,
    "2.7's setup.py not read: asmjit in either place passes" },
  { "2.7.1", { ["third_party/fbgemm/external/asmjit"] = "missing" }, false, nil,
    "2.7's setup.py not read: asmjit in either place passes" },
  { "2.7.1", { ["third_party/fbgemm/external/asmjit"] = "missing", ["third_party/fbgemm/third_party/asmjit"] = "empty" }, false,
    "fbgemm's nested submodule third_party/fbgemm/third_party/asmjit is not checked out", "2.7: in neither place, named by 2.6's" },
  { "2.8.0", { ["third_party/fbgemm/third_party/asmjit"] = "missing" }, false, nil,
    "2.8-cycle setup.py: fbgemm/external/asmjit" },
  { "2.14.1", { ["third_party/fbgemm/external/asmjit"] = "missing" }, false,
    "fbgemm's nested submodule third_party/fbgemm/external/asmjit is not checked out", "2.9-era setup.py" },
  { "2.14.1", { gloo = 1, cpuinfo = 1, onnx = 1, fbgemm = 1, cutlass = 1 }, false,
    "none of the 5 folders PyTorch 2.14's setup.py checks when the checkout has no .gitmodules is checked out: PyTorch's setup.py runs 'git submodule update %-%-init %-%-recursive' itself, which fails outside a git checkout",
    "all empty, no .git: setup.py's own init fails" },
  { "2.14.1", { gloo = 1, cpuinfo = 1, onnx = 1, fbgemm = 1, cutlass = 1 }, true,
    "none of the 5 folders .* is checked out: PyTorch's setup.py runs 'git submodule update %-%-init %-%-recursive' itself, which finds no %.gitmodules to init from, then stops with \"Could not find any of CMakeLists.txt, Makefile, setup.py, LICENSE, LICENSE.md, LICENSE.txt in /src/pytorch/third_party/gloo\"",
    "a git checkout without .gitmodules: git inits nothing" },
}) do
  local s = checkout(c[1], {})
  s.gitmodules, s.git, s.folders = false, c[3], {}
  for _, n in ipairs(all_ok) do s.folders["third_party/" .. n] = "ok" end
  s.folders["third_party/fbgemm/third_party/asmjit"] = "ok"
  s.folders["third_party/fbgemm/external/asmjit"] = "ok"
  for k, v in pairs(c[2]) do
    if v == 1 then s.folders["third_party/" .. k] = "empty" else s.folders[k] = v end
  end
  local hit
  for _, x in ipairs(run(copy(clean_facts), copy(clean_obs), s).findings) do
    if x.code == "source-submodules-missing" then hit = x end
  end
  if c[4] then
    t.like(hit and hit.message, c[4], ("no .gitmodules, PyTorch %s: %s [%s]"):format(c[1], c[4]:sub(1, 40), c[5]))
    t.is(hit and hit.severity, "error", ("... an error [%s]"):format(c[5]))
    if c[3] then
      t.is(hit and hit.fix, "cd /src/pytorch && git checkout -- .gitmodules && git submodule update --init --recursive",
        "... the fix restores .gitmodules first")
    end
  else
    t.is(hit and hit.message, nil, ("no .gitmodules, PyTorch %s: no finding [%s]"):format(c[1], c[5]))
  end
end
-- USE_SYSTEM_LIBS by release [pt-submodules]: str2bool from 2.8 raises on
-- what it cannot read (blanks alone included), bool() before takes any
-- text; VERSION, VALUE, the invalid finding's text or nil, submodule check
for _, c in ipairs({
  { "2.14.0a0", "maybe", "boolean conversion: maybe\"", false },
  { "2.14.0a0", "  ", "boolean conversion: \"", false },
  { "2.8.0", "2", "boolean conversion: 2\"", false },
  { "2.14.0a0", "No", nil, true },
  { "2.14.0a0", "Enabled", nil, false },
  { "2.7.1", "maybe", nil, false },
}) do
  local s = checkout(c[1], { { path = "third_party/pybind11", state = "empty" } })
  s.use_system_libs = c[2]
  local got = codes(run(copy(clean_facts), copy(clean_obs), s))
  local inv
  for _, x in ipairs(run(copy(clean_facts), copy(clean_obs), s).findings) do
    if x.code == "source-use-system-libs-invalid" then inv = x end
  end
  if c[3] then
    t.like(inv and inv.message, c[3], ("PyTorch %s, USE_SYSTEM_LIBS='%s': setup.py raises"):format(c[1], c[2]))
  else
    t.is(inv and inv.message, nil, ("PyTorch %s, USE_SYSTEM_LIBS='%s': read"):format(c[1], c[2]))
  end
  t.is(got:find("source-submodules-missing", 1, true) ~= nil, c[4],
    ("PyTorch %s, USE_SYSTEM_LIBS='%s': submodule check %s"):format(c[1], c[2], c[4] and "runs" or "does not run"))
end
-- a .gitmodules that is a FIFO: setup.py opens it and waits
local fifo = checkout("2.14.0a0", {})
fifo.gitmodules, fifo.gitmodules_unread = false, "a FIFO (named pipe)"
local fhit
for _, x in ipairs(run(copy(clean_facts), copy(clean_obs), fifo).findings) do
  if x.code == "source-submodules-missing" then fhit = x end
end
t.like(fhit and fhit.message, "/src/pytorch/.gitmodules is a FIFO %(named pipe%), not a readable file: PyTorch's setup.py opens it to list the submodules and waits on it for ever",
  "a .gitmodules that is a FIFO: said, not taken for an absent one")

-- a node known by its facts: the checks that read the tree need the machine
local needs = doctor.check({ facts = copy(clean_facts), facts_only = true }).needs_machine
local nm = " " .. table.concat(needs, " ") .. " "
for _, code in ipairs({ "source-submodules-missing", "torch-cuda-unsupported", "torch-cuda-untested" }) do
  t.ok(nm:find(" " .. code .. " ", 1, true) ~= nil, "facts only: " .. code .. " needs the machine")
end

-- arch-list-invalid refused by a copied GPU list (13.5's is 13.4's) names
-- the check that asks the toolkit's own nvcc (doctor runs none); a list
-- with a source (13.4's), or a refusal that is no copy's (a PyTorch
-- release's names), does not
for _, c in ipairs({
  { "13.5.0", "8.9;7.0", true }, { "13.4.1", "8.9;7.0", false }, { "13.5.0", "8.9;08.0", false },
}) do
  local f, o = copy(clean_facts), copy(clean_obs)
  toolkit_at(o, c[1])
  o.env.TORCH_CUDA_ARCH_LIST = c[2]
  local x = finding(run(f, o), "arch-list-invalid")
  local name = ("CUDA %s, TORCH_CUDA_ARCH_LIST=%s"):format(c[1], c[2])
  t.ok(x ~= nil, name .. ": arch-list-invalid")
  local asks = x and x.fix:find("'ptbuild validate --cuda-home /usr/local/cuda-12.8 --arch-list \"" .. c[2]
    .. "\"' asks that toolkit's nvcc", 1, true) ~= nil
  t.is(asks, c[3], name .. (c[3] and ": the fix names validate, which asks nvcc" or ": no validate in the fix")
    .. " (" .. (x and x.fix or "") .. ")")
end

t.done()
