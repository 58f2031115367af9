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
--   [debian-gcc] deb.debian.org bookworm and trixie main (with -updates
--                and -security), amd64 and arm64 alike, apt-cache
--                depends/madison from a private sources list, 2026-12-02:
--                build-essential's g++ is g++-12 12.2.0-14+deb12u1 and
--                g++-14 14.2.0-19; the versioned g++ packages are g++-11
--                11.3.0-12 and g++-12 in bookworm, g++-12 12.4.0-5,
--                g++-13 13.3.0-16 and g++-14 in trixie
--   [ubuntu-gcc] packages.ubuntu.com, jammy(-updates) and noble(-updates):
--                g++ 4:11.2.0-1ubuntu1 depends on g++-11, g++ 4:13.2.0-
--                7ubuntu1 on g++-13; gcc-11 11.4.0-1ubuntu1~22.04.3 in
--                jammy-updates and gcc-13 13.3.0-6ubuntu2~24.04 in
--                noble-updates for amd64 and arm64 alike (what the image's
--                apt installs: its sources list has -updates); gcc-12
--                12.3.0 in jammy-updates, gcc-11 11.5.0, gcc-12 12.4.0 and
--                g++-14 14.2.0 in noble-updates (universe), each for amd64
--                and arm64; archive.ubuntu.com's amd64 indexes (apt-cache
--                madison, 2026-12-02) agree and list g++-9 and g++-10 as
--                well, which no page read shows for arm64: they are left
--                out (unknown, not absent)
return {
  -- The releases the image builds on, by os-release ID and VERSION_ID:
  -- the base image, and the Python and glibc a wheel built there is for
  -- [ubuntu] [debian-image].  A plan for a machine on one of them gets
  -- its base image; any other gets the first.
  -- gcc: the full version of the g++ build-essential installs there, the
  -- same for amd64 and arm64 (a table by TARGETARCH where it is not);
  -- gxx: the versioned g++-N packages its archive offers, by major, with
  -- the full version each installs [ubuntu-gcc] [debian-gcc].
  bases = {
    { os_id = "ubuntu", version = "22.04", image = "ubuntu:22.04", name = "Ubuntu 22.04", python = "3.10", glibc = "2.35",
      gcc = "11.4.0", gxx = { ["11"] = "11.4.0", ["12"] = "12.3.0" } },
    { os_id = "ubuntu", version = "24.04", image = "ubuntu:24.04", name = "Ubuntu 24.04", python = "3.12", glibc = "2.39",
      gcc = "13.3.0", gxx = { ["11"] = "11.5.0", ["12"] = "12.4.0", ["13"] = "13.3.0", ["14"] = "14.2.0" } },
    { os_id = "debian", version = "12", image = "debian:bookworm", name = "Debian 12", python = "3.11", glibc = "2.36",
      gcc = "12.2.0", gxx = { ["11"] = "11.3.0", ["12"] = "12.2.0" } },
    { os_id = "debian", version = "13", image = "debian:trixie", name = "Debian 13", python = "3.13", glibc = "2.41",
      gcc = "14.2.0", gxx = { ["12"] = "12.4.0", ["13"] = "13.3.0", ["14"] = "14.2.0" } },
  },
  -- Always: the build tools [pt-readme] [deb] [ubuntu] [debian-image]; ca-certificates and curl
  -- fetch the pinned archives, xz-utils unpacks NVIDIA's .tar.xz ones,
  -- libnuma-dev gives PyTorch its NUMA support.
  apt = { "build-essential", "ca-certificates", "curl", "git", "ninja-build", "python3-dev",
          "python3-pip", "python3-venv", "xz-utils", "libnuma-dev" },
  -- When the plan pins no OpenBLAS source to build [deb] [debian-image]:
  -- the OpenMP build, as the host plan's packages (data/packages.lua) and
  -- PyTorch's own CD build (USE_OPENMP=1) use; libopenblas-dev would pull
  -- libopenblas-pthread-dev first, whose threads fight PyTorch's OpenMP
  -- ("Detect OpenMP Loop and this application may hang").  Its -dev
  -- package sets the libopenblas.so alternative PyTorch's FindOpenBLAS
  -- finds (postinst of libopenblas-openmp-dev 0.3.21+ds-4, bookworm).
  apt_openblas = "libopenblas-openmp-dev",
  -- When an arm64 image builds the Arm Compute Library [pt-acl] [debian-image]
  apt_acl = "scons",
  -- The compiler cache unless sccache is asked for: PyTorch's CMake uses
  -- ccache when it finds it (USE_CCACHE defaults on) [deb] [debian-image]
  apt_ccache = "ccache",
}
