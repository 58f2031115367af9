-- tap.lua - TAP output for Lua tests (print exists only in test mode).
local T = { n = 0, failed = 0 }

local function show(v)
  if type(v) == "string" then return ("%q"):format(v) end
  if type(v) ~= "table" then return tostring(v) end
  local parts = {}
  for i, x in ipairs(v) do parts[i] = show(x) end
  return "{" .. table.concat(parts, ", ") .. "}"
end

-- Where the test file called T.ok, T.is or T.like: the first frame
-- outside this file ("FILE:LINE"), by ptb.where, which tests/luatest's
-- test mode adds (level 1 is this function).
local function caller()
  for level = 2, 50 do
    local where = ptb.where(level)
    if where and not where:find("tap%.lua:%d+$") then return where end
  end
  return "(unknown place)"
end

function T.ok(cond, name)
  T.n = T.n + 1
  if cond then
    print(("ok %d - %s"):format(T.n, name))
  else
    T.failed = T.failed + 1
    print(("not ok %d - %s"):format(T.n, name))
    print("#   at " .. caller())
  end
  return cond
end

function T.is(got, want, name)
  local same = got == want
  if type(got) == "table" and type(want) == "table" then same = show(got) == show(want) end
  if not T.ok(same, name) then
    print("#   got:  " .. show(got))
    print("#   want: " .. show(want))
  end
end

function T.like(got, pattern, name)
  if not T.ok(type(got) == "string" and got:find(pattern) ~= nil, name) then
    print("#   got:     " .. show(got))
    print("#   pattern: " .. show(pattern))
  end
end

function T.done()
  print("1.." .. T.n)
end

return T
