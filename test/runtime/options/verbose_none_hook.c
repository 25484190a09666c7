// Proves: `verbose` prints the options in force; `none` clears the default
// set (malloc debug semantics); a program's __mdebug_default_options() string
// applies over the defaults and under MDEBUG_OPTIONS; a bad hook string is
// ignored with a message naming the hook.
// RUN: %mdebug_clang %s -o %t
// RUN: %mdebug_clang -DHOOK='"guard=64 exitcode=9"' %s -o %t.hook
// RUN: %mdebug_clang -DHOOK='"guard=99999"' %s -o %t.badhook
// RUN: env MDEBUG_OPTIONS=verbose %t 2>&1 | %FileCheck %s --check-prefix=DEFAULT
// RUN: env MDEBUG_OPTIONS="none rear_guard=8 verbose" %t 2>&1 | %FileCheck %s --check-prefix=NONE
// RUN: env MDEBUG_OPTIONS=verbose %t.hook 2>&1 | %FileCheck %s --check-prefix=HOOK
// RUN: env MDEBUG_OPTIONS="verbose guard=4" %t.hook 2>&1 | %FileCheck %s --check-prefix=ENV-OVER-HOOK
// RUN: env MDEBUG_OPTIONS=verbose %t.badhook 2>&1 | %FileCheck %s --check-prefix=BADHOOK
#ifdef HOOK
const char *__mdebug_default_options(void) { return HOOK; }
#endif
int main(void) { return 0; }
// DEFAULT: mdebug: options in force: rear_guard=8 fill_on_free=64 free_track=256 free_track_bytes=262144 leak_check=1 verify_pointers track_mmap=1 verbose exitcode=23
// NONE: mdebug: options in force: rear_guard=8 verbose exitcode=23
// HOOK: mdebug: options in force: front_guard=64 rear_guard=64 fill_on_free=64 free_track=256 free_track_bytes=262144 leak_check=1 verify_pointers track_mmap=1 verbose exitcode=9
// ENV-OVER-HOOK: mdebug: options in force: front_guard=16 rear_guard=4 fill_on_free=64 free_track=256 free_track_bytes=262144 leak_check=1 verify_pointers track_mmap=1 verbose exitcode=9
// BADHOOK: mdebug: __mdebug_default_options(): bad value for option 'guard', value must be <= 16384: 99999; ignoring these options
// BADHOOK: mdebug: options in force: rear_guard=8 fill_on_free=64 free_track=256 free_track_bytes=262144 leak_check=1 verify_pointers track_mmap=1 verbose exitcode=23
