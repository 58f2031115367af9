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
  -- neighbours that must not be confused with them
  { "NVIDIA H200", "9.0", "S_NV_GPUS" },          -- not H20
  { "NVIDIA H100 PCIe", "9.0", "S_NV_GPUS" },     -- not H800
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
