-- The packages the Docker image generate writes installs for a PyTorch
-- source build (templates/Dockerfile.in, its first layer), and the
-- Ubuntu and Debian releases it builds on.
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
--   [debian-image] deb.debian.org, bookworm (12) and trixie (13) main,
--                amd64 and arm64 (apt-cache madison after apt-get update
--                from a private sources list, 2026-12-02): every name
--                below is in both; python3 3.11.2 and 3.13.5, libc6 2.36
--                and 2.41; Docker Hub's official debian image is tagged
--                by codename
--   [pt-acl]     ACL is built with scons
return {
  -- The releases the image builds on, by os-release ID and VERSION_ID:
  -- the base image, and the Python and glibc a wheel built there is for
  -- [ubuntu] [debian-image].  A plan for a machine on one of them gets
  -- its base image; any other gets the first.
  bases = {
    { os_id = "ubuntu", version = "22.04", image = "ubuntu:22.04", name = "Ubuntu 22.04", python = "3.10", glibc = "2.35" },
    { os_id = "ubuntu", version = "24.04", image = "ubuntu:24.04", name = "Ubuntu 24.04", python = "3.12", glibc = "2.39" },
    { os_id = "debian", version = "12", image = "debian:bookworm", name = "Debian 12", python = "3.11", glibc = "2.36" },
    { os_id = "debian", version = "13", image = "debian:trixie", name = "Debian 13", python = "3.13", glibc = "2.41" },
  },
  -- Always: the build tools [pt-readme] [deb] [ubuntu] [debian-image]; ca-certificates and curl
  -- fetch the pinned archives, xz-utils unpacks NVIDIA's .tar.xz ones,
  -- libnuma-dev gives PyTorch its NUMA support.
  apt = { "build-essential", "ca-certificates", "curl", "git", "ninja-build", "python3-dev",
          "python3-pip", "python3-venv", "xz-utils", "libnuma-dev" },
  -- When the plan pins no OpenBLAS source to build [deb] [debian-image]
  apt_openblas = "libopenblas-dev",
  -- When an arm64 image builds the Arm Compute Library [pt-acl] [debian-image]
  apt_acl = "scons",
  -- The compiler cache unless sccache is asked for: PyTorch's CMake uses
  -- ccache when it finds it (USE_CCACHE defaults on) [deb] [debian-image]
  apt_ccache = "ccache",
}
