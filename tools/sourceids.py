"""The source ids recipes/data/sources.lua defines, read as
tests/integration/t0211 reads them: the generators refuse a row that cites
an id no entry there resolves."""
import os
import re

HERE = os.path.dirname(os.path.abspath(__file__))


def source_ids(tool):
    """The set of ids; `tool` names the generator in the error."""
    path = os.path.join(HERE, "..", "recipes", "data", "sources.lua")
    try:
        with open(path) as f:
            text = f.read()
    except OSError as e:
        raise SystemExit("%s: cannot read '%s': %s (the source ids are checked against it)"
                         % (tool, path, e.strerror))
    return set(m.group(1) or m.group(2)
               for m in re.finditer(r'^  (?:\["([^"]+)"\]|([A-Za-z_][A-Za-z0-9_]*)) = ', text, re.M))
