// Proves: what an error message quotes from a bad MDEBUG_OPTIONS (an unknown
// option's name, a bad value, the junk after a number, the value of a
// nameless '=') is printed escaped: control bytes reach the terminal as
// \xNN, \n, \t, never raw. The clean run (a good string) prints nothing.
// RUN: %mdebug_clang -g %s -o %t
// RUN: %t name 2> %t.name
// RUN: %FileCheck %s --check-prefix=NAME < %t.name
// RUN: %python %S/../../Inputs/no_control_bytes.py < %t.name
// RUN: %t junk 2> %t.junk
// RUN: %FileCheck %s --check-prefix=JUNK < %t.junk
// RUN: %python %S/../../Inputs/no_control_bytes.py < %t.junk
// RUN: %t negative 2> %t.neg
// RUN: %FileCheck %s --check-prefix=NEG < %t.neg
// RUN: %python %S/../../Inputs/no_control_bytes.py < %t.neg
// RUN: %t noname 2> %t.noname
// RUN: %FileCheck %s --check-prefix=NONAME < %t.noname
// RUN: %python %S/../../Inputs/no_control_bytes.py < %t.noname
// RUN: %t good 2>&1 | count 0
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The strings carry bytes a shell test line cannot: the program sets
 * MDEBUG_OPTIONS and runs itself again, so mdebug reads it at start-up. */
int main(int argc, char **argv) {
  if (argc == 2) {
    const char *opts = NULL;
    if (!strcmp(argv[1], "name"))
      opts = "none \x1b]0;owned\x07guard";
    else if (!strcmp(argv[1], "junk"))
      opts = "none guard=12\x1b[2J\r";
    else if (!strcmp(argv[1], "negative"))
      opts = "none guard=-4\x7f";
    else if (!strcmp(argv[1], "noname"))
      opts = "none =\x1b[31mred";
    else
      opts = "none guard=16";
    setenv("MDEBUG_OPTIONS", opts, 1);
    char *args[] = {argv[0], argv[1], "run", NULL};
    execv("/proc/self/exe", args);
    return 99;
  }
  free(malloc(8));
  return 0;
}
// NAME: mdebug: MDEBUG_OPTIONS: unknown option \x1b]0;owned\x07guard; ignoring MDEBUG_OPTIONS
// JUNK: mdebug: MDEBUG_OPTIONS: bad value for option 'guard', non space found after option: \x1b[2J\r; ignoring MDEBUG_OPTIONS
// NEG: mdebug: MDEBUG_OPTIONS: bad value for option 'guard', non space found after option: \x7f; ignoring MDEBUG_OPTIONS
// NONAME: mdebug: MDEBUG_OPTIONS: option name missing before '=\x1b[31mred'; ignoring MDEBUG_OPTIONS
