/* suppress.h - the suppressions file (suppress.c). What the rest of the
 * runtime may call; nothing declared here allocates through malloc.
 */
#ifndef MDEBUG_INTERNAL_SUPPRESS_H
#define MDEBUG_INTERNAL_SUPPRESS_H

#include "base.h"
#include "site.h"

/* Reads the file the suppressions option names, once; a file that cannot be
 * used, and every line that is not leak:PATTERN, is reported with md_log. */
void md_suppress_load(void) MD_HIDDEN;
/* True when a leak:PATTERN line matches the function, source file or module
 * of origin. */
bool md_suppressed(md_origin_t origin) MD_HIDDEN;
/* Whether PATTERN (after "leak:") matches name: '*' any run, '^' and '$'
 * anchors, anywhere in name otherwise. */
bool md_suppress_match(const char *pattern, const char *name) MD_HIDDEN;
/* Whether pattern matches one of a site's names (md_origin_names). */
bool md_suppress_match_names(const char *pattern,
                             const struct md_origin_names *names) MD_HIDDEN;

#endif
