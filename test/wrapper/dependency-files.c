// Proves: the -M family of dependency options passes through with its arguments: -MD and -MMD write a .d file beside the object (also when compiling and linking in one step), -MF/-MT/-MQ name the file and the target, and -M/-MM with -MF write only dependencies; the object or program is still instrumented.
// Clang breaks a rule longer than its line limit after "target: \",
// wherever the checkout's path makes it long: each check reads the file
// with continuation lines joined, so it holds for any checkout path.
// RUN: rm -rf %t.dir && mkdir -p %t.dir && cd %t.dir
// RUN: %mdebug_clang -MD -c %s -o md.o
// RUN: sed -e ':a' -e '/\\$/N' -e 's/\\\n//' -e 'ta' md.d | %FileCheck %s --check-prefix=MD
// RUN: llvm-nm md.o | %FileCheck %s --check-prefix=NM
// RUN: %mdebug_clang -MMD -MF custom.dep -MT mytarget -c %s -o mmd.o
// RUN: sed -e ':a' -e '/\\$/N' -e 's/\\\n//' -e 'ta' custom.dep | %FileCheck %s --check-prefix=MMD
// RUN: %mdebug_clang -MD -MF linked.d -MQ 'q$target' %s -o prog
// RUN: sed -e ':a' -e '/\\$/N' -e 's/\\\n//' -e 'ta' linked.d | %FileCheck %s --check-prefix=MQ
// RUN: %not ./prog 2>&1 | %FileCheck %s
// RUN: %mdebug_clang -MM -MF only.d %s
// RUN: sed -e ':a' -e '/\\$/N' -e 's/\\\n//' -e 'ta' only.d | %FileCheck %s --check-prefix=MM
// RUN: %not ls a.out dependency-files.o
// Clean case: without -M options no .d file is written.
// RUN: %mdebug_clang -c %s -o plain.o
// RUN: %not ls plain.d
#include <stdlib.h>

int main(void) {
  char *p = malloc(9);
  (void)p;
  return 0;
}
// MD: md.o: {{.*}}dependency-files.c
// MD: stdlib.h
// NM: U __mdebug_malloc
// MMD: mytarget: {{.*}}dependency-files.c
// MMD-NOT: stdlib.h
// MQ: q$$target: {{.*}}dependency-files.c
// CHECK: mdebug: 9 bytes leaked in 1 block
// CHECK: allocated by malloc at {{.*}}dependency-files.c:23:13 (main)
// MM: dependency-files.o: {{.*}}dependency-files.c
// MM-NOT: stdlib.h
