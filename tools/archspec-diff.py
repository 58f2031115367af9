#!/usr/bin/env python3
"""archspec-diff.py - compare detect's microarchitecture with archspec's own.

Usage (from a built source tree):
    tools/archspec-diff.py ARCHSPEC_DIR [CASES [SEED]]

ARCHSPEC_DIR is a checkout of https://github.com/archspec/archspec with its
archspec/json submodule (archspec-json) at the commit
recipes/data/archspec.lua was generated from.  Each case takes the first
processor block of a dump in tests/fixtures/cpuinfo, drops up to six of its
features at random and, on Arm, sometimes swaps its CPU part or
implementer for another real one; then it asks archspec's host() (with the
block standing in for /proc/cpuinfo, on Linux) and `ptbuild detect
--sysroot` (with the block as proc/cpuinfo) for the microarchitecture and
prints every case where they differ.  Exit status 1 when any did.

Run it after regenerating data/archspec.lua or changing detect.lua's rule.
"""
import glob, io, os, random, re, subprocess, sys, tempfile

PARTS = ["0xd08", "0xd0c", "0xd40", "0xd4f", "0xd49", "0xd83", "0x0af", "0x001",
         "0x022", "0x023", "0x032", "0x033", "0xac3", "0xac4", "0xd05", "0xd0b", "0xd87",
         "0x024", "0x025", "0x028", "0x029", "0x034", "0x035", "0x038", "0x039"]
IMPLEMENTERS = ["0x41", "0x61", "0xc0", "0x43", "0x46", "0x4e"]


def archspec_host(detect, text, arch):
    """archspec's host() for a cpuinfo text, as on a Linux machine of arch."""
    real_open = open

    def fake_open(path, *a, **k):
        if path == "/proc/cpuinfo":
            return io.StringIO(text)
        return real_open(path, *a, **k)

    detect.open = fake_open          # found before the builtin in detect's globals
    detect._machine = lambda: arch
    detect.platform.system = lambda: "Linux"
    detect.host.cache_clear()
    return detect.host().name


def mutate(rng, block):
    key = "flags" if "vendor_id" in block else "Features"
    m = re.search(r"^(%s\s*:\s*)(.*)$" % key, block, re.M)
    if not m:
        return block
    feats = m.group(2).split()
    for f in rng.sample(feats, rng.randint(0, min(6, len(feats)))):
        feats.remove(f)
    block = block[:m.start(2)] + " ".join(feats) + block[m.end(2):]
    if "CPU part" in block and rng.random() < 0.3:
        block = re.sub(r"(CPU part\s*:\s*)\S+", lambda x: x.group(1) + rng.choice(PARTS), block)
    if "CPU implementer" in block and rng.random() < 0.1:
        block = re.sub(r"(CPU implementer\s*:\s*)\S+", lambda x: x.group(1) + rng.choice(IMPLEMENTERS), block)
    return block


def main():
    if len(sys.argv) < 2:
        raise SystemExit("usage: tools/archspec-diff.py ARCHSPEC_DIR [CASES [SEED]]")
    sys.path.insert(0, sys.argv[1])
    try:
        import archspec.cpu.detect as detect
    except ImportError as e:
        raise SystemExit("archspec-diff: cannot import archspec from '%s': %s" % (sys.argv[1], e))
    cases = int(sys.argv[2]) if len(sys.argv) > 2 else 1000
    rng = random.Random(int(sys.argv[3]) if len(sys.argv) > 3 else 1)
    dumps = sorted(glob.glob("tests/fixtures/cpuinfo/*.txt"))
    if not dumps or not os.path.exists("ptbuild"):
        raise SystemExit("archspec-diff: run from a built source tree (./ptbuild, tests/fixtures/cpuinfo)")
    env = {"PTBUILD_RECIPE_PATH": os.path.abspath("recipes")}
    bad = 0
    with tempfile.TemporaryDirectory() as root:
        os.makedirs(os.path.join(root, "proc"))
        for i in range(cases):
            src = rng.choice(dumps)
            block = mutate(rng, open(src).read().lstrip("\n").split("\n\n")[0] + "\n")
            with open(os.path.join(root, "proc", "cpuinfo"), "w") as f:
                f.write(block)
            arch = "aarch64" if "CPU implementer" in block else "x86_64"
            want = archspec_host(detect, block, arch)
            out = subprocess.run(["./ptbuild", "detect", "--sysroot", root, "--json"],
                                 capture_output=True, text=True, env=env).stdout
            m = re.search(r'"microarch": "([^"]*)"', out)
            got = m.group(1) if m else None
            if got != want:
                bad += 1
                print("case %d (%s): archspec %s, detect %s\n%s" % (i, os.path.basename(src), want, got, block))
    print("%d cases, %d differences" % (cases, bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
