#!/usr/bin/env python3
"""Keeps docs/options.md's option table equal to the runtime's options table.

Reads the runtime's `MDEBUG_OPTIONS=help` output on stdin, renders it as the
Markdown table that sits in the file between the OPTIONS markers, and
  --check docs/options.md   exits 1 with a diff if the file differs
  --update docs/options.md  rewrites the file's table
  --names-in README.md      exits 1 naming any option of the file's tables
                            (first cells `name...`) the runtime does not know
"""
import difflib
import re
import sys

BEGIN, END = "<!-- BEGIN OPTIONS (generated from MDEBUG_OPTIONS=help) -->", "<!-- END OPTIONS -->"


def table_from_help(text):
    rows = ["| option | values | what it does |", "|---|---|---|"]
    lines = text.splitlines()
    start = [i for i, l in enumerate(lines) if l.startswith("mdebug options,")]
    if not start:
        sys.exit("options_table.py: no 'mdebug options,' header in the help output")
    for line in lines[start[0] + 1:]:
        if not line.startswith("  "):
            break
        # help prints three columns (syntax, values, what it does), each
        # padded and separated by at least two spaces; values may be empty
        fields = re.split(r" {2,}", line.strip())
        if len(fields) == 2:
            fields.insert(1, "")
        if len(fields) != 3:
            sys.exit("options_table.py: cannot parse help line: %r" % line)
        syntax, values, what = fields
        if not syntax or not what or " " in syntax:
            sys.exit("options_table.py: cannot parse help line: %r" % line)
        rows.append("| `%s` | %s | %s |" % (syntax, values, what))
    if len(rows) < 4:
        sys.exit("options_table.py: no options in the help output")
    return rows


def main():
    mode, readme = sys.argv[1], sys.argv[2]
    rows = table_from_help(sys.stdin.read())
    text = open(readme).read()
    if mode == "--names-in":
        known = {re.match(r"\| `(\w+)", r).group(1) for r in rows[2:]}
        named = set()
        for cell in re.findall(r"^\| ((?:`[^`]+` ?)+) \|", text, re.M):
            named.update(re.findall(r"`(\w+)", cell))
        unknown = sorted(named - known)
        if unknown:
            print("%s names options the runtime does not know: %s" % (readme, " ".join(unknown)))
            return 1
        print("README names %d options, all known" % len(named))
        return 0
    m = re.search(re.escape(BEGIN) + r"\n(.*?)" + re.escape(END), text, re.S)
    if not m:
        sys.exit("options_table.py: %s has no %s ... %s block" % (readme, BEGIN, END))
    current = m.group(1).rstrip("\n").split("\n")
    if mode == "--update":
        new = text[: m.start(1)] + "\n".join(rows) + "\n" + text[m.end(1):]
        open(readme, "w").write(new)
        return 0
    if current != rows:
        sys.stdout.writelines(difflib.unified_diff(
            [r + "\n" for r in current], [r + "\n" for r in rows],
            readme, "MDEBUG_OPTIONS=help"))
        print("option table of %s differs from the runtime's options table; "
              "regenerate it with: MDEBUG_OPTIONS=help <any mdebug program> 2>&1 >/dev/null "
              "| test/Inputs/options_table.py --update %s" % (readme, readme))
        return 1
    print("option table matches (%d options)" % (len(rows) - 2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
