#!/usr/bin/env python3
"""by_pid.py - prints the heap profile of the process a test program
named: PIDS holds lines "ROLE PID" (the program's output); prints the file
PREFIX.PID.mdprof of ROLE, with the "pid=" field of its header checked
against PID ("WRONG PID" otherwise).

usage: by_pid.py PIDS PREFIX ROLE
"""
import sys

pids = dict(line.split() for line in open(sys.argv[1]) if line.strip())
pid = pids[sys.argv[3]]
text = open("%s.%s.mdprof" % (sys.argv[2], pid)).read()
if " pid=%s " % pid not in text.split("\n")[1] + " ":
    print("WRONG PID")
sys.stdout.write(text)
