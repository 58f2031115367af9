-- The Arm Compute Library (ACL) a plan builds when oneDNN uses it
-- (USE_MKLDNN_ACL=1, ACL_ROOT_DIR): PyTorch's aarch64 wheels do.
--
-- Sources:
--   [pt-acl]  pytorch/pytorch .ci/docker/common/install_acl.sh as main
--             has it (a fork's copy of main, laifenxiawucha/pytorch
--             @159406ab; three more copies agree; pytorch/pytorch's own
--             stored version @11f118da is an old one, v23.08 from
--             review.mlplatform.org): ACL_VERSION v52.6.0, a shallow clone of the tag,
--             `scons Werror=0 debug=0 neon=1 opencl=0 embed_kernels=0
--             os=linux arch=armv8a build=native multi_isa=1
--             fixed_format_kernels=1 openmp=1 cppthreads=0`, then
--             arm_compute include utils support src build copied to /acl
--             (what oneDNN's FindACL reads under ACL_ROOT_DIR).
--   [tf-acl]  the sha256 of the GitHub source archive of tag v52.8.0, as
--             TensorFlow's and OpenXLA's Bazel rule `compute_library`
--             (tf_http_archive, strip_prefix ComputeLibrary-52.8.0) pins it;
--             two independent stored copies carry the same digest.
--   [acl-sv]  ARM-software/ComputeLibrary README: from v52.0.0 on ACL
--             versions are SemVer (52.x keeps 52.6's API).
--   [pt-acl-cd24] pytorch/builder aarch64_linux/aarch64_wheel_ci_build.py
--             on branches release/2.4 and release/2.5 (git): the CD that
--             built those releases' aarch64 wheels clones ACL v24.04
--             (release/2.4 from 2024-08-20 and release/2.5 also apply
--             a Winograd patch for Cortex-A72 SIGILLs, which ptbuild does not
--             carry); builder PR #2024 (2024-11-05) moved main to v24.09.
--   [pt-acl-cd25] pytorch/pytorch PR #147454 (2025-02-19, after 2.6's
--             release) "Update Arm Compute Library (ACL) to v25.02"; the
--             CD script .ci/aarch64_linux/aarch64_wheel_ci_build.py
--             @022b7e2b (the 2.9 cycle: it packs CUDA 13 wheels) still
--             clones v25.02; PR #165904 (2025-10) moved
--             install_acl.sh to v52.6.0 [pt-acl].  2.6 (cut 2024-12) is
--             taken to build v24.09, main's pin between #2024 and #147454.
--             The tags' own files were not read.
--   [eb-acl]  EasyBuild's ArmComputeLibrary-24.04 and -25.02 easyconfigs:
--             the sha256 of the GitHub tag archives v24.04.tar.gz and
--             v25.02.tar.gz (two 25.02 easyconfigs agree).
--   [onednn-acl] oneDNN checks the ACL it builds against: a minimum in its
--             cmake, and "oneDNN v3.3 can't build with ACL v23.11"
--             (oneDNN #1783); PyTorch's oneDNN 3.4 needed ACL 24.04
--             (builder #1807), oneDNN 3.6 ACL 24.08.1 (PyTorch #138889).
-- ptbuild names no sha256 for v52.6.0 (none found with a source), so it
-- pins v52.8.0, the 52.x release whose archive digest it can cite, built
-- with PyTorch's flags: the ACL of every release below without a row.
local TAGS = "https://github.com/ARM-software/ComputeLibrary/archive/refs/tags/"

return {
  version = "v52.8.0",                                                           -- [tf-acl]
  url = "https://github.com/ARM-software/ComputeLibrary/archive/refs/tags/v52.8.0.tar.gz", -- [tf-acl]
  sha256 = "1bceef23aa5b3cc7321cf80e0729e87482f12544b107cdabffb88a6a52aa4adc",  -- [tf-acl]
  root = "/opt/acl",
  scons_flags = { "Werror=0", "debug=0", "neon=1", "opencl=0", "embed_kernels=0", "os=linux",
                  "arch=armv8a", "build=native", "multi_isa=1", "fixed_format_kernels=1",
                  "openmp=1", "cppthreads=0" },                                 -- [pt-acl]
  -- what oneDNN reads under ACL_ROOT_DIR, copied from the source tree [pt-acl]
  install_dirs = { "arm_compute", "include", "utils", "support", "src", "build" },
  -- Per PyTorch minor, the ACL its aarch64 CD built (cd), so that an older
  -- release's oneDNN meets the ACL API it was written for [onednn-acl]:
  -- the archive of that tag, with its sha256 where a source gives one
  -- (none: the plan says so and setup.sh / the Dockerfile print the
  -- digest they got instead of checking it).  2.10's CD used v52.6.0
  -- [pt-acl]; it and the newer releases build the 52.x pin above.
  releases = {
    ["2.4"] = { cd = "v24.04", url = TAGS .. "v24.04.tar.gz",                             -- [pt-acl-cd24]
                sha256 = "6d7aebfa9be74d29ecd2dbeb17f69e00c667c36292401f210121bf26a30b38a5" }, -- [eb-acl]
    ["2.5"] = { cd = "v24.04", url = TAGS .. "v24.04.tar.gz",                             -- [pt-acl-cd24]
                sha256 = "6d7aebfa9be74d29ecd2dbeb17f69e00c667c36292401f210121bf26a30b38a5" }, -- [eb-acl]
    ["2.6"] = { cd = "v24.09", url = TAGS .. "v24.09.tar.gz" },                          -- [pt-acl-cd24] [pt-acl-cd25]
    ["2.7"] = { cd = "v25.02", url = TAGS .. "v25.02.tar.gz",                             -- [pt-acl-cd25]
                sha256 = "339376cd05b5efe83a3909333956d7663022f0dd8c7977a35e04b35551546be6" }, -- [eb-acl]
    ["2.8"] = { cd = "v25.02", url = TAGS .. "v25.02.tar.gz",                             -- [pt-acl-cd25]
                sha256 = "339376cd05b5efe83a3909333956d7663022f0dd8c7977a35e04b35551546be6" }, -- [eb-acl]
    ["2.9"] = { cd = "v25.02", url = TAGS .. "v25.02.tar.gz",                             -- [pt-acl-cd25]
                sha256 = "339376cd05b5efe83a3909333956d7663022f0dd8c7977a35e04b35551546be6" }, -- [eb-acl]
  },
}
