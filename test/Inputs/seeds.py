"""Runs a program once per seed and prints one line per run, so a lit test
can check many runs at once (lit's shell has no loops).

usage: seeds.py FIRST LAST PROGRAM [ARGS...]
Runs PROGRAM ARGS... SEED for every SEED in FIRST..LAST and prints
"seed S: exit status N, summary with errors: yes|no" (or "killed by signal
N"); a run's own output is kept in PROGRAM.seed-S.out.
"""
import re
import subprocess
import sys

first, last, cmd = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3:]
for seed in range(first, last + 1):
    out_path = "%s.seed-%d.out" % (cmd[0], seed)
    with open(out_path, "wb") as out:
        status = subprocess.call(cmd + [str(seed)], stdout=out, stderr=out)
    text = open(out_path, "rb").read().decode("utf-8", "replace")
    errors = re.search(r"mdebug: SUMMARY: [1-9][0-9]* errors? ", text)
    how = ("killed by signal %d" % -status) if status < 0 else ("exit status %d" % status)
    print("seed %d: %s, summary with errors: %s" % (seed, how, "yes" if errors else "no"))
