-- GPUs: product name -> compute capability, for the answers that do not
-- come from the driver itself (/proc/driver/nvidia/gpus/*/information only
-- names the model).  Generated from shared/data/gpus.csv; each line keeps
-- that table's source IDs (shared/data/detection-sources.csv).
--
-- Matching (detect.lua): "NVIDIA " is dropped from both sides; the longest
-- name that starts the model and ends at a word boundary wins, so
-- "NVIDIA A100-SXM4-80GB" is an A100 and "NVIDIA H100 80GB HBM3" an H100.

local M = {}

M.products = {
  { name = "Tesla K80",                                         cc = "3.7", arch = "Kepler" }, -- S_NV_GPUS_OLD S_TVM S_MESON
  { name = "Tesla K40",                                         cc = "3.5", arch = "Kepler" }, -- S_NV_GPUS_OLD S_TVM
  { name = "GeForce GTX 750 Ti",                                cc = "5.0", arch = "Maxwell" }, -- S_NV_LEGACY S_TVM
  { name = "GeForce GTX 750",                                   cc = "5.0", arch = "Maxwell" }, -- S_NV_LEGACY S_TVM
  { name = "Quadro K2200",                                      cc = "5.0", arch = "Maxwell" }, -- S_NV_LEGACY S_TVM
  { name = "Quadro K620",                                       cc = "5.0", arch = "Maxwell" }, -- S_NV_LEGACY S_TVM
  { name = "GeForce GTX TITAN X",                               cc = "5.2", arch = "Maxwell" }, -- S_NV_LEGACY S_TVM
  { name = "GeForce GTX 980 Ti",                                cc = "5.2", arch = "Maxwell" }, -- S_NV_LEGACY S_TVM
  { name = "GeForce GTX 980",                                   cc = "5.2", arch = "Maxwell" }, -- S_NV_LEGACY S_TVM
  { name = "GeForce GTX 970",                                   cc = "5.2", arch = "Maxwell" }, -- S_NV_LEGACY S_TVM
  { name = "GeForce GTX 960",                                   cc = "5.2", arch = "Maxwell" }, -- S_NV_LEGACY S_TVM
  { name = "Tesla M40",                                         cc = "5.2", arch = "Maxwell" }, -- S_NV_LEGACY S_TVM
  { name = "Tesla M60",                                         cc = "5.2", arch = "Maxwell" }, -- S_NV_LEGACY S_TVM
  { name = "Quadro M6000",                                      cc = "5.2", arch = "Maxwell" }, -- S_NV_LEGACY S_TVM
  { name = "Jetson Nano",                                       cc = "5.3", arch = "Maxwell" }, -- S_NV_LEGACY S_TVM S_JTOP
  { name = "Jetson TX1",                                        cc = "5.3", arch = "Maxwell" }, -- S_TVM S_JTOP S_MESON
  { name = "Tesla P100",                                        cc = "6.0", arch = "Pascal" }, -- S_NV_LEGACY S_TVM
  { name = "Quadro GP100",                                      cc = "6.0", arch = "Pascal" }, -- S_NV_LEGACY S_TVM
  { name = "GeForce GTX 1080 Ti",                               cc = "6.1", arch = "Pascal" }, -- S_NV_LEGACY S_TVM
  { name = "GeForce GTX 1080",                                  cc = "6.1", arch = "Pascal" }, -- S_NV_LEGACY S_TVM
  { name = "GeForce GTX 1070 Ti",                               cc = "6.1", arch = "Pascal" }, -- S_NV_LEGACY S_TVM
  { name = "GeForce GTX 1070",                                  cc = "6.1", arch = "Pascal" }, -- S_NV_LEGACY S_TVM
  { name = "GeForce GTX 1060",                                  cc = "6.1", arch = "Pascal" }, -- S_NV_LEGACY S_TVM
  { name = "GeForce GTX 1050",                                  cc = "6.1", arch = "Pascal" }, -- S_NV_LEGACY S_TVM
  { name = "TITAN Xp",                                          cc = "6.1", arch = "Pascal" }, -- S_NV_LEGACY S_TVM
  { name = "TITAN X (Pascal)",                                  cc = "6.1", arch = "Pascal" }, -- S_NV_LEGACY S_TVM
  { name = "Tesla P40",                                         cc = "6.1", arch = "Pascal" }, -- S_NV_LEGACY S_TVM
  { name = "Tesla P4",                                          cc = "6.1", arch = "Pascal" }, -- S_NV_LEGACY S_TVM
  { name = "Quadro P6000",                                      cc = "6.1", arch = "Pascal" }, -- S_NV_LEGACY S_TVM
  { name = "Quadro P4000",                                      cc = "6.1", arch = "Pascal" }, -- S_NV_LEGACY S_TVM
  { name = "Jetson TX2",                                        cc = "6.2", arch = "Pascal" }, -- S_NV_LEGACY S_TVM S_JTOP
  { name = "V100",                                              cc = "7.0", arch = "Volta" }, -- S_NV_LEGACY S_TVM S_MESON
  { name = "Tesla V100",                                        cc = "7.0", arch = "Volta" }, -- S_NV_LEGACY S_TVM S_MESON
  { name = "TITAN V",                                           cc = "7.0", arch = "Volta" }, -- S_NV_LEGACY S_TVM
  { name = "Quadro GV100",                                      cc = "7.0", arch = "Volta" }, -- S_NV_LEGACY S_TVM
  { name = "Jetson AGX Xavier",                                 cc = "7.2", arch = "Volta" }, -- S_NV_LEGACY S_TVM S_JTOP
  { name = "Jetson Xavier NX",                                  cc = "7.2", arch = "Volta" }, -- S_NV_LEGACY S_JTOP
  { name = "T4",                                                cc = "7.5", arch = "Turing" }, -- S_NV_GPUS_OLD S_TVM
  { name = "Tesla T4",                                          cc = "7.5", arch = "Turing" }, -- S_NV_GPUS_OLD S_TVM
  { name = "GeForce RTX 2080 Ti",                               cc = "7.5", arch = "Turing" }, -- S_TVM
  { name = "GeForce RTX 2080",                                  cc = "7.5", arch = "Turing" }, -- S_TVM
  { name = "GeForce RTX 2070",                                  cc = "7.5", arch = "Turing" }, -- S_TVM
  { name = "GeForce RTX 2060",                                  cc = "7.5", arch = "Turing" }, -- S_TVM
  { name = "TITAN RTX",                                         cc = "7.5", arch = "Turing" }, -- S_TVM
  { name = "GeForce GTX 1650 Ti",                               cc = "7.5", arch = "Turing" }, -- S_NV_GPUS_OLD
  { name = "Quadro RTX 8000",                                   cc = "7.5", arch = "Turing" }, -- S_NV_GPUS_OLD S_TVM
  { name = "Quadro RTX 6000",                                   cc = "7.5", arch = "Turing" }, -- S_NV_GPUS_OLD S_TVM
  { name = "Quadro RTX 5000",                                   cc = "7.5", arch = "Turing" }, -- S_NV_GPUS_OLD S_TVM
  { name = "Quadro RTX 4000",                                   cc = "7.5", arch = "Turing" }, -- S_NV_GPUS_OLD S_TVM
  { name = "T1000",                                             cc = "7.5", arch = "Turing" }, -- S_NV_GPUS_OLD S_TVM
  { name = "A100",                                              cc = "8.0", arch = "Ampere" }, -- S_NV_GPUS_OLD S_TVM S_MESON
  { name = "A30",                                               cc = "8.0", arch = "Ampere" }, -- S_NV_GPUS_OLD S_TVM
  { name = "A40",                                               cc = "8.6", arch = "Ampere" }, -- S_NV_GPUS S_TVM
  { name = "A10",                                               cc = "8.6", arch = "Ampere" }, -- S_NV_GPUS S_TVM
  { name = "A10G",                                              cc = "8.6", arch = "Ampere" }, -- S_TVM
  { name = "A16",                                               cc = "8.6", arch = "Ampere" }, -- S_NV_GPUS S_TVM
  { name = "A2",                                                cc = "8.6", arch = "Ampere" }, -- S_NV_GPUS S_TVM
  { name = "RTX A6000",                                         cc = "8.6", arch = "Ampere" }, -- S_NV_GPUS S_TVM
  { name = "RTX A5000",                                         cc = "8.6", arch = "Ampere" }, -- S_NV_GPUS
  { name = "RTX A4000",                                         cc = "8.6", arch = "Ampere" }, -- S_NV_GPUS
  { name = "RTX A2000",                                         cc = "8.6", arch = "Ampere" }, -- S_NV_GPUS
  { name = "GeForce RTX 3090 Ti",                               cc = "8.6", arch = "Ampere" }, -- S_TVM
  { name = "GeForce RTX 3090",                                  cc = "8.6", arch = "Ampere" }, -- S_TVM S_NV_GPUS
  { name = "GeForce RTX 3080 Ti",                               cc = "8.6", arch = "Ampere" }, -- S_TVM
  { name = "GeForce RTX 3080",                                  cc = "8.6", arch = "Ampere" }, -- S_TVM
  { name = "GeForce RTX 3070 Ti",                               cc = "8.6", arch = "Ampere" }, -- S_TVM
  { name = "GeForce RTX 3070",                                  cc = "8.6", arch = "Ampere" }, -- S_TVM
  { name = "GeForce RTX 3060",                                  cc = "8.6", arch = "Ampere" }, -- S_TVM
  { name = "Jetson AGX Orin",                                   cc = "8.7", arch = "Ampere" }, -- S_NV_GPUS S_CUPY6876 S_TVM S_JTOP
  { name = "Jetson Orin NX",                                    cc = "8.7", arch = "Ampere" }, -- S_NV_GPUS S_JTOP
  { name = "Jetson Orin Nano",                                  cc = "8.7", arch = "Ampere" }, -- S_NV_GPUS S_TVM S_JTOP
  { name = "L4",                                                cc = "8.9", arch = "Ada" }, -- S_NV_GPUS
  { name = "L40",                                               cc = "8.9", arch = "Ada" }, -- S_NV_GPUS
  { name = "L40S",                                              cc = "8.9", arch = "Ada" }, -- S_NV_GPUS
  { name = "RTX 6000 Ada",                                      cc = "8.9", arch = "Ada" }, -- S_NV_GPUS
  { name = "RTX 4000 Ada",                                      cc = "8.9", arch = "Ada" }, -- S_NV_GPUS
  { name = "GeForce RTX 4090",                                  cc = "8.9", arch = "Ada" }, -- S_NV_GPUS S_TVM
  { name = "GeForce RTX 4080",                                  cc = "8.9", arch = "Ada" }, -- S_NV_GPUS
  { name = "GeForce RTX 4070 Ti",                               cc = "8.9", arch = "Ada" }, -- S_NV_GPUS S_TVM
  { name = "GeForce RTX 4070",                                  cc = "8.9", arch = "Ada" }, -- S_NV_GPUS
  { name = "GeForce RTX 4060 Ti",                               cc = "8.9", arch = "Ada" }, -- S_NV_GPUS
  { name = "GeForce RTX 4060",                                  cc = "8.9", arch = "Ada" }, -- S_NV_GPUS
  { name = "H100",                                              cc = "9.0", arch = "Hopper" }, -- S_NV_GPUS S_TVM S_MESON
  { name = "H200",                                              cc = "9.0", arch = "Hopper" }, -- S_NV_GPUS
  { name = "GH200",                                             cc = "9.0", arch = "Hopper" }, -- S_NV_GPUS S_HRW S_OPENBLAS_CPUID
  { name = "B200",                                              cc = "10.0", arch = "Blackwell" }, -- S_NV_GPUS S_MESON
  { name = "GB200",                                             cc = "10.0", arch = "Blackwell" }, -- S_NV_GPUS
  { name = "B300",                                              cc = "10.3", arch = "Blackwell" }, -- S_NV_GPUS S_MESON
  { name = "GB300",                                             cc = "10.3", arch = "Blackwell" }, -- S_NV_GPUS
  { name = "Jetson T5000",                                      cc = "11.0", arch = "Blackwell" }, -- S_NV_GPUS S_MESON S_JTOP S_LLVM_PR170258
  { name = "Jetson AGX Thor",                                   cc = "11.0", arch = "Blackwell" }, -- S_JTOP S_LINUX_DTS S_MESON
  { name = "Jetson T4000",                                      cc = "11.0", arch = "Blackwell" }, -- S_NV_GPUS
  { name = "RTX PRO 6000 Blackwell Server Edition",             cc = "12.0", arch = "Blackwell" }, -- S_NV_GPUS
  { name = "RTX PRO 6000 Blackwell Workstation Edition",        cc = "12.0", arch = "Blackwell" }, -- S_NV_GPUS
  { name = "RTX PRO 4000 Blackwell",                            cc = "12.0", arch = "Blackwell" }, -- S_NV_GPUS
  { name = "GeForce RTX 5090",                                  cc = "12.0", arch = "Blackwell" }, -- S_NV_GPUS
  { name = "GeForce RTX 5080",                                  cc = "12.0", arch = "Blackwell" }, -- S_NV_GPUS
  { name = "GeForce RTX 5070 Ti",                               cc = "12.0", arch = "Blackwell" }, -- S_NV_GPUS
  { name = "GeForce RTX 5070",                                  cc = "12.0", arch = "Blackwell" }, -- S_NV_GPUS
  { name = "GeForce RTX 5060 Ti",                               cc = "12.0", arch = "Blackwell" }, -- S_NV_GPUS
  { name = "GeForce RTX 5060",                                  cc = "12.0", arch = "Blackwell" }, -- S_NV_GPUS
  { name = "GeForce RTX 5050",                                  cc = "12.0", arch = "Blackwell" }, -- S_NV_GPUS
  { name = "GB10",                                              cc = "12.1", arch = "Blackwell" }, -- S_NV_GPUS S_MESON S_HRW
}

-- Jetson SoC (device-tree compatible) -> GPU compute capability
-- [S_JTOP] jetson_stats CUDA_TABLE; [S_LINUX_DTS] for the compatible strings
M.tegra = {
  tegra124 = { cc = "3.2", gpu = "Tegra K1 (Kepler)" },
  tegra210 = { cc = "5.3", gpu = "Tegra X1 (Maxwell)" },
  tegra186 = { cc = "6.2", gpu = "Tegra X2 (Pascal)" },
  tegra194 = { cc = "7.2", gpu = "Xavier (Volta)" },
  tegra234 = { cc = "8.7", gpu = "Orin (Ampere)" },
  tegra23x = { cc = "8.7", gpu = "Orin (Ampere)" },
  -- 11.0 since CUDA 13.0; CUDA 12.8-12.9 called it 10.1 [S_MESON] [S_LLVM_PR170258]
  tegra264 = { cc = "11.0", gpu = "Thor (Blackwell)" },
}

return M
