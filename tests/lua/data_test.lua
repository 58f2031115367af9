-- data_test.lua - the knowledge tables are consistent with each other.
local t = ptb.include("tap")
local cuda = ptb.include("data/cuda")
local archs = ptb.include("data/archs")
local A = ptb.include("lib/archlist")

local prev
for _, r in ipairs(cuda.releases) do
  t.ok(r.version:match("^%d+%.%d+$") ~= nil, r.version .. ": version is X.Y")
  if prev then t.ok(A.vcmp(prev.version, r.version) < 0, r.version .. ": releases are in order") end
  for _, cc in ipairs(r.sm) do
    t.ok(archs[cc] ~= nil, r.version .. ": sm " .. cc .. " is a known architecture")
  end
  for _, cc in ipairs(r.sm_a) do
    t.ok(A.builds(r, cc, ""), r.version .. ": " .. cc .. "a has its plain form")
  end
  for _, cc in ipairs(r.sm_f) do
    t.ok(A.builds(r, cc, ""), r.version .. ": " .. cc .. "f has its plain form")
  end
  -- driver_min may be unknown (nil) for the newest releases only
  t.ok((r.driver_min == nil or r.driver_min:match("^%d+") ~= nil) and r.compat_min:match("^%d+") ~= nil,
    r.version .. ": drivers given (or the minimum left out)")
  if prev and not prev.driver_min then t.ok(r.driver_min == nil, r.version .. ": a known minimum follows no unknown one") end
  prev = r
end
-- first/last in archs.lua agree with the release lists where both speak
for cc, a in pairs(archs) do
  local first, last = A.span(cc, "")
  if a.first and first and A.vcmp(a.first, "11.0") > 0 then
    t.is(first, a.first, cc .. ": first CUDA agrees")
  end
  if a.last and last then
    t.is(last, a.last, cc .. ": last CUDA agrees")
  end
end
t.done()
