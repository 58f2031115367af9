-- The `ptbuild fetch` recipe: what fetch needs of NVIDIA when no plan says
-- it.  Input { machine } (uname -m, when known); output { cuda_redist,
-- cudnn_redist, platform } -- the CUDA and cuDNN redist base URLs (a
-- mirror replaces either) and the NVIDIA platform of that machine (nil
-- when ptbuild does not know it: fetch then asks for --platform).
local redist = ptb.include("data/redist")
local platforms = ptb.include("data/platforms")

local M = {}

function M.defaults(args)
  return {
    cuda_redist = redist.base_url,
    cudnn_redist = redist.cudnn.base_url,
    platform = platforms.fetch_default[args and args.machine or ""],
  }
end

return M
