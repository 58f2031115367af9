-- gpuname: a GPU model as the driver names it ("NVIDIA A100-SXM4-80GB",
-- "Tesla V100-PCIE-16GB") -> its row of data/gpus.lua, or nil.
--
-- "NVIDIA " is dropped from both sides; the longest table name that is a
-- whole-word prefix of the model (followed by its end or a character that
-- is not a letter or digit) wins, so "NVIDIA H100 80GB HBM3" is the H100
-- row and "NVIDIA H20" never the H200's.  detect (compute capability) and
-- doctor (forward compatibility: the row's segment) read the same row.
local M = {}

local function norm(name)
  return (tostring(name or ""):gsub("^%s+", ""):gsub("%s+$", ""):gsub("^NVIDIA%s+", ""))
end

-- The table by normalized name (the first entry of a name wins), built on
-- first use (a machine without a GPU never compiles data/gpus.lua); the
-- answers remembered per name (a DGX lists eight identical GPUs).
local by_name, answers = nil, {}
local function products_by_name()
  if not by_name then
    by_name = {}
    for _, p in ipairs(ptb.include("data/gpus").products) do
      local n = norm(p.name)
      if by_name[n] == nil then by_name[n] = p end
    end
  end
  return by_name
end

function M.product(name)
  local n = norm(name)
  local a = answers[n]
  if a == nil then
    local t = products_by_name()
    a = false
    for i = #n, 1, -1 do
      local nxt = n:sub(i + 1, i + 1)
      if (nxt == "" or not nxt:match("[%w]")) and t[n:sub(1, i)] then
        a = t[n:sub(1, i)]
        break
      end
    end
    answers[n] = a
  end
  return a or nil
end

-- Facts whose GPU names a product the table knows but carry no compute
-- capability (taken by a ptbuild whose table lacked it, or written by
-- hand): fill it in from the table, as detect would have.  The GPUs of
-- facts are changed in place; the number filled is returned.
function M.fill(facts)
  local n = 0
  for _, g in ipairs(type(facts) == "table" and type(facts.gpus) == "table" and facts.gpus or {}) do
    if type(g) == "table" and type(g.compute_capability) ~= "string" and type(g.name) == "string" then
      local p = M.product(g.name)
      if p then
        g.compute_capability = p.cc
        n = n + 1
      end
    end
  end
  return n
end

return M
