#!/bin/sh
# check-layers.sh [SRCDIR] - each layer of ptbuild's src/ includes only
# itself and the layers below it (doc/DESIGN.md).  Prints every include
# that goes up or sideways as FILE: includes "DIR/..." (LAYER may not
# use DIR) and exits 1 when there is one; 2 when SRCDIR has a folder
# this list does not place.  Two more rules of the design: a process is
# started only by util/run.c (fork, vfork, posix_spawn, popen, system,
# exec*), and a recipe is called only through lua/recipe.c's wrapper
# (ptb_lua_call outside src/lua/).
set -u
src=${1:-$(dirname "$0")/../src}
# lowest first; names in one quoted word share a level (cli dispatches
# to the commands, which read cli's context)
LAYERS="util lua binfmt fetch generate detect core validate cmd+cli"

level() { # DIR -> its level number, or nothing
	n=0
	for l in $LAYERS; do
		n=$((n + 1))
		case "+$l+" in *"+$1+"*) echo "$n"; return ;; esac
	done
}

bad=0
for dir in "$src"/*/; do
	d=$(basename "$dir")
	ls "$dir"*.[ch] >/dev/null 2>&1 || continue    # build leftovers only
	me=$(level "$d")
	if [ -z "$me" ]; then
		echo "check-layers: '$d' is in no layer (add it to LAYERS and doc/DESIGN.md)" >&2
		exit 2
	fi
	for f in "$dir"*.c "$dir"*.h; do
		[ -f "$f" ] || continue
		for inc in $(sed -n 's|^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([a-z_]*\)/.*|\1|p' "$f" | sort -u); do
			[ "$inc" = "$d" ] && continue
			them=$(level "$inc")
			[ -z "$them" ] && continue
			if [ "$them" -gt "$me" ]; then
				echo "${f#"$src"/}: includes \"$inc/...\" ($d may not use $inc)"
				bad=1
			fi
		done
	done
done

# the one process runner, the one recipe wrapper
for f in "$src"/*/*.c; do
	[ -f "$f" ] || continue
	rel=${f#"$src"/}
	code=$(sed 's|/\*.*\*/||; s|//.*||' "$f")
	if [ "$rel" != util/run.c ] &&
		printf '%s\n' "$code" | grep -Eq '(^|[^_a-z])(fork|vfork|posix_spawnp?|popen|system|execvp?e?|execl[pe]?)[[:space:]]*\('; then
		echo "$rel: starts a process (only util/run.c may)"
		bad=1
	fi
	case "$rel" in lua/*) continue ;; esac
	if printf '%s\n' "$code" | grep -q 'ptb_lua_call[[:space:]]*('; then
		echo "$rel: calls a recipe with ptb_lua_call (use ptb_recipe_call)"
		bad=1
	fi
done
exit $bad
