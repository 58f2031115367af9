#!/usr/bin/env python3
"""funclen.py - the functions longer than a limit, for splitting reviews.

    tools/funclen.py [--limit N] FILE...      (default N: 80)

Lua: from a line `[local ]function NAME(` (or `NAME = function(`, or a
line that ends with an anonymous `function(ARGS)` passed as an argument,
`check("name", ..., function(c)`, named by its first string) to the first
later line that is the same indentation followed by `end`.  C: from
the line with the name and `(` above a `{` in column 0 to the next `}` in
column 0.  Prints `LINES FILE:LINE NAME` for each function over the limit,
longest first, then a count.  Exit status 0 either way.
"""
import re
import sys


def lua_functions(path, lines):
    for i, line in enumerate(lines):
        m = re.match(r'^(\s*)(?:local\s+)?function\s+([\w.:]+)\s*\(', line) or \
            re.match(r'^(\s*)(?:local\s+)?([\w.\[\]"]+)\s*=\s*function\s*\(', line)
        name = m and m.group(2)
        if not m:
            # an anonymous function as an argument: check("x", function(c)
            m = re.match(r'^(\s*)(\w[\w.:]*)\s*\(.*\bfunction\s*\([^()]*\)\s*$', line)
            if not m:
                continue
            first = re.search(r'"([^"]*)"', line)
            name = "%s(%s)" % (m.group(2), first.group(1) if first else "function")
        for j in range(i + 1, len(lines)):
            if re.match('^' + m.group(1) + r'end\b', lines[j]):
                yield j - i + 1, path, i + 1, name
                break


def c_functions(path, lines):
    for i, line in enumerate(lines):
        if line != "{" or i == 0:
            continue
        k = i - 1
        while k > 0 and "(" not in lines[k]:
            k -= 1
        name = re.search(r'(\w+)\s*\(', lines[k])
        for j in range(i + 1, len(lines)):
            if lines[j].startswith("}"):
                yield j - k + 1, path, k + 1, name.group(1) if name else "?"
                break


def main(argv):
    limit = 80
    if len(argv) > 1 and argv[0] == "--limit":
        limit, argv = int(argv[1]), argv[2:]
    rows = []
    for path in argv:
        with open(path, encoding="utf-8") as f:
            lines = f.read().split("\n")
        find = lua_functions if path.endswith(".lua") else c_functions
        rows.extend(find(path, lines))
    over = sorted((r for r in rows if r[0] > limit), reverse=True)
    for n, path, line, name in over:
        print("%4d %s:%d %s" % (n, path, line, name))
    print("# %d function(s) over %d lines, of %d" % (len(over), limit, len(rows)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
