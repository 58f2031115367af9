-- The Ubuntu packages the Docker image generate writes installs for a
-- PyTorch source build (templates/Dockerfile.in, its first layer).
--
-- Sources:
--   [pt-readme]  the tools a source build needs: a C++ compiler, git,
--                ninja, Python's headers, pip and a virtual environment
--   [deb]        the package of each: every name exists in Debian 12's
--                archive (apt-cache show, 2026-12-02)
--   [ubuntu]     packages.ubuntu.com, jammy (22.04) and noble (24.04):
--                every name below is in main or universe of both; the
--                python3 of each (python3 3.10.6 in jammy, 3.12.3 in
--                noble) and its libc6 (2.35, 2.39)
--   [pt-acl]     ACL is built with scons
return {
  -- The Ubuntu releases the image builds on, by os-release VERSION_ID,
  -- with the Python and glibc a wheel built there is for [ubuntu].  A
  -- plan for a machine on one of them gets its base image; any other
  -- gets the first.
  ubuntu = {
    { version = "22.04", python = "3.10", glibc = "2.35" },
    { version = "24.04", python = "3.12", glibc = "2.39" },
  },
  -- Always: the build tools [pt-readme] [deb] [ubuntu]; ca-certificates and curl
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
