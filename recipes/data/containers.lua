-- containers: the marks by which doctor tells that it runs inside a
-- container, whether a GPU device was passed in, and which QEMU handlers
-- binfmt_misc has registered.  detect (detect.wanted) asks C to look at
-- exactly these paths; detect.environment reads the answers.
--
-- Docker creates /.dockerenv in every container [moby-dockerenv]; Podman
-- writes /run/.containerenv [podman-run]; the cgroup path of PID 1 names
-- the runtime where neither file exists (containerd, Kubernetes pods
-- under kubepods, BuildKit's RUN steps) [k8s-cgroup].  The NVIDIA
-- Container Toolkit passes /dev/nvidia0.. and /dev/nvidiactl in; Jetson's
-- integrated GPU is /dev/nvgpu [nvct-dev].  QEMU's user-mode handlers are
-- registered under /proc/sys/fs/binfmt_misc as qemu-ARCH, first line
-- "enabled" [binfmt-misc].
local M = {}

-- in order: the first that exists is the marker doctor names
M.markers = {
  { path = "/.dockerenv", runtime = "Docker" },
  { path = "/run/.containerenv", runtime = "Podman" },
}

-- words in PID 1's cgroup path, and the runtime each names
M.cgroup = {
  file = "/proc/1/cgroup",
  words = {
    { word = "docker", runtime = "Docker" },
    { word = "containerd", runtime = "containerd" },
    { word = "kubepods", runtime = "Kubernetes" },
    { word = "buildkit", runtime = "BuildKit" },
  },
}

-- any of these: a GPU device is inside
M.gpu_devices = { "/dev/nvidia0", "/dev/nvgpu", "/dev/nvidiactl" }

-- QEMU user-mode handlers of the other architecture (an "enabled" first line)
M.binfmt = {
  dir = "/proc/sys/fs/binfmt_misc",
  handlers = { "qemu-aarch64", "qemu-x86_64" },
}

-- what kind of CPU the kernel describes: an x86 vendor_id under an
-- aarch64 userland is QEMU emulation
M.cpuinfo = {
  file = "/proc/cpuinfo",
  kinds = { { key = "CPU implementer", kind = "arm" }, { key = "vendor_id", kind = "x86" } },
}

return M
