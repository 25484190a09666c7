"""Checks the leak reports of a program that runs many mid-run leak checks,
each after losing one block of a known size, while other threads allocate
and free: every report must list exactly that block, and its "still
reachable" total must be possible (no more bytes than blocks times the
largest block the program allocates).

usage: leak_totals.py LOST_SIZE MAX_BLOCK CHECKS < output
Prints "ok: N reports" or the first bad line (any line but those of such
reports is bad).
"""
import re
import sys

lost, max_block, checks = (int(a) for a in sys.argv[1:4])
head = re.compile(r"mdebug: (\d+) bytes? leaked in (\d+) blocks? \(1 direct, 0 "
                  r"indirect\) so far; (\d+) blocks? \((\d+) bytes\) still reachable$")
reports = 0
returns = 0
for line in sys.stdin:
    line = line.rstrip("\n")
    if line.startswith("check returned "):
        if line != "check returned 1":
            print("bad return: " + line)
            sys.exit(1)
        returns += 1
        continue
    if (line.startswith("*** ") or line.startswith("mdebug: ERROR: memory leak in ")
            or line.startswith("mdebug: SUMMARY: ") or line.startswith("+++ ")
            or line.startswith("  allocated by malloc at ")
            or line == "Direct leak of %d bytes in 1 block:" % lost):
        continue
    m = head.match(line)
    if not m:
        print("bad report: " + line)
        sys.exit(1)
    leaked, blocks, reach_blocks, reach_bytes = (int(g) for g in m.groups())
    if leaked != lost or blocks != 1 or reach_bytes > reach_blocks * max_block:
        print("bad totals: " + line)
        sys.exit(1)
    reports += 1
if reports != checks or returns != checks:
    print("expected %d reports and returns, got %d and %d" % (checks, reports, returns))
    sys.exit(1)
print("ok: %d reports" % reports)
