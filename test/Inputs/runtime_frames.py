#!/usr/bin/env python3
"""Finds frames of mdebug's runtime in recorded stacks.

usage: runtime_frames.py RUNTIME_ARCHIVE FILE...

Reads every frame of every FILE: heap dumps written with backtrace_full
(the bt_info entries: module and function) and report text (the
"#NN pc 0xOFFSET in FUNCTION FILE:LINE:COL (MODULE)" lines, where the
function part may be "in FUNCTION+0xN" or absent). A frame is the runtime's when
its module is libmdebug-rt.so or its function is one the runtime archive
defines (llvm-nm RUNTIME_ARCHIVE). Prints one "runtime frame: ..." line for
each and exits 1 if there is any; otherwise prints "frames: N, none of the
runtime" (N > 0 required: a file without frames proves nothing).
"""
import os
import re
import subprocess
import sys

BT_INFO_ENTRY = re.compile(r' \{"([^"]*)" [0-9a-f]+ "([^"]*)" [0-9a-f]+\}')
REPORT_FRAME = re.compile(
    r"^ *#[0-9]+ pc 0x[0-9a-f]+ "
    r"(?:in (.+?)(?:\+0x[0-9a-f]+| \S+:[0-9]+(?::[0-9]+)?)? )?\((\S+)\)$")


def runtime_functions(archive):
    out = subprocess.run(["llvm-nm", "--defined-only", archive], check=True,
                         capture_output=True, text=True).stdout
    names = set()
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[1] in "Tt":
            names.add(parts[2])
    if "md_unwind" not in names:
        sys.exit("runtime_frames.py: %s does not look like mdebug's runtime" % archive)
    return names


def frames(path):
    for line in open(path, errors="replace"):
        if line.startswith("  bt_info"):
            for module, function in BT_INFO_ENTRY.findall(line):
                yield module, function
            continue
        m = REPORT_FRAME.match(line.rstrip("\n"))
        if m:
            yield m.group(2), m.group(1) or ""


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    runtime = runtime_functions(sys.argv[1])
    count, bad = 0, 0
    for path in sys.argv[2:]:
        for module, function in frames(path):
            count += 1
            if os.path.basename(module).startswith("libmdebug-rt") or function in runtime:
                bad += 1
                print("runtime frame: %s: %s (%s)" % (path, module, function))
    if bad:
        sys.exit(1)
    if not count:
        sys.exit("runtime_frames.py: no frame found in %s" % " ".join(sys.argv[2:]))
    print("frames: %d, none of the runtime" % count)


main()
