-- Distribution packages for a PyTorch source build: build tools and the
-- OpenBLAS development package, for apt (Debian/Ubuntu) and dnf (RHEL,
-- Rocky, Alma, Fedora, Amazon Linux 2023).
--
-- Sources:
--   [pt-readme] pytorch/pytorch README "From Source" (cmake, ninja; Linux deps)
--   [deb]       packages.debian.org / packages.ubuntu.com: libopenblas-dev
--               (pulls the pthread variant; libopenblas-openmp-dev is the
--               OpenMP build PyTorch wants, scenarios S27), build-essential,
--               ninja-build, cmake, git, python3-dev, python3-venv, patchelf
--   [rpm]       Fedora/EPEL package index: openblas-devel (also provides
--               openblaso, the OpenMP build), gcc-c++, ninja-build, cmake,
--               git, python3-devel, patchelf (EPEL on RHEL)
local managers = {
  apt = { ids = { "debian", "ubuntu", "linuxmint", "pop" },
          build = { "build-essential", "cmake", "git", "ninja-build", "patchelf", "python3-dev", "python3-venv" },
          openblas = { "libopenblas-openmp-dev" }, gcc = "g++-%d" },
  dnf = { ids = { "rhel", "rocky", "almalinux", "centos", "fedora", "amzn", "ol" },
          build = { "cmake", "gcc-c++", "git", "ninja-build", "patchelf", "python3-devel" },
          openblas = { "openblas-devel" }, gcc = "gcc-toolset-%d-gcc-c++" },
}
return { managers = managers }
