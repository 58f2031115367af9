#!/usr/bin/env python3
"""readme-examples.py TOP PTBUILD WORKDIR - run the README's examples whose
output depends on ptbuild and its data alone (a profile, a fixture sysroot,
an arch list, --help) and print one TAP line each: the output must be the
README's, line for line.  A line "..." in the README stands for any number
of lines.  Examples that read this host, a network or a GPU are not run.

Each runs under a pseudo-terminal, as a reader at a terminal would see it
(stdout and stderr interleaved in the order written), with NO_COLOR, in
WORKDIR, with HOME=WORKDIR (printed back as /root, the README's HOME).
A fixture sysroot is copied into WORKDIR with its links made, as
tests/fixtures/sysroot.sh does, and its NAME.env (the machine's PATH and
CUDA_HOME) is ptbuild's environment, as the detect tests give it."""
import os, pty, re, select, shutil, subprocess, sys

top, exe, work = sys.argv[1:4]
OWN = re.compile(r"^(\./)?ptbuild (--help$|arch |plan --profile |generate --profile |"
                 r"fetch --profile \S+ --dry-run|detect --sysroot tests/fixtures/sysroots/)")


def blocks(path):
    out, cur, start = [], None, 0
    for i, l in enumerate(open(path, encoding="utf-8").read().split("\n")):
        if cur is None and l.startswith("```console"):
            cur, start = [], i + 2
        elif cur is not None and l.startswith("```"):
            out.append((start, cur))
            cur = None
        elif cur is not None:
            cur.append(l)
    return out


def examples(path):
    for start, b in blocks(path):
        i = 0
        while i < len(b):
            if not b[i].startswith("$ "):
                i += 1
                continue
            j = i + 1
            while j < len(b) and not b[j].startswith("$ "):
                j += 1
            yield start + i, b[i][2:], b[i + 1:j]
            i = j


def match(want, got):
    if not want:
        return not got
    if want[0] == "...":
        return any(match(want[1:], got[k:]) for k in range(len(got) + 1))
    return bool(got) and got[0] == want[0] and match(want[1:], got[1:])


def sysroot(name):
    dest = os.path.join(work, "sysroots", name)
    if not os.path.isdir(dest):
        src = os.path.join(top, "tests/fixtures/sysroots", name)
        shutil.copytree(src, dest, symlinks=True)
        for line in open(src + ".links"):
            parts = line.split()
            if len(parts) == 2:
                p = dest + parts[0]
                os.makedirs(os.path.dirname(p), exist_ok=True)
                os.symlink(parts[1], p)
    return dest


def run(cmd, env):
    master, slave = pty.openpty()
    p = subprocess.Popen(["sh", "-c", cmd], cwd=work, env=env, stdin=subprocess.DEVNULL,
                         stdout=slave, stderr=slave, close_fds=True)
    os.close(slave)
    buf = b""
    while True:
        r, _, _ = select.select([master], [], [], 60)
        if not r:
            p.kill()
            break
        try:
            d = os.read(master, 65536)
        except OSError:
            d = b""
        if not d:
            break
        buf += d
    os.close(master)
    p.wait()
    return buf.decode("utf-8", "replace").replace("\r\n", "\n")


env = {k: v for k, v in os.environ.items()
       if k not in ("CUDA_HOME", "CUDA_PATH", "TORCH_CUDA_ARCH_LIST", "MAX_JOBS", "XDG_CACHE_HOME",
                    "PTBUILD_CACHE", "CLICOLOR_FORCE", "FORCE_COLOR")}
env.update(HOME=work, NO_COLOR="1", TERM="dumb", COLUMNS="80")
n = bad = 0
for line, cmd, want in examples(os.path.join(top, "README.md")):
    if not OWN.match(cmd):
        continue
    sh = re.sub(r"^(\./)?ptbuild ", "'%s' " % exe, cmd)
    m = re.search(r"tests/fixtures/sysroots/([\w.-]+)", sh)
    root = sysroot(m.group(1)) if m else None
    e = env
    if root:
        sh = sh.replace(m.group(0), root)
        # the fixture machine's own environment (PATH, CUDA_HOME), as the
        # detect tests give it
        f = os.path.join(top, "tests/fixtures/sysroots", m.group(1) + ".env")
        if os.path.isfile(f):
            e = dict(env)
            for kv in open(f).read().split():
                k, _, v = kv.partition("=")
                e[k] = v
    out = run(sh, e)
    if root:
        out = out.replace(root, m.group(0))
    out = out.replace(work, "/root")
    got = out.rstrip("\n").split("\n") if out.strip("\n") else []
    n += 1
    ok = match(want, got)
    bad += not ok
    print("%s %d - README.md:%d: %s" % ("ok" if ok else "not ok", n, line, cmd))
    if not ok:
        for k in range(max(len(want), len(got))):
            w = want[k] if k < len(want) else "<nothing>"
            g = got[k] if k < len(got) else "<nothing>"
            if w == "...":
                print("#   (the README's \"...\" at line %d; its lines around it differ)" % (k + 1))
                break
            if w != g:
                print("#   output line %d\n#     README: %s\n#     ran:    %s" % (k + 1, w[:240], g[:240]))
                break
# The prose after doctor's example names its checks: all of them, and
# their number, as recipes/doctor.lua defines them.
codes = re.findall(r'^check\("([a-z0-9.-]+)"', open(os.path.join(top, "recipes/doctor.lua")).read(), re.M)
text = open(os.path.join(top, "README.md"), encoding="utf-8").read()
m = re.search(r"(\d+) checks, each from a real failure scenario[^:]*:(.*?)\n\n", text, re.S)
missing = [c for c in codes if not m or not re.search(r"(?<![\w-])%s(?![\w-])" % re.escape(c), m.group(2))]
ok = bool(m) and int(m.group(1)) == len(codes) and not missing
n += 1
bad += not ok
print("%s %d - README names doctor's %d checks%s" % ("ok" if ok else "not ok", n, len(codes),
      "" if ok else " (README says %s; missing: %s)" % (m.group(1) if m else "nothing", ", ".join(missing))))
print("1..%d" % n)
sys.exit(1 if bad or n < 10 else 0)
