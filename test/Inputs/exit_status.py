"""Runs a command and prints its exit status on the last line, so a lit test
can check the exact status (%not only says "non-zero").

usage: exit_status.py PROGRAM [ARGS...]
Prints "exit status: N" (or "killed by signal N") after the program's own
output, which goes to the inherited stdout and stderr.
"""
import subprocess
import sys

status = subprocess.call(sys.argv[1:])
sys.stdout.flush()
if status < 0:
    print("killed by signal %d" % -status)
else:
    print("exit status: %d" % status)
