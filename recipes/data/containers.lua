-- containers: the marks by which doctor tells that it runs inside a
-- container, whether a GPU device was passed in, and which QEMU handlers
-- binfmt_misc has registered.  detect (detect.wanted) asks C to look at
-- exactly these paths; detect.environment reads the answers.
--
-- Docker creates /.dockerenv in every container [moby-dockerenv]; Podman
-- writes /run/.containerenv [podman-run]; the cgroup path of PID 1 names
-- the runtime where neither file exists (containerd, Kubernetes pods
-- under kubepods, BuildKit's RUN steps) [k8s-cgroup] -- under cgroup v1
-- only: under cgroup v2 with its own cgroup namespace it reads "0::/".
-- A BuildKit RUN step (docker build since Docker 23) has no /.dockerenv
-- [buildx-dockerenv].  Two more marks then: the "container" variable a
-- container manager sets in PID 1's environment (Podman, LXC,
-- systemd-nspawn; empty: the manager hides it) [sd-container-if], and
-- an overlay file system mounted on / in the mount table of detect's own
-- process (/proc/self/mountinfo [proc-mountinfo]), which is how Docker's
-- overlay2 driver, containerd's and BuildKit's overlayfs snapshotter and
-- Podman lay out a container's root [docker-overlayfs].  The NVIDIA
-- Container Toolkit passes /dev/nvidia0.. and /dev/nvidiactl in
-- [nvct-dev]; a Jetson's GPU nodes depend on its L4T (M.jetson).  QEMU's
-- user-mode handlers are registered under /proc/sys/fs/binfmt_misc as
-- qemu-ARCH, first line "enabled" [binfmt-misc].
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

-- PID 1's environment (NUL-separated; detect hands it one variable a
-- line): a non-empty container=NAME names the runtime
M.environ = { file = "/proc/1/environ", var = "container" }

-- the mount table of detect's own process: the last mount on "/" of a
-- file system type listed here is a container's root (field 5 the mount
-- point, the type after the " - " separator [proc-mountinfo])
M.mountinfo = { file = "/proc/self/mountinfo", root_types = { "overlay" },
  -- the storage folders of container engines, as an overlay root's
  -- upperdir/lowerdir name them: with one of these the overlay is an
  -- engine's [docker-overlayfs] [containerd-root] [podman-storage]
  -- [buildkitd-root] [rootless-storage]; without, it is only likely a
  -- container (live media and overlayroot boot an overlay root too), and
  -- doctor lowers what rests on it to a warning
  engine_dirs = { "/var/lib/docker/", "/var/lib/containerd/", "/var/lib/containers/storage/",
                  "/var/lib/buildkit/", "/.local/share/docker/", "/.local/share/containers/storage/" } }

-- any of these: a discrete GPU's device is inside
M.gpu_devices = { "/dev/nvidia0", "/dev/nvidiactl" }

-- A Jetson's GPU device nodes, by L4T major: the GPU's among the "dev"
-- lines of the CSV files NVIDIA's container runtime reads in CSV mode
-- (/etc/nvidia-container-runtime/host-files-for-container.d: l4t.csv up
-- to R35, devices.csv from R36 on).  It passes in those the host has.
-- The GPU's are the nvgpu driver's (/dev/nvhost-*gpu; /dev/nvgpu/igpu0/*
-- from R35) and the OpenRM ones (/dev/nvidiaN, /dev/nvidiactl,
-- /dev/nvidia-uvm*); the CSVs' other nodes (/dev/nvmap, /dev/nvhost-ctrl,
-- host1x, display, video, DLA, PVA) serve every engine, not the GPU alone.
--   R32 (JetPack 4): nvgpu's legacy nodes only [l4t-csv-r32].
--   R35 (JetPack 5): the same, and /dev/nvgpu/igpu0/* [l4t-csv-r35].
--   R36 (JetPack 6): Orin's GPU is still nvgpu's ("Orin (nvgpu)" to NVML
--   [nvct-thor]); the CSV adds nvgpu's newer nodes and /dev/nvidia0 and
--   /dev/nvidiactl [l4t-csv-r36].
--   R38 (JetPack 7.0, 7.1: Thor alone; Orin joins in 7.2 [jp72]): Thor
--   loads no nvgpu; its GPU is an OpenRM device like a discrete one
--   (/dev/nvidia0, /dev/nvidiactl) [tegra-modules] [nvct-thor].  NVIDIA's CSV keeps R36's nvgpu nodes,
--   which no Thor has, and adds /dev/nvidia1 (a discrete GPU beside it)
--   [l4t-csv-r38]: the OpenRM ones are listed.
--   R39 (JetPack 7.2, Orin and Thor): R38's CSV and /dev/nvidia-uvm,
--   /dev/nvidia-uvm-tools [l4t-csv-r39], all of them.
-- Any node of its L4T's list means the GPU was passed in; on an L4T not
-- listed here (R34, or none read), any node of any list does.
local nvhost32 = { "/dev/nvhost-as-gpu", "/dev/nvhost-ctrl-gpu", "/dev/nvhost-dbg-gpu",
                   "/dev/nvhost-gpu", "/dev/nvhost-prof-gpu" }
local igpu35 = { "as", "channel", "ctrl", "ctxsw", "dbg", "power", "prof", "prof-ctx", "prof-dev", "tsg" }
local nvhost36 = { "/dev/nvhost-as-gpu", "/dev/nvhost-ctrl-gpu", "/dev/nvhost-ctxsw-gpu",
                   "/dev/nvhost-dbg-gpu", "/dev/nvhost-gpu", "/dev/nvhost-nvsched-gpu",
                   "/dev/nvhost-power-gpu", "/dev/nvhost-prof-ctx-gpu", "/dev/nvhost-prof-dev-gpu",
                   "/dev/nvhost-prof-gpu", "/dev/nvhost-sched-gpu", "/dev/nvhost-tsg-gpu" }
local igpu36 = { "as", "channel", "ctrl", "ctxsw", "dbg", "nvsched", "power", "prof", "prof-ctx",
                 "prof-dev", "sched", "tsg" }

local function nodes(...)
  local out = {}
  for _, part in ipairs({ ... }) do
    for _, n in ipairs(part) do out[#out + 1] = n end
  end
  return out
end
local function igpu(names)
  local out = {}
  for i, n in ipairs(names) do out[i] = "/dev/nvgpu/igpu0/" .. n end
  return out
end

M.jetson = {
  { l4t = "32", jetpack = "4", csv = "l4t.csv", nodes = nodes(nvhost32, { "/dev/nvidiactl" }) },
  { l4t = "35", jetpack = "5", csv = "l4t.csv", nodes = nodes(nvhost32, igpu(igpu35), { "/dev/nvidiactl" }) },
  { l4t = "36", jetpack = "6", csv = "devices.csv",
    nodes = nodes(nvhost36, igpu(igpu36), { "/dev/nvidia0", "/dev/nvidiactl" }) },
  { l4t = "38", jetpack = "7", csv = "devices.csv", nodes = { "/dev/nvidia0", "/dev/nvidia1", "/dev/nvidiactl" } },
  { l4t = "39", jetpack = "7.2", csv = "devices.csv",
    nodes = nodes(nvhost36, igpu(igpu36), { "/dev/nvidia-uvm", "/dev/nvidia-uvm-tools", "/dev/nvidia0",
                                            "/dev/nvidia1", "/dev/nvidiactl" }) },
}

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
