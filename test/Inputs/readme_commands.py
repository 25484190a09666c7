#!/usr/bin/env python3
"""Runs the commands of README.md's "Three commands" and "In CI" sections,
in that order, as a user would.

usage: readme_commands.py README.md SRC_ROOT BUILD_ROOT CLANG WORKDIR

Every line of every ```sh block in those sections runs with bash in WORKDIR,
where `build` is a link to BUILD_ROOT, `examples` to SRC_ROOT/examples and
`clang` on PATH is CLANG (the clang the build uses). A line that ends in a
comment `# exits N ...` must exit with status N, any other with 0. Each plain
``` block there shows output: every line of it naming a site (` at
examples/...`) must appear, from the site on, in what the commands of the
block before it printed (its path may be longer: the run names it
from the directory it was compiled in). Prints one line per command and a summary; exits 1 on a mismatch.
"""
import os
import re
import subprocess
import sys


def section(text, title):
    m = re.search(r"^## %s\n(.*?)(?=^## |\Z)" % re.escape(title), text, re.S | re.M)
    if not m:
        sys.exit("readme_commands.py: no '## %s' section in the README" % title)
    return m.group(1)


def blocks(text):
    """(language, lines) of each fenced block, in order."""
    for m in re.finditer(r"^```(\w*)\n(.*?)^```", text, re.S | re.M):
        yield m.group(1), m.group(2).splitlines()


def main():
    readme, src, build, clang, work = sys.argv[1:6]
    os.makedirs(work, exist_ok=True)
    for name, target in (("build", build), ("examples", os.path.join(src, "examples"))):
        link = os.path.join(work, name)
        if os.path.islink(link):
            os.unlink(link)
        os.symlink(target, link)
    bindir = os.path.join(work, ".bin")
    os.makedirs(bindir, exist_ok=True)
    if os.path.lexists(os.path.join(bindir, "clang")):
        os.unlink(os.path.join(bindir, "clang"))
    os.symlink(clang, os.path.join(bindir, "clang"))
    env = dict(os.environ, PATH=bindir + os.pathsep + os.environ["PATH"])

    failures, ran, last_output = 0, 0, ""
    import glob
    before = set(glob.glob("/tmp/growing.*.mdprof"))
    text = open(readme).read()
    for lang, lines in blocks(section(text, "Three commands") + section(text, "In CI")):
        if lang == "sh":
            last_output = ""
            for line in lines:
                if not line.strip():
                    continue
                m = re.search(r"#\s*exits (\d+)", line)
                want = int(m.group(1)) if m else 0
                command = line.split(" #")[0].strip() if "#" in line else line.strip()
                p = subprocess.run(["bash", "-c", command], cwd=work, env=env,
                                   stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                   text=True, errors="replace")
                last_output += p.stdout
                ran += 1
                ok = p.returncode == want
                failures += not ok
                print("%s exit %d (want %d): %s" % ("ok  " if ok else "FAIL", p.returncode, want, command))
                if not ok:
                    print(p.stdout[-2000:])
        elif lang == "":
            for line in lines:
                m = re.search(r"(\S+) at (examples/\S+.*)$", line)
                if not m:
                    continue
                shown = m.group(0)
                # the run prints the path joined with its directory
                ok = re.search(re.escape(m.group(1)) + r" at \S*" + re.escape(m.group(2)),
                               last_output) is not None
                failures += not ok
                print("%s output shows: %s" % ("ok  " if ok else "FAIL", shown))
    for left in set(glob.glob("/tmp/growing.*.mdprof")) - before:  # the README's profiles
        os.unlink(left)
    print("%d commands run, %d failures" % (ran, failures))
    return 1 if failures or not ran else 0


if __name__ == "__main__":
    sys.exit(main())
