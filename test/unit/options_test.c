// Proves: the MDEBUG_OPTIONS parser accepts malloc debug's syntax, applies
// its defaults, limits, rounding and implications, and rejects every kind of
// bad string with the rule it broke (checked message by message).
// RUN: %clang -O1 -I%mdebug_src/runtime/src -I%mdebug_src/runtime/shared -I%mdebug_include %s %mdebug_rt_a -o %t
// RUN: %t | %FileCheck %s
// CHECK: options_test: {{[0-9]+}} passed, 0 failed
#include <stdio.h>
#include <string.h>

#include "base.h"
#include "options.h"

#include "expect.h"

static struct md_options o;
static char err[256];

static int parse(const char *s) {
  md_options_set_defaults(&o);
  err[0] = '\0';
  int ok = md_options_parse(&o, s, err, sizeof(err));
  if (ok)
    md_options_finish(&o);
  return ok;
}

static void expect_error(const char *text, const char *message) {
  int ok = parse(text);
  EXPECT(!ok);
  if (ok || strcmp(err, message) != 0) {
    failed++;
    printf("FAIL for \"%s\":\n  got      \"%s\"\n  expected \"%s\"\n", text,
           err, message);
  } else
    passed++;
}

int main(void) {
  /* Baseline: nothing on, exit status 23. */
  EXPECT(parse(""));
  EXPECT(o.front_guard == 0 && o.rear_guard == 0 && o.free_track == 0);
  EXPECT(o.exitcode == 23);

  /* Bare values are malloc debug's defaults. */
  EXPECT(parse("guard"));
  EXPECT(o.front_guard == 32 && o.rear_guard == 32);
  EXPECT(parse("front_guard rear_guard expand_alloc free_track"));
  EXPECT(o.front_guard == 32 && o.rear_guard == 32 && o.expand_alloc == 16);
  EXPECT(o.free_track == 100 && o.fill_on_free == MD_SIZE_ALL);
  EXPECT(parse("fill"));
  EXPECT(o.fill_on_alloc == MD_SIZE_ALL && o.fill_on_free == MD_SIZE_ALL);
  EXPECT(parse("leak_track verify_pointers abort_on_error verbose help"));
  EXPECT(o.leak_track && o.verify_pointers && o.abort_on_error && o.verbose && o.help);

  /* Values, rounding, limits. */
  EXPECT(parse("front_guard=39"));
  EXPECT(o.front_guard == 48);
  EXPECT(parse("guard=1"));
  EXPECT(o.front_guard == 16 && o.rear_guard == 1);
  EXPECT(parse("guard=16384 free_track=16384 expand_alloc=16384"));
  EXPECT(o.rear_guard == 16384 && o.free_track == 16384 && o.expand_alloc == 16384);
  EXPECT(parse("fill_on_alloc=8 fill_on_free=18446744073709551615"));
  EXPECT(o.fill_on_alloc == 8 && o.fill_on_free == MD_SIZE_ALL);
  EXPECT(parse("exitcode=0"));
  EXPECT(o.exitcode == 0);
  EXPECT(parse("exitcode=255 log_path=/tmp/x"));
  EXPECT(o.exitcode == 255 && strcmp(o.log_path, "/tmp/x") == 0);
  EXPECT(parse(""));
  EXPECT(o.max_allocation_size == 0 && !o.allocator_may_return_null); /* 0: 1 TiB */
  EXPECT(parse("max_allocation_size=1 allocator_may_return_null"));
  EXPECT(o.max_allocation_size == 1 && o.allocator_may_return_null);
  EXPECT(parse("max_allocation_size=140737488355327"));
  EXPECT(o.max_allocation_size == ((size_t)1 << 47) - 1);

  /* free_track implies fill_on_free only when it was not set. */
  EXPECT(parse("fill_on_free=64 free_track"));
  EXPECT(o.fill_on_free == 64);
  EXPECT(parse("free_track fill_on_free=64"));
  EXPECT(o.fill_on_free == 64);
  /* ... but a fill_on_free from an earlier source (the default set) does
   * not stop an explicit free_track from filling whole blocks. */
  {
    char e2[256];
    EXPECT(parse("free_track=4 fill_on_free=64"));
    EXPECT(md_options_parse(&o, "free_track", e2, sizeof(e2)));
    EXPECT(o.fill_on_free == MD_SIZE_ALL && o.free_track == 100);
  }
  /* Likewise free_track_bytes: a bound set in this string stays, one from
   * an earlier source (the default set's) gives way to malloc debug's
   * meaning of an explicit free_track=N: N blocks, however large. */
  EXPECT(parse("free_track_bytes=4096 free_track=8"));
  EXPECT(o.free_track_bytes == 4096 && o.free_track == 8);
  EXPECT(parse("free_track=8 free_track_bytes=4096"));
  EXPECT(o.free_track_bytes == 4096);
  {
    char e2[256];
    EXPECT(parse("free_track=4 free_track_bytes=4096"));
    EXPECT(md_options_parse(&o, "free_track=9", e2, sizeof(e2)));
    EXPECT(o.free_track_bytes == 0 && o.free_track == 9);
    EXPECT(md_options_parse(&o, "free_track_bytes=7", e2, sizeof(e2)));
    EXPECT(o.free_track_bytes == 7 && o.free_track == 9);
  }
  expect_error("free_track_bytes", "option 'free_track_bytes' requires a value (free_track_bytes=N)");

  /* Separators: spaces, tabs, newlines, ':'; "name=" means the bare value. */
  EXPECT(parse("  guard=8\tfree_track=3\n:leak_track:  "));
  EXPECT(o.rear_guard == 8 && o.free_track == 3 && o.leak_track);
  EXPECT(parse("rear_guard="));
  EXPECT(o.rear_guard == 32);

  /* Later options override earlier; none clears what came before. */
  EXPECT(parse("guard=8 guard=64"));
  EXPECT(o.rear_guard == 64);
  EXPECT(parse("guard leak_track exitcode=5 none rear_guard=4"));
  EXPECT(o.front_guard == 0 && !o.leak_track && o.rear_guard == 4 && o.exitcode == 23);

  /* Errors, one per rule, with malloc debug's wording where it has one. */
  expect_error("bogus", "unknown option bogus");
  expect_error("guard bogus=1", "unknown option bogus");
  expect_error("guard,leak_track", "unknown option guard,leak_track");
  expect_error("leak_track=1",
               "value set for option 'leak_track' which does not take a value");
  expect_error("guard=abc", "bad value for option 'guard'");
  expect_error("guard=10x",
               "bad value for option 'guard', non space found after option: x");
  expect_error("guard=-5", "bad value for option 'guard', value cannot be negative: -5");
  expect_error("guard=0", "bad value for option 'guard', value must be >= 1: 0");
  expect_error("front_guard=16385",
               "bad value for option 'front_guard', value must be <= 16384: 16385");
  expect_error("free_track=99999999999999999999",
               "bad value for option 'free_track': Math result not representable");
  expect_error("exitcode", "option 'exitcode' requires a value (exitcode=N)");
  expect_error("exitcode=256", "bad value for option 'exitcode', value must be <= 255: 256");
  expect_error("log_path", "option 'log_path' requires a value (log_path=PATH)");
  expect_error("max_allocation_size=0",
               "bad value for option 'max_allocation_size', value must be >= 1: 0");
  expect_error("max_allocation_size=140737488355328",
               "bad value for option 'max_allocation_size', value must be <= "
               "140737488355327: 140737488355328");
  expect_error("max_allocation_size",
               "option 'max_allocation_size' requires a value (max_allocation_size=N)");
  expect_error("allocator_may_return_null=0",
               "value set for option 'allocator_may_return_null' which does not "
               "take a value");
  expect_error("=5", "option name missing before '=5'");

  printf("options_test: %d passed, %d failed\n", passed, failed);
  return failed != 0;
}
