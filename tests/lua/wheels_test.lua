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
  { "an old driver runs no wheel's CUDA", facts("x86_64", "470.82.01", "11.4", { gpu("A100", "8.0") }),
    "2.14", false, nil, "cannot run CUDA" },
  { "Jetson: no PyTorch wheels", facts("aarch64", nil, nil, { gpu("Orin", "8.7") }, { l4t = "36.4.3" }),
    "2.14", false, nil, "no wheels for Jetson" },
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

t.done()
