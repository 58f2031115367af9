-- The `ptbuild arch` recipe: explain a TORCH_CUDA_ARCH_LIST for a CUDA
-- release.  Input { list = "...", cuda = "12.8" | nil, torch = "2.13" |
-- nil }; output the ptbuild.arch/1 document, or { errors = [...] }.  The
-- list is read as the CMake build of that PyTorch release (nil: the
-- newest ptbuild knows) reads it.  Its warnings[] hold { message, hint }
-- for a list that torch.utils.cpp_extension of the same release refuses
-- or reads differently; cpp_extension.gencode is what it gives.
-- nvcc_list = { nvcc, arch = {...}, code = {...} } (validate: the
-- toolkit's `nvcc --list-gpu-arch` and `--list-gpu-code`) judges the list
-- in place of data/cuda.lua; the result then says gpu_list_from = "nvcc".
local archlist = ptb.include("lib/archlist")
local pytorch = ptb.include("data/pytorch")
local targets = ptb.include("lib/targets")

local M = {}


-- The release (and X.Y) of CUDA version v, nil for none; a version that
-- is none, or one ptbuild does not know (unless nv, nvcc's answer, is
-- there to judge by), adds an error to errors.
local function cuda_release(v, nv, errors)
  if not v then return nil end
  local release, minor = archlist.release(v)
  if not release and not (nv and minor) then
    errors[#errors + 1] = {
      kind = "usage", token = v,
      message = minor and ("unknown CUDA version '%s'"):format(v)
        or ("'%s' is not a CUDA version (expected X.Y, X.Y.Z or cuXYZ)"):format(v),
      hint = "known releases: " .. table.concat(archlist.known_versions(), " "),
    }
  end
  return release, minor
end

function M.convert(args)
  local torch = pytorch.releases[#pytorch.releases]
  if args.torch then
    torch = archlist.torch_release(args.torch)
    if not torch then
      local known = {}
      for _, r in ipairs(pytorch.releases) do known[#known + 1] = r.version end
      return { errors = { { kind = "usage", token = args.torch,
        message = ("unknown PyTorch release '%s'"):format(args.torch),
        hint = "known releases: " .. table.concat(known, " ") } } }
    end
  end
  -- nvcc's own answer (validate asks it where M.list_source is not
  -- "data"): it judges the list, and a release ptbuild does not know is
  -- no error
  local nv = type(args.nvcc_list) == "table" and args.nvcc_list or nil
  local cuda_errors = {}
  local release, minor = cuda_release(args.cuda, nv, cuda_errors)
  -- the list's errors first; its hints fit the CUDA asked for, as its
  -- nvcc answered where it did (archlist.judged_release)
  local items, errors = archlist.parse(args.list, torch,
    nv and archlist.judged_release(release, { gpu_list = nv }) or release)
  for _, e in ipairs(cuda_errors) do errors[#errors + 1] = e end
  if #errors > 0 then return { errors = errors } end
  if nv then
    nv = { nvcc = tostring(nv.nvcc or "nvcc"), version = minor or "?", arch = nv.arch, code = nv.code }
    errors = archlist.check_nvcc(items, nv)
  else
    errors = archlist.check(items, release)
  end
  -- suffixes and two-digit majors the release's CMake regex refuses
  local problems = {}
  targets.torch_accepts(torch, items, problems)
  for _, p in ipairs(problems) do
    errors[#errors + 1] = { kind = "usage", message = p.message, hint = p.fix }
  end
  if #errors > 0 then return { errors = errors } end

  local archs = {}
  for _, it in ipairs(items) do
    archs[#archs + 1] = {
      arch = it.cc .. it.suffix,
      sass = "sm_" .. archlist.digits(it.cc, it.suffix),
      from = "compute_" .. (it.from and archlist.digits(it.from) or archlist.digits(it.cc, it.suffix)),
      ptx = it.ptx,
    }
  end
  local notes, warnings = {}, {}
  local cx = archlist.cpp_extension_check(items, torch, args.list)
  if cx then warnings[#warnings + 1] = { message = cx.message, hint = cx.hint } end
  local cx_flags = archlist.cpp_extension_flags(args.list, torch)
  if nv then
    for _, n in ipairs(archlist.nvcc_notes(items, nv, release)) do notes[#notes + 1] = n end
  elseif archlist.assumed_list(release) then
    notes[#notes + 1] = archlist.assumed_list(release)
  end
  for _, it in ipairs(items) do
    if it.from then
      notes[#notes + 1] = ("CMAKE_CUDA_ARCHITECTURES cannot express '%s(%s)': CMake builds sm_%s from compute_%s")
        :format(it.cc .. it.suffix, it.from, archlist.digits(it.cc, it.suffix), archlist.digits(it.cc, it.suffix))
    end
  end
  return {
    schema = "ptbuild.arch/1",
    input = args.list,
    cuda = release and release.version or nv and minor or ptb.null,
    gpu_list_from = nv and "nvcc" or nil,
    gpu_list_nvcc = nv and nv.nvcc or nil,
    torch = torch.version,
    torch_cuda_arch_list = archlist.torch_list(items),
    cmake_cuda_architectures = archlist.cmake(items),
    gencode = archlist.gencode(items),
    archs = archs,
    cpp_extension = { gencode = cx_flags and ptb.array(cx_flags) or ptb.null },
    notes = ptb.array(notes),
    warnings = ptb.array(warnings),
  }
end

-- Where ptbuild's GPU list of a CUDA release comes from: { cuda = "13.5",
-- source = "data" | "assumed" | "unknown" }.  validate asks the toolkit's
-- nvcc (and passes its answer to convert as nvcc_list) unless "data".
function M.list_source(args)
  local release, minor = archlist.release(args.cuda)
  return { cuda = minor or ptb.null, source = archlist.list_source(release) }
end

return M
