#!/usr/bin/env python3
"""profile_frees.py - lists the frees a heap profile (.mdprof) recorded (F
records), grouped: "ALLOC -> FREE size S x N stacks A/F same-thread T",
where ALLOC and FREE are sites named "function:line" from the S records
(or their ids), A and F say whether every record had an allocation and a
free stack, and T how many were freed by the allocating process's main
thread (tid == pid). Sorted, one line per group.

usage: profile_frees.py FILE
"""
import collections
import sys

names = {}
pid = None
groups = collections.Counter()
stacks = collections.defaultdict(lambda: [True, True, 0])
for line in open(sys.argv[1], encoding="utf-8", errors="replace"):
    f = line.split()
    if not f:
        continue
    if f[0] == "H":
        for kv in f[1:]:
            if kv.startswith("pid="):
                pid = kv[4:]
    elif f[0] == "S":
        names[f[1]] = "%s:%s" % (f[6], f[4])
    elif f[0] == "F":  # F time site size stack alloc_time free_site free_stack tid
        key = (names.get(f[2], f[2]), names.get(f[6], f[6]), int(f[3]))
        groups[key] += 1
        s = stacks[key]
        s[0] &= f[4] != "0"
        s[1] &= f[7] != "0"
        s[2] += f[8] == pid
for key in sorted(groups):
    a, b, size = key
    s = stacks[key]
    print("%s -> %s size %d x %d stacks %s/%s same-thread %d" %
          (a, b, size, groups[key], "yes" if s[0] else "no",
           "yes" if s[1] else "no", s[2]))
