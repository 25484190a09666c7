#!/usr/bin/env python3
"""in_range.py - for tests of estimates (sampling, growth scores): reads
stdin, takes the last space-separated field (or, with csv:N, the N-th
comma-separated field, from 1) of the first line that contains TEXT as a
number and checks it lies in [MIN, MAX].

usage: in_range.py TEXT MIN MAX [csv:N]
Prints "N in range" or "N OUT OF RANGE [MIN, MAX]", or "no line with TEXT".
"""
import sys

text, lo, hi = sys.argv[1], float(sys.argv[2]), float(sys.argv[3])
field = int(sys.argv[4][4:]) if len(sys.argv) > 4 else 0
for line in sys.stdin:
    if text in line:
        value = float(line.split(",")[field - 1] if field else line.split()[-1])
        print("%g %s" % (value, "in range" if lo <= value <= hi else
                         "OUT OF RANGE [%g, %g]" % (lo, hi)))
        break
else:
    print("no line with %s" % text)
