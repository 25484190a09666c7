/* counter.h - a correct helper library, never the culprit. */
#ifndef SAMPLE_COUNTER_H
#define SAMPLE_COUNTER_H
#ifdef __cplusplus
extern "C" {
#endif
/* The number of characters of s that are c, counted in a heap table. */
unsigned count_char(const char *s, char c);
#ifdef __cplusplus
}
#endif
#endif
