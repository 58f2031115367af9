-- buildenv: the environment a PyTorch build runs in (an ordered list of
-- {name, value}) and the CMake cache values, from decisions already made.
-- Why each variable: the comments at each one below.
local A = ptb.include("lib/archlist")
local acldata = ptb.include("data/acl")

local M = {}

-- d: { root, release, arch (targets result), host (host_compiler result),
--      blas_env, jobs, facts, tk, jetson, no_cudnn }
function M.env(d)
  local e = {}
  local function set(name, value) e[#e + 1] = { name = name, value = tostring(value) } end
  local facts, host = d.facts, d.facts.host or {}
  local aarch64 = host.arch == "aarch64"
  -- One toolkit, named the same way everywhere: FindCUDA reads CUDA_PATH,
  -- cpp_extension reads CUDA_HOME, CMake's CUDA language reads CUDACXX.
  set("CUDA_HOME", d.root)
  set("CUDA_PATH", d.root)
  set("CUDACXX", d.root .. "/bin/nvcc")
  if d.host.switched then set("CUDAHOSTCXX", d.host.cxx) end
  set("TORCH_CUDA_ARCH_LIST", d.arch.list)
  set("USE_CUDA", 1)
  set("USE_CUDNN", d.no_cudnn and 0 or 1)
  -- NCCL: the toolkit's when it has one (no network fetch during the
  -- build), none on Jetson (an integrated GPU has no NVLink/IB peers).
  if host.platform == "jetson" then
    set("USE_NCCL", 0)
  elseif d.tk and d.tk.nccl then
    set("USE_SYSTEM_NCCL", 1)
    set("NCCL_ROOT", d.root)
  else
    set("USE_SYSTEM_NCCL", 0)
  end
  for _, kv in ipairs(d.blas_env) do set(kv[1], kv[2]) end
  set("USE_MKLDNN", 1)
  if aarch64 then
    -- oneDNN with the Arm Compute Library, as PyTorch's aarch64 wheels do;
    -- ACL is built for armv8.2-a: cores without LSE atomics would SIGILL.
    local lse = false
    for _, f in ipairs(host.cpu and host.cpu.features or {}) do if f == "atomics" then lse = true end end
    if lse or not (host.cpu and host.cpu.features) then
      set("USE_MKLDNN_ACL", 1)
      set("ACL_ROOT_DIR", acldata.root)
    else
      set("USE_MKLDNN_ACL", 0)
    end
    set("USE_PRIORITIZED_TEXT_FOR_LD", 1)
    set("USE_MAGMA", 0)
    if host.page_size == nil or host.page_size == 65536 then
      set("CMAKE_SHARED_LINKER_FLAGS", "-Wl,-z,max-page-size=0x10000")
    end
  end
  set("BUILD_TEST", 0)
  set("MAX_JOBS", d.jobs)
  return e
end

-- The direct-CMake route (cmake -C initial-cache.cmake, cmake --preset)
-- has no setup.py to turn the environment into -D options, so the plan's
-- decisions travel as cache entries, named the way PyTorch's CMake reads
-- them.  setup.py (tools/setup_helpers/cmake.py) passes BUILD_*, USE_*,
-- CMAKE_*, BLAS and TORCH_CUDA_ARCH_LIST as -D under their own names, and
-- CUDACXX / CUDAHOSTCXX as the FindCUDA names too.  The toolkit:
-- cmake/public/cuda.cmake runs FindCUDA (Modules_CUDA_fix), which reads
-- CUDA_TOOLKIT_ROOT_DIR, then overwrites CUDAToolkit_ROOT with it; with
-- neither that nor CUDA_PATH set it finds no CUDA ("PyTorch: CUDA cannot
-- be found").  The arch list: cuda.cmake ignores CMAKE_CUDA_ARCHITECTURES
-- (it says so and sets it OFF) and derives -gencode flags from
-- TORCH_CUDA_ARCH_LIST.  Roots that find modules take from CMake
-- variables through <Package>_ROOT (policy CMP0074, NEW in PyTorch's
-- CMake): NCCL_ROOT; OpenBLAS and ACL through OpenBLAS_ROOT / ACL_ROOT.
local ROUTES = {
  CUDA_HOME = { { "CUDA_TOOLKIT_ROOT_DIR", "PATH" } },
  CUDA_PATH = { { "CUDA_TOOLKIT_ROOT_DIR", "PATH" } },
  CUDACXX = { { "CMAKE_CUDA_COMPILER", "FILEPATH" }, { "CUDA_NVCC_EXECUTABLE", "FILEPATH" } },
  CUDAHOSTCXX = { { "CMAKE_CUDA_HOST_COMPILER", "FILEPATH" }, { "CUDA_HOST_COMPILER", "FILEPATH" } },
  NCCL_ROOT = { { "NCCL_ROOT", "PATH" } },
  OpenBLAS_HOME = { { "OpenBLAS_ROOT", "PATH" } },
  ACL_ROOT_DIR = { { "ACL_ROOT", "PATH" } },
  BLAS = { { "BLAS", "STRING" } },
  TORCH_CUDA_ARCH_LIST = { { "TORCH_CUDA_ARCH_LIST", "STRING" } },
}

-- Variables PyTorch's CMake reads from the environment only (FindCUDA:
-- CUDA_PATH; FindOpenBLAS: OpenBLAS_HOME; FindACL: ACL_ROOT_DIR; and
-- CUDA_HOME for torch.utils.cpp_extension): the cache script also sets
-- them for the configure run it starts.
M.ENV_READ = { CUDA_HOME = true, CUDA_PATH = true, OpenBLAS_HOME = true, ACL_ROOT_DIR = true }

-- The cache type of an entry by its name.
function M.cache_type(name)
  if name:match("^USE_") or name:match("^BUILD_") then return "BOOL" end
  if name:match("_COMPILER$") or name:match("_EXECUTABLE$") then return "FILEPATH" end
  if name:match("_ROOT$") or name:match("_DIR$") then return "PATH" end
  return "STRING"
end

-- Cache entries { name, value, type }, sorted by name, for an environment
-- (an ordered list of { name, value }); the first value of a name wins.
-- MAX_JOBS becomes a Ninja job pool for compiles (CMAKE_JOB_POOLS), the
-- only parallelism limit a cache can carry to `cmake --build`.
function M.cache(env)
  local out, seen = {}, {}
  local function add(name, value, ty)
    if seen[name] then return end
    seen[name] = true
    out[#out + 1] = { name = name, value = value, type = ty or M.cache_type(name) }
  end
  for _, e in ipairs(env or {}) do
    local n, v = e.name, tostring(e.value)
    if ROUTES[n] then
      for _, r in ipairs(ROUTES[n]) do add(r[1], v, r[2]) end
    elseif n == "MAX_JOBS" and v:match("^%d+$") then
      add("CMAKE_JOB_POOLS", "compile=" .. v, "STRING")
      add("CMAKE_JOB_POOL_COMPILE", "compile", "STRING")
    elseif n:match("^USE_") or n:match("^BUILD_") then
      local b = (v == "1" or v == "ON") and "ON" or (v == "0" or v == "OFF") and "OFF" or v
      add(n, b, "BOOL")
    elseif n:match("^CMAKE_") then
      add(n, v)
    end
  end
  table.sort(out, function(x, y) return x.name < y.name end)
  return out
end

-- plan.cmake: the cache entries of the plan's environment, the toolkit
-- for CMake's own FindCUDAToolkit, and CMAKE_CUDA_ARCHITECTURES for
-- projects that use CMake's CUDA language (PyTorch's cuda.cmake sets it
-- OFF and reads TORCH_CUDA_ARCH_LIST).
function M.cmake(d, env)
  local c = {
    CMAKE_CUDA_ARCHITECTURES = A.cmake(d.arch.items),
    CMAKE_CUDA_COMPILER = d.root .. "/bin/nvcc",
    CUDAToolkit_ROOT = d.root,
  }
  if d.host.switched then c.CMAKE_CUDA_HOST_COMPILER = d.host.cxx end
  for _, e in ipairs(M.cache(env or M.env(d))) do c[e.name] = e.value end
  return c
end

return M
