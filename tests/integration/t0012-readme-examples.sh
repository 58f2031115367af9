#!/bin/sh
# t0012-readme-examples.sh - every README example whose output depends on
# ptbuild and its data alone (profiles, fixture sysroots, arch lists,
# --help) is real: run as a reader would run it, at a terminal, its output
# is the README's, line for line ("..." in the README skips lines).
# Examples that read this host, a network or a GPU are not run here.
. "$top_srcdir/tests/lib.sh"
command -v python3 >/dev/null 2>&1 || skip_all "python3 is not installed"
python3 -c 'import pty' 2>/dev/null || skip_all "python3 has no pty module"
mkdir -p "$T_DIR/work"
python3 "$top_srcdir/tests/readme-examples.py" "$top_srcdir" "$PTBUILD" "$T_DIR/work"
rc=$?
rm -rf "$T_DIR"
exit $rc
