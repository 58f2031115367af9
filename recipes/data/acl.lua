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
-- ptbuild names no sha256 for v52.6.0 (none found with a source), so it
-- pins v52.8.0, the 52.x release whose archive digest it can cite, built
-- with PyTorch's flags.
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
}
