-- plan_host_test.lua - lib/host: host compiler, OpenBLAS, MAX_JOBS,
-- packages; lib/buildenv: the environment order, table-driven.
local t = ptb.include("tap")
local A = ptb.include("lib/archlist")
local H = ptb.include("lib/host")
local obdata_early = ptb.include("data/openblas")
local B = ptb.include("lib/buildenv")
local pytorch = ptb.include("data/pytorch")

local function R(v) return (A.release(v)) end
local function torch(v)
  for _, r in ipairs(pytorch.releases) do if r.version == v then return r end end
end
local function codes(problems)
  local out = {}
  for _, p in ipairs(problems) do out[#out + 1] = p.severity .. ":" .. p.code end
  return table.concat(out, " ")
end
local function gcc(v, path) return { name = "gcc", version = v, path = path or "/usr/bin/gcc" } end

t.is(H.cxx_of("/usr/bin/gcc"), "/usr/bin/g++", "gcc -> g++")
t.is(H.cxx_of("/usr/bin/gcc-12"), "/usr/bin/g++-12", "gcc-12 -> g++-12")
t.is(H.cxx_of("/opt/rh/gcc-toolset-13/root/usr/bin/gcc"), "/opt/rh/gcc-toolset-13/root/usr/bin/g++", "toolset path")

-- host_compiler: { description, compilers, CUDA, torch, host path, switched, problems }
local hc = {
  { "gcc 13 with CUDA 12.6", { gcc("13.3.0") }, "12.6", "2.14", "/usr/bin/gcc", false, "" },
  { "gcc 14 with CUDA 12.6, no older", { gcc("14.2.0") }, "12.6", "2.14", "/usr/bin/gcc", false, "error:gcc-too-new" },
  { "gcc 15 default, gcc-13 beside", { gcc("15.0.1"), gcc("13.3.0", "/usr/bin/gcc-13") }, "12.6", "2.14", "/usr/bin/gcc-13", true, "warning:gcc-too-new" },
  { "gcc 15 default, gcc-12 and gcc-13: the newest that fits", { gcc("15.0.1"), gcc("12.3.0", "/usr/bin/gcc-12"), gcc("13.3.0", "/usr/bin/gcc-13") }, "12.6", "2.14", "/usr/bin/gcc-13", true, "warning:gcc-too-new" },
  { "gcc 15 with CUDA 13.0", { gcc("15.1.1") }, "13.0", "2.14", "/usr/bin/gcc", false, "" },
  { "gcc 8.5 too old for PyTorch", { gcc("8.5.0") }, "12.6", "2.14", "/usr/bin/gcc", false, "error:gcc-too-old" },
  -- a version known only in part against PyTorch's 9.3: "9" (as detect
  -- reads Ubuntu 20.04's 9.4.0) may be older, "8" is, "9.2.1" is
  { "gcc known only as 9", { gcc("9") }, "12.6", "2.14", "/usr/bin/gcc", false, "warning:gcc-too-old" },
  { "gcc known only as 8", { gcc("8") }, "12.6", "2.14", "/usr/bin/gcc", false, "error:gcc-too-old" },
  { "gcc 9.2.1", { gcc("9.2.1") }, "12.6", "2.14", "/usr/bin/gcc", false, "error:gcc-too-old" },
  { "gcc 9.3.0", { gcc("9.3.0") }, "12.6", "2.14", "/usr/bin/gcc", false, "" },
  { "the plain gcc is the default", { gcc("12.3.0", "/usr/bin/gcc-12"), gcc("14.2.0") }, "12.6", "2.14", "/usr/bin/gcc-12", true, "warning:gcc-too-new" },
  { "no compiler", {}, "12.6", "2.14", nil, false, "warning:no-compiler" },
}
for _, c in ipairs(hc) do
  local res, problems = H.host_compiler({ compilers = c[2] }, R(c[3]), torch(c[4]))
  t.is(res.host and res.host.path, c[5], c[1] .. ": host compiler")
  t.is(res.switched, c[6], c[1] .. ": switched")
  t.is(codes(problems), c[7], c[1] .. ": problems")
end

-- PyTorch's gcc minimum is CMake's check of its C++ compiler: the one CXX
-- names, not the default gcc (RHEL 8: gcc 8.5, gcc-toolset-13 in CXX)
do
  local ts = "/opt/rh/gcc-toolset-13/root/usr/bin/g++"
  local f = { compilers = { gcc("8.5.0"), { name = "g++", path = ts, version = "13.2.1", named_by = { "CXX" } } },
              env = { CXX = ts } }
  local res, problems = H.host_compiler(f, R("12.6"), torch("2.14"))
  t.is(codes(problems), "", "CXX names gcc-toolset-13's g++ 13.2.1 over a gcc 8.5 default: no gcc-too-old")
  t.is(res.host and res.host.path, ts, "... and it is nvcc's host compiler")
  -- and the other way: CXX names the old one
  f = { compilers = { gcc("13.2.0"), { name = "g++-8", path = "/usr/bin/g++-8", version = "8.5.0" } },
        env = { CXX = "/usr/bin/g++-8" } }
  res, problems = H.host_compiler(f, R("12.6"), torch("2.14"))
  t.is(codes(problems), "error:gcc-too-old", "CXX names a g++ 8.5 beside a gcc 13 default: gcc-too-old")
  t.like(problems[1] and problems[1].message or "", "^gcc 8%.5%.0 %(/usr/bin/g%+%+%-8%)", "... of the g++-8 CXX names")
  t.is(problems[1] and problems[1].fix, "install gcc 10 to 13 and set CXX to its g++", "... and the fix says to set CXX")
  -- a clang in CXX is no gcc to hold to PyTorch's gcc minimum
  f = { compilers = { gcc("8.5.0"), { name = "clang++-17", path = "/usr/bin/clang++-17", version = "17.0.6" } },
        env = { CXX = "/usr/bin/clang++-17" } }
  res, problems = H.host_compiler(f, R("12.6"), torch("2.14"))
  t.is(codes(problems), "", "CXX names clang++-17: no gcc-too-old for the gcc 8.5 default")
end

-- ... and the fix names a gcc every version of which PyTorch takes: 10,
-- not 9 (gcc-toolset-9 is a 9.2)
local _, p9 = H.host_compiler({ compilers = { gcc("9.2.1") } }, R("12.6"), torch("2.14"))
t.is(p9[1] and p9[1].fix, "install gcc 10 to 13 and put it first on PATH", "gcc 9.2.1: the fix names gcc 10 to 13")
_, p9 = H.host_compiler({ compilers = { gcc("9") } }, R("12.6"), torch("2.14"))
t.is(p9[1] and p9[1].fix, "run '/usr/bin/gcc -dumpfullversion': if it prints a version below 9.3, install gcc 10 to 13 and put it first on PATH",
  "gcc known only as 9: the fix says how to tell")

-- openblas_target, Arm: { implementer, part, features, TARGET, run-time
-- case, kernel set DYNAMIC_ARCH runs, where }.  TARGET: what OpenBLAS
-- 0.3.34's cpuid_arm64.c detect() picks [ob-cpuid] (ARMV8 for a part it
-- does not list); the kernel set: what get_coretype() in dynamic_arm64.c
-- returns in the default DYNAMIC_ARCH build [ob-dyn] (file:line at
-- v0.3.34, e0166008).  "was" names 0.3.30's answer where it differs.
local sve, nosve = { "fp", "asimd", "sve" }, { "fp", "asimd" }
local ob = {
  { "0x41", "0xd03", nosve, "CORTEXA53", true, "CORTEXA53", "cpuid_arm64.c:296 dynamic_arm64.c:434" },
  { "0x41", "0xd05", nosve, "CORTEXA55", true, "CORTEXA53", "cpuid:310 dyn:471, A55 #defined to A53 dyn:168" },
  { "0x41", "0xd07", nosve, "CORTEXA57", true, "CORTEXA57", "cpuid:298 dyn:436" },
  { "0x41", "0xd08", nosve, "CORTEXA72", true, "CORTEXA57", "cpuid:300 dyn:438, A72 #defined to A57 dyn:174" },
  { "0x41", "0xd09", nosve, "CORTEXA73", true, "CORTEXA57", "cpuid:302 dyn:440, A73 #defined to A57 dyn:175" },
  { "0x41", "0xd0a", nosve, "ARMV8", true, "CORTEXA57", "Cortex-A75: not in cpuid; dyn:441 (A73's case); was no case, ARMV8" },
  { "0x41", "0xd0b", nosve, "CORTEXA76", true, "CORTEXA57", "cpuid:329; dyn:442 (A73's case); was no case in dyn, ARMV8" },
  { "0x41", "0xd0c", nosve, "NEOVERSEN1", true, "NEOVERSEN1", "cpuid:304 dyn:444" },
  { "0x41", "0xd40", sve, "NEOVERSEV1", true, "NEOVERSEV1", "cpuid:306 dyn:453-458" },
  { "0x41", "0xd44", nosve, "CORTEXX1", false, "ARMV8", "cpuid:318; no case in dyn, no SVE: dyn:552, then ARMV8 dyn:574-578" },
  { "0x41", "0xd46", sve, "CORTEXA510", false, "ARMV8SVE", "cpuid:312; no case in dyn, SVE: dyn:547" },
  { "0x41", "0xd47", sve, "CORTEXA710", false, "ARMV8SVE", "cpuid:314; dyn:547" },
  { "0x41", "0xd49", sve, "NEOVERSEN2", true, "NEOVERSEN2", "cpuid:308 dyn:447-452" },
  { "0x41", "0xd4c", sve, "CORTEXX2", false, "ARMV8SVE", "cpuid:320; dyn:547" },
  { "0x41", "0xd4d", sve, "CORTEXA710", false, "ARMV8SVE", "Cortex-A715: cpuid:316; dyn:547" },
  { "0x41", "0xd4e", sve, "CORTEXX2", false, "ARMV8SVE", "Cortex-X3: cpuid:322; dyn:547" },
  { "0x41", "0xd4f", sve, "NEOVERSEV2", true, "NEOVERSEN2", "Grace: cpuid:324; dyn:459-469, V2 #defined to N2 dyn:227" },
  { "0x41", "0xd83", sve, "NEOVERSEV2", true, "NEOVERSEN2", "Thor V3AE: cpuid:326-328; dyn:460; was in neither" },
  { "0x41", "0xd84", sve, "NEOVERSEV2", true, "NEOVERSEN2", "Neoverse V3: cpuid:326-328; dyn:461; was in neither" },
  { "0x41", "0xd85", { "sve", "sme" }, "NEOVERSEV2", true, "NEOVERSEN2", "Cortex-X925, SME reported: dyn:462 before the SME test at 540; was ARMV9SME" },
  { "0x41", "0xd87", sve, "NEOVERSEV2", true, "NEOVERSEN2", "Cortex-A725: cpuid:326-328; dyn:463; was in neither" },
  { "0x41", "0xd84", nosve, "NEOVERSEV2", true, "NEOVERSEN1", "Neoverse V3 whose kernel hides SVE: V2's case takes N1's, dyn:464-466" },
  { "0x41", "0xd40", nosve, "NEOVERSEV1", true, "NEOVERSEN1", "Graviton3 whose kernel hides SVE: dyn:454-456" },
  { "0x42", "0x516", nosve, "ARMV8", true, "THUNDERX2T99", "Vulcan: not in cpuid; dyn:478" },
  { "0x43", "0x0a1", nosve, "THUNDERX", true, "THUNDERX", "cpuid:336 dyn:485" },
  { "0x43", "0x0af", nosve, "THUNDERX2T99", true, "THUNDERX2T99", "cpuid:338 dyn:487" },
  { "0x43", "0x0b8", nosve, "THUNDERX3T110", true, "THUNDERX3T110", "cpuid:340 dyn:489" },
  { "0x46", "0x001", sve, "A64FX", true, "A64FX", "cpuid:353 dyn:497" },
  { "0x48", "0xd01", nosve, "TSV110", true, "TSV110", "Kunpeng 920: cpuid:343 dyn:505" },
  { "0x50", "0x000", nosve, "EMAG8180", true, "EMAG8180", "cpuid:346 dyn:512" },
  { "0x51", "0xc00", nosve, "FALKOR", true, "CORTEXA57", "cpuid:333 dyn:527, Falkor #defined to A57 dyn:176" },
  { "0x61", "0x022", nosve, "VORTEX", true, "NEOVERSEN1", "M1 Icestorm: cpuid:356; every Apple part dyn:531-533, VORTEX = N1 dyn:191" },
  { "0x61", "0x023", nosve, "VORTEX", true, "NEOVERSEN1", "M1 Firestorm: cpuid:356 takes any Apple part; was ARMV8" },
  { "0x61", "0x039", { "fp", "asimd", "sme" }, "VORTEX", true, "NEOVERSEN1", "an Apple part with SME: VORTEXM4 = N1 on Linux, dyn:215" },
  { "0x70", "0x660", nosve, "FT2000", false, "ARMV8", "Phytium: cpuid:359-361; dyn default case" },
  { "0x70", "0x663", nosve, "FT2000", false, "ARMV8", "cpuid:359-361" },
  { "0xc0", "0xac3", nosve, "AMPERE1", true, "NEOVERSEN1", "AmpereOne: cpuid:348-350; dyn:519; was ARMV8" },
  { "0xc0", "0xac4", nosve, "AMPERE1", true, "NEOVERSEN1", "AmpereOne A: cpuid:348-350; dyn:520; was ARMV8" },
  { "0xc0", "0xac5", nosve, "ARMV8", false, "ARMV8", "an Ampere part neither lists: cpuid:348 without a match, then 382-384" },
  { "0x41", "0xd42", nosve, "ARMV8", false, "ARMV8", "Orin A78AE: in neither" },
  { "0x41", "0xd8e", sve, "ARMV8", false, "ARMV8SVE", "Neoverse N3: in neither; SVE dyn:547" },
  { "0x41", "0xd8e", { "sve", "sme" }, "ARMV8", false, "ARMV9SME", "Neoverse N3 with SME reported: dyn:540-543" },
  { "0x4e", "0x004", nosve, "ARMV8", false, "ARMV8", "Xavier Carmel: in neither" },
}
for _, c in ipairs(ob) do
  local got, rec, dyn = H.openblas_target({ implementer = c[1], part = c[2], features = c[3] })
  local what = ("%s:%s [%s]"):format(c[1], c[2], c[7])
  t.is(got, c[4], what .. ": TARGET " .. c[4])
  t.is(rec, c[5], what .. ": run-time case " .. tostring(c[5]))
  t.is(dyn, c[6], what .. ": DYNAMIC_ARCH runs " .. c[6])
end
-- Cores that differ (facts' cpu.parts, every distinct CPU part in cpuinfo
-- order; implementer and part are the first core's).  OpenBLAS 0.3.34's
-- build detection reads every core's MIDR_EL1 (cpuid_arm64.c:229),
-- sorts the parts highest first (cpuid:290) and looks up the highest;
-- DYNAMIC_ARCH reads the MIDR of the core it starts on (dyn:416), given
-- here for the first core.  Dumps: hrw/arm-socs-table cpuinfo-data/rk3588
-- (4x Cortex-A55 0xd05 first, 4x Cortex-A76 0xd0b) and apple-m1 (4x
-- Icestorm 0x022 first, 4x Firestorm 0x023) [ob-cpuid] [ob-dyn].
for _, c in ipairs({
  { "0x41", { "0xd05", "0xd0b" }, nosve, "CORTEXA76", true, "CORTEXA53", "RK3588: the A76 part is higher; DYNAMIC_ARCH on an A55 core" },
  { "0x61", { "0x022", "0x023" }, nosve, "VORTEX", true, "NEOVERSEN1", "Apple M1: every Apple part is VORTEX (cpuid:356); was ARMV8" },
  { "0x41", { "0xd87", "0xd85" }, sve, "NEOVERSEV2", true, "NEOVERSEN2", "GB10: A725 0xd87 first and highest, cpuid:326-328, dyn:463; was in neither" },
  { "0x41", { "0xd0b", "0xd05" }, nosve, "CORTEXA76", true, "CORTEXA57", "an A76 first: the highest part still decides; dyn:442" },
}) do
  local got, rec, dyn = H.openblas_target({ implementer = c[1], part = c[2][1], parts = c[2], features = c[3] })
  local what = ("%s:%s [%s]"):format(c[1], table.concat(c[2], "+"), c[7])
  t.is(got, c[4], what .. ": TARGET " .. c[4])
  t.is(rec, c[5], what .. ": run-time case " .. tostring(c[5]))
  t.is(dyn, c[6], what .. ": DYNAMIC_ARCH runs " .. c[6])
end
-- upper-case MIDR fields as some kernels print them
t.is(H.openblas_target({ implementer = "0x41", part = "0xD4F", features = sve }), "NEOVERSEV2", "0x41:0xD4F: case does not matter")

-- openblas_target, x86-64 from cpuinfo: { vendor, family, model, flags,
-- TARGET, DYNAMIC_ARCH kernel set, where } -- cpuid_x86.c get_coretype()
-- [ob-x86] and dynamic.c get_coretype() then gotoblas_dynamic_init()'s
-- fallback [ob-dynx], at v0.3.34.
local avx2 = { "sse4_2", "avx", "avx2", "fma" }
local avx512 = { "avx", "avx2", "avx512f", "avx512bw", "avx512vl" }
local bf16 = { "avx", "avx2", "avx512f", "avx512vl", "avx512_bf16" }
local amx = { "avx", "avx2", "avx512f", "avx512vl", "avx512_bf16", "amx_bf16", "amx_tile", "amx_int8" }
local x86 = {
  { "GenuineIntel", 6, 0x3f, avx2, "HASWELL", "HASWELL", "Haswell-EP: x86:2128-2131 dynx:526" },
  { "GenuineIntel", 6, 0x3f, { "avx" }, "HASWELL", "SANDYBRIDGE", "Haswell, AVX2 masked: the build tests AVX only, x86:2129; dynx:527-530" },
  { "GenuineIntel", 6, 0x55, avx512, "SKYLAKEX", "SKYLAKEX", "Skylake-SP/Cascade Lake: x86:2196-2200 dynx:606" },
  { "GenuineIntel", 6, 0x55, bf16, "COOPERLAKE", "COOPERLAKE", "Cooper Lake: x86:2199 dynx:606" },
  { "GenuineIntel", 6, 0x66, avx512, "SKYLAKEX", "HASWELL", "Cannon Lake: x86:2235-2237 dynx:657 (no AVX-512 test at run time)" },
  { "GenuineIntel", 6, 0x6a, avx512, "SKYLAKEX", "SKYLAKEX", "Ice Lake SP: x86:2247-2250 dynx:669" },
  { "GenuineIntel", 6, 0x7e, avx512, "SKYLAKEX", "SKYLAKEX", "Ice Lake: x86:2263-2265 dynx:689" },
  { "GenuineIntel", 6, 0x8c, avx512, "SKYLAKEX", "SKYLAKEX", "Tiger Lake: x86:2278-2282 dynx:707" },
  { "GenuineIntel", 6, 0x8f, amx, "SAPPHIRERAPIDS", "SAPPHIRERAPIDS", "Sapphire Rapids: x86:2293-2299 dynx:733" },
  { "GenuineIntel", 6, 0xcf, amx, "SAPPHIRERAPIDS", "COOPERLAKE", "Emerald Rapids: x86:2386-2392; none in dynx:782-808 -> dynx:1159; was PRESCOTT" },
  { "GenuineIntel", 6, 0xad, amx, "SAPPHIRERAPIDS", "COOPERLAKE", "Granite Rapids: x86:2330-2336; none in dynx:782-808 -> dynx:1159" },
  { "GenuineIntel", 6, 0x97, avx2, "HASWELL", "HASWELL", "Alder Lake: x86:2304-2307 dynx:754" },
  { "GenuineIntel", 6, 0x9c, {}, "NEHALEM", "PRESCOTT", "Jasper Lake: x86:2309-2310; no case at run time, no AVX -> dynx:1163; was PRESCOTT" },
  { "GenuineIntel", 6, 0xb7, avx2, "HASWELL", "HASWELL", "Raptor Lake: x86:2361-2370; no exmodel 11 at run time -> dynx:1161" },
  { "GenuineIntel", 6, 0xbd, avx2, "HASWELL", "HASWELL", "Lunar Lake: x86:2365; dynx:1161; was PRESCOTT" },
  { "GenuineIntel", 6, 0xc6, avx2, "HASWELL", "HASWELL", "Arrow Lake-S: x86:2374-2380; dynx:1161" },
  { "GenuineIntel", 6, 0xcc, avx2, "HASWELL", "HASWELL", "Panther Lake: x86:2382-2385; dynx:1161; was PRESCOTT" },
  { "GenuineIntel", 6, 0xac, avx2, "HASWELL", "HASWELL", "Meteor Lake 0xac: falls from x86:2328 through 2359 into 2382; was PRESCOTT" },
  { "GenuineIntel", 6, 0xc5, avx2, "HASWELL", "HASWELL", "Arrow Lake-H: no case, the Pentium 4 case tests features, x86:2395-2402; dynx:1161; was PRESCOTT" },
  { "GenuineIntel", 6, 0xc5, { "sse4_2" }, "PRESCOTT", "PRESCOTT", "an unlisted model without AVX: x86:2402; dynx:1163" },
  { "GenuineIntel", 6, 0xc1, avx2, "NORTHWOOD", "HASWELL", "an unlisted model, low nibble 1: x86:2396; dynx:1161" },
  { "GenuineIntel", 6, 0xaf, avx2, "HASWELL", "HASWELL", "Sierra Forest: falls from x86:2328 into x86:2363; dynx:1161" },
  { "GenuineIntel", 6, 0xa7, amx, "SKYLAKEX", "SKYLAKEX", "Rocket Lake model number with AMX, as a virtual CPU may report: x86:2348-2350 dynx:794" },
  { "GenuineIntel", 19, 0x01, avx2, "NORTHWOOD", "PRESCOTT", "a family 19 part, base family 0xf, model 1: x86:2396; dynx:811, NORTHWOOD -> PRESCOTT on 64-bit dynx:1166-1172" },
  { "GenuineIntel", 19, 0x05, avx512, "SKYLAKEX", "PRESCOTT", "a family 19 part, model 5: x86:2397-2401; dynx:812; was PRESCOTT" },
  { "GenuineIntel", 6, 0x1c, { "sse3" }, "ATOM", "NEHALEM", "Bonnell Atom: x86:2088-2089; dynx:490, ATOM #defined to NEHALEM dynx:258; no row here before (PRESCOTT)" },
  { "GenuineIntel", 6, 0x37, { "sse4_2" }, "ATOM", "NEHALEM", "Bay Trail: x86:2121-2122; dynx:549; no row here before (PRESCOTT)" },
  { "GenuineIntel", 6, 0x1d, { "sse4_1" }, "DUNNINGTON", "CORE2", "Dunnington: x86:2090-2091; dynx:488, #defined to CORE2 dynx:261; no row here before (PRESCOTT)" },
  { "GenuineIntel", 6, 0x4c, { "sse4_2" }, "NEHALEM", "NEHALEM", "Braswell: x86:2177-2181; dynx:589-591; no row here before (PRESCOTT)" },
  { "GenuineIntel", 6, 0x5c, { "sse4_2" }, "NEHALEM", "NEHALEM", "Apollo Lake: x86:2228-2230; dynx:652-654; no row here before (PRESCOTT)" },
  { "GenuineIntel", 6, 0x5f, { "sse4_2" }, "PRESCOTT", "NEHALEM", "Denverton: no build case, x86:2402; dynx:652-654; no row here before (dyn PRESCOTT)" },
  { "AuthenticAMD", 23, 0x31, avx2, "ZEN", "ZEN", "Zen 2: x86:2453-2471 dynx:897" },
  { "AuthenticAMD", 25, 0x21, avx2, "ZEN", "ZEN", "Zen 3: x86:2453-2471 dynx:913" },
  { "AuthenticAMD", 25, 0x11, bf16, "COOPERLAKE", "COOPERLAKE", "Zen 4: x86:2462 dynx:914" },
  { "AuthenticAMD", 26, 0x44, bf16, "COOPERLAKE", "COOPERLAKE", "Zen 5: x86:2453; no exfamily 11 at run time (dynx:924) -> dynx:1159" },
}
for _, c in ipairs(x86) do
  local got, rec, dyn = H.openblas_target({ vendor = c[1], family = c[2], model = c[3], features = c[4], microarch = "x86_64" })
  local what = ("%s %d/0x%02x [%s]"):format(c[1], c[2], c[3], c[7])
  t.is(got, c[5], what .. ": TARGET " .. c[5])
  t.is(dyn, c[6], what .. ": DYNAMIC_ARCH runs " .. c[6])
  t.is(rec, true, what .. ": DYNAMIC_ARCH takes a kernel set")
end
t.is(H.openblas_target({ vendor = "GenuineIntel", family = 6, model = 0x0f, features = {} }), nil, "Core 2: not modelled")
-- ... and the x86 plan says both: Emerald Rapids builds SAPPHIRERAPIDS
-- (x86:2386-2387) and DYNAMIC_ARCH runs COOPERLAKE's (dynx:1159)
local emr = H.openblas({ host = { arch = "x86_64", cpu = { vendor = "GenuineIntel", family = 6, model = 0xcf, features = amx } } })
t.is(emr.target, "SAPPHIRERAPIDS", "Emerald Rapids: target SAPPHIRERAPIDS")
t.ok(emr.note:find("OpenBLAS 0.3.34 built here without TARGET picks SAPPHIRERAPIDS, and its DYNAMIC_ARCH runs the COOPERLAKE kernels", 1, true) ~= nil,
  "Emerald Rapids: the note names the build TARGET and the DYNAMIC_ARCH kernels")

-- Facts written by hand carry only an archspec name: { microarch, TARGET, dyn }
local names = {
  { "neoverse_v2", "NEOVERSEV2", "NEOVERSEN2" }, { "cortex_a72", "CORTEXA72", "CORTEXA57" },
  { "zen4", "COOPERLAKE", "COOPERLAKE" }, { "sapphirerapids", "SAPPHIRERAPIDS", "SAPPHIRERAPIDS" },
  { "cannonlake", "SKYLAKEX", "HASWELL" }, { "arrowlake", "HASWELL", "HASWELL" }, { "arrowlake_s", "HASWELL", "HASWELL" },
}
for _, c in ipairs(names) do
  local got, _, dyn = H.openblas_target({ microarch = c[1] })
  t.is(got, c[2], c[1] .. ": TARGET " .. tostring(c[2]))
  t.is(dyn, c[3], c[1] .. ": DYNAMIC_ARCH runs " .. tostring(c[3]))
end

-- openblas: { description, facts, target, via, env BLAS }
local function arm(part, micro, os_id)
  return { host = { arch = "aarch64", platform = "sbsa", os = os_id and { id = os_id } or nil,
                    cpu = { implementer = "0x41", part = part, microarch = micro, model_name = micro } } }
end
local blas = {
  { "Grace: NEOVERSEV2 source build, whatever the distribution ships", arm("0xd4f", "neoverse_v2", "ubuntu"), "NEOVERSEV2", "source", "OpenBLAS" },
  { "Thor's V3AE: NEOVERSEV2 source build", arm("0xd83", nil, "ubuntu"), "NEOVERSEV2", "source", "OpenBLAS" },
  { "AmpereOne: AMPERE1 source build", { host = { arch = "aarch64", platform = "sbsa", os = { id = "ubuntu" },
    cpu = { implementer = "0xc0", part = "0xac3" } } }, "AMPERE1", "source", "OpenBLAS" },
  { "Cortex-A75: ARMV8 DYNAMIC_ARCH source build", arm("0xd0a", nil, "ubuntu"), "ARMV8", "source", "OpenBLAS" },
  { "Altra: distribution package", arm("0xd0c", "neoverse_n1", "ubuntu"), "NEOVERSEN1", "package", "OpenBLAS" },
  { "Graviton3 on Amazon Linux: package", arm("0xd40", "neoverse_v1", "amzn"), "NEOVERSEV1", "package", "OpenBLAS" },
  { "Graviton3, unknown OS: source", arm("0xd40", "neoverse_v1", nil), "NEOVERSEV1", "source", "OpenBLAS" },
  { "Orin A78AE: ARMV8, as OpenBLAS's detection picks", arm("0xd42", "neoverse_n1", "ubuntu"), "ARMV8", "source", "OpenBLAS" },
  { "Cortex-A76: source with CORTEXA76", arm("0xd0b", nil, "ubuntu"), "CORTEXA76", "source", "OpenBLAS" },
  { "x86: PyTorch's default", { host = { arch = "x86_64", cpu = { microarch = "zen4" } } }, "COOPERLAKE", "none", nil },
}
for _, c in ipairs(blas) do
  local res, env = H.openblas(c[2])
  t.is(res.target, c[3], c[1] .. ": target")
  t.is(res.via, c[4], c[1] .. ": via")
  t.is(env[1] and env[1][2], c[5], c[1] .. ": BLAS")
  if res.via == "source" then
    local flags = table.concat(res.make_flags, " ")
    t.like(flags, "USE_OPENMP=1", c[1] .. ": make flags use OpenMP (scenarios S27)")
    t.is(flags:find("DYNAMIC_ARCH=1", 1, true) ~= nil, c[3] == "ARMV8", c[1] .. ": DYNAMIC_ARCH only for the portable ARMV8 build")
    t.is(flags:find("TARGET", 1, true), nil, c[1] .. ": TARGET is the plan's target, not a make flag")
    t.like(res.url or "", "^https://github%.com/OpenMathLib/OpenBLAS/releases/download/v" .. res.version:gsub("%.", "%%.") .. "/",
      c[1] .. ": the source release is pinned by url")
    t.like(res.sha256 or "", "^" .. ("%x"):rep(64) .. "$", c[1] .. ": ... and by sha256")
  end
end
t.like(H.openblas(arm("0xd4f", "neoverse_v2", "ubuntu")).alternative or "", "NVPL", "Grace: NVPL named as the alternative")
t.is(H.openblas(arm("0xd0c", "neoverse_n1", "ubuntu")).alternative, nil, "Altra: no NVPL")

-- A distribution's OpenBLAS is older than the pinned release: the note
-- says what that release's DYNAMIC_ARCH runs and prints, where ptbuild
-- knows the release [deb-ob] and the core's run-time history
-- [ob-dynhist] [ob5144], and builds from source where that release has
-- no case for the core.  { description, part, os id, version, SVE
-- listed, via, text the note holds }
local sve_feats = { "fp", "asimd", "atomics", "sve" }
local nosve_feats = { "fp", "asimd", "atomics" }
local distro = {
  { "N2, Debian 12 (0.3.21): no SVE test, 'neoversen2'", "0xd49", "debian", "12", sve_feats, "package",
    "Debian 12's OpenBLAS (0.3.21, an OpenMP DYNAMIC_ARCH build) recognises this core at run time and runs the NEOVERSEN2 kernel set ('Core: neoversen2') whether or not the kernel reports SVE" },
  { "N2, Debian 13 (0.3.29): SVE, 'neoversen2'", "0xd49", "debian", "13", sve_feats, "package",
    "runs the NEOVERSEN2 kernel set ('Core: neoversen2'), as this core reports SVE" },
  { "N2, Debian 13 (0.3.29), SVE hidden: N1's", "0xd49", "debian", "13", nosve_feats, "package",
    "runs NEOVERSEN1's kernel set ('Core: neoversen1'), as this core's features list no SVE" },
  { "N2, Ubuntu 24.04 (0.3.26)", "0xd49", "ubuntu", "24.04", sve_feats, "package",
    "Ubuntu 24.04's OpenBLAS (0.3.26, an OpenMP DYNAMIC_ARCH build) recognises this core at run time and runs the NEOVERSEN2 kernel set ('Core: neoversen2')" },
  { "N2, Ubuntu 22.04 (0.3.20): no case, source", "0xd49", "ubuntu", "22.04", sve_feats, "source",
    "Ubuntu 22.04's OpenBLAS (0.3.20) has no run-time case for this core and would run its generic ARMV8 kernels, so OpenBLAS 0.3.34 is built from source" },
  { "N2, a release ptbuild does not know: each release's answer", "0xd49", "amzn", "2023", sve_feats, "package",
    "decides at run time, by its release: 0.3.30 and later: runs the NEOVERSEN2 kernel set ('Core: neoversev2'), as this core reports SVE; 0.3.24 to 0.3.29: runs the NEOVERSEN2 kernel set ('Core: neoversen2'), as this core reports SVE; 0.3.21 to 0.3.23: runs the NEOVERSEN2 kernel set ('Core: neoversen2') whether or not the kernel reports SVE; 0.3.20: has no case for it and runs its generic ARMV8 kernels ('Core: armv8')" },
  { "V1, Ubuntu 22.04 (0.3.20): no case, source", "0xd40", "ubuntu", "22.04", sve_feats, "source",
    "has no run-time case for this core and would run its generic ARMV8 kernels" },
  { "V1, Debian 12 (0.3.21)", "0xd40", "debian", "12", sve_feats, "package",
    "runs the NEOVERSEV1 kernel set ('Core: neoversev1') whether or not the kernel reports SVE" },
  { "A72, Debian 12 (0.3.21): its own table", "0xd08", "debian", "12", nosve_feats, "package",
    "runs the CORTEXA72 kernel set ('Core: cortexa72')" },
  { "A72, Debian 13 (0.3.29): A57's", "0xd08", "debian", "13", nosve_feats, "package",
    "runs the CORTEXA57 kernel set ('Core: cortexa57')" },
  { "A55, Ubuntu 24.04 (0.3.26): A53's", "0xd05", "ubuntu", "24.04", nosve_feats, "package",
    "runs the CORTEXA53 kernel set ('Core: cortexa53')" },
}
for _, c in ipairs(distro) do
  local res = H.openblas({ host = { arch = "aarch64", platform = "sbsa", os = { id = c[3], version_id = c[4] },
    cpu = { implementer = "0x41", part = c[2], model_name = "core", features = c[5] } } })
  t.is(res.via, c[6], c[1] .. ": via " .. c[6])
  t.ok(res.note:find(c[7], 1, true) ~= nil, c[1] .. ": the note says '" .. c[7]:sub(1, 60) .. "...' (" .. res.note .. ")")
end
-- Each history ends at the pinned release's own answer: the kernel set
-- of arm_parts and the name gotoblas_corename() gives it [ob-dyn].
for part, hist in pairs(obdata_early.dyn_history) do
  local last = hist[#hist]
  t.is(last[2], obdata_early.arm_parts[part][2], part .. ": the history ends at 0.3.34's kernel set")
  t.is(last[3], obdata_early.core_printed[last[2]] or last[2]:lower(), part .. ": ... and at the name 0.3.34 prints")
  t.is(obdata_early.arm_parts[part].since, nil, part .. ": a part with `since` is built from source and needs no history")
end

-- The note names the core as the facts do, and claims nothing of a core
-- the facts do not name: { description, cpu, note }
local notes = {
  { "a part OpenBLAS does not list, no model name", { implementer = "0x41", part = "0xd99" },
    "the core 0x41:0xd99: OpenBLAS's own detection has no entry for this core" },
  { "no CPU in the facts", nil,
    "the facts name no CPU core: TARGET=ARMV8 with DYNAMIC_ARCH=1 runs on every Armv8 core" },
  { "a CPU of no known field", {},
    "the facts name no CPU core: TARGET=ARMV8 with DYNAMIC_ARCH=1 runs on every Armv8 core" },
}
for _, c in ipairs(notes) do
  local res = H.openblas({ host = { arch = "aarch64", platform = "sbsa", cpu = c[2] } })
  t.is(res.target, "ARMV8", c[1] .. ": TARGET=ARMV8")
  t.ok(res.note:find(c[3], 1, true) == 1, c[1] .. ": the note begins '" .. c[3] .. "' (" .. res.note .. ")")
end

-- The pinned source release: { field, value, source }.  PyTorch's CD
-- clones tag v0.3.34 [pt-ob] [ob-0334]: the tag's commit [ob-0334-tag];
-- the sha256 is the release asset's, as lunar-linux's module and public
-- build scripts give it [ob-0334-sha].
local grace = H.openblas(arm("0xd4f", "neoverse_v2", "ubuntu"))
local pinned = {
  { "version", "0.3.34", "pt-ob, ob-0334" },
  { "url", "https://github.com/OpenMathLib/OpenBLAS/releases/download/v0.3.34/OpenBLAS-0.3.34.tar.gz", "ob-0334-sha" },
  { "sha256", "cd7e129868320cc2d033afa920e31202dfe0b8066a5b66661900ccc0f197dfed", "ob-0334-sha" },
}
for _, c in ipairs(pinned) do
  t.is(grace[c[1]], c[2], ("source build %s [%s]"):format(c[1], c[3]))
end
local obdata = ptb.include("data/openblas")
t.is(obdata.source_build.commit, "e0166008be8e466242aa76b2ff75ce3f0fbf574a", "the tag PyTorch's CD clones, v0.3.34, is commit e0166008 [ob-0334-tag]")

-- What the plan says of a Neoverse V2 in the pinned release, each claim
-- with its line in v0.3.34: { text, where }
local v2 = {
  { "neoverse_v2: TARGET=NEOVERSEV2, what OpenBLAS's own build detection picks for it", "cpuid_arm64.c:324; getarch.c:1529 FORCE_NEOVERSEV2" },
  { "releases before 0.3.31 treat this core otherwise", "Changelog 0.3.31: 'added support for the NEOVERSEV2 cpu'" },
  { "so OpenBLAS 0.3.34 is built from source", "the pin" },
  { "its kernel/arm64/KERNEL.NEOVERSEV2 is KERNEL.NEOVERSEN2's list", "KERNEL.NEOVERSEV2:1" },
  { "a DYNAMIC_ARCH build of 0.3.34 (PyTorch's CD: TARGET=ARMV8 DYNAMIC_ARCH=1) recognises this core at run time", "dynamic_arm64.c:459" },
  { "where the kernel reports SVE, runs the NEOVERSEN2 kernel set", "dynamic_arm64.c:464-469 and :227" },
  { "OPENBLAS_VERBOSE=2 still prints 'Core: neoversev2'", "gotoblas_corename() tests V2 (line 291) before N2 (292)" },
  { "without SVE it runs NEOVERSEN1's", "dynamic_arm64.c:464-466" },
}
for _, c in ipairs(v2) do
  t.ok(grace.note:find(c[1], 1, true) ~= nil, ("Grace note: '%s' [%s]"):format(c[1], c[2]))
end
t.is(grace.note:find("has no TARGET", 1, true), nil, "Grace: no claim that 0.3.34 refuses TARGET=NEOVERSEV2")
t.is(grace.note:find("NEOVERSEV2 kernel set", 1, true), nil, "Grace: no NEOVERSEV2 kernel set at run time")

-- The facts' features decide the SVE branch of dynamic_arm64.c:464-469
-- when they list any; with none listed the note keeps both branches.
local function v2_with(features)
  local f = arm("0xd4f", "neoverse_v2", "ubuntu")
  f.host.cpu.features = features
  return H.openblas(f).note
end
local reports = v2_with({ "fp", "asimd", "sve", "sve2" })
t.ok(reports:find("as this core reports SVE, runs the NEOVERSEN2 kernel set", 1, true) ~= nil,
  "Grace listing sve: the NEOVERSEN2 set, decided [dynamic_arm64.c:464-469]")
t.is(reports:find("without SVE", 1, true), nil, "...and no branch left open")
local nosve_v2 = v2_with({ "fp", "asimd" })
t.ok(nosve_v2:find("as this core's features list no SVE, runs NEOVERSEN1's kernel set", 1, true) ~= nil,
  "a V2 whose kernel hides SVE: NEOVERSEN1's set [dynamic_arm64.c:464-466]")
t.is(nosve_v2:find("NEOVERSEN2 kernel set", 1, true), nil, "...and no NEOVERSEN2 kernel set claimed")
t.ok(v2_with({}):find("where the kernel reports SVE", 1, true) ~= nil, "no features listed: both branches said")

-- TARGETs getarch.c knows only from a release on: { target, version,
-- refused from }.  0.3.30's getarch.c has none of the three (its #error
-- at 1827), 0.3.34's has them (1529, 1638, 1685); 0.3.31's Changelog adds
-- them [ob-getarch] [ob-changes].
for _, c in ipairs({
  { "NEOVERSEV2", "0.3.30", "0.3.31" }, { "NEOVERSEV2", "0.3.28", "0.3.31" }, { "NEOVERSEV2", "0.3.34", nil },
  { "NEOVERSEV2", "0.3.31", nil }, { "AMPERE1", "0.3.30", "0.3.31" }, { "AMPERE1", "0.3.34", nil },
  { "VORTEXM4", "0.3.29", "0.3.31" }, { "NEOVERSEN2", "0.3.20", nil }, { "NEOVERSEV2", "develop", nil },
}) do
  t.is(H.openblas_refuses(c[1], c[2]), c[3], ("TARGET=%s with OpenBLAS %s: refused %s"):format(c[1], c[2], tostring(c[3])))
end

-- max_jobs: { cores, memory MiB, --max-jobs, jobs, problems }
local jobs = {
  { 72, 491520, nil, 72, "" }, { 224, 2097152, nil, 224, "" }, { 32, 63430, nil, 15, "" },
  { 12, 62841, nil, 12, "" }, { 64, 16384, nil, 4, "" }, { 8, 3072, nil, 1, "error:memory-too-small" },
  { 32, 63430, 32, 32, "warning:memory-too-small" }, { 32, 63430, 8, 8, "" }, { nil, nil, nil, 4, "" },
}
for _, c in ipairs(jobs) do
  local n, problems = H.max_jobs({ host = { cpu = c[1] and { cores = c[1] } or nil, memory_mib = c[2] } }, c[3])
  t.is(n, c[4], ("%s cores %s MiB --max-jobs %s -> %d"):format(c[1], c[2], c[3], c[4]))
  t.is(codes(problems), c[5], ("%s cores %s MiB: problems"):format(c[1], c[2]))
end

-- packages
local pk = H.packages({ host = { os = { id = "ubuntu" } } }, { via = "package", packages = { "libopenblas-openmp-dev" } })
t.is(pk.manager, "apt", "ubuntu: apt")
t.ok(table.concat(pk.names, " "):find("libopenblas-openmp-dev", 1, true) ~= nil, "ubuntu: the OpenBLAS package")
pk = H.packages({ host = { os = { id = "rocky" } } }, { via = "none" })
t.is(pk.manager, "dnf", "rocky: dnf")
t.ok(table.concat(pk.names, " "):find("gcc-c++", 1, true) ~= nil, "rocky: gcc-c++")
t.is(H.packages({ host = {} }, { via = "none" }).manager, ptb.null, "unknown OS: no manager")

-- buildenv: the order and the per-platform variables
local function names(env)
  local out = {}
  for _, kv in ipairs(env) do out[#out + 1] = kv.name end
  return table.concat(out, " ")
end
local base = { root = "/usr/local/cuda-13.0", arch = { list = "9.0+PTX", items = A.parse("9.0+PTX") },
               host = { switched = false }, blas_env = {}, jobs = 8 }
base.facts = { host = { arch = "x86_64", platform = "x86_64" } }
t.is(names(B.env(base)), "CUDA_HOME CUDA_PATH CUDACXX TORCH_CUDA_ARCH_LIST USE_CUDA USE_CUDNN USE_SYSTEM_NCCL USE_MKLDNN BUILD_TEST MAX_JOBS", "x86_64 env order")
base.facts = { host = { arch = "aarch64", platform = "sbsa", page_size = 65536, cpu = { features = { "atomics" } } } }
base.blas_env = { { "BLAS", "OpenBLAS" }, { "OpenBLAS_HOME", "/usr" } }
base.host = { switched = true, cxx = "/usr/bin/g++-13" }
t.is(names(B.env(base)), "CUDA_HOME CUDA_PATH CUDACXX CUDAHOSTCXX TORCH_CUDA_ARCH_LIST USE_CUDA USE_CUDNN USE_SYSTEM_NCCL BLAS OpenBLAS_HOME USE_MKLDNN USE_MKLDNN_ACL ACL_ROOT_DIR USE_PRIORITIZED_TEXT_FOR_LD USE_MAGMA CMAKE_SHARED_LINKER_FLAGS BUILD_TEST MAX_JOBS", "aarch64 64K env order")
base.facts = { host = { arch = "aarch64", platform = "jetson", page_size = 4096, cpu = { features = { "fp" } } } }
t.is(names(B.env(base)), "CUDA_HOME CUDA_PATH CUDACXX CUDAHOSTCXX TORCH_CUDA_ARCH_LIST USE_CUDA USE_CUDNN USE_NCCL BLAS OpenBLAS_HOME USE_MKLDNN USE_MKLDNN_ACL USE_PRIORITIZED_TEXT_FOR_LD USE_MAGMA BUILD_TEST MAX_JOBS", "Jetson 4K without LSE env order")
local c = B.cmake(base)
t.is(c.CMAKE_CUDA_ARCHITECTURES, "90-real;90-virtual", "cmake: architectures match the list")
t.is(c.CMAKE_CUDA_HOST_COMPILER, "/usr/bin/g++-13", "cmake: host compiler when switched")
t.is(c.CUDAToolkit_ROOT, "/usr/local/cuda-13.0", "cmake: toolkit root")

-- compiler_ok: nvcc's host compiler limits by full version [spack-cuda]
-- { CUDA release, toolkit full version, kind, compiler version, arch, ok }
local R = function(v) return (A.release(v)) end
local edges = {
  { "12.4", "12.4.131", "gcc", "13.2.0", "aarch64", false },  -- GH200 + Ubuntu 24.04 gcc
  { "12.4", "12.4.131", "gcc", "13.2.0", "x86_64", true },
  { "12.4", "12.4.131", "gcc", "13.3.0", "aarch64", true },
  { "12.5", "12.5.82", "gcc", "13.2.0", "aarch64", true },
  { "11.4", "11.4.0", "gcc", "10.3.0", "x86_64", false },    -- gcc 10 with <= 11.4.0
  { "11.4", "11.4.0", "gcc", "11.1.0", "x86_64", false },    -- gcc 11 from 11.4.1
  { "11.4", "11.4.1", "gcc", "11.1.0", "x86_64", true },
  { "11.4", "11.4.1", "gcc", "11.2.0", "x86_64", false },    -- gcc >= 11.2 with 11.4.1-11.5
  -- installed toolkits carry nvcc's number [nvcc114]: 11.4.48 is 11.4.0,
  -- 11.4.100 is 11.4.1
  { "11.4", "11.4.48", "gcc", "10.3.0", "x86_64", false },   -- gcc 10 with 11.4.0
  { "11.4", "11.4.48", "gcc", "11.1.0", "x86_64", false },   -- gcc 11 before 11.4.1
  { "11.4", "11.4.100", "gcc", "10.3.0", "x86_64", true },
  { "11.4", "11.4.100", "gcc", "11.1.0", "x86_64", true },
  { "11.4", "11.4.100", "gcc", "11.2.0", "x86_64", false },
  -- clang 12 like gcc 11: from 11.4.1 (spack: %clang@12: when %cuda@:11.4.0)
  { "11.4", "11.4.0", "clang", "12.0.1", "x86_64", false },
  { "11.4", "11.4.48", "clang", "12.0.1", "x86_64", false },
  { "11.4", "11.4.0", "clang", "11.1.0", "x86_64", true },
  { "11.4", "11.4.1", "clang", "12.0.1", "x86_64", true },
  { "11.4", "11.4.100", "clang", "12.0.1", "x86_64", true },
  { "11.4", "11.4.1", "clang", "13.0.0", "x86_64", false },
  { "11.3", "11.3.109", "gcc", "10.3.0", "x86_64", false },
  { "11.5", "11.5.2", "gcc", "11.4.0", "x86_64", false },
  { "11.6", "11.6.2", "gcc", "11.4.0", "x86_64", true },
  { "13.0", "13.0.2", "clang", "21.1.0", "x86_64", false },  -- clang 21 refused by 13.0
  { "13.1", "13.1.1", "clang", "21.1.0", "x86_64", true },   -- ... accepted from 13.1
  { "13.3", "13.3.1", "clang", "22.1.0", "x86_64", false },
  { "13.0", "13.0.2", "gcc", "16.1.0", "x86_64", false },
  { "13.3", "13.3.1", "gcc", "15.2.0", "x86_64", true },
  -- 13.4 Update 1 (13.4.92): gcc 16 [hostcfg134], clang 22 [ig1342]
  { "13.4", "13.4.2", "gcc", "16.2.0", "x86_64", true },
  { "13.4", "13.4.2", "gcc", "17.1.0", "x86_64", false },
  { "13.4", "13.4.2", "clang", "22.1.8", "aarch64", true },
  { "13.4", "13.4.2", "clang", "23.1.2", "x86_64", false },
}
for _, c in ipairs(edges) do
  t.is((H.compiler_ok(R(c[1]), c[2], c[3], c[4], c[5])), c[6],
    ("%s %s with CUDA %s on %s: %s"):format(c[3], c[4], c[2], c[5], tostring(c[6])))
end

-- A version known only in part (detect reads "13" from gcc-13 and
-- /usr/lib/gcc/<triplet>/13): refused when every version it stands for
-- conflicts, else taken with the conflict it may meet.
-- { CUDA release, toolkit full version, compiler version, arch, ok, versions that may conflict }
local partial = {
  { "12.4", "12.4.1", "13", "aarch64", true, "13.2.0" },
  { "12.4", "12.4.1", "13.2", "aarch64", true, "13.2.0" },   -- 13.2.1 would do
  { "12.4", "12.4.1", "13.3", "aarch64", true, nil },
  { "12.4", "12.4.1", "13", "x86_64", true, nil },
  { "12.5", "12.5.1", "13", "aarch64", true, nil },
  { "11.5", "11.5.2", "11", "x86_64", true, "11.2 or newer" },
  { "11.5", "11.5.2", "11.1", "x86_64", true, nil },
  { "11.3", "11.3.1", "10", "x86_64", false, nil },          -- every gcc 10 breaks <= 11.4.0
  { "11.4", "11.4.0", "11", "x86_64", false, nil },
}
for _, c in ipairs(partial) do
  local ok, _, maybe = H.compiler_ok(R(c[1]), c[2], "gcc", c[3], c[4])
  t.is(ok, c[5], ("gcc %s with CUDA %s on %s: %s"):format(c[3], c[2], c[4], tostring(c[5])))
  t.is(maybe and maybe.versions, c[6], ("... may meet %s"):format(tostring(c[6])))
end

-- host_compiler: the GH200 case -- Ubuntu 24.04's gcc 13.2.0 and CUDA 12.4:
-- an error, the compiler marked refused (the plan does not say "accepted")
local gh = { host = { arch = "aarch64" }, toolkits = {},
             compilers = { { name = "gcc", version = "13.2.0", path = "/usr/bin/gcc" } } }
local torch25
for _, r in ipairs(pytorch.releases) do if r.version == "2.5" then torch25 = r end end
local res, probs = H.host_compiler(gh, R("12.4"), torch25)
t.is(probs[1] and probs[1].code, "gcc-too-new", "GH200 gcc 13.2.0 + CUDA 12.4: gcc-too-new")
t.is(probs[1] and probs[1].severity, "error", "... an error: no other gcc")
t.is(res.refused, true, "... the host compiler is marked refused")
-- ... and the gcc its fix names is one nvcc 12.4 takes there: 12, not
-- gcc 13 (the one installed is a gcc 13)
t.ok((probs[1] and probs[1].fix or ""):find("install gcc 12 (e.g. 'g++-12')", 1, true), "... the fix names gcc 12, not 13")

-- ... and the newer CUDA it offers is named: the first after 12.4 whose
-- nvcc takes gcc 13.2.0 on aarch64 and that PyTorch 2.5 builds, 12.5
-- (not "a newer CUDA" for the user to guess)
t.like(probs[1] and probs[1].fix or "", "or use %-%-cuda 12%.5, the first newer CUDA whose nvcc takes gcc 13%.2%.0",
  "... the fix names the newer CUDA that takes this gcc")
-- gcc 14 with CUDA 12.6 and PyTorch 2.14: 12.8 is the first to take gcc 14
local x86 = { host = { arch = "x86_64" }, toolkits = {}, compilers = { gcc("14.2.0") } }
local _, p14 = H.host_compiler(x86, R("12.6"), torch("2.14"))
t.like(p14[1] and p14[1].fix or "", "or use %-%-cuda 12%.8, the first newer CUDA whose nvcc takes gcc 14%.2%.0 and that PyTorch 2%.14 builds",
  "gcc 14 with CUDA 12.6: the fix names --cuda 12.8")
-- ... where the driver runs no such CUDA, the fix names the one a newer
-- driver opens, with that driver (gcc 15: CUDA 13.0 [release notes], its
-- driver 580.65.06; this one runs 12.9 at most), not "a newer CUDA" the
-- driver cannot run; and where no CUDA ptbuild knows takes the gcc
-- (gcc 17: 13.4 takes 16 at most), it says so instead of offering one.
local rtx = function(v, drv, max)
  return { host = { arch = "x86_64" }, toolkits = {}, compilers = { gcc(v) },
           driver = { version = drv, cuda_max = max },
           gpus = { { index = 0, name = "NVIDIA GeForce RTX 4090", compute_capability = "8.9" } } }
end
local _, p15 = H.host_compiler(rtx("15.1.1", "575.57.08", "12.9"), R("12.6"), torch("2.14"))
t.like(p15[1] and p15[1].fix or "", "^install gcc 13 %(e%.g%. 'g%+%+%-13'%) %-%- ptbuild then passes it to nvcc %-%- or use %-%-cuda 13%.0 with driver 580%.65%.06 or newer %(driver 575%.57%.08 runs CUDA 12%.9 at most%), the first newer CUDA whose nvcc takes gcc 15%.1%.1",
  "gcc 15, CUDA 12.6, driver 575: the fix names --cuda 13.0 with the driver it needs")
local _, p15b = H.host_compiler(rtx("15.1.1", "580.95.05", "13.0"), R("12.6"), torch("2.14"))
t.like(p15b[1] and p15b[1].fix or "", "or use %-%-cuda 13%.0, the first newer CUDA whose nvcc takes gcc 15%.1%.1 and that PyTorch 2%.14 builds$",
  "gcc 15, CUDA 12.6, driver 580: --cuda 13.0 as it is")
local _, p17 = H.host_compiler(rtx("17.1.0", "620.70.06", "13.5"), R("12.6"), torch("2.14"))
t.like(p17[1] and p17[1].fix or "", "^install gcc 13 %(e%.g%. 'g%+%+%-13'%): ptbuild then passes it to nvcc %(no CUDA newer than 12%.6 that PyTorch 2%.14 builds for this machine takes gcc 17%.1%.0%)$",
  "gcc 17: no newer CUDA is offered, and the fix says none takes it")

-- The gcc major a fix names: the newest up to gcc_max that no full-version
-- conflict touches in any of its versions.
-- { CUDA release, toolkit full version, arch, major }
local C = ptb.include("lib/checks")
local install = {
  { "12.4", "12.4.1", "aarch64", 12 },    -- 13.2.0 breaks 12.4 on aarch64
  { "12.4", "12.4.1", "x86_64", 13 },     -- ... only there
  { "12.5", "12.5.1", "aarch64", 13 },
  { "11.5", "11.5.2", "x86_64", 10 },     -- gcc >= 11.2 breaks 11.4-11.5
  { "11.3", "11.3.1", "x86_64", 9 },      -- gcc 10 breaks <= 11.4.0
  { "11.4", "11.4.1", "x86_64", 10 },
  { "11.6", "11.6.2", "x86_64", 11 },
  { "12.6", "12.6.3", "x86_64", 13 },     -- no conflict: gcc_max
}
for _, c in ipairs(install) do
  t.is(C.gcc_to_install(R(c[1]), c[2], c[3]), c[4],
    ("nvcc %s on %s: install gcc %d"):format(c[2], c[3], c[4]))
end
local res115, p115 = H.host_compiler({ host = { arch = "x86_64" }, toolkits = {}, compilers = { gcc("11.4.0") } },
  R("11.5"), torch25)
t.ok((p115[1] and p115[1].fix or ""):find("install gcc 10 (e.g. 'g++-10')", 1, true), "gcc 11.4.0 with CUDA 11.5: the fix names gcc 10")
t.is(res115.refused, true, "... and the compiler is refused")

-- ... and known as detect knows it, "13": a warning, the compiler not
-- called accepted, the fix telling how to read its full version
local gh13 = { host = { arch = "aarch64" }, toolkits = {},
               compilers = { { name = "gcc", version = "13", path = "/usr/bin/gcc" } } }
local r13, p13 = H.host_compiler(gh13, R("12.4"), torch25)
t.is(codes(p13), "warning:gcc-too-new", "GH200 gcc known as 13 + CUDA 12.4: a gcc-too-new warning")
t.is(r13.unsure, true, "... the host compiler is marked unsure")
t.ok((p13[1] and p13[1].fix or ""):find("run '/usr/bin/gcc -dumpfullversion': if it prints 13.2.0, install gcc 12", 1, true),
  "... the fix says how to tell and what to install")
gh13.compilers[2] = { name = "gcc-12", version = "12", path = "/usr/bin/gcc-12" }
r13 = H.host_compiler(gh13, R("12.4"), torch25)
t.is(r13.switched and r13.host.path, "/usr/bin/gcc-12", "... with a gcc-12 beside it the plan switches to it")

gh.compilers[2] = { name = "gcc", version = "12.3.0", path = "/usr/bin/gcc-12" }
res = H.host_compiler(gh, R("12.4"), torch25)
t.is(res.switched and res.host.version, "12.3.0", "... with gcc 12.3.0 installed the plan switches to it")

-- The CUDA nvcc's rules are judged by is the one the plan installs: on a
-- Jetson Orin before CUDA 13 JetPack's local repo, whose 12.8 is 12.8.1
-- (cuda-tegra-repo-...-12-8-local_12.8.1), not the minor's last update
-- 12.8.2 that a download installs; lib/toolkit's installer says the same.
local T = ptb.include("lib/toolkit")
local orin = { host = { arch = "aarch64", platform = "jetson" }, toolkits = {},
               gpus = { { compute_capability = "8.7" } } }
local sbsa = { host = { arch = "aarch64", platform = "sbsa" }, toolkits = {} }
for _, c in ipairs({ { orin, "12.8" }, { orin, "12.9" }, { orin, "12.6" }, { sbsa, "12.8" }, { orin, "13.0" } }) do
  local r = R(c[2])
  local platform, installer = T.platform(c[1], r)
  local inst = T.installer(r, platform, installer, c[1])
  t.is(H.cuda_full(c[1], r), inst.full_version,
    ("%s CUDA %s (%s): nvcc's rules judge %s, the update the plan installs"):format(c[1].host.platform, c[2], installer, inst.full_version))
end
t.is(H.cuda_full(orin, R("12.8")), "12.8.1", "Jetson Orin CUDA 12.8 from JetPack's repo is 12.8.1")
t.is(H.cuda_full(sbsa, R("12.8")), "12.8.2", "an SBSA server's CUDA 12.8 download is 12.8.2")
-- ... and a gcc-too-new message names that nvcc: gcc 15 on the Orin
local _, p15 = H.host_compiler({ host = orin.host, gpus = orin.gpus, toolkits = {}, compilers = { gcc("15.1.0") } },
  R("12.8"), torch25)
t.ok((p15[1] and p15[1].message or ""):find("nvcc 12.8.1", 1, true), "gcc 15.1.0 on a Jetson Orin with CUDA 12.8: the message names nvcc 12.8.1")

t.done()
