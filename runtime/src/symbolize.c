/* symbolize.c - names a code address: its module (dladdr) and the function
 * holding it, from the module's full symbol table (.symtab, so static
 * functions and executables without exported symbols are named too), else
 * from the dynamic symbols dladdr sees (md_symbolize); and, for what reports
 * print, its source line and demangled function from LLVM's llvm-symbolizer
 * run as a helper process, as the sanitizers run it (md_symbolize_source).
 *
 * Used only when printing (reports, heap dumps with backtrace_full, records):
 * never on the allocation path. Module files are mapped read-only once and
 * kept; names returned point into those mappings (or into the helper's
 * answers, kept in mmap'd memory) and stay valid. Never allocates through
 * malloc.
 *
 * The helper: found by symbolizer_path, else the LLVM bin directory
 * recorded at build time, else PATH; never in a setuid/setgid process.
 * Started on the first request with a raw fork system call, twice: no
 * pthread_atfork handler runs (so a handler that allocates or locks cannot
 * deadlock us), the children make only system calls until execve, and the
 * helper is a grandchild (a program waiting for all its children never
 * waits for it). It keeps none of the program's files (an inherited pipe
 * end would keep the program's reader waiting), no blocked signal, and an
 * environment without LD_PRELOAD and MDEBUG_* (it must not run under
 * mdebug). It talks over a socketpair (a helper that died gives EPIPE,
 * never SIGPIPE). Requests are one line, "MODULE" 0xADDRESS; answers two
 * lines and a blank one. A helper that is missing, dies, or does not answer
 * within HELPER_TIMEOUT_MS is given up for the rest of the process: frames
 * keep the symbol-table names. A forked child never uses its parent's
 * helper (it starts its own). Answers are cached by pc.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "base.h"
#include "lock.h"
#include "log.h"
#include "options.h"
#include "platform.h"
#include "platform_linux.h"
#include "print.h"
#include "scan_contract.h"
#include "stacks.h"
#include "symbolizer_answer.h"

#define MAX_MODULES 64

struct module {
  uintptr_t base;
  char path[256];
  const Elf64_Sym *syms;
  size_t nsyms;
  const char *strtab;
  size_t strtab_size;
  bool relative; /* ET_DYN: symbol values are offsets from base */
};

static struct module modules[MAX_MODULES];
static unsigned module_count;
static md_lock_t modules_lock = MD_LOCK_INIT;

extern char *program_invocation_name;

static int open_module(const char *path) {
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  /* dladdr names the executable by argv[0], which may be relative to a
   * directory the program has left. */
  if (fd < 0 && program_invocation_name &&
      strcmp(path, program_invocation_name) == 0)
    fd = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);
  return fd;
}

/* Maps the file and finds its symbol table; false if it has none. */
static bool load(struct module *m) {
  int fd = open_module(m->path);
  if (fd < 0)
    return false;
  struct stat st;
  void *map = MAP_FAILED;
  if (fstat(fd, &st) == 0 && st.st_size > (off_t)sizeof(Elf64_Ehdr))
    map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
  close(fd);
  if (map == MAP_FAILED)
    return false;
  size_t size = (size_t)st.st_size;
  const unsigned char *file = map;
  const Elf64_Ehdr *eh = map;
  if (memcmp(eh->e_ident, ELFMAG, SELFMAG) != 0 ||
      eh->e_ident[EI_CLASS] != ELFCLASS64 || eh->e_shoff == 0 ||
      eh->e_shentsize != sizeof(Elf64_Shdr) ||
      eh->e_shoff + (size_t)eh->e_shnum * sizeof(Elf64_Shdr) > size)
    return false; /* the mapping is kept: harmless, and rare */
  const Elf64_Shdr *sh = (const Elf64_Shdr *)(file + eh->e_shoff);
  const Elf64_Shdr *best = NULL;
  for (unsigned i = 0; i < eh->e_shnum; i++)
    if (sh[i].sh_type == SHT_SYMTAB ||
        (sh[i].sh_type == SHT_DYNSYM && !best))
      best = &sh[i];
  if (!best || best->sh_link >= eh->e_shnum ||
      best->sh_offset + best->sh_size > size)
    return false;
  const Elf64_Shdr *str = &sh[best->sh_link];
  if (str->sh_offset + str->sh_size > size)
    return false;
  m->syms = (const Elf64_Sym *)(file + best->sh_offset);
  m->nsyms = best->sh_size / sizeof(Elf64_Sym);
  m->strtab = (const char *)(file + str->sh_offset);
  m->strtab_size = str->sh_size;
  m->relative = eh->e_type == ET_DYN;
  return true;
}

static struct module *module_for(uintptr_t base, const char *path) {
  for (unsigned i = 0; i < module_count; i++)
    if (modules[i].base == base && strcmp(modules[i].path, path) == 0)
      return &modules[i];
  if (module_count == MAX_MODULES || strlen(path) >= sizeof(modules[0].path))
    return NULL;
  struct module *m = &modules[module_count++];
  m->base = base;
  strcpy(m->path, path);
  if (!load(m))
    m->syms = NULL;
  return m;
}

/* The executable's real path (dladdr names it by argv[0], which may be
 * relative, or empty): read at start-up, so reports, profiles and the
 * symbolizer helper name a file anyone can open. */
static char self_exe[512];

static bool is_executable(const char *module) {
  return !module[0] || module == md_progname() ||
         (program_invocation_name &&
          strcmp(module, program_invocation_name) == 0);
}

MD_COLD bool md_symbolize(uintptr_t pc, struct md_symbol *out) {
  Dl_info info;
  memset(out, 0, sizeof(*out));
  out->pc = pc;
  if (!dladdr((void *)pc, &info) || !info.dli_fname)
    return false;
  out->module = info.dli_fname[0] ? info.dli_fname : md_progname();
  if (self_exe[0] && is_executable(info.dli_fname))
    out->module = self_exe;
  /* The address in the module's file (what addr2line and llvm-symbolizer
   * take): pc less the load bias, which is the load address for a shared
   * object or a PIE and 0 for a fixed-address executable. */
  struct link_map *map = NULL;
  Dl_info again;
  uintptr_t bias = (uintptr_t)info.dli_fbase;
  if (dladdr1((void *)pc, &again, (void **)&map, RTLD_DL_LINKMAP) && map)
    bias = (uintptr_t)map->l_addr;
  out->rel_pc = pc - bias;
  if (info.dli_sname) {
    out->function = info.dli_sname;
    out->offset = pc - (uintptr_t)info.dli_saddr;
  }
  md_lock(&modules_lock);
  struct module *m = module_for((uintptr_t)info.dli_fbase, info.dli_fname);
  if (m && m->syms) {
    uintptr_t addr = m->relative ? out->rel_pc : pc;
    for (size_t i = 0; i < m->nsyms; i++) {
      const Elf64_Sym *s = &m->syms[i];
      if (ELF64_ST_TYPE(s->st_info) != STT_FUNC || s->st_shndx == SHN_UNDEF ||
          addr < s->st_value || addr - s->st_value >= s->st_size ||
          s->st_name >= m->strtab_size)
        continue;
      out->function = m->strtab + s->st_name;
      out->offset = addr - s->st_value;
      break;
    }
  }
  md_unlock(&modules_lock);
  return true;
}

/* ---- the llvm-symbolizer helper ------------------------------------------ */

#ifndef MD_LLVM_BINDIR
#define MD_LLVM_BINDIR ""
#endif
#define HELPER_TIMEOUT_MS 10000 /* one answer (the first loads the DWARF) */
#define CACHE_SLOTS 4096        /* answers kept, by pc; a power of two */
#define ARENA_CHUNK (256 * 1024)
#define MAX_ENV 512

struct answer {
  uintptr_t pc; /* 0: empty */
  const char *function, *file;
  unsigned line, column;
};

static struct {
  int fd, owner; /* owner: the process that started it */
  dev_t dev;
  ino_t ino;
  bool given_up;
  char path[512];
  struct answer *cache;
  char *arena;
  size_t arena_left;
} helper = {.fd = -1};
static md_lock_t helper_lock = MD_LOCK_INIT;
static int helper_lock_tid; /* re-entry (a crash while symbolizing) */

static bool executable(const char *path) {
  struct stat st;
  return path[0] && access(path, X_OK) == 0 && stat(path, &st) == 0 &&
         S_ISREG(st.st_mode);
}

/* symbolizer_path, else the LLVM mdebug was built with, else PATH. */
static bool find_tool(char *out, size_t size) {
  if (md_opt.symbolizer_path[0]) {
    md_format(out, size, "%s", md_opt.symbolizer_path);
    return executable(out);
  }
  if (MD_LLVM_BINDIR[0]) {
    md_format(out, size, "%s/llvm-symbolizer", MD_LLVM_BINDIR);
    if (executable(out))
      return true;
  }
  const char *path = md_getenv("PATH");
  while (path && *path) {
    const char *end = strchr(path, ':');
    size_t n = end ? (size_t)(end - path) : strlen(path);
    if (n && n + sizeof("/llvm-symbolizer") < size) {
      memcpy(out, path, n);
      md_format(out + n, size - n, "/llvm-symbolizer");
      if (executable(out))
        return true;
    }
    path = end ? end + 1 : NULL;
  }
  return false;
}

void md_symbolize_init(void) {
  ssize_t n = readlink("/proc/self/exe", self_exe, sizeof(self_exe) - 1);
  self_exe[n > 0 && (size_t)n < sizeof(self_exe) - 1 ? n : 0] = '\0';
  if (md_opt.symbolize && md_opt.symbolizer_path[0] &&
      !executable(md_opt.symbolizer_path))
    md_log("mdebug: symbolizer_path=%s is not an executable file; frames "
           "are named from symbol tables, without source lines",
           md_opt.symbolizer_path);
}

/* Closing our end ends the helper: it reads end of file, or its next
 * answer fails to write. */
static void give_up(void) {
  if (helper.fd >= 0)
    close(helper.fd);
  helper.fd = -1;
  helper.given_up = true;
}

static bool start(void) {
  /* Not in a setuid/setgid process: the helper would run with its
   * privileges and the user's environment (LD_LIBRARY_PATH ...). */
  if (md_secure() || !find_tool(helper.path, sizeof(helper.path)))
    return false;
  /* Built before the fork: the child must not touch memory or locks. */
  static char *argv[] = {NULL, "--inlining=false", "--demangle",
                         "--output-style=LLVM", NULL};
  static char *envp[MAX_ENV];
  argv[0] = helper.path;
  size_t k = 0;
  for (char **e = environ; e && *e && k + 1 < MAX_ENV; e++)
    if (strncmp(*e, "LD_PRELOAD=", 11) != 0 && strncmp(*e, "MDEBUG_", 7) != 0)
      envp[k++] = *e;
  envp[k] = NULL;
  int sv[2];
  if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0)
    return false;
  /* A raw fork: no pthread_atfork handler runs (ours take the heap's locks;
   * the program's may allocate). The child makes system calls only, and
   * forks again: the helper is the grandchild, reparented to init, so a
   * program that waits for all its children (wait(NULL) in a loop) never
   * waits for it; the child exits at once and is reaped here. */
  long pid = md_sys5(SYS_clone, SIGCHLD, 0, 0, 0, 0);
  if (pid == 0) {
    if (md_sys5(SYS_clone, SIGCHLD, 0, 0, 0, 0) != 0)
      md_sys1(SYS_exit_group, 0);
    long c = sv[1];
    if (c < 3)
      c = md_sys3(SYS_fcntl, c, F_DUPFD, 3);
    long null = md_sys3(SYS_openat, AT_FDCWD, "/dev/null", O_WRONLY);
    md_sys2(SYS_dup2, c, 0);
    md_sys2(SYS_dup2, c, 1);
    if (null >= 0)
      md_sys2(SYS_dup2, null, 2);
    /* Every other file of the program goes, as the sanitizers' helper
     * start does: a pipe's write end kept open here would keep the
     * program's readers from ever seeing its end. */
    if (md_sys3(SYS_close_range, 3, ~0u, 0) != 0) {
      struct rlimit lim = {1024, 1024};
      md_sys2(SYS_getrlimit, RLIMIT_NOFILE, &lim);
      for (long fd = 3; fd < (long)lim.rlim_cur && fd < 65536; fd++)
        md_sys1(SYS_close, fd);
    }
    uint64_t none = 0; /* a report from a signal handler blocks some */
    md_sys4(SYS_rt_sigprocmask, SIG_SETMASK, &none, NULL, sizeof(none));
    md_sys3(SYS_execve, helper.path, argv, envp);
    md_sys1(SYS_exit_group, 127);
  }
  close(sv[1]);
  if (pid > 0)
    while (waitpid((pid_t)pid, NULL, 0) < 0 && errno == EINTR)
      ; /* ECHILD: the program's SIGCHLD handler reaped it */
  struct stat st;
  if (pid < 0 || fstat(sv[0], &st) != 0) {
    close(sv[0]);
    return false;
  }
  helper.fd = sv[0];
  helper.owner = md_getpid();
  helper.dev = st.st_dev;
  helper.ino = st.st_ino;
  return true;
}

/* The helper of this process, started if need be; false if there is none. */
static bool ready(void) {
  if (helper.owner != md_getpid()) { /* a forked child: not ours */
    if (helper.fd >= 0)
      close(helper.fd);
    helper.fd = -1;
    helper.given_up = false;
    helper.owner = md_getpid();
  }
  if (helper.given_up)
    return false;
  if (helper.fd >= 0) {
    /* The program may have closed our socket and opened a file there. */
    struct stat st;
    if (fstat(helper.fd, &st) != 0 || st.st_dev != helper.dev ||
        st.st_ino != helper.ino) {
      helper.fd = -1;
      give_up();
      return false;
    }
    return true;
  }
  if (!start()) {
    helper.given_up = true;
    return false;
  }
  return true;
}

static const char *keep(const char *s, size_t n) {
  if (n + 1 > helper.arena_left) {
    size_t size = n + 1 > ARENA_CHUNK ? n + 1 : ARENA_CHUNK;
    char *chunk = md_mmap(size);
    if (!chunk)
      return NULL;
    helper.arena = chunk;
    helper.arena_left = size;
  }
  char *out = helper.arena;
  memcpy(out, s, n);
  out[n] = '\0';
  helper.arena += n + 1;
  helper.arena_left -= n + 1;
  return out;
}

static bool send_all(const char *buf, size_t n) {
  while (n) {
    ssize_t w = send(helper.fd, buf, n, MSG_NOSIGNAL);
    if (w < 0 && errno == EINTR)
      continue;
    if (w <= 0)
      return false;
    buf += w;
    n -= (size_t)w;
  }
  return true;
}

/* Reads one answer (up to its blank line) into buf; the part past size is
 * dropped. */
static bool receive(char *buf, size_t size) {
  size_t len = 0;
  int newlines = 0;
  struct timespec t0;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  while (newlines < 3) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    long spent =
        (now.tv_sec - t0.tv_sec) * 1000 + (now.tv_nsec - t0.tv_nsec) / 1000000;
    if (spent >= HELPER_TIMEOUT_MS)
      return false;
    struct pollfd p = {helper.fd, POLLIN, 0};
    int r = poll(&p, 1, (int)(HELPER_TIMEOUT_MS - spent));
    if (r < 0 && errno == EINTR)
      continue;
    if (r <= 0)
      return false;
    char chunk[512];
    ssize_t n = recv(helper.fd, chunk, sizeof(chunk), 0);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      return false;
    for (ssize_t i = 0; i < n; i++) {
      /* an answer is "FUNCTION\nFILE:LINE:COL\n\n"; more would be a
       * second answer, which we never asked for */
      if (chunk[i] == '\n')
        newlines++;
      if (len + 1 < size)
        buf[len++] = chunk[i];
    }
  }
  buf[len] = '\0';
  return true;
}

/* Parses "FUNCTION\nFILE:LINE:COL\n\n"; "??" is unknown. */
static void parse(char *text, struct answer *a) {
  char *nl = strchr(text, '\n');
  if (!nl)
    return;
  *nl = '\0';
  if (strcmp(text, "??") != 0)
    a->function = keep(text, (size_t)(nl - text));
  char *file = nl + 1;
  char *end = strchr(file, '\n');
  if (!end)
    return;
  *end = '\0';
  unsigned line, column;
  if (!md_symbolizer_location(file, &line, &column))
    return;
  a->file = keep(file, strlen(file));
  a->line = line;
  a->column = column;
}

static void ask(const struct md_symbol *sym, struct answer *a) {
  if (!ready())
    return;
  char line[1024];
  size_t n = md_format(line, sizeof(line), "\"%s\" 0x%lx\n", sym->module,
                       (unsigned long)sym->rel_pc);
  if (n + 1 >= sizeof(line))
    return; /* a path too long to ask about */
  char text[2048];
  if (!send_all(line, n) || !receive(text, sizeof(text))) {
    give_up();
    return;
  }
  parse(text, a);
}

MD_COLD bool md_symbolize_source(uintptr_t pc, struct md_symbol *out) {
  if (!md_symbolize(pc, out))
    return false;
  if (!md_opt.symbolize || !out->module)
    return true;
  int tid = md_gettid();
  if (__atomic_load_n(&helper_lock_tid, __ATOMIC_RELAXED) == tid)
    return true; /* a crash inside a symbolization: names only */
  md_lock(&helper_lock);
  helper_lock_tid = tid;
  if (!helper.cache)
    helper.cache = md_mmap(CACHE_SLOTS * sizeof(*helper.cache));
  struct answer fresh = {pc, NULL, NULL, 0, 0}, *slot = NULL;
  const struct answer *a = NULL;
  for (size_t i = 0; helper.cache && i < 8; i++) { /* 8 probes, then ask */
    size_t k = ((pc * 0x9e3779b97f4a7c15ull >> 32) + i) & (CACHE_SLOTS - 1);
    if (helper.cache[k].pc == pc) {
      a = &helper.cache[k];
      break;
    }
    if (!helper.cache[k].pc) {
      slot = &helper.cache[k];
      break;
    }
  }
  if (!a) {
    ask(out, &fresh);
    a = &fresh;
    if (slot && !helper.given_up) /* a failure is not an answer */
      *slot = fresh;
  }
  helper_lock_tid = 0;
  md_unlock(&helper_lock);
  if (a->function)
    out->function = a->function; /* demangled */
  out->file = a->file;
  out->line = a->line;
  out->column = a->column;
  return true;
}

void md_symbolize_atfork_child(void) {
  /* The parent's helper stays the parent's: the child lets go of it at
   * once (else the helper would outlive the parent while the child lives)
   * and starts its own if it reports. A thread of the parent may have held
   * these locks. */
  md_lock_reset(&helper_lock);
  md_lock_reset(&modules_lock);
  helper_lock_tid = 0;
  if (helper.fd >= 0)
    close(helper.fd);
  helper.fd = -1;
  helper.given_up = false;
  helper.owner = md_getpid();
}
