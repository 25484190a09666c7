/* report.h - the reports: the only writer of user-visible error text, the
 * summary and the exit status (report.c). What the rest of the runtime may
 * call; nothing declared here allocates through malloc.
 */
#ifndef MDEBUG_INTERNAL_REPORT_H
#define MDEBUG_INTERNAL_REPORT_H

#include "base.h"

enum md_error {
#define MD_ERROR(NAME, TITLE) MD_ERR_##NAME,
#include "errors.def"
  MD_ERR_COUNT
};
/* A report is begin, any number of lines, end. begin returns false when the
 * report must be dropped (re-entry from the same thread); then call nothing. */
bool md_report_begin(enum md_error kind) MD_HIDDEN;
void md_report_line(const char *fmt, ...) __attribute__((format(printf, 1, 2)))
MD_HIDDEN;
void md_report_end(void) MD_HIDDEN;
/* Evidence: one "  allocation[i] = 0x.. (expected 0x..)" line per byte of
 * bytes[0..n) that differs from `expected` (i counted from index0), at most
 * 64 lines then a count. Returns how many differ. */
size_t md_report_evidence(const unsigned char *bytes, size_t n, long index0,
                          unsigned char expected) MD_HIDDEN;
/* "  <what> by <op> at <origin>", the line naming a site. */
void md_report_origin(const char *what, unsigned op, md_origin_t origin)
    MD_HIDDEN;
/* "  <what> at <file:line:col (function)>", the line naming a source
 * location that is no allocation site (a checked access). */
void md_report_source(const char *what, const char *file,
                      const char *function, uint32_t line, uint32_t column)
    MD_HIDDEN;
/* Leaks found at exit (counted for the summary and the exit status). */
void md_report_add_leaks(size_t blocks, size_t bytes) MD_HIDDEN;
/* Leaked mappings (mmap.c), counted apart: "... in 3 blocks and 1 mapping". */
void md_report_add_leaked_mappings(size_t maps, size_t bytes) MD_HIDDEN;
/* Prints the SUMMARY line if anything was reported; returns the exit status
 * the run should end with, or -1 to keep the program's. */
int md_report_summary(void) MD_HIDDEN;
/* From the handler of a fatal signal (crash.c): the SUMMARY line of what was
 * reported so far, then the signal ("SIGSEGV", "segmentation fault"). Safe
 * in a signal handler; never waits long for the report lock, which the
 * dying thread itself may hold. */
void md_report_fatal_summary(const char *signal, const char *what) MD_HIDDEN;
/* md_report_begin for the handler of a fatal signal (crash.c): never waits
 * long for the lock; false when the dying thread was inside a report. Its
 * md_report_end never aborts (abort_on_error): the signal ends the run. */
bool md_report_begin_fatal(enum md_error kind) MD_HIDDEN;

/* report_stacks.c: */
/* Inside a report: `title` and the frames of stack id (nothing for 0). */
void md_report_stack(const char *title, uint32_t id) MD_HIDDEN;
/* Inside a report: the block's allocation stack and, once freed, its free
 * stack (whichever were recorded). */
struct md_block;
void md_report_block_stacks(const struct md_block *b) MD_HIDDEN;
/* Inside a report, with backtrace on: "Backtrace at time of failure:". */
void md_report_current_stack(void) MD_HIDDEN;

#endif
