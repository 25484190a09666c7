/* print.h - formatting into caller buffers, never allocates (print.c). What
 * the rest of the runtime may call; nothing declared here allocates through
 * malloc.
 */
#ifndef MDEBUG_INTERNAL_PRINT_H
#define MDEBUG_INTERNAL_PRINT_H

#include "base.h"

/* printf subset: %% %c %s %d %i %u %x %p with l/ll/z, width, '0' and '-'. */
size_t md_vformat(char *buf, size_t size, const char *fmt, va_list ap) MD_HIDDEN;
size_t md_format(char *buf, size_t size, const char *fmt, ...)
    __attribute__((format(printf, 3, 4))) MD_HIDDEN;
/* Copies s[0..n) into buf with control bytes, DEL and '\\' escaped (\n, \t,
 * \r, \xNN, \\), so text from outside (option strings, file lines, program
 * names) cannot drive the terminal. Always NUL-terminated; returns the length
 * written (truncated to the buffer). */
size_t md_escape(char *buf, size_t size, const char *s, size_t n) MD_HIDDEN;
/* md_escape leaving '\\' as it is: for a line whose parts were escaped
 * already (report.c's net under every report line). */
size_t md_escape_controls(char *buf, size_t size, const char *s, size_t n)
    MD_HIDDEN;
/* md_escape of a C string that also escapes '"', '{' and '}' (\xNN): a
 * quoted field of a heap dump's bt_info. */
size_t md_escape_field(char *buf, size_t size, const char *s) MD_HIDDEN;
/* md_escape of a C string into buf; returns buf (NULL for NULL), for use as
 * a %s argument. */
const char *md_escaped(char *buf, size_t size, const char *s) MD_HIDDEN;

#endif
