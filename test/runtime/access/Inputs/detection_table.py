#!/usr/bin/env python3
"""detection_table.py - which heap bugs each mode of mdebug catches.

Builds each bug program of test/runtime/access twice with mdebug-clang (with
-fmdebug-check-access, and without), runs it (no argument: the bug; "clean":
its correct twin) and prints one row a program:

  program | bug | checked accesses | clean twin | default | page_guard=1

"checked accesses" says whether the bug was caught at the access: the first
report is of the expected kind and names the faulty read or write at its
source line. "clean twin" must print nothing from mdebug and exit 0. The last
two columns show what the same bug does in a build without the checks, with
the default options and with every block page-guarded (a report's kind, or
"not caught"): shown, not judged. Exits 1 when a checked-access row is not
caught or a clean twin is not silent.

usage: detection_table.py MDEBUG_CLANG SRC_DIR WORK_DIR
"""
import os
import re
import subprocess
import sys

# program, the bug, the report's kind, "read"/"written", the access's line.
PROGRAMS = [
    ("read_after_free", "read after free", "use after free", "read", "read_after_free.c:16"),
    ("over_read", "over-read", "heap buffer overflow", "read", "over_read.c:18"),
    ("under_read", "under-read", "heap buffer overflow", "read", "under_read.c:13"),
    ("wild_write", "wild write 1 MiB past", "heap buffer overflow", "written", "wild_write.c:15"),
    ("neighbour_write", "write into neighbour", "heap buffer overflow", "written",
     "neighbour_write.c:12"),
]


def build(cc, src, out, flags):
    subprocess.run([cc, *flags, "-O1", "-g", src, "-o", out], check=True)


def run(binary, args, options=None):
    env = {k: v for k, v in os.environ.items() if k != "MDEBUG_OPTIONS"}
    if options:
        env["MDEBUG_OPTIONS"] = options
    try:
        p = subprocess.run([binary, *args], env=env, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, timeout=120)
    except subprocess.TimeoutExpired:
        return "timeout", -1
    return p.stdout.decode(errors="replace"), p.returncode


def first_report(output):
    """The kind of the first report, and the line naming its access."""
    m = re.search(r"^mdebug: ERROR: (.+?) in ", output, re.M)
    if not m:
        return None, None
    rest = output[m.end():]
    where = re.search(r"^  (read|written)(?: by \w+)? at \S*?([\w.]+:\d+):\d+ ", rest, re.M)
    return m.group(1), where


def outcome(output, status):
    kind, _ = first_report(output)
    if kind:
        return kind
    if status < 0:
        return "crash, no report"
    return "not caught"


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    cc, src_dir, work = sys.argv[1:]
    os.makedirs(work, exist_ok=True)
    failed = False
    print("program | bug | checked accesses | clean twin | default | page_guard=1")
    for name, bug, kind, verb, line in PROGRAMS:
        src = os.path.join(src_dir, name + ".c")
        checked, plain = os.path.join(work, name + ".access"), os.path.join(work, name)
        build(cc, src, checked, ["-fmdebug-check-access"])
        build(cc, src, plain, [])
        found, where = first_report(run(checked, [])[0])
        if found == kind and where and where.group(1) == verb and where.group(2) == line:
            caught = "caught: %s, %s at %s" % (kind, verb, line)
        else:
            failed = True
            caught = "NOT CAUGHT (first report: %s%s)" % (
                found or "none", where and ", %s at %s" % where.groups() or "")
        output, status = run(checked, ["clean"])
        if "mdebug" in output or status != 0:
            failed = True
            clean = "NOT SILENT (exit %d)" % status
        else:
            clean = "silent, exit 0"
        default = outcome(*run(plain, []))
        guarded = outcome(*run(plain, [], "page_guard=1"))
        print(" | ".join([name, bug, caught, clean, default, guarded]))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
