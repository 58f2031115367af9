-- buildenv: the environment a PyTorch build runs in (an ordered list of
-- {name, value}) and the CMake cache values, from decisions already made.
-- Why each variable: the comments at each one below.
local A = ptb.include("lib/archlist")

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
      set("ACL_ROOT_DIR", "/opt/acl")
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

function M.cmake(d)
  local c = {
    CMAKE_CUDA_ARCHITECTURES = A.cmake(d.arch.items),
    CMAKE_CUDA_COMPILER = d.root .. "/bin/nvcc",
    CUDAToolkit_ROOT = d.root,
  }
  if d.host.switched then c.CMAKE_CUDA_HOST_COMPILER = d.host.cxx end
  return c
end

return M
