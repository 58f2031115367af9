-- Distribution packages for a PyTorch source build: build tools and the
-- OpenBLAS development package, for apt (Debian/Ubuntu) and dnf (RHEL,
-- Rocky, Alma, Fedora, Amazon Linux 2023).
--
-- Sources:
--   [pt-readme] pytorch/pytorch README "From Source" (cmake, ninja; Linux deps)
--   [deb]       Debian's archive (apt-cache show on Debian 12 bookworm,
--               2026-12-02): build-essential, cmake, git, ninja-build,
--               patchelf, python3-dev, python3-venv, libopenblas-openmp-dev
--               all exist; libopenblas-dev is a meta package that depends
--               on libopenblas-pthread-dev first, so it pulls the pthread
--               build, while libopenblas-openmp-dev is the OpenMP build
--               PyTorch wants (scenarios S27).  Ubuntu's archive was not
--               read; its releases carry Debian's source package names.
--   [rpm]       Fedora/EPEL package index: openblas-devel (also provides
--               openblaso, the OpenMP build), gcc-c++, ninja-build, cmake,
--               git, python3-devel, patchelf (EPEL on RHEL)
-- `python`: those of `build` that serve the distribution's python3
-- (/usr/bin/python3: its headers, its venv module) and no other Python;
-- a plan whose build runs another drops them (lib/host packages).
local managers = {
  apt = { ids = { "debian", "ubuntu", "linuxmint", "pop" },
          build = { "build-essential", "cmake", "git", "ninja-build", "patchelf", "python3-dev", "python3-venv" },
          python = { "python3-dev", "python3-venv" },
          openblas = { "libopenblas-openmp-dev" } },
  dnf = { ids = { "rhel", "rocky", "almalinux", "centos", "fedora", "amzn", "ol" },
          build = { "cmake", "gcc-c++", "git", "ninja-build", "patchelf", "python3-devel" },
          python = { "python3-devel" },
          openblas = { "openblas-devel" } },
}
return { managers = managers }
