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
  -- the audit of 2026-12-01: every name in the driver's table of
  -- 595.45.04 (S_NV_OGKM @df1c9a3d) that no row matched, its chip from its
  -- PCI id (S_PCIIDS)
  { "NVIDIA RTX PRO 3000 Blackwell Generation Laptop GPU", "12.0", "S_NV_OGKM S_PCIIDS" }, -- 2F38 GB205GLM
  { "NVIDIA RTX PRO 1000 Blackwell Generation Laptop GPU", "12.0", "S_NV_OGKM S_PCIIDS" }, -- 2DB8 GB207GLM
  { "NVIDIA RTX PRO 500 Blackwell Generation Laptop GPU", "12.0", "S_NV_OGKM S_PCIIDS" },  -- 2DB9 GB207GLM
  { "NVIDIA RTX PRO 500 Blackwell Embedded GPU", "12.0", "S_NV_OGKM S_PCIIDS" },           -- 2DF9 GB207GLM
  { "NVIDIA RTX PRO 5000 72GB Blackwell", "12.0", "S_NV_OGKM S_PCIIDS" },                  -- 2BB3 GB202GL
  { "NVIDIA RTX 6000D", "12.0", "S_NV_OGKM S_PCIIDS" },                                    -- 2BB9 GB202GL
  { "NVIDIA RTX 3500 Ada Generation Laptop GPU", "8.9", "S_NV_OGKM S_PCIIDS" },            -- 27BB AD104GLM
  { "NVIDIA RTX 3500 Ada Generation Embedded GPU", "8.9", "S_NV_OGKM S_PCIIDS" },          -- 27FB AD104GLM
  { "NVIDIA RTX 3000 Ada Generation Laptop GPU", "8.9", "S_NV_OGKM S_PCIIDS" },            -- 2838 AD106GLM
  { "NVIDIA RTX 1000 Ada Generation Laptop GPU", "8.9", "S_NV_OGKM S_PCIIDS" },            -- 28B9 AD107GLM
  { "NVIDIA RTX 500 Ada Generation Laptop GPU", "8.9", "S_NV_OGKM S_PCIIDS" },             -- 28BA AD107GLM
  { "NVIDIA L2", "8.9", "S_NV_OGKM S_PCIIDS" },                                            -- 27B6 AD104GL
  { "NVIDIA A10M", "8.6", "S_NV_OGKM S_PCIIDS" },                                          -- 2238 GA102GL
  { "NVIDIA RTX A5500", "8.6", "S_NV_OGKM S_PCIIDS" },                                     -- 2233 GA102GL
  { "NVIDIA RTX A5500 Laptop GPU", "8.6", "S_NV_OGKM S_PCIIDS" },                          -- 2438 GA103GLM
  { "NVIDIA RTX A4500", "8.6", "S_NV_OGKM S_PCIIDS" },                                     -- 2232 GA102GL
  { "NVIDIA RTX A4500 Laptop GPU", "8.6", "S_NV_OGKM S_PCIIDS" },                          -- 24BA GA104GLM
  { "NVIDIA RTX A4500 Embedded GPU", "8.6", "S_NV_OGKM S_PCIIDS" },                        -- 24FA GA104
  { "NVIDIA RTX A4000H", "8.6", "S_NV_OGKM S_PCIIDS" },                                    -- 24B1 GA104GL
  { "NVIDIA RTX A1000", "8.6", "S_NV_OGKM S_PCIIDS" },                                     -- 25B0 GA107GL
  { "NVIDIA RTX A1000 Embedded GPU", "8.6", "S_NV_OGKM S_PCIIDS" },                        -- 25F9 GA107
  { "NVIDIA RTX A500 Laptop GPU", "8.6", "S_NV_OGKM S_PCIIDS" },                           -- 25BB GA107GLM
  { "NVIDIA RTX A500 Embedded GPU", "8.6", "S_NV_OGKM S_PCIIDS" },                         -- 25FB GA107
  { "NVIDIA RTX A400", "8.6", "S_NV_OGKM S_PCIIDS" },                                      -- 25B2 GA107GL
  { "NVIDIA CMP 90HX", "8.6", "S_NV_OGKM S_PCIIDS" },                                      -- 220D GA102
  { "NVIDIA CMP 70HX", "8.6", "S_NV_OGKM S_PCIIDS" },                                      -- 248A GA104
  { "NVIDIA AX800", "8.0", "S_NV_OGKM S_PCIIDS" },                                         -- 20FD GA100
  { "NVIDIA PG506-232", "8.0", "S_NV_OGKM S_PCIIDS" },                                     -- 20B6 GA100GL
  { "NVIDIA PG509-210", "8.0", "S_NV_OGKM S_PCIIDS" },                                     -- 20B2 GA100
  { "NVIDIA CMP 50HX", "7.5", "S_NV_OGKM S_PCIIDS" },                                      -- 1E09 TU102
  { "NVIDIA CMP 40HX", "7.5", "S_NV_OGKM S_PCIIDS" },                                      -- 1F0B TU106
  { "NVIDIA CMP 30HX", "7.5", "S_NV_OGKM S_PCIIDS" },                                      -- 2189 TU116
  { "NVIDIA DGX Display", "7.5", "S_NV_OGKM S_PCIIDS" },                                   -- 1FB0 TU117GLM
  { "NVIDIA T400E", "7.5", "S_NV_OGKM S_PCIIDS" },                                         -- 1FF2 TU117GL
  -- parts neither NVIDIA's pages nor the driver's table (Turing and later
  -- only) list: the PCI ID Repository's product name and chip (S_PCIIDS)
  { "NVIDIA RTX PRO 6000D Blackwell Workstation Edition", "12.0", "S_PCIIDS" },           -- 2BB2 GB202GL
  { "NVIDIA RTX PRO 6000D Blackwell Max-Q Workstation Edition", "12.0", "S_PCIIDS" },     -- 2BBC GB202GL
  { "NVIDIA H100L 94GB", "9.0", "S_PCIIDS" },                                             -- 2321 GH100
  { "NVIDIA H800L 94GB", "9.0", "S_PCIIDS" },                                             -- 233A GH100
  { "NVIDIA H20B", "9.0", "S_PCIIDS" },                                                   -- 2328 GH100
  { "NVIDIA A100X", "8.0", "S_PCIIDS" },                                                  -- 20B8 GA100
  { "NVIDIA A30X", "8.0", "S_PCIIDS" },                                                   -- 20B9 GA100
  { "Tesla P6", "6.1", "S_PCIIDS" },                                                      -- 1BB4 GP104GL
  { "NVIDIA GeForce GT 1030", "6.1", "S_PCIIDS" },                                        -- 1D01 GP108
  { "NVIDIA GeForce GT 1010", "6.1", "S_PCIIDS" },                                        -- 1D02 GP108
  { "NVIDIA GeForce MX150", "6.1", "S_PCIIDS" },                                          -- 1D10 GP108M
  { "NVIDIA GeForce MX230", "6.1", "S_PCIIDS" },                                          -- 1D11 GP108M
  { "NVIDIA GeForce MX250", "6.1", "S_PCIIDS" },                                          -- 1D13 GP108M
  { "NVIDIA GeForce MX330", "6.1", "S_PCIIDS" },                                          -- 1D16 GP108M
  { "NVIDIA GeForce MX350", "6.1", "S_PCIIDS" },                                          -- 1C94 GP107M
  { "Tesla M10", "5.0", "S_PCIIDS" },                                                     -- 13BD GM107GL
  { "Tesla M6", "5.2", "S_PCIIDS" },                                                      -- 13F3 GM204GL
  { "Tesla M4", "5.2", "S_PCIIDS" },                                                      -- 1431 GM206GL
  { "GeForce GTX 745", "5.0", "S_PCIIDS" },                                               -- 1382 GM107
  { "GeForce 940MX", "5.0", "S_PCIIDS" },                                                 -- 134D GM108M
  { "GeForce 930MX", "5.0", "S_PCIIDS" },                                                 -- 134E GM108M
  { "GeForce 920MX", "5.0", "S_PCIIDS" },                                                 -- 134F GM108M
  { "GeForce 945M", "5.0", "S_PCIIDS" },                                                  -- 1399 GM107M
  { "GeForce 845M", "5.0", "S_PCIIDS" },                                                  -- 1398 GM107M
  { "GeForce MX130", "5.0", "S_PCIIDS" },                                                 -- 174D GM108M
  { "GeForce MX110", "5.0", "S_PCIIDS" },                                                 -- 174E GM108M
  { "Quadro K2200M", "5.0", "S_PCIIDS" },                                                 -- 13B3 GM107GLM
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
