#!/bin/sh
# t0219-runfiles.sh - the runfile table: recipes/data/runfiles.lua is what
# tools/gen-runfiles.py writes from tools/data/runfiles.csv; the refresh
# check reads spack's package.py without running it and prints what the
# CSV lacks or lists otherwise; and each plan names the runfile of the
# label it installs with the strongest checksum a source gives.
. "$top_srcdir/tests/lib.sh"
cd "$top_srcdir" || exit 1
command -v python3 >/dev/null 2>&1 || skip_all "python3 is not installed"
GEN=tools/gen-runfiles.py

python3 $GEN >"$T_DIR/runfiles.lua" 2>"$T_DIR/err"
is "$?" 0 "gen-runfiles.py writes the table"
cmp -s "$T_DIR/runfiles.lua" recipes/data/runfiles.lua
t_ok $? "recipes/data/runfiles.lua is gen-runfiles.py's output from tools/data/runfiles.csv$(head -c 200 "$T_DIR/err")"

# --check-spack against a package.py of spack's form.  One label agrees
# with the CSV (12.4.1), one gives another sha256 (12.6.3 SBSA), one is a
# label the CSV lacks (99.0.0), one is older than 11.8 (skipped), and
# the top of the file would create PWNED if the file were run.
x124=$(awk -F, '$1=="12.4.1" && $2=="linux-x86_64" {print $4}' tools/data/runfiles.csv)
s124=$(awk -F, '$1=="12.4.1" && $2=="linux-sbsa" {print $4}' tools/data/runfiles.csv)
x126=$(awk -F, '$1=="12.6.3" && $2=="linux-x86_64" {print $4}' tools/data/runfiles.csv)
like "$x124 $s124 $x126" "????????????????????????????????????????????????????????????????*" "the CSV pins 12.4.1 and 12.6.3 by sha256"
u=https://developer.download.nvidia.com/compute/cuda
cat >"$T_DIR/package.py" <<EOF
import os
open(os.path.join("$T_DIR", "PWNED"), "w").close()
_versions = {
    "99.0.0": {
        "Linux-x86_64": ("$(printf 'a%.0s' $(seq 64))", "$u/99.0.0/local_installers/cuda_99.0.0_999.1.2_linux.run"),
    },
    "12.6.3": {
        "Linux-aarch64": ("$(printf 'b%.0s' $(seq 64))", "$u/12.6.3/local_installers/cuda_12.6.3_560.35.05_linux_sbsa.run"),
        "Linux-x86_64": ("$x126", "$u/12.6.3/local_installers/cuda_12.6.3_560.35.05_linux.run"),
    },
    "12.4.1": {
        "Linux-aarch64": ("$s124", "$u/12.4.1/local_installers/cuda_12.4.1_550.54.15_linux_sbsa.run"),
        "Linux-x86_64": ("$x124", "$u/12.4.1/local_installers/cuda_12.4.1_550.54.15_linux.run"),
        "Linux-ppc64le": ("$(printf 'c%.0s' $(seq 64))", "$u/12.4.1/local_installers/cuda_12.4.1_550.54.15_linux_ppc64le.run"),
    },
    "11.7.1": {
        "Linux-x86_64": ("$(printf 'd%.0s' $(seq 64))", "$u/11.7.1/local_installers/cuda_11.7.1_515.65.01_linux.run"),
    },
}
EOF
python3 $GEN --check-spack "$T_DIR/package.py" >"$T_DIR/out" 2>&1
is "$?" 1 "--check-spack exits 1 when it printed rows"
is "$(cat "$T_DIR/out")" "# 12.6.3 linux-sbsa: the CSV has cuda_12.6.3_560.35.05_linux_sbsa.run $(awk -F, '$1=="12.6.3" && $2=="linux-sbsa" {print $4}' tools/data/runfiles.csv), spack cuda_12.6.3_560.35.05_linux_sbsa.run $(printf 'b%.0s' $(seq 64))
99.0.0,linux-x86_64,cuda_99.0.0_999.1.2_linux.run,$(printf 'a%.0s' $(seq 64)),,,spack" \
	"... and prints the differing sha256 and the missing label as a CSV row, nothing for 12.4.1, ppc64le or 11.7.1"
test ! -e "$T_DIR/PWNED"
t_ok $? "... having parsed package.py, not run it"
sed -i '/"99.0.0"/,/^    },/d; s/bbbbbbbb*/'"$(awk -F, '$1=="12.6.3" && $2=="linux-sbsa" {print $4}' tools/data/runfiles.csv)"'/' "$T_DIR/package.py"
python3 $GEN --check-spack "$T_DIR/package.py" >"$T_DIR/out" 2>&1
is "$? $(cat "$T_DIR/out")" "0 " "a package.py that agrees with the CSV: exit 0, nothing printed"
printf 'versions = {}\n' >"$T_DIR/other.py"
python3 $GEN --check-spack "$T_DIR/other.py" >"$T_DIR/out" 2>&1
rc=$?
like "$rc $(cat "$T_DIR/out")" "1 gen-runfiles: $T_DIR/other.py: no _versions dictionary*" "a file without _versions is refused, naming it"

# gen_copy: "STATUS STDERR" of the generator copy under $T_DIR, which
# reads the CSV (and sources.lua) beside it
gen_copy() {
	python3 "$T_DIR/tools/gen-runfiles.py" >/dev/null 2>"$T_DIR/err"
	printf '%s %s' "$?" "$(cat "$T_DIR/err")"
}

# A bad CSV row is refused with the file and the row named.
cp tools/data/runfiles.csv "$T_DIR/csv.bak"
mkdir -p "$T_DIR/tools/data" "$T_DIR/recipes/data" && cp $GEN tools/sourceids.py "$T_DIR/tools/"
cp recipes/data/sources.lua "$T_DIR/recipes/data/"
sed 's/^12\.4\.1,linux-x86_64,cuda_12\.4\.1_/12.4.1,linux-x86_64,cuda_12.4.0_/' tools/data/runfiles.csv >"$T_DIR/tools/data/runfiles.csv"
like "$(gen_copy)" "1 gen-runfiles: $T_DIR/tools/data/runfiles.csv: 12.4.1 linux-x86_64: 'cuda_12.4.0_550.54.15_linux.run' is not the runfile name of that label and platform" \
	"a runfile name of another label is refused"
cmp -s tools/data/runfiles.csv "$T_DIR/csv.bak"
t_ok $? "... and the shipped CSV is untouched"
# The sources of a row are ids of recipes/data/sources.lua: the generated
# table cites them in plain words, which the id check of t0211 does not
# read, so a mistyped id must be caught here.
sed 's/^\(12\.4\.1,linux-sbsa,.*\),spack;ctk-catalog$/\1,spack;ctk-catalgo/' "$T_DIR/csv.bak" >"$T_DIR/tools/data/runfiles.csv"
like "$(gen_copy)" "1 gen-runfiles: $T_DIR/tools/data/runfiles.csv: 12.4.1 linux-sbsa: source 'ctk-catalgo' is not an id of recipes/data/sources.lua*" \
	"a source id sources.lua does not define is refused, naming it"
# A row of another shape is refused with its line: a ',' for the ';'
# between two sources (an eighth field, which would drop the second id),
# a missing column (the md5 would be read as the sha256), and a header
# whose columns are swapped (the md5 would be read as the size).
ln=$(grep -n '^12\.4\.1,linux-sbsa,' "$T_DIR/csv.bak" | cut -d: -f1)
sed 's/^\(12\.4\.1,linux-sbsa,.*\),spack;ctk-catalog$/\1,spack,ctk-catalog/' "$T_DIR/csv.bak" >"$T_DIR/tools/data/runfiles.csv"
like "$(gen_copy)" "1 gen-runfiles: $T_DIR/tools/data/runfiles.csv:$ln: 8 fields, not 7 (*sources are separated by ';')" \
	"sources separated by ',' are refused, naming the line"
sed 's/^\(12\.4\.1,linux-sbsa,[^,]*,\)[^,]*,/\1/' "$T_DIR/csv.bak" >"$T_DIR/tools/data/runfiles.csv"
like "$(gen_copy)" "1 gen-runfiles: $T_DIR/tools/data/runfiles.csv:$ln: 6 fields, not 7*" \
	"a row missing its sha256 column is refused as such, not by what shifted into it"
sed '1s/md5,size/size,md5/' "$T_DIR/csv.bak" >"$T_DIR/tools/data/runfiles.csv"
like "$(gen_copy)" "1 gen-runfiles: $T_DIR/tools/data/runfiles.csv: the header is 'label,platform,name,sha256,size,md5,sources', not 'label,platform,name,sha256,md5,size,sources'" \
	"a header of other columns is refused"
# A size checks a runfile only beside its md5: a size alone is refused;
# an md5 alone (md5sum.txt gives no sizes) is carried, and the Lua names
# it without a size.
sed 's/^\(12\.4\.1,linux-sbsa,[^,]*,[^,]*\),[^,]*,/\1,,/' "$T_DIR/csv.bak" >"$T_DIR/tools/data/runfiles.csv"
like "$(gen_copy)" "1 gen-runfiles: $T_DIR/tools/data/runfiles.csv: 12.4.1 linux-sbsa: gives size without md5*" \
	"a size without the md5 is refused"
sed 's/^\(12\.4\.1,linux-sbsa,[^,]*,[^,]*,[^,]*\),[^,]*,/\1,,/' "$T_DIR/csv.bak" >"$T_DIR/tools/data/runfiles.csv"
md5=$(grep '^12\.4\.1,linux-sbsa,' "$T_DIR/csv.bak" | cut -d, -f5)
out=$(python3 "$T_DIR/tools/gen-runfiles.py" 2>&1)
is "$?" 0 "an md5 without the size is accepted"
like "$out" "*\"linux-sbsa\"] = { name = \"cuda_12.4.1_550.54.15_linux_sbsa.run\", sha256 = \"*\", md5 = \"$md5\" }, -- spack ctk-catalog*" \
	"an md5 without the size is carried, with no size"
rm "$T_DIR/recipes/data/sources.lua"
cp "$T_DIR/csv.bak" "$T_DIR/tools/data/runfiles.csv"
like "$(gen_copy)" "1 gen-runfiles: cannot read '$T_DIR/tools/../recipes/data/sources.lua'*" \
	"without sources.lua the ids cannot be checked: refused, naming the file"

# Plans: the runfile alternative of the label a plan installs, with the
# checksum its source gives.  Rows: --cuda, platform profile, label, what
# the alternative says.  Sources: [spack] sha256 (11.8.0-13.3.0),
# [ctk-catalog] NVIDIA's md5 and size (12.0.0-13.4.1), [nixflake-ctk] the
# 12.8.2 and 13.0.3 x86_64 sha256, [setupcuda1342]
# the 13.4.2 names and NVIDIA's md5 (md5sum.txt: no size).
while IFS='|' read -r cuda prof label want; do
	"$PTBUILD" plan --profile "$prof" --cuda "$cuda" >"$T_DIR/plan.txt" 2>&1 </dev/null
	alt=$(grep -A1 '^  alternative' "$T_DIR/plan.txt" | tr '\n' ' ' | tr -s ' ')
	like "$alt" "$want" "--cuda $cuda on $prof: $label's runfile, $(printf '%s' "$want" | cut -c1-60)"
done <<'EOF'
12.4|graviton3|12.4.1|* alternative cuda_12.4.1_550.54.15_linux_sbsa.run the runfile installer (needs root; sha256 b0fbc77effa2...)*
13.1|dgx-h100|13.1.2|* alternative cuda_13.1.2_590.48.01_linux.run the runfile installer (needs root; sha256 ad7d50d49898...)*
13.0|gh200|13.0.3|* alternative cuda_13.0.3_580.126.20_linux_sbsa.run the runfile installer (needs root; NVIDIA publishes no sha256 of it, only md5 567c4b2f052a09241f06585f4ee75785 and 4071904076 bytes*
13.0|dgx-h100|13.0.3|* alternative cuda_13.0.3_580.126.20_linux.run the runfile installer (needs root; sha256 79c82c6529d2...)*
12.3|dgx-h100|12.3.2|* alternative cuda_12.3.2_545.23.08_linux.run the runfile installer (needs root; sha256 24b2afc9f770...)*
13.3|gh200|13.3.1|* alternative cuda_13.3.1_610.43.02_linux_sbsa.run the runfile installer (needs root; NVIDIA publishes no sha256 of it, only md5 90a4467e1ac192963b0713634d5a0e43 and 4202433376 bytes*
13.2|dgx-h100|13.2.2|* alternative cuda_13.2.2_595.71.05_linux.run the runfile installer (needs root; NVIDIA publishes no sha256 of it, only md5 5d7a0bc1f719655f2083fc711cacf7cf and 4400921701 bytes*
13.4|gh200|13.4.2|* alternative cuda_13.4.2_linux_sbsa.run the runfile installer (needs root; NVIDIA publishes no sha256 of it, only md5 a3e8528b87d2fba6e2ce526fe0dc5632: check it before running it)*
13.4|dgx-h100|13.4.2|* alternative cuda_13.4.2_linux.run the runfile installer (needs root; NVIDIA publishes no sha256 of it, only md5 b712b790dfb5ca988d38cbed4d236488: check it before running it)*
EOF
"$PTBUILD" plan --profile gh200 --cuda 13.3 --json >"$T_DIR/p.json" 2>/dev/null </dev/null
"$PTBUILD" generate --plan "$T_DIR/p.json" --out "$T_DIR/gen1" >"$T_DIR/out" 2>&1 </dev/null
is "$?" 0 "a saved plan whose runfile carries md5 and size is read back by generate"
sed 's/"md5": "90a4467e1ac192963b0713634d5a0e43"/"md5": "90A4"/' "$T_DIR/p.json" >"$T_DIR/bad.json"
"$PTBUILD" generate --plan "$T_DIR/bad.json" --out "$T_DIR/gen2" >"$T_DIR/out" 2>&1 </dev/null
rc=$?
like "$rc $(cat "$T_DIR/out")" "2 *cuda.runfile.md5*32 lowercase hexadecimal digits*" "a saved plan with a malformed runfile md5 is refused (exit 2), naming the field"

done_testing
