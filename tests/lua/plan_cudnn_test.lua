-- plan_cudnn_test.lua - which cuDNN a plan downloads with the toolkit:
-- the one the PyTorch release's own Linux wheel of that CUDA uses
-- (data/pytorch.lua wheel_cudnn [release] [pt-matrix]) when ptbuild
-- carries its manifest or that archive's digest, else the newest carried
-- manifest that has an archive for the platform and CUDA major -- never
-- one without.
local t = ptb.include("tap")
local A = ptb.include("lib/archlist")
local T = ptb.include("lib/toolkit")
local pytorch = ptb.include("data/pytorch")
local redist = ptb.include("data/redist")

local function R(v) return (A.release(v)) end
local function wheel(torch, cuda) return (pytorch.wheel_cudnn[torch] or {})[cuda] end

-- The carried releases, newest first: 9.24.0 from its archives' digests
-- alone (no manifest_sha256 [cudnn924]), the rest as NVIDIA's manifests;
-- `cudnn` is the newest manifest.
local labels = {}
for _, c in ipairs(redist.cudnn_releases) do
  labels[#labels + 1] = c.label .. (c.manifest_sha256 and "" or "(digests)")
end
t.is(table.concat(labels, " "), "9.24.0(digests) 9.20.0 9.13.0 9.10.2 9.7.1 9.5.1", "cuDNN releases carried, newest first")
t.is(redist.cudnn, redist.cudnn_releases[2], "redist.cudnn is the newest carried manifest, 9.20.0")

-- { PyTorch, CUDA, platform, cuDNN chosen, "wheel" | "newest" }
local rows = {
  -- the wheel's cuDNN, carried [release]
  { "2.13", "13.0", "linux-x86_64", "9.20.0.48", "wheel" },
  { "2.13", "13.2", "linux-sbsa",   "9.20.0.48", "wheel" },
  { "2.12", "13.0", "linux-sbsa",   "9.20.0.48", "wheel" },
  { "2.9",  "13.0", "linux-sbsa",   "9.13.0.50", "wheel" },
  { "2.9",  "13.0", "linux-x86_64", "9.13.0.50", "wheel" },
  { "2.7",  "12.8", "linux-x86_64", "9.7.1.26",  "wheel" },
  -- 9.10.2.21, the cu126 wheels' cuDNN from 2.8 to 2.14 [release]
  { "2.14", "12.6", "linux-x86_64", "9.10.2.21", "wheel" },
  { "2.12", "12.6", "linux-sbsa",   "9.10.2.21", "wheel" },
  { "2.10", "12.8", "linux-x86_64", "9.10.2.21", "wheel" },
  { "2.8",  "12.9", "linux-sbsa",   "9.10.2.21", "wheel" },
  { "2.7",  "12.6", "linux-sbsa",   "9.5.1.17",  "wheel" },
  { "2.6",  "12.6", "linux-x86_64", "9.5.1.17",  "wheel" },
  -- the wheel's cuDNN carried as its archives' digests [cudnn924]
  -- [cudnn924-nv] [cudnn924-cf]: 2.14's cu130 and cu132 [pt-matrix]
  { "2.14", "13.0", "linux-sbsa",   "9.24.0.43", "wheel" },
  { "2.14", "13.0", "linux-x86_64", "9.24.0.43", "wheel" },
  { "2.14", "13.2", "linux-x86_64", "9.24.0.43", "wheel" },
  { "2.14", "13.2", "linux-sbsa",   "9.24.0.43", "wheel" },
  -- the wheel's cuDNN not carried (9.17.1, 9.1.0): the newest carried
  -- manifest for that CUDA major
  { "2.11", "12.8", "linux-sbsa",   "9.20.0.48", "newest" },
  { "2.5",  "12.4", "linux-x86_64", "9.20.0.48", "newest" },
  -- a CUDA no wheel of the release uses: the newest carried manifest,
  -- never a release carried from digests alone (9.24.0)
  { "2.14", "13.4", "linux-x86_64", "9.20.0.48", "newest" },
  { "2.14", "13.5", "linux-sbsa",   "9.20.0.48", "newest" },
  { "2.14", "12.8", "linux-sbsa",   "9.20.0.48", "newest" },
  { "2.6",  "13.0", "linux-sbsa",   "9.20.0.48", "newest" },
  -- linux-aarch64 (Jetson): 9.20.0 has no cuda13 archive there, so CUDA
  -- 13 takes 9.13.0, which has (no source read gives 9.24.0's, if NVIDIA
  -- has one); CUDA 12 keeps the wheel's or the newest
  { "2.14", "13.0", "linux-aarch64", "9.13.0.50", "newest" },
  { "2.13", "13.0", "linux-aarch64", "9.13.0.50", "newest" },
  { "2.14", "12.6", "linux-aarch64", "9.10.2.21", "wheel" },
  { "2.6",  "12.6", "linux-aarch64", "9.5.1.17",  "wheel" },
}
for _, row in ipairs(rows) do
  local torch, cuda, platform, version, chosen = table.unpack(row)
  local name = ("PyTorch %s, CUDA %s, %s"):format(torch, cuda, platform)
  local e, c = T.cudnn(R(cuda), platform, wheel(torch, cuda))
  t.is(e and e.version, version, name .. ": cuDNN " .. version)
  t.is(c and c.chosen, chosen, name .. ": chosen as " .. chosen)
  -- the entry is the carried manifest's own archive of that variant
  local variant = "cuda" .. cuda:match("^%d+")
  local m
  for _, r in ipairs(redist.cudnn_releases) do if r.label == (c and c.label) then m = r end end
  local a = m and m.platforms[platform] and m.platforms[platform][variant]
  t.ok(a and e.sha256 == a.sha256 and e.size == a.size and e.url == m.base_url .. a.relative_path
    and e.variant == variant and e.url:find(platform .. "-" .. version .. "_" .. variant .. "-archive", 1, true),
    name .. ": url, sha256 and size of redistrib_" .. tostring(c and c.label) .. ".json's " .. platform .. " " .. variant)
end

-- 9.24.0's archives, each with its sha256 as the sources it cites give
-- it (the size where one did): the cuda12 ones too, for a wheel of CUDA
-- 12 that would use 9.24.0.43.
for _, row in ipairs({
  { "12.9", "linux-x86_64", "7dea7fc8436fdd65cb22cd6634e5a2834e4a8508217abea5286c15affa9a80a0", 1021467740, "cudnn924-nv cudnn924-cf" },
  { "13.0", "linux-x86_64", "63f1900222c69ee7e94583408181ccdb988dc2833531ce6bde0df43bbdd04a6d", 913717900, "cudnn924-nv cudnn924-cf" },
  { "12.9", "linux-sbsa", "802f6f1138537f5f845322dc27f67a1055047dcb26d37fc2ad94a5e65ef728ee", 1068207284, "cudnn924-nv cudnn924-cf" },
  { "13.0", "linux-sbsa", "f9b71a8a070073f20224746d9216ac4e28de7f59b54a8c47200ff506e6d4d830", nil, "cudnn924-cf" },
}) do
  local cuda, platform, sha, size, srcs = table.unpack(row)
  local e, c = T.cudnn(R(cuda), platform, "9.24.0.43")
  local name = ("cuDNN 9.24.0.43 for CUDA %s on %s"):format(cuda, platform)
  t.is(e and (e.version .. " " .. e.sha256 .. " " .. tostring(e.size)), "9.24.0.43 " .. sha .. " " .. tostring(size),
    name .. ": sha256 " .. sha:sub(1, 8) .. ", size " .. tostring(size))
  t.is(c and (c.chosen .. " " .. tostring(c.manifest_sha256) .. " " .. table.concat(c.sources or {}, " ")),
    "wheel nil " .. srcs, name .. ": the wheel's, no manifest digest, sources " .. srcs)
end

-- Every chosen archive exists; a variant no manifest has gives none.
t.is(T.cudnn(R("11.8"), "linux-aarch64", nil), nil, "CUDA 11.8 on linux-aarch64: no carried cuDNN has an archive, none")
t.is((T.cudnn(R("11.8"), "linux-x86_64", wheel("2.7", "11.8"))).version, "9.10.2.21",
  "PyTorch 2.7 cu118 (cuDNN 9.1.0, not carried): the newest carried with a cuda11 archive, 9.10.2")
for _, c in ipairs(redist.cudnn_releases) do
  for platform, vars in pairs(c.platforms) do
    for variant, a in pairs(vars) do
      t.ok(a.relative_path:find("cudnn/" .. platform .. "/cudnn-" .. platform .. "-" .. c.version .. "_" .. variant .. "-archive", 1, true) == 1
        and #a.sha256 == 64, ("redistrib_%s.json %s %s: NVIDIA's path and a sha256"):format(c.label, platform, variant))
    end
  end
end
-- The plan's reason says which case it is, and never that a wheel is
-- missing when the release ships it: 2.12's and 2.13's cu129 wheels pin
-- cuDNN 9.20.0.48 [pt-matrix]; a wheel whose cuDNN ptbuild did not know
-- (that pin taken away for the test) is named as such.
local P = ptb.include("plan")
local function gh200()
  return { schema = "ptbuild.facts/1",
    host = { arch = "aarch64", platform = "sbsa", os = { id = "ubuntu", version_id = "24.04" }, glibc = "2.39",
             page_size = 65536, memory_mib = 491520,
             cpu = { implementer = "0x41", part = "0xd4f", cores = 72 } },
    driver = { version = "580.95.05", cuda_max = "13.0" },
    gpus = { { index = 0, name = "NVIDIA GH200 480GB", compute_capability = "9.0" } },
    toolkits = {}, compilers = { { name = "gcc", version = "13.3.0", path = "/usr/bin/gcc" } } }
end
local function cudnn_why(torch, cuda)
  local plan = P.make({ facts = gh200(), facts_source = "test", torch = torch, cuda = cuda })
  for _, d in ipairs(plan.decisions or {}) do if d.topic == "cudnn" then return d.why end end
  return ""
end
for _, row in ipairs({
  { "2.12", "12.9", "^the cuDNN PyTorch 2%.12's cu129 wheels use, from NVIDIA's redistrib_9%.20%.0%.json" },
  { "2.13", "12.9", "^the cuDNN PyTorch 2%.13's cu129 wheels use, from NVIDIA's redistrib_9%.20%.0%.json" },
  { "2.12", "12.8", "^PyTorch 2%.12 has no cu128 wheel to take the cuDNN of" },
  -- the fallback is the newest whole manifest held, and says so: 9.24.0.43
  -- is newer and its archives' sha256 are carried, for the wheels using it
  { "2.14", "13.5", "^PyTorch 2%.14 has no cu135 wheel to take the cuDNN of: the newest cuDNN whose whole NVIDIA manifest ptbuild holds for CUDA 13 on linux%-sbsa %(redistrib_9%.20%.0%.json%); 9%.24%.0%.43, newer, is carried only as per%-archive sha256 for the wheels that use it" },
  { "2.12", "12.8", "; 9%.24%.0%.43, newer, is carried only as per%-archive sha256" },
  { "2.14", "12.9", "^PyTorch 2%.14 has no cu129 wheel to take the cuDNN of" },
  { "2.14", "13.0", "^the cuDNN PyTorch 2%.14's cu130 wheels use; ptbuild holds no copy of NVIDIA's redistrib_9%.24%.0%.json, only this archive's sha256 as one source gives it %(cudnn924%-cf in ptbuild's sources%), and no size: fetch checks the sha256 alone" },
  -- 2.11.0's pins, not RELEASE.md's 9.17.1.4 [pt-cudnn211]
  { "2.11", "12.8", "^PyTorch 2%.11's cu128 wheels use cuDNN 9%.19%.0%.56, whose checksums ptbuild does not carry" },
  { "2.13", "13.0", "^the cuDNN PyTorch 2%.13's cu130 wheels use, from NVIDIA's redistrib_9%.20%.0%.json" },
}) do
  local torch, cuda, want = table.unpack(row)
  t.like(cudnn_why(torch, cuda), want, ("plan of PyTorch %s, CUDA %s: the cuDNN reason says %s"):format(
    torch, cuda, want:gsub("%%", ""):sub(2, 50)))
end
-- An archive of 9.24.0 no source gives the sha256 of is not carried (the
-- SBSA cuda13 one taken away for the test): the plan falls back to the
-- newest manifest and says why -- not that NVIDIA has no such archive.
local e924
for _, c in ipairs(redist.cudnn_releases) do if c.label == "9.24.0" then e924 = c end end
local sbsa13 = e924.platforms["linux-sbsa"].cuda13
e924.platforms["linux-sbsa"].cuda13 = nil
t.like(cudnn_why("2.14", "13.0"),
  "^PyTorch 2%.14's cu130 wheels use cuDNN 9%.24%.0%.43, whose linux%-sbsa cuda13 archive no source read gives the sha256 of: the newest cuDNN whose whole NVIDIA manifest ptbuild holds for CUDA 13 on linux%-sbsa instead %(redistrib_9%.20%.0%.json%);",
  "a 9.24.0 archive not carried: the plan takes 9.20.0 and says no source gives the archive's sha256")
t.ok(not cudnn_why("2.14", "13.0"):find("newer", 1, true),
  "a 9.24.0 archive not carried: not named as a newer one carried")
e924.platforms["linux-sbsa"].cuda13 = sbsa13
local pin = pytorch.wheel_cudnn["2.13"]["12.9"]
pytorch.wheel_cudnn["2.13"]["12.9"] = nil
t.like(cudnn_why("2.13", "12.9"), "^ptbuild does not know the cuDNN PyTorch 2%.13's cu129 wheels use: the newest",
  "a wheel CUDA whose cuDNN ptbuild does not know: the reason says so, and takes the newest")
pytorch.wheel_cudnn["2.13"]["12.9"] = pin
t.done()
