"""no_raw_text.py FILE... - fails (exit 1, naming the file and line) if a
file holds a control byte other than a line break (a raw newline inside a
name starts a forged line; an escape byte drives the terminal) or a line
that starts "mdebug: SUMMARY: 0 errors" (the line hostile names forge)."""
import sys

bad = False
for path in sys.argv[1:]:
    with open(path, "rb") as f:
        for number, line in enumerate(f.read().split(b"\n"), 1):
            if any(b < 0x20 or b == 0x7F for b in line):
                print(f"{path}:{number}: raw control byte: {line!r}")
                bad = True
            if line.startswith(b"mdebug: SUMMARY: 0 errors"):
                print(f"{path}:{number}: forged summary line")
                bad = True
print("no raw text" if not bad else "RAW TEXT FOUND")
sys.exit(1 if bad else 0)
