#!/bin/sh
# t0005-install.sh - an installed ptbuild (DESTDIR) finds its recipes and
# man page with no help from the environment; the completion scripts go
# where bash, zsh and fish look.
. "$top_srcdir/tests/lib.sh"

[ -f "$top_builddir/Makefile" ] || skip_all "no Makefile in the build tree"
dest="$T_DIR/dest"
prefix=$(sed -n 's/^prefix = //p' "$top_builddir/Makefile")
make -C "$top_builddir" install DESTDIR="$dest" >"$T_DIR/install.log" 2>&1
st=$?
is "$st" 0 "make install DESTDIR=... works"
[ "$st" -eq 0 ] || sed 's/^/# /' "$T_DIR/install.log"
[ -x "$dest$prefix/bin/ptbuild" ]; t_ok $? "the binary is installed under DESTDIR"
[ -f "$dest$prefix/share/ptbuild/recipes/lib/archlist.lua" ]; t_ok $? "recipes install under pkgdatadir"
[ -f "$dest$prefix/share/man/man1/ptbuild.1" ]; t_ok $? "the man page is installed"
for f in bash-completion/completions/ptbuild zsh/site-functions/_ptbuild fish/vendor_completions.d/ptbuild.fish; do
	cmp -s "$dest$prefix/share/$f" "$top_srcdir/completions/${f%%[-/]*}/${f##*/}"
	t_ok $? "the ${f%%[-/]*} completion is installed as share/$f"
done

# The binary looks in $(pkgdatadir), which DESTDIR displaces; point the
# path at the staged copy exactly as an installed one would be found.
unset PTBUILD_RECIPE_PATH
run "$dest$prefix/bin/ptbuild" --recipes "$dest$prefix/share/ptbuild/recipes" arch Hopper --cuda 12.4 --to torch
is "$out" "9.0" "the installed binary works with the installed recipes"
if [ ! -d "$prefix/share/ptbuild/recipes" ]; then
	run "$dest$prefix/bin/ptbuild" arch 8.0
	is "$rc" 3 "without recipes on the path the binary says so (exit 3)"
	like "$err" "*recipe 'arch' not found*" "... naming the recipe"
fi
if command -v man >/dev/null 2>&1; then
	MANWIDTH=80 man -l "$dest$prefix/share/man/man1/ptbuild.1" >"$T_DIR/man.txt" 2>/dev/null
	grep -q "TORCH_CUDA_ARCH_LIST" "$T_DIR/man.txt"; t_ok $? "the man page renders"
else
	skip "the man page renders" "man is not installed"
fi
done_testing
