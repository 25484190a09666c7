// Proves: the profile writer (profile.c) writes every record kind of
// profile.def in the documented shape (docs/profile-format.md), each line
// ending in the CRC-32C of the bytes before it, strings escaped and cut at
// MD_PROFILE_STRING_MAX, stacks cut at MD_PROFILE_FRAMES_MAX, times relative
// to the header's start; that each call's records are in the file when it
// returns (before close); and that open and write failures return false
// with errno set.
// RUN: %clang -O1 -I%mdebug_src/runtime/src -I%mdebug_src/runtime/shared -I%mdebug_include %s %mdebug_rt_a -o %t
// RUN: rm -rf %t.d && mkdir %t.d
// RUN: %t %t.d | %FileCheck %s
// CHECK: profile_test: {{[0-9]+}} passed, 0 failed
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base.h"
#include "profile.h"
#include "profile_format.h"

#include "expect.h"

/* An independent bitwise CRC-32C, to check the table. */
static uint32_t crc_bitwise(const char *s, size_t n) {
  uint32_t c = 0xffffffffu;
  for (size_t i = 0; i < n; i++) {
    c ^= (unsigned char)s[i];
    for (int k = 0; k < 8; k++)
      c = (c & 1) ? (c >> 1) ^ 0x82f63b78u : c >> 1;
  }
  return ~c;
}

static char text[1 << 20];
static size_t text_len;

static void slurp(const char *path) {
  FILE *f = fopen(path, "rb");
  text_len = f ? fread(text, 1, sizeof(text) - 1, f) : 0;
  text[text_len] = '\0';
  if (f)
    fclose(f);
}

static off_t file_size(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 ? st.st_size : -1;
}

/* Line `index` (0-based) of text, without its checksum; checks the
 * checksum on the way. Returns a static copy ("" if absent). */
static const char *line(int index) {
  static char out[65536];
  const char *p = text;
  for (int i = 0; i < index && p; i++) {
    p = strchr(p, '\n');
    if (p)
      p++;
  }
  const char *nl = p ? strchr(p, '\n') : NULL;
  if (!nl || nl - p < 10)
    return "";
  size_t body = (size_t)(nl - p) - 9;
  unsigned crc = 0;
  sscanf(p + body + 1, "%8x", &crc);
  if (p[body] != ' ' || crc != crc_bitwise(p, body) ||
      crc != md_crc32c(p, body)) {
    printf("bad checksum on line %d\n", index);
    failed++;
  }
  memcpy(out, p, body);
  out[body] = '\0';
  return out;
}

static int count_lines(void) {
  int n = 0;
  for (size_t i = 0; i < text_len; i++)
    n += text[i] == '\n';
  return n;
}

int main(int argc, char **argv) {
  const char *dir = argc > 1 ? argv[1] : "/tmp";
  char path[512];
  static struct md_profile p;

  EXPECT(md_crc32c("123456789", 9) == 0xe3069283u);
  md_profile_path(path, sizeof(path), "/tmp/heap", 42);
  EXPECT(strcmp(path, "/tmp/heap.42.mdprof") == 0);

  snprintf(path, sizeof(path), "%s/t.mdprof", dir);
  struct md_profile_header h = {1234, "/bin/my prog", "sample_bytes=4096 -",
                                1000000, 1700000000123456789ull};
  EXPECT(md_profile_open(&p, path, &h));
  slurp(path); /* already on disk, before close */
  EXPECT(strcmp(line(0), "MDPROF 1") == 0);
  EXPECT(strcmp(line(1), "H pid=1234 start=1700000000123456789 "
                         "clock=monotonic-ns program=/bin/my%20prog "
                         "options=sample_bytes=4096%20-") == 0);

  EXPECT(md_profile_sampling(&p, 1000000, 1, 524288));
  EXPECT(md_profile_module(&p, 0, "/usr/lib/libc.so.6"));
  struct md_profile_site s1 = {0xabc123, "malloc", "a.c", "make", NULL,
                               12, 5, -1, 0};
  struct md_profile_site s2 = {0xffffffffffffffffull, "operator new", "", "",
                               "struct node", 0, 0, 0, 0x1f2e};
  EXPECT(md_profile_site(&p, &s1));
  EXPECT(md_profile_site(&p, &s2));
  struct md_profile_frame fr[300];
  for (int i = 0; i < 300; i++)
    fr[i] = (struct md_profile_frame){(uint32_t)(i % 2), (uint64_t)i * 16};
  EXPECT(md_profile_stack(&p, 7, fr, 3));
  EXPECT(md_profile_stack(&p, 8, fr, 300));
  EXPECT(md_profile_symbol(&p, 0, 0x1f2e, "-", 0x2e));
  struct md_profile_totals t = {1000000 + 5000, 300, 3, 10, 7, 900};
  struct md_profile_site_totals st[2] = {{0xabc123, 2, 200, 8, 6, 800, 250},
                                         {0x1, 1, 100, 2, 1, 100, 100}};
  EXPECT(md_profile_totals(&p, &t, st, 2));
  struct md_profile_block b[2] = {{0xabc123, 100, 1000000 + 10, 0x7f00, 7, 55},
                                  {0x1, 4096, 500, 0x8000, 0, 56}};
  EXPECT(md_profile_snapshot(&p, 1000000 + 6000, "after load", b, 2));
  EXPECT(md_profile_snapshot(&p, 1000000 + 7000, "", NULL, 0));
  struct md_profile_free f = {.time = 1000000 + 8000, .site = 0xabc123,
                              .size = 100, .stack = 7,
                              .alloc_time = 1000000 + 10, .free_site = 0xdef,
                              .free_stack = 8, .tid = 55};
  EXPECT(md_profile_free(&p, &f));
  struct md_profile_double_free d = {1000000 + 9000, 0x7f00, 100, 0xabc123,
                                     0xdef, 0xdf0, 8, 55};
  EXPECT(md_profile_double_free(&p, &d));
  off_t before_close = file_size(path);
  slurp(path);
  EXPECT(before_close == (off_t)text_len && text[text_len - 1] == '\n');
  EXPECT(md_profile_close(&p, 1000000 + 10000));
  EXPECT(file_size(path) > before_close);

  slurp(path);
  int i = 2;
  EXPECT(strcmp(line(i++), "P 0 1 524288") == 0);
  EXPECT(strcmp(line(i++), "M 0 /usr/lib/libc.so.6") == 0);
  EXPECT(strcmp(line(i++), "S abc123 malloc a.c 12 5 make - - 0") == 0);
  EXPECT(strcmp(line(i++), "S ffffffffffffffff operator%20new - 0 0 - "
                           "struct%20node 0 1f2e") == 0);
  EXPECT(strcmp(line(i++), "K 7 0:0 1:10 0:20") == 0);
  const char *k8 = line(i++);
  int frames = 0;
  for (const char *c = k8; *c; c++)
    frames += *c == ':';
  EXPECT(frames == MD_PROFILE_FRAMES_MAX);
  EXPECT(strncmp(k8, "K 8 0:0 1:10 ", 13) == 0);
  EXPECT(strcmp(line(i++), "N 0 1f2e %2D 2e") == 0);
  EXPECT(strcmp(line(i++), "T 5000 300 3 10 7 900 2") == 0);
  EXPECT(strcmp(line(i++), "C 5000 abc123 2 200 8 6 800 250") == 0);
  EXPECT(strcmp(line(i++), "C 5000 1 1 100 2 1 100 100") == 0);
  EXPECT(strcmp(line(i++), "A 0 6000 2 after%20load") == 0);
  EXPECT(strcmp(line(i++), "B 0 abc123 100 7 10 55 7f00") == 0);
  /* An allocation time before the start reads as 0. */
  EXPECT(strcmp(line(i++), "B 0 1 4096 0 0 56 8000") == 0);
  EXPECT(strcmp(line(i++), "A 1 7000 0 -") == 0);
  EXPECT(strcmp(line(i++), "F 8000 abc123 100 7 10 def 8 55") == 0);
  EXPECT(strcmp(line(i++), "X 9000 7f00 100 abc123 def df0 8 55") == 0);
  EXPECT(strcmp(line(i++), "E 10000") == 0);
  EXPECT(count_lines() == i);

  /* Strings are cut at MD_PROFILE_STRING_MAX bytes; every byte <= 0x20,
   * '%' and DEL is escaped. */
  static char longname[5000];
  memset(longname, 'x', sizeof(longname) - 1);
  longname[0] = '%';
  longname[1] = '\t';
  longname[2] = 0x7f;
  EXPECT(md_profile_open(&p, path, &h));
  EXPECT(md_profile_module(&p, 3, longname));
  EXPECT(md_profile_close(&p, 0));
  slurp(path);
  const char *m = line(2);
  EXPECT(strncmp(m, "M 3 %25%09%7Fxxx", 16) == 0);
  EXPECT(strlen(m) == 4 + 9 + (MD_PROFILE_STRING_MAX - 3));

  /* Many records: the buffer is flushed as it fills, nothing is lost. */
  static struct md_profile_block many[20000];
  for (int k = 0; k < 20000; k++)
    many[k] = (struct md_profile_block){(uint64_t)k, 16, 0, 0, 0, 0};
  EXPECT(md_profile_open(&p, path, &h));
  EXPECT(md_profile_snapshot(&p, 0, "big", many, 20000));
  EXPECT(md_profile_close(&p, 0));
  slurp(path);
  EXPECT(count_lines() == 2 + 1 + 20000 + 1);
  EXPECT(strcmp(line(2 + 1 + 19999), "B 0 4e1f 16 0 0 0 0") == 0);

  /* Failures: a directory that does not exist; a device that refuses
   * writes (or that the open rules refuse). */
  snprintf(path, sizeof(path), "%s/missing/t.mdprof", dir);
  errno = 0;
  EXPECT(!md_profile_open(&p, path, &h));
  EXPECT(errno == ENOENT);
  errno = 0;
  bool opened = md_profile_open(&p, "/dev/full", &h);
  EXPECT(!opened && errno != 0);
  if (opened)
    md_profile_close(&p, 0);

  printf("profile_test: %d passed, %d failed\n", passed, failed);
  return failed != 0;
}
