-- archlist_test.lua - the TORCH_CUDA_ARCH_LIST engine, table-driven.
local t = ptb.include("tap")
local A = ptb.include("lib/archlist")
local arch = ptb.include("arch")

-- { list, cuda, torch, cmake, gencode (joined by " ") } -- or with `err`
-- = kind ("usage" | "unsupported") and `msg` = a pattern the message has.
local cases = {
  -- every named family (select_compute_arch.cmake)
  { "Kepler", "11.8", "3.5", "35-real", "-gencode=arch=compute_35,code=sm_35" },
  { "Kepler+Tesla", "11.8", "3.7", "37-real", "-gencode=arch=compute_37,code=sm_37" },
  { "Maxwell", "12.6", "5.0;5.2", "50-real;52-real",
    "-gencode=arch=compute_50,code=sm_50 -gencode=arch=compute_52,code=sm_52" },
  { "Maxwell+PTX", "12.6", "5.0;5.2+PTX", "50-real;52-real;52-virtual",
    "-gencode=arch=compute_50,code=sm_50 -gencode=arch=compute_52,code=sm_52 -gencode=arch=compute_52,code=compute_52" },
  { "Maxwell+Tegra", "12.6", "5.3", "53-real", "-gencode=arch=compute_53,code=sm_53" },
  { "Pascal", "12.9", "6.0;6.1", "60-real;61-real",
    "-gencode=arch=compute_60,code=sm_60 -gencode=arch=compute_61,code=sm_61" },
  { "Volta", "12.4", "7.0", "70-real", "-gencode=arch=compute_70,code=sm_70" },
  { "Volta+Tegra", "12.4", "7.2", "72-real", "-gencode=arch=compute_72,code=sm_72" },
  { "Turing", "13.0", "7.5", "75-real", "-gencode=arch=compute_75,code=sm_75" },
  { "Ampere", "13.0", "8.0;8.6", "80-real;86-real",
    "-gencode=arch=compute_80,code=sm_80 -gencode=arch=compute_86,code=sm_86" },
  { "Ampere+PTX", "12.8", "8.0+PTX;8.6+PTX", "80-real;80-virtual;86-real;86-virtual",
    "-gencode=arch=compute_80,code=sm_80 -gencode=arch=compute_86,code=sm_86 -gencode=arch=compute_80,code=compute_80 -gencode=arch=compute_86,code=compute_86" },
  { "Ampere+Tegra", "12.6", "8.7", "87-real", "-gencode=arch=compute_87,code=sm_87" },
  { "Ada", "12.8", "8.9", "89-real", "-gencode=arch=compute_89,code=sm_89" },
  { "Hopper+PTX", "12.8", "9.0+PTX", "90-real;90-virtual",
    "-gencode=arch=compute_90,code=sm_90 -gencode=arch=compute_90,code=compute_90" },
  { "Blackwell", "12.8", "10.0;12.0", "100-real;120-real",
    "-gencode=arch=compute_100,code=sm_100 -gencode=arch=compute_120,code=sm_120" },
  { "Blackwell+Tegra", "12.9", "10.1", "101-real", "-gencode=arch=compute_101,code=sm_101" },
  -- separators, duplicates, order
  { "9.0 8.0\t8.6;;8.0", "12.4", "8.0;8.6;9.0", "80-real;86-real;90-real",
    "-gencode=arch=compute_80,code=sm_80 -gencode=arch=compute_86,code=sm_86 -gencode=arch=compute_90,code=sm_90" },
  { "8.0;8.0+PTX", "12.4", "8.0+PTX", "80-real;80-virtual",
    "-gencode=arch=compute_80,code=sm_80 -gencode=arch=compute_80,code=compute_80" },
  { "Ampere;8.6", "12.4", "8.0;8.6", "80-real;86-real",
    "-gencode=arch=compute_80,code=sm_80 -gencode=arch=compute_86,code=sm_86" },
  -- a and f suffixes
  { "9.0a", "12.0", "9.0a", "90a-real", "-gencode=arch=compute_90a,code=sm_90a" },
  { "9.0;9.0a", "12.8", "9.0;9.0a", "90-real;90a-real",
    "-gencode=arch=compute_90,code=sm_90 -gencode=arch=compute_90a,code=sm_90a" },
  { "10.0f+PTX", "12.9", "10.0f+PTX", "100f-real;100f-virtual",
    "-gencode=arch=compute_100f,code=sm_100f -gencode=arch=compute_100f,code=compute_100f" },
  { "12.0a", "13.0", "12.0a", "120a-real", "-gencode=arch=compute_120a,code=sm_120a" },
  -- 13.1-13.3 build 13.0's targets and no new one: PTX ISA 9.1-9.3 name
  -- the same targets as 9.0 (CUDA 13.0) [ptx-rel]; no target's first CUDA
  -- is 13.1, 13.2 or 13.3 [llvm-nvptx]
  { "8.8;11.0f", "13.1", "8.8;11.0f", "88-real;110f-real",
    "-gencode=arch=compute_88,code=sm_88 -gencode=arch=compute_110f,code=sm_110f" },
  { "12.1a", "13.2", "12.1a", "121a-real", "-gencode=arch=compute_121a,code=sm_121a" },
  { "10.3f;11.0a", "13.3", "10.3f;11.0a", "103f-real;110a-real",
    "-gencode=arch=compute_103f,code=sm_103f -gencode=arch=compute_110a,code=sm_110a" },
  { "10.7", "13.2", err = "unsupported", msg = "sm_107", hint = "first CUDA release that builds sm_107 is 13.4" },
  -- sm_107f arrives with PTX ISA 9.4, CUDA 13.4 [gcc-nvptx107] [ptx-rel]
  { "10.7f", "13.4", "10.7f", "107f-real", "-gencode=arch=compute_107f,code=sm_107f" },
  { "10.7f", "13.3", err = "unsupported", msg = "sm_107f", hint = "first CUDA release that builds sm_107f is 13.4" },
  -- the X.Y(A.B) form
  { "8.6(8.0)", "12.4", "8.6(8.0)", "86-real", "-gencode=arch=compute_80,code=sm_86" },
  { "8.6(8.0)+PTX", "12.4", "8.6(8.0)+PTX", "80-virtual;86-real;86-virtual",
    "-gencode=arch=compute_80,code=sm_86 -gencode=arch=compute_86,code=compute_86 -gencode=arch=compute_80,code=compute_80" },
  -- CUDA boundaries
  { "3.5", "11.8", "3.5", "35-real", "-gencode=arch=compute_35,code=sm_35" },
  { "3.5", "12.0", err = "unsupported", msg = "CUDA 12.0 does not build sm_35", hint = "last CUDA release that builds sm_35 is 11.8" },
  { "Kepler+Tesla", "12.0", err = "unsupported", msg = "sm_37", hint = "11.8" },
  { "10.0", "12.6", err = "unsupported", msg = "CUDA 12.6 does not build sm_100", hint = "first CUDA release that builds sm_100 is 12.8" },
  { "12.0", "12.8", "12.0", "120-real", "-gencode=arch=compute_120,code=sm_120" },
  { "10.1", "12.8", "10.1", "101-real", "-gencode=arch=compute_101,code=sm_101" },
  { "10.3", "12.8", err = "unsupported", msg = "sm_103", hint = "first CUDA release that builds sm_103 is 12.9" },
  { "12.1", "12.9", "12.1", "121-real", "-gencode=arch=compute_121,code=sm_121" },
  { "10.0f", "12.8", err = "unsupported", msg = "sm_100f", hint = "first CUDA release that builds sm_100f is 12.9" },
  { "7.0", "13.0", err = "unsupported", msg = "CUDA 13.0 does not build sm_70", hint = "last CUDA release that builds sm_70 is 12.9" },
  { "6.1", "13.0", err = "unsupported", msg = "sm_61", hint = "12.9" },
  { "5.0", "12.9", "5.0", "50-real", "-gencode=arch=compute_50,code=sm_50" },
  { "10.1", "13.0", err = "unsupported", msg = "renamed it sm_110", hint = "write 11.0" },
  { "Blackwell+Tegra", "13.0", err = "unsupported", msg = "sm_101", hint = "Blackwell%+Tegra" },
  { "11.0", "12.9", err = "unsupported", msg = "sm_110", hint = "this GPU is sm_101" },
  { "11.0;8.8", "13.0", "8.8;11.0", "88-real;110-real",
    "-gencode=arch=compute_88,code=sm_88 -gencode=arch=compute_110,code=sm_110" },
  { "9.0a", "11.8", err = "unsupported", msg = "sm_90a", hint = "first CUDA release that builds sm_90a is 12.0" },
  { "3.0", nil, err = "unsupported", msg = "sm_30", hint = "10.2" },
  -- bad tokens are usage errors that name the token
  { "8.0,8.6", "12.8", err = "usage", msg = "'8.0,8.6'", hint = "not ','" },
  { "ampere", "12.8", err = "usage", msg = "'ampere'", hint = "did you mean 'Ampere'" },
  { "sm_80", "12.8", err = "usage", msg = "'sm_80'", hint = "'8.0'" },
  { "9.9", "12.8", err = "usage", msg = "unknown GPU architecture '9.9'" },
  { "8.0a", "12.8", err = "usage", msg = "no CUDA release builds sm_80a" },
  { "9.0f", "12.9", err = "usage", msg = "sm_90f" },
  { "8.0(9.0)", "12.8", err = "usage", msg = "must not be newer" },
  { "Kepler+Tegra", "11.8", err = "usage", msg = "'Kepler%+Tegra'" },
  { "8.0+ptx", "12.8", err = "usage", msg = "'8.0%+ptx'" },
  -- what PyTorch's CMake regex takes but turns into flags nvcc refuses
  { "08.0", "12.8", err = "usage", msg = "leading zero.*compute_080", hint = "write '8%.0'" },
  { "012.0", "12.8", err = "usage", msg = "compute_0120", hint = "write '12%.0'" },
  { "8.6(08.0)+PTX", "12.8", err = "usage", msg = "compute_080", hint = "write '8%.6%(8%.0%)%+PTX'" },
  { "9.0;08.6", "12.8", err = "usage", msg = "'08%.6'", hint = "'8%.6'" },
  { "9.0a(9.0)", "12.8", err = "usage", msg = "arch=compute_%(90%),code=sm_%(90%)", hint = "write '9%.0a'.*'9%.0%(9%.0%)'" },
  { "9.0a(8.0)+PTX", "12.8", err = "usage", msg = "compute_%(80%)", hint = "'9%.0a%+PTX'.*'9%.0%(8%.0%)%+PTX'" },
  { "10.0f(10.0)", "12.9", err = "usage", msg = "suffixed X%.Y%(A%.B%)" },
  { "8.0;10.0", "12.8", "8.0;10.0", "80-real;100-real",
    "-gencode=arch=compute_80,code=sm_80 -gencode=arch=compute_100,code=sm_100" },
  { "Auto", "12.8", err = "usage", msg = "not an explicit list" },
  { "All", "12.8", err = "usage", msg = "3.5" },
  { "  ", "12.8", err = "usage", msg = "empty" },
  { "8.0", "12.7", err = "usage", msg = "unknown CUDA version '12.7'", hint = "12.6 12.8" },
  { "8.0", "twelve", err = "usage", msg = "not a CUDA version" },
  { "8.0", "cu128", "8.0", "80-real", "-gencode=arch=compute_80,code=sm_80" },
  { "8.0", "12.8.93", "8.0", "80-real", "-gencode=arch=compute_80,code=sm_80" },
}

for _, c in ipairs(cases) do
  local name = ("'%s' with CUDA %s"):format(c[1], c[2] or "(any)")
  local res = arch.convert({ list = c[1], cuda = c[2] })
  if c.err then
    local e = res.errors and res.errors[1]
    t.ok(e ~= nil and e.kind == c.err, name .. " is a " .. c.err .. " error")
    t.like(e and e.message, c.msg, name .. ": message")
    if c.hint then t.like(e and e.hint, c.hint, name .. ": hint") end
  else
    t.is(res.errors, nil, name .. ": no error")
    t.is(res.torch_cuda_arch_list, c[3], name .. ": torch form")
    t.is(res.cmake_cuda_architectures, c[4], name .. ": cmake form")
    t.is(res.gencode and table.concat(res.gencode, " "), c[5], name .. ": gencode")
  end
end

-- torch.utils.cpp_extension: { list, PyTorch release (nil: newest), what
-- the warning names (nil: none), hint pattern }
local pytorch = ptb.include("data/pytorch")
local function torch(v)
  for _, r in ipairs(pytorch.releases) do if r.version == v then return r end end
  error("no PyTorch " .. v)
end
local cx = {
  { "8.0;9.0+PTX", nil },
  { "9.0a", nil },
  -- a name +PTX: cpp_extension appends "+PTX" to its value's last item
  { "Blackwell+PTX", nil, "'Blackwell%+PTX' %(it reads it as '10%.0;10%.3;12%.0;12%.1%+PTX%+PTX'%)", "TORCH_CUDA_ARCH_LIST='10%.0%+PTX;12%.0%+PTX'" },
  { "12.1a+PTX", "2.14" },
  { "10.0f+PTX", nil, "'10%.0f%+PTX' %(no 'f' suffix%)", "TORCH_CUDA_ARCH_LIST='10%.0%+PTX'" },
  { "8.6(8.0)", nil, "'8%.6%(8%.0%)' %(no X%.Y%(A%.B%) form%)", "TORCH_CUDA_ARCH_LIST='8%.6'" },
  { "8.8", "2.14", "'8%.8' %(8%.8 is not in its list%)", "items it accepts" },
  { "8.0;8.8;10.0f", "2.14", "'8%.8'.*'10%.0f'", "TORCH_CUDA_ARCH_LIST='8%.0;10%.0'" },
  { "10.1", "2.8", nil },
  { "10.1", "2.9", "PyTorch 2%.9 refuses '10%.1'" },
  { "11.0", "2.8", "'11%.0'" },
  { "11.0", "2.9", nil },
  { "10.0", "2.6", "'10%.0'" },
  { "9.0a+PTX", "2.4", nil },
}
for _, c in ipairs(cx) do
  local name = ("cpp_extension of PyTorch %s and '%s'"):format(c[2] or "(newest)", c[1])
  local items, errs = A.parse(c[1])
  t.is(#errs, 0, name .. ": parses")
  local w = A.cpp_extension_check(items, c[2] and torch(c[2]))
  if c[3] then
    t.like(w and w.message, "torch%.utils%.cpp_extension.*" .. c[3], name .. ": warned, naming cpp_extension")
    if c[4] then t.like(w and w.hint, c[4], name .. ": hint") end
  else
    t.is(w, nil, name .. ": accepted")
  end
end
-- ... through `ptbuild arch` (the newest PyTorch): a warnings[] entry.
local doc = arch.convert({ list = "8.8;9.0", cuda = "13.0" })
t.like(doc.warnings and doc.warnings[1] and doc.warnings[1].message, "cpp_extension.*'8%.8'", "arch.convert warns about 8.8")
doc = arch.convert({ list = "8.0;9.0+PTX", cuda = "13.0" })
t.is(doc.warnings and #doc.warnings, 0, "arch.convert: no warning for a list both parsers take")

-- Names and suffixes per PyTorch release, as its two parsers read them:
-- { release, token, CMake's SASS;PTX (or "refused"), cpp_extension's
-- SASS;PTX (or "refused"), where the row was read }.  Codes are sm digits,
-- "," between them; "|" between SASS and PTX.
local S00a = "select_compute_arch.cmake@00afc038"
local C0011 = "cpp_extension.py@0011ec5c"
local D2141 = "Debian libtorch-dev/python3-torch 2.14.1+dfsg-1"
local HOP = "Hopper-era cpp_extension (stored copies 27698151870, 2013449822)"
local per_release = {
  { "2.4", "Hopper", "90|", "90|90", HOP },
  { "2.4", "Ada+PTX", "89|89", "refused", HOP },
  { "2.4", "Blackwell", "refused", "refused", HOP .. "; [cmake-re] one-digit majors" },
  { "2.4", "9.0a", "90a|", "90a|", HOP },
  { "2.4", "10.0", "refused", "refused", "[cmake-re] one-digit majors" },
  { "2.8", "Blackwell", "100,120|", "100,120|120", S00a .. "; " .. C0011 },
  { "2.8", "Blackwell+PTX", "100,120|100,120", "refused", S00a .. "; " .. C0011 },
  { "2.8", "Blackwell+Tegra", "101|", "101|", S00a .. "; " .. C0011 },
  { "2.8", "Rubin", "refused", "refused", S00a .. "; " .. C0011 },
  { "2.8", "10.0f", "refused", "refused", S00a .. " (no f in its regex)" },
  { "2.8", "12.0a+PTX", "120a|120a", "120a|120a", S00a .. "; " .. C0011 },
  { "2.12", "Blackwell", "100,120|", "100,103,120,121|121", "[cppext-names] 2.9-era copy 60324545254" },
  { "2.12", "Blackwell+Tegra", "101|", "110|", "[cppext-names] 2.9-era copy 60324545254" },
  { "2.12", "Rubin", "refused", "refused", "[cmake-names] Rubin new in 2.14" },
  { "2.14", "Rubin", "107|", "107|107", D2141 },
  { "2.14", "Rubin+PTX", "107|107", "refused", D2141 },
  { "2.14", "10.7a", "107a|", "107a|", D2141 },
  { "2.14", "10.0f", "100f|", "refused", D2141 },
  { "2.14", "Blackwell+Tegra", "101|", "110|", D2141 },
  { "2.14", "Kepler+Tesla+PTX", "37|37", "37|37", D2141 },
}
-- "100,120|120" from -gencode flags
local function codes(flags)
  local sass, ptx = {}, {}
  for _, f in ipairs(flags) do
    local c, code = f:match("compute_(%w+),code=(%a+)_")
    if code == "sm" then sass[#sass + 1] = c else ptx[#ptx + 1] = c end
  end
  table.sort(sass)
  table.sort(ptx)
  return table.concat(sass, ",") .. "|" .. table.concat(ptx, ",")
end
for _, c in ipairs(per_release) do
  local name = ("PyTorch %s, '%s' (%s)"):format(c[1], c[2], c[5])
  local doc = arch.convert({ list = c[2], torch = c[1] })
  if c[3] == "refused" then
    t.ok(doc.errors and #doc.errors > 0, name .. ": CMake refuses it")
  else
    t.is(doc.gencode and codes(doc.gencode), c[3], name .. ": CMake's flags")
  end
  local flags = A.cpp_extension_flags(c[2], torch(c[1]))
  t.is(flags and codes(flags) or "refused", c[4], name .. ": cpp_extension's flags")
  if c[3] ~= "refused" then
    local cxw = doc.warnings and doc.warnings[1]
    t.is(cxw ~= nil, c[3] ~= c[4], name .. ": warned exactly when the two differ")
    if c[4] == "refused" then
      t.like(cxw and cxw.message, "refuses", name .. ": ... as refused")
    elseif c[3] ~= c[4] then
      t.like(cxw and cxw.message, "otherwise.*get " .. table.concat(flags, " "):gsub("%p", "%%%0"), name .. ": ... naming cpp_extension's flags")
    end
  end
end
-- A name the release does not know names the ones it does.
doc = arch.convert({ list = "Rubin", torch = "2.13" })
t.like(doc.errors and doc.errors[1].message, "'Rubin' is not a name PyTorch 2%.13's CMake knows.*Hopper, Blackwell%+Tegra, Blackwell$",
  "Rubin and 2.13: refused, naming 2.13's names")
t.like(doc.errors and doc.errors[1].hint, "'10%.7'", "... and the hint gives its compute capability")
doc = arch.convert({ list = "Blackwell", torch = "2.6" })
t.like(doc.errors and doc.errors[1].hint, "build PyTorch 2%.7 or newer", "Blackwell and 2.6: no X.Y to offer (one-digit majors)")
-- The hint for a later release's name fits the toolkit: a compute
-- capability the CUDA asked for cannot build is not offered alone, and
-- what would build it is named.  PyTorch, CUDA (nil: none given), list,
-- the hint, the source of the CUDA that first builds it
for _, c in ipairs({
  { "2.13", "13.2", "Rubin", "^CUDA 13%.2, the toolkit in use, does not build sm_107: install CUDA 13%.4 or newer, then write the compute capability, '10%.7', or build PyTorch 2%.14 or newer$", "[pt190654] 13.4 adds 10.7" },
  { "2.13", "12.9", "8.9;Rubin+PTX", "^CUDA 12%.9, the toolkit in use, does not build sm_107: install CUDA 13%.4 or newer, then write the compute capability, '10%.7%+PTX'", "[pt190654]" },
  { "2.13", "13.4", "Rubin", "^write the compute capability instead, '10%.7', or build PyTorch 2%.14 or newer$", "[pt190654]" },
  { "2.13", nil, "Rubin", "^write the compute capability instead, '10%.7' %(CUDA 13%.4 or newer builds it%), or build PyTorch 2%.14 or newer$", "[pt190654]" },
  { "2.6", "12.4", "Blackwell", "^PyTorch 2%.6 cannot build for 10%.0;12%.0 at all: build PyTorch 2%.7 or newer with CUDA 12%.8 or newer %(CUDA 12%.4, the toolkit in use, does not build sm_100, sm_120%)$", "[cmake-names] Blackwell from 2.7" },
  { "2.6", nil, "Blackwell", "^PyTorch 2%.6 cannot build for 10%.0;12%.0 at all: build PyTorch 2%.7 or newer with CUDA 12%.8 or newer$", "[cmake-names]" },
  { "2.6", "12.8", "Blackwell", "^PyTorch 2%.6 cannot build for 10%.0;12%.0 at all: build PyTorch 2%.7 or newer$", "one-digit majors before 2.7" },
}) do
  doc = arch.convert({ list = c[3], torch = c[1], cuda = c[2] })
  t.like(doc.errors and doc.errors[1].hint, c[4],
    ("%s with PyTorch %s, CUDA %s: the hint fits the toolkit %s"):format(c[3], c[1], c[2] or "not given", c[5]))
end
doc = arch.convert({ list = "Rubni", torch = "2.14" })
t.like(doc.errors and doc.errors[1].hint, "PyTorch 2%.14's CMake knows: .*Blackwell, Rubin$", "a typo: the hint lists the release's names")
doc = arch.convert({ list = "8.0", torch = "1.13" })
t.like(doc.errors and doc.errors[1].message, "unknown PyTorch release '1%.13'", "an unknown --torch")

-- cpp_extension's split keeps empty items: two spaces, a trailing ';'
for _, l in ipairs({ "8.0  9.0", "8.0;9.0;", "8.0\t9.0" }) do
  local w = A.cpp_extension_check((A.parse(l)), torch("2.14"), l)
  t.like(w and w.message, "refuses", ("'%s': cpp_extension refuses it"):format(l))
end

-- helpers
t.is(A.cuda_minor("12.8.1"), "12.8", "cuda_minor of a full version")
t.is(A.cuda_minor("cu130"), "13.0", "cuda_minor of a wheel tag")
t.is(A.cuda_minor("V13.0.88"), nil, "cuda_minor refuses junk")
t.is(A.vcmp("12.10", "12.9"), 1, "vcmp compares numerically")
t.is(A.vcmp("13.0", "13"), 0, "vcmp pads with zeros")
local first, last = A.span("7.0", "")
t.is(first .. ".." .. last, "11.0..12.9", "span of sm_70")

-- judged_release: a release as an installed nvcc lists it (detect's
-- toolkits[].gpu_list), here 13.5 (its list a copy of 13.4's) whose nvcc
-- drops 7.5 and adds 11.2, listed out of order, with and without variants
local r135 = A.release("13.5")
local function nv(code, arch) return { gpu_list = { from = "nvcc", nvcc = "/c/bin/nvcc", code = code, arch = arch } } end
local plain = A.judged_release(r135, nv({ "sm_80", "sm_112", "sm_90", "sm_100" },
  { "compute_80", "compute_90", "compute_100", "compute_112" }))
t.is(table.concat(plain.sm, " "), "8.0 9.0 10.0 11.2", "judged_release: sm is nvcc's, in order")
t.is(plain.assumed, nil, "... no longer assumed")
t.is(plain.gpu_list_from, "nvcc /c/bin/nvcc", "... says where from")
t.is(table.concat(plain.sm_a, " "), "9.0 10.0", "... no variants listed: the copy's, of what nvcc builds")
t.is(plain.driver_min, r135.driver_min, "... the rest is the release's")
t.ok(r135.assumed and A.contains(r135.sm, "7.5"), "... and the release itself is unchanged")
local var = A.judged_release(r135, nv({ "sm_90", "sm_90a", "sm_120f", "sm_121" }, { "compute_90", "compute_120" }))
t.is(table.concat(var.sm, " ") .. "|" .. table.concat(var.sm_a, " ") .. "|" .. table.concat(var.sm_f, " "), "9.0|9.0|12.0",
  "judged_release with variants: nvcc's; SASS needs compute_X too (12.1 has none)")
t.is(A.judged_release(r135, { gpu_list = { from = "nvcc", nvcc = "/c/bin/nvcc", error = "failed" } }), r135,
  "judged_release: an nvcc that could not answer leaves the release")
t.is(A.judged_release(nil, nv({ "sm_90" }, { "compute_90" })), nil, "... and a release the tables lack stays nil")
local errs = A.check((A.parse("7.5")), plain)
t.like(errs[1] and errs[1].message, "CUDA 13%.5 does not build sm_75 %(GPU list from nvcc /c/bin/nvcc%)$",
  "check against it: the refusal names nvcc's list, not a copy")
t.done()
