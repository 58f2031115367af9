-- data_sources_test.lua - values of data/cuda.lua held to the sources
-- they were audited against (ids resolve in recipes/data/sources.lua).
local t = ptb.include("tap")
local cuda = ptb.include("data/cuda")
local T = ptb.include("lib/toolkit")
local A = ptb.include("lib/archlist")

local function release(v) return (A.release(v)) end

-- Runfiles: label, platform, name and sha256 as spack/spack-packages@1e8cf05
-- packages/cuda/package.py lists them [spack] (URL
-- .../compute/cuda/<label>/local_installers/<name>), held in
-- data/runfiles.lua (generated from tools/data/runfiles.csv).
local runfiles = ptb.include("data/runfiles")
local spack_rows = {
  { "11.8.0", "linux-x86_64", "cuda_11.8.0_520.61.05_linux.run",
    "9223c4af3aebe4a7bbed9abd9b163b03a1b34b855fbc2b4a0d1b706ac09a5a16" },
  { "11.8.0", "linux-sbsa", "cuda_11.8.0_520.61.05_linux_sbsa.run",
    "e6e9a8d31163c9776b5e313fd7590877c5684e1ecddee741154f95704d4ed27c" },
  { "12.0.1", "linux-x86_64", "cuda_12.0.1_525.85.12_linux.run",
    "1b205a06272f1463f477276fdab903f3f666917c068e520738001e69c7a1875b" },
  { "12.0.1", "linux-sbsa", "cuda_12.0.1_525.85.12_linux_sbsa.run",
    "835270a8db419b9dbaefc1bab8fe5caf6f2caf381975c4b0d35cc0718c26074a" },
  { "12.1.1", "linux-x86_64", "cuda_12.1.1_530.30.02_linux.run",
    "d74022d41d80105319dfa21beea39b77a5b9919539c0487a05caaf2446d6a70e" },
  { "12.1.1", "linux-sbsa", "cuda_12.1.1_530.30.02_linux_sbsa.run",
    "45ea4cd860f0a26d3db8ce032530f2ee0b55abdd587545213d395a73623b4278" },
  { "12.2.2", "linux-x86_64", "cuda_12.2.2_535.104.05_linux.run",
    "2b39aae3e7618d9f59a3c8fa1f1bc61f29c0b0e0df75fb05076badb352952ef2" },
  { "12.2.2", "linux-sbsa", "cuda_12.2.2_535.104.05_linux_sbsa.run",
    "4113a15e6b27a02638c72edeb5f89de4c9ea312febba12fc4cefff2edc882268" },
  { "12.3.2", "linux-x86_64", "cuda_12.3.2_545.23.08_linux.run",
    "24b2afc9f770d8cf43d6fa7adc2ebfd47c4084db01bdda1ce3ce0a4d493ba65b" },
  { "12.3.2", "linux-sbsa", "cuda_12.3.2_545.23.08_linux_sbsa.run",
    "761b84e292b94c4d330f445d36326dfff90a418e909fb0baf3d6f03e24106d08" },
  { "12.4.1", "linux-x86_64", "cuda_12.4.1_550.54.15_linux.run",
    "367d2299b3a4588ab487a6d27276ca5d9ead6e394904f18bccb9e12433b9c4fb" },
  { "12.4.1", "linux-sbsa", "cuda_12.4.1_550.54.15_linux_sbsa.run",
    "b0fbc77effa225498974625b6b08b3f6eff4a37e379f5b60f1d3827b215ad19b" },
  { "12.5.1", "linux-x86_64", "cuda_12.5.1_555.42.06_linux.run",
    "b5e0a779e089c86610051141c4cf498beef431858ec63398107391727ecbdb04" },
  { "12.5.1", "linux-sbsa", "cuda_12.5.1_555.42.06_linux_sbsa.run",
    "353e8abc52ca80adf05002b775c7b3a2d2feefcf1c25ae13f8757f9a11efba3e" },
  { "12.6.3", "linux-x86_64", "cuda_12.6.3_560.35.05_linux.run",
    "81d60e48044796d7883aa8a049afe6501b843f2c45639b3703b2378de30d55d3" },
  { "12.6.3", "linux-sbsa", "cuda_12.6.3_560.35.05_linux_sbsa.run",
    "213ea63a6357020978a8b0a79a8c9d12a2a5941afa1cdc69d5a3f933fa8bed04" },
  { "12.8.1", "linux-x86_64", "cuda_12.8.1_570.124.06_linux.run",
    "228f6bcaf5b7618d032939f431914fc92d0e5ed39ebe37098a24502f26a19797" },
  { "12.8.1", "linux-sbsa", "cuda_12.8.1_570.124.06_linux_sbsa.run",
    "353cbab1b57282a1001071796efd95c1e40ec27a3375e854d12637eaa1c6107c" },
  { "12.9.1", "linux-x86_64", "cuda_12.9.1_575.57.08_linux.run",
    "0f6d806ddd87230d2adbe8a6006a9d20144fdbda9de2d6acc677daa5d036417a" },
  { "12.9.1", "linux-sbsa", "cuda_12.9.1_575.57.08_linux_sbsa.run",
    "64f47ab791a76b6889702425e0755385f5fa216c5a9f061875c7deed5f08cdb6" },
  { "13.0.2", "linux-x86_64", "cuda_13.0.2_580.95.05_linux.run",
    "81a5d0d0870ba2022efb0a531dcc60adbdc2bbff7b3ef19d6fd6d8105406c775" },
  { "13.0.2", "linux-sbsa", "cuda_13.0.2_580.95.05_linux_sbsa.run",
    "93ab4c77ae2bc0f1f600ef48ccd3ff25a3203a6a6161a84511a33cbf5b5621fc" },
  { "13.1.1", "linux-x86_64", "cuda_13.1.1_590.48.01_linux.run",
    "24ff323723722781436804b392a48f691cb40de9808095d3e2192d0db6dfb8e4" },
  { "13.1.1", "linux-sbsa", "cuda_13.1.1_590.48.01_linux_sbsa.run",
    "8adcd5d4b3e1e70f7420959b97514c0c97ec729da248d54902174c4d229bfd2c" },
}
for _, row in ipairs(spack_rows) do
  local label, platform, name, sha256 = table.unpack(row)
  local rf = (runfiles[label] or {})[platform]
  t.is(rf and rf.name, name, label .. " " .. platform .. ": runfile " .. name)
  t.is(rf and rf.sha256, sha256, label .. " " .. platform .. ": sha256 as spack pins it")
end

-- The update each minor installs: its last one, with the runfile of that
-- label in the plan.  12.3.2 is "CUDA 12.3 Update 2" [nv-vgpu-cuda]; the
-- 2026 updates 12.8.2, 12.9.2, 13.0.3 and 13.1.2 [ctk-catalog]
-- [cuda-2026-updates]; the others [tk-csv].
for _, row in ipairs({
  { "11.8", "11.8.0" }, { "12.0", "12.0.1" }, { "12.1", "12.1.1" }, { "12.2", "12.2.2" },
  { "12.3", "12.3.2" }, { "12.4", "12.4.1" }, { "12.5", "12.5.1" }, { "12.6", "12.6.3" },
  { "12.8", "12.8.2" }, { "12.9", "12.9.2" }, { "13.0", "13.0.3" }, { "13.1", "13.1.2" },
  { "13.2", "13.2.2" }, { "13.3", "13.3.1" },
}) do
  local minor, label = row[1], row[2]
  t.is(cuda.updates[minor] and cuda.updates[minor].label, label, minor .. ": installs " .. label)
  for _, platform in ipairs({ "linux-x86_64", "linux-sbsa" }) do
    local inst = T.installer(release(minor), platform, "runfile")
    local name = runfiles[label][platform].name
    t.is(inst.runfile ~= ptb.null and inst.runfile.url or nil,
      "https://developer.download.nvidia.com/compute/cuda/" .. label .. "/local_installers/" .. name,
      minor .. " " .. platform .. ": the plan downloads " .. name .. " from the label's folder")
  end
end

-- 13.4: 13.4.2 ("13.4 Update 1") [rn1342], runfiles named without a
-- driver [setupcuda1342], pinned by NVIDIA's md5 alone; the
-- minimum driver, 615.71.09, is the cuda-compat-13-4 driver of 13.4.1
-- [dlfw2608] and of 13.4.2 [al2023-1342]; no driver bundled [unbundle134].
t.is(cuda.updates["13.4"].label, "13.4.2", "13.4: installs 13.4.2 [rn1342]")
t.is(runfiles["13.4.2"]["linux-x86_64"].name, "cuda_13.4.2_linux.run", "13.4 x86_64 runfile [setupcuda1342]")
t.is(runfiles["13.4.2"]["linux-sbsa"].name, "cuda_13.4.2_linux_sbsa.run", "13.4 sbsa runfile [setupcuda1342]")
t.ok(runfiles["13.4.2"]["linux-x86_64"].sha256 == nil, "13.4 runfile: no sha256 published")
-- NVIDIA's md5sum.txt of 13.4.2, as a setup-cuda action's fixture copies
-- it [setupcuda1342]; it gives no sizes
t.is(runfiles["13.4.2"]["linux-x86_64"].md5, "b712b790dfb5ca988d38cbed4d236488", "13.4.2 x86_64 md5 [setupcuda1342]")
t.is(runfiles["13.4.2"]["linux-sbsa"].md5, "a3e8528b87d2fba6e2ce526fe0dc5632", "13.4.2 sbsa md5 [setupcuda1342]")
t.ok(runfiles["13.4.2"]["linux-sbsa"].size == nil, "13.4.2: no size recorded")
t.ok(runfiles["13.4.2"].driver == nil, "13.4.2 bundles no driver [unbundle134]")
t.is(release("13.4").driver_min, "615.71.09", "13.4 driver_min [dlfw2608] [al2023-1342]")
-- 13.5: the forward-compatibility driver NVIDIA released with it, the
-- cuda13.5 variant of cuda_compat in its driver manifest
-- redistrib_620.70.06.json (2026-11-04, the date of redistrib_13.5.0.json)
-- [nvdrv62070]: an upper bound of the minimum, as 13.4's 615.71.09 is.
t.is(release("13.5").driver_min, "620.70.06", "13.5 driver_min 620.70.06 [nvdrv62070]")
t.is(release("13.5").compat_min, "580", "13.5: minor-version floor 580 [rn-t2]")
-- NVIDIA published SBSA (arm64 server) runfiles from 11.0.2 on: spack
-- pins cuda_11.0.2_450.51.05_linux_sbsa.run ... cuda_11.3.1_465.19.01_linux_sbsa.run
-- [spack]; the redist archives for linux-sbsa start at 11.4.
for _, v in ipairs({ "11.0", "11.1", "11.2", "11.3" }) do
  local has = false
  for _, p in ipairs(release(v).platforms) do has = has or p == "linux-sbsa" end
  t.ok(has, v .. ": NVIDIA publishes a linux-sbsa toolkit [spack]")
end
-- CUDA 12.8-13.4 as audited on 2026-12-01 against sources read that day
-- (data/cuda.lua's audit note).  Driver minimums: meson's transcription
-- of the release notes' Table 3 [meson]; 13.4's is the upper bound
-- [dlfw2608] [al2023-1342].  Minor-version floors [rn-t2].  Host
-- compilers: the majors nvcc's crt/host_config.h refuses from, as
-- transcripts quote the guard [hostcfg-obs] [nvcc13] [hostcfg134], and
-- spack's conflicts [spack-cuda], nixpkgs' tables [nix] [nix131] and
-- CMS [cmsdist10844] agree.  GPU code: NVIDIA's PTX release history
-- [ptx-rel], LLVM's NVPTX table [llvm-nvptx], CMake's "all" [cmake] and
-- nvcc 13.0 itself [nvcc13].
local audit = {  -- version, driver_min, compat_min, gcc_max, clang_max, sm, sm_a, sm_f
  { "12.8", "570.26", "525.60.13", 14, 19,
    "5.0 5.2 5.3 6.0 6.1 6.2 7.0 7.2 7.5 8.0 8.6 8.7 8.9 9.0 10.0 10.1 12.0", "9.0 10.0 10.1 12.0", "" },
  { "12.9", "575.51.03", "525.60.13", 14, 19,
    "5.0 5.2 5.3 6.0 6.1 6.2 7.0 7.2 7.5 8.0 8.6 8.7 8.9 9.0 10.0 10.1 12.0 10.3 12.1",
    "9.0 10.0 10.1 10.3 12.0 12.1", "10.0 10.1 10.3 12.0 12.1" },
  { "13.0", "580.65.06", "580", 15, 20, "7.5 8.0 8.6 8.7 8.8 8.9 9.0 10.0 10.3 11.0 12.0 12.1",
    "9.0 10.0 10.3 11.0 12.0 12.1", "10.0 10.3 11.0 12.0 12.1" },
  { "13.1", "590.44.01", "580", 15, 21, "7.5 8.0 8.6 8.7 8.8 8.9 9.0 10.0 10.3 11.0 12.0 12.1",
    "9.0 10.0 10.3 11.0 12.0 12.1", "10.0 10.3 11.0 12.0 12.1" },
  { "13.2", "595.45.04", "580", 15, 21, "7.5 8.0 8.6 8.7 8.8 8.9 9.0 10.0 10.3 11.0 12.0 12.1",
    "9.0 10.0 10.3 11.0 12.0 12.1", "10.0 10.3 11.0 12.0 12.1" },
  { "13.3", "610.43.02", "580", 15, 21, "7.5 8.0 8.6 8.7 8.8 8.9 9.0 10.0 10.3 11.0 12.0 12.1",
    "9.0 10.0 10.3 11.0 12.0 12.1", "10.0 10.3 11.0 12.0 12.1" },
  { "13.4", "615.71.09", "580", 16, 22, "7.5 8.0 8.6 8.7 8.8 8.9 9.0 10.0 10.3 10.7 11.0 12.0 12.1",
    "9.0 10.0 10.3 10.7 11.0 12.0 12.1", "10.0 10.3 10.7 11.0 12.0 12.1" },
}
for _, row in ipairs(audit) do
  local v, drv, compat, gcc, clang, sm, sm_a, sm_f = table.unpack(row)
  local r = release(v)
  t.is(r.driver_min, drv, v .. ": driver_min " .. drv .. " [meson]")
  t.is(r.compat_min, compat, v .. ": minor-version floor " .. compat .. " [rn-t2]")
  t.is(r.gcc_max, gcc, v .. ": gcc " .. gcc .. " the newest nvcc accepts [hostcfg-obs] [spack-cuda]")
  t.is(r.clang_max, clang, v .. ": clang " .. clang .. " the newest nvcc accepts [hostcfg-obs] [spack-cuda]")
  t.is(table.concat(r.sm, " "), sm, v .. ": sm " .. sm .. " [ptx-rel] [llvm-nvptx]")
  t.is(table.concat(r.sm_a, " "), sm_a, v .. ": a variants " .. sm_a .. " [ptx-rel]")
  t.is(table.concat(r.sm_f, " "), sm_f, v .. ": f variants '" .. sm_f .. "' [ptx-rel]")
  t.ok(not r.assumed, v .. ": not marked assumed")
end
-- CUDA 11.0-12.6 as audited on 2026-12-02 (data/cuda.lua's audit note).
-- driver_min: Table 3 as meson transcribes it [meson] (11.0.2 GA ...
-- 12.6.0), the driver each x.y.0 runfile bundles from 11.3 on alike
-- [spack]; compat_min [rn-t2].  gcc_max/clang_max: the guards of
-- crt/host_config.h in Debian's and Ubuntu's nvidia-cuda-dev of 11.2.2,
-- 11.5.1, 11.8.0, 12.0.1, 12.2.2, 12.4.1 and 12.5.0 [deb-hostcfg]; the
-- others [spack-cuda] and nixpkgs' table [nix-old] (11.6: spack allows
-- clang 13, nixpkgs does not: the conservative 12).  sm and sm_a: CMake's
-- "all" [cmake], clang's first/last CUDA per arch [clang] and NVIDIA's PTX
-- release history [ptx-rel].  platforms: NVIDIA's runfiles [spack] (an
-- SBSA one from 11.0.2), redist manifests [nixpkgs-redist] from 11.8.
local sbsa_ppc = "linux-x86_64 linux-sbsa linux-ppc64le"
local all4 = "linux-x86_64 linux-sbsa linux-aarch64 linux-ppc64le"
local x12 = "5.0 5.2 5.3 6.0 6.1 6.2 7.0 7.2 7.5 8.0 8.6 8.7 8.9 9.0"
local audit11 = {  -- version, driver_min, compat_min, gcc_max, clang_max, sm, sm_a, platforms
  { "11.0", "450.51.05", "450.80.02", 9, 9, "3.5 3.7 5.0 5.2 5.3 6.0 6.1 6.2 7.0 7.2 7.5 8.0", "", sbsa_ppc },
  { "11.1", "455.23", "450.80.02", 10, 10, "3.5 3.7 5.0 5.2 5.3 6.0 6.1 6.2 7.0 7.2 7.5 8.0 8.6", "", sbsa_ppc },
  { "11.2", "460.27.03", "450.80.02", 10, 11, "3.5 3.7 5.0 5.2 5.3 6.0 6.1 6.2 7.0 7.2 7.5 8.0 8.6", "", sbsa_ppc },
  { "11.3", "465.19.01", "450.80.02", 10, 11, "3.5 3.7 5.0 5.2 5.3 6.0 6.1 6.2 7.0 7.2 7.5 8.0 8.6", "", sbsa_ppc },
  { "11.4", "470.42.01", "450.80.02", 11, 12, "3.5 3.7 5.0 5.2 5.3 6.0 6.1 6.2 7.0 7.2 7.5 8.0 8.6 8.7", "", sbsa_ppc },
  { "11.5", "495.29.05", "450.80.02", 11, 12, "3.5 3.7 5.0 5.2 5.3 6.0 6.1 6.2 7.0 7.2 7.5 8.0 8.6 8.7", "", sbsa_ppc },
  { "11.6", "510.39.01", "450.80.02", 11, 12, "3.5 3.7 5.0 5.2 5.3 6.0 6.1 6.2 7.0 7.2 7.5 8.0 8.6 8.7", "", sbsa_ppc },
  { "11.7", "515.43.04", "450.80.02", 11, 13, "3.5 3.7 5.0 5.2 5.3 6.0 6.1 6.2 7.0 7.2 7.5 8.0 8.6 8.7", "", sbsa_ppc },
  { "11.8", "520.61.05", "450.80.02", 11, 14, "3.5 3.7 5.0 5.2 5.3 6.0 6.1 6.2 7.0 7.2 7.5 8.0 8.6 8.7 8.9 9.0", "", all4 },
  { "12.0", "525.60.13", "525.60.13", 12, 14, x12, "9.0", all4 },
  { "12.1", "530.30.02", "525.60.13", 12, 15, x12, "9.0", all4 },
  { "12.2", "535.54.03", "525.60.13", 12, 16, x12, "9.0", all4 },
  { "12.3", "545.23.06", "525.60.13", 12, 16, x12, "9.0", "linux-x86_64 linux-sbsa linux-ppc64le" },
  { "12.4", "550.54.14", "525.60.13", 13, 17, x12, "9.0", all4 },
  { "12.5", "555.42.02", "525.60.13", 13, 17, x12, "9.0", "linux-x86_64 linux-sbsa linux-aarch64" },
  { "12.6", "560.28.03", "525.60.13", 13, 18, x12, "9.0", "linux-x86_64 linux-sbsa linux-aarch64" },
}
for _, row in ipairs(audit11) do
  local v, drv, compat, gcc, clang, sm, sm_a, plats = table.unpack(row)
  local r = release(v)
  t.is(r.driver_min, drv, v .. ": driver_min " .. drv .. " [meson] [spack]")
  t.is(r.compat_min, compat, v .. ": minor-version floor " .. compat .. " [rn-t2]")
  t.is(r.gcc_max, gcc, v .. ": gcc " .. gcc .. " the newest nvcc accepts [deb-hostcfg] [spack-cuda]")
  t.is(r.clang_max, clang, v .. ": clang " .. clang .. " the newest nvcc accepts [deb-hostcfg] [spack-cuda] [nix-old]")
  t.is(table.concat(r.sm, " "), sm, v .. ": sm " .. sm .. " [cmake] [clang] [ptx-rel]")
  t.is(table.concat(r.sm_a, " "), sm_a, v .. ": a variants '" .. sm_a .. "' [ptx-rel] [clang]")
  t.is(table.concat(r.sm_f, " "), "", v .. ": no f variants before 12.9 [ptx-rel]")
  t.is(table.concat(r.platforms, " "), plats, v .. ": platforms " .. plats .. " [spack] [nixpkgs-redist]")
  t.ok(not r.assumed, v .. ": not marked assumed")
end
-- 11.0 builds no sm_30/sm_32 [rn110] [clang]; 11.8 still builds
-- sm_35/sm_37, 12.0 no longer [cmake] [clang]
local function builds(v, cc)
  for _, x in ipairs(release(v).sm) do if x == cc then return true end end
  return false
end
for _, cc in ipairs({ "3.0", "3.2" }) do
  t.ok(not builds("11.0", cc), cc .. ": not built by 11.0 [rn110] [clang]")
end
for _, cc in ipairs({ "3.5", "3.7" }) do
  t.ok(builds("11.8", cc) and not builds("12.0", cc), cc .. ": built by 11.8, dropped by 12.0 [cmake] [clang]")
end
-- 13.0 drops every GPU below 7.5 (Maxwell, Pascal, Volta, Xavier): CMS
-- drops Volta for it [cmsdist10616], nvcc 13.0 lists none [nvcc13]
for _, cc in ipairs({ "5.0", "6.1", "7.0", "7.2" }) do
  local in129, in130 = false, false
  for _, x in ipairs(release("12.9").sm) do in129 = in129 or x == cc end
  for _, x in ipairs(release("13.0").sm) do in130 = in130 or x == cc end
  t.ok(in129 and not in130, cc .. ": built by 12.9, dropped by 13.0 [cmsdist10616] [nvcc13]")
end
-- The first and last CUDA of each architecture from 12.8 on, as LLVM's
-- NVPTX table gives them (MIN_VER, MAX_VER) [llvm-nvptx] and meson's
-- ranges agree [meson] (data/archs.lua).
local archs = ptb.include("data/archs")
for _, row in ipairs({
  { "5.0", nil, "12.9" }, { "6.1", nil, "12.9" }, { "7.0", nil, "12.9" }, { "7.2", nil, "12.9" },
  { "8.8", "13.0", nil }, { "10.0", "12.8", nil }, { "10.1", "12.8", "12.9" }, { "10.3", "12.9", nil },
  { "10.7", "13.4", nil }, { "11.0", "13.0", nil }, { "12.0", "12.8", nil }, { "12.1", "12.9", nil },
  -- 11.0-12.6 [clang] (MinVersionForCudaArch / MaxVersionForCudaArch) and
  -- NVIDIA's PTX release history [ptx-rel]; meson gives 8.7 from 11.5,
  -- NVIDIA (PTX ISA 7.4, CUDA 11.4: sm_87), CMake and clang from 11.4
  { "3.0", nil, "10.2" }, { "3.2", nil, "10.2" }, { "3.5", nil, "11.8" }, { "3.7", nil, "11.8" },
  { "7.5", nil, nil }, { "8.0", "11.0", nil }, { "8.6", "11.1", nil }, { "8.7", "11.4", nil },
  { "8.9", "11.8", nil }, { "9.0", "11.8", nil },
  -- the rest of Maxwell and Pascal, up to 12.9 as spack's cuda_arch
  -- ranges give them (cuda@6.5:12.9 for 52, 53; cuda@8.0:12.9 for 60, 62)
  -- [spack-cuda] [meson]
  { "5.2", nil, "12.9" }, { "5.3", nil, "12.9" }, { "6.0", nil, "12.9" }, { "6.2", nil, "12.9" },
}) do
  local cc, first, last = table.unpack(row)
  local a = archs[cc] or {}
  t.is(tostring(a.first) .. "-" .. tostring(a.last), tostring(first) .. "-" .. tostring(last),
    cc .. ": first " .. tostring(first) .. ", last " .. tostring(last) .. " [llvm-nvptx] [meson]")
end
-- PyTorch's wheels, release by release, as the tag's files give them:
-- every cell of 2.8-2.14 (and the aarch64 wheels of 2.4 and 2.5) with the
-- source it comes from.  A row: version, Python min-max, wheel CUDAs
-- (stable, experimental and off-matrix cu129), RELEASE.md's experimental
-- CUDA, then per platform and CUDA the TORCH_CUDA_ARCH_LIST (nil: no
-- wheel) and the cuDNN.
local pytorch = ptb.include("data/pytorch")
local function torch(v)
  for _, r in ipairs(pytorch.releases) do if r.version == v then return r end end
end
local x12 = "5.0;6.0;7.0;7.5;8.0;8.6;9.0"
local matrix = {
  -- [release] for CUDAs and Python; [bcuda] @00c7a380 and [aarch64] #157843
  { "2.8", "3.9-3.13", "12.6 12.8 12.9", "12.9", {
    { "12.6", x12, nil, "9.10.2.21", "[bcuda]" },
    { "12.8", "7.0;7.5;8.0;8.6;9.0;10.0;12.0", nil, "9.10.2.21", "[bcuda]" },
    { "12.9", "7.0;7.5;8.0;8.6;9.0;10.0;12.0+PTX", "8.0;9.0;10.0;12.0", "9.10.2.21", "[bcuda] [aarch64]" } } },
  -- cu129 from 2.9.1 [pt-matrix]; x86_64 [pt-cu129], aarch64 [pt-aarch64-29]
  { "2.9", "3.10-3.14", "12.6 12.8 12.9 13.0", "13.0", {
    { "12.6", x12, "8.0;9.0", "9.10.2.21", "[pt-cu129] [pt-aarch64-29]" },
    { "12.8", "7.0;7.5;8.0;8.6;9.0;10.0;12.0", "8.0;9.0;10.0;12.0", "9.10.2.21", "[pt-cu129] [pt-aarch64-29] [pt-archlist]" },
    { "12.9", "7.0;7.5;8.0;8.6;9.0;10.0;12.0+PTX", "8.0;9.0;10.0;12.0", "9.10.2.21", "[pt-cu129] [aarch64]" },
    { "13.0", "7.5;8.0;8.6;9.0;10.0;12.0+PTX", "8.0;9.0;10.0;11.0;12.0+PTX", "9.13.0.50", "[pt-cu129] [pt-aarch64-29]" } } },
  -- build_cuda.sh@799d09f computes v2.10.0's lists [pt-bcuda210] [pt-cu129]
  { "2.10", "3.10-3.14", "12.6 12.8 12.9 13.0", "13.0", {
    { "12.6", x12, "8.0;9.0", "9.10.2.21", "[pt-bcuda210]" },
    { "12.8", "7.0;7.5;8.0;8.6;9.0;10.0;12.0", "8.0;9.0;10.0;12.0", "9.10.2.21", "[pt-bcuda210]" },
    { "12.9", "7.0;7.5;8.0;8.6;9.0;10.0;12.0+PTX", "8.0;9.0;10.0;12.0+PTX", "9.10.2.21", "[pt-bcuda210] [pt-matrix]" },
    { "13.0", "7.5;8.0;8.6;9.0;10.0;12.0+PTX", "8.0;9.0;10.0;11.0;12.0+PTX", "9.15.1.9", "[pt-bcuda210] [pt-archlist]" } } },
  -- 2.11.0: 7.0 gone from 12.8 and 12.9, no PTX on 13.0 [pt-cu129];
  -- cuDNN 9.19.0.56 [pt-cudnn211]
  { "2.11", "3.10-3.14", "12.6 12.8 12.9 13.0", "", {
    { "12.6", x12, "8.0;9.0", "9.10.2.21", "[pt-cu129]" },
    { "12.8", "7.5;8.0;8.6;9.0;10.0;12.0", "8.0;9.0;10.0;12.0", "9.19.0.56", "[pt-cu129] [pt-cudnn211]" },
    { "12.9", "7.5;8.0;8.6;9.0;10.0;12.0+PTX", "8.0;9.0;10.0;12.0+PTX", "9.17.1.4", "[pt-cu129] [pt-matrix]" },
    { "13.0", "7.5;8.0;8.6;9.0;10.0;12.0", "8.0;9.0;10.0;11.0;12.0", "9.19.0.56", "[pt-cu129] [pt-cudnn211]" } } },
  -- 2.12-2.14: [pt-envsetup]'s sets, without the +PTX the tags' release
  -- builds leave out [pt-cu129] [pt-archlist]; cu129 in 2.12.1 and 2.13.0
  { "2.12", "3.10-3.14", "12.6 12.9 13.0 13.2", "13.2", {
    { "12.6", x12, "8.0;9.0", "9.10.2.21", "[pt-envsetup]" },
    { "12.9", "7.5;8.0;8.6;9.0;10.0;12.0", "8.0;9.0;10.0;12.0", "9.20.0.48", "[pt-cu129] [pt-matrix]" },
    { "13.0", "7.5;8.0;8.6;9.0;10.0;12.0", "8.0;9.0;10.0;11.0;12.0", "9.20.0.48", "[pt-envsetup] [pt-cu129]" },
    { "13.2", "7.5;8.0;8.6;9.0;10.0;12.0", "8.0;9.0;10.0;11.0;12.0", "9.20.0.48", "[pt-envsetup] [pt-cu129]" } } },
  { "2.13", "3.10-3.15", "12.6 12.9 13.0 13.2", "13.2", {
    { "12.6", x12, "8.0;9.0", "9.10.2.21", "[pt-envsetup]" },
    { "12.9", "7.5;8.0;8.6;9.0;10.0;12.0", "8.0;9.0;10.0;12.0", "9.20.0.48", "[pt-cu129] [pt-matrix]" },
    { "13.0", "7.5;8.0;8.6;9.0;10.0;12.0", "8.0;9.0;10.0;11.0;12.0", "9.20.0.48", "[pt-cu129] [pt-archlist]" },
    { "13.2", "7.5;8.0;8.6;9.0;10.0;12.0", "8.0;9.0;10.0;11.0;12.0", "9.20.0.48", "[pt-cu129]" } } },
  { "2.14", "3.10-3.15", "12.6 13.0 13.2", "", {
    { "12.6", x12, "8.0;9.0", "9.10.2.21", "[pt-envsetup]" },
    { "12.9", nil, nil, nil, "[pt-cu129]" },
    { "13.0", "7.5;8.0;8.6;9.0;10.0;12.0", "8.0;9.0;10.0;11.0;12.0", "9.24.0.43", "[pt-cu129] [pt-archlist]" },
    { "13.2", "7.5;8.0;8.6;9.0;10.0;12.0", "8.0;9.0;10.0;11.0;12.0", "9.24.0.43", "[pt-cu129] [pt-matrix]" } } },
}
for _, row in ipairs(matrix) do
  local v, py, cudas, exp, cells = table.unpack(row)
  local r = torch(v)
  t.is(r.python.min .. "-" .. r.python.max, py, v .. ": Python " .. py .. " [release]")
  t.is(table.concat(r.cuda, " "), cudas, v .. ": wheel CUDAs " .. cudas .. " [release] [pt-matrix]")
  t.is(table.concat(r.experimental, " "), exp, v .. ": experimental CUDA '" .. exp .. "' [release]")
  for _, c in ipairs(cells) do
    local cu, x86, sbsa, cudnn, src = table.unpack(c)
    local tag = v .. " cu" .. cu:gsub("%.", "")
    t.is(r.wheels["linux-x86_64"][cu], x86, tag .. " linux-x86_64: " .. tostring(x86) .. " " .. src)
    t.is(r.wheels["linux-sbsa"][cu], sbsa, tag .. " linux-sbsa: " .. tostring(sbsa) .. " " .. src)
    t.is((pytorch.wheel_cudnn[v] or {})[cu], cudnn, tag .. " cuDNN " .. tostring(cudnn) .. " " .. src)
  end
end
-- 2.4.0 and 2.5.1 have aarch64 CUDA 12.4 wheels on the cu124 index
-- [pt-aarch64-25], so a GH200 plan may offer them
t.is(torch("2.5").wheels["linux-sbsa"]["12.4"], "9.0", "2.5 cu124 linux-sbsa: published [pt-aarch64-25] [builder]")
t.is(torch("2.4").wheels["linux-sbsa"]["12.4"], "9.0", "2.4 cu124 linux-sbsa: published [pt-aarch64-25] [builder]")
-- The cuDNN of each wheel CUDA of 2.4-2.7, as RELEASE.md's matrix gives
-- it [release]: "CUDA (cuDNN)" pairs in the order of the release's CUDA set.
local release_cudnn = {
  { "2.4", "11.8 9.1.0.70, 12.1 9.1.0.70, 12.4 9.1.0.70" },
  { "2.5", "11.8 9.1.0.70, 12.1 9.1.0.70, 12.4 9.1.0.70" },
  { "2.6", "11.8 9.1.0.70, 12.4 9.1.0.70, 12.6 9.5.1.17" },
  { "2.7", "11.8 9.1.0.70, 12.6 9.5.1.17, 12.8 9.7.1.26" },
}
for _, row in ipairs(release_cudnn) do
  local v, want = row[1], row[2]
  local got = {}
  for cu in want:gmatch("(%d+%.%d+) [%d.]+") do
    got[#got + 1] = cu .. " " .. tostring(pytorch.wheel_cudnn[v] and pytorch.wheel_cudnn[v][cu])
  end
  t.is(table.concat(got, ", "), want, v .. ": the cuDNN of each wheel CUDA [release]")
end
-- PyTorch 2.4-2.7, cell by cell, as audited on 2026-12-02.  Python, the
-- CUDA set and its experimental part, the cuDNN and the release month:
-- RELEASE.md's compatibility matrix and release cadence table [release]
-- [pt-python].  Arch lists: pytorch/builder release/2.4 and release/2.5
-- manywheel/build_cuda.sh [builder] for 2.4 and 2.5; for 2.6 and 2.7 the
-- smaller of [builder]'s and main's lists of the time [pt-bcuda-25q1];
-- aarch64: "9.0", the arch every source gives the pre-2025 wheels
-- [pt140844].  A list is compared as a set (builder's 11.8 case
-- appends 3.7 after 8.6).  An aarch64 list is nil where no wheel exists.
local function archset(s)
  if s == nil then return "nil" end
  local items = {}
  for a in s:gmatch("[^;]+") do items[#items + 1] = a end
  table.sort(items, function(a, b) return tonumber(a:match("^[%d.]+")) < tonumber(b:match("^[%d.]+")) end)
  return table.concat(items, ";")
end
local early = {
  { "2.4", "3.8-3.12", "", "11.8 12.1 12.4", "12.4", "2024-07", "v2.4.1", {
    { "11.8", "5.0;6.0;7.0;7.5;8.0;8.6;3.7;9.0", nil, "9.1.0.70", "[builder] [release]" },
    { "12.1", "5.0;6.0;7.0;7.5;8.0;8.6;9.0", nil, "9.1.0.70", "[builder] [release]" },
    { "12.4", "5.0;6.0;7.0;7.5;8.0;8.6;9.0", "9.0", "9.1.0.70", "[builder] [pt140844] [pt-aarch64-25] [release]" } } },
  { "2.5", "3.9-3.12", "3.13", "11.8 12.1 12.4", "", "2024-10", "v2.5.1", {
    { "11.8", "5.0;6.0;7.0;7.5;8.0;8.6;3.7;9.0", nil, "9.1.0.70", "[builder] [release]" },
    { "12.1", "5.0;6.0;7.0;7.5;8.0;8.6;9.0", nil, "9.1.0.70", "[builder] [release]" },
    { "12.4", "5.0;6.0;7.0;7.5;8.0;8.6;9.0", "9.0", "9.1.0.70", "[builder] [pt140844] [pt-aarch64-25] [release]" } } },
  { "2.6", "3.9-3.13", "", "11.8 12.4 12.6", "12.6", "2025-01", "v2.6.0", {
    { "11.8", "5.0;6.0;7.0;7.5;8.0;8.6;3.7;9.0", nil, "9.1.0.70", "[pt-bcuda-25q1] [release]" },
    { "12.4", "5.0;6.0;7.0;7.5;8.0;8.6;9.0", nil, "9.1.0.70", "[pt-bcuda-25q1] [release]" },
    { "12.6", "5.0;6.0;7.0;7.5;8.0;8.6;9.0", "9.0", "9.5.1.17", "[pt-bcuda-25q1] [pt140844] [release]" } } },
  { "2.7", "3.9-3.13", "", "11.8 12.6 12.8", "12.8", "2025-04", "v2.7.1", {
    { "11.8", "5.0;6.0;7.0;7.5;8.0;8.6;3.7;9.0", nil, "9.1.0.70", "[pt-bcuda-25q1] [release]" },
    { "12.6", "5.0;6.0;7.0;7.5;8.0;8.6;9.0", nil, "9.5.1.17", "[pt-bcuda-25q1] [pt-ti6492] [release]" },
    { "12.8", "7.5;8.0;8.6;9.0;10.0;12.0+PTX", "9.0;10.0;12.0", "9.7.1.26", "[pt-bcuda-25q1] [aarch64] [release]" } } },
}
for _, row in ipairs(early) do
  local v, py, pyx, cudas, exp, month, tag, cells = table.unpack(row)
  local r = torch(v)
  t.is(r.python.min .. "-" .. r.python.max, py, v .. ": Python " .. py .. " [release] [pt-python]")
  t.is(r.python.experimental or "", pyx, v .. ": experimental Python '" .. pyx .. "' [release]")
  t.is(table.concat(r.cuda, " "), cudas, v .. ": wheel CUDAs " .. cudas .. " [release]")
  t.is(table.concat(r.experimental, " "), exp, v .. ": experimental CUDA '" .. exp .. "' [release]")
  t.is(r.released, month, v .. ": released " .. month .. " [release] cadence table")
  t.is(r.tag, tag, v .. ": tag " .. tag .. " [tag] [release] cadence table")
  t.is(r.gcc_min, "9.3", v .. ": gcc 9.3 or newer [gcc]")
  local n = 0
  for _ in pairs(r.wheels["linux-x86_64"]) do n = n + 1 end
  t.is(n, #cells, v .. ": an x86_64 wheel for each CUDA and no other")
  for _, c in ipairs(cells) do
    local cu, x86, sbsa, cudnn, src = table.unpack(c)
    local tag_ = v .. " cu" .. cu:gsub("%.", "")
    t.is(archset(r.wheels["linux-x86_64"][cu]), archset(x86), tag_ .. " linux-x86_64: " .. x86 .. " " .. src)
    t.is(archset(r.wheels["linux-sbsa"][cu]), archset(sbsa), tag_ .. " linux-sbsa: " .. tostring(sbsa) .. " " .. src)
    t.is((pytorch.wheel_cudnn[v] or {})[cu], cudnn, tag_ .. " cuDNN " .. cudnn .. " " .. src)
  end
end
-- no cuDNN recorded for a CUDA the release ships no wheel of
for _, r in ipairs(pytorch.releases) do
  local set, stray = {}, {}
  for _, cu in ipairs(r.cuda) do set[cu] = true end
  for cu in pairs(pytorch.wheel_cudnn[r.version] or {}) do
    if not set[cu] then stray[#stray + 1] = cu end
  end
  t.is(table.concat(stray, " "), "", r.version .. ": wheel_cudnn names only wheel CUDAs")
end

-- sccache 0.12.0: version, URLs and both digests as the AUR PKGBUILD and
-- three CI scripts give them [aur-sccache] [ci-sccache]
local sccache = ptb.include("data/sccache")
local sc_base = "https://github.com/mozilla/sccache/releases/download/v0.12.0/"
t.is(sccache.version, "0.12.0", "sccache: version 0.12.0 [aur-sccache]")
for _, row in ipairs({
  { "x86_64", "sccache-v0.12.0-x86_64-unknown-linux-musl.tar.gz",
    "b0e89ead6899224a4ba2b90e9073bf1ce036d95bab30f3dc33c1e1468bc4ad44" },
  { "aarch64", "sccache-v0.12.0-aarch64-unknown-linux-musl.tar.gz",
    "111ddd28fb108cb3e17edb69ab62cefe1dcc97b02e5006ff9c1330f4f2e78368" },
}) do
  local m, file, sha = table.unpack(row)
  local f = sccache.files[m] or {}
  t.is(f.url, sc_base .. file, "sccache " .. m .. ": " .. file .. " [aur-sccache]")
  t.is(f.sha256, sha, "sccache " .. m .. ": sha256 [aur-sccache] [ci-sccache]")
end

-- ACL: the archive ptbuild pins (v52.8.0, TensorFlow's digest [tf-acl])
-- and PyTorch's scons flags and installed folders at main [pt-acl]
local acl = ptb.include("data/acl")
t.is(acl.version, "v52.8.0", "ACL: v52.8.0 [tf-acl]")
t.is(acl.url, "https://github.com/ARM-software/ComputeLibrary/archive/refs/tags/v52.8.0.tar.gz", "ACL: tag archive URL [tf-acl]")
t.is(acl.sha256, "1bceef23aa5b3cc7321cf80e0729e87482f12544b107cdabffb88a6a52aa4adc", "ACL: sha256 [tf-acl]")
t.is(table.concat(acl.scons_flags, " "),
  "Werror=0 debug=0 neon=1 opencl=0 embed_kernels=0 os=linux arch=armv8a build=native multi_isa=1 fixed_format_kernels=1 openmp=1 cppthreads=0",
  "ACL: install_acl.sh's scons flags [pt-acl]")
t.is(table.concat(acl.install_dirs, " "), "arm_compute include utils support src build", "ACL: the folders install_acl.sh copies [pt-acl]")

-- ACL per PyTorch release: the tag its aarch64 CD cloned, and the digest
-- of that tag's GitHub archive where a source gives one.
local ACL_TAGS = "https://github.com/ARM-software/ComputeLibrary/archive/refs/tags/"
local ACL24 = "6d7aebfa9be74d29ecd2dbeb17f69e00c667c36292401f210121bf26a30b38a5"
local ACL25 = "339376cd05b5efe83a3909333956d7663022f0dd8c7977a35e04b35551546be6"
for _, row in ipairs({
  { "2.4", "v24.04", ACL24, "builder release/2.4 [pt-acl-cd24], EasyBuild 24.04 [eb-acl]" },
  { "2.5", "v24.04", ACL24, "builder release/2.5 [pt-acl-cd24], EasyBuild 24.04 [eb-acl]" },
  { "2.6", "v24.09", nil, "main between builder #2024 and PyTorch #147454 [pt-acl-cd24] [pt-acl-cd25]; no digest sourced" },
  { "2.7", "v25.02", ACL25, "PyTorch #147454 [pt-acl-cd25], EasyBuild 25.02 [eb-acl]" },
  { "2.8", "v25.02", ACL25, "[pt-acl-cd25] [eb-acl]" },
  { "2.9", "v25.02", ACL25, "aarch64_wheel_ci_build.py@022b7e2b [pt-acl-cd25] [eb-acl]" },
  { "2.10", nil, nil, "no row: the 52.x pin (CD v52.6.0 [pt-acl])" },
  { "2.14", nil, nil, "no row: the 52.x pin" },
}) do
  local r = acl.releases[row[1]]
  t.is(r and r.cd, row[2], "ACL for PyTorch " .. row[1] .. ": " .. tostring(row[2]) .. " -- " .. row[4])
  t.is(r and r.url, row[2] and (ACL_TAGS .. row[2] .. ".tar.gz"), "ACL for PyTorch " .. row[1] .. ": the tag's archive")
  t.is(r and r.sha256, row[3], "ACL for PyTorch " .. row[1] .. ": sha256 " .. tostring(row[3]))
end

-- Distribution packages: the apt names exist in Debian 12's archive [deb];
-- a manager's table carries only what lib/host.lua reads (ids, build,
-- openblas, python): a name pattern no recipe reads is no fact anyone
-- checked.  python: those of build that serve the distribution's python3.
local pkgs = ptb.include("data/packages")
t.is(table.concat(pkgs.managers.apt.build, " "), "build-essential cmake git ninja-build patchelf python3-dev python3-venv",
  "apt build packages: each in Debian 12 [deb]")
t.is(table.concat(pkgs.managers.apt.openblas, " "), "libopenblas-openmp-dev", "apt OpenBLAS: the OpenMP build [deb]")
for name, m in pairs(pkgs.managers) do
  local keys = {}
  for k in pairs(m) do keys[#keys + 1] = k end
  table.sort(keys)
  t.is(table.concat(keys, " "), "build ids openblas python", "packages." .. name .. ": only the fields host.lua reads")
  for _, n in ipairs(m.python) do
    t.ok(A.contains(m.build, n), ("packages.%s: python's %s is one of its build packages"):format(name, n))
  end
end
local image = ptb.include("data/image")
t.is(table.concat(image.apt, " "),
  "build-essential ca-certificates curl git ninja-build python3-dev python3-pip python3-venv xz-utils libnuma-dev",
  "image packages: each in Debian 12 [deb]")
t.is(image.apt_openblas .. " " .. image.apt_acl .. " " .. image.apt_ccache, "libopenblas-openmp-dev scons ccache",
  "image OpenBLAS, ACL and ccache packages: each in Debian 12 [deb]")
for i, row in ipairs({ { "ubuntu 22.04 ubuntu:22.04", "3.10", "2.35", "[ubuntu]" },
                       { "ubuntu 24.04 ubuntu:24.04", "3.12", "2.39", "[ubuntu]" },
                       { "debian 12 debian:bookworm", "3.11", "2.36", "[debian-image]" },
                       { "debian 13 debian:trixie", "3.13", "2.41", "[debian-image]" } }) do
  local b = image.bases[i]
  t.is(b.os_id .. " " .. b.version .. " " .. b.image .. " Python " .. b.python .. " glibc " .. b.glibc,
    row[1] .. " Python " .. row[2] .. " glibc " .. row[3], "image base " .. row[1] .. ": its python3 and libc6 " .. row[4])
end
t.is(#image.bases, 4, "image bases: two Ubuntu and two Debian releases")
-- Each base's g++ (build-essential's, amd64 and arm64 alike) and the
-- versioned g++ packages of its archive [ubuntu-gcc] [debian-gcc]
for i, row in ipairs({ { "11.4.0", "11=11.4.0 12=12.3.0", "[ubuntu-gcc]" },
                       { "13.3.0", "11=11.5.0 12=12.4.0 13=13.3.0 14=14.2.0", "[ubuntu-gcc]" },
                       { "12.2.0", "11=11.3.0 12=12.2.0", "[debian-gcc]" },
                       { "14.2.0", "12=12.4.0 13=13.3.0 14=14.2.0", "[debian-gcc]" } }) do
  local b = image.bases[i]
  local majors, gxx = {}, {}
  for m in pairs(b.gxx) do majors[#majors + 1] = m end
  table.sort(majors, function(x, y) return tonumber(x) < tonumber(y) end)
  for _, m in ipairs(majors) do gxx[#gxx + 1] = m .. "=" .. b.gxx[m] end
  t.is(b.gcc .. " " .. table.concat(gxx, " "), row[1] .. " " .. row[2],
    "image base " .. b.image .. ": its g++ and the versioned g++ it offers " .. row[3])
  t.is(b.gxx[b.gcc:match("^(%d+)")], b.gcc, "image base " .. b.image .. ": its own g++ is one of the versioned ones, at the same version")
end

-- Container marks: Docker lays /.dockerenv into every container
-- [moby-dockerenv]; Podman writes /run/.containerenv [podman-run];
-- binfmt_misc handlers live under /proc/sys/fs/binfmt_misc [binfmt-misc]
local ct = ptb.include("data/containers")
t.is(ct.markers[1].path .. " " .. ct.markers[1].runtime, "/.dockerenv Docker", "container mark /.dockerenv [moby-dockerenv]")
t.is(ct.markers[2].path .. " " .. ct.markers[2].runtime, "/run/.containerenv Podman", "container mark /run/.containerenv [podman-run]")
t.is(ct.binfmt.dir, "/proc/sys/fs/binfmt_misc", "binfmt_misc folder [binfmt-misc]")

-- Platforms: Docker's TARGETARCH per platform [docker-args], the native
-- runner labels [gh-runners]
local pf = ptb.include("data/platforms")
for i, row in ipairs({ { "linux/amd64", "amd64", "ubuntu-24.04", "linux-x86_64" },
                       { "linux/arm64", "arm64", "ubuntu-24.04-arm", "linux-sbsa" } }) do
  local im = pf.images[i]
  t.is(im.platform .. " " .. im.targetarch .. " " .. im.runner .. " " .. im.cuda_platform, table.concat(row, " "),
    row[1] .. ": TARGETARCH " .. row[2] .. ", runner " .. row[3] .. " [docker-args] [gh-runners] [rn-comp]")
end

-- Jetson wheels: the Python and arch list per JetPack major as
-- jetson-containers' l4t_version.py derives them (Ubuntu per L4T, its
-- DEFAULT_PYTHON_VERSIONS, get_cuda_arch) [jc-arch]; each wheel row's
-- JetPack, version and address as its source names it.
local jw = ptb.include("data/jetson_wheels")
for _, row in ipairs({ { "4", "3.6", "5.3;6.2;7.2" }, { "5", "3.8", "7.2;8.7" }, { "6", "3.10", "8.7" } }) do
  t.is(jw.python[row[1]] .. " " .. jw.arch[row[1]], row[2] .. " " .. row[3],
    "JetPack " .. row[1] .. ": Python " .. row[2] .. ", arch " .. row[3] .. " [jc-arch]")
end
local NVJP = "https://developer.download.nvidia.com/compute/redist/jp/"
local JAL = "https://pypi.jetson-ai-lab.io/jp6/cu126"
local BOXS = "https://nvidia.box.com/shared/static/"
local jrows = {  -- jetpack, torch, pip, cuda, where (index, url or download -> file), source
  { "6.1 6.2", "2.11", "2.11.0", "12.6", "index " .. JAL, "[jal-files-211]" },
  { "6.1 6.2", "2.10", "2.10.0", "12.6", "index " .. JAL, "[jal-files-211]" },
  { "6.1 6.2", "2.9", "2.9.1", "12.6", "index " .. JAL, "[jal-files]" },
  { "6.1 6.2", "2.8", "2.8.0", "12.6", "index " .. JAL, "[jal-files]" },
  { "6.1 6.2", "2.7", "2.7.0", "12.6", "index " .. JAL, "[jal-files]" },
  { "6.1 6.2", "2.6", "2.6.0rc1", "12.6", "index " .. JAL, "[nv-forum-jp61]" },
  { "6.1 6.2", "2.5", "2.5.0", "12.6", "index " .. JAL, "[nv-forum-jp61]" },
  { "6.1 6.2", "2.4", "2.4.0", "12.6", "index " .. JAL, "[nv-forum-jp61]" },
  { "6.1 6.2", "2.5", "2.5.0a0+872d972e41.nv24.08.17622132", "12.6",
    "url " .. NVJP .. "v61/pytorch/torch-2.5.0a0+872d972e41.nv24.08.17622132-cp310-cp310-linux_aarch64.whl", "[nv-redist-jp6]" },
  { "6.0", "2.4", "2.4.0a0+07cecf4168.nv24.05.14710581", "12.2",
    "url " .. NVJP .. "v60/pytorch/torch-2.4.0a0+07cecf4168.nv24.05.14710581-cp310-cp310-linux_aarch64.whl", "[nv-redist-jp6]" },
  { "5.1", "2.1", "2.1.0a0+41361538.nv23.06", "11.4",
    "url " .. NVJP .. "v512/pytorch/torch-2.1.0a0+41361538.nv23.06-cp38-cp38-linux_aarch64.whl", "[jc-torch-2401] [nv-forum-torch]" },
  { "5.1", "2.0", "2.0.0+nv23.05", "11.4",
    "download " .. BOXS .. "i8pukc49h3lhak4kkn67tg9j4goqm0m7.whl -> torch-2.0.0+nv23.05-cp38-cp38-linux_aarch64.whl", "[jc-torch-2401] [nv-forum-torch]" },
  { "5.0 5.1", "1.13", "1.13.0a0+340c4120.nv22.06", "11.4",
    "url " .. NVJP .. "v50/pytorch/torch-1.13.0a0+340c4120.nv22.06-cp38-cp38-linux_aarch64.whl", "[jc-torch-2401]" },
  { "5.0 5.1", "1.12", "1.12.0a0+8a1a93a9.nv22.5", "11.4",
    "url " .. NVJP .. "v50/pytorch/torch-1.12.0a0+8a1a93a9.nv22.5-cp38-cp38-linux_aarch64.whl", "[jc-torch-2401]" },
  { "4.6", "1.10", "1.10.0", "10.2",
    "download " .. BOXS .. "fjtbno0vpo676a25cgvuqc1wty0fkkg6.whl -> torch-1.10.0-cp36-cp36m-linux_aarch64.whl", "[jc-torch] [nv-forum-torch]" },
}
t.is(#jw.wheels, #jrows, "Jetson wheels: " .. #jrows .. " rows, each held to a source")
for i, row in ipairs(jrows) do
  local jp, tv, pip, cu, where, src = table.unpack(row)
  local w = jw.wheels[i] or { jetpack = {} }
  local got = w.index and ("index " .. w.index) or w.url and ("url " .. w.url)
    or w.download and ("download " .. w.download .. " -> " .. tostring(w.file)) or "none"
  t.is(table.concat(w.jetpack, " ") .. " " .. tostring(w.torch) .. " " .. tostring(w.pip) .. " " .. tostring(w.cuda) .. " " .. got,
    jp .. " " .. tv .. " " .. pip .. " " .. cu .. " " .. where, "JetPack " .. jp .. " torch " .. pip .. " " .. src)
end

-- What the Jetson wheels need beyond their JetPack: cuDSS for the
-- jp6/cu126 wheels from torch 2.8 on [jal-cudss], none for 2.7.0 and
-- before or NVIDIA's own [jc-cudss]; pip's nvidia-cudss-cu12 from the
-- same index, its folder in either layout, NVIDIA's tegra .deb.
local jneeds = { ["2.11.0"] = "cudss", ["2.10.0"] = "cudss", ["2.9.1"] = "cudss", ["2.8.0"] = "cudss" }
for _, w in ipairs(jw.wheels) do
  t.is(table.concat(w.needs or {}, " "), jneeds[w.pip] or "",
    "JetPack " .. table.concat(w.jetpack, " ") .. " torch " .. w.pip .. ": needs "
      .. (jneeds[w.pip] and "cuDSS [jal-cudss]" or "nothing more [jc-cudss]"))
end
local cd = jw.needs.cudss
t.is(cd.name .. " " .. cd.lib .. " " .. cd.pip .. " " .. cd.index, "cuDSS libcudss.so.0 nvidia-cudss-cu12 " .. JAL,
  "cuDSS: libcudss.so.0, pip's nvidia-cudss-cu12 from the jp6/cu126 index [jal-cudss]")
t.is(table.concat(cd.dirs, " "), "nvidia/cu12/lib nvidia/cudss/lib", "cuDSS: the wheel's folders under site-packages [jal-cudss]")
t.is(cd.deb, "cudss-local-tegra-repo", "cuDSS: NVIDIA's JetPack 6 .deb [jc-cudss]")
t.like(cd.nodeps, "cuBLAS 12%.9.-JetPack's cuBLAS 12%.6.-cublasCreate fails", "cuDSS: why --no-deps [jal-cudss]")

-- cuDNN 9.24.0.43, the cuDNN of 2.14's cu130 and cu132 wheels, carried
-- from its archives' digests (data/redist.lua, generated from
-- tools/data/redist/cudnn-archive-digests.csv; no source shows NVIDIA's
-- redistrib_9.24.0.json whole [cudnn924]): each sha256 and size as the
-- sources read give it, NVIDIA's copy [cudnn924-nv] where it reaches and
-- conda-forge's recipe [cudnn924-cf]; no size where neither gives one.
local redist = ptb.include("data/redist")
local r924
for _, c in ipairs(redist.cudnn_releases) do if c.version == "9.24.0.43" then r924 = c end end
t.ok(r924 and r924.manifest_sha256 == nil and r924.label == "9.24.0" and r924.release_date == "2026-07-02",
  "cuDNN 9.24.0.43: label 9.24.0, released 2026-07-02, no manifest digest [cudnn924-nv]")
for _, row in ipairs({
  { "linux-x86_64", "cuda12", "7dea7fc8436fdd65cb22cd6634e5a2834e4a8508217abea5286c15affa9a80a0", 1021467740, "cudnn924-nv cudnn924-cf" },
  { "linux-x86_64", "cuda13", "63f1900222c69ee7e94583408181ccdb988dc2833531ce6bde0df43bbdd04a6d", 913717900, "cudnn924-nv cudnn924-cf" },
  { "linux-sbsa", "cuda12", "802f6f1138537f5f845322dc27f67a1055047dcb26d37fc2ad94a5e65ef728ee", 1068207284, "cudnn924-nv cudnn924-cf" },
  { "linux-sbsa", "cuda13", "f9b71a8a070073f20224746d9216ac4e28de7f59b54a8c47200ff506e6d4d830", nil, "cudnn924-cf" },
}) do
  local platform, variant, sha, size, srcs = table.unpack(row)
  local a = r924 and r924.platforms[platform] and r924.platforms[platform][variant] or {}
  local tag = ("cuDNN 9.24.0.43 %s %s"):format(platform, variant)
  t.is(a.relative_path, ("cudnn/%s/cudnn-%s-9.24.0.43_%s-archive.tar.xz"):format(platform, platform, variant),
    tag .. ": NVIDIA's path [cudnn924-cf]")
  t.is(a.sha256, sha, tag .. ": sha256 " .. sha:sub(1, 8) .. "... [" .. srcs:gsub(" ", "] [") .. "]")
  t.is(a.size, size, tag .. ": size " .. tostring(size) .. (size and " [cudnn924-nv]" or " (no source read gives it)"))
  t.is(table.concat(a.sources or {}, " "), srcs, tag .. ": carries its sources")
end
t.is(r924 and r924.platforms["linux-aarch64"], nil, "cuDNN 9.24.0.43 linux-aarch64: not carried (no source read gives a digest)")
t.done()
