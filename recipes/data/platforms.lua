-- The platforms a build is for, by each tool's name for them: the machine
-- (uname -m), NVIDIA's redist platform, Docker's platform and TARGETARCH,
-- and the native GitHub-hosted runner that builds its image (a CUDA build
-- under QEMU emulation would take days).
--
-- Sources:
--   [rn-comp]     NVIDIA's platforms of a release: linux-x86_64,
--                 linux-sbsa (Arm servers), linux-aarch64 (Jetson)
--   [thor]        Jetson Orin keeps JetPack's CUDA (linux-aarch64); an
--                 aarch64 machine that is no Jetson runs the SBSA toolkit
--   [docker-args] Docker's automatic platform arguments: TARGETARCH is
--                 amd64 for linux/amd64 and arm64 for linux/arm64
--   [gh-runners]  GitHub-hosted runner labels: ubuntu-24.04 (x64) and
--                 ubuntu-24.04-arm (arm64)
local M = {}

-- The images a generated Dockerfile, bake file and CI workflow build, in
-- this order: one per Docker platform [docker-args] [gh-runners].
M.images = {
  { arch = "x86_64", targetarch = "amd64", platform = "linux/amd64",
    cuda_platform = "linux-x86_64", runner = "ubuntu-24.04" },
  { arch = "arm64", targetarch = "arm64", platform = "linux/arm64",
    cuda_platform = "linux-sbsa", runner = "ubuntu-24.04-arm" },
}

-- A fleet's platforms (recipes/fleet.lua names them): the Docker platform,
-- the CUDA platform its build must be for and the native runner.  A
-- Jetson has none: JetPack's CUDA is not in an image [thor].
M.fleet = {
  x86_64 = { docker = M.images[1].platform, cuda_platform = M.images[1].cuda_platform, runner = M.images[1].runner },
  sbsa = { docker = M.images[2].platform, cuda_platform = M.images[2].cuda_platform, runner = M.images[2].runner },
  jetson = { cuda_platform = "linux-aarch64" },
}

-- What `ptbuild fetch` downloads for when neither a plan nor --platform
-- says: the NVIDIA platform of this machine by uname -m.  An aarch64 host
-- is taken for an Arm server: a Jetson's CUDA comes with JetPack [thor]
-- [rn-comp].
M.fetch_default = { x86_64 = "linux-x86_64", aarch64 = "linux-sbsa" }

return M
