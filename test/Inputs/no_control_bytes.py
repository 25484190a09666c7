"""Exits 1 (naming the first offender) if stdin holds a control byte other
than newline, or DEL: what mdebug prints must never drive the terminal."""
import sys

data = sys.stdin.buffer.read()
for i, b in enumerate(data):
    if (b < 0x20 and b != 0x0a) or b == 0x7f:
        print("control byte 0x%02x at offset %d: %r" % (b, i, data[max(0, i - 40):i + 40]))
        sys.exit(1)
print("no control bytes in %d bytes" % len(data))
