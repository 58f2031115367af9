#!/usr/bin/env python3
"""gen-runfiles.py - write recipes/data/runfiles.lua from tools/data/runfiles.csv.

Usage (from the source tree):
    tools/gen-runfiles.py > recipes/data/runfiles.lua
    tools/gen-runfiles.py --check-spack package.py

tools/data/runfiles.csv is the table of NVIDIA's CUDA runfile installers:
one row per release label and platform (linux-x86_64, linux-sbsa), with the
file name under
https://developer.download.nvidia.com/compute/cuda/<label>/local_installers/,
its sha256 where a recorded source publishes one, NVIDIA's md5
(docs/sidebar/md5sum.txt: NVIDIA publishes no sha256 of its runfiles) and,
where a source gives it, the size in bytes NVIDIA's download pages show
(a size needs the md5 it goes with), and the ids of its sources, separated by ';'
(each must be defined in recipes/data/sources.lua).  The first form writes the Lua table; the
driver bundled in a runfile is read from its name
(cuda_<label>_<driver>_linux[_sbsa].run; from 13.4.1 the name carries none).

--check-spack reads a local copy of spack's CUDA package
(https://github.com/spack/spack-packages, file
repos/spack_repo/builtin/packages/cuda/package.py), whose `_versions`
dictionary maps each release to its runfile URL and sha256 per platform,
and prints every runfile of 11.8.0 and later that the CSV lacks (as CSV
rows ready to add, source "spack") or lists with another name or sha256.
The file is parsed, never run.  Exit status 1 when it printed anything,
so a refresh is: download package.py, run --check-spack, add the rows it
prints, regenerate.
"""
import ast, csv, os, re, sys
sys.dont_write_bytecode = True  # no __pycache__ in the source tree
import sourceids  # tools/sourceids.py, beside this script

HERE = os.path.dirname(os.path.abspath(__file__))
CSV = os.path.join(HERE, "data", "runfiles.csv")
PLATFORMS = ("linux-x86_64", "linux-sbsa")
# spack keys its entries by platform.system()-platform.machine(); the
# aarch64 runfile it lists is NVIDIA's SBSA one (the names end _sbsa.run).
SPACK_PLATFORMS = {"Linux-x86_64": "linux-x86_64", "Linux-aarch64": "linux-sbsa"}
OLDEST = (11, 8, 0)
NAME = re.compile(r"cuda_(\d+\.\d+\.\d+)(?:_(\d+\.\d+(?:\.\d+)?))?_linux(_sbsa)?\.run")


def source_ids():
    return sourceids.source_ids('gen-runfiles')


def label_key(label):
    return tuple(int(x) for x in label.split("."))


COLUMNS = ["label", "platform", "name", "sha256", "md5", "size", "sources"]


def rows():
    out = []
    with open(CSV, newline="") as f:
        reader = csv.reader(f)
        header = next(reader, [])
        if header != COLUMNS:
            raise SystemExit("gen-runfiles: %s: the header is '%s', not '%s'"
                             % (CSV, ",".join(header), ",".join(COLUMNS)))
        for fields in reader:
            # a row of another shape (a ',' for a ';' among the sources, a
            # missing column) would shift or drop fields unseen
            if fields and len(fields) != len(COLUMNS):
                raise SystemExit("gen-runfiles: %s:%d: %d fields, not %d (%s; sources are separated by ';')"
                                 % (CSV, reader.line_num, len(fields), len(COLUMNS), ",".join(COLUMNS)))
            if fields:
                out.append(dict(zip(COLUMNS, fields)))
    seen, ids = set(), source_ids()
    for r in out:
        where = "%s: %s %s" % (CSV, r["label"], r["platform"])
        if not re.fullmatch(r"\d+\.\d+\.\d+", r["label"]):
            raise SystemExit("gen-runfiles: %s: label '%s' is not X.Y.Z" % (CSV, r["label"]))
        if r["platform"] not in PLATFORMS:
            raise SystemExit("gen-runfiles: %s: platform '%s' is not one of %s"
                             % (where, r["platform"], ", ".join(PLATFORMS)))
        m = NAME.fullmatch(r["name"])
        if not m or m.group(1) != r["label"] or bool(m.group(3)) != (r["platform"] == "linux-sbsa"):
            raise SystemExit("gen-runfiles: %s: '%s' is not the runfile name of that label and platform"
                             % (where, r["name"]))
        if r["sha256"] and not re.fullmatch(r"[0-9a-f]{64}", r["sha256"]):
            raise SystemExit("gen-runfiles: %s: sha256 '%s' is not 64 lowercase hex digits" % (where, r["sha256"]))
        if r["md5"] and not re.fullmatch(r"[0-9a-f]{32}", r["md5"]):
            raise SystemExit("gen-runfiles: %s: md5 '%s' is not 32 lowercase hex digits" % (where, r["md5"]))
        if r["size"] and not re.fullmatch(r"[1-9][0-9]*", r["size"]):
            raise SystemExit("gen-runfiles: %s: size '%s' is not a number of bytes" % (where, r["size"]))
        if r["size"] and not r["md5"]:
            # the size is a check only beside the md5 NVIDIA pairs it
            # with; an md5 alone is what md5sum.txt gives
            # (recipes/plan.lua: "only md5 ... [and N bytes]")
            raise SystemExit("gen-runfiles: %s: gives size without md5: a size checks a runfile only with its md5"
                             % where)
        if not r["sources"]:
            raise SystemExit("gen-runfiles: %s: names no source" % where)
        for sid in r["sources"].split(";"):
            if sid not in ids:
                raise SystemExit("gen-runfiles: %s: source '%s' is not an id of recipes/data/sources.lua"
                                 " (sources are ids separated by ';')" % (where, sid))
        if (r["label"], r["platform"]) in seen:
            raise SystemExit("gen-runfiles: %s: listed twice" % where)
        seen.add((r["label"], r["platform"]))
    return out


def emit():
    w = sys.stdout.write
    w("-- GENERATED by tools/gen-runfiles.py from tools/data/runfiles.csv: edit the\n")
    w("-- CSV and regenerate.  NVIDIA's CUDA runfile installers by release label:\n")
    w("-- https://developer.download.nvidia.com/compute/cuda/<label>/local_installers/<name>\n")
    w("-- driver: the driver the runfile bundles, read from its name (none from\n")
    w("-- 13.4.1 on: the name no longer carries it).  sha256: where a recorded\n")
    w("-- source publishes one (NVIDIA lists md5 only); a runfile without one is\n")
    w("-- pinned by NVIDIA's md5 and size alone.  Each line keeps its source ids\n")
    w("-- (recipes/data/sources.lua).\n")
    w("return {\n")
    by_label = {}
    for r in rows():
        by_label.setdefault(r["label"], []).append(r)
    for label in sorted(by_label, key=label_key):
        rs = sorted(by_label[label], key=lambda r: PLATFORMS.index(r["platform"]))
        drivers = {NAME.fullmatch(r["name"]).group(2) or "" for r in rs}
        if len(drivers) != 1:
            raise SystemExit("gen-runfiles: %s: %s's runfiles name different drivers" % (CSV, label))
        driver = drivers.pop()
        w('  ["%s"] = {%s\n' % (label, (' driver = "%s",' % driver) if driver else ""))
        for r in rs:
            extra = "".join(', %s = %s' % (k, ('"%s"' % r[k]) if k != "size" else r[k])
                            for k in ("sha256", "md5", "size") if r[k])
            w('    ["%s"] = { name = "%s"%s }, -- %s\n'
              % (r["platform"], r["name"], extra, " ".join(r["sources"].split(";"))))
        w("  },\n")
    w("}\n")


def spack_versions(path):
    """The `_versions` dictionary of spack's package.py, parsed, not run."""
    with open(path) as f:
        tree = ast.parse(f.read(), path)
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "_versions" for t in node.targets):
            return ast.literal_eval(node.value)
    raise SystemExit("gen-runfiles: %s: no _versions dictionary (is this spack's cuda/package.py?)" % path)


def check_spack(path):
    have = {(r["label"], r["platform"]): r for r in rows()}
    printed = 0
    for label, platforms in sorted(spack_versions(path).items(), key=lambda kv: label_key(kv[0])):
        if not re.fullmatch(r"\d+\.\d+\.\d+", label) or label_key(label) < OLDEST:
            continue
        for key, platform in SPACK_PLATFORMS.items():
            if key not in platforms:
                continue
            sha, url = platforms[key]
            name = url.rsplit("/", 1)[-1]
            r = have.get((label, platform))
            if r is None:
                print("%s,%s,%s,%s,,,spack" % (label, platform, name, sha))
            elif r["name"] != name or (r["sha256"] and r["sha256"] != sha) or (not r["sha256"] and sha):
                print("# %s %s: the CSV has %s %s, spack %s %s"
                      % (label, platform, r["name"], r["sha256"] or "(no sha256)", name, sha))
            else:
                continue
            printed += 1
    return 1 if printed else 0


def main(argv):
    if len(argv) == 1:
        emit()
        return 0
    if len(argv) == 3 and argv[1] == "--check-spack":
        return check_spack(argv[2])
    sys.stderr.write(__doc__.split("\n\n")[1] + "\n")
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
