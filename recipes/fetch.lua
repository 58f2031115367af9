-- The `ptbuild fetch` recipe: what fetch needs of NVIDIA when no plan says
-- it.  Input { machine } (uname -m, when known); output { cuda_redist,
-- cudnn_redist, platform } -- the CUDA and cuDNN redist base URLs (a
-- mirror replaces either) and the NVIDIA platform of that machine (nil
-- when ptbuild does not know it: fetch then asks for --platform).
local redist = ptb.include("data/redist")
local platforms = ptb.include("data/platforms")
local cuda = ptb.include("data/cuda")

local M = {}

function M.defaults(args)
  return {
    cuda_redist = redist.base_url,
    cudnn_redist = redist.cudnn.base_url,
    platform = platforms.fetch_default[args and args.machine or ""],
  }
end

-- What ptbuild carries of NVIDIA's redistrib_<cuda>.json (data/redist,
-- generated from byte-exact copies): Input { cuda = label, platform };
-- output { carried = true|false, files = [{ name, relative_path, sha256,
-- size }] } for that platform -- the components a PyTorch build needs.
-- fetch --cuda holds a served manifest to these, so that a mirror (or a
-- changed manifest) cannot swap NVIDIA's files.
function M.pins(args)
  local label = redist.labels[args and args.cuda or ""]
  if not label then return { carried = false, files = ptb.array({}) } end
  local out = {}
  for _, e in ipairs(label.platforms[args.platform or ""] or {}) do
    out[#out + 1] = { name = e.name, relative_path = e.relative_path, sha256 = e.sha256, size = e.size }
  end
  return { carried = true, files = ptb.array(out) }
end

-- The release label fetch --cuda reads the manifest of: NVIDIA publishes
-- redistrib_<label>.json by update (13.4.2), none by minor release, so
-- a minor release ("13.4", as plan --cuda takes it) is its last update,
-- the one a plan installs (data/cuda.lua updates).  Input { cuda };
-- output { label } (the input where it is a label or a release ptbuild
-- does not know).
function M.label(args)
  local v = args and args.cuda or ""
  local up = v:match("^%d+%.%d+$") and cuda.updates[v]
  return { label = up and up.label or v }
end

return M
