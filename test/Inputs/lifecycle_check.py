#!/usr/bin/env python3
"""Checks that runtime/src keeps start-up and fork order in one place,
lifecycle.def (read its header):

  - only lifecycle.c calls pthread_atfork, only init.c has a constructor;
  - every md_lock_t the runtime declares (as file.c:name; a struct field
    counts under its field name) is named in lifecycle.def, in a row's
    LOCKS or in MD_FORK_UNHANDLED, and every lock named there exists;
  - every md_*_atfork_{prepare,parent,child} the runtime defines is named
    in lifecycle.def (a row, or md_X_atfork_* where another row's handler
    calls it).

usage: lifecycle_check.py RUNTIME_SRC_DIR
Prints one line per problem and exits 1, or a summary line and exits 0.
"""
import os
import re
import sys


def strip_comments(text):
    text = re.sub(r"/\*.*?\*/", lambda m: "\n" * m.group(0).count("\n"), text, flags=re.S)
    return re.sub(r"//[^\n]*", "", text)


def main():
    src = sys.argv[1]
    with open(os.path.join(src, "lifecycle.def")) as f:
        table = f.read()
    code_table = strip_comments(table)
    named = set(re.findall(r"(\w+\.c):(\w+)", code_table))
    rows = re.findall(r"MD_LIFECYCLE\((\w+),", code_table)
    problems = []
    declared = set()
    for name in sorted(os.listdir(src)):
        if not name.endswith((".c", ".h")):
            continue
        with open(os.path.join(src, name)) as f:
            code = strip_comments(f.read())
        if "pthread_atfork(" in code and name != "lifecycle.c":
            problems.append(f"{name}: calls pthread_atfork; fork handlers are rows of lifecycle.def")
        if re.search(r"__attribute__\s*\(\(\s*constructor", code) and name != "init.c":
            problems.append(f"{name}: has a constructor; start-up steps are rows of lifecycle.def")
        for lock in re.findall(r"\bmd_lock_t\s+(\w+)", code):
            declared.add((name, lock))
        for fn in re.findall(r"^\w[\w\s\*]*?\b(md_\w+_atfork_(?:prepare|parent|child))\s*\(void\)\s*\{",
                             code, flags=re.M):
            prefix = fn[: fn.rindex("_") + 1] + "*"
            if not re.search(r"\b" + fn + r"\b", code_table) and prefix not in table:
                problems.append(f"{name}: {fn} is in no row of lifecycle.def")
    for name, lock in sorted(declared - named):
        problems.append(f"{name}:{lock}: a lock lifecycle.def does not name "
                        "(a row's LOCKS if fork takes or resets it, else MD_FORK_UNHANDLED)")
    for name, lock in sorted(named - declared):
        problems.append(f"{name}:{lock}: named in lifecycle.def, declared nowhere")
    if len(set(rows)) != len(rows):
        problems.append("lifecycle.def: a row name appears twice")
    for p in problems:
        print("FAIL " + p)
    if problems:
        return 1
    print(f"lifecycle.def accounts for {len(declared)} locks in {len(rows)} rows")
    return 0


if __name__ == "__main__":
    sys.exit(main())
