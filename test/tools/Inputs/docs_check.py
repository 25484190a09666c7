#!/usr/bin/env python3
"""docs_check.py - checks docs/profile-format.md against profile.def: every
MD_PROFILE_RECORD(NAME, "TAG", "FIELDS") must have a table row
"| `TAG` | FIELDS |". Writes the document's example profile (the ``` block
under "## Example") to OUT so a test can read it.

usage: docs_check.py PROFILE.DEF PROFILE-FORMAT.MD OUT
"""
import re
import sys

defs = re.findall(r'^MD_PROFILE_RECORD\(\w+, "([^"]+)", "([^"]*)"\)',
                  open(sys.argv[1]).read(), re.M)
doc = open(sys.argv[2]).read()
missing = []
for tag, fields in defs:
    if not re.search(r"^\| `%s` \| %s \|" % (re.escape(tag), re.escape(fields)),
                     doc, re.M):
        missing.append(tag)
        print("not documented (or fields differ): %s %s" % (tag, fields))
print("%d record kinds documented, %d missing" % (len(defs) - len(missing),
                                                   len(missing)))
example = re.search(r"^## Example\n.*?^```\n(.*?)^```", doc, re.M | re.S)
open(sys.argv[3], "w").write(example.group(1) if example else "")
