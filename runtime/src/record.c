/* record.c - record_allocs: every allocation call, with its thread, result,
 * arguments and start and end times (CLOCK_MONOTONIC ns), kept in a buffer
 * of record_allocs=N entries reserved at start-up, and written in malloc
 * debug's current line format:
 *   TID: malloc PTR SIZE START END        TID: free PTR START END
 *   TID: calloc PTR NMEMB SIZE START END  TID: realloc NEW OLD SIZE START END
 *   TID: memalign PTR ALIGN SIZE START END
 *   TID: thread_done 0x0 END
 * operator new/delete, strdup and reallocarray are recorded as the malloc,
 * free and realloc they stand for; posix_memalign, aligned_alloc, valloc and
 * pvalloc as memalign (as in malloc debug).
 *
 * A call takes its slot with one atomic add and never waits; once the
 * buffer is full one message is logged and later calls are not recorded.
 * Each write (SIGRTMAX-18, or at exit with record_allocs_on_exit) holds
 * the records since the previous write. Without record_allocs_file the
 * files are /tmp/record_allocs.PID.txt and /tmp/record_allocs.PID.exit.txt
 * (malloc debug's one fixed name would be shared by every process and
 * user); with it, FILE and FILE.PID as in malloc debug. Never allocates through malloc.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <string.h>
#include <time.h>

#include "base.h"
#include "lock.h"
#include "log.h"
#include "options.h"
#include "outfile.h"
#include "platform.h"
#include "print.h"
#include "record.h"
#include "scan_contract.h"

struct record {
  uint32_t done; /* set last, with release: the entry is complete */
  uint32_t tid;
  uint8_t type;
  uintptr_t ptr, old; /* old: realloc's old pointer */
  size_t arg, size;   /* arg: calloc's nmemb or memalign's alignment */
  uint64_t start, end;
};

static const char *const type_names[] = {
    [MD_REC_MALLOC] = "malloc",     [MD_REC_CALLOC] = "calloc",
    [MD_REC_MEMALIGN] = "memalign", [MD_REC_REALLOC] = "realloc",
    [MD_REC_FREE] = "free",         [MD_REC_THREAD_DONE] = "thread_done",
};

bool md_recording;
static struct record *records;
static size_t capacity, next_slot, written;
static bool full_logged;
static md_lock_t write_lock = MD_LOCK_INIT;
static pthread_key_t thread_key;
static __thread bool thread_known __attribute__((tls_model("initial-exec")));

uint64_t md_record_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

MD_OFF_BY_DEFAULT static void thread_done(void *arg) {
  (void)arg;
  md_record(MD_REC_THREAD_DONE, 0, 0, 0, 0, 0, md_record_now());
}

void md_record_init(void) {
  if (!md_opt.record_allocs)
    return;
  capacity = md_opt.record_allocs;
  records = md_mmap(capacity * sizeof(struct record));
  if (!records) {
    md_log("mdebug: cannot reserve memory for %zu records; record_allocs is "
           "off", capacity);
    return;
  }
  pthread_key_create(&thread_key, thread_done);
  md_recording = true;
}

MD_OFF_BY_DEFAULT void md_record(enum md_record_type type, uintptr_t ptr,
                                 uintptr_t old, size_t arg, size_t size,
                                 uint64_t start, uint64_t end) {
  if (!thread_known && type != MD_REC_THREAD_DONE) {
    thread_known = true;
    pthread_setspecific(thread_key, (void *)1); /* for thread_done */
  }
  size_t i = __atomic_fetch_add(&next_slot, 1, __ATOMIC_RELAXED);
  if (i >= capacity) {
    if (!__atomic_exchange_n(&full_logged, true, __ATOMIC_RELAXED))
      md_log("mdebug: Maximum number of records added, all new operations "
             "will be dropped.");
    return;
  }
  struct record *r = &records[i];
  r->tid = (uint32_t)md_gettid();
  r->type = (uint8_t)type;
  r->ptr = ptr;
  r->old = old;
  r->arg = arg;
  r->size = size;
  r->start = start;
  r->end = end;
  __atomic_store_n(&r->done, 1, __ATOMIC_RELEASE);
}

static void write_one(struct md_out *o, const struct record *r) {
  md_out_printf(o, "%u: %s 0x%lx", r->tid, type_names[r->type],
                (unsigned long)r->ptr);
  switch ((enum md_record_type)r->type) {
  case MD_REC_MALLOC:
    md_out_printf(o, " %zu", r->size);
    break;
  case MD_REC_CALLOC:
  case MD_REC_MEMALIGN:
    md_out_printf(o, " %zu %zu", r->arg, r->size);
    break;
  case MD_REC_REALLOC:
    md_out_printf(o, " 0x%lx %zu", (unsigned long)r->old, r->size);
    break;
  case MD_REC_FREE:
    break;
  case MD_REC_THREAD_DONE:
    md_out_printf(o, " %lu\n", (unsigned long)r->end);
    return;
  }
  md_out_printf(o, " %lu %lu\n", (unsigned long)r->start,
                (unsigned long)r->end);
}

/* Waits (briefly) for a slot another thread took but has not filled. */
static bool complete(const struct record *r) {
  for (int spins = 0; spins < 100000; spins++) {
    if (__atomic_load_n(&r->done, __ATOMIC_ACQUIRE))
      return true;
    sched_yield();
  }
  return false;
}

MD_OFF_BY_DEFAULT void md_record_write(bool at_exit) {
  if (!md_recording)
    return;
  char path[MD_PATH_MAX + 32];
  const char *file = md_opt.record_allocs_file;
  if (!file[0]) /* the default: one name per process, never shared */
    md_format(path, sizeof(path), "/tmp/record_allocs.%d%s", md_getpid(),
              at_exit ? ".exit.txt" : ".txt");
  else if (at_exit)
    md_format(path, sizeof(path), "%s.%d", file, md_getpid());
  else
    md_format(path, sizeof(path), "%s", file);
  md_lock(&write_lock);
  size_t end = __atomic_load_n(&next_slot, __ATOMIC_RELAXED);
  if (end > capacity)
    end = capacity;
  if (end == written) {
    md_log("mdebug: No alloc entries to write.");
    md_unlock(&write_lock);
    return;
  }
  struct md_out o;
  if (!md_out_open(&o, path)) {
    if (o.refusal[0])
      md_log("mdebug: %s", o.refusal);
    else
      md_log("mdebug: Cannot create record alloc file %s: %s", path,
             strerror(errno));
    md_unlock(&write_lock);
    return;
  }
  size_t i = written;
  for (; i < end && complete(&records[i]); i++)
    write_one(&o, &records[i]);
  written = i;
  if (!md_out_close(&o))
    md_log("mdebug: Failed to write record alloc information: %s",
           strerror(errno));
  md_unlock(&write_lock);
}

/* The parent's records stay the parent's: the child's writes start after
 * them (slots are never reused, so no stale entry looks complete). */
void md_record_atfork_child(void) {
  if (md_recording) {
    md_lock_reset(&write_lock);
    written = next_slot < capacity ? next_slot : capacity;
  }
}
