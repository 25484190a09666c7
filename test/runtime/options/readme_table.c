// Proves: README.md's option table lists exactly the options (syntax, values
// and help text, in order) that the runtime's `help` prints from options.def.
// RUN: %mdebug_clang %s -o %t
// RUN: env MDEBUG_OPTIONS=help %t 2>&1 >/dev/null | %python %mdebug_src/test/Inputs/options_table.py --check %mdebug_src/README.md | %FileCheck %s
// CHECK: README option table matches ({{[0-9]+}} options)
int main(void) { return 0; }
