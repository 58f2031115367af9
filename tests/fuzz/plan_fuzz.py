#!/usr/bin/env python3
"""plan_fuzz.py - hostile saved plans through every template of generate.

usage: plan_fuzz.py PTBUILD WORKDIR ITERATIONS SEED PLAN...

Each iteration takes one of the PLANs, puts shell, Dockerfile, CMake, HCL
and workflow metacharacters (and command substitutions that would create a
file named PWNED) into one to three of its values, and runs
`ptbuild generate --plan`.  Then, whatever generate did:

  refused  exit 2 or 3 with a message, and nothing written;
  wrote    sh -n and bash -n accept the shell files; setup.sh --dry-run runs
           with every command it could reach replaced by a stub; dash
           sources ptbuild.env and every variable equals the plan's value
           byte for byte; the Dockerfile has the same instructions, in the
           same order, as the one of the unmutated plan, and sh -n accepts
           each RUN; the workflow has no GitHub expression the template
           does not write itself;
  and in both cases nothing created a file named PWNED anywhere under
  WORKDIR.

Prints one line of counts and each finding; exits 1 on any finding.
"""
import json
import os
import random
import re
import shutil
import subprocess
import sys

PAYLOADS = [
    "$(touch PWNED)", "`touch PWNED`", "';touch PWNED;'", '";touch PWNED;"',
    "\ntouch PWNED\n", "\nRUN touch PWNED", "\\\ntouch PWNED", "${{ github.token }}",
    "|touch PWNED", "&&touch PWNED", ";touch PWNED", "$HOME", "${X}", "$env{X}",
    "%{x}", "@VAR@", "\\", "'", '"', " ", "\t", "\r", "~", "*", "-rf", "#",
    "\x1b[31m", "\x00", "é", "../..", "=", ":", "$", "!", "\u2028",
]
STUBS = ["sudo", "apt-get", "dpkg-query", "rpm", "dnf", "curl", "make", "tar",
         "sha256sum", "mkdir", "ptbuild", "id", "env", "git", "python3", "pip"]
INSTRUCTION = re.compile(r"^(FROM|ARG|ENV|RUN|WORKDIR|SHELL|COPY|LABEL|USER)\b")


def leaves(v, path=()):
    """Paths of every string, number and boolean in a JSON value."""
    if isinstance(v, dict):
        for k, x in v.items():
            if path == () and k == "schema":
                continue
            yield from leaves(x, path + (k,))
    elif isinstance(v, list):
        for i, x in enumerate(v):
            yield from leaves(x, path + (i,))
    else:
        yield path


def put(doc, path, value):
    for k in path[:-1]:
        doc = doc[k]
    doc[path[-1]] = value


def get(doc, path):
    for k in path:
        doc = doc[k]
    return doc


def mutate(rng, old):
    p = rng.choice(PAYLOADS)
    if rng.random() < 0.15:
        p = "".join(rng.choice(PAYLOADS) for _ in range(rng.randint(2, 4)))
    if not isinstance(old, str):
        return rng.choice([p, -1, 0, 1.5, 1e300, True, None, [p], {"x": p}])
    where = rng.randint(0, 3)
    if where == 0:
        return p
    if where == 1:
        return old + p
    if where == 2:
        return p + old
    i = rng.randint(0, len(old))
    return old[:i] + p + old[i:]


def pwned(root):
    for d, _, files in os.walk(root):
        if "PWNED" in files:
            return os.path.join(d, "PWNED")
    return None


def dockerfile_shape(path):
    text = open(path).read().replace("\\\n", "")
    shape, runs = [], []
    for line in text.split("\n"):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        m = INSTRUCTION.match(line)
        shape.append(m.group(1) if m else "?" + line[:40])
        if m and m.group(1) == "RUN":
            # the shell script after RUN's own --flags (--mount=...)
            runs.append(re.sub(r"^(\s*--[a-z-]+=\S+)*\s*", "", line[4:]))
    return shape, runs


def main():
    ptbuild, work, iters, seed = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    bases = [(p, json.load(open(p))) for p in sys.argv[5:]]
    rng = random.Random(seed)
    stubs = os.path.join(work, "stubs")
    os.makedirs(stubs, exist_ok=True)
    for s in STUBS:
        with open(os.path.join(stubs, s), "w") as f:
            f.write("#!/bin/sh\nexit 0\n")
        os.chmod(os.path.join(stubs, s), 0o755)
    env = {"PATH": stubs + ":/usr/bin:/bin", "HOME": work, "LANG": "C",
           "PTBUILD_RECIPE_PATH": os.environ.get("PTBUILD_RECIPE_PATH", "")}

    # The unmutated plans' Dockerfile shapes and workflow expressions.
    ref = {}
    for i, (path, plan) in enumerate(bases):
        out = os.path.join(work, "ref%d" % i)
        r = subprocess.run([ptbuild, "-q", "generate", "--plan", path, "--out", out, "--force"],
                           env=env, capture_output=True)
        if r.returncode != 0:
            print("base plan %s does not generate: %s" % (path, r.stderr.decode(errors="replace")))
            return 1
        ref[i] = (dockerfile_shape(os.path.join(out, "Dockerfile"))[0],
                  open(os.path.join(out, ".github/workflows/ptbuild.yml")).read().count("${{"))

    counts = {"refused": 0, "wrote": 0}
    findings = []
    for n in range(iters):
        bi = rng.randrange(len(bases))
        plan = json.loads(json.dumps(bases[bi][1]))
        paths = list(leaves(plan))
        # Half the picks go to values whose form is free text (variables,
        # CMake entries, paths, notes), where the outputs' escaping alone
        # must hold.
        free = [p for p in paths if p[0] in ("env", "cmake", "path_prepend", "facts_source",
                                             "decisions", "problems") or p[-1] in ("root", "prefix")]
        picks = rng.sample(paths, rng.randint(1, 3))
        if free and rng.random() < 0.5:
            picks = rng.sample(free, min(len(free), rng.randint(1, 3)))
        for path in picks:
            put(plan, path, mutate(rng, get(plan, path)))
        d = os.path.join(work, "it")
        shutil.rmtree(d, ignore_errors=True)
        os.makedirs(d)
        pf = os.path.join(d, "plan.json")
        with open(pf, "w") as f:
            json.dump(plan, f)
        out = os.path.join(d, "out")
        r = subprocess.run([ptbuild, "-q", "generate", "--plan", pf, "--out", out, "--force"],
                           env=env, capture_output=True, cwd=d)
        bad = []
        if r.returncode != 0:
            counts["refused"] += 1
            if r.returncode not in (2, 3) or b"error:" not in r.stderr:
                bad.append("exit %d: %s" % (r.returncode, r.stderr[:200]))
            if os.path.exists(out):
                bad.append("refused, yet wrote %s" % sorted(os.listdir(out)))
        else:
            counts["wrote"] += 1
            for sh, f in (("sh", "setup.sh"), ("sh", "ptbuild.env"), ("bash", ".envrc")):
                c = subprocess.run([sh, "-n", os.path.join(out, f)], capture_output=True)
                if c.returncode != 0:
                    bad.append("%s -n %s: %s" % (sh, f, c.stderr[:200]))
            subprocess.run(["sh", os.path.join(out, "setup.sh"), "--dry-run"], env=env, cwd=d,
                           capture_output=True, timeout=30)
            names = list(plan.get("env", {}).keys())
            script = ". ./ptbuild.env >/dev/null 2>&1\n" + "".join(
                "printf '%%s\\0' \"$%s\"\n" % k for k in names)
            c = subprocess.run(["dash", "-c", script], env=env, cwd=out, capture_output=True)
            got = c.stdout.split(b"\0")[:-1]
            want = [str(plan["env"][k]).encode() for k in names]
            if got != want:
                bad.append("ptbuild.env does not give back the plan's values: %r" %
                           [(k, g, w) for k, g, w in zip(names, got, want) if g != w][:2])
            shape, runs = dockerfile_shape(os.path.join(out, "Dockerfile"))
            if shape != ref[bi][0]:
                bad.append("Dockerfile instructions changed: %s" % [s for s in shape if s not in ref[bi][0]][:3])
            for body in runs:
                c = subprocess.run(["sh", "-n", "-c", body], capture_output=True)
                if c.returncode != 0:
                    bad.append("a RUN does not parse: %s" % c.stderr[:200])
            wf = open(os.path.join(out, ".github/workflows/ptbuild.yml")).read()
            if wf.count("${{") != ref[bi][1]:
                bad.append("the workflow holds a GitHub expression from the plan")
        hit = pwned(work)
        if hit:
            bad.append("a command from the plan ran: %s" % hit)
            os.unlink(hit)
        if bad:
            findings.append((n, pf, bad))
            keep = os.path.join(work, "finding-%d.json" % n)
            shutil.copy(pf, keep)
            print("finding %d (%s): %s" % (n, keep, "; ".join(str(b) for b in bad)))
    print("%d plans: %d refused, %d written and checked, %d findings" %
          (iters, counts["refused"], counts["wrote"], len(findings)))
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
