"""What the generators share: the source ids recipes/data/sources.lua
defines, read as tests/integration/t0211 reads them (a row that cites an
id no entry there resolves is refused), and the reading of their CSV
tables, header and row shape checked."""
import csv
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


def csv_rows(tool, path, columns):
    """The rows of CSV file path as (line number, {column: field}), blank
    lines skipped; a header other than `columns`, or a row of another
    length (a ',' for a ';' among the sources, a missing column, which
    would shift or drop fields unseen), stops `tool` naming the file."""
    with open(path, newline="") as f:
        reader = csv.reader(f)
        header = next(reader, [])
        if header != columns:
            raise SystemExit("%s: %s: the header is '%s', not '%s'"
                             % (tool, path, ",".join(header), ",".join(columns)))
        for fields in reader:
            if not fields:
                continue
            if len(fields) != len(columns):
                raise SystemExit("%s: %s:%d: %d fields, not %d (%s; sources are separated by ';')"
                                 % (tool, path, reader.line_num, len(fields), len(columns), ",".join(columns)))
            yield reader.line_num, dict(zip(columns, fields))
