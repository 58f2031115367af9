#!/usr/bin/env python3
"""gen-redist.py - write recipes/data/redist.lua from NVIDIA redist manifests.

Usage: tools/gen-redist.py [MANIFEST-DIR] > recipes/data/redist.lua

MANIFEST-DIR (default: tools/data/redist, next to this script) holds
byte-exact copies of NVIDIA's redistrib_<label>.json (and cuDNN's
redistrib_9.x.y.json); see doc/maintainers.md.

Keeps, for each manifest, the components a PyTorch build needs, per platform:
relative_path, sha256 and size exactly as NVIDIA's manifest lists them.

A cuDNN release whose manifest file no source shows whole may be carried
from MANIFEST-DIR/cudnn-archive-digests.csv instead: one row per archive
(label, version, release_date, platform, variant, relative_path, sha256,
size or empty where no source gave it, and the ids of its sources in
recipes/data/sources.lua, separated by ';').  Its entry has no
manifest_sha256 (archives_from names the CSV), each archive carries its
sources, and a plan takes it only as a PyTorch wheel's own cuDNN (never
as the newest fallback, which stays a manifest ptbuild holds whole).
"""
import hashlib, json, os, re, sys
sys.dont_write_bytecode = True  # no __pycache__ in the source tree
import sourceids  # tools/sourceids.py, beside this script

HERE = os.path.dirname(os.path.abspath(__file__))
DIGESTS = "cudnn-archive-digests.csv"
DIGEST_COLUMNS = ["label", "version", "release_date", "platform", "variant",
                  "relative_path", "sha256", "size", "sources"]

COMPONENTS = [
    "cuda_cccl", "cuda_crt", "cuda_cudart", "cuda_culibos", "cuda_cupti",
    "cuda_nvcc", "cuda_nvml_dev", "cuda_nvrtc", "cuda_nvtx", "cuda_profiler_api",
    "libcublas", "libcufft", "libcufile", "libcurand", "libcusolver",
    "libcusparse", "libnvjitlink", "libnvvm",
]
RENAMED = {"cuda_cccl": "cccl"}
# Every platform fetch --platform accepts: a plan picks one of the first
# three, and fetch --cuda holds a served manifest to these entries on any
# of them (ppc64le: CUDA 12.4 and older), so none may be left out.
PLATFORMS = ["linux-x86_64", "linux-sbsa", "linux-aarch64", "linux-ppc64le"]

def source_ids():
    return sourceids.source_ids('gen-redist')


def vkey(v):
    return [int(x) for x in v.split(".")]


def archive_digests(d, manifests):
    """The cuDNN releases of d/cudnn-archive-digests.csv: {label: entry},
    each row checked (a bad one stops the generator, naming the file, the
    line and what is wrong).  manifests: the labels with a manifest copy,
    which a row may not repeat (the whole file wins: remove the rows)."""
    path = os.path.join(d, DIGESTS)
    if not os.path.exists(path):
        return {}
    out, ids = {}, source_ids()
    for line, r in sourceids.csv_rows("gen-redist", path, DIGEST_COLUMNS):
        where = "gen-redist: %s:%d" % (path, line)
        lab, ver, p, var = r["label"], r["version"], r["platform"], r["variant"]
        if not re.fullmatch(r"9\.\d+\.\d+", lab) or not re.fullmatch(re.escape(lab) + r"\.\d+", ver):
            raise SystemExit("%s: label '%s' and version '%s' are not a cuDNN release and its version (9.24.0, 9.24.0.43)"
                             % (where, lab, ver))
        if lab in manifests:
            raise SystemExit("%s: %s is carried whole as redistrib_%s.json: remove its rows here"
                             % (where, lab, lab))
        if not re.fullmatch(r"\d{4}-\d{2}-\d{2}", r["release_date"]):
            raise SystemExit("%s: release_date '%s' is not YYYY-MM-DD" % (where, r["release_date"]))
        if p not in PLATFORMS or not re.fullmatch(r"cuda\d+", var):
            raise SystemExit("%s: '%s' '%s' is not a platform (%s) and a variant (cuda12, cuda13)"
                             % (where, p, var, ", ".join(PLATFORMS)))
        # NVIDIA's layout: a row whose path is another archive's is a mix-up
        want = "cudnn/%s/cudnn-%s-%s_%s-archive.tar.xz" % (p, p, ver, var)
        if r["relative_path"] != want:
            raise SystemExit("%s: relative_path '%s' is not NVIDIA's path of the %s %s archive (%s)"
                             % (where, r["relative_path"], p, var, want))
        if not re.fullmatch(r"[0-9a-f]{64}", r["sha256"]):
            raise SystemExit("%s: sha256 '%s' is not 64 lowercase hex digits (an archive no source gives "
                             "whole is not carried)" % (where, r["sha256"]))
        if r["size"] and not re.fullmatch(r"[1-9]\d*", r["size"]):
            raise SystemExit("%s: size '%s' is not a number of bytes (leave it empty where no source gives it)"
                             % (where, r["size"]))
        srcs = r["sources"].split(";") if r["sources"] else []
        bad = [x for x in srcs if x not in ids]
        if not srcs or bad:
            raise SystemExit("%s: sources '%s': %s" % (where, r["sources"],
                             "every archive needs a source" if not srcs else
                             "'%s' is not defined in recipes/data/sources.lua" % bad[0]))
        e = out.setdefault(lab, {"label": lab, "version": ver, "release_date": r["release_date"], "platforms": {}})
        if (e["version"], e["release_date"]) != (ver, r["release_date"]):
            raise SystemExit("%s: %s's version and release_date differ from its first row's (%s, %s)"
                             % (where, lab, e["version"], e["release_date"]))
        if var in e["platforms"].setdefault(p, {}):
            raise SystemExit("%s: a second row for %s %s %s" % (where, lab, p, var))
        e["platforms"][p][var] = {"relative_path": r["relative_path"], "sha256": r["sha256"],
                                  "size": int(r["size"]) if r["size"] else None, "sources": srcs}
    return out


def main(d):
    out = []
    w = out.append
    w("-- GENERATED by tools/gen-redist.py from NVIDIA's redist manifests")
    w("-- (https://developer.download.nvidia.com/compute/cuda/redist/redistrib_<label>.json,")
    w("-- byte-exact copies in tools/data/redist, as vendored by NixOS/nixpkgs [nixpkgs-redist]).")
    w("-- Do not edit by hand: regenerate.  Components: what a PyTorch build needs.")
    w("return {")
    w('  base_url = "https://developer.download.nvidia.com/compute/cuda/redist/",')
    w("  labels = {")
    names = sorted(f for f in os.listdir(d) if f.startswith("redistrib_1"))
    for f in names:
        label = f[len("redistrib_"):-len(".json")]
        if not label.startswith(("11.", "12.", "13.")):
            continue
        m = json.load(open(os.path.join(d, f)))
        w('    ["%s"] = { release_date = "%s", platforms = {' % (label, m.get("release_date", "")))
        for p in PLATFORMS:
            # 13.4 renames cuda_cccl to cccl (redistrib_13.4.2.json): keep
            # the manifest's own key, which fetch also accepts for cuda_cccl.
            comps = [RENAMED.get(c, c) if c not in m and RENAMED.get(c) in m else c for c in COMPONENTS]
            comps = [c for c in comps if c in m and isinstance(m[c].get(p), dict) and "relative_path" in m[c][p]]
            if not comps:
                continue
            w('      ["%s"] = {' % p)
            for c in comps:
                e = m[c][p]
                w('        { name = "%s", version = "%s", relative_path = "%s", sha256 = "%s", size = %d },'
                  % (c, m[c]["version"], e["relative_path"], e["sha256"], int(e["size"])))
            w("      },")
        w("    } },")
    w("  },")
    w("  components = { " + ", ".join('"%s"' % c for c in COMPONENTS) + " },")
    # cuDNN: every cuDNN manifest given (redistrib_9.*.json) and every
    # release of cudnn-archive-digests.csv, newest first, each platform's
    # archive per CUDA-major variant ("cuda12", "cuda13"); `cudnn` is the
    # newest manifest, the one a plan falls back to.
    cud = sorted((f for f in os.listdir(d) if f.startswith("redistrib_9.")),
                 key=lambda f: vkey(f[len("redistrib_"):-len(".json")]), reverse=True)
    digests = archive_digests(d, set(f[len("redistrib_"):-len(".json")] for f in cud))
    entries = sorted([(vkey(f[len("redistrib_"):-len(".json")]), f, None) for f in cud] +
                     [(vkey(lab), None, e) for lab, e in digests.items()], key=lambda x: x[0], reverse=True)
    if entries:
        w("  -- cuDNN, from NVIDIA's %s (https://developer.download.nvidia.com/compute/cudnn/redist/),"
          % ", ".join(cud))
        w("  -- newest first; cudnn: the newest manifest.  manifest_sha256: the sha256 of NVIDIA's manifest")
        w("  -- file itself (pinned alike by google-ml-infra/rules_ml_toolchain).")
        if digests:
            w("  -- %s: no manifest_sha256 (no source shows NVIDIA's file whole): the"
              % ", ".join(sorted(digests, key=vkey, reverse=True)))
            w("  -- sha256 of each archive as the sources it names give it (tools/data/redist/%s)," % DIGESTS)
            w("  -- taken only as a PyTorch wheel's own cuDNN.")
        w("  cudnn_releases = {")
    for _, f, dg in entries:
        if dg:
            w("    {")
            w('      base_url = "https://developer.download.nvidia.com/compute/cudnn/redist/",')
            w('      label = "%s", version = "%s", release_date = "%s",' % (dg["label"], dg["version"], dg["release_date"]))
            w('      manifest_sha256 = nil, archives_from = "tools/data/redist/%s",' % DIGESTS)
            w("      platforms = {")
            for p in PLATFORMS:
                if p not in dg["platforms"]:
                    continue
                w('        ["%s"] = {' % p)
                for var in sorted(dg["platforms"][p]):
                    e = dg["platforms"][p][var]
                    size = "" if e["size"] is None else ", size = %d" % e["size"]
                    w('          %s = { relative_path = "%s", sha256 = "%s"%s, sources = { %s } },  -- %s%s'
                      % (var, e["relative_path"], e["sha256"], size, ", ".join('"%s"' % x for x in e["sources"]),
                         " ".join("[%s]" % x for x in e["sources"]), "" if e["size"] is not None else "; size not read"))
                w("        },")
            w("      },")
            w("    },")
            continue
        raw = open(os.path.join(d, f), "rb").read()
        m = json.loads(raw)
        c = m["cudnn"]
        # NVIDIA's file has no final newline (copies that add one: drop it)
        nvidia = raw[:-1] if raw.endswith(b"\n") else raw
        w("    {")
        w('      base_url = "https://developer.download.nvidia.com/compute/cudnn/redist/",')
        w('      label = "%s", version = "%s", release_date = "%s",' % (m["release_label"], c["version"], m.get("release_date", "")))
        w('      manifest_sha256 = "%s",' % hashlib.sha256(nvidia).hexdigest())
        w("      platforms = {")
        for p in PLATFORMS:
            if not isinstance(c.get(p), dict):
                continue
            w('        ["%s"] = {' % p)
            for var in sorted(c[p]):
                e = c[p][var]
                if isinstance(e, dict) and "relative_path" in e:
                    w('          %s = { relative_path = "%s", sha256 = "%s", size = %d },'
                      % (var, e["relative_path"], e["sha256"], int(e["size"])))
            w("        },")
        w("      },")
        w("    },")
    if entries:
        w("  },")
    w("}")
    # the newest cuDNN manifest under its old name, for what needs one
    # (fetch's default base URL, a recipe that overrides this file)
    src = "\n".join(out)
    if cud:
        src = (src.replace("\nreturn {\n", "\nlocal M = {\n", 1)[:-1] + "}\n"
               "for _, c in ipairs(M.cudnn_releases) do\n"
               "  if c.manifest_sha256 then M.cudnn = c break end\n"
               "end\n"
               "return M")
    print(src)

main(sys.argv[1] if len(sys.argv) > 1 else
     os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "redist"))
