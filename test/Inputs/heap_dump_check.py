#!/usr/bin/env python3
"""Strict checker for malloc debug's "Android Native Heap Dump v1.2" files, as
mdebug writes them (mdebug_dump_heap, SIGRTMAX-17, backtrace_dump_on_exit).

usage: heap_dump_check.py [--summary] [--binary PROG] [--keep-going] DUMP...

Checks each DUMP in turn (with a "== DUMP" line before each when there
are several) and stops at the first bad one, or with --keep-going checks
them all (exit status 1 if any was bad).

Rejects (exit status 1, one "heap_dump_check.py: DUMP: line N: ..." message)
any line that is not where the format puts it or not shaped as it says:
the header lines, "Total memory" equal to the sum of size*num, "Allocation
records" equal to the number of record lines, records sorted by size
(descending) with no two records for the same size and stack, no record
with more frames than "Backtrace size", every frame inside an executable
mapping of the MAPS section, bt_info lines (backtrace_full) only after a
record with frames and naming each frame's module-relative pc, mdebug's
"  sites" lines (at most one a record, after its bt_info, each site
{COUNT ID OP FILE LINE COLUMN FUNCTION TYPE} with counts adding up to at
most the record's num), mdebug's extension section (between the records
and MAPS: its header line, then "mdebug total", "mdebug site", "mdebug
mapping" and "mdebug thread_stack" lines, each category's total equal to
its sites' sum and, for mappings and thread stacks, to the sum of their
lines; every line of it skipped by Android's tools: none starts with "z "
or looks like a maps line), MAPS lines shaped as /proc/PID/maps lines, and
END as the last line.

--summary prints, for FileCheck, "total T records R backtrace B" and one
line per record "sz S num N frames F". --extension prints the extension's
lines as they are (for FileCheck). With --binary PROG the record
lines end with "bt" and each frame named: the function of PROG holding it
(from PROG's ELF symbol table), or [MODULE] for a frame in another module;
a frame in PROG that no function holds is an error.
"""
import os
import re
import struct
import sys

HEADER = [
    ("exact", "Android Native Heap Dump v1.2"),
    ("exact", ""),
    ("re", re.compile(r"Build fingerprint: '[^']*'$")),
    ("exact", ""),
    ("re", re.compile(r"Total memory: (0|[1-9][0-9]*)$")),
    ("re", re.compile(r"Allocation records: (0|[1-9][0-9]*)$")),
    ("re", re.compile(r"Backtrace size: (0|[1-9][0-9]*)$")),
    ("exact", ""),
]
RECORD = re.compile(r"z ([01])  sz +([0-9]+)  num    ([0-9]+)  bt((?: [0-9a-f]+)*)$")
BT_INFO = re.compile(r'  bt_info((?: \{"[^"]*" [0-9a-f]+ "[^"]*" [0-9a-f]+\})+)$')
SITES = re.compile(r"  sites((?: \{[1-9][0-9]* [0-9a-f]+ \S+ \S+ [0-9]+ [0-9]+ \S+ \S+\})+)$")
SITES_ENTRY = re.compile(r" \{([1-9][0-9]*) ")
BT_INFO_ENTRY = re.compile(r' \{"([^"]*)" ([0-9a-f]+) "([^"]*)" ([0-9a-f]+)\}')
EXT_HEADER = ("MDEBUG EXTENSION v1: totals by category and site, mappings, "
              "thread stacks (not Android's; its tools skip these lines)")
CATEGORIES = ("heap_blocks", "mappings", "thread_stacks")
EXT_TOTAL = re.compile(r"mdebug total (\w+) bytes ([0-9]+) count ([0-9]+)$")
EXT_SITE = re.compile(r"mdebug site (\w+) bytes ([0-9]+) count ([0-9]+) by (.+?) at (.+)$")
EXT_MAPPING = re.compile(
    r"mdebug mapping ([0-9a-f]+)-([0-9a-f]+) sz ([0-9]+) ([r-][w-][x-]) "
    r"(private|shared) (anonymous|file) bt((?: [0-9a-f]+)*) by (mmap|mmap64|mremap) at (.+)$")
EXT_STACK = re.compile(
    r"mdebug thread_stack ([0-9a-f]+)-([0-9a-f]+) sz ([0-9]+) guard ([0-9]+) "
    r"(running|exited) bt((?: [0-9a-f]+)*) by pthread_create at (.+)$")
MAPS_LINE = re.compile(
    r"([0-9a-f]+)-([0-9a-f]+) ([r-][w-][x-][ps]) ([0-9a-f]+) "
    r"([0-9a-f]+:[0-9a-f]+) ([0-9]+)(?: +(.*))?$")


class Bad(Exception):
    pass


def elf_functions(path):
    """(loads, functions): PT_LOAD (offset, filesz, vaddr) triples and
    (start, end, name) of every sized function symbol (.symtab, else
    .dynsym) of a 64-bit little-endian ELF file."""
    data = open(path, "rb").read()
    if data[:4] != b"\x7fELF" or data[4] != 2 or data[5] != 1:
        raise Bad("%s is not a 64-bit little-endian ELF file" % path)
    (e_phoff, e_shoff) = struct.unpack_from("<QQ", data, 0x20)
    (e_phentsize, e_phnum, e_shentsize, e_shnum) = struct.unpack_from("<HHHH", data, 0x36)
    loads = []
    for i in range(e_phnum):
        p_type, _, p_offset, p_vaddr, _, p_filesz = struct.unpack_from(
            "<IIQQQQ", data, e_phoff + i * e_phentsize)
        if p_type == 1:
            loads.append((p_offset, p_filesz, p_vaddr))
    sections = [struct.unpack_from("<IIQQQQIIQQ", data, e_shoff + i * e_shentsize)
                for i in range(e_shnum)]
    table = [s for s in sections if s[1] == 2] or [s for s in sections if s[1] == 11]
    if not table:
        raise Bad("%s has no symbol table" % path)
    _, _, _, _, off, size, link, _, _, entsize = table[0]
    stroff = sections[link][4]
    functions = []
    for k in range(size // entsize):
        st_name, st_info, _, st_shndx, st_value, st_size = struct.unpack_from(
            "<IBBHQQ", data, off + k * entsize)
        if st_info & 0xf == 2 and st_shndx != 0 and st_size:
            end = data.index(b"\0", stroff + st_name)
            functions.append((st_value, st_value + st_size,
                              data[stroff + st_name:end].decode()))
    return loads, functions


class Dump:
    def __init__(self, path):
        self.path = path
        self.records = []  # [size, num, [pcs], bt_info or None, line, site counts or None]
        self.maps = []     # (start, end, perms, offset, path)
        self.total = self.count = self.bt_size = None
        self.extension = []  # its lines, as written

    def parse(self, text):
        if not text.endswith("END\n"):
            raise Bad("the file does not end with an END line (truncated?)")
        lines = text[:-1].split("\n")
        n = 0
        values = []
        for kind, want in HEADER:
            if n >= len(lines):
                raise Bad("line %d: file ends inside the header" % (n + 1))
            line = lines[n]
            if kind == "exact" and line != want:
                raise Bad("line %d: expected %r, found %r" % (n + 1, want, line))
            if kind == "re":
                m = want.match(line)
                if not m:
                    raise Bad("line %d: expected a line matching %r, found %r"
                              % (n + 1, want.pattern, line))
                values.extend(int(g) for g in m.groups())
            n += 1
        self.total, self.count, self.bt_size = values
        # records, each maybe followed by its bt_info line
        while n < len(lines) and lines[n] not in ("MAPS", EXT_HEADER):
            line = lines[n]
            m = RECORD.match(line)
            if m:
                zygote, size, num, bt = m.groups()
                size, num = int(size), int(num)
                pcs = [int(x, 16) for x in bt.split()]
                canon = "z %s  sz %8d  num    %d  bt%s" % (
                    zygote, size, num, "".join(" %x" % pc for pc in pcs))
                if canon != line:
                    raise Bad("line %d: record not in the exact v1.2 layout: %r "
                              "(expected %r)" % (n + 1, line, canon))
                if num == 0:
                    raise Bad("line %d: record with num 0" % (n + 1))
                self.records.append([size, num, pcs, None, n + 1, None])
            elif SITES.match(line):
                if not self.records or self.records[-1][5] is not None:
                    raise Bad("line %d: sites line not after a record" % (n + 1))
                counts = [int(c) for c in SITES_ENTRY.findall(line)]
                if sum(counts) > self.records[-1][1]:
                    raise Bad("line %d: sites count %d blocks, the record %d"
                              % (n + 1, sum(counts), self.records[-1][1]))
                self.records[-1][5] = counts
            elif BT_INFO.match(line):
                if (not self.records or self.records[-1][3] is not None or
                        self.records[-1][5] is not None):
                    raise Bad("line %d: bt_info line not right after a record"
                              % (n + 1))
                entries = BT_INFO_ENTRY.findall(line)
                if len(entries) != len(self.records[-1][2]):
                    raise Bad("line %d: bt_info has %d frames, its record %d"
                              % (n + 1, len(entries), len(self.records[-1][2])))
                self.records[-1][3] = entries
            else:
                raise Bad("line %d: not a record or bt_info line: %r" % (n + 1, line))
            n += 1
        if n < len(lines) and lines[n] == EXT_HEADER:
            n = self.parse_extension(lines, n + 1)
        if n == len(lines) or lines[n] != "MAPS":
            raise Bad("no MAPS line")
        n += 1
        while n < len(lines) - 1:
            line = lines[n]
            m = MAPS_LINE.match(line)
            if not m:
                raise Bad("line %d: not a /proc/PID/maps line: %r" % (n + 1, line))
            start, end = int(m.group(1), 16), int(m.group(2), 16)
            if start >= end or (self.maps and start < self.maps[-1][1]):
                raise Bad("line %d: mapping out of order or empty: %r" % (n + 1, line))
            self.maps.append((start, end, m.group(3), int(m.group(4), 16),
                              (m.group(7) or "").strip()))
            n += 1
        if n != len(lines) - 1 or lines[n] != "END":
            raise Bad("line %d: expected END as the last line" % (n + 1))
        if not self.maps:
            raise Bad("the MAPS section is empty")
        self.check()

    def parse_extension(self, lines, n):
        totals, sites = {}, {c: [0, 0] for c in CATEGORIES}
        listed = {"mappings": [0, 0], "thread_stacks": [0, 0]}
        last_begin = {"mappings": -1, "thread_stacks": None}
        while n < len(lines) and lines[n] != "MAPS":
            line = lines[n]
            if line.startswith("z ") or MAPS_LINE.match(line):
                raise Bad("line %d: an extension line Android's tools would "
                          "read: %r" % (n + 1, line))
            m = EXT_TOTAL.match(line)
            if m and m.group(1) in CATEGORIES and m.group(1) not in totals:
                totals[m.group(1)] = [int(m.group(2)), int(m.group(3))]
            elif EXT_SITE.match(line) and EXT_SITE.match(line).group(1) in CATEGORIES:
                m = EXT_SITE.match(line)
                sites[m.group(1)][0] += int(m.group(2))
                sites[m.group(1)][1] += int(m.group(3))
            elif EXT_MAPPING.match(line) or EXT_STACK.match(line):
                m = EXT_MAPPING.match(line)
                kind = "mappings" if m else "thread_stacks"
                m = m or EXT_STACK.match(line)
                b, e, size = int(m.group(1), 16), int(m.group(2), 16), int(m.group(3))
                if e - b != size or size == 0:
                    raise Bad("line %d: size %d but range %x-%x" % (n + 1, size, b, e))
                if kind == "mappings":
                    if b < last_begin[kind]:
                        raise Bad("line %d: mappings not sorted by address" % (n + 1))
                    last_begin[kind] = e
                listed[kind][0] += size
                listed[kind][1] += 1
            else:
                raise Bad("line %d: not an extension line: %r" % (n + 1, line))
            self.extension.append(line)
            n += 1
        for c in CATEGORIES:
            if c not in totals:
                raise Bad("extension: no 'mdebug total %s' line" % c)
            if totals[c] != sites[c]:
                raise Bad("extension: %s total %s but its sites add up to %s"
                          % (c, totals[c], sites[c]))
            if c in listed and totals[c] != listed[c]:
                raise Bad("extension: %s total %s but its lines add up to %s"
                          % (c, totals[c], listed[c]))
        return n

    def mapping(self, pc):
        for mp in self.maps:
            if mp[0] <= pc < mp[1]:
                return mp
        return None

    def check(self):
        if self.count != len(self.records):
            raise Bad("'Allocation records: %d' but %d record lines"
                      % (self.count, len(self.records)))
        total = sum(r[0] * r[1] for r in self.records)
        if self.total != total:
            raise Bad("'Total memory: %d' but the records add up to %d"
                      % (self.total, total))
        seen = set()
        for i, (size, num, pcs, info, line, _) in enumerate(self.records):
            if i and size > self.records[i - 1][0]:
                raise Bad("line %d: sz %d after sz %d: records not sorted by size"
                          % (line, size, self.records[i - 1][0]))
            if (size, tuple(pcs)) in seen:
                raise Bad("line %d: a second record for size %d and the same "
                          "stack (not merged)" % (line, size))
            seen.add((size, tuple(pcs)))
            if len(pcs) > self.bt_size:
                raise Bad("line %d: %d frames, more than 'Backtrace size: %d'"
                          % (line, len(pcs), self.bt_size))
            for k, pc in enumerate(pcs):
                mp = self.mapping(pc)
                if not mp or mp[2][2] != "x":
                    raise Bad("line %d: frame %d (%x) is in no executable mapping"
                              % (line, k, pc))
                if info:
                    # the module's first mapping (offset 0) below the pc; the
                    # symbolizer's own read-only mapping of the file is elsewhere
                    firsts = [m[0] for m in self.maps
                              if m[4] == mp[4] and m[3] == 0 and m[0] <= pc]
                    if not firsts:
                        raise Bad("line %d: frame %d (%x): its module has no mapping "
                                  "at offset 0" % (line, k, pc))
                    base = max(firsts)
                    if int(info[k][1], 16) != pc - base:
                        raise Bad("line %d: bt_info frame %d says relative pc %s, "
                                  "the maps say %x" % (line + 1, k, info[k][1], pc - base))

    def frame_names(self, pcs, binary, loads, functions):
        real = os.path.realpath(binary)
        names = []
        for pc in pcs:
            mp = self.mapping(pc)
            if os.path.realpath(mp[4]) != real if mp[4] else True:
                names.append("[%s]" % os.path.basename(mp[4] or "anonymous"))
                continue
            fileoff = pc - mp[0] + mp[3]
            vaddr = None
            for off, filesz, va in loads:
                if off <= fileoff < off + filesz:
                    vaddr = fileoff - off + va
            name = [f[2] for f in functions if vaddr is not None and f[0] <= vaddr < f[1]]
            if not name:
                raise Bad("frame %x is in %s but in none of its functions" % (pc, binary))
            names.append(name[0])
        return names


def check_file(path, summary, binary, elf, extension=False):
    dump = Dump(path)
    try:
        try:
            text = open(path).read()
        except (OSError, UnicodeDecodeError) as e:
            raise Bad("cannot read: %s" % e)
        dump.parse(text)
        lines = []
        for size, num, pcs, info, _, _ in dump.records:
            line = "sz %d num %d frames %d" % (size, num, len(pcs))
            if binary:
                line += " bt " + " ".join(dump.frame_names(pcs, binary, *elf))
            lines.append(line.rstrip())
    except Bad as e:
        print("heap_dump_check.py: %s: %s" % (path, e))
        return False
    if summary or binary:
        print("total %d records %d backtrace %d" % (dump.total, dump.count, dump.bt_size))
        for line in lines:
            print(line)
    if extension:
        for line in dump.extension:
            print(line)
    print("heap dump OK: %d records, %d mappings" % (len(dump.records), len(dump.maps)))
    return True


def main(argv):
    summary = "--summary" in argv
    keep_going = "--keep-going" in argv
    extension = "--extension" in argv
    binary = None
    args = [a for a in argv if a not in ("--summary", "--keep-going", "--extension")]
    if "--binary" in args:
        k = args.index("--binary")
        binary = args[k + 1]
        del args[k:k + 2]
    if not args or any(a.startswith("-") for a in args):
        sys.stderr.write(__doc__)
        return 2
    try:
        elf = elf_functions(binary) if binary else None
    except (OSError, Bad, struct.error) as e:
        print("heap_dump_check.py: %s: %s" % (binary, e))
        return 1
    status = 0
    for path in args:
        if len(args) > 1:
            print("== %s" % path)
        if not check_file(path, summary, binary, elf, extension):
            status = 1
            if not keep_going:
                break
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
