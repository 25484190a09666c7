/* lazy_lib.c - for lazy_binding.c: a shared library built with checked
 * accesses, whose function keeps a value in r10 across a checked read.
 * The read's probe misses (a first lookup), so the library calls
 * __mdebug_access_miss, which keeps every register but r11. */
long through_r10(const int *p) {
  register long kept __asm__("r10");
  __asm__ volatile("mov $7, %0" : "=r"(kept));
  int x = *p;
  __asm__ volatile("" : "+r"(kept));
  return kept * 1000 + x;
}
