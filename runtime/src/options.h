/* options.h - the options (md_opt, parsed from options.def's list) and their
 * parser (options.c). What the rest of the runtime may call; nothing declared
 * here allocates through malloc.
 */
#ifndef MDEBUG_INTERNAL_OPTIONS_H
#define MDEBUG_INTERNAL_OPTIONS_H

#include "base.h"

#define MD_PATH_MAX 256
struct md_options {
#define MD_OPTION(NAME, KIND, BARE, MIN, MAX, HELP) MD_FIELD_##KIND(NAME)
#define MD_ALIAS(NAME, FIRST, SECOND, HELP)
#define MD_SYNONYM(NAME, TARGET)
#define MD_FIELD_FLAG(NAME) size_t NAME;
#define MD_FIELD_SIZE(NAME) size_t NAME;
#define MD_FIELD_NUMBER(NAME) size_t NAME;
#define MD_FIELD_PATH(NAME) char NAME[MD_PATH_MAX];
#define MD_FIELD_PATTERN(NAME) char NAME[MD_PATH_MAX];
#include "options.def"
};
extern struct md_options md_opt MD_HIDDEN;
/* Parses `text` over *opts. On error writes one line naming the option and
 * the rule into err and returns false; *opts is then unspecified. */
bool md_options_parse(struct md_options *opts, const char *text, char *err,
                      size_t err_size) MD_HIDDEN;
void md_options_set_defaults(struct md_options *opts) MD_HIDDEN;
/* Derived settings (free_track implies fill_on_free, guard rounding). */
void md_options_finish(struct md_options *opts) MD_HIDDEN;
/* Reads built-in defaults, the __mdebug_default_options() hook and
 * MDEBUG_OPTIONS into md_opt, reporting bad strings. */
void md_options_init(void) MD_HIDDEN;
void md_options_print_help(void) MD_HIDDEN;
void md_options_print_active(void) MD_HIDDEN;

#endif
