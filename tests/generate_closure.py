#!/usr/bin/env python3
"""generate_closure.py - the dependency closure of generate's outputs.

usage: generate_closure.py PTBUILD WORKDIR PROFILE.json...

For every profile, with and without --sccache: `ptbuild generate` writes
every output, then each variable the build environment names must be
held by the facts, made by a step, or off with the plan's reason:

  setup.sh side: ptbuild.env's variables against the facts, the plan and
      the steps `setup.sh --dry-run` prints;
  image side, for TARGETARCH amd64 and arm64: the Dockerfile's ENV lines
      plus what its build RUN exports for that architecture (run with sh,
      the final pip replaced by a stub that prints the environment),
      against the Dockerfile's own steps.

A variable ptbuild does not know at all is a finding too: a new one must
get a rule here before it can ship.  Prints one line per finding and a
count line; exits 1 on any finding.
"""
import json
import os
import re
import subprocess
import sys

# Variables that name no dependency of their own (flags, lists, numbers,
# paths that another rule checks).
PLAIN = {"TORCH_CUDA_ARCH_LIST", "USE_CUDA", "USE_MKLDNN", "USE_MAGMA", "BUILD_TEST", "MAX_JOBS",
         "CUDA_PATH", "CUDACXX", "BLAS", "USE_PRIORITIZED_TEXT_FOR_LD", "USE_CCACHE", "USE_NCCL",
         "CMAKE_SHARED_LINKER_FLAGS", "CUDAHOSTCXX", "SCCACHE_BUCKET", "SCCACHE_REGION",
         "SCCACHE_REDIS_ENDPOINT", "SCCACHE_DIST_SCHEDULER_URL"}
RULED = {"CUDA_HOME", "USE_CUDNN", "USE_SYSTEM_NCCL", "NCCL_ROOT", "USE_MKLDNN_ACL", "ACL_ROOT_DIR",
         "OpenBLAS_HOME", "CMAKE_C_COMPILER_LAUNCHER", "CMAKE_CXX_COMPILER_LAUNCHER",
         "CMAKE_CUDA_COMPILER_LAUNCHER"}
LAUNCHERS = ("CMAKE_C_COMPILER_LAUNCHER", "CMAKE_CXX_COMPILER_LAUNCHER", "CMAKE_CUDA_COMPILER_LAUNCHER")


def env_file(path):
    env = {}
    for line in open(path):
        m = re.match(r"^export ([A-Za-z_][A-Za-z0-9_]*)='(.*)'$", line.rstrip("\n"))
        if m:
            env[m.group(1)] = m.group(2).replace("'\\''", "'")
    return env


def decided(plan, topic):
    return any(d.get("topic") == topic for d in plan.get("decisions", []))


def setup_side(plan, facts, env, dry, bad):
    root = plan["cuda"]["root"]
    tk = next((t for t in facts.get("toolkits", []) if t.get("root") == root), {})
    for name in env:
        if name not in PLAIN and name not in RULED:
            bad.append("setup: %s has no rule (is it made by a step?)" % name)
    if env.get("CUDA_HOME") != root or "setup: CUDA:" not in dry:
        bad.append("setup: CUDA_HOME=%s without a CUDA step for %s" % (env.get("CUDA_HOME"), root))
    if env.get("USE_CUDNN") == "1":
        fetched = (plan["cuda"].get("cudnn") or {}).get("source") == "download" and \
            ("ptbuild fetch --plan" in dry or "is there" in dry)
        if not (fetched or tk.get("cudnn") or plan["cuda"]["source"] == "jetpack"):
            bad.append("setup: USE_CUDNN=1, but no cuDNN in the facts or a step")
    if env.get("USE_SYSTEM_NCCL") == "1":
        if not tk.get("nccl") or env.get("NCCL_ROOT") != root:
            bad.append("setup: USE_SYSTEM_NCCL=1, but the facts hold no NCCL in %s" % env.get("NCCL_ROOT"))
    elif not decided(plan, "nccl"):
        bad.append("setup: NCCL is off without the plan's reason")
    if env.get("USE_MKLDNN_ACL") == "1":
        r = env.get("ACL_ROOT_DIR", "")
        if "setup: ACL: building" not in dry or ("cp -R " not in dry) or (" %s/" % r) not in dry \
                or "+ scons " not in dry or "verify sha256" not in dry:
            bad.append("setup: USE_MKLDNN_ACL=1, but no step builds ACL into %s" % r)
    elif "USE_MKLDNN_ACL" in env and not decided(plan, "acl"):
        bad.append("setup: ACL is off without the plan's reason")
    if "OpenBLAS_HOME" in env:
        ob = plan.get("openblas", {})
        if ob.get("via") == "source":
            if "OpenBLAS: building" not in dry or "PREFIX=%s " % env["OpenBLAS_HOME"] not in dry + " ":
                bad.append("setup: OpenBLAS_HOME=%s, but no step builds OpenBLAS there" % env["OpenBLAS_HOME"])
        elif ob.get("via") == "package":
            first = dry.split("\n", 1)[0]
            if not all(p in first.split() for p in ob.get("packages", [])) or env["OpenBLAS_HOME"] != "/usr":
                bad.append("setup: OpenBLAS_HOME=%s, but its package is not installed" % env["OpenBLAS_HOME"])
        else:
            bad.append("setup: OpenBLAS_HOME without OpenBLAS")
    for n in LAUNCHERS:
        if env.get(n) == "sccache" and "setup: sccache:" not in dry:
            bad.append("setup: %s=sccache, but nothing installs sccache" % n)


def docker_env(dockerfile, work, arch):
    """The environment the build RUN sees for TARGETARCH=arch."""
    text = open(dockerfile).read().replace("\\\n", "")
    env = {}
    for line in text.split("\n"):
        m = re.match(r'^ENV ([A-Za-z_][A-Za-z0-9_]*)="(.*)"$', line)
        if m and "${" not in m.group(2):
            env[m.group(1)] = m.group(2).replace('\\"', '"').replace("\\\\", "\\")
    run = [l[4:] for l in text.split("\n") if l.startswith("RUN ") and "pip wheel" in l][0]
    body = re.sub(r"^(\s*--[a-z-]+=\S+)*\s*", "", run)
    stubs = os.path.join(work, "stubs")
    os.makedirs(stubs, exist_ok=True)
    with open(os.path.join(stubs, "python"), "w") as f:
        f.write("#!/bin/sh\nenv\n")
    with open(os.path.join(stubs, "nproc"), "w") as f:
        f.write("#!/bin/sh\necho 8\n")
    for s in ("python", "nproc"):
        os.chmod(os.path.join(stubs, s), 0o755)
    r = subprocess.run(["sh", "-eu", "-c", body], capture_output=True, text=True,
                       env={"PATH": stubs + ":/usr/bin:/bin", "TARGETARCH": arch})
    if r.returncode != 0:
        return None, env, text
    run_env = dict(l.split("=", 1) for l in r.stdout.splitlines() if "=" in l)
    for k in list(run_env):
        if k in ("PATH", "PWD", "SHLVL", "_", "TARGETARCH", "OLDPWD"):
            del run_env[k]
    run_env.update({k: v for k, v in env.items() if k not in run_env})
    return run_env, env, text


def case_branch(text, marker, arch):
    """The `arch)` branch of the RUN whose text holds marker."""
    run = [l for l in text.split("\n") if l.startswith("RUN ") and marker in l][0]
    m = re.search(r"\b%s\)(.*?);;" % arch, run)
    return (m.group(1) if m else ""), run


def docker_side(plan, dockerfile, work, bad, notes):
    for arch in ("amd64", "arm64"):
        env, env_lines, text = docker_env(dockerfile, work, arch)
        if env is None:
            bad.append("image %s: the build RUN fails" % arch)
            continue
        for name in env:
            if name.isupper() or "_" in name:
                if name not in PLAIN and name not in RULED and name not in ("VIRTUAL_ENV", "LD_LIBRARY_PATH",
                                                                              "SOURCE_DATE_EPOCH", "DEBIAN_FRONTEND", "HOME"):
                    bad.append("image %s: %s has no rule" % (arch, name))
        if "MAX_JOBS" in env_lines:
            bad.append("image: MAX_JOBS is fixed by an ENV line")
        cuda, _ = case_branch(text, "sha256sum -c", arch)
        if "cuda_nvcc" not in cuda:
            # No toolkit for this platform: the step must stop the build,
            # and generate must have said so.
            plat = "linux-x86_64" if arch == "amd64" else "linux-sbsa"
            if ("the plan has no CUDA downloads for %s" % plat) not in notes or \
                    'no CUDA downloads for $TARGETARCH" >&2; exit 1' not in text:
                bad.append("image %s: no CUDA pieces, and neither a stop nor a note" % arch)
            continue
        if env.get("CUDA_HOME") and ("mkdir -p '%s'" % env["CUDA_HOME"] not in text or "https://" not in cuda):
            bad.append("image %s: CUDA_HOME=%s without CUDA pieces" % (arch, env.get("CUDA_HOME")))
        if env.get("USE_CUDNN") == "1" and "/cudnn/" not in cuda:
            bad.append("image %s: USE_CUDNN=1 without cuDNN" % arch)
        if env.get("USE_SYSTEM_NCCL") == "1" or "NCCL_ROOT" in env:
            bad.append("image %s: a system NCCL, and nothing installs one" % arch)
        acl, acl_run = case_branch(text, "no ACL setting", arch)
        if env.get("USE_MKLDNN_ACL") == "1":
            if arch != "arm64" or "acl=1" not in acl or \
                    ("cp -R \"/tmp/acl/$d\" '%s'/" % env.get("ACL_ROOT_DIR")) not in acl_run:
                bad.append("image %s: USE_MKLDNN_ACL=1, but no step builds ACL into %s" % (arch, env.get("ACL_ROOT_DIR")))
        elif "acl=1" in acl:
            bad.append("image %s: builds ACL that the build does not use" % arch)
        if "max-page-size" in env.get("CMAKE_SHARED_LINKER_FLAGS", "") and arch != "arm64":
            bad.append("image %s: the arm64 page-size linker flag" % arch)
        if "OpenBLAS_HOME" in env:
            built = "# 3. OpenBLAS" in text and ("PREFIX='%s'" % env["OpenBLAS_HOME"]) in text
            pkg = "libopenblas-openmp-dev" in text and env["OpenBLAS_HOME"] == "/usr"
            if not (built or pkg):
                bad.append("image %s: OpenBLAS_HOME=%s without OpenBLAS there" % (arch, env["OpenBLAS_HOME"]))
        sc = any(env.get(n) == "sccache" for n in LAUNCHERS)
        if sc:
            branch, _ = case_branch(text, "/tmp/sccache.tar.gz", arch) if "/tmp/sccache.tar.gz" in text else ("", "")
            if "sccache" not in branch:
                bad.append("image %s: the sccache launcher, and nothing installs sccache" % arch)


def main():
    ptbuild, work = sys.argv[1], sys.argv[2]
    findings, cases = [], 0
    for prof in sys.argv[3:]:
        name = os.path.basename(prof)[:-5]
        facts = json.load(open(prof))
        for extra in ([], ["--sccache"]):
            cases += 1
            out = os.path.join(work, name + ("-sccache" if extra else ""))
            r = subprocess.run([ptbuild, "generate", "--profile", name, "--out", out] + extra,
                               capture_output=True, text=True)
            bad = []
            if r.returncode != 0:
                bad.append("generate exits %d: %s" % (r.returncode, r.stderr[:200]))
            else:
                plan = json.load(open(os.path.join(out, "plan.json")))
                env = env_file(os.path.join(out, "ptbuild.env"))
                d = subprocess.run(["sh", os.path.join(out, "setup.sh"), "--dry-run"], capture_output=True,
                                   text=True, env={"PATH": "/usr/bin:/bin", "TMPDIR": work})
                setup_side(plan, facts, env, d.stdout + d.stderr, bad)
                docker_side(plan, os.path.join(out, "Dockerfile"), work, bad, r.stderr)
            for b in bad:
                findings.append("%s%s: %s" % (name, " --sccache" if extra else "", b))
    for f in findings:
        print(f)
    print("%d cases (profiles x with/without sccache), every output: %d findings" % (cases, len(findings)))
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
