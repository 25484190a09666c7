/* names.h - the sample's library with the planted bug. */
#ifndef SAMPLE_NAMES_H
#define SAMPLE_NAMES_H
#ifdef __cplusplus
extern "C" {
#endif
/* A heap copy of name; one byte too small (the NUL lands past the end)
 * unless exact is non-zero. */
char *copy_name(const char *name, int exact);
#ifdef __cplusplus
}
#endif
#endif
