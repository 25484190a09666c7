#!/usr/bin/env python3
"""profile_blocks.py - counts what a heap profile (.mdprof) says, for tests
whose exact figures are random (sampling): the B records of one snapshot,
by block size, and checks the count lies in [MIN, MAX].

usage: profile_blocks.py FILE LABEL SIZE MIN MAX
Prints "SIZE: N blocks, in range" or "SIZE: N blocks, OUT OF RANGE [MIN, MAX]".
"""
import sys

path, label, size, lo, hi = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
numbers = {}
count = 0
for line in open(path, encoding="utf-8", errors="replace"):
    f = line.split()
    if f and f[0] == "A":  # A number time blocks label crc
        numbers[f[1]] = f[4]
    elif f and f[0] == "B" and numbers.get(f[1]) == label and int(f[3]) == size:
        count += 1
ok = lo <= count <= hi
print("%d: %d blocks, %s" % (size, count, "in range" if ok else "OUT OF RANGE [%d, %d]" % (lo, hi)))
