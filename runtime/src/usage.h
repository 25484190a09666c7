/* usage.h - memory by category and by site (usage.c). What the rest of the
 * runtime may call; nothing declared here allocates through malloc.
 */
#ifndef MDEBUG_INTERNAL_USAGE_H
#define MDEBUG_INTERNAL_USAGE_H

#include "base.h"
#include "mappings.h"
#include "outfile.h"
#include "thread_stacks.h"

enum md_category { MD_CAT_BLOCKS, MD_CAT_MAPPINGS, MD_CAT_STACKS, MD_CATS };
struct md_usage_site {
  md_origin_t origin;
  size_t bytes, count;
  uint8_t category, op;
};
struct md_usage {
  size_t bytes[MD_CATS], count[MD_CATS];
  struct md_usage_site *sites; /* largest first */
  size_t n;
  size_t capacity;
  struct md_mapping *maps; /* every mapping, by address */
  size_t nmaps, maps_capacity;
  struct md_thread_stack *stacks;
  size_t nstacks, stacks_capacity;
};
/* Live blocks, mappings and thread stacks, totalled by category and by
 * (category, site); false without memory. */
bool md_usage_collect(struct md_usage *u) MD_HIDDEN;
void md_usage_free(struct md_usage *u) MD_HIDDEN;
/* "mdebug: stats: ..." lines: the totals, then the `top` largest sites. */
void md_usage_log(const struct md_usage *u, const char *prefix, size_t top)
    MD_HIDDEN;
/* The heap dump's extension section (docs/stacks-and-dumps.md). */
void md_usage_write_dump(struct md_out *o, const struct md_usage *u) MD_HIDDEN;

#endif
