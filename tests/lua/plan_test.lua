-- plan_test.lua - recipes/plan.lua: the entry point, usage errors, the
-- document's shape and the knowledge tables it relies on.
local t = ptb.include("tap")
local A = ptb.include("lib/archlist")
local P = ptb.include("plan")
local pytorch = ptb.include("data/pytorch")
local cuda = ptb.include("data/cuda")
local jetson = ptb.include("data/jetson")
local redist = ptb.include("data/redist")

local function facts()
  return { schema = "ptbuild.facts/1",
    host = { arch = "aarch64", platform = "sbsa", os = { id = "ubuntu", version_id = "24.04" }, glibc = "2.39",
             page_size = 65536, memory_mib = 491520,
             cpu = { implementer = "0x41", part = "0xd4f", microarch = "neoverse_v2", model_name = "Neoverse-V2",
                     features = { "atomics", "sve2" }, cores = 72 } },
    driver = { version = "580.95.05", cuda_max = "13.0" },
    gpus = { { index = 0, name = "NVIDIA GH200 480GB", compute_capability = "9.0" } },
    toolkits = {}, compilers = { { name = "gcc", version = "13.3.0", path = "/usr/bin/gcc" } } }
end

-- torch_release
t.is(P.torch_release("2.9").version, "2.9", "2.9")
t.is(P.torch_release("2.9.1").version, "2.9", "2.9.1 -> 2.9")
t.is(P.torch_release("2.10.0").version, "2.10", "2.10.0 -> 2.10")
t.is(P.torch_release("1.13"), nil, "1.13 unknown")
t.is(P.known_torch()[1], "2.4", "known releases start at 2.4")
t.is(P.known_cuda()[1], "11.8", "known CUDA starts at 11.8")

-- usage errors
local res = P.make({ facts = facts(), torch = "3.0" })
t.is(res.errors and res.errors[1].kind, "usage", "unknown --torch: usage")
t.like(res.errors[1].hint, "2%.4 2%.5", "unknown --torch: the known ones")
res = P.make({ facts = facts(), cuda = "11.4" })
t.like(res.errors and res.errors[1].message or "", "CUDA 11%.4 is older than every CUDA a plan installs %(11%.8 and newer%); 'ptbuild arch LIST %-%-cuda 11%.4' still checks", "CUDA before 11.8: known, but no plan installs it")
res = P.make({ facts = facts(), cuda = "banana" })
t.like(res.errors and res.errors[1].message or "", "not a CUDA version", "--cuda banana")
res = P.make({ facts = facts(), arch_list = "All" })
t.is(res.errors and res.errors[1].kind, "usage", "--arch-list All: usage")

-- the document
local plan = P.make({ facts = facts(), facts_source = "test" })
t.is(plan.schema, "ptbuild.plan/1", "schema")
t.is(plan.torch.version, pytorch.releases[#pytorch.releases].version, "default PyTorch: the newest")
t.is(plan.torch.default, true, "default is flagged")
t.is(plan.cuda.version, "13.0", "GH200 with driver 580: CUDA 13.0")
t.is(plan.cuda.full_version, "13.0.3", "13.0.3, the last 13.0 update")
t.is(plan.cuda.platform, "linux-sbsa", "SBSA")
t.is(plan.cuda.source .. "/" .. plan.cuda.installer, "download/redist", "redist download")
t.is(plan.torch_cuda_arch_list, "9.0+PTX", "arch list")
t.is(plan.cmake.CMAKE_CUDA_ARCHITECTURES, "90-real;90-virtual", "cmake architectures")
t.is(plan.env[1].name, "CUDA_HOME", "env is an ordered array, CUDA_HOME first")
t.is(plan.env[#plan.env].name, "MAX_JOBS", "MAX_JOBS last")
t.is(plan.max_jobs, 72, "72 jobs")
t.is(plan.cmake_fresh, true, "fresh configure")
t.is(#plan.problems, 0, "no problem: the download brings cuDNN")
local dnn = plan.cuda.downloads[#plan.cuda.downloads]
t.is(dnn.name, "cudnn", "cuDNN is the last download, into the toolkit's tree")
-- PyTorch 2.14's cu130 wheels use cuDNN 9.24.0.43 [pt-matrix], carried
-- as its archives' digests [cudnn924]: the SBSA cuda13 one's sha256 as
-- [cudnn924-cf] gives it, with no size (none read)
t.is(dnn.url, "https://developer.download.nvidia.com/compute/cudnn/redist/cudnn/linux-sbsa/cudnn-linux-sbsa-9.24.0.43_cuda13-archive.tar.xz",
  "...the SBSA archive of the cuda13 variant")
t.is(dnn.sha256, "f9b71a8a070073f20224746d9216ac4e28de7f59b54a8c47200ff506e6d4d830", "...with the sha256 conda-forge's recipe pins for it")
t.is(dnn.size, nil, "...and no size, which no source read gives")
t.is(plan.cuda.cudnn and plan.cuda.cudnn.version, "9.24.0.43", "cuda.cudnn names the version")
t.is(plan.cuda.cudnn.manifest, "9.24.0", "cuda.cudnn.manifest names the cuDNN release")
t.is(table.concat(plan.cuda.cudnn.archive_sources or {}, " "), "cudnn924-cf", "cuda.cudnn.archive_sources: where the sha256 is from")
t.is(plan.cuda.cudnn.wheel_version, "9.24.0.43", "cuda.cudnn.wheel_version: what the cu130 wheels use")
local dd = {}
for _, d in ipairs(plan.cuda.docker_downloads) do
  if d.name == "cudnn" then dd[d.platform] = d.url end
end
t.ok(dd["linux-x86_64"] and dd["linux-x86_64"]:match("cudnn%-linux%-x86_64%-9%.24%.0%.43_cuda13") ~= nil,
  "the Dockerfile's downloads hold the x86_64 cuDNN too")
t.ok(dd["linux-sbsa"] ~= nil, "...and the SBSA one")
local old = P.make({ facts = facts(), facts_source = "test", cuda = "12.8", torch = "2.9" })
local last = old.cuda.downloads[#old.cuda.downloads]
t.ok(last and last.url:match("_cuda12%-archive") ~= nil, "CUDA 12.8: the cuda12 variant of cuDNN")
local off = P.make({ facts = facts(), facts_source = "test", no_cudnn = true })
local offdl, offenv = false, nil
for _, d in ipairs(off.cuda.downloads) do offdl = offdl or d.name == "cudnn" end
for _, d in ipairs(off.cuda.docker_downloads) do offdl = offdl or d.name == "cudnn" end
for _, kv in ipairs(off.env) do if kv.name == "USE_CUDNN" then offenv = kv.value end end
t.ok(not offdl, "--no-cudnn: no cuDNN download, for the host or the Dockerfile")
t.is(offenv, "0", "--no-cudnn: USE_CUDNN=0")
t.is(#off.problems, 0, "--no-cudnn: no cudnn-not-found either")
local later = P.make({ facts = facts(), facts_source = "test", cuda = "13.5" })
local ldl = later.cuda.downloads
t.is(#ldl, 1, "CUDA 13.5 (no carried checksums): cuDNN is the one download the plan names")
t.is(ldl[1] and ldl[1].name, "cudnn", "...cuDNN; fetch takes the CUDA files from the manifest")
local lc = false
for _, c in ipairs(later.cuda.components) do lc = lc or c == "cudnn" end
t.ok(not lc and #later.cuda.components > 10, "...and components lists only CUDA's")
t.is(later.cuda.files_from_manifest, true, "...and cuda.files_from_manifest tells fetch so")
t.is(plan.cuda.files_from_manifest, nil, "CUDA 13.0 (carried checksums): no files_from_manifest")
local nodnn = P.make({ facts = facts(), facts_source = "test", cuda = "11.8", torch = "2.5" })
-- CUDA 11.8: 9.20.0 and 9.13.0 have no cuda11 archive; PyTorch 2.5's
-- cu118 wheels use 9.1.0 [release], not carried: the newest carried with
-- a cuda11 one, 9.10.2
local has
for _, d in ipairs(nodnn.cuda.downloads or {}) do if d.name == "cudnn" then has = d end end
t.is(has and has.url, "https://developer.download.nvidia.com/compute/cudnn/redist/cudnn/linux-sbsa/cudnn-linux-sbsa-9.10.2.21_cuda11-archive.tar.xz",
  "CUDA 11.8: cuDNN 9.10.2's cuda11 archive, the newest carried that has one")
local withdnn = facts()
withdnn.toolkits = { { root = "/usr/local/cuda-13.0", version = "13.0.88", cudnn = "9.13.0", target = "sbsa-linux" } }
local p2 = P.make({ facts = withdnn, facts_source = "test" })
t.is(p2.cuda.source, "installed", "the installed 13.0 is used")
t.is(#p2.problems, 0, "installed toolkit with cuDNN: no problems")
local seen = {}
for _, kv in ipairs(plan.env) do
  t.ok(not seen[kv.name], "env name once: " .. kv.name)
  seen[kv.name] = true
  t.is(type(kv.value), "string", "env value is a string: " .. kv.name)
end
t.is(plan.path_prepend.PATH[1], "/usr/local/cuda-13.0/bin", "PATH first")
for _, d in ipairs(plan.cuda.downloads) do
  -- a size for each, but a cuDNN archive carried from digests no size came with
  local sized = d.size and d.size > 0 or (d.name == "cudnn" and d.size == nil and plan.cuda.cudnn.archive_sources ~= nil)
  t.ok(#d.sha256 == 64 and sized and d.url:find("^https://developer%.download%.nvidia%.com/compute/cud[an]n?/redist/"),
    "download " .. d.name .. ": url, sha256, size")
end

-- same input, same output (no hidden state between calls)
local a = P.make({ facts = facts(), facts_source = "test" })
t.is(#a.env, #plan.env, "a second call gives the same env")

-- knowledge tables
for _, r in ipairs(pytorch.releases) do
  for _, v in ipairs(r.cuda) do
    t.ok(A.release(v) ~= nil, ("PyTorch %s: CUDA %s is a known release"):format(r.version, v))
  end
  for plat, lists in pairs(r.wheels) do
    for v, l in pairs(lists) do
      local items, errs = A.parse(l)
      t.ok(#errs == 0 and #items > 0, ("PyTorch %s %s cu%s list parses"):format(r.version, plat, v))
    end
  end
end
-- One L4T table (data/l4t.lua, the one detect reads): well-formed keys
-- and values, and no second list in data/jetson.lua to contradict it.
local l4t = ptb.include("data/l4t")
t.is(jetson.l4t, nil, "data/jetson.lua holds no L4T list of its own")
for rel, jp in pairs(l4t.jetpack) do
  t.ok(rel:match("^%d+%.%d+%.%d+$") and jp:match("^%d+%.%d+[%.%d]*$"), "L4T " .. rel .. " -> JetPack " .. jp)
end
for jp, cu in pairs(l4t.cuda) do
  t.ok(jp:match("^%d+%.%d+$") and cu:match("^%d+%.%d+$"), "JetPack " .. jp .. " -> CUDA " .. cu)
end
for label, m in pairs(redist.labels) do
  local up
  for _, u in pairs(cuda.updates) do if u.label == label then up = u end end
  for plat, files in pairs(m.platforms) do
    for _, f in ipairs(files) do
      t.ok(f.relative_path:find(f.name .. "/" .. plat .. "/", 1, true) == 1, ("redist %s %s %s: path"):format(label, plat, f.name))
    end
  end
  -- every copy is a label a plan installs, or an earlier update of its
  -- minor that fetch --cuda LABEL holds to the copy
  local minor = label:match("^(%d+%.%d+)%.")
  local inst = cuda.updates[minor]
  t.ok(up ~= nil or (inst and A.vcmp(label, inst.label) < 0),
    "redist " .. label .. " is an update label ptbuild installs, or an earlier update of that minor")
end

t.done()
