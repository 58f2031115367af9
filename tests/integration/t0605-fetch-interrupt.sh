#!/bin/sh
# t0605-fetch-interrupt.sh - an install killed with SIGKILL while it
# unpacks, and an install onto a full file system: the prefix is the old
# one, never half of the new one.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/fetch/lib.sh"
fx_need python3 xz
trap 'fx_cleanup; [ -n "$mnt" ] && umount "$mnt" 2>/dev/null' EXIT

export XDG_CACHE_HOME="$T_DIR/cache" PTBUILD_RETRY_DELAY_MS=20
python3 "$top_srcdir/tests/fetch/mkarchives.py" good "$T_DIR/fx" --components 2 --kib 8 >/dev/null
# big.tar.gz: 48 MiB of zeros in one file (a few seconds of work to unpack
# on a busy machine, 50 KiB to store).
python3 - "$T_DIR" <<'EOF'
import io, json, hashlib, os, sys, tarfile
d = sys.argv[1]
p = os.path.join(d, "big.tar.gz")
with tarfile.open(p, "w:gz", compresslevel=1) as t:
    for n in ("big", "big/lib"):
        ti = tarfile.TarInfo(n); ti.type = tarfile.DIRTYPE; ti.mode = 0o755; t.addfile(ti)
    for i in range(4):
        ti = tarfile.TarInfo("big/lib/libbig%d.so" % i); ti.size = 12 << 20; ti.mode = 0o755
        t.addfile(ti, io.BytesIO(bytes(12 << 20)))
h = hashlib.sha256(open(p, "rb").read()).hexdigest()
json.dump({"name": "big", "kind": "archive", "url": "file://" + p, "size": os.path.getsize(p), "sha256": h},
          open(os.path.join(d, "big.item"), "w"))
EOF
export PTBUILD_MAX_UNPACK_RATIO=100000
run "$PTBUILD" fetch --platform linux-x86_64 --manifest "$T_DIR/fx/redistrib_12.4.1.json" --prefix "$T_DIR/p/cuda"
is "$rc" 0 "the old prefix"
before=$(fx_tree "$T_DIR/p/cuda")

# The new set: big (unpacks while) slow, whose transfer stalls, keeps the
# install open.  Kill it as soon as big is being written.
fx_faults "$T_DIR/fx"
rel=$(python3 -c 'import json,sys; m=json.load(open(sys.argv[1]))["comp01"]["linux-x86_64"]; print(m["relative_path"], m["sha256"], m["size"])' "$T_DIR/fx/redistrib_12.4.1.json")
set -- $rel
printf '{"schema": "ptbuild.lock/1", "items": [%s, {"name": "slow", "url": "http://127.0.0.1:%s/stall/%s", "sha256": "%s", "size": %s}]}\n' \
	"$(cat "$T_DIR/big.item")" "$FAULT_PORT" "$1" "$2" "$3" >"$T_DIR/new.lock"
# (Each stalled run gets an empty cache, so "slow" really has to be fetched.)
PTBUILD_LOW_SPEED_TIME=60 "$PTBUILD" fetch --lock "$T_DIR/new.lock" --cache "$T_DIR/c-kill" --prefix "$T_DIR/p/cuda" >"$T_DIR/kill.out" 2>&1 &
pid=$!
i=0
while [ $i -lt 300 ] && ! ls "$T_DIR"/p/.cuda.ptb-stage.*/lib/libbig0.so >/dev/null 2>&1; do
	sleep 0.02
	i=$((i + 1))
done
kill -9 $pid
size=$(du -sb "$T_DIR"/p/.cuda.ptb-stage.*/lib 2>/dev/null | cut -f1)
wait $pid 2>/dev/null
[ -n "$size" ]; t_ok $? "killed with SIGKILL during the install (${size:-?} of 50331648 bytes unpacked)"
sleep 0.2
is "$(fx_tree "$T_DIR/p/cuda")" "$before" "the prefix is the old one, intact"
ls -d "$T_DIR"/p/.cuda.ptb-stage.* >/dev/null 2>&1; t_ok $? "the staging folder of the killed run is left beside it"
run "$PTBUILD" fetch --platform linux-x86_64 --manifest "$T_DIR/fx/redistrib_12.4.1.json" --components comp01 --prefix "$T_DIR/p/cuda"
is "$rc" 0 "the next run installs"
ls -d "$T_DIR"/p/.cuda.ptb-* >/dev/null 2>&1; t_ok $((!$?)) "... and removes the dead run's staging folder"

# SIGTERM (or ^C) while the install is open: a clean stop.
PTBUILD_LOW_SPEED_TIME=60 "$PTBUILD" fetch --lock "$T_DIR/new.lock" --cache "$T_DIR/c-term" --prefix "$T_DIR/p/cuda" >"$T_DIR/term.out" 2>&1 &
pid=$!
i=0
while [ $i -lt 300 ] && ! ls "$T_DIR"/p/.cuda.ptb-stage.*/lib/libbig0.so >/dev/null 2>&1; do
	sleep 0.02
	i=$((i + 1))
done
before=$(fx_tree "$T_DIR/p/cuda")
kill -TERM $pid
wait $pid
is "$?" 4 "SIGTERM during the install stops it (exit 4)"
like "$(cat "$T_DIR/term.out")" "*interrupted by signal 15*" "... saying so"
is "$(fx_tree "$T_DIR/p/cuda")" "$before" "... the prefix is unchanged"
ls -d "$T_DIR"/p/.cuda.ptb-* >/dev/null 2>&1; t_ok $((!$?)) "... and its staging folder is removed"

# A full disk.
mnt="$T_DIR/small"
mkdir -p "$mnt"
if ! mount -t tmpfs -o size=4m tmpfs "$mnt" 2>/dev/null; then
	mnt=""
	skip "a full disk gives a clear error" "cannot mount a tmpfs here (needs root)"
	done_testing
	exit
fi
run "$PTBUILD" fetch --platform linux-x86_64 --manifest "$T_DIR/fx/redistrib_12.4.1.json" --prefix "$mnt/cuda"
is "$rc" 0 "a small set fits on a 4 MiB tmpfs"
small=$(fx_tree "$mnt/cuda")
printf '{"schema": "ptbuild.lock/1", "items": [%s]}\n' "$(cat "$T_DIR/big.item")" >"$T_DIR/big.lock"
run "$PTBUILD" fetch --lock "$T_DIR/big.lock" --prefix "$mnt/cuda"
is "$rc" 4 "a set that does not fit fails (exit 4)"
like "$err" "*cannot extract*big*No space left on device*" "... saying the disk is full"
is "$(fx_tree "$mnt/cuda")" "$small" "... the old prefix is intact"
is "$(ls -a "$mnt" | tr '\n' ' ')" ". .. cuda " "... and nothing half-installed is left"
umount "$mnt" && mnt=""
done_testing
