/* api.c - the user API declared in mdebug.h: thin, exported wrappers over
 * the modules that do the work. An inert copy of the runtime (copies.c)
 * passes each call on to the active copy, or does nothing when no copy is
 * active. Never allocates.
 */
#include <errno.h>

#include "base.h"
#include "copies.h"
#include "heapdump.h"
#include "init.h"
#include "leak.h"
#include "mdebug/mdebug.h"
#include "profiler.h"
#include "roots.h"

/* Cold code (the user API, called on purpose): base.h. */
#pragma clang section text = "mdebug_cold"

MD_EXPORT size_t mdebug_check_leaks(void) {
  if (MD_UNLIKELY(!md_copy_active()))
    return md_forward.check_leaks ? md_forward.check_leaks() : 0;
  return md_leak_check_now();
}

MD_EXPORT int mdebug_dump_heap(const char *path) {
  if (MD_UNLIKELY(!md_copy_active())) {
    if (md_forward.dump_heap)
      return md_forward.dump_heap(path);
    errno = ENOSYS;
    return -1;
  }
  return md_heap_dump(path);
}

MD_EXPORT void mdebug_ignore(const void *ptr) {
  if (MD_UNLIKELY(!md_copy_active())) {
    if (md_forward.ignore)
      md_forward.ignore(ptr);
    return;
  }
  md_leak_ignore(ptr);
}

MD_EXPORT void mdebug_register_root(const void *begin, size_t size) {
  if (MD_UNLIKELY(!md_copy_active())) {
    if (md_forward.register_root)
      md_forward.register_root(begin, size);
    return;
  }
  md_world_register_root(begin, size);
}

MD_EXPORT void mdebug_unregister_root(const void *begin, size_t size) {
  if (MD_UNLIKELY(!md_copy_active())) {
    if (md_forward.unregister_root)
      md_forward.unregister_root(begin, size);
    return;
  }
  md_world_unregister_root(begin, size);
}

MD_EXPORT int mdebug_snapshot(const char *label) {
  if (MD_UNLIKELY(!md_copy_active())) {
    if (md_forward.snapshot)
      return md_forward.snapshot(label);
    errno = ENOSYS;
    return -1;
  }
  return md_snapshot_take(label);
}

MD_EXPORT int mdebug_track(int on) {
  if (MD_UNLIKELY(!md_copy_active()))
    return md_forward.track ? md_forward.track(on) : -1;
  md_ensure_init();
  if (!md_sample_configured())
    return -1;
  return md_sample_set_tracking(on != 0) ? 1 : 0;
}
