#!/bin/sh
# t0211-sources.sh - every source id recipes/ cites resolves inside the
# repository: in recipes/data/sources.lua.  An id is `[id]` or an S_ id in
# a Lua comment (text after `-- ` or `--[`).  Nothing in recipes/ or tools/
# may point at a research folder users do not have (shared/).  The
# generated tables are their generators' output from tools/data.
. "$top_srcdir/tests/lib.sh"
cd "$top_srcdir" || exit 1
S=recipes/data/sources.lua

# ids cited, one per line: "id file"
find recipes -name '*.lua' ! -name sources.lua | sort | while read -r f; do
	awk -v f="$f" '{
		line = $0; c = ""
		for (i = 1; i < length(line); i++) {
			if (substr(line, i, 2) != "--") continue
			prev = i == 1 ? " " : substr(line, i - 1, 1)
			next_ = substr(line, i + 2, 1)
			if (prev ~ /[ \t]/ && (next_ == "" || next_ ~ /[ \t[]/)) { c = substr(line, i + 2); break }
		}
		if (c == "") next
		while (match(c, /\[[A-Za-z][A-Za-z0-9_.+-]*\]/)) {
			print substr(c, RSTART + 1, RLENGTH - 2), f; c = substr(c, RSTART + RLENGTH)
		}
		c2 = " " c
		while (match(c2, /[^A-Za-z0-9_]S_[A-Z0-9_]+/)) {
			print substr(c2, RSTART + 1, RLENGTH - 1), f; c2 = substr(c2, RSTART + RLENGTH)
		}
	}' "$f"
done | sort -u >"$T_DIR/cited"

n=$(cut -d' ' -f1 "$T_DIR/cited" | sort -u | wc -l)
[ "$n" -ge 60 ]
t_ok $? "recipes cite $n source ids (the scan finds them)"

defined() { # ID -> 0 when sources.lua has it as a key
	grep -Eq "^  (\\[\"$1\"\\]|$1) = " "$S"
}
cut -d' ' -f1 "$T_DIR/cited" | sort -u >"$T_DIR/ids"
while read -r id; do
	defined "$id"
	t_ok $? "[$id] ($(grep "^$id " "$T_DIR/cited" | cut -d' ' -f2 | tr '\n' ' ')) resolves in $S"
done <"$T_DIR/ids"

# an alias (same = "x") points at an id that is there
sed -n 's/.*same = "\([^"]*\)".*/\1/p' "$S" >"$T_DIR/aliases"
while read -r id; do
	defined "$id"
	t_ok $? "alias target [$id] resolves in $S"
done <"$T_DIR/aliases"

# each entry says where it resolves, unless it is an alias
awk '/^  [^ -].* = \{/ && !/same = / && !/where = / { getline nxt; if (nxt !~ /where = /) print }' "$S" >"$T_DIR/nowhere"
is "$(cat "$T_DIR/nowhere")" "" "every source names where it resolves"

# (a URL's own path may hold "shared/": NVIDIA's box.com wheel links do)
grep -rn 'shared/' recipes tools 2>/dev/null | sed -E 's#[a-z]+://[^ "'"'"']*##g' | grep 'shared/' >"$T_DIR/shared"
is "$(cat "$T_DIR/shared")" "" "nothing in recipes/ or tools/ points at shared/"

# A generated table is what its generator writes from the CSV in tools/data:
# a row edited in the Lua alone would be lost at the next refresh.
if command -v python3 >/dev/null 2>&1; then
	python3 tools/gen-gpus.py >"$T_DIR/gpus.lua" 2>"$T_DIR/gen.err"
	cmp -s "$T_DIR/gpus.lua" recipes/data/gpus.lua
	t_ok $? "recipes/data/gpus.lua is tools/gen-gpus.py's output from tools/data/gpus.csv$(head -c 200 "$T_DIR/gen.err")"
else
	skip "gpus.lua is gen-gpus.py's output" "python3 is not installed"
fi

# gen-gpus.py --check-page reads NVIDIA's pages as they are written: a
# name in capitals ("QUADRO RTX 8000"), a note in brackets the driver does
# not print ("NVIDIA GB10 (DGX Spark)"), a name broken over two lines.
# Names the CSV has pass, and so does a row that keeps its chip's
# capability against the page (S_CHIP_CC: the legacy page's Quadro M620
# at 5.2 is a GM107, 5.0); a name it lacks, or gives another capability, is
# printed with the page's spelling and the status is 1.
if command -v python3 >/dev/null 2>&1; then
	printf '%s\n' 12.1 'NVIDIA GB10 (DGX Spark)' 12.0 'NVIDIA RTX PRO 6000 ' \
		'Blackwell Server Edition' 8.9 'NVIDIA RTX 4000 SFF Ada' 7.5 'NVIDIA T4' \
		'QUADRO RTX 8000' 'QUADRO RTX 6000' 6.1 'NVIDIA TITAN X' 5.2 'Quadro M620' >"$T_DIR/page-ok.txt"
	out=$(python3 tools/gen-gpus.py --check-page "$T_DIR/page-ok.txt" 2>&1)
	is "$?:$out" "0:" "gen-gpus.py --check-page: capitals, a bracketed note, a broken line and an S_CHIP_CC row match the CSV"
	printf '%s\n' 9.0 'NVIDIA H100' 'NVIDIA Z999 Test' 8.6 'QUADRO RTX 8000' >"$T_DIR/page-bad.txt"
	out=$(python3 tools/gen-gpus.py --check-page "$T_DIR/page-bad.txt" 2>&1)
	is "$?:$out" "1:$T_DIR/page-bad.txt: 'Z999 Test' (9.0) is not in tools/data/gpus.csv
$T_DIR/page-bad.txt: 'QUADRO RTX 8000' is 8.6 on the page, 7.5 in tools/data/gpus.csv" \
		"gen-gpus.py --check-page names what the CSV lacks or gives another capability"
else
	skip "gen-gpus.py --check-page matches the page's spellings" "python3 is not installed"
	skip "gen-gpus.py --check-page names the differences" "python3 is not installed"
fi

# gen-gpus.py --check-driver: each name of the driver's table (the open
# kernel module's README) is matched as lib/gpuname.lua matches, and its
# PCI id's chip (pci.ids, NVIDIA's vendor block only) gives the
# capability.  A name no row matches, or a row whose capability is not
# its chip's, is printed and the status is 1; the rest passes.
if command -v python3 >/dev/null 2>&1; then
	printf '%s\n' '| Product Name | PCI ID |' '| --- | --- |' \
		'| NVIDIA GeForce RTX 4090                                 | 2684           |' \
		'| NVIDIA RTX PRO 500 Blackwell Generation Laptop GPU      | 2DB9           |' \
		'| NVIDIA GeForce RTX 3050 6GB Laptop GPU                  | 25AC 17AA 3C0E |' \
		'| NVIDIA Z999 Laptop GPU                                  | 2F99           |' \
		'| NVIDIA GeForce GTX 1660                                 | 2184           |' >"$T_DIR/README.md"
	printf '%s\n' '# comment' '10de  NVIDIA Corporation' '	2684  AD102 [GeForce RTX 4090]' \
		'	2db9  GB207GLM [RTX PRO 500 Blackwell Generation Laptop GPU]' \
		'	25ac  GA107BM / GN20-P0-R-K2 [GeForce RTX 3050 6GB Laptop GPU]' \
		'	2f99  GB205M' '	2184  AD106 [made-up chip for the test]' \
		'10df  Emulex Corporation' '	2684  GA100' >"$T_DIR/pci.ids"
	out=$(python3 tools/gen-gpus.py --check-driver "$T_DIR/README.md" "$T_DIR/pci.ids" 2>&1)
	is "$?:$out" "1:$T_DIR/README.md: 'NVIDIA Z999 Laptop GPU' (2F99, chip GB205M, 12.0) matches no row of tools/data/gpus.csv
$T_DIR/README.md: 'NVIDIA GeForce GTX 1660' (2184) is chip AD106, 8.9; its row 'GeForce GTX 1660' says 7.5" \
		"gen-gpus.py --check-driver names a driver name no row matches and a row its chip contradicts"
	printf '%s\n' '| NVIDIA RTX PRO 500 Blackwell Generation Laptop GPU      | 2DB9           |' >"$T_DIR/README-ok.md"
	out=$(python3 tools/gen-gpus.py --check-driver "$T_DIR/README-ok.md" "$T_DIR/pci.ids" 2>&1)
	is "$?:$out" "0:" "gen-gpus.py --check-driver: a laptop GPU the CSV knows, chip GB207GLM at 12.0, passes"
else
	skip "gen-gpus.py --check-driver names the differences" "python3 is not installed"
	skip "gen-gpus.py --check-driver passes what the CSV knows" "python3 is not installed"
fi

# The same for the redist table: data/redist.lua is what gen-redist.py
# writes from the NVIDIA manifest copies in tools/data/redist, so every
# sha256 a plan pins can be traced to a manifest the repository holds.
if command -v python3 >/dev/null 2>&1; then
	python3 tools/gen-redist.py tools/data/redist >"$T_DIR/redist.lua" 2>"$T_DIR/gen.err"
	cmp -s "$T_DIR/redist.lua" recipes/data/redist.lua
	t_ok $? "recipes/data/redist.lua is tools/gen-redist.py's output from tools/data/redist$(head -c 200 "$T_DIR/gen.err")"
	# Each copy is NVIDIA's bytes: NVIDIA writes json.dumps(indent=4) with
	# no final newline, so a copy that differs from that re-serialisation
	# (a newline some vendored copies add, a reformat, a hand edit) is not
	# the file whose sha256 NVIDIA's mirrors serve.
	odd=$(python3 -c '
import glob, json, os, sys
for f in sorted(glob.glob(os.path.join(sys.argv[1], "redistrib_*.json"))):
    raw = open(f, "rb").read()
    if json.dumps(json.loads(raw), indent=4).encode() != raw:
        print(os.path.basename(f))
' tools/data/redist 2>&1)
	is "$odd" "" "every copy in tools/data/redist is byte for byte NVIDIA's format (json.dumps indent=4, no final newline)"
	# Each cuDNN manifest carried is NVIDIA's file: its sha256 is the one
	# google-ml-infra/rules_ml_toolchain pins for it (CUDNN_REDIST_JSON_DICT,
	# gpu/cuda/cuda_redist_versions.bzl@b1174559 [nixpkgs-redist]); a copy
	# without a pin here is not carried.
	odd=$(python3 -c '
import glob, hashlib, os, sys
pins = {
    "9.5.1": "a5484eef575bbb1fd4f96136cf12244ebc194b661f5ae9ed3b8aaa07e06434b1",
    "9.7.1": "f9bc411a4908f0931e7323f89049e3a38453632c4ac5f4aa3220af69ddded9dc",
    "9.10.2": "73a33a12bbb8eb12b105a515b5921db2e328b3ca679f92b6184c7f32fe94a8b0",
    "9.13.0": "55e3eb3ccb1ca543a7811312466f44841d630d3b2252f5763ad53509d2c09fbf",
    "9.20.0": "488be2657edfaaa9eada30247de95e81e3ce767f504dccb847d422cd358226a0",
}
seen = []
for f in sorted(glob.glob(os.path.join(sys.argv[1], "redistrib_9.*.json"))):
    label = os.path.basename(f)[len("redistrib_"):-len(".json")]
    got = hashlib.sha256(open(f, "rb").read()).hexdigest()
    if got != pins.get(label):
        print("%s: sha256 %s, pinned %s" % (os.path.basename(f), got, pins.get(label, "nowhere")))
    seen.append(label)
if sorted(seen) != sorted(pins):
    print("carried %s, pinned %s" % (sorted(seen), sorted(pins)))
' tools/data/redist 2>&1)
	is "$odd" "" "every cuDNN manifest in tools/data/redist has the sha256 rules_ml_toolchain pins for it"
	# ... and redist.lua names that sha256 for each, newest first.
	out=$(grep -o 'label = "9\.[0-9.]*", version = "[0-9.]*"' recipes/data/redist.lua | sed 's/label = "\([0-9.]*\)".*/\1/' | tr '\n' ' ')
	is "$out" "9.24.0 9.20.0 9.13.0 9.10.2 9.7.1 9.5.1 " "redist.lua carries cuDNN 9.24.0 (its archives' digests) and the manifests 9.20.0, 9.13.0, 9.10.2, 9.7.1, 9.5.1, newest first"
	# cudnn-archive-digests.csv: a release carried from per-archive
	# digests.  Each row is checked: a bad one stops the generator, naming
	# the file, the line and what is wrong, and writes nothing.
	digests() { # NAME PYTHON-EDIT-OF-ROWS WANT: gen-redist.py on an edited copy
		rm -rf "$T_DIR/rd" && cp -r tools/data/redist "$T_DIR/rd"
		python3 - "$T_DIR/rd/cudnn-archive-digests.csv" "$2" <<'PY'
import csv, sys
rows = list(csv.reader(open(sys.argv[1], newline="")))
exec(sys.argv[2])
csv.writer(open(sys.argv[1], "w", newline=""), lineterminator="\n").writerows(rows)
PY
		out=$(python3 tools/gen-redist.py "$T_DIR/rd" 2>&1 >"$T_DIR/rd.lua")
		is "$?:$(wc -c <"$T_DIR/rd.lua" | tr -d ' '):$out" "1:0:gen-redist: $T_DIR/rd/cudnn-archive-digests.csv:$3" "gen-redist.py refuses $1"
	}
	digests "a digest cut short" 'rows[4][6] = rows[4][6][:60]' \
		"5: sha256 '$(sed -n 5p tools/data/redist/cudnn-archive-digests.csv | cut -d, -f7 | cut -c1-60)' is not 64 lowercase hex digits (an archive no source gives whole is not carried)"
	digests "a source id sources.lua lacks" 'rows[1][8] += ";nowhere"' \
		"2: sources 'cudnn924-nv;cudnn924-cf;nowhere': 'nowhere' is not defined in recipes/data/sources.lua"
	digests "an archive without a source" 'rows[2][8] = ""' "3: sources '': every archive needs a source"
	digests "another archive's path" 'rows[1][4] = "cuda13"' \
		"2: relative_path 'cudnn/linux-x86_64/cudnn-linux-x86_64-9.24.0.43_cuda12-archive.tar.xz' is not NVIDIA's path of the linux-x86_64 cuda13 archive (cudnn/linux-x86_64/cudnn-linux-x86_64-9.24.0.43_cuda13-archive.tar.xz)"
	digests "a size that is no number of bytes" 'rows[1][7] = "1 GB"' \
		"2: size '1 GB' is not a number of bytes (leave it empty where no source gives it)"
	digests "a release carried whole as a manifest too" 'rows[1][0:2] = ["9.20.0", "9.20.0.48"]' \
		"2: 9.20.0 is carried whole as redistrib_9.20.0.json: remove its rows here"
	digests "a row of another shape" 'rows[3] = rows[3][:8]' \
		"4: 8 fields, not 9 (label,version,release_date,platform,variant,relative_path,sha256,size,sources; sources are separated by ';')"
else
	skip "redist.lua is gen-redist.py's output" "python3 is not installed"
	skip "the cuDNN copies match their pins" "python3 is not installed"
	skip "redist.lua's cuDNN manifests" "python3 is not installed"
	for n in 1 2 3 4 5 6 7; do skip "gen-redist.py refuses a bad cudnn-archive-digests.csv row ($n)" "python3 is not installed"; done
	skip "the copies are NVIDIA's bytes" "python3 is not installed"
fi

done_testing
