#!/usr/bin/env python3
"""Strict checker for record_allocs files (malloc debug's current format), as
mdebug writes them on SIGRTMAX-18 or at exit (record_allocs_on_exit):
  TID: malloc PTR SIZE START END        TID: free PTR START END
  TID: calloc PTR NMEMB SIZE START END  TID: realloc NEW OLD SIZE START END
  TID: memalign PTR ALIGN SIZE START END
  TID: thread_done 0x0 END
(PTR, NEW, OLD: 0x and lower-case hex; the rest decimal).

usage: record_check.py [--consistent] [--keep-going] FILE...

Checks each FILE in turn (with a "== FILE" line before each when there
are several) and stops at the first bad one, or with --keep-going checks
them all (exit status 1 if any was bad).

Rejects (exit status 1, one "record_check.py: FILE: line N: ..." message) any
line of another shape, START > END, a thread's call starting before its
previous call ended, a line of a thread after its thread_done, a non-null
free or thread_done pointer, and a file that does not end in a newline.
--consistent also requires the file to hold a whole run: every pointer
freed or reallocated was returned earlier and not yet freed, and no
allocation returns a pointer that is still live.

Prints one normalized line per record, for FileCheck: threads and pointers
named by first appearance (T1, T2, ...; p1, p2, ...; null for 0x0):
  T1 malloc p1 100 | T1 calloc p2 3 200 | T1 memalign p3 64 100
  T1 realloc p4 <- p2 50 | T1 free p1 | T2 thread_done
then "records: N threads: M".
"""
import re
import sys

PTR = r"(0x(?:0|[1-9a-f][0-9a-f]*))"
NUM = r"(0|[1-9][0-9]*)"
FORMATS = {
    "malloc": re.compile(r"%s: malloc %s %s %s %s$" % (NUM, PTR, NUM, NUM, NUM)),
    "calloc": re.compile(r"%s: calloc %s %s %s %s %s$" % (NUM, PTR, NUM, NUM, NUM, NUM)),
    "memalign": re.compile(r"%s: memalign %s %s %s %s %s$" % (NUM, PTR, NUM, NUM, NUM, NUM)),
    "realloc": re.compile(r"%s: realloc %s %s %s %s %s$" % (NUM, PTR, PTR, NUM, NUM, NUM)),
    "free": re.compile(r"%s: free %s %s %s$" % (NUM, PTR, NUM, NUM)),
    "thread_done": re.compile(r"%s: thread_done %s %s$" % (NUM, PTR, NUM)),
}
KIND = re.compile(r"[0-9]+: ([a-z_]+) ")


class Bad(Exception):
    pass


def check(text, consistent):
    if text and not text.endswith("\n"):
        raise Bad("the file does not end with a newline (truncated?)")
    if not text:
        raise Bad("the file is empty")
    tids, ptrs, out = {}, {}, []
    last_end, done, live = {}, set(), set()

    def name_ptr(p):
        if p == 0:
            return "null"
        return ptrs.setdefault(p, "p%d" % (len(ptrs) + 1))

    for n, line in enumerate(text[:-1].split("\n"), 1):
        kind = KIND.match(line)
        fmt = FORMATS.get(kind.group(1)) if kind else None
        m = fmt.match(line) if fmt else None
        if not m:
            raise Bad("line %d: not a record line: %r" % (n, line))
        kind = kind.group(1)
        g = m.groups()
        tid = int(g[0])
        t = tids.setdefault(tid, "T%d" % (len(tids) + 1))
        if tid in done:
            raise Bad("line %d: thread %d has a record after its thread_done" % (n, tid))
        if kind == "thread_done":
            if int(g[1], 16):
                raise Bad("line %d: thread_done with pointer %s (expected 0x0)" % (n, g[1]))
            start = end = int(g[2])
            done.add(tid)
            out.append("%s thread_done" % t)
        else:
            start, end = int(g[-2]), int(g[-1])
            if start > end:
                raise Bad("line %d: START %d > END %d" % (n, start, end))
            p = int(g[1], 16)
            if kind == "malloc":
                out.append("%s malloc %s %s" % (t, name_ptr(p), g[2]))
            elif kind in ("calloc", "memalign"):
                out.append("%s %s %s %s %s" % (t, kind, name_ptr(p), g[2], g[3]))
            elif kind == "realloc":
                old = int(g[2], 16)
                out.append("%s realloc %s <- %s %s" % (t, name_ptr(p), name_ptr(old), g[3]))
            else:
                if p == 0:
                    raise Bad("line %d: free of 0x0 is never recorded" % n)
                out.append("%s free %s" % (t, name_ptr(p)))
            if consistent:
                released = [p] if kind == "free" else [int(g[2], 16)] if kind == "realloc" else []
                for r in released:
                    if r and r not in live:
                        raise Bad("line %d: %s of %#x, which is not live" % (n, kind, r))
                    live.discard(r)
                if kind != "free" and p:
                    if p in live:
                        raise Bad("line %d: %s returned %#x, which is still live" % (n, kind, p))
                    live.add(p)
        if tid in last_end and start < last_end[tid]:
            raise Bad("line %d: thread %d's call starts (%d) before its previous "
                      "one ended (%d)" % (n, tid, start, last_end[tid]))
        last_end[tid] = end
    out.append("records: %d threads: %d" % (len(out), len(tids)))
    return out


def main(argv):
    consistent = "--consistent" in argv
    keep_going = "--keep-going" in argv
    args = [a for a in argv if a not in ("--consistent", "--keep-going")]
    if not args or any(a.startswith("-") for a in args):
        sys.stderr.write(__doc__)
        return 2
    status = 0
    for path in args:
        if len(args) > 1:
            print("== %s" % path)
        try:
            try:
                text = open(path).read()
            except (OSError, UnicodeDecodeError) as e:
                raise Bad("cannot read: %s" % e)
            print("\n".join(check(text, consistent)))
        except Bad as e:
            print("record_check.py: %s: %s" % (path, e))
            status = 1
            if not keep_going:
                break
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
