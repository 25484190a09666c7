#!/usr/bin/env python3
"""check_layers.py - checks the runtime's call graph against its layer table.

The table (runtime/src/layers.txt) puts every source file of the runtime in
a layer, lowest first. A file may use (call, or read the data of) what its
own layer and the layers below define; a use of a symbol defined in a
higher layer is a violation, unless the table allows it:

  layer <name> <file>...      a layer (lowest first) and its files
  contract <symbol-glob> <header>   the symbols of an interface a higher
                              layer offers to lower ones by design (a hook
                              the lower layer declares, a contract header
                              such as scan_contract.h); any file may use them
  confine <file> <target>... : <symbol-glob>...
                              of what the targets (layers or files; '*':
                              every file) define, the file may use only
                              the symbols the globs match: a file that must
                              reach a part of the runtime only through its
                              contract, whatever the layers say ('-'
                              alone: none of it)
  private <header> <file>...  (with --sources) only these files may
                              include the header
  exception <file> <symbol>   a known violation, listed so that it is seen;
                              the comment after it says why it is still
                              there. An exception that no longer occurs is
                              an error too (the table must not keep it).

A layer line may name headers too (heap.h): with --sources, the check also
reads each source file's #include "..." lines, and a file including a
header of a higher layer, or a header of a confine's targets that its globs
do not match, is a violation as a use is (an exception names the header
as its symbol). Headers in no layer are free to include.

'#' starts a comment. Hooks registered at start-up (a higher layer hands a
lower one a function pointer, as md_heap_for_each's callbacks) leave no
symbol reference in the lower file's object, only the registration call,
which goes down: they need no line.

The uses come from the objects (nm -u: what a file references; nm
--defined-only: what it defines), so inline functions of headers count for
the file that includes them; or, for testing this script, from a text file
of lines "<file> U <symbol>" and "<file> D <symbol>" (--symbols).

Usage:
  check_layers.py --table layers.txt --objects DIR   (DIR/*.c.o)
  check_layers.py --table layers.txt --symbols FILE
  check_layers.py ... --sources SRC_DIR   the #includes too
  check_layers.py ... --graph    prints each file's uses of other files
Prints one line per problem ("layering: <file> (<layer>) uses <symbol> of
<file> (<layer>)") and exits 1 if there is any; else "layering: OK ...".
"""
import argparse
import fnmatch
import os
import re
import subprocess
import sys


def read_table(path):
    layers, files, contracts, confines, exceptions = [], {}, [], {}, {}
    private = PRIVATE
    errors = []
    with open(path) as f:
        for num, raw in enumerate(f, 1):
            line = raw.split("#", 1)[0].split()
            if not line:
                continue
            where = "%s:%d" % (os.path.basename(path), num)
            kind, args = line[0], line[1:]
            if kind == "layer" and args:
                layers.append(args[0])
                for name in args[1:]:
                    if name in files:
                        errors.append("%s: %s is in two layers" % (where, name))
                    files[name] = len(layers) - 1
            elif kind == "contract" and len(args) == 2:
                contracts.append((args[0], args[1]))
            elif kind == "confine" and ":" in args[1:-1]:
                colon = args.index(":")
                confines.setdefault(args[0], []).append(
                    (args[1:colon], args[colon + 1:]))
            elif kind == "private" and len(args) >= 2:
                private[args[0]] = args[1:]
            elif kind == "exception" and len(args) == 2:
                exceptions[(args[0], args[1])] = where
            else:
                errors.append("%s: cannot read: %s" % (where, raw.strip()))
    return layers, files, contracts, confines, exceptions, errors


PRIVATE = {}  # header -> the files that may include it (read_table fills it)


def nm(tool, args, objs):
    """nm over every object at once (-A: each line names its object)."""
    out = subprocess.run([tool, "-A"] + args + objs, capture_output=True,
                         text=True, check=True).stdout
    for line in out.splitlines():
        m = re.match(r"^(.*?\.o):\s*(.*)$", line)
        if m:
            yield os.path.basename(m.group(1)), m.group(2).split()


def read_objects(directory, tool):
    defs, uses = {}, {}
    objs = sorted(os.path.join(directory, n) for n in os.listdir(directory)
                  if n.endswith(".o"))
    for obj in objs:
        uses[os.path.basename(obj)[:-2]] = []  # foo.c.o -> foo.c
    for obj, p in nm(tool, ["--defined-only"], objs):
        if len(p) == 3 and p[1] in "TDBRVWG":
            defs.setdefault(p[2], obj[:-2])
    for obj, p in nm(tool, ["-u"], objs):
        if p:
            uses[obj[:-2]].append(p[-1])
    return defs, uses


def read_symbols(path):
    defs, uses = {}, {}
    with open(path) as f:
        for raw in f:
            p = raw.split("#", 1)[0].split()
            if len(p) != 3:
                continue
            uses.setdefault(p[0], [])
            if p[1] == "D":
                defs.setdefault(p[2], p[0])
            elif p[1] == "U":
                uses[p[0]].append(p[2])
    return defs, uses


def matches(sym, globs):
    return any(fnmatch.fnmatchcase(sym, g) for g in globs)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--table", required=True)
    src = ap.add_mutually_exclusive_group(required=True)
    src.add_argument("--objects", help="directory of the runtime's *.c.o")
    src.add_argument("--symbols", help="text file: <file> U|D <symbol>")
    ap.add_argument("--nm", default=os.environ.get("NM", "nm"))
    ap.add_argument("--graph", action="store_true")
    ap.add_argument("--sources", help="directory of the runtime's sources "
                    "(checks their #include lines too)")
    a = ap.parse_args()

    layers, files, contracts, confines, exceptions, problems = read_table(
        a.table)
    for user, rules in confines.items():
        for targets, globs in rules:
            for t in targets:
                if t != "*" and t not in files and t not in layers:
                    problems.append("layering: confine %s names %s, neither "
                                    "a layer nor a file" % (user, t))
    if a.objects:
        defs, uses = read_objects(a.objects, a.nm)
    else:
        defs, uses = read_symbols(a.symbols)

    for name in sorted(uses):
        if name not in files:
            problems.append("layering: %s is in no layer of %s" %
                            (name, os.path.basename(a.table)))
    for name in sorted(files):
        if name.endswith(".h"):
            continue
        if name not in uses:
            problems.append("layering: %s names %s, which was not built" %
                            (os.path.basename(a.table), name))
    contract_globs = [c[0] for c in contracts]

    seen_exceptions = set()
    edges = 0
    for user in sorted(uses):
        if user not in files:
            continue
        mine = files[user]
        graph = {}
        for sym in sorted(set(uses[user])):
            owner = defs.get(sym)
            if owner is None or owner == user or owner not in files:
                continue  # libc, or the file's own
            edges += 1
            graph.setdefault(owner, []).append(sym)
            theirs = files[owner]
            wrong = None
            for targets, globs in confines.get(user, []):
                if ("*" in targets or owner in targets or
                        layers[theirs] in targets) and not matches(sym, globs):
                    allowed = [g for g in globs if g != "-"]
                    wrong = "uses %s of %s (%s), which it may %s" % (
                        sym, owner, layers[theirs],
                        "reach only through " + " ".join(allowed)
                        if allowed else "not use at all")
            if wrong:
                pass
            elif theirs > mine and not matches(sym, contract_globs):
                wrong = "uses %s of %s (%s), a higher layer" % (
                    sym, owner, layers[theirs])
            if not wrong:
                continue
            if (user, sym) in exceptions:
                seen_exceptions.add((user, sym))
                continue
            problems.append("layering: %s (%s) %s" % (user, layers[mine],
                                                      wrong))
        if a.graph:
            for owner in sorted(graph, key=lambda o: (files[o], o)):
                print("%s (%s) -> %s (%s): %s" %
                      (user, layers[mine], owner, layers[files[owner]],
                       " ".join(graph[owner])))
    def wrong_include(user, header):
        if header in PRIVATE and user not in PRIVATE[header]:
            return "includes %s, private to %s" % (header,
                                                   " ".join(PRIVATE[header]))
        if header not in files:
            return None
        mine, theirs = files[user], files[header]
        for targets, globs in confines.get(user, []):
            if ("*" in targets or header in targets or
                    layers[theirs] in targets) and not matches(header, globs):
                return "includes %s (%s), which it may not" % (
                    header, layers[theirs])
        if theirs > mine:
            return "includes %s (%s), a higher layer" % (header,
                                                         layers[theirs])
        return None

    if a.sources:
        for user in sorted(uses):
            path = os.path.join(a.sources, user)
            if user not in files or not os.path.exists(path):
                continue
            with open(path) as f:
                included = re.findall(r'^\s*#\s*include\s+"([^"]+)"',
                                      f.read(), re.M)
            for header in included:
                if header not in files and header not in PRIVATE:
                    continue
                edges += 1
                wrong = wrong_include(user, header)
                if not wrong:
                    continue
                if (user, header) in exceptions:
                    seen_exceptions.add((user, header))
                    continue
                problems.append("layering: %s (%s) %s" % (
                    user, layers[files[user]], wrong))

    for key in sorted(set(exceptions) - seen_exceptions):
        if key[1].endswith(".h") and not a.sources:
            continue  # an #include's: not read this time
        problems.append("layering: %s: exception %s %s no longer occurs: "
                        "remove it" % (exceptions[key], key[0], key[1]))

    for p in problems:
        print(p)
    if problems:
        print("layering: %d problem%s" % (len(problems),
                                          "" if len(problems) == 1 else "s"))
        return 1
    print("layering: OK (%d files in %d layers, %d uses checked, %d "
          "exceptions)" % (len(uses), len(layers), edges, len(exceptions)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
