-- wheels_test.lua - lib/wheels: does an official PyTorch wheel cover a
-- machine?  Table-driven over GPU capabilities against the wheels' arch
-- lists (data/pytorch.lua, each cited there), drivers, platforms and the
-- shipped profiles.
local t = ptb.include("tap")
local W = ptb.include("lib/wheels")
local pytorch = ptb.include("data/pytorch")

local function torch(v)
  for _, r in ipairs(pytorch.releases) do if r.version == v then return r end end
end

-- gpu_code: { list, compute capability, code (nil: none) }.  SASS runs on
-- its own major at the same or a newer minor; PTX JIT-compiles for the
-- same or a newer capability (CUDA C++ Programming Guide, "Binary
-- Compatibility" and "PTX Compatibility").
local codes = {
  { "5.0;6.0;7.0;7.5;8.0;8.6;9.0", "8.9", "sm_86" },         -- RTX 4090 on the cu126 wheel
  { "5.0;6.0;7.0;7.5;8.0;8.6;9.0", "8.7", "sm_86" },
  { "5.0;6.0;7.0;7.5;8.0;8.6;9.0", "6.1", "sm_60" },         -- GTX 1080
  { "5.0;6.0;7.0;7.5;8.0;8.6;9.0", "12.0", nil },            -- RTX 5090: no Blackwell in cu126
  { "7.5;8.0;8.6;9.0;10.0;12.0+PTX", "12.0", "sm_120" },
  { "7.5;8.0;8.6;9.0;10.0;12.0+PTX", "12.1", "sm_120" },     -- same major, newer minor: SASS
  { "7.5;8.0;8.6;9.0;10.0;12.0+PTX", "10.3", "sm_100" },     -- B300 on 10.0 SASS
  { "7.5;8.0;8.6;9.0;10.0;12.0+PTX", "11.0", nil },          -- Thor: 12.0 PTX is newer than 11.0
  { "7.5;8.0;8.6;9.0;10.0;12.0+PTX", "7.0", nil },           -- V100 dropped from the cu130 wheel
  { "8.0;9.0+PTX", "10.0", "compute_90 (PTX, JIT-compiled on first use)" },
  { "8.0;9.0+PTX", "12.0", "compute_90 (PTX, JIT-compiled on first use)" },
  { "3.7;5.0;6.0;7.0;7.5;8.0;8.6;9.0", "3.5", nil },
  { "8.0;9.0", "bogus", nil },
}
for _, c in ipairs(codes) do
  t.is(W.gpu_code(c[1], c[2]), c[3], ("%s on [%s]"):format(c[2], c[1]))
end

local function gpu(name, cc) return { name = name, compute_capability = cc } end
local function facts(arch, driver, cuda_max, gpus, jetson)
  return { host = { arch = arch }, driver = driver and { version = driver, cuda_max = cuda_max } or nil,
           gpus = gpus, jetson = jetson }
end

-- cover: { what, facts, torch, covered, cuda, why pattern }
local cases = {
  { "RTX 4090, driver 570 (12.8): cu126, sm_86 SASS", facts("x86_64", "570.124.06", "12.8", { gpu("RTX 4090", "8.9") }),
    "2.14", true, "12.6", "RTX 4090 runs sm_86" },
  { "RTX 5090, driver 570 (12.8): 2.14 ships cu126 and 13.x only; 13.x needs driver 580",
    facts("x86_64", "570.124.06", "12.8", { gpu("RTX 5090", "12.0") }), "2.14", false, nil, "cu126 wheel .* has no code for RTX 5090 %(12.0%)" },
  { "RTX 5090, driver 580 (13.0): cu130", facts("x86_64", "580.65.06", "13.0", { gpu("RTX 5090", "12.0") }),
    "2.14", true, "13.0", "RTX 5090 runs sm_120" },
  { "RTX 5090 on PyTorch 2.7, driver 570: cu128 has 12.0", facts("x86_64", "570.124.06", "12.8", { gpu("RTX 5090", "12.0") }),
    "2.7", true, "12.8", "sm_120" },
  { "GH200, driver 580 (13.0): the aarch64 cu130 wheel, not cu132 through compatibility",
    facts("aarch64", "580.65.06", "13.0", { gpu("GH200", "9.0") }), "2.14", true, "13.0", "GH200 runs sm_90" },
  -- cu129 of 2.12.1 and 2.13.0 [pt-cu129]: a driver of branch r575 runs
  -- CUDA 12.9 but no 13.x, so Blackwell there needs that wheel
  { "RTX 5090, driver 575 (12.9), torch 2.13: cu129 has 12.0", facts("x86_64", "575.57.08", "12.9", { gpu("RTX 5090", "12.0") }),
    "2.13", true, "12.9", "cu129 wheel's arch list 7%.5;8%.0;8%.6;9%.0;10%.0;12%.0 covers every GPU: RTX 5090 runs sm_120" },
  { "B200 on an aarch64 host, driver 575, torch 2.12: the sbsa cu129 wheel", facts("aarch64", "575.57.08", "12.9", { gpu("B200", "10.0") }),
    "2.12", true, "12.9", "arch list 8%.0;9%.0;10%.0;12%.0 covers every GPU: B200 runs sm_100" },
  { "GB10 (12.1), driver 575, torch 2.13: 12.0 SASS of cu129 runs on 12.1", facts("aarch64", "575.57.08", "12.9", { gpu("GB10", "12.1") }),
    "2.13", true, "12.9", "GB10 runs sm_120" },
  -- cu129 of 2.9.1, 2.10.0 and 2.11.0, Linux only [pt-matrix] [pt-cu129]:
  -- a driver of branch r575 takes it over cu128
  { "RTX 5090, driver 575 (12.9), torch 2.10: the cu129 wheel of 2.10.0", facts("x86_64", "575.57.08", "12.9", { gpu("RTX 5090", "12.0") }),
    "2.10", true, "12.9", "cu129 wheel's arch list 7%.0;7%.5;8%.0;8%.6;9%.0;10%.0;12%.0%+PTX covers every GPU: RTX 5090 runs sm_120" },
  { "GB200 on driver 575, torch 2.11: the sbsa cu129 wheel of 2.11.0", facts("aarch64", "575.57.08", "12.9", { gpu("GB200", "10.0") }),
    "2.11", true, "12.9", "arch list 8%.0;9%.0;10%.0;12%.0%+PTX covers every GPU: GB200 runs sm_100" },
  { "V100, driver 575, torch 2.9: cu129 of 2.9.1 still has 7.0", facts("x86_64", "575.57.08", "12.9", { gpu("V100", "7.0") }),
    "2.9", true, "12.9", "V100 runs sm_70" },
  -- 2.5.1's aarch64 wheels are on the cu124 index [pt-aarch64-25]
  { "GH200, driver 560 (12.6), torch 2.5: the aarch64 cu124 wheel of 2.5.1", facts("aarch64", "560.35.03", "12.6", { gpu("GH200", "9.0") }),
    "2.5", true, "12.4", "cu124 wheel's arch list 9%.0 covers every GPU: GH200 runs sm_90" },
  { "RTX 5090, driver 575, torch 2.14: no cu129 any more", facts("x86_64", "575.57.08", "12.9", { gpu("RTX 5090", "12.0") }),
    "2.14", false, nil, "cu126 wheel .* has no code for RTX 5090" },
  { "an old driver runs no wheel's CUDA", facts("x86_64", "470.82.01", "11.4", { gpu("A100", "8.0") }),
    "2.14", false, nil, "cannot run CUDA" },
  { "no GPU seen: perhaps", facts("x86_64", nil, nil, {}), "2.14", nil, "13.2", "no GPU was seen" },
  { "two kinds of GPU, one uncovered", facts("x86_64", "580.65.06", "13.0", { gpu("A100", "8.0"), gpu("V100", "7.0") }),
    "2.14", true, "12.6", "V100 runs sm_70" },
}
for _, c in ipairs(cases) do
  local w = W.cover(c[2], torch(c[3]))
  t.is(w.covered, c[4], c[1] .. ": covered")
  t.is(w.cuda, c[5], c[1] .. ": wheel CUDA")
  t.ok(tostring(w.why):find(c[6]) ~= nil, c[1] .. ": why says " .. c[6] .. " (" .. tostring(w.why) .. ")")
  if w.covered then
    t.is(w.command, ("pip install torch==%s --index-url https://download.pytorch.org/whl/cu%s"):format(
      torch(c[3]).tag:sub(2), (c[5]:gsub("%.", ""))), c[1] .. ": the install command")
  end
end

-- A Jetson on L4T: the wheels of its JetPack (data/jetson_wheels.lua,
-- each row cited there).  { what, l4t, jetpack (detect's, or nil), GPUs,
-- torch asked, covered, the wheel's pip version, command pattern, why
-- pattern, first thing a source build adds (pattern) }
local function jal(v) return "^pip install torch==" .. v .. " %-%-index%-url https://pypi%.jetson%-ai%-lab%.io/jp6/cu126$" end
local jcases = {
  { "Orin, JetPack 6.2, torch 2.14: the newest jp6/cu126 wheel [jal-files-211]", "36.4.3", nil, { gpu("Orin", "8.7") },
    "2.14", true, "2.11.0", jal("2%.11%.0"), "Orin runs sm_87; no JetPack 6%.2 wheel of torch 2%.14", "^torch 2%.14 %(the JetPack 6%.2 wheels stop at 2%.11%.0%)$" },
  { "Orin, JetPack 6.2, torch 2.8 has its own wheel [jal-files]", "36.4.3", nil, { gpu("Orin", "8.7") },
    "2.8", true, "2.8.0", jal("2%.8%.0"), "covers every GPU: Orin runs sm_87; it links cuDSS %(libcudss%.so%.0%), which JetPack 6%.2 does not ship", "^a CUDA or cuDNN other than JetPack 6%.2's$" },
  { "Orin, L4T 36.4.2 is JetPack 6.1: the jp6/cu126 wheels [l4t-3642]", "36.4.2", nil, { gpu("Orin", "8.7") },
    "2.8", true, "2.8.0", jal("2%.8%.0"), "covers every GPU: Orin runs sm_87; it links cuDSS %(libcudss%.so%.0%), which JetPack 6%.1 does not ship", "^a CUDA or cuDNN other than JetPack 6%.1's$" },
  { "Orin, JetPack 6.1 from detect, torch 2.5 [nv-forum-jp61]", "36.4.0", "6.1", { gpu("Orin", "8.7") },
    "2.5", true, "2.5.0", jal("2%.5%.0"), "the Jetson AI Lab's JetPack 6%.1 wheel of torch 2%.5%.0", "^a CUDA or cuDNN" },
  { "Orin, JetPack 6.0: NVIDIA's v60 wheel [nv-redist-jp6]", "36.3.0", nil, { gpu("Orin", "8.7") },
    "2.14", true, "2.4.0a0+07cecf4168.nv24.05.14710581", "^pip install https://developer%.download%.nvidia%.com/compute/redist/jp/v60/pytorch/torch%-2%.4%.0a0%+07cecf4168%.nv24%.05%.14710581%-cp310%-cp310%-linux_aarch64%.whl$",
    "CUDA 12%.2", "^torch 2%.14 %(the JetPack 6%.0 wheels stop at 2%.4%.0a0" },
  { "Xavier, JetPack 5.1.2: NVIDIA's v512 wheel [jc-torch-2401]", "35.4.1", nil, { gpu("Xavier", "7.2") },
    "2.14", true, "2.1.0a0+41361538.nv23.06", "^pip install https://developer%.download%.nvidia%.com/compute/redist/jp/v512/pytorch/torch%-2%.1%.0a0%+41361538%.nv23%.06%-cp38%-cp38%-linux_aarch64%.whl$",
    "Python 3%.8, CUDA 11%.4, arch list 7%.2;8%.7%) covers every GPU: Xavier runs sm_72", "^torch 2%.14" },
  { "Nano, JetPack 4.6.4: the 1.10 wheel, fetched to its name [jc-torch]", "32.7.4", nil, { gpu("Nano", "5.3") },
    "2.4", true, "1.10.0", "^wget %-O torch%-1%.10%.0%-cp36%-cp36m%-linux_aarch64%.whl https://nvidia%.box%.com/.-%.whl && pip install torch%-1%.10%.0%-cp36%-cp36m%-linux_aarch64%.whl$",
    "Python 3%.6", "^torch 2%.4 %(the JetPack 4%.6%.4 wheels stop at 1%.10%.0%)$" },
  { "a 7.2 GPU on JetPack 6: its wheels carry 8.7 only [jc-arch]", "36.4.3", nil, { gpu("Xavier", "7.2") },
    "2.14", false, "2.14.1", nil, "built for 8%.7%) has no code for Xavier %(7%.2%)", "^a build that runs on this machine$" },
  { "an L4T ptbuild maps to no JetPack", "36.4.1", nil, { gpu("Orin", "8.7") },
    "2.14", false, "2.14.1", nil, "L4T 36%.4%.1 is not a release ptbuild maps to a JetPack", "^a build for this machine at all$" },
  { "a Jetson whose L4T release was not read", nil, nil, { gpu("Orin", "8.7") },
    "2.14", false, "2.14.1", nil, "^no L4T release was read", "^a build for this machine at all$" },
  { "no GPU seen: perhaps", "36.4.3", nil, {},
    "2.8", nil, "2.8.0", jal("2%.8%.0"), "^no GPU was seen: the Jetson AI Lab's JetPack 6%.2 wheel of torch 2%.8%.0", "^a CUDA or cuDNN" },
}
for _, c in ipairs(jcases) do
  local w = W.cover(facts("aarch64", nil, nil, c[4], { l4t = c[2], jetpack = c[3] }), torch(c[5]))
  t.is(w.covered, c[6], c[1] .. ": covered")
  t.is(w.torch, c[7], c[1] .. ": the wheel's torch")
  if c[8] then t.like(w.command, c[8], c[1] .. ": the install command") else t.is(w.command, nil, c[1] .. ": no command") end
  t.like(w.why, c[9], c[1] .. ": why")
  t.like(w.source_build_adds and w.source_build_adds[1], c[10], c[1] .. ": a source build adds")
end

-- cuDSS: the jp6/cu126 wheels from torch 2.8 on link libcudss.so.0,
-- which JetPack 6 does not ship [jal-cudss]; 2.7.0 and older, and
-- NVIDIA's own JetPack 6 wheels, need nothing more [jc-cudss].  { torch,
-- L4T, the wheel, needs cuDSS }
local CUDSS_PIP = "pip install --no-deps nvidia-cudss-cu12 --index-url https://pypi.jetson-ai-lab.io/jp6/cu126"
for _, c in ipairs({
  { "2.14", "36.4.3", "2.11.0", true }, { "2.11", "36.4.3", "2.11.0", true }, { "2.10", "36.4.3", "2.10.0", true },
  { "2.9", "36.4.3", "2.9.1", true }, { "2.8", "36.4.0", "2.8.0", true }, { "2.7", "36.4.3", "2.7.0", false },
  { "2.6", "36.4.3", "2.6.0rc1", false }, { "2.4", "36.4.3", "2.4.0", false },
  { "2.14", "36.3.0", "2.4.0a0+07cecf4168.nv24.05.14710581", false },
}) do
  local tv, l4t, pip, needs = table.unpack(c)
  local name = ("torch %s on L4T %s: the %s wheel %s"):format(tv, l4t, pip,
    needs and "needs cuDSS [jal-cudss]" or "needs nothing more [jc-cudss]")
  local w = W.cover(facts("aarch64", nil, nil, { gpu("Orin", "8.7") }, { l4t = l4t }), torch(tv))
  t.is(w.torch, pip, name .. ": the wheel")
  local n = w.needs and w.needs[1] or {}
  t.is(tostring(n.name) .. " " .. tostring(n.lib), needs and "cuDSS libcudss.so.0" or "nil nil", name .. ": needs")
  t.is(w.needs and #w.needs or 0, needs and 1 or 0, name .. ": one need or none")
  if needs then
    t.is(n.commands[1], CUDSS_PIP, name .. ": pip's cuDSS, --no-deps, the same index")
    t.like(n.commands[2], "^export LD_LIBRARY_PATH=\"%$%(python3 %-c .-nvidia/%*/lib/libcudss%.so%.0.-%)%${LD_LIBRARY_PATH:%+:%$LD_LIBRARY_PATH}\"$",
      name .. ": the loader-path step")
    t.like(n.why, "^it links cuDSS %(libcudss%.so%.0%), which JetPack 6%.%d does not ship: import torch fails", name .. ": why")
    t.like(w.why, "; it links cuDSS", name .. ": the wheel's why says so")
    t.is(W.steps(w), w.command .. " && " .. CUDSS_PIP .. " && " .. n.commands[2], name .. ": steps chain the three")
  else
    t.ok(not tostring(w.why):find("cuDSS", 1, true), name .. ": the why names no cuDSS")
    t.is(W.steps(w), w.command, name .. ": steps are the command alone")
  end
end
-- a GPU no wheel has: no wheel, nothing it needs
local xw = W.cover(facts("aarch64", nil, nil, { gpu("Xavier", "7.2") }, { l4t = "36.4.3" }), torch("2.8"))
t.is(xw.needs, nil, "a 7.2 GPU on JetPack 6: no wheel, no needs")
-- a python3 the wheel is not built for: the why still says what the Python 3.10 one needs
local pf = facts("aarch64", nil, nil, { gpu("Orin", "8.7") }, { l4t = "36.4.3" })
pf.python = { version = "3.12", path = "/usr/bin/python3" }
local pw = W.cover(pf, torch("2.9"))
t.ok(pw.python_blocked and tostring(pw.why):find("; it links cuDSS", 1, true) ~= nil,
  "python3 3.12, torch 2.9: not for this python3, and the why names cuDSS (" .. tostring(pw.why) .. ")")

-- From L4T 38 a Jetson runs the SBSA toolkit: PyTorch's linux-sbsa wheels
-- ([aarch64]: the cu130 list has 11.0, Thor's capability under CUDA 13).
local thor = facts("aarch64", "580.00", "13.0", { gpu("NVIDIA Thor", "11.0") }, { l4t = "38.2.0" })
local w = W.cover(thor, torch("2.14"))
t.is(w.covered, true, "Thor, JetPack 7.0: covered by PyTorch's own wheel")
t.is(w.platform, "linux-sbsa", "Thor, JetPack 7.0: the linux-sbsa wheels")
t.is(w.command, "pip install torch==2.14.1 --index-url https://download.pytorch.org/whl/cu130", "Thor, JetPack 7.0: the cu130 wheel")
t.like(w.why, "NVIDIA Thor runs sm_110", "Thor, JetPack 7.0: its SASS")
-- Orin before L4T 39 cannot use the SBSA toolkit: no linux-sbsa wheel
-- runs there however its arch list reads (data/jetson.lua [nix]).
local orin38 = facts("aarch64", "580.00", "13.0", { gpu("Orin", "8.7") }, { l4t = "38.2.0" })
w = W.cover(orin38, torch("2.14"))
t.is(w.covered, false, "Orin on L4T 38: no wheel")
t.like(w.why, "the cu130 wheel: Jetson 8%.7 joins the SBSA toolkit only with CUDA 13%.2", "Orin on L4T 38: says why")

-- The machine's python3 (facts.python) against the Python each release's
-- wheels are built for (data/pytorch.lua, [pt-python]): an RTX 4090 with
-- driver 580, which every release's wheels cover by GPU and driver.
-- { release, python3, covered, why pattern, first of source_build_adds }
local function with_python(v, arch, gpus)
  local f = facts(arch or "x86_64", "580.65.06", "13.0", gpus or { gpu("RTX 4090", "8.9") })
  f.python = v and { version = v, path = "/usr/bin/python3", real = "/usr/bin/python" .. v, from = "PATH" }
  return f
end
local older = "^nothing for Python"
-- a Python newer than the release builds with: no gain of a source build
-- either (lib/checks python_newer)
local newer = "^nothing for Python %d%.%d+: PyTorch [%d.]+ does not build with it either %(newer than"
local pycases = {
  { "2.4", "3.7", false, "torch 2%.4%.1 wheels are built for Python 3%.8%-3%.12; this machine's python3 is 3%.7", older },
  { "2.4", "3.8", true }, { "2.4", "3.12", true },
  { "2.4", "3.13", false, "built for Python 3%.8%-3%.12; this machine's python3 is 3%.13", "^nothing for Python 3%.13: PyTorch 2%.4 does not build with it either %(.*%), so use a Python 3%.8%-3%.12 virtual environment$" },
  { "2.5", "3.8", false, "built for Python 3%.9%-3%.12 %(3%.13 experimental%)", older },
  { "2.5", "3.9", true }, { "2.5", "3.12", true },
  { "2.5", "3.13", true, "its Python 3%.13 wheels are experimental$" },
  { "2.5", "3.14", false, "python3 is 3%.14", "^nothing for Python 3%.14: PyTorch 2%.5 does not build" },
  { "2.6", "3.13", true }, { "2.6", "3.14", false, "built for Python 3%.9%-3%.13;" },
  { "2.7", "3.8", false, "built for Python 3%.9%-3%.13;", older },
  { "2.8", "3.9", true }, { "2.8", "3.14", false, "built for Python 3%.9%-3%.13;" },
  { "2.9", "3.9", false, "built for Python 3%.10%-3%.14;", older }, { "2.9", "3.10", true }, { "2.9", "3.14", true },
  { "2.9", "3.15", false, "built for Python 3%.10%-3%.14;" },
  { "2.11", "3.14", true }, { "2.12", "3.15", false, "built for Python 3%.10%-3%.14;" },
  { "2.13", "3.15", true }, { "2.13", "3.16", false, "built for Python 3%.10%-3%.15;" },
  { "2.14", "3.8", false, "^torch 2%.14%.1 wheels are built for Python 3%.10%-3%.15; this machine's python3 is 3%.8 %(/usr/bin/python3 %-> /usr/bin/python3%.8%): in a Python 3%.10%-3%.15 virtual environment the cu%d+ wheel's arch list .* covers every GPU: RTX 4090 runs sm_86 %(pip install torch==2%.14%.1 %-%-index%-url https://download%.pytorch%.org/whl/cu%d+%)$",
    "^nothing for Python 3%.8: PyTorch 2%.14 supports Python 3%.10 and newer, so use a Python 3%.10%-3%.15 virtual environment$" },
  { "2.14", "3.10", true }, { "2.14", "3.12", true }, { "2.14", "3.15", true },
  { "2.14", "3.16", false, "python3 is 3%.16", "^nothing for Python 3%.16: PyTorch 2%.14 does not build with it either %(newer than PyTorch 2%.14 builds with %(Python 3%.10%-3%.15%).*%), so use a Python 3%.10%-3%.15 virtual environment$" },
}
for _, c in ipairs(pycases) do
  local name = ("torch %s, python3 %s"):format(c[1], c[2])
  local w = W.cover(with_python(c[2]), torch(c[1]))
  t.is(w.covered, c[3], name .. ": covered")
  t.is(w.python, ("%s-%s"):format(torch(c[1]).python.min, torch(c[1]).python.max) ..
    (torch(c[1]).python.experimental and (" (" .. torch(c[1]).python.experimental .. " experimental)") or ""), name .. ": the wheels' Python")
  if c[3] then
    t.like(w.command, "^pip install torch==", name .. ": the install command")
    if c[4] then t.like(w.why, c[4], name .. ": why") end
  else
    t.is(w.command, nil, name .. ": no install command")
    t.like(w.why, c[4], name .. ": why")
    t.like(w.source_build_adds[1], c[5] or newer, name .. ": a source build adds")
  end
end
-- without python (a profile, facts saved before detect read it, a version
-- detect could not tell): the answer is GPU, driver and platform alone
for _, f in ipairs({ with_python(nil), (function() local f = with_python("3.8"); f.python.version = ptb.null; return f end)() }) do
  local w = W.cover(f, torch("2.14"))
  t.is(w.covered, true, "no python3 version: covered as before")
  t.is(w.python, "3.10-3.15", "no python3 version: the block still names the wheels' Python")
end
-- the GH200's aarch64 wheels take the same Pythons; a GPU no wheel has
-- and a Python no wheel takes: both reasons
local w = W.cover(with_python("3.8", "aarch64", { gpu("GH200", "9.0") }), torch("2.14"))
t.is(w.covered, false, "GH200, python3 3.8: not covered")
t.like(w.why, "in a Python 3%.10%-3%.15 virtual environment the cu130 wheel", "GH200, python3 3.8: the aarch64 cu130 wheel in a venv")
w = W.cover(with_python("3.8", "x86_64", { gpu("K40", "3.5") }), torch("2.14"))
t.like(w.why, "^torch 2%.14%.1 wheels are built for Python 3%.10%-3%.15; this machine's python3 is 3%.8 %(/usr/bin/python3 %-> /usr/bin/python3%.8%); the cu%d+ wheel %(.-%) has no code for K40", "K40, python3 3.8: both reasons")
t.is(w.source_build_adds[2], "nothing for Python 3.8: PyTorch 2.14 supports Python 3.10 and newer, so use a Python 3.10-3.15 virtual environment", "K40, python3 3.8: ... and the Python to use")

-- A Jetson wheel is built for its JetPack's one Python ([jc-arch]: JetPack
-- 6 3.10, 5 3.8): another python3 takes none of them.
for _, c in ipairs({
  { "Orin, JetPack 6.2, python3 3.12", "36.4.3", "8.7", "3.12", false },
  { "Orin, JetPack 6.2, python3 3.10", "36.4.3", "8.7", "3.10", true },
  { "Xavier, JetPack 5.1.2, python3 3.8", "35.4.1", "7.2", "3.8", true },
  { "Xavier, JetPack 5.1.2, python3 3.10", "35.4.1", "7.2", "3.10", false },
}) do
  local f = facts("aarch64", nil, nil, { gpu("Jetson GPU", c[3]) }, { l4t = c[2] })
  f.python = { version = c[4], path = "/usr/bin/python3", real = "/usr/bin/python" .. c[4], from = "PATH" }
  local jw = W.cover(f, torch("2.14"))
  t.is(jw.covered, c[5], c[1] .. ": covered")
  if not c[5] then
    t.is(jw.command, nil, c[1] .. ": no install command")
    t.like(jw.why, "is built for Python " .. jw.python:gsub("%.", "%%.") .. " only; this machine's python3 is " ..
      c[4]:gsub("%.", "%%.") .. " %(/usr/bin/python3 %-> /usr/bin/python" .. c[4]:gsub("%.", "%%.") ..
      "%): in a Python " .. jw.python:gsub("%.", "%%.") .. " environment it covers every GPU: Jetson GPU runs sm_%d+ %(pip install ", c[1] .. ": why")
    t.like(jw.source_build_adds[#jw.source_build_adds], "^a build for Python " .. c[4]:gsub("%.", "%%."), c[1] .. ": a source build adds")
  end
end

t.done()
