/* version.h - the ABI version shared by the pass and the runtime.
 *
 * Every instrumented module calls __mdebug_version_mismatch_check_vN from a
 * constructor and the runtime defines exactly that symbol, so linking a module
 * against a runtime of another ABI version fails at link time instead of
 * misbehaving at run time. Bump the number whenever abi.def, checks.def
 * (the entry points and their calling conventions), access.h (the layouts
 * instrumented code reads) or struct mdebug_site changes.
 */
#ifndef MDEBUG_VERSION_H
#define MDEBUG_VERSION_H

#define MDEBUG_ABI_VERSION 7
#define MDEBUG_VERSION_STRING "0.1.0"

#define MDEBUG_STR2(x) #x
#define MDEBUG_STR(x) MDEBUG_STR2(x)
/* "__mdebug_version_mismatch_check_v7" */
#define MDEBUG_VERSION_CHECK_NAME                                              \
  "__mdebug_version_mismatch_check_v" MDEBUG_STR(MDEBUG_ABI_VERSION)

#endif
