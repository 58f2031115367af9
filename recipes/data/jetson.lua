-- Jetson: the GPU of each module and which CUDA toolkit serves it.
--
-- Sources:
--   [jc-l4t]  dusty-nv/jetson-containers@dd206bf jetson_containers/l4t_version.py
--             (L4T -> JetPack table; per-L4T default CUDA; r39 = "JetPack 7.2
--             GA, Orin SBSA", CUDA 13.2)
--   [jp]      NVIDIA JetPack release pages (JetPack 5.1.x = CUDA 11.4,
--             6.0 = 12.2, 6.1/6.2 = 12.6, 7.0 = 13.0 for Thor)
--   [thor]    NVIDIA blog "What's New in CUDA Toolkit 13.0 for Jetson Thor":
--             Thor uses the SBSA toolkit; Orin stays on JetPack (L4T) CUDA
--   [jp72]    NVIDIA's JetPack 7.2 page: L4T 39.2, CUDA 13.2.1, Orin added
--   [nix]     NixOS/nixpkgs cuda-modules _cuda/lib/redist.nix getRedistSystem:
--             SBSA unless capability < 10.1 (CUDA < 13) or < 8.7 (CUDA >= 13)
-- The L4T -> JetPack -> CUDA table is data/l4t.lua (the one detect reads);
-- this file keeps the planning view: module -> GPU, and which toolkit
-- serves it.

-- module keyword (in facts jetson.module) -> GPU compute capability
local modules = {
  { match = "thor", cc = "11.0", cc_cuda12 = "10.1", name = "Jetson Thor" },  -- [thor] (sm_101 before CUDA 13)
  { match = "orin", cc = "8.7", name = "Jetson Orin" },                       -- archs.lua GA10B
  { match = "xavier", cc = "7.2", name = "Jetson Xavier" },
  { match = "tx2", cc = "6.2", name = "Jetson TX2" },
  { match = "nano", cc = "5.3", name = "Jetson Nano" },
}

-- The lowest GPU capability served by the SBSA toolkit [nix]; Orin (8.7)
-- joins it with CUDA 13.2, JetPack 7.2 being L4T 39.2 with CUDA 13.2.1
-- and the release that adds the Orin family to JetPack 7 [jp72].
local sbsa_min_cc = { before13 = "10.1", from13 = "8.7", from13_minor = "13.2" }

return { modules = modules, sbsa_min_cc = sbsa_min_cc }
