-- CPU cores: Arm implementer/part -> core name, x86 and Arm archspec-style
-- microarchitecture targets.  Used by detect.lua; an OpenBLAS mapping can
-- hang off the same names later.
--
-- Sources (ids resolve in recipes/data/sources.lua):
--   [util-linux] util-linux sys-utils/lscpu-arm.c: implementer/part names
--   [archspec]   archspec/archspec-json cpu/microarchitectures.json
--                (target names, parents, cpupart) and archspec/archspec
--                cpu/detect.py (the selection rule, see detect.lua)
--   [hrw]        hrw/arm-socs-table cpuinfo dumps (copies: tests/fixtures/cpuinfo)
--
-- Feature lists: archspec's targets name Linux /proc/cpuinfo features.  The
-- lists below are the parts of archspec's lists that the verified dumps in
-- tests/fixtures/cpuinfo show (so each target is a subset of the dumps that
-- archspec maps to it); they were not copied line by line from
-- microarchitectures.json.  tests/lua/cpus_test.lua checks every dump in
-- tests/fixtures/cpuinfo against its expected archspec answer.

local M = {}

-- [archspec] conversions.arm_vendors; [util-linux] for the rest
M.arm_vendors = {
  ["0x41"] = "ARM", ["0x42"] = "Broadcom", ["0x43"] = "Cavium", ["0x44"] = "DEC",
  ["0x46"] = "Fujitsu", ["0x48"] = "HiSilicon", ["0x49"] = "Infineon",
  ["0x4d"] = "Motorola", ["0x4e"] = "Nvidia", ["0x50"] = "APM",
  ["0x51"] = "Qualcomm", ["0x53"] = "Samsung", ["0x56"] = "Marvell",
  ["0x61"] = "Apple", ["0x66"] = "Faraday", ["0x69"] = "Intel",
  ["0xc0"] = "Ampere",
  -- not in archspec's table (so archspec reports the raw code): [util-linux]
  ["0x6d"] = "Microsoft", ["0x70"] = "Phytium",
}
-- vendors archspec itself knows (others keep the raw code for matching)
M.archspec_vendors = {
  ["0x41"] = true, ["0x42"] = true, ["0x43"] = true, ["0x44"] = true,
  ["0x46"] = true, ["0x48"] = true, ["0x49"] = true, ["0x4d"] = true,
  ["0x4e"] = true, ["0x50"] = true, ["0x51"] = true, ["0x53"] = true,
  ["0x56"] = true, ["0x61"] = true, ["0x66"] = true, ["0x69"] = true,
  ["0xc0"] = true,
}

-- [util-linux] lscpu-arm.c; "seen in" from the dumps [hrw]
M.arm_parts = {
  ["0x41"] = {
    ["0xd03"] = "Cortex-A53", ["0xd05"] = "Cortex-A55", ["0xd07"] = "Cortex-A57",
    ["0xd08"] = "Cortex-A72", ["0xd09"] = "Cortex-A73", ["0xd0b"] = "Cortex-A76",
    ["0xd0c"] = "Neoverse-N1",  -- Graviton2, Ampere Altra (implementer 0x41)
    ["0xd40"] = "Neoverse-V1",  -- Graviton3
    ["0xd42"] = "Cortex-A78AE", -- Jetson Orin (no public dump; hrw socs.yml)
    ["0xd44"] = "Cortex-X1", ["0xd46"] = "Cortex-A510", ["0xd47"] = "Cortex-A710",
    ["0xd49"] = "Neoverse-N2",
    ["0xd4f"] = "Neoverse-V2",  -- NVIDIA Grace, Graviton4, Google Axion
    ["0xd83"] = "Neoverse-V3AE", -- Jetson Thor
    ["0xd84"] = "Neoverse-V3", ["0xd85"] = "Cortex-X925", ["0xd87"] = "Cortex-A725",
    ["0xd8e"] = "Neoverse-N3",
  },
  ["0x43"] = { ["0x0a1"] = "ThunderX-88XX", ["0x0af"] = "ThunderX2-99xx", ["0x0b8"] = "ThunderX3-T110" },
  ["0x46"] = { ["0x001"] = "A64FX", ["0x003"] = "MONAKA" },
  ["0x48"] = { ["0xd01"] = "Kunpeng-920" },
  ["0x4e"] = { ["0x000"] = "Denver", ["0x003"] = "Denver-2", ["0x004"] = "Carmel", ["0x010"] = "Olympus" },
  ["0x50"] = { ["0x000"] = "X-Gene" },
  ["0x51"] = { ["0xc00"] = "Falkor" },
  ["0x61"] = { ["0x022"] = "Icestorm-M1", ["0x023"] = "Firestorm-M1" },
  ["0x6d"] = { ["0xd49"] = "Azure-Cobalt-100" },
  ["0xc0"] = { ["0xac3"] = "Ampere-1", ["0xac4"] = "Ampere-1a" },
}

local function words(s)
  local t = {}
  for w in s:gmatch("%S+") do t[#t + 1] = w end
  return t
end

-- Targets: vendor ("generic" for the x86-64 levels and aarch64), parents,
-- features added over the parents, cpupart (Arm).  [archspec]
M.targets = {
  -- x86-64 levels (psABI); [archspec] generic targets
  x86_64 = { vendor = "generic", parents = {}, add = {} },
  x86_64_v2 = { vendor = "generic", parents = { "x86_64" },
    add = words("cx16 lahf_lm mmx popcnt sse sse2 sse4_1 sse4_2 ssse3") },
  x86_64_v3 = { vendor = "generic", parents = { "x86_64_v2" },
    add = words("abm avx avx2 bmi1 bmi2 f16c fma movbe xsave") },
  x86_64_v4 = { vendor = "generic", parents = { "x86_64_v3" },
    add = words("avx512bw avx512cd avx512dq avx512f avx512vl") },
  -- Intel [archspec]
  nehalem = { vendor = "GenuineIntel", parents = { "x86_64_v2" }, add = {} },
  westmere = { vendor = "GenuineIntel", parents = { "nehalem" }, add = words("aes pclmulqdq") },
  sandybridge = { vendor = "GenuineIntel", parents = { "westmere" }, add = words("avx") },
  ivybridge = { vendor = "GenuineIntel", parents = { "sandybridge" }, add = words("rdrand f16c") },
  haswell = { vendor = "GenuineIntel", parents = { "ivybridge", "x86_64_v3" }, add = {} },
  broadwell = { vendor = "GenuineIntel", parents = { "haswell" }, add = words("adx rdseed") },
  skylake = { vendor = "GenuineIntel", parents = { "broadwell" }, add = words("clflushopt xsavec xsaveopt") },
  skylake_avx512 = { vendor = "GenuineIntel", parents = { "skylake", "x86_64_v4" }, add = words("clwb") },
  cannonlake = { vendor = "GenuineIntel", parents = { "skylake" },
    add = words("avx512f avx512cd avx512bw avx512dq avx512vl avx512vbmi avx512ifma sha_ni umip") },
  cascadelake = { vendor = "GenuineIntel", parents = { "skylake_avx512" }, add = words("avx512_vnni") },
  icelake = { vendor = "GenuineIntel", parents = { "cascadelake", "cannonlake" },
    add = words("avx512_bitalg avx512_vbmi2 avx512_vpopcntdq gfni rdpid vaes vpclmulqdq") },
  sapphirerapids = { vendor = "GenuineIntel", parents = { "icelake" },
    add = words("amx_bf16 amx_int8 amx_tile avx512_bf16 cldemote movdir64b movdiri serialize waitpkg") },
  -- AMD [archspec]
  zen = { vendor = "AuthenticAMD", parents = { "x86_64_v3" },
    add = words("aes clflushopt clzero fsgsbase pclmulqdq rdseed sse4a xsavec xsaveopt") },
  zen2 = { vendor = "AuthenticAMD", parents = { "zen" }, add = words("clwb") },
  zen3 = { vendor = "AuthenticAMD", parents = { "zen2" }, add = words("pku vaes vpclmulqdq") },
  zen4 = { vendor = "AuthenticAMD", parents = { "zen3", "x86_64_v4" },
    add = words("avx512_bf16 avx512_bitalg avx512_vbmi2 avx512_vnni avx512_vpopcntdq avx512ifma avx512vbmi flush_l1d gfni") },
  zen5 = { vendor = "AuthenticAMD", parents = { "zen4" },
    add = words("avx512_vp2intersect avx_vnni movdir64b movdiri tsc_adjust") },

  -- aarch64: the generic armv8.x/9.x levels are never candidates
  -- themselves (archspec), they only count as ancestors.
  aarch64 = { vendor = "generic", parents = {}, add = {} },
  ["armv8.1a"] = { vendor = "generic", parents = { "aarch64" }, add = {}, level = true },
  ["armv8.2a"] = { vendor = "generic", parents = { "armv8.1a" }, add = {}, level = true },
  ["armv8.3a"] = { vendor = "generic", parents = { "armv8.2a" }, add = {}, level = true },
  ["armv8.4a"] = { vendor = "generic", parents = { "armv8.3a" }, add = {}, level = true },
  ["armv8.5a"] = { vendor = "generic", parents = { "armv8.4a" }, add = {}, level = true },
  ["armv8.6a"] = { vendor = "generic", parents = { "armv8.5a" }, add = {}, level = true },
  ["armv9.0a"] = { vendor = "generic", parents = { "armv8.5a" }, add = {}, level = true },
  ["armv9.1a"] = { vendor = "generic", parents = { "armv9.0a" }, add = {}, level = true },
  ["armv9.2a"] = { vendor = "generic", parents = { "armv9.1a" }, add = {}, level = true },
  cortex_a72 = { vendor = "ARM", parents = { "aarch64" }, cpupart = "0xd08",
    add = words("fp asimd evtstrm aes pmull sha1 sha2 crc32 cpuid") },
  neoverse_n1 = { vendor = "ARM", parents = { "cortex_a72", "armv8.2a" }, cpupart = "0xd0c",
    add = words("atomics fphp asimdhp asimdrdm lrcpc dcpop asimddp") },
  neoverse_v1 = { vendor = "ARM", parents = { "neoverse_n1", "armv8.4a" }, cpupart = "0xd40",
    add = words("jscvt fcma sha3 sm3 sm4 sha512 sve asimdfhm dit uscat ilrcpc flagm dcpodp svei8mm svebf16 i8mm bf16 dgh") },
  neoverse_n2 = { vendor = "ARM", parents = { "neoverse_n1", "armv9.0a" }, cpupart = "0xd49",
    add = words("jscvt fcma sha3 sha512 sve asimdfhm uscat ilrcpc flagm sb dcpodp sve2 flagm2 frint svei8mm svebf16 i8mm bf16") },
  neoverse_v2 = { vendor = "ARM", parents = { "neoverse_n2" }, cpupart = "0xd4f",
    add = words("dit sveaes svepmull svebitperm svesha3 dgh") },
  neoverse_v3ae = { vendor = "ARM", parents = { "neoverse_v2", "armv9.2a" }, cpupart = "0xd83",
    add = words("svesm4 bti ecv afp wfxt") },
  a64fx = { vendor = "Fujitsu", parents = { "armv8.2a" }, cpupart = "0x001",
    add = words("fp asimd evtstrm sha1 sha2 crc32 atomics fphp asimdhp cpuid asimdrdm fcma dcpop sve") },
  thunderx2 = { vendor = "Cavium", parents = { "armv8.1a" }, cpupart = "0x0af",
    add = words("fp asimd evtstrm sha1 sha2 crc32 atomics cpuid asimdrdm") },
  ampere1 = { vendor = "Ampere", parents = { "armv8.6a" }, cpupart = "0xac3",
    add = words("fp asimd evtstrm aes pmull sha1 sha2 crc32 atomics fphp asimdhp cpuid asimdrdm jscvt fcma lrcpc dcpop sha3 asimddp sha512 asimdfhm dit uscat ilrcpc flagm ssbs sb paca pacg dcpodp flagm2 frint i8mm bf16 rng bti ecv") },
  ampere1a = { vendor = "Ampere", parents = { "ampere1" }, cpupart = "0xac4", add = words("sm3 sm4") },
  m1 = { vendor = "Apple", parents = { "armv8.4a" }, cpupart = "0x022",
    add = words("fp asimd evtstrm aes pmull sha1 sha2 crc32 atomics fphp asimdhp cpuid asimdrdm jscvt fcma lrcpc dcpop sha3 asimddp sha512 asimdfhm dit uscat ilrcpc flagm ssbs sb paca pacg dcpodp flagm2 frint") },
}

M.x86_generic = { "x86_64", "x86_64_v2", "x86_64_v3", "x86_64_v4" }

return M
