-- version: numeric comparison of dotted versions ("12.10" > "12.9";
-- missing parts count as 0, so "13" == "13.0"), shared by every recipe.
local M = {}

function M.parts(v)
  local out = {}
  for n in tostring(v):gmatch("%d+") do out[#out + 1] = tonumber(n) end
  return out
end

-- parts, remembered per string for vcmp (a version table is compared
-- against the same few versions over and over); never handed out, so no
-- caller can change a remembered one.
local seen = {}
local function parts_of(v)
  local key = tostring(v)
  local p = seen[key]
  if not p then p = M.parts(key); seen[key] = p end
  return p
end

-- -1, 0 or 1
function M.vcmp(a, b)
  local x, y = parts_of(a), parts_of(b)
  for i = 1, math.max(#x, #y) do
    local p, q = x[i] or 0, y[i] or 0
    if p ~= q then return p < q and -1 or 1 end
  end
  return 0
end

return M
