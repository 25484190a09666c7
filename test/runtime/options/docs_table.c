// Proves: docs/options.md's option table lists exactly the options (syntax,
// values and help text, in order) that the runtime's `help` prints from
// options.def, and every option the README's short table names exists.
// RUN: %mdebug_clang %s -o %t
// RUN: env MDEBUG_OPTIONS=help %t 2>&1 >/dev/null | %python %mdebug_src/test/Inputs/options_table.py --check %mdebug_src/docs/options.md | %FileCheck %s
// CHECK: option table matches ({{[0-9]+}} options)
// RUN: env MDEBUG_OPTIONS=help %t 2>&1 >/dev/null | %python %mdebug_src/test/Inputs/options_table.py --names-in %mdebug_src/README.md | %FileCheck %s --check-prefix=README
// README: README names {{[0-9]+}} options, all known
int main(void) { return 0; }
