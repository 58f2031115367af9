-- archlist: TORCH_CUDA_ARCH_LIST as PyTorch's CMake build reads it, checked
-- against what a CUDA release's nvcc builds, and written out as a canonical
-- list, CMAKE_CUDA_ARCHITECTURES and nvcc -gencode flags.
--
-- The grammar follows pytorch/pytorch
-- cmake/Modules_CUDA_fix/upstream/FindCUDA/select_compute_arch.cmake
-- (CUDA_SELECT_NVCC_ARCH_FLAGS), newest form: runs of spaces and tabs become
-- ';', empty items vanish, duplicates are dropped; an item is
-- `X.Y[a|f][(A.B)][+PTX]` or a named family.  Names give PTX only with +PTX.
-- Items that regex accepts but turns into flags nvcc refuses are refused
-- here: leading zeros (`08.0` -> compute_080) and a suffix before (A.B)
-- (`9.0a(9.0)` -> compute_(90)).

local data = ptb.include("data/cuda")
local archs = ptb.include("data/archs")
local pytorch = ptb.include("data/pytorch")

local M = {}

-- Named families, as in select_compute_arch.cmake (bin = SASS, ptx = the
-- PTX a name gives with +PTX; names without a ptx list use their bins;
-- since = the first PyTorch release whose CMake knows the name, nil for
-- every release ptbuild knows).  What a name means is the same in every
-- release that has it [cmake-names]: the Hopper-era names in 2.4-2.6, the
-- Blackwell ones from 2.7 (@00afc038), Rubin in 2.14 (its select_compute_arch.cmake
-- as Debian's libtorch-dev 2.14.1 ships it).  "Blackwell+Tegra" still means
-- 10.1 there, even for CUDA 13 (where Thor is 11.0); ptbuild keeps
-- PyTorch's meaning and says so in the error.
M.families = {
  ["Kepler+Tesla"] = { bin = { "3.7" } },
  ["Kepler"] = { bin = { "3.5" }, ptx = { "3.5" } },
  ["Maxwell+Tegra"] = { bin = { "5.3" } },
  ["Maxwell"] = { bin = { "5.0", "5.2" }, ptx = { "5.2" } },
  ["Pascal"] = { bin = { "6.0", "6.1" }, ptx = { "6.1" } },
  ["Volta+Tegra"] = { bin = { "7.2" } },
  ["Volta"] = { bin = { "7.0" }, ptx = { "7.0" } },
  ["Turing"] = { bin = { "7.5" }, ptx = { "7.5" } },
  ["Ampere+Tegra"] = { bin = { "8.7" } },
  ["Ampere"] = { bin = { "8.0", "8.6" }, ptx = { "8.0", "8.6" } },
  ["Ada"] = { bin = { "8.9" }, ptx = { "8.9" } },
  ["Hopper"] = { bin = { "9.0" }, ptx = { "9.0" } },
  ["Blackwell+Tegra"] = { bin = { "10.1" }, since = "2.7" },
  ["Blackwell"] = { bin = { "10.0", "12.0" }, ptx = { "10.0", "12.0" }, since = "2.7" },
  ["Rubin"] = { bin = { "10.7" }, ptx = { "10.7" }, since = "2.14" },
}

-- The names in select_compute_arch.cmake's order.
M.family_order = { "Kepler+Tesla", "Kepler", "Maxwell+Tegra", "Maxwell", "Pascal",
  "Volta+Tegra", "Volta", "Turing", "Ampere+Tegra", "Ampere", "Ada", "Hopper",
  "Blackwell+Tegra", "Blackwell", "Rubin" }

-- The PyTorch release a parse is for: `torch` itself, else the newest.
local function torch_or_newest(torch)
  return torch or pytorch.releases[#pytorch.releases]
end

-- Does the CMake build of PyTorch `torch` know the name?
function M.knows_name(name, torch)
  local fam = M.families[name]
  return fam ~= nil and (not fam.since or M.vcmp(torch_or_newest(torch).version, fam.since) >= 0)
end

-- The names PyTorch `torch`'s CMake knows, in its order.
function M.names(torch)
  local out = {}
  for _, n in ipairs(M.family_order) do
    if M.knows_name(n, torch) then out[#out + 1] = n end
  end
  return out
end

local whole_words = {
  Auto = "'Auto' asks CMake to probe the GPUs of the build machine; a Docker or CI build has none and silently falls back to a default list",
  All = "'All' includes architectures (3.5) that CUDA 12 and newer refuse",
  Common = "'Common' is a version-dependent default that still lists 5.0, which CUDA 13 refuses",
  native = "'native' is understood by nvcc and torch.utils.cpp_extension, not by PyTorch's own CMake build",
  all = "'all' is an nvcc/CMake keyword, not a TORCH_CUDA_ARCH_LIST value",
  ["all-major"] = "'all-major' is an nvcc/CMake keyword, not a TORCH_CUDA_ARCH_LIST value",
}

-- Version helpers ---------------------------------------------------------

M.vcmp = ptb.include("lib/version").vcmp   -- -1, 0 or 1, numerically

-- "12.8", "12.8.1", "12.8.93", "cu128", "13" -> "12.8" / "13.0" (or nil)
function M.cuda_minor(v)
  if type(v) ~= "string" then return nil end
  local maj, min = v:match("^(%d+)%.(%d+)")
  if not maj then
    local cu = v:match("^cu(%d%d%d?)$")
    if cu then maj, min = cu:sub(1, #cu - 1), cu:sub(-1) end
  end
  if not maj and v:match("^%d+$") then maj, min = v, "0" end
  if not maj then return nil end
  return tonumber(maj) .. "." .. tonumber(min)
end

local by_version = {}
for _, r in ipairs(data.releases) do by_version[r.version] = r end

function M.release(v)
  local m = M.cuda_minor(v)
  return m and by_version[m] or nil, m
end

-- The PyTorch release (data/pytorch.lua) of version v, by its X.Y
-- ("2.14", "2.14.1", "2.14.0a0" alike), or nil.
function M.torch_release(v)
  local maj, min = tostring(v or ""):match("^(%d+)%.(%d+)")
  if not maj then return nil end
  local mm = tonumber(maj) .. "." .. tonumber(min)
  for _, r in ipairs(pytorch.releases) do
    if r.version == mm then return r end
  end
  return nil
end

function M.known_versions()
  local out = {}
  for _, r in ipairs(data.releases) do out[#out + 1] = r.version end
  return out
end

-- Whether list (nil: an empty one) holds x; the recipes share this one.
function M.contains(list, x)
  for _, v in ipairs(list or {}) do if v == x then return true end end
  return false
end
local contains = M.contains

-- Does release r build arch cc with suffix ("" | "a" | "f")?
function M.builds(r, cc, suffix)
  if suffix == "a" then return contains(r.sm_a, cc) end
  if suffix == "f" then return contains(r.sm_f, cc) end
  return contains(r.sm, cc)
end

-- First and last listed release that builds cc+suffix (nil when none).
function M.span(cc, suffix)
  local first, last
  for _, r in ipairs(data.releases) do
    if M.builds(r, cc, suffix) then
      first = first or r.version
      last = r.version
    end
  end
  return first, last
end

-- Arch keys ---------------------------------------------------------------

local function split_cc(cc)
  local maj, min = cc:match("^(%d+)%.(%d)$")
  return tonumber(maj), tonumber(min)
end

local suffix_rank = { [""] = 0, a = 1, f = 2 }

-- "9.0a" -> "90a"
function M.digits(cc, suffix)
  return (cc:gsub("%.", "")) .. (suffix or "")
end

local function item_less(x, y)
  local a1, b1 = split_cc(x.cc)
  local a2, b2 = split_cc(y.cc)
  if a1 ~= a2 then return a1 < a2 end
  if b1 ~= b2 then return b1 < b2 end
  if x.suffix ~= y.suffix then return suffix_rank[x.suffix] < suffix_rank[y.suffix] end
  local f1, f2 = x.from or "", y.from or ""
  if f1 ~= f2 then
    if f1 == "" or f2 == "" then return f1 == "" end
    return M.vcmp(f1, f2) < 0
  end
  return false
end

-- Parsing -----------------------------------------------------------------

local function hint_for(tok, torch)
  local lower = tok:lower()
  for _, name in ipairs(M.names(torch)) do
    if name:lower() == lower or (name:lower() .. "+ptx") == lower then
      return ("names are case-sensitive: did you mean '%s'?"):format(
        tok:lower():find("+ptx", 1, true) and name .. "+PTX" or name)
    end
  end
  local d = tok:match("^sm_(%d+)[af]?$") or tok:match("^compute_(%d+)[af]?$") or tok:match("^(%d%d%d?)$")
  if d then
    return ("write compute capabilities as X.Y, e.g. '%s.%s'"):format(d:sub(1, #d - 1), d:sub(-1))
  end
  if tok:find(",", 1, true) then
    return "separate items with ';' or spaces, not ','"
  end
  if tok:match("^%d+%.%d%d") then
    return "the minor number is a single digit (X.Y), as in 8.6 or 12.0"
  end
  return ("expected X.Y, X.Ya, X.Yf, X.Y(A.B), optionally +PTX, or a name PyTorch %s's CMake knows: %s"):format(
    torch_or_newest(torch).version, table.concat(M.names(torch), ", "))
end

local function err(list, kind, token, message, hint)
  list[#list + 1] = { kind = kind, token = token, message = message, hint = hint }
end

-- Whether a numeric token (cc, suffix, from, ptx as parsed; maj, min,
-- fmaj, fmin: the digits as written) can stand; when not, the error why.
local function numeric_ok(errors, tok, cc, suffix, from, ptx, maj, min, fmaj, fmin, cuda)
  local zero = maj:match("^0%d") and maj .. min or fmaj and fmaj:match("^0%d") and fmaj .. fmin
  if zero then
    err(errors, "usage", tok,
      ("'%s': a leading zero: PyTorch's CMake passes the digits on as written and nvcc refuses compute_%s"):format(tok, zero),
      ("write '%s'"):format((tok:gsub("%d+", function(d) return tostring(tonumber(d)) end))))
  -- It also splits "9.0a(8.0)" into "90a" and "(80)", and asks nvcc
  -- for arch=compute_(80),code=sm_(80).
  elseif from and suffix ~= "" then
    local ptxs = ptx and "+PTX" or ""
    err(errors, "usage", tok,
      ("'%s': PyTorch's CMake splits a suffixed X.Y(A.B) apart and asks nvcc for arch=compute_(%s),code=sm_(%s), which it refuses"):format(
        tok, M.digits(from), M.digits(from)),
      ("write '%s' (SASS from compute_%s), or '%s' without the suffix"):format(
        cc .. suffix .. ptxs, M.digits(cc, suffix), cc .. "(" .. from .. ")" .. ptxs))
  elseif not archs[cc] and not (cuda and cuda.gpu_list_from and M.builds(cuda, cc, suffix)) then
    -- (one the toolkit's own nvcc lists is known enough: M.judged_release)
    -- the hint lists data/archs.lua itself, so a new architecture (10.7)
    -- is named as soon as it is known
    local known = {}
    for k in pairs(archs) do known[#known + 1] = k end
    table.sort(known, function(x, y) return M.vcmp(x, y) < 0 end)
    err(errors, "usage", tok, ("unknown GPU architecture '%s' in '%s'"):format(cc, tok),
      "known: " .. table.concat(known, " "))
  elseif from and not archs[from] then
    err(errors, "usage", tok, ("unknown virtual architecture '%s' in '%s'"):format(from, tok), nil)
  elseif from and M.vcmp(from, cc) > 0 then
    err(errors, "usage", tok,
      ("'%s': PTX for compute_%s cannot be compiled into sm_%s (the virtual architecture must not be newer than the real one)")
        :format(tok, M.digits(from), M.digits(cc)), nil)
  elseif suffix ~= "" and not M.span(cc, suffix) then
    local have = {}
    for k in pairs(archs) do
      if M.span(k, suffix) then have[#have + 1] = k end
    end
    table.sort(have, function(x, y) return M.vcmp(x, y) < 0 end)
    err(errors, "usage", tok,
      ("'%s': no CUDA release builds sm_%s; %s variants exist for %s"):format(
        tok, M.digits(cc, suffix), suffix == "a" and "arch-specific 'a'" or "family 'f'",
        table.concat(have, " ")), nil)
  else
    return true
  end
  return false
end

-- A text that is no list at all (empty, or a word such as "all" that
-- PyTorch's CMake takes for one): the error, into errors; true when so.
local function not_a_list(text, errors)
  if type(text) ~= "string" or not text:find("%S") then
    err(errors, "usage", "", "the architecture list is empty",
      "name each GPU's compute capability, e.g. '8.0;9.0+PTX'")
    return true
  end
  local trimmed = text:match("^%s*(.-)%s*$")
  if whole_words[trimmed] then
    err(errors, "usage", trimmed, ("'%s' is not an explicit list: %s"):format(trimmed, whole_words[trimmed]),
      "name each GPU's compute capability, e.g. '8.0;9.0+PTX'")
    return true
  end
  return false
end

-- The tokens of the list, separated by ';' or blanks, each once, in order.
local function tokens_of(text)
  local seen, toks = {}, {}
  for tok in text:gsub("[ \t]+", ";"):gmatch("[^;]+") do
    if not seen[tok] then
      seen[tok] = true
      toks[#toks + 1] = tok
    end
  end
  return toks
end

-- add(cc, suffix, from, ptx, tok): one item into items, merged with the
-- item of the same cc, suffix and from (+PTX if either has it), each
-- token that asked for it kept once.
local function item_adder(items)
  local byk = {}
  return function(cc, suffix, from, ptx, tok)
    local key = cc .. suffix .. "(" .. (from or "") .. ")"
    local it = byk[key]
    if not it then
      it = { cc = cc, suffix = suffix, from = from, ptx = false, tokens = {} }
      byk[key] = it
      items[#items + 1] = it
    end
    it.ptx = it.ptx or ptx
    if not contains(it.tokens, tok) then it.tokens[#it.tokens + 1] = tok end
  end
end

-- A family name (Ampere, Hopper+PTX): its binaries through add, +PTX on
-- those the family names for PTX (else on each binary).
local function add_family(fam, ptx, tok, add)
  local ptxset = {}
  if ptx then
    for _, p in ipairs(fam.ptx or fam.bin) do ptxset[p] = true end
  end
  for _, b in ipairs(fam.bin) do
    add(b, "", nil, ptxset[b] or false, tok)
    ptxset[b] = nil
  end
  for p in pairs(ptxset) do add(p, "", nil, true, tok) end
end

-- One token: its items through add, or its error into errors; cuda (a
-- data/cuda release, may be nil) is the toolkit the hints must fit.
local function parse_token(tok, errors, add, torch, cuda)
  local body = tok
  local ptx = false
  if body:sub(-4) == "+PTX" then
    body = body:sub(1, -5)
    ptx = true
  end
  local maj, min, suffix, fmaj, fmin = body:match("^(%d+)%.(%d)([af]?)%((%d+)%.(%d)%)$")
  if not maj then
    maj, min, suffix = body:match("^(%d+)%.(%d)([af]?)$")
  end
  if maj then
    local cc = tonumber(maj) .. "." .. min
    local from = fmaj and (tonumber(fmaj) .. "." .. fmin) or nil
    -- PyTorch's CMake keeps the digits as written: "08.0" becomes
    -- compute_080, which nvcc refuses.
    if numeric_ok(errors, tok, cc, suffix, from, ptx, maj, min, fmaj, fmin, cuda) then
      add(cc, suffix, from, ptx, tok)
    end
  elseif M.knows_name(body, torch) then
    add_family(M.families[body], ptx, tok, add)
  elseif M.families[body] then
    -- a name a later release brought: CMake's "Unknown CUDA Architecture Name"
    local fam, t = M.families[body], torch_or_newest(torch)
    local cc = table.concat(fam.bin, ";")
    -- what its compute capabilities need of the toolkit: the hint names
    -- no target the toolkit in use (cuda, when known) cannot build
    local need, lacks = nil, {}
    for _, b in ipairs(fam.bin) do
      local first = M.span(b, "")
      if first and (not need or M.vcmp(first, need) > 0) then need = first end
      if cuda and not M.builds(cuda, b, "") then lacks[#lacks + 1] = "sm_" .. M.digits(b) end
    end
    local hint
    if t.two_digit_major == false and tonumber(fam.bin[1]:match("^%d+")) >= 10 then
      -- before 2.7 the CMake regex takes no two-digit major either
      hint = ("PyTorch %s cannot build for %s at all: build PyTorch %s or newer%s"):format(t.version, cc, fam.since,
        #lacks > 0 and (" with CUDA %s or newer (CUDA %s, the toolkit in use, does not build %s)")
          :format(need or "?", cuda.version, table.concat(lacks, ", "))
        or (not cuda and need and (" with CUDA " .. need .. " or newer") or ""))
    elseif #lacks > 0 then
      hint = ("CUDA %s, the toolkit in use, does not build %s: install CUDA %s or newer, then write the compute capability, '%s%s', or build PyTorch %s or newer")
        :format(cuda.version, table.concat(lacks, ", "), need or "?", cc, ptx and "+PTX" or "", fam.since)
    else
      hint = ("write the compute capability instead, '%s%s'%s, or build PyTorch %s or newer"):format(cc, ptx and "+PTX" or "",
        not cuda and need and (" (CUDA " .. need .. " or newer builds it)") or "", fam.since)
    end
    err(errors, "usage", tok,
      ("'%s' is not a name PyTorch %s's CMake knows (it arrived in %s); its names: %s"):format(
        tok, t.version, fam.since, table.concat(M.names(torch), ", ")), hint)
  else
    err(errors, "usage", tok, ("unknown architecture '%s'"):format(tok), hint_for(tok, torch))
  end
end

-- Parse `text` as the CMake build of PyTorch `torch` (a release of
-- data/pytorch; nil: the newest) reads it; returns items (sorted, merged)
-- and a list of errors.  Each item: { cc = "8.6", suffix = "" | "a" | "f",
-- from = "8.0" | nil, ptx = bool }.  `cuda` (a data/cuda release, may be
-- nil) is the toolkit the list is for: a hint then names no target it
-- cannot build, and says which CUDA would.
function M.parse(text, torch, cuda)
  local errors = {}
  local items = {}
  if not_a_list(text, errors) then return items, errors end
  local add = item_adder(items)
  for _, tok in ipairs(tokens_of(text)) do
    parse_token(tok, errors, add, torch, cuda)
  end
  table.sort(items, item_less)
  return items, errors
end

-- Checks against a CUDA release -------------------------------------------

-- The release data/cuda.lua lists before r (the one an assumed release
-- copies its data from), or nil.
function M.release_before(r)
  local prev
  for _, c in ipairs(data.releases) do
    if c.version == r.version then return prev end
    prev = c.version
  end
end

-- What an answer drawn from release r's GPU list must add when that list
-- is a copy of the release before it (data/cuda.lua `assumed`), or nil.
function M.assumed_list(r)
  if not (r and r.assumed) then return nil end
  return ("the GPU list of CUDA %s is assumed equal to %s's (no source ptbuild has lists it)")
    :format(r.version, M.release_before(r) or "the release before it")
end

-- Why release r cannot build cc+suffix: a message and a hint.
local function why_not(r, cc, suffix, tok)
  local name = "sm_" .. M.digits(cc, suffix)
  local first, last = M.span(cc, suffix)
  local a = archs[cc] or {}
  local msg = ("'%s': CUDA %s does not build %s"):format(tok, r.version, name)
    .. (r.gpu_list_from and (" (GPU list from %s)"):format(r.gpu_list_from) or "")
  local hint
  if a.renamed and M.vcmp(r.version, a.last) > 0 then
    msg = msg .. (" (CUDA %s renamed it sm_%s)"):format(M.release_after(a.last), M.digits(a.renamed, suffix))
    hint = ("write %s%s instead (it is the same GPU)"):format(a.renamed, suffix)
    if tok == "Blackwell+Tegra" or tok == "Blackwell+Tegra+PTX" then
      hint = hint .. "; PyTorch's CMake still maps 'Blackwell+Tegra' to 10.1"
    end
  elseif last and M.vcmp(r.version, last) > 0 then
    hint = ("the last CUDA release that builds %s is %s"):format(name, last)
  elseif first and M.vcmp(r.version, first) < 0 then
    hint = ("the first CUDA release that builds %s is %s"):format(name, first)
    if a.was then
      hint = hint .. ("; before it, this GPU is sm_%s"):format(M.digits(a.was, suffix))
    end
  elseif not first and a.last then
    hint = ("the last CUDA release that builds %s is %s"):format(name, a.last)
  else
    hint = ("no listed CUDA release builds %s"):format(name)
  end
  -- an answer from a copied list is the copy's: say so, and how to know
  -- (a rename is the release that made it's, not the copy's)
  local assumed = M.assumed_list(r)
  if assumed and not (a.renamed and M.vcmp(r.version, a.last) > 0) then
    msg = msg .. ", as ptbuild's data has it: " .. assumed
    hint = hint .. ("; 'nvcc --list-gpu-arch' of CUDA %s tells for sure"):format(r.version)
    return msg, hint, true
  end
  return msg, hint, false
end

function M.release_after(v)
  for _, r in ipairs(data.releases) do
    if M.vcmp(r.version, v) > 0 then return r.version end
  end
  return v
end

-- Errors for items that release r (or, with r == nil, no known release)
-- cannot build; assumed = true on those only r's copied list refuses.
function M.check(items, r)
  local errors = {}
  for _, it in ipairs(items) do
    local tok = it.tokens[1]
    local targets = { { it.cc, it.suffix } }
    if it.from then targets[#targets + 1] = { it.from, "" } end
    for _, t in ipairs(targets) do
      local cc, suffix = t[1], t[2]
      if r then
        if not M.builds(r, cc, suffix) then
          local msg, hint, assumed = why_not(r, cc, suffix, tok)
          err(errors, "unsupported", tok, msg, hint)
          errors[#errors].assumed = assumed or nil
        end
      else
        local first = M.span(cc, suffix)
        local a = archs[cc]
        if not first and a and a.last then
          err(errors, "unsupported", tok,
            ("'%s': sm_%s is not built by any CUDA release ptbuild knows (11.0 and newer)"):format(tok, M.digits(cc, suffix)),
            ("the last CUDA release that builds it is %s"):format(a.last))
        end
      end
    end
  end
  return errors
end

-- Judged by an nvcc ---------------------------------------------------------

-- Where the GPU list of release r (nil: a release ptbuild does not know)
-- comes from: "data" (a source ptbuild cites), "assumed" (a copy of the
-- release before it) or "unknown".  An "assumed" or "unknown" list is
-- better asked of the toolkit's nvcc (M.check_nvcc).
function M.list_source(r)
  if not r then return "unknown" end
  return r.assumed and "assumed" or "data"
end

-- "sm_121" / "compute_90a" -> "12.1" / "9.0a" (nil for anything else)
local function cc_of(name)
  local d, sfx = name:match("^%a+_(%d%d+)(%l?)$")
  if not d then return nil end
  return tonumber(d:sub(1, -2)) .. "." .. d:sub(-1) .. sfx
end

-- A set of nvcc's names and whether any has a variant suffix.
local function name_set(list)
  local set, variants = {}, false
  for _, n in ipairs(list or {}) do
    set[n] = true
    variants = variants or n:match("%d%l$") ~= nil
  end
  return set, variants
end

-- Errors for items the nvcc answer nv refuses: { nvcc = path, version =
-- "13.5", arch = { "compute_75", ... } (--list-gpu-arch), code = { "sm_75",
-- ... } (--list-gpu-code) }.  SASS needs sm_X in code, what it is built
-- from and +PTX need compute_X in arch.  nvcc 13.0 lists no a/f variants:
-- while a list has none, a variant is judged by its base (sm_90 for
-- sm_90a) and proven by the compile that follows.
function M.check_nvcc(items, nv)
  local arch, arch_v = name_set(nv.arch)
  local code, code_v = name_set(nv.code)
  local function has(set, variants, prefix, cc, suffix)
    if set[prefix .. M.digits(cc, suffix)] then return true end
    return suffix ~= "" and not variants and set[prefix .. M.digits(cc)] or false
  end
  local builds = {}
  for _, n in ipairs(nv.code or {}) do builds[#builds + 1] = cc_of(n) end
  table.sort(builds, function(x, y) return M.vcmp(x, y) < 0 end)
  local errors = {}
  for _, it in ipairs(items) do
    local tok = it.tokens[1]
    local need = { { code, code_v, "sm_", it.cc, it.suffix, "--list-gpu-code" } }
    if it.from then
      need[#need + 1] = { arch, arch_v, "compute_", it.from, "", "--list-gpu-arch" }
    else
      need[#need + 1] = { arch, arch_v, "compute_", it.cc, it.suffix, "--list-gpu-arch" }
    end
    for _, n in ipairs(need) do
      if not has(n[1], n[2], n[3], n[4], n[5]) then
        err(errors, "unsupported", tok,
          ("'%s': the nvcc of CUDA %s ('%s') does not build %s%s: it is not in its %s")
            :format(tok, nv.version, nv.nvcc, n[3], M.digits(n[4], n[5]), n[6]),
          ("this nvcc builds %s"):format(#builds > 0 and table.concat(builds, " ") or "nothing it lists"))
        break
      end
    end
  end
  return errors
end

-- Notes on the nvcc answer nv for release r: where the GPU list came
-- from, how it differs from ptbuild's copy (for the maintainers), and
-- that variants are left to the compile when nvcc lists none.
function M.nvcc_notes(items, nv, r)
  local notes = {}
  local why = r and ("ptbuild's GPU list of CUDA %s is a copy of %s's"):format(r.version, M.release_before(r) or "the release before it")
    or ("ptbuild's tables list no CUDA %s (they hold %s to %s)"):format(nv.version, data.releases[1].version,
      data.releases[#data.releases].version)
  notes[1] = ("the GPU list was asked of the toolkit's nvcc ('%s --list-gpu-arch' and '--list-gpu-code'), not taken from ptbuild's tables: %s")
    :format(nv.nvcc, why)
  if r then
    -- the copy and nvcc, compared by plain compute capability: sm_X in
    -- --list-gpu-code and compute_X in --list-gpu-arch (told apart only
    -- where the two lists disagree)
    local function diff(list)
      local mine, theirs, only_nvcc, only_copy = {}, {}, {}, {}
      for _, cc in ipairs(r.sm) do mine[cc] = true end
      for _, n in ipairs(list or {}) do
        local cc = cc_of(n)
        if cc and cc:match("%d$") and not theirs[cc] then
          theirs[cc] = true
          if not mine[cc] then only_nvcc[#only_nvcc + 1] = cc end
        end
      end
      for _, cc in ipairs(r.sm) do
        if not theirs[cc] then only_copy[#only_copy + 1] = cc end
      end
      table.sort(only_nvcc, function(x, y) return M.vcmp(x, y) < 0 end)
      return table.concat(only_nvcc, " "), table.concat(only_copy, " ")
    end
    local c_new, c_old = diff(nv.code)
    local a_new, a_old = diff(nv.arch)
    local which = { { c_new, c_old }, { a_new, a_old } }
    if c_new == a_new and c_old == a_old then
      which = { { c_new, c_old, "answer (--list-gpu-arch and --list-gpu-code)" } }
    else
      which[1][3], which[2][3] = "--list-gpu-code (sm_X) answer", "--list-gpu-arch (compute_X) answer"
    end
    for _, w in ipairs(which) do
      if w[1] ~= "" or w[2] ~= "" then
        local parts = {}
        if w[1] ~= "" then parts[#parts + 1] = "nvcc has " .. w[1] .. ", which the copy lacks" end
        if w[2] ~= "" then parts[#parts + 1] = "the copy has " .. w[2] .. ", which nvcc lacks" end
        notes[#notes + 1] = ("this nvcc's %s differs from ptbuild's copied GPU list of CUDA %s: %s; data/cuda.lua's %s entry should follow nvcc (tell ptbuild's maintainers)")
          :format(w[3], r.version, table.concat(parts, "; "), r.version)
      end
    end
  end
  local _, code_v = name_set(nv.code)
  for _, it in ipairs(items) do
    if it.suffix ~= "" and not code_v then
      notes[#notes + 1] = ("nvcc lists no a/f variants: '%s' was judged by sm_%s, and the compile proves sm_%s")
        :format(it.tokens[1], M.digits(it.cc), M.digits(it.cc, it.suffix))
    end
  end
  return notes
end

-- Release r as an installed toolkit's own nvcc answered (detect's
-- tk.gpu_list, where r's list has no source): a copy of r whose sm (SASS
-- in --list-gpu-code and compute_X in --list-gpu-arch), sm_a and sm_f are
-- nvcc's, no longer `assumed` (its list is not the copy's), with
-- gpu_list_from = "nvcc <path>".  While nvcc lists no a/f variants (13.0
-- lists none) r's variants of what it builds stay: judged by their base,
-- as check_nvcc does.  r itself when tk carries no answer (or an error).
function M.judged_release(r, tk)
  local g = type(tk) == "table" and type(tk.gpu_list) == "table" and tk.gpu_list or nil
  if not (r and g and type(g.arch) == "table" and type(g.code) == "table") then return r end
  local out = {}
  for k, v in pairs(r) do out[k] = v end
  local arch = name_set(g.arch)
  local _, variants = name_set(g.code)
  local lists = { [""] = {}, a = {}, f = {} }
  for _, n in ipairs(g.code) do
    local cc = type(n) == "string" and cc_of(n)
    local base, sfx = (cc or ""):match("^(%d+%.%d)(%l?)$")
    if base and lists[sfx] and (sfx ~= "" or arch["compute_" .. M.digits(base)])
        and not contains(lists[sfx], base) then
      lists[sfx][#lists[sfx] + 1] = base
    end
  end
  if not variants then
    for sfx, key in pairs({ a = "sm_a", f = "sm_f" }) do
      for _, cc in ipairs(r[key] or {}) do
        if contains(lists[""], cc) then lists[sfx][#lists[sfx] + 1] = cc end
      end
    end
  end
  for _, l in pairs(lists) do table.sort(l, function(x, y) return M.vcmp(x, y) < 0 end) end
  out.sm, out.sm_a, out.sm_f = lists[""], lists.a, lists.f
  out.assumed = nil
  out.gpu_list_nvcc = tostring(g.nvcc)
  out.gpu_list_from = "nvcc " .. out.gpu_list_nvcc
  return out
end

-- Outputs -----------------------------------------------------------------

-- One item in the canonical form: "8.6(8.0)+PTX".
function M.item_text(it)
  return it.cc .. it.suffix .. (it.from and ("(" .. it.from .. ")") or "") .. (it.ptx and "+PTX" or "")
end

function M.torch_list(items)
  local out = {}
  for _, it in ipairs(items) do out[#out + 1] = M.item_text(it) end
  return table.concat(out, ";")
end

-- torch.utils.cpp_extension -----------------------------------------------

-- Extensions built later in the same shell read the same variable, through
-- another parser (cpp_extension._get_cuda_arch_flags) [cppext]: ' ' becomes
-- ';' (tabs stay), each name is replaced by its value in the text, the
-- text is split at ';' (empty items kept), and each item must be one of
-- the release's known "X.Y" / "X.Ya", with an optional "+PTX"; anything
-- else raises "Unknown CUDA arch (...) or GPU not supported".  It takes no
-- 'f' suffix and no X.Y(A.B) form, and its names are not CMake's: each
-- gives +PTX on its last item, and "Hopper+PTX" becomes "9.0+PTX+PTX".

local function replace_plain(text, from, to)
  local out, i = {}, 1
  while true do
    local s, e = text:find(from, i, true)
    if not s then break end
    out[#out + 1] = text:sub(i, s - 1)
    out[#out + 1] = to
    i = e + 1
  end
  out[#out + 1] = text:sub(i)
  return table.concat(out)
end

-- The items cpp_extension of `torch` makes of `text` (names replaced,
-- split at ';').
local function cx_items(text, torch)
  local t = text:gsub(" ", ";")
  for _, p in ipairs(torch.cpp_extension_names or {}) do t = replace_plain(t, p[1], p[2]) end
  local out = {}
  for item in (t .. ";"):gmatch("([^;]*);") do out[#out + 1] = item end
  return out
end

local function cx_known(torch)
  local known = {}
  for a in (torch.cpp_extension or ""):gmatch("[^;]+") do known[a] = true end
  return known
end

-- The -gencode flags cpp_extension of PyTorch `torch` (nil: the newest)
-- gives for the TORCH_CUDA_ARCH_LIST `text`, sorted as it sorts them; nil
-- and the item it refuses when it refuses one.
function M.cpp_extension_flags(text, torch)
  torch = torch_or_newest(torch)
  local known = cx_known(torch)
  local flags, seen = {}, {}
  local function add(f)
    if not seen[f] then
      seen[f] = true
      flags[#flags + 1] = f
    end
  end
  for _, item in ipairs(cx_items(tostring(text or ""), torch)) do
    local base, ptx = item, false
    if base:sub(-4) == "+PTX" then base, ptx = base:sub(1, -5), true end
    if not known[base] then return nil, item end
    local num = base:gsub("%.", "")
    add(("-gencode=arch=compute_%s,code=sm_%s"):format(num, num))
    if ptx then add(("-gencode=arch=compute_%s,code=compute_%s"):format(num, num)) end
  end
  table.sort(flags)
  return flags
end

-- The list text of items' tokens, when the caller has no text.
local function text_of(items)
  local toks, seen = {}, {}
  for _, it in ipairs(items) do
    for _, t in ipairs(it.tokens or { M.item_text(it) }) do
      if not seen[t] then
        seen[t] = true
        toks[#toks + 1] = t
      end
    end
  end
  return table.concat(toks, ";")
end

-- Why cpp_extension refuses: one entry per item or token, with the list
-- it would take instead (from items, which it reads as CMake does).
local function cx_refusals(items, torch, text, bad)
  local known = cx_known(torch)
  local refused, keep = {}, {}
  for _, it in ipairs(items) do
    local why, instead
    if it.suffix == "f" then
      why, instead = "no 'f' suffix", known[it.cc] and { cc = it.cc, suffix = "", ptx = it.ptx }
    elseif it.from then
      why, instead = "no X.Y(A.B) form", known[it.cc .. it.suffix] and { cc = it.cc, suffix = it.suffix, ptx = it.ptx }
    elseif not known[it.cc .. it.suffix] then
      why = ("%s is not in its list"):format(it.cc .. it.suffix)
    end
    if why then
      refused[#refused + 1] = ("'%s' (%s)"):format(M.item_text(it), why)
      if instead then keep[#keep + 1] = instead end
    else
      keep[#keep + 1] = it
    end
  end
  -- names it expands into items it refuses ("Hopper+PTX"), empty items
  for tok in tostring(text):gsub(" ", ";"):gmatch("[^;]+") do
    local body = tok:gsub("%+PTX$", "")
    if M.families[body] then
      local got = cx_items(tok, torch)
      for _, item in ipairs(got) do
        if not known[(item:gsub("%+PTX$", ""))] then
          refused[#refused + 1] = ("'%s' (it reads it as '%s')"):format(tok, table.concat(got, ";"))
          break
        end
      end
    end
  end
  if #refused == 0 then
    refused[1] = bad == "" and "an empty item (a ';' at an end, ';;', or two spaces)"
      or ("'%s' (not an item it knows)"):format(bad)
  end
  return refused, keep
end

-- Returns nil when cpp_extension of `torch` (a release of data/pytorch;
-- nil: the newest) reads the list `text` (nil: the items' own tokens) as
-- PyTorch's CMake build does, else a warning { message, hint, kind }:
-- kind "refused" (it refuses the list) or "differs" (other flags).
function M.cpp_extension_check(items, torch, text)
  -- no list at all is the caller's error, not cpp_extension's
  if #items == 0 then return nil end
  torch = torch_or_newest(torch)
  text = text or text_of(items)
  local flags, bad = M.cpp_extension_flags(text, torch)
  if flags then
    local want = M.gencode(items)
    table.sort(want)
    if table.concat(want, " ") == table.concat(flags, " ") then return nil end
    local named = {}
    for tok in tostring(text):gsub(" ", ";"):gmatch("[^;]+") do
      if M.families[(tok:gsub("%+PTX$", ""))] then
        named[#named + 1] = ("'%s' as '%s'"):format(tok, table.concat(cx_items(tok, torch), ";"))
      end
    end
    return {
      message = ("torch.utils.cpp_extension of PyTorch %s reads this TORCH_CUDA_ARCH_LIST otherwise than PyTorch's CMake build%s: extensions built later with the same variable get %s, not %s"):format(
        torch.version, #named > 0 and (" (it reads " .. table.concat(named, ", ") .. ")") or "",
        table.concat(flags, " "), table.concat(want, " ")),
      hint = ("write the compute capabilities, which both read alike: TORCH_CUDA_ARCH_LIST='%s'"):format(M.torch_list(items)),
      kind = "differs",
    }
  end
  local refused, keep = cx_refusals(items, torch, text, bad)
  local seen, alt = {}, {}
  for _, it in ipairs(keep) do
    local t = M.item_text(it)
    if not seen[t] then
      seen[t] = true
      alt[#alt + 1] = t
    end
  end
  return {
    message = ("PyTorch's CMake build accepts this TORCH_CUDA_ARCH_LIST, but torch.utils.cpp_extension of PyTorch %s refuses %s: extensions built later with the same variable fail with 'Unknown CUDA arch (...) or GPU not supported'"):format(
      torch.version, table.concat(refused, ", ")),
    hint = #alt > 0 and ("for building extensions, set TORCH_CUDA_ARCH_LIST='%s'"):format(table.concat(alt, ";"))
      or "for building extensions, set TORCH_CUDA_ARCH_LIST to items it accepts (X.Y or X.Ya, optionally +PTX)",
    kind = "refused",
  }
end

-- PTX codes in PyTorch's order: for `A(B)+PTX` both A and B (the CMake
-- tokeniser takes every number of the item).
function M.ptx_codes(items)
  local out, seen = {}, {}
  for _, it in ipairs(items) do
    if it.ptx then
      for _, d in ipairs({ M.digits(it.cc, it.suffix), it.from and M.digits(it.from) or nil }) do
        if not seen[d] then
          seen[d] = true
          out[#out + 1] = d
        end
      end
    end
  end
  return out
end

function M.gencode(items)
  local out, seen = {}, {}
  for _, it in ipairs(items) do
    local f = ("-gencode=arch=compute_%s,code=sm_%s"):format(
      it.from and M.digits(it.from) or M.digits(it.cc, it.suffix), M.digits(it.cc, it.suffix))
    if not seen[f] then
      seen[f] = true
      out[#out + 1] = f
    end
  end
  for _, d in ipairs(M.ptx_codes(items)) do
    out[#out + 1] = ("-gencode=arch=compute_%s,code=compute_%s"):format(d, d)
  end
  return out
end

-- CMAKE_CUDA_ARCHITECTURES: "80-real;90-real;90-virtual", by architecture.
-- CMake cannot say "SASS for 8.6 from compute_80": A(B) becomes A-real.
function M.cmake(items)
  local entries, seen = {}, {}
  local function add(d, kind)
    local e = d .. "-" .. kind
    if not seen[e] then
      seen[e] = true
      entries[#entries + 1] = { d = d, kind = kind }
    end
  end
  for _, it in ipairs(items) do add(M.digits(it.cc, it.suffix), "real") end
  for _, d in ipairs(M.ptx_codes(items)) do add(d, "virtual") end
  local function key(d)
    local n, s = d:match("^(%d+)(%a?)$")
    return tonumber(n), suffix_rank[s]
  end
  table.sort(entries, function(x, y)
    local n1, s1 = key(x.d)
    local n2, s2 = key(y.d)
    if n1 ~= n2 then return n1 < n2 end
    if s1 ~= s2 then return s1 < s2 end
    return x.kind < y.kind
  end)
  local out = {}
  for _, e in ipairs(entries) do out[#out + 1] = e.d .. "-" .. e.kind end
  return table.concat(out, ";")
end

return M
