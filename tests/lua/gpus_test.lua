-- gpus_test.lua - GPU model strings, as the driver reports them, to the
-- compute capability NVIDIA lists; each row names its source (ids resolve in
-- recipes/data/sources.lua).  The names are the driver's own spelling
-- ("NVIDIA " first, variants after the product name), so each row also
-- proves the whole-word prefix match reaches the table row.
local t = ptb.include("tap")
local D = ptb.include("detect")

local rows = {
  -- current list, developer.nvidia.com/cuda-gpus
  { "NVIDIA RTX PRO 6000 Blackwell Workstation Edition", "12.0", "S_NV_GPUS" },
  { "NVIDIA RTX PRO 6000 Blackwell Max-Q Workstation Edition", "12.0", "S_NV_GPUS" },
  { "NVIDIA RTX PRO 6000 Blackwell Server Edition", "12.0", "S_NV_GPUS" },
  { "NVIDIA RTX PRO 5000 Blackwell", "12.0", "S_NV_GPUS" },
  { "NVIDIA RTX PRO 4500 Blackwell Server Edition", "12.0", "S_NV_GPUS" },
  { "NVIDIA RTX PRO 4000 Blackwell SFF Edition", "12.0", "S_NV_GPUS" },
  { "NVIDIA RTX PRO 2000 Blackwell Generation Laptop GPU", "12.0", "S_NV_GPUS" },
  { "NVIDIA GB10", "12.1", "S_NV_GPUS" },
  { "NVIDIA RTX 5000 Ada Generation", "8.9", "S_NV_GPUS" },
  { "NVIDIA RTX 4500 Ada Generation", "8.9", "S_NV_GPUS" },
  { "NVIDIA RTX 4000 SFF Ada Generation", "8.9", "S_NV_GPUS" },
  { "NVIDIA RTX 2000 Ada Generation", "8.9", "S_NV_GPUS" },
  { "NVIDIA GeForce RTX 4050 Laptop GPU", "8.9", "S_NV_GPUS S_NVSMI_OBS" },
  { "NVIDIA RTX A3000 Laptop GPU", "8.6", "S_NV_GPUS" },
  -- legacy list, developer.nvidia.com/cuda-legacy-gpus
  { "Quadro P5200", "6.1", "S_NV_LEGACY" },
  { "Quadro P2200", "6.1", "S_NV_LEGACY" },
  { "Quadro P1000", "6.1", "S_NV_LEGACY" },
  { "Quadro P400", "6.1", "S_NV_LEGACY" },
  { "NVIDIA TITAN X (Pascal)", "6.1", "S_NV_LEGACY" },
  { "NVIDIA GeForce GTX TITAN X", "5.2", "S_NV_LEGACY" },
  { "Quadro M2000M", "5.0", "S_NV_LEGACY" },
  { "Quadro M2000", "5.2", "S_NV_LEGACY" },
  { "Quadro M6000 24GB", "5.2", "S_NV_LEGACY" },
  { "NVIDIA GeForce GTX 960M", "5.0", "S_NV_LEGACY" },
  { "NVIDIA GeForce GTX 960", "5.2", "S_NV_LEGACY" },
  { "NVIDIA NVS 810", "5.0", "S_NV_LEGACY" },
  -- an older revision of the current list
  { "NVIDIA T600", "7.5", "S_NV_GPUS_OLD" },
  { "NVIDIA T400 4GB", "7.5", "S_NV_GPUS_OLD" },
  { "Quadro K6000", "3.5", "S_NV_GPUS_OLD" },
  -- nvidia-smi --query-gpu=name,compute_cap output quoted in public repositories
  { "Tesla V100S-PCIE-32GB", "7.0", "S_NVSMI_OBS" },
  { "NVIDIA A800 80GB PCIe", "8.0", "S_NVSMI_OBS" },
  { "NVIDIA H800", "9.0", "S_NVSMI_OBS" },
  { "NVIDIA H20", "9.0", "S_NVSMI_OBS" },
  { "NVIDIA L20", "8.9", "S_NVSMI_OBS" },
  { "NVIDIA GeForce GTX 1660 Ti", "7.5", "S_NVSMI_OBS" },
  { "NVIDIA GeForce GTX 1650", "7.5", "S_NVSMI_OBS" },
  { "NVIDIA GeForce RTX 3050", "8.6", "S_NVSMI_OBS" },
  -- The driver's own names, each from NVIDIA's table of them (S_NV_OGKM:
  -- open-gpu-kernel-modules README, "Compatible GPUs", the PCI id after
  -- the name here); the capability from the page or source after it.
  { "NVIDIA RTX PRO 4500 Blackwell", "12.0", "S_NV_GPUS" },                 -- 2C31
  { "NVIDIA RTX PRO 4000 Blackwell", "12.0", "S_NV_GPUS" },                 -- 2C34
  { "NVIDIA RTX 6000 Ada Generation", "8.9", "S_NV_GPUS" },                 -- 26B1
  { "NVIDIA RTX 4000 Ada Generation", "8.9", "S_NV_GPUS" },                 -- 27B2
  { "NVIDIA GeForce RTX 3060 Ti", "8.6", "S_NV_GPUS" },                     -- 2486
  { "NVIDIA GeForce RTX 3050 Ti Laptop GPU", "8.6", "S_NV_GPUS" },          -- 25A0
  { "NVIDIA GeForce RTX 3050Ti Laptop GPU", "8.6", "S_NV_GPUS" },           -- 25A0 103C 8928, no space
  { "NVIDIA GeForce RTX 3050 OEM", "8.6", "S_NV_GPUS" },                    -- 2508
  { "NVIDIA GeForce RTX 3050 6GB Laptop GPU", "8.6", "S_NV_GPUS" },         -- 25AC
  { "NVIDIA GeForce RTX 3050 A Laptop GPU", "8.9", "S_OBS_3050A" },         -- 28A3, an Ada part
  { "NVIDIA RTX 5880 Ada Generation", "8.9", "S_HF_HW" },                   -- 26B3, not on NVIDIA's page
  { "NVIDIA GeForce RTX 2050", "8.6", "S_HF_HW" },                          -- 25A7, an Ampere part
  { "NVIDIA A100-SXM4-80GB", "8.0", "S_NV_GPUS" },                          -- 20B2
  { "Tesla T4", "7.5", "S_NV_GPUS" },                                       -- 1EB8
  { "NVIDIA TITAN RTX", "7.5", "S_NV_GPUS" },                               -- 1E02
  { "Quadro RTX 3000 with Max-Q Design", "7.5", "S_NV_GPUS" },              -- 1F36 1028 0990
  { "Quadro T2000", "7.5", "S_NV_GPUS" },                                   -- 1FB8
  { "Quadro T1000 with Max-Q Design", "7.5", "S_NV_GPUS" },                 -- 1FB9 1025 1479
  { "NVIDIA T1200 Laptop GPU", "7.5", "S_NV_GPUS" },                        -- 1FBC
  { "NVIDIA T1000 8GB", "7.5", "S_NV_GPUS" },                               -- 1FF0
  { "NVIDIA T600 Laptop GPU", "7.5", "S_NV_GPUS" },                         -- 1FB6
  { "NVIDIA T500", "7.5", "S_NV_GPUS" },                                    -- 1FBB
  { "NVIDIA GeForce RTX 2070 Super with Max-Q Design", "7.5", "S_NV_GPUS" }, -- 1E91 103C 8607
  { "NVIDIA GeForce GTX 1650 Ti with Max-Q Design", "7.5", "S_NV_GPUS" },   -- 1F95 1025 1479
  { "NVIDIA GeForce GTX 1660 SUPER", "7.5", "S_NVSMI_OBS S_HF_HW" },        -- 21C4
  { "NVIDIA GeForce GTX 1650 SUPER", "7.5", "S_NVSMI_OBS S_HF_HW" },        -- 2187
  { "NVIDIA GeForce GTX 1660 Ti with Max-Q Design", "7.5", "S_NVSMI_OBS" }, -- 2191 1028 0949
  { "NVIDIA A800-SXM4-80GB", "8.0", "S_NVSMI_OBS S_HF_HW" },                -- 20F3
  { "NVIDIA A800 40GB Active", "8.0", "S_NVSMI_OBS S_HF_HW" },              -- 20F6
  { "NVIDIA H800 PCIe", "9.0", "S_NVSMI_OBS S_HF_HW" },                     -- 2322
  { "NVIDIA H800 NVL", "9.0", "S_NVSMI_OBS S_HF_HW" },                      -- 233A
  { "NVIDIA H20-3e", "9.0", "S_NVSMI_OBS S_HF_HW" },                        -- 232C
  { "NVIDIA H20 NVL16", "9.0", "S_NVSMI_OBS S_HF_HW" },                     -- 230E
  -- parts neither NVIDIA page lists: the driver's name and PCI id
  -- (S_NV_OGKM), the chip that id is (S_PCIIDS), whose generation fixes
  -- the capability
  { "NVIDIA RTX 2000E Ada Generation", "8.9", "S_PCIIDS S_NV_GPUS" },      -- 28B0 10DE 1871, AD107 like the RTX 2000 Ada
  { "NVIDIA RTX A1000 Laptop GPU", "8.6", "S_PCIIDS" },                    -- 25B9 GA107GLM
  { "NVIDIA RTX A1000 6GB Laptop GPU", "8.6", "S_PCIIDS" },                -- 25BC GA107GLM
  { "NVIDIA RTX A2000 8GB Laptop GPU", "8.6", "S_PCIIDS" },                -- 25BA GA107GLM
  { "NVIDIA RTX A2000 Laptop GPU", "8.6", "S_PCIIDS S_NV_GPUS_OLD2" },     -- 25B8 GA107GLM
  { "NVIDIA RTX A3000 12GB Laptop GPU", "8.6", "S_PCIIDS" },               -- 24B9 GA104GLM
  { "NVIDIA RTX A4000 Laptop GPU", "8.6", "S_PCIIDS S_NV_GPUS_OLD2" },     -- 24B7 GA104GLM
  { "NVIDIA RTX A5000 Laptop GPU", "8.6", "S_PCIIDS S_NV_GPUS_OLD2" },     -- 24B6 GA104GLM
  { "NVIDIA GeForce MX570", "8.6", "S_PCIIDS" },                           -- 25A6 GA107M
  { "NVIDIA GeForce MX570 A", "8.6", "S_PCIIDS" },                         -- 25AA GA107M
  { "NVIDIA GeForce MX550", "7.5", "S_PCIIDS" },                           -- 1F9F TU117M
  { "NVIDIA GeForce MX450", "7.5", "S_PCIIDS" },                           -- 1F97 TU117M
  { "NVIDIA GeForce GTX 1630", "7.5", "S_PCIIDS" },                        -- 1F83 TU117
  { "NVIDIA T550 Laptop GPU", "7.5", "S_PCIIDS" },                         -- 1FB7 TU117GLM
  -- rows NVIDIA's pages give a capability their chip does not have
  -- (S_CHIP_CC): the chip's, as the pages give it for other products of
  -- the same chip
  { "Quadro M620", "5.0", "S_CHIP_CC" },     -- 13B4 GM107GLM, as the GTX 750 Ti (5.0)
  { "Quadro M5000M", "5.2", "S_CHIP_CC" },   -- 13F8 GM204GLM, as the GTX 980 (5.2)
  { "Quadro M4000M", "5.2", "S_CHIP_CC" },   -- 13F9 GM204GLM
  { "Quadro M3000M", "5.2", "S_CHIP_CC" },   -- 13FA GM204GLM
  { "GeForce 910M", "3.5", "S_CHIP_CC" },    -- 129A GK208BM, as the GT 720 (3.5)
  { "GeForce GT 735M", "3.5", "S_CHIP_CC" }, -- 1291 GK208M
  -- nvidia-smi's names in public issue threads (S_NVSMI_ISSUES), older
  -- drivers without "NVIDIA " in front
  { "Quadro P4000", "6.1", "S_NV_LEGACY" },       -- NVIDIA/open-gpu-kernel-modules#914
  { "Quadro P2000", "6.1", "S_NV_LEGACY" },       -- NVIDIA/nvidia-docker#1163
  { "Quadro P6000", "6.1", "S_NV_LEGACY" },       -- NVIDIA/nvidia-docker#642
  { "Quadro M1000M", "5.0", "S_NV_LEGACY" },      -- NVIDIA/nvidia-docker#688
  { "Quadro RTX 4000", "7.5", "S_NV_GPUS" },      -- akash-network/provider-configs#12
  { "GeForce GTX 780", "3.5", "S_NV_GPUS_OLD3" }, -- MatthiasSchinzel/sysmon#12
  { "GeForce 410M", "2.1", "S_NV_GPUS_OLD3" },    -- 1Panel-dev/1Panel#9504
  -- neighbours that must not be confused with them
  { "NVIDIA H200", "9.0", "S_NV_GPUS" },          -- not H20
  { "NVIDIA H100 PCIe", "9.0", "S_NV_GPUS" },     -- not H800
  { "NVIDIA GeForce RTX 3050 Laptop GPU", "8.6", "S_NV_GPUS" }, -- not the 3050 A (S_NV_OGKM 25A2)
  { "GeForce GTX 670M", "2.1", "S_NV_GPUS_OLD3" },              -- not the GTX 670 (3.0), as the page names it
  { "GeForce GTX 670", "3.0", "S_NV_GPUS_OLD3" },
}
for _, r in ipairs(rows) do
  t.is(D.gpu_cc(r[1]), r[2], ("%s -> %s [%s]"):format(r[1], r[2], r[3]))
end
-- The column of NVIDIA's pages each product stands in (data-center,
-- workstation/consumer, Jetson), as doctor's forward-compatibility check
-- reads it; every row has one.
local G = ptb.include("lib/gpuname")
for _, r in ipairs({
  { "NVIDIA RTX PRO 6000 Blackwell Server Edition", "datacenter", "S_NV_GPUS" },
  { "NVIDIA RTX PRO 6000 Blackwell Workstation Edition", "workstation", "S_NV_GPUS" },
  { "NVIDIA L40S", "datacenter", "S_NV_GPUS" },
  { "NVIDIA RTX 2000 Ada Generation", "workstation", "S_NV_GPUS" },
  { "NVIDIA A2", "datacenter", "S_NV_GPUS" },
  { "NVIDIA RTX A2000 12GB", "workstation", "S_NV_GPUS" },
  { "Tesla P40", "datacenter", "S_NV_LEGACY" },
  { "Quadro GV100", "workstation", "S_NV_LEGACY" },
  { "NVIDIA TITAN V", "workstation", "S_NV_LEGACY" },
  { "Jetson Orin Nano", "jetson", "S_NV_GPUS" },
}) do
  local p = G.product(r[1])
  t.is(p and p.segment, r[2], ("%s: %s [%s]"):format(r[1], r[2], r[3]))
end
local none = {}
for _, p in ipairs(ptb.include("data/gpus").products) do
  if not p.segment then none[#none + 1] = p.name end
end
t.is(table.concat(none, ", "), "", "every product row has a segment")
t.done()
