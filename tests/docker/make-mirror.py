#!/usr/bin/env python3
"""make-mirror.py PLAN_IN PLAN_OUT MIRROR RECIPES

The mirror an air-gapped site would hold, made here from nothing but this
machine, and a plan made for it:

- CUDA and cuDNN: a redistrib manifest of its own (NVIDIA's format:
  relative_path, sha256, size per platform) for small redist trees
  (cuda_nvcc with a working `nvcc --version`, cudart, cuDNN, ...), the
  .tar.xz archives laid out as NVIDIA's, under
  MIRROR/developer.download.nvidia.com/compute/cuda/redist/.
- OpenBLAS and sccache: source and release tarballs under
  MIRROR/github.com/... at their real paths; the OpenBLAS Makefile builds
  a real shared object with the image's compiler and records the TARGET
  and flags it was given.
- PyTorch: a bare git repository MIRROR/github.com/pytorch/pytorch.git
  with the plan's tag, a submodule with an absolute https://github.com
  URL, a requirements.txt naming one package (ptb-fixture-dep) and an
  in-tree PEP 517 backend whose wheel records the build environment (a
  stand-in for the compile).
- PyPI: a PEP 503 simple index MIRROR/pypi/simple/ with that one
  package, a wheel under MIRROR/pypi/packages/ (for PIP_INDEX_URL).

PLAN_OUT is PLAN_IN with the CUDA downloads read from that manifest,
OpenBLAS built from the fixture source, and RECIPES (a copy of ptbuild's
recipes) gets sccache pins of the fixture binary: same URLs, the mirror's
sha256.  Prints nothing; fails loudly.
"""
import hashlib
import io
import json
import os
import subprocess
import sys
import tarfile

plan_in, plan_out, mirror, recipes = sys.argv[1:5]
NV = "https://developer.download.nvidia.com/compute/cuda/redist/"
VERSION = "12.4.1"


def sha(path):
    return hashlib.sha256(open(path, "rb").read()).hexdigest()


def add(tar, name, data, mode=0o644):
    info = tarfile.TarInfo(name)
    info.size, info.mode, info.mtime = len(data), mode, 1700000000
    tar.addfile(info, io.BytesIO(data))


def make_tar(path, mode, files):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with tarfile.open(path, "w:" + mode) as t:
        for name, data, m in files:
            add(t, name, data, m)


def under(url):
    assert url.startswith("https://"), url
    return os.path.join(mirror, url[len("https://"):])


# CUDA: the manifest, then the archives it names.
components = {
    "cuda_nvcc": "12.4.131", "cuda_cudart": "12.4.127", "cuda_cccl": "12.4.127",
    "cuda_nvrtc": "12.4.127", "libcublas": "12.4.5.8", "cudnn": "9.1.0.70",
}
manifest = {"release_date": "2024-04-17", "release_label": VERSION, "release_product": "cuda"}
for name, ver in components.items():
    entry = {"name": name, "license": "fixture", "version": ver}
    for plat in ("linux-x86_64", "linux-sbsa"):
        top = "%s-%s-%s_cuda12-archive" % (name, plat, ver) if name == "cudnn" else "%s-%s-%s-archive" % (name, plat, ver)
        rel = "%s/%s/%s.tar.xz" % (name, plat, top)
        files = [(top + "/LICENSE", b"fixture\n", 0o644)]
        if name == "cuda_nvcc":
            files.append((top + "/bin/nvcc", (
                "#!/bin/sh\n# fixture nvcc (%s)\n"
                "echo 'nvcc: NVIDIA (R) Cuda compiler driver'\n"
                "echo 'Cuda compilation tools, release 12.4, V%s'\n"
                "echo 'platform %s'\n" % (plat, ver, plat)).encode(), 0o755))
            files.append((top + "/include/crt/host_config.h", b"/* fixture */\n", 0o644))
        elif name == "cudnn":
            files.append((top + "/include/cudnn_version.h",
                          b"#define CUDNN_MAJOR 9\n#define CUDNN_MINOR 1\n#define CUDNN_PATCHLEVEL 0\n", 0o644))
            files.append((top + "/lib/libcudnn.so.9", b"fixture\n", 0o644))
        else:
            lib = name[3:] if name.startswith("lib") else name.replace("cuda_", "")
            files.append((top + "/include/%s.h" % lib, b"/* fixture */\n", 0o644))
            files.append((top + "/lib/lib%s.so.12" % lib, b"fixture\n", 0o644))
        path = under(NV + rel)
        # xz through the command: tarfile's lzma would do, the command is
        # what NVIDIA's archives are made with.
        raw = path[:-3]
        make_tar(raw, "", files)
        subprocess.run(["xz", "-f", "-T1", raw], check=True)
        e = {"relative_path": rel, "sha256": sha(path), "size": str(os.path.getsize(path))}
        entry[plat] = {"cuda12": e} if name == "cudnn" else e
    manifest[name] = entry
man_path = under(NV + "redistrib_%s.json" % VERSION)
with open(man_path, "w") as f:
    json.dump(manifest, f, indent=2)

plan = json.load(open(plan_in))
downloads = []
for name in components:
    for plat in ("linux-x86_64", "linux-sbsa"):
        e = manifest[name][plat]
        e = e.get("cuda12", e)
        downloads.append({"name": name, "platform": plat, "url": NV + e["relative_path"],
                          "sha256": e["sha256"], "size": int(e["size"])})
plan["cuda"]["docker_downloads"] = downloads
plan["cuda"]["downloads"] = [d for d in downloads if d["platform"] == plan["cuda"]["platform"]]
plan["facts_source"] = "ptbuild's Docker build test: fixture redist manifest " + os.path.basename(man_path)

# OpenBLAS: a source tree whose Makefile builds a real shared object.
ob_url = "https://github.com/OpenMathLib/OpenBLAS/releases/download/v0.3.28/OpenBLAS-0.3.28.tar.gz"
makefile = b"""# fixture OpenBLAS: a real shared object, and what make was told
PREFIX ?= /opt/OpenBLAS
all: libopenblas.so
libopenblas.so: blas.c
\t$(CC) -shared -fPIC -o $@ blas.c
\tprintf 'TARGET=%s\\nUSE_OPENMP=%s\\nDYNAMIC_ARCH=%s\\nNUM_THREADS=%s\\n' '$(TARGET)' '$(USE_OPENMP)' '$(DYNAMIC_ARCH)' '$(NUM_THREADS)' >build-flags
install: libopenblas.so
\tmkdir -p $(PREFIX)/lib $(PREFIX)/include
\tcp libopenblas.so $(PREFIX)/lib/
\tcp build-flags $(PREFIX)/
\tcp cblas.h $(PREFIX)/include/
"""
make_tar(under(ob_url), "gz", [
    ("OpenBLAS-0.3.28/Makefile", makefile, 0o644),
    ("OpenBLAS-0.3.28/blas.c", b"double cblas_ddot(int n) { return (double)n; }\n", 0o644),
    ("OpenBLAS-0.3.28/cblas.h", b"double cblas_ddot(int n);\n", 0o644),
])
plan["openblas"] = {"via": "source", "version": "0.3.28", "url": ob_url, "sha256": sha(under(ob_url)),
                    "target": "SKYLAKEX", "make_flags": ["USE_OPENMP=1", "NUM_THREADS=64", "DYNAMIC_ARCH=0"],
                    "prefix": "/opt/OpenBLAS", "packages": []}
json.dump(plan, open(plan_out, "w"), indent=1)

# sccache: the fixture binary at the release's URLs; the copy of the
# recipes pins the mirror's sha256.
pins = {}
for arch in ("x86_64", "aarch64"):
    url = "https://github.com/mozilla/sccache/releases/download/v0.12.0/sccache-v0.12.0-%s-unknown-linux-musl.tar.gz" % arch
    top = "sccache-v0.12.0-%s-unknown-linux-musl" % arch
    make_tar(under(url), "gz", [(top + "/sccache", b"#!/bin/sh\necho 'sccache 0.12.0'\n", 0o755)])
    pins[arch] = (url, sha(under(url)))
with open(os.path.join(recipes, "data", "sccache.lua"), "w") as f:
    f.write("-- fixture pins for the Docker build test\nreturn {\n  version = \"0.12.0\",\n  files = {\n")
    for arch, (url, digest) in pins.items():
        f.write("    %s = { url = %s, sha256 = %s },\n" % (arch, json.dumps(url), json.dumps(digest)))
    f.write("  },\n}\n")

# PyPI: one wheel and its simple-index page, the link with its sha256.
def wheel_record(files):
    import base64
    rec = "".join("%s,sha256=%s,%d\n" % (n, base64.urlsafe_b64encode(hashlib.sha256(d).digest()).rstrip(b"=").decode(), len(d))
                  for n, d in files.items())
    return rec.encode()


whl = "ptb_fixture_dep-1.0-py3-none-any.whl"
di = "ptb_fixture_dep-1.0.dist-info/"
wfiles = {
    "ptb_fixture_dep/__init__.py": b"FROM = 'the PyPI mirror'\n",
    di + "METADATA": b"Metadata-Version: 2.1\nName: ptb-fixture-dep\nVersion: 1.0\n",
    di + "WHEEL": b"Wheel-Version: 1.0\nGenerator: make-mirror.py\nRoot-Is-Purelib: true\nTag: py3-none-any\n",
}
wfiles[di + "RECORD"] = wheel_record(wfiles) + (di + "RECORD,,\n").encode()
pkgdir = os.path.join(mirror, "pypi", "packages")
os.makedirs(pkgdir, exist_ok=True)
import zipfile
with zipfile.ZipFile(os.path.join(pkgdir, whl), "w") as z:
    for n, d in wfiles.items():
        z.writestr(zipfile.ZipInfo(n, (1980, 1, 1, 0, 0, 0)), d)
page = os.path.join(mirror, "pypi", "simple", "ptb-fixture-dep")
os.makedirs(page, exist_ok=True)
with open(os.path.join(page, "index.html"), "w") as f:
    f.write('<!DOCTYPE html>\n<html><body>\n<a href="../../packages/%s#sha256=%s">%s</a>\n</body></html>\n'
            % (whl, sha(os.path.join(pkgdir, whl)), whl))
with open(os.path.join(mirror, "pypi", "simple", "index.html"), "w") as f:
    f.write('<!DOCTYPE html>\n<html><body>\n<a href="ptb-fixture-dep/">ptb-fixture-dep</a>\n</body></html>\n')

# PyTorch: a bare repository with the tag and a submodule.
tag = sys.argv[5] if len(sys.argv) > 5 else "v2.6.0"
gh = os.path.join(mirror, "github.com", "pytorch")
os.makedirs(gh, exist_ok=True)
work = os.path.join(os.path.dirname(os.path.abspath(plan_out)), "git-work")
env = dict(os.environ, GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@t", GIT_COMMITTER_NAME="t",
           GIT_COMMITTER_EMAIL="t@t", GIT_AUTHOR_DATE="1700000000 +0000", GIT_COMMITTER_DATE="1700000000 +0000")


def git(*args, cwd=None):
    subprocess.run(["git", "-c", "init.defaultBranch=main", "-c", "protocol.file.allow=always"] + list(args),
                   cwd=cwd, env=env, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


sub = os.path.join(work, "sub")
os.makedirs(sub)
open(os.path.join(sub, "SUBMODULE"), "w").write("fixture submodule\n")
git("init", "-q", sub)
git("add", ".", cwd=sub)
git("commit", "-q", "-m", "sub", cwd=sub)
git("clone", "-q", "--bare", sub, os.path.join(gh, "fixture-sub.git"))
top = os.path.join(work, "pytorch")
os.makedirs(top)
open(os.path.join(top, "requirements.txt"), "w").write("# fixture: from the PyPI mirror only\nptb-fixture-dep==1.0\n")
open(os.path.join(top, "pyproject.toml"), "w").write(
    '[build-system]\nrequires = []\nbuild-backend = "ptb_backend"\nbackend-path = ["."]\n')
open(os.path.join(top, "ptb_backend.py"), "w").write('''"""A stand-in for PyTorch's build: a wheel that records its environment."""
import base64, hashlib, json, os, subprocess, zipfile

NAME, VER = "torch", "2.6.0"


def _rec(data):
    return "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    keys = ["TORCH_CUDA_ARCH_LIST", "MAX_JOBS", "CUDA_HOME", "CUDACXX", "OpenBLAS_HOME", "VIRTUAL_ENV",
            "USE_SYSTEM_NCCL", "USE_CUDNN", "SOURCE_DATE_EPOCH", "CMAKE_C_COMPILER_LAUNCHER"]
    info = {k: os.environ.get(k) for k in keys}
    info["nvcc"] = subprocess.run([os.environ["CUDACXX"], "--version"], capture_output=True, text=True).stdout
    files = {
        "torch/build-info.json": json.dumps(info, indent=1, sort_keys=True).encode(),
        "torch-2.6.0.dist-info/METADATA": b"Metadata-Version: 2.1\\nName: torch\\nVersion: 2.6.0\\n",
        "torch-2.6.0.dist-info/WHEEL": b"Wheel-Version: 1.0\\nGenerator: ptb_backend\\nRoot-Is-Purelib: true\\nTag: py3-none-any\\n",
    }
    record = "".join("%s,%s,%d\\n" % (n, _rec(d), len(d)) for n, d in files.items())
    record += "torch-2.6.0.dist-info/RECORD,,\\n"
    files["torch-2.6.0.dist-info/RECORD"] = record.encode()
    name = "torch-2.6.0-py3-none-any.whl"
    with zipfile.ZipFile(os.path.join(wheel_directory, name), "w") as z:
        for n, d in files.items():
            z.writestr(zipfile.ZipInfo(n, (1980, 1, 1, 0, 0, 0)), d)
    return name
''')
git("init", "-q", top)
# The submodule comes from the local bare copy; .gitmodules then names
# GitHub's URL, as PyTorch's does: only the mirror can serve it.
git("submodule", "add", "-q", os.path.join(gh, "fixture-sub.git"), "third_party/fixture-sub", cwd=top)
git("config", "-f", ".gitmodules", "submodule.third_party/fixture-sub.url",
    "https://github.com/pytorch/fixture-sub.git", cwd=top)
git("add", ".", cwd=top)
git("commit", "-q", "-m", "fixture pytorch", cwd=top)
git("tag", tag, cwd=top)
bare = os.path.join(gh, "pytorch.git")
git("clone", "-q", "--bare", top, bare)
for b in (bare, os.path.join(gh, "fixture-sub.git")):
    git("config", "uploadpack.allowAnySHA1InWant", "true", cwd=b)
