"""run_many.py PROGRAM FIRST LAST OPTIONS - runs PROGRAM I for I in
FIRST..LAST (inclusive) with MDEBUG_OPTIONS=OPTIONS ("{i}" in it becomes
I); their exit statuses do not matter (mdebug's exitcode marks the runs
with errors). Prints how many ran."""
import os
import subprocess
import sys

program, first, last, options = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
for i in range(first, last + 1):
    env = dict(os.environ, MDEBUG_OPTIONS=options.replace("{i}", str(i)))
    subprocess.run([program, str(i)], env=env, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL, check=False)
print("ran %d" % (last - first + 1))
