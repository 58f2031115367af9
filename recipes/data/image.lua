-- The Ubuntu packages the Docker image generate writes installs for a
-- PyTorch source build (templates/Dockerfile.in, its first layer).
--
-- Sources:
--   [pt-readme]  the tools a source build needs: a C++ compiler, git,
--                ninja, Python's headers, pip and a virtual environment
--   [deb]        the package of each: every name exists in Debian 12's
--                archive (apt-cache show, 2026-12-02); Ubuntu's archive,
--                which the default ubuntu:22.04 base uses, was not read
--   [pt-acl]     ACL is built with scons
return {
  -- Always: the build tools [pt-readme] [deb]; ca-certificates and curl
  -- fetch the pinned archives, xz-utils unpacks NVIDIA's .tar.xz ones,
  -- libnuma-dev gives PyTorch its NUMA support.
  apt = { "build-essential", "ca-certificates", "curl", "git", "ninja-build", "python3-dev",
          "python3-pip", "python3-venv", "xz-utils", "libnuma-dev" },
  -- When the plan pins no OpenBLAS source to build [deb]
  apt_openblas = "libopenblas-dev",
  -- When an arm64 image builds the Arm Compute Library [pt-acl]
  apt_acl = "scons",
  -- The compiler cache unless sccache is asked for: PyTorch's CMake uses
  -- ccache when it finds it (USE_CCACHE defaults on) [deb]
  apt_ccache = "ccache",
}
