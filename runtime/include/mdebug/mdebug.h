/* mdebug.h - what a program can ask of the mdebug runtime.
 *
 * Every function is safe to call from any thread at any time. In a program
 * built without mdebug, declare them weak and test for NULL:
 *   #pragma weak mdebug_check_leaks
 *   if (mdebug_check_leaks) mdebug_check_leaks();
 */
#ifndef MDEBUG_MDEBUG_H
#define MDEBUG_MDEBUG_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Stops the other threads briefly, reports the blocks no pointer reaches
 * any more (as the exit-time check does, but only those not reported
 * before) and returns how many it reported. Every thread carries on. */
size_t mdebug_check_leaks(void);

/* The block at ptr (returned by an allocation function) is kept on purpose:
 * it is never reported as a leak, and what it points to stays reachable. */
void mdebug_ignore(const void *ptr);

/* Memory the leak scanner should treat as a root (a region mdebug cannot
 * see, e.g. from mmap, holding the only pointers to some blocks). */
void mdebug_register_root(const void *begin, size_t size);
void mdebug_unregister_root(const void *begin, size_t size);

#ifdef __cplusplus
}
#endif

#endif
