#!/usr/bin/env python3
"""mdprof.py - writes a hand-made heap profile for mdebug-report's tests:
each line of the input (a file, or stdin) is a record body ("S 1a malloc ...")
and is written followed by " CRC" (CRC-32C of the body, 8 hex digits), as
runtime/src/profile.c writes it. A body starting with "!" is written as it
is, without its "!" and without a checksum (to make damaged lines).

usage: mdprof.py OUT [IN]
"""
import sys


def crc32c(data):
    c = 0xffffffff
    for b in data:
        c ^= b
        for _ in range(8):
            c = (c >> 1) ^ 0x82f63b78 if c & 1 else c >> 1
    return c ^ 0xffffffff


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    src = open(sys.argv[2], "rb") if len(sys.argv) > 2 else sys.stdin.buffer
    with open(sys.argv[1], "wb") as out:
        for line in src.read().splitlines():
            if line.startswith(b"!"):
                out.write(line[1:] + b"\n")
            elif line.strip():
                out.write(line + b" %08x\n" % crc32c(line))


if __name__ == "__main__":
    main()
