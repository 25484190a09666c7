#!/usr/bin/env python3
"""asan-parity.py - mdebug against AddressSanitizer on ASan's own heap tests.

The corpus is test/asan/*.c* (programs mdebug already gets right, which lit
also runs) and test/asan/pending/*.c* (the rest): compiler-rt's heap tests
adapted into plain C/C++ programs. Each program says what it expects, one
line per mode:

  // EXPECT: <mode> <kind> at <line>     a bug of that kind at that line
  // EXPECT: <mode> clean                no report at all (leaks included)
  // ASAN_OPTIONS: <options>             how the original test ran ASan
  // CFLAGS: <flags>                     extra compiler flags for every build

A mode is "-" (no arguments), or comma-separated parts: a part "-DNAME" is a
macro the program is compiled with, any other part is a command-line
argument. A kind is mdebug's name for it (runtime/shared/errors.def); ASan's
kinds are translated into those names by ASAN_KINDS below.

Each program is built three ways - mdebug's defaults (mdebug-clang -g),
mdebug's checked accesses (mdebug-clang -fmdebug-check-access -g) and ASan
(clang-14 -fsanitize=address -g) - at -O0 and -O1, and every mode is run
with a timeout. Of each run's reports the first one that is not a leak is
read (its kind, and the source line it names as the place of the error); a
bug run is scored found / right kind / right line, or as missed, died (a
signal, no report) or hung (the timeout); a clean run with any report is a
false report. It prints a table per program and mode and a summary per
build; --json writes every run.

Needs only the Python standard library, a built mdebug (ninja -C build) and
clang-14 with compiler-rt's ASan runtime.
"""
import argparse
import concurrent.futures
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORPUS_DIRS = [os.path.join(ROOT, "test", "asan"),
               os.path.join(ROOT, "test", "asan", "pending")]
BUILDS = ["defaults", "checked", "asan"]
OPTS = ["O0", "O1"]

# ASan's report kinds (its SUMMARY line's first word, or the ERROR line)
# in mdebug's words. ASan has no kind for a size that would wrap negative
# (negative-size-param): the overflow it causes is the nearest mdebug kind.
ASAN_KINDS = {
    "heap-buffer-overflow": "heap buffer overflow",
    "heap-use-after-free": "use after free",
    "double-free": "double free",
    "bad-free": "unknown pointer",
    "alloc-dealloc-mismatch": "alloc-dealloc mismatch",
    "new-delete-type-mismatch": "new-delete type mismatch",
    "allocation-size-too-big": "allocation size too big",
    "calloc-overflow": "calloc overflow",
    "pvalloc-overflow": "allocation size too big",
    "invalid-aligned-alloc-alignment": "invalid alignment",
    "invalid-posix-memalign-alignment": "invalid alignment",
    "invalid-allocation-alignment": "invalid alignment",
    "negative-size-param": "heap buffer overflow",
    "SEGV": "invalid access",
    "out-of-memory": "out of memory",
    "leak": "memory leak",
}
# mdebug's own titles that mean one of the expected kinds (for kinds that
# are being named while this corpus is written: add the title here).
MDEBUG_KINDS = {
    "pvalloc overflow": "allocation size too big",
    "requested allocation size too big": "allocation size too big",
    "invalid allocation alignment": "invalid alignment",
    "invalid aligned_alloc alignment": "invalid alignment",
    "invalid posix_memalign alignment": "invalid alignment",
    # ASan's new-delete-type-mismatch: a delete whose type has another size
    # or alignment than the new's. mdebug names the size and the alignment
    # apart, and an aligned new released by a plain delete (or the
    # reverse) an alloc-dealloc mismatch of the aligned operators
    # (aligned_mismatch below).
    "new-delete size mismatch": "new-delete type mismatch",
    "new-delete alignment mismatch": "new-delete type mismatch",
}
LEAK_KINDS = {"memory leak", "leak check could not run"}

EXPECT_RE = re.compile(r"^// EXPECT: (\S+) (?:(clean)|(.+?) at (\d+))\s*$")


class Program:
    def __init__(self, path):
        self.path = path
        self.name = os.path.basename(path)
        self.pending = os.path.basename(os.path.dirname(path)) == "pending"
        self.cxx = path.endswith(".cpp")
        self.modes = []  # (mode, kind or None, line or None)
        self.asan_options = ""
        self.cflags = []
        with open(path) as f:
            for text in f:
                m = EXPECT_RE.match(text)
                if m:
                    kind = None if m.group(2) else m.group(3)
                    line = None if m.group(2) else int(m.group(4))
                    self.modes.append((m.group(1), kind, line))
                elif text.startswith("// ASAN_OPTIONS:"):
                    self.asan_options = text.split(":", 1)[1].strip()
                elif text.startswith("// CFLAGS:"):
                    self.cflags = text.split(":", 1)[1].split()
                elif text.startswith("// EXPECT"):
                    raise SystemExit("%s: cannot read %r" % (path, text.strip()))
        if not self.modes:
            raise SystemExit("%s: no // EXPECT: line" % path)


def split_mode(mode):
    """'-DX,a,b' -> (['-DX'], ['a', 'b']); '-' -> ([], [])."""
    if mode == "-":
        return [], []
    parts = mode.split(",")
    return ([p for p in parts if p.startswith("-D")],
            [p for p in parts if not p.startswith("-D")])


def compilers(build_dir, build, cxx):
    if build == "asan":
        cc = shutil.which("clang++-14" if cxx else "clang-14")
        return [cc, "-fsanitize=address"] if cc else None
    cc = os.path.join(build_dir, "bin", "mdebug-clang++" if cxx else "mdebug-clang")
    if not os.access(cc, os.X_OK):
        return None
    return [cc] + (["-fmdebug-check-access"] if build == "checked" else [])


def compile_one(args, prog, build, opt, macros, out):
    cc = compilers(args.build_dir, build, prog.cxx)
    if cc is None:
        return "no compiler for %s" % build
    cmd = cc + ["-g", "-" + opt] + prog.cflags + macros + [prog.path, "-o", out]
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       universal_newlines=True, errors="replace")
    return None if p.returncode == 0 else p.stdout[-2000:]


# ASan options a test runs with that mdebug has an option for: the
# mdebug builds run with it (MDEBUG_OPTIONS), and so do their lit lines.
ASAN_TO_MDEBUG = {
    "strict_string_checks": "strict_string_checks",
}


def mdebug_options(prog):
    words = []
    for item in re.split(r"[:\s]+", prog.asan_options):
        name, _, value = item.partition("=")
        if name in ASAN_TO_MDEBUG and value.lower() in ("1", "true"):
            words.append(ASAN_TO_MDEBUG[name])
    return " ".join(words)


def run_env(prog, build):
    env = dict(os.environ)
    for var in ["MDEBUG_OPTIONS", "ASAN_OPTIONS", "LD_PRELOAD", "LSAN_OPTIONS"]:
        env.pop(var, None)
    if build == "asan":
        if prog.asan_options:
            env["ASAN_OPTIONS"] = prog.asan_options
        sym = shutil.which("llvm-symbolizer-14") or shutil.which("llvm-symbolizer")
        if sym:
            env["ASAN_SYMBOLIZER_PATH"] = sym
    elif mdebug_options(prog):
        env["MDEBUG_OPTIONS"] = mdebug_options(prog)
    return env


MD_ERROR_RE = re.compile(r"^mdebug: ERROR: (.+?) in \S+ \(pid")
MD_SITE_RE = re.compile(r"^\s+(.*?) at (\S+?):(\d+)(?::\d+)?(?: \(|$)")
ASAN_ERROR_RE = re.compile(r"ERROR: (AddressSanitizer|LeakSanitizer): (.*)")
ASAN_SUMMARY_RE = re.compile(r"SUMMARY: AddressSanitizer: (\S+)")
# A frame: "#1 0x... in main /path/x.c:12:3"; optimized code may name the
# file with no line ("in main /path/x.c"), or a module ("(/path/a.out+0x..)").
ASAN_FRAME_RE = re.compile(r"^\s*#\d+ 0x[0-9a-f]+ in .*? (/\S+?)(?::(\d+))?(?::\d+)?\s*$")


def parse_mdebug(out, source):
    """The first report that is not a leak: (kind, file, line, text), or the
    leak report's kind with no line when leaks are all there is."""
    lines = out.splitlines()
    first_leak = None
    for i, text in enumerate(lines):
        m = MD_ERROR_RE.match(text)
        if not m:
            continue
        kind = m.group(1)
        if kind in LEAK_KINDS:
            first_leak = first_leak or (kind, None, None, text)
            continue
        block = [text]
        site = None
        for more in lines[i + 1:]:
            if MD_ERROR_RE.match(more) or more.startswith("*** ***") or \
                    more.startswith("mdebug: SUMMARY"):
                break
            block.append(more)
            s = MD_SITE_RE.match(more)
            # The history (where the block was allocated, where it was
            # freed the first time) is not the place of the error.
            if s and site is None and not s.group(1).startswith(("allocated by", "freed by")):
                site = (s.group(2), int(s.group(3)))
        # No site but the history (a guard checked at exit, a fault in
        # code without debug information): the report names no line.
        kind = MDEBUG_KINDS.get(kind, kind)
        if kind == "alloc-dealloc mismatch" and "aligned operator" in block[1]:
            kind = "new-delete type mismatch"  # aligned against plain
        return kind, site and site[0], site and site[1], "\n".join(block)
    return first_leak


def parse_asan(out, source):
    lines = out.splitlines()
    for i, text in enumerate(lines):
        m = ASAN_ERROR_RE.search(text)
        if not m:
            continue
        if m.group(1) == "LeakSanitizer":
            return "memory leak", None, None, text
        kind = None
        for more in lines[i:]:
            s = ASAN_SUMMARY_RE.search(more)
            if s:
                kind = s.group(1)
                break
        if kind is None or kind[0].isdigit():  # "SUMMARY: ... 10 byte(s) leaked"
            kind = m.group(2).split()[0]
        kind = ASAN_KINDS.get(kind, kind)
        # The first stack: the frames before the first line that is not one.
        frames, block = [], [text]
        for more in lines[i + 1:]:
            block.append(more)
            f = ASAN_FRAME_RE.match(more)
            if f:
                frames.append((f.group(1), f.group(2) and int(f.group(2))))
            elif re.match(r"^\s*#\d+ ", more):
                continue
            elif frames:
                break
            if len(block) > 60:
                break
        # The first frame in the program's source; none: no line named.
        site = next((f for f in frames if os.path.basename(f[0]) == source), None)
        return kind, site and site[0], site and site[1], "\n".join(block[:12])
    return None


def run_one(args, prog, build, opt, exe, mode, kind, line, build_error):
    r = {"test": prog.name, "pending": prog.pending, "mode": mode, "build": build,
         "opt": opt, "expect": kind or "clean", "expect_line": line}
    if build_error:
        r.update(status="build failed", detail=build_error)
        return r
    macros, argv = split_mode(mode)
    try:
        p = subprocess.run([exe] + argv, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, cwd=os.path.dirname(exe),
                           env=run_env(prog, build), timeout=args.timeout,
                           universal_newlines=True, errors="replace")
        out, rc = p.stdout, p.returncode
    except subprocess.TimeoutExpired as e:
        out = e.stdout or ""
        if isinstance(out, bytes):
            out = out.decode("utf-8", "replace")
        rc = "timeout"
    parse = parse_asan if build == "asan" else parse_mdebug
    rep = parse(out, prog.name)
    r["rc"] = rc
    if rep:
        r.update(kind=rep[0], file=rep[1], line=rep[2], report=rep[3])
    leak_only = rep is not None and rep[0] in LEAK_KINDS
    if kind is None:  # a clean mode
        if rep:
            r["status"] = "false report"
        elif rc == "timeout":
            r["status"] = "hung"
        elif rc < 0:
            r["status"] = "died"
        else:
            r["status"] = "clean"
        return r
    if rep and not leak_only:
        r["kind_ok"] = rep[0] == kind
        r["line_ok"] = (rep[2] == line and rep[1] is not None and
                        os.path.basename(rep[1]) == prog.name)
        r["status"] = "found"
    elif rc == "timeout":
        r["status"] = "hung"
    elif rc < 0:
        r["status"] = "died"
    else:
        r["status"] = "missed"
        if leak_only:
            r["detail"] = "only a leak report"
    return r


def report_title(rs):
    """The title of mdebug's report in these runs, as mdebug words it (the
    scoring maps several titles to one kind; a CHECK line needs the one
    printed)."""
    for r in rs:
        m = MD_ERROR_RE.match((r.get("report") or "").split("\n", 1)[0])
        if m:
            return m.group(1)
    return None


def lit_lines(args, progs, results, opts):
    """A program in pending/ becomes a lit test when the checked build gets
    one of its bug modes right at every optimization level run (or, for a
    program with no bug mode, all its clean modes): its RUN
    lines (built at -O1) cover the modes it gets right, bug and clean. They
    go after the program, so that no line an EXPECT names moves."""
    by = {}
    for r in results:
        if r["build"] == "checked":
            by.setdefault((r["test"], r["mode"]), []).append(r)
    for p in progs:
        if not p.pending:
            continue
        good = []
        for (m, k, l) in p.modes:
            rs = by.get((p.name, m), [])
            # A lit test must end: no run that hung after its report, and
            # a clean mode must exit with 0.
            if len(rs) == len(opts) and all(
                    cell(r) == "ok" and r["rc"] != "timeout" and
                    (k is not None or r["rc"] == 0) for r in rs):
                good.append((m, k, l, any(isinstance(r["rc"], int) and r["rc"] < 0
                                          for r in rs), report_title(rs)))
        # One bug mode right is enough; a program with clean modes only
        # needs them all.
        if not any(k for (m, k, l, crash, title) in good) and (
                any(k for (m, k, l) in p.modes) or len(good) < len(p.modes)):
            continue
        cc = "%mdebug_clangxx" if p.cxx else "%mdebug_clang"
        opts_env = "env MDEBUG_OPTIONS=%s " % mdebug_options(p) if mdebug_options(p) else ""
        lines = ["// RUN lines: the modes the checked build gets right (bench/asan-parity.py --promote)."]
        cleans = [g for g in good if g[1] is None]
        for macros in sorted({tuple(split_mode(g[0])[0]) for g in good}):
            exe = "%t" + "".join("." + x[2:] for x in macros)
            lines.append("// RUN: " + " ".join(
                [cc, "-fmdebug-check-access -O1 -g"] + p.cflags + list(macros) +
                ["%s -o", exe]))
            for (m, k, l, crash, title) in good:
                if split_mode(m)[0] != list(macros):
                    continue
                argv = "".join(" " + a for a in split_mode(m)[1])
                if k is None:
                    pfx = "CLEAN" if len(cleans) == 1 else \
                        "CLEAN-" + re.sub(r"[^A-Za-z0-9]", "_", m).upper()
                    lines.append("// RUN: %s%s%s 2>&1 | %%FileCheck %%s --check-prefix=%s "
                                 "--allow-empty" % (opts_env, exe, argv, pfx))
                else:
                    pfx = "CHECK" if m == "-" else \
                        "M-" + re.sub(r"[^A-Za-z0-9]", "_", m.lstrip("-")).upper()
                    lines.append("// RUN: %s%%not%s %s%s 2>&1 | %%FileCheck %%s "
                                 "--check-prefix=%s" % (opts_env, " --crash" if crash else "",
                                                        exe, argv, pfx))
        for (m, k, l, crash, title) in good:
            if k is None:
                pfx = "CLEAN" if len(cleans) == 1 else \
                    "CLEAN-" + re.sub(r"[^A-Za-z0-9]", "_", m).upper()
                lines.append("// %s-NOT: mdebug" % pfx)
            else:
                pfx = "CHECK" if m == "-" else \
                    "M-" + re.sub(r"[^A-Za-z0-9]", "_", m.lstrip("-")).upper()
                lines += ["// %s: mdebug: ERROR: %s in" % (pfx, title or k),
                          "// %s-NOT: *** ***" % pfx,
                          "// %s: %s:%d:" % (pfx, p.name, l)]
        text = "\n".join(lines) + "\n"
        if args.promote:
            dest = os.path.join(CORPUS_DIRS[0], p.name)
            with open(p.path) as f:
                body = f.read()
            with open(dest, "w") as f:
                f.write(body.rstrip("\n") + "\n\n" + text)
            os.remove(p.path)
            print("promoted %s" % os.path.relpath(dest, ROOT))
        else:
            print("=== %s\n%s" % (os.path.relpath(p.path, ROOT), text))


def cell(r):
    s = r["status"]
    if s == "found":
        return {(True, True): "ok", (True, False): "line",
                (False, True): "kind", (False, False): "k+l"}[(r["kind_ok"], r["line_ok"])]
    return {"clean": "ok", "false report": "FALSE", "missed": "-", "died": "died",
            "hung": "hung", "build failed": "bf"}[s]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--build-dir", default=os.path.join(ROOT, "build"),
                    help="mdebug's build directory (default: build/)")
    ap.add_argument("--filter", default="",
                    help="regular expression: only programs whose name, or "
                         "'name mode', it matches")
    ap.add_argument("--json", metavar="FILE",
                    help="write every run as JSON to FILE ('-': stdout)")
    ap.add_argument("--builds", default=",".join(BUILDS),
                    help="comma-separated subset of " + ",".join(BUILDS))
    ap.add_argument("--opts", default=",".join(OPTS), help="default O0,O1")
    ap.add_argument("--timeout", type=float, default=10, help="seconds a run may take")
    ap.add_argument("-j", "--jobs", type=int, default=2,
                    help="builds and runs at once (default 2)")
    ap.add_argument("--show", action="store_true",
                    help="print the first report of every run not scored ok")
    ap.add_argument("--keep", metavar="DIR", help="build in DIR and keep it")
    ap.add_argument("--lit", action="store_true",
                    help="print the RUN and CHECK lines of every program in "
                         "pending/ that the checked build gets right")
    ap.add_argument("--promote", action="store_true",
                    help="move those programs from pending/ to test/asan/, "
                         "their RUN and CHECK lines appended")
    args = ap.parse_args()
    args.build_dir = os.path.abspath(args.build_dir)
    builds = [b for b in args.builds.split(",") if b]
    if (args.lit or args.promote) and "checked" not in builds:
        ap.error("--lit and --promote need the checked build")
    opts = [o for o in args.opts.split(",") if o]
    for b in builds:
        if b not in BUILDS:
            ap.error("unknown build %r" % b)

    flt = re.compile(args.filter)
    progs = []
    for d in CORPUS_DIRS:
        if os.path.isdir(d):
            for n in sorted(os.listdir(d)):
                if n.endswith((".c", ".cpp")):
                    p = Program(os.path.join(d, n))
                    p.modes = [m for m in p.modes
                               if flt.search(p.name) or flt.search(p.name + " " + m[0])]
                    if p.modes:
                        progs.append(p)
    if not progs:
        raise SystemExit("no program matches")
    progs.sort(key=lambda p: p.name)

    work = args.keep or tempfile.mkdtemp(prefix="asan-parity-")
    os.makedirs(work, exist_ok=True)

    # Build every (program, build, opt, macro set) once, then run its modes.
    jobs = []
    for p in progs:
        for macros in sorted({tuple(split_mode(m[0])[0]) for m in p.modes}):
            for b in builds:
                for o in opts:
                    tag = "-".join([p.name.replace(".", "_"), b, o] +
                                   [x[2:] for x in macros])
                    d = os.path.join(work, tag)
                    os.makedirs(d, exist_ok=True)
                    jobs.append((p, b, o, list(macros), os.path.join(d, "a.out")))

    def build_and_run(job):
        p, b, o, macros, exe = job
        err = compile_one(args, p, b, o, macros, exe)
        return [run_one(args, p, b, o, exe, m, k, l, err)
                for (m, k, l) in p.modes if split_mode(m)[0] == macros]

    results = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as ex:
        for rs in ex.map(build_and_run, jobs):
            results.extend(rs)
    if not args.keep:
        shutil.rmtree(work, ignore_errors=True)

    if args.json:
        data = json.dumps(results, indent=1, sort_keys=True)
        if args.json == "-":
            print(data)
            return
        with open(args.json, "w") as f:
            f.write(data + "\n")

    # The table: one row per program and mode, one column per build and opt.
    cols = [(b, o) for b in builds for o in opts]
    by = {(r["test"], r["mode"], r["build"], r["opt"]): r for r in results}
    width = max(len("*%s %s" % (p.name, m[0])) for p in progs for m in p.modes) + 2
    head = "".join("%-11s" % ("%s-%s" % (b[:8], o)) for b, o in cols)
    print("%-*s%-26s%s" % (width, "program mode", "expected", head))
    for p in progs:
        for (m, k, l) in p.modes:
            exp = "clean" if k is None else "%s:%d" % (k, l)
            row = "".join("%-11s" % cell(by[(p.name, m, b, o)]) for b, o in cols)
            print("%-*s%-26s%s" % (width, "%s%s %s" % ("" if p.pending else "*", p.name, m),
                                   exp[:25], row))
    print("\n*: a lit test (test/asan/), the others wait in test/asan/pending/.")
    print("ok: found, right kind and line (or clean and silent); kind/line/k+l: "
          "found with the wrong kind/line/both; -: no report; died: killed by a "
          "signal, no report; hung: timed out; FALSE: a report in a clean run; "
          "bf: build failed")

    print("\nSummary (bug runs: found / right kind / right line / both; "
          "died or hung without a report; clean runs with a false report)")
    print("%-14s %5s %6s %6s %6s %6s %6s %6s %7s %6s" % (
        "build", "bugs", "found", "kind", "line", "both", "died", "hung",
        "cleans", "false"))
    for b in builds:
        for o in opts + [None]:
            rs = [r for r in results if r["build"] == b and (o is None or r["opt"] == o)]
            bugs = [r for r in rs if r["expect"] != "clean"]
            found = [r for r in bugs if r["status"] == "found"]
            cleans = [r for r in rs if r["expect"] == "clean"]
            print("%-14s %5d %6d %6d %6d %6d %6d %6d %7d %6d" % (
                "%s %s" % (b, o or "all"), len(bugs), len(found),
                sum(r["kind_ok"] for r in found), sum(r["line_ok"] for r in found),
                sum(r["kind_ok"] and r["line_ok"] for r in found),
                sum(r["status"] == "died" for r in rs),
                sum(r["status"] == "hung" for r in rs),
                len(cleans), sum(r["status"] == "false report" for r in cleans)))
    bf = [r for r in results if r["status"] == "build failed"]
    if bf:
        print("\n%d runs not built; first error:\n%s" % (len(bf), bf[0]["detail"]))

    if args.lit or args.promote:
        lit_lines(args, progs, results, opts)

    if args.show:
        print()
        for r in results:
            if cell(r) != "ok":
                print("=== %s %s [%s -%s] %s, expected %s%s" % (
                    r["test"], r["mode"], r["build"], r["opt"], cell(r), r["expect"],
                    "" if r["expect_line"] is None else ":%d" % r["expect_line"]))
                if r.get("report"):
                    print(r["report"])
                elif r.get("detail"):
                    print(r["detail"])
                else:
                    print("(no report, exit status %s)" % r.get("rc"))


if __name__ == "__main__":
    main()
