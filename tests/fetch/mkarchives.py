#!/usr/bin/env python3
"""mkarchives.py - build fetch fixtures: NVIDIA-style component archives
and manifests, or hostile archives with lock files.

  mkarchives.py good DIR [--components N] [--kib K] [--platform P] [--version V]
                         [--names cuda_nvcc,cuda_cccl,...]   (names instead of compNN)
      DIR/<comp>/<plat>/<comp>-<plat>-<ver>-archive.tar.xz (and one .tar.gz),
      DIR/redistrib_<label>.json, DIR/manifest-corrupt.json (one archive
      served with a flipped byte), DIR/manifest-size.json (one size off).
  mkarchives.py hostile DIR OUTSIDE
      DIR/hNN-<what>.tar.gz and DIR/hNN-<what>.lock (file:// URLs), each
      aiming at OUTSIDE.
"""
import hashlib
import io
import json
import os
import random
import sys
import tarfile
import zipfile


def text_bytes(rng, n):
    # Compressible like real libraries (xz gets ~3x), not all zeros.
    words = [bytes(rng.choice(b"abcdefghijklmnopqrstuvwxyz_0123456789") for _ in range(rng.randint(3, 12))) for _ in range(512)]
    out = bytearray()
    while len(out) < n:
        out += rng.choice(words) + (b"\n" if rng.random() < 0.1 else b" ")
        if rng.random() < 0.02:
            out += rng.randbytes(rng.randint(16, 200))
    return bytes(out[:n])


def add_file(t, name, data, mode=0o644):
    ti = tarfile.TarInfo(name)
    ti.size = len(data)
    ti.mode = mode
    ti.mtime = 1700000000
    t.addfile(ti, io.BytesIO(data))


def add_dir(t, name):
    ti = tarfile.TarInfo(name)
    ti.type = tarfile.DIRTYPE
    ti.mode = 0o755
    ti.mtime = 1700000000
    t.addfile(ti)


def add_link(t, name, target, kind=tarfile.SYMTYPE):
    ti = tarfile.TarInfo(name)
    ti.type = kind
    ti.linkname = target
    ti.mode = 0o777
    ti.mtime = 1700000000
    t.addfile(ti)


def sha(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for b in iter(lambda: f.read(1 << 20), b""):
            h.update(b)
    return h.hexdigest()


def good(d, ncomp, kib, plat, label, names=None):
    rng = random.Random(42)
    if names:
        ncomp = len(names)
    os.makedirs(d, exist_ok=True)
    man = {"release_date": "2024-04-03", "release_label": label, "release_product": "cuda"}
    for i in range(ncomp):
        comp = names[i] if names else ("comp%02d" % i if i else "cuda_nvcc")
        ver = "%s.%d" % (label, 100 + i)
        gz = i == 1
        ext = "tar.gz" if gz else "tar.xz"
        top = "%s-%s-%s-archive" % (comp, plat, ver)
        rel = "%s/%s/%s.%s" % (comp, plat, top, ext)
        path = os.path.join(d, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with tarfile.open(path, "w:gz" if gz else "w:xz") as t:
            add_dir(t, top)
            add_file(t, top + "/LICENSE", b"license of %s\n" % comp.encode())
            add_dir(t, top + "/include")
            add_file(t, top + "/include/%s.h" % comp, b"/* %s */\n" % comp.encode())
            add_dir(t, top + "/lib")
            libname = "lib%s.so.%s" % (comp, ver)
            add_file(t, top + "/lib/" + libname, text_bytes(rng, kib * 1024), 0o755)
            add_link(t, top + "/lib/lib%s.so" % comp, libname)
            if comp == "cuda_nvcc":
                add_dir(t, top + "/bin")
                add_file(t, top + "/bin/nvcc", b"#!/bin/sh\necho 'Cuda compilation tools, release %s'\n" % label.encode(), 0o755)
        man[comp] = {
            "name": "Component %s" % comp, "license": "CUDA Toolkit", "version": ver,
            plat: {"relative_path": rel, "sha256": sha(path),
                   "md5": hashlib.md5(open(path, "rb").read()).hexdigest(),
                   "size": str(os.path.getsize(path))},
        }
    with open(os.path.join(d, "redistrib_%s.json" % label), "w") as f:
        json.dump(man, f, indent=4)
    # One archive served with a flipped byte, sha256 of the original.
    first = [k for k in man if not k.startswith("release")][0]
    e = man[first][plat]
    data = bytearray(open(os.path.join(d, e["relative_path"]), "rb").read())
    data[len(data) // 2] ^= 0x40
    bad_rel = e["relative_path"] + ".corrupt"
    open(os.path.join(d, bad_rel), "wb").write(data)
    corrupt = json.loads(json.dumps(man))
    corrupt[first][plat]["relative_path"] = bad_rel
    json.dump(corrupt, open(os.path.join(d, "manifest-corrupt.json"), "w"), indent=4)
    wrong = json.loads(json.dumps(man))
    wrong[first][plat]["size"] = str(int(e["size"]) + 1)
    json.dump(wrong, open(os.path.join(d, "manifest-size.json"), "w"), indent=4)
    small = json.loads(json.dumps(man))
    small[first][plat]["size"] = str(int(e["size"]) - 100)
    json.dump(small, open(os.path.join(d, "manifest-small.json"), "w"), indent=4)


def hostile(d, outside):
    os.makedirs(d, exist_ok=True)
    T = "top"
    cases = []

    def case(name, build, level=9):
        path = os.path.join(d, name + ".tar.gz")
        with tarfile.open(path, "w:gz", compresslevel=level, format=tarfile.GNU_FORMAT) as t:
            add_dir(t, T)
            add_dir(t, T + "/lib")
            add_file(t, T + "/lib/ok.so", b"fine\n")
            build(t)
        cases.append((name, path))

    case("h01-dotdot", lambda t: add_file(t, T + "/../../../outside/dotdot.txt", b"x"))
    case("h02-absolute", lambda t: add_file(t, outside + "/absolute.txt", b"x"))
    case("h03-symlink-escape", lambda t: add_link(t, T + "/lib/evil", "../../../outside"))
    case("h04-symlink-absolute", lambda t: add_link(t, T + "/lib/evil", outside + "/sentinel"))

    def through(t):
        add_link(t, T + "/lib/d", ".")          # stays inside ...
        add_file(t, T + "/lib/d/through.txt", b"x")  # ... but written through
    case("h05-write-through-symlink", through)

    def plant(t):
        add_link(t, T + "/lib/plant", "../../../..%s" % outside)
        add_file(t, T + "/lib/plant/planted.txt", b"x")
    case("h06-plant-and-write", plant)
    case("h07-hardlink-escape", lambda t: add_link(t, T + "/lib/hl", "../../outside/sentinel", tarfile.LNKTYPE))
    case("h08-hardlink-absolute", lambda t: add_link(t, T + "/lib/hl", outside + "/sentinel", tarfile.LNKTYPE))

    def hl_sym(t):
        add_link(t, T + "/lib/s", "ok.so")
        add_link(t, T + "/lib/h", T + "/lib/s", tarfile.LNKTYPE)
    case("h09-hardlink-to-symlink", hl_sym)

    def dev(t):
        ti = tarfile.TarInfo(T + "/lib/null")
        ti.type = tarfile.CHRTYPE
        ti.devmajor, ti.devminor = 1, 3
        t.addfile(ti)
    case("h10-device-node", dev)

    def fifo(t):
        ti = tarfile.TarInfo(T + "/lib/fifo")
        ti.type = tarfile.FIFOTYPE
        t.addfile(ti)
    case("h11-fifo", fifo)

    def many(t):
        for i in range(300):
            add_file(t, T + "/lib/f%04d" % i, b"")
    case("h12-entry-count", many)

    def bomb(t):
        ti = tarfile.TarInfo(T + "/lib/zeros")
        ti.size = 24 << 20
        t.addfile(ti, io.BytesIO(bytes(24 << 20)))
    case("h13-bomb", bomb, 1)

    def two_tops(t):
        add_dir(t, "other")
        add_file(t, "other/x", b"x")
    case("h14-two-top-folders", two_tops)
    case("h15-chain-dotdot", lambda t: add_link(t, T + "/lib/a", "x/../../../outside"))

    def setuid(t):
        add_file(t, T + "/bin-suid", b"#!/bin/sh\n", 0o4777)
    case("h16-setuid-mode", setuid)   # not refused: installed without set-id bits

    # A symlink spelled with a trailing "/" or "/." counted one level
    # deeper than libarchive writes it.
    case("h17-symlink-trailing-slash", lambda t: add_link(t, T + "/lib/libevil.so/", "../../outside/sentinel"))
    case("h18-symlink-trailing-dot", lambda t: add_link(t, T + "/lib//libevil.so/.", "../../outside/sentinel"))

    def share_file(t):
        # The LICENSE entry cannot go to share/licenses/: the error must
        # name the entry as the archive spells it.
        add_file(t, T + "/share", b"x")
        add_file(t, T + "/LICENSE", b"license\n")
    case("h19-license-blocked", share_file)
    # Not refused: a LICENSE under a short top folder lands in
    # share/licenses/<name>/ (its name outgrows the entry's buffer).
    case("h20-license-short-top", lambda t: add_file(t, T + "/LICENSE", b"license\n"))

    # Not a tar: refused with libarchive's reason and no unrelated errno.
    zpath = os.path.join(d, "h21-zip.zip")
    with zipfile.ZipFile(zpath, "w") as z:
        z.writestr(T + "/lib/ok.so", "fine\n")
    cases.append(("h21-zip", zpath))

    for name, path in cases:
        lock = {"schema": "ptbuild.lock/1", "platform": "linux-x86_64",
                "items": [{"name": name, "kind": "archive", "url": "file://" + os.path.abspath(path),
                           "size": os.path.getsize(path), "sha256": sha(path)}]}
        json.dump(lock, open(os.path.join(d, name + ".lock"), "w"), indent=2)
        print(name)


if __name__ == "__main__":
    if sys.argv[1] == "good":
        args = sys.argv[3:]
        opt = dict(zip(args[::2], args[1::2]))
        good(sys.argv[2], int(opt.get("--components", 4)), int(opt.get("--kib", 64)),
             opt.get("--platform", "linux-x86_64"), opt.get("--version", "12.4.1"),
             opt["--names"].split(",") if opt.get("--names") else None)
    else:
        hostile(sys.argv[2], sys.argv[3])
