#!/bin/sh
# bench/fetch-bench.sh - ptbuild fetch against its floor and against the
# sequential pipeline users write (curl, sha256sum, tar -xJf, one component
# after another, from nginx over TLS on loopback), alternated in one run.
#
#   floor       the same archives, already local, unpacked by one
#               `tar -xJf` per core at once: no download, no hash
#   sequential  curl + sha256sum + tar, one component after another
#   cold        ptbuild fetch with an empty cache
#   warm        ptbuild fetch --offline from the filled cache
#
#   bench/fetch-bench.sh [MB] [COMPONENTS]     default 500 MB in 12 components
#
# Needs a built ./ptbuild, nginx, openssl, curl, xz, python3.  Fixtures are
# kept in $BENCH_DIR (default /tmp/ptbuild-bench) between runs.  Not part of
# `make check`.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
MB=${1:-500}
N=${2:-12}
B=${BENCH_DIR:-/tmp/ptbuild-bench}
PTBUILD=${PTBUILD:-$top/ptbuild}
mkdir -p "$B"
T_DIR=$B/run
rm -rf "$T_DIR"
mkdir -p "$T_DIR"
skip_all() { echo "bench: $1" >&2; exit 1; }
top_srcdir=$top
. "$top/tests/fetch/lib.sh"
trap fx_cleanup EXIT

# Fixtures: N components, MB of .tar.xz in all; data half random, half
# repetitive so xz works about as hard as on real libraries (ratio ~2).
fx=$B/fx-$MB-$N
if [ ! -f "$fx/redistrib_99.0.0.json" ]; then
	echo "bench: building $MB MB of .tar.xz in $N components (once)..." >&2
	rm -rf "$fx" && mkdir -p "$fx"
	python3 - "$fx" "$MB" "$N" <<'EOF'
import hashlib, json, os, random, subprocess, sys
d, mb, n = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
rng = random.Random(1)
man = {"release_date": "2026-01-01", "release_label": "99.0.0", "release_product": "cuda"}
# Component sizes vary like NVIDIA's (a few big, many small).
weights = [rng.uniform(0.3, 3.0) for _ in range(n)]
for i in range(n):
    comp = "bench_comp%02d" % i
    raw = int(mb * 2 * weights[i] / sum(weights)) << 20   # ~2x ratio
    top = "%s-linux-x86_64-99.0.%d-archive" % (comp, i)
    src = os.path.join(d, "src", top)
    os.makedirs(os.path.join(src, "lib"), exist_ok=True)
    os.makedirs(os.path.join(src, "include"), exist_ok=True)
    open(os.path.join(src, "include", comp + ".h"), "w").write("/* %s */\n" % comp)
    nfiles = max(1, raw // (24 << 20))
    for f in range(nfiles):
        with open(os.path.join(src, "lib", "lib%s_%d.so" % (comp, f)), "wb") as out:
            left = raw // nfiles
            while left > 0:
                r = os.urandom(32768)
                out.write(r + r[:16384] * 2)     # 64 KiB, about half compressible
                left -= 65536
    rel = "%s/linux-x86_64/%s.tar.xz" % (comp, top)
    path = os.path.join(d, rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    subprocess.run("tar -C %s -cf - %s | xz -1 -T2 > %s" % (os.path.join(d, "src"), top, path), shell=True, check=True)
    subprocess.run(["rm", "-rf", src], check=True)
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for b in iter(lambda: f.read(1 << 20), b""):
            h.update(b)
    man[comp] = {"name": comp, "license": "bench", "version": "99.0.%d" % i,
                 "linux-x86_64": {"relative_path": rel, "sha256": h.hexdigest(), "md5": "0" * 32,
                                  "size": str(os.path.getsize(path))}}
json.dump(man, open(os.path.join(d, "redistrib_99.0.0.json"), "w"), indent=4)
EOF
fi
total=$(du -cb "$fx"/*/linux-x86_64/*.tar.xz | tail -1 | cut -f1)
fx_ca "$T_DIR/ca"
fx_nginx "$fx" "$T_DIR/ca"
base="https://127.0.0.1:$NGX_HTTPS"
export CURL_CA_BUNDLE="$T_DIR/ca/ca.pem"
sync

# The pipeline users write.
cat >"$T_DIR/sequential.sh" <<EOF
set -e
cd "$T_DIR/seq-dl"
curl -fsS --cacert "$CURL_CA_BUNDLE" -o manifest.json "$base/redistrib_99.0.0.json"
python3 -c '
import json
m = json.load(open("manifest.json"))
for k, v in m.items():
    if k.startswith("release_"): continue
    e = v["linux-x86_64"]
    print(e["relative_path"], e["sha256"])
' | while read -r rel sha; do
	f=\$(basename "\$rel")
	curl -fsS --cacert "$CURL_CA_BUNDLE" -o "\$f" "$base/\$rel"
	echo "\$sha  \$f" | sha256sum -c --quiet
	tar -xJf "\$f" -C "$T_DIR/seq-prefix" --strip-components=1
done
EOF
# The floor: nothing downloaded or hashed, the cores all unpacking.
cpus=$(nproc)
cat >"$T_DIR/floor.sh" <<EOF
set -e
ls "$fx"/*/linux-x86_64/*.tar.xz | xargs -P $cpus -n 1 tar -C "$T_DIR/floor-prefix" --strip-components=1 -xJf
EOF
measure() { # NAME CMD... -> "seconds maxrss_kib cpu_seconds"
	name=$1
	shift
	/usr/bin/time -f "%e %M %U %S" -o "$T_DIR/$name.time" "$@" >"$T_DIR/$name.out" 2>"$T_DIR/$name.err" ||
		{ cat "$T_DIR/$name.err" >&2; exit 1; }
	read -r s rss u sy <"$T_DIR/$name.time"
	echo "$s $rss $(python3 -c "print($u + $sy)")"
}
# The machine is shared: alternate the contenders, ROUNDS times, and
# report medians and the ratio of each round.
ROUNDS=${ROUNDS:-3}
load0=$(cut -d' ' -f1-3 /proc/loadavg)
r=1
: >"$T_DIR/results"
while [ $r -le "$ROUNDS" ]; do
	rm -rf "$T_DIR/seq-dl" "$T_DIR/seq-prefix" "$T_DIR/cache" "$T_DIR/pt-prefix" "$T_DIR/pt-prefix2" "$T_DIR/nginx" \
		"$T_DIR/floor-prefix"
	mkdir -p "$T_DIR/seq-dl" "$T_DIR/seq-prefix" "$T_DIR/floor-prefix"
	fx_nginx "$fx" "$T_DIR/ca"
	base="https://127.0.0.1:$NGX_HTTPS"
	sed -i "s|https://127.0.0.1:[0-9]*|$base|g" "$T_DIR/sequential.sh"
	sync
	floor=$(measure floor sh "$T_DIR/floor.sh")
	sync
	seq=$(measure sequential sh "$T_DIR/sequential.sh")
	sync
	cold=$(measure ptbuild-cold "$PTBUILD" fetch --platform linux-x86_64 --mirror "$base" --cuda 99.0.0 \
		--cache "$T_DIR/cache" --prefix "$T_DIR/pt-prefix")
	sync
	fx_cleanup   # no network at all for the warm run
	warm=$(measure ptbuild-warm "$PTBUILD" fetch --platform linux-x86_64 --lock "$T_DIR/pt-prefix/.ptbuild-lock.json" \
		--offline --cache "$T_DIR/cache" --prefix "$T_DIR/pt-prefix2")
	echo "$r $seq $cold $warm $floor" >>"$T_DIR/results"
	echo "bench: round $r: floor $floor | sequential $seq | cold $cold | warm $warm (wall s, RSS KiB, CPU s)" >&2
	r=$((r + 1))
done
load1=$(cut -d' ' -f1-3 /proc/loadavg)
same=no
diff -r "$T_DIR/seq-prefix/lib" "$T_DIR/pt-prefix/lib" >/dev/null &&
	diff -r "$T_DIR/floor-prefix/lib" "$T_DIR/pt-prefix/lib" >/dev/null && same=yes
python3 - "$total" "$N" "$same" "$load0" "$load1" "$T_DIR/results" "$cpus" <<'EOF'
import statistics, sys
tot, n, same, l0, l1, res, cpus = sys.argv[1:]
rows = [list(map(float, l.split())) for l in open(res)]
col = lambda i: [r[i] for r in rows]
med = statistics.median
ss, rs, cs = med(col(1)), max(col(2)), med(col(3))
sc, rc, cc = med(col(4)), max(col(5)), med(col(6))
sw, rw, cw = med(col(7)), max(col(8)), med(col(9))
sf, rf, cf = med(col(10)), max(col(11)), med(col(12))
print("archives: %d components, %.0f MiB of .tar.xz, nginx over TLS on 127.0.0.1" % (int(n), int(tot) / 2**20))
print("%d rounds, contenders alternated; load average %s before, %s after (%s cores, shared)" % (len(rows), l0, l1, cpus))
print("%-36s %7s %7s %10s   %s" % ("median of the rounds", "wall s", "CPU s", "peak RSS", "vs floor, vs sequential"))
print("%-36s %7.2f %7.2f %6.1f MiB   1.00x" % ("floor: %s x tar -xJf, local files" % cpus, sf, cf, rf / 1024))
print("%-36s %7.2f %7.2f %6.1f MiB   %.2fx" % ("curl + sha256sum + tar, sequential", ss, cs, rs / 1024, ss / sf))
print("%-36s %7.2f %7.2f %6.1f MiB   %.2fx, %.2fx faster" % ("ptbuild fetch, cold cache", sc, cc, rc / 1024, sc / sf, ss / sc))
print("%-36s %7.2f %7.2f %6.1f MiB   %.2fx, %.2fx faster (no network)" % ("ptbuild fetch --offline, warm cache", sw, cw, rw / 1024, sw / sf, ss / sw))
print("cold against the floor per round: %s" % ", ".join("%.2fx" % (r[4] / r[10]) for r in rows))
print("speed-up over sequential per round: %s" % ", ".join("%.2fx" % (r[1] / r[4]) for r in rows))
print("same files installed by both: %s" % same)
EOF
