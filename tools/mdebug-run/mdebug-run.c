/* mdebug-run - runs a program that was not rebuilt under mdebug, the way
 * `heaptrack prog` is used: LD_PRELOAD=<lib>/libmdebug-rt.so (ahead of
 * whatever LD_PRELOAD already holds) and, with --options, MDEBUG_OPTIONS,
 * then exec. Finds the runtime relative to itself (../lib), so the build
 * tree and an installed tree both work.
 *
 * A program LD_PRELOAD cannot reach runs unchanged (the same environment,
 * no runtime), after one line saying why: a static executable (no
 * PT_INTERP), a setuid or setgid program the dynamic linker would start
 * in secure mode (it drops LD_PRELOAD paths there), one with file
 * capabilities (secure mode too), a 32-bit program. A script runs with the
 * runtime preloaded into its interpreter (and what that starts). Never
 * changes the program's arguments, standard streams or exit status: it
 * execs the program itself.
 *
 * The dynamic linker splits LD_PRELOAD at spaces and colons, so a runtime
 * whose path holds a space is named by its file name alone, with its
 * directory put first in LD_LIBRARY_PATH (which is split at colons only).
 */
#define _GNU_SOURCE
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

static const char usage[] =
    "usage: mdebug-run [--options \"OPTIONS\"] [--] PROGRAM [ARGUMENTS...]\n"
    "\n"
    "Runs PROGRAM, built without mdebug, with mdebug's runtime preloaded\n"
    "(LD_PRELOAD=%s): every check of MDEBUG_OPTIONS runs,\n"
    "sites are the callers' addresses (pc OFFSET  module (function+N)), full\n"
    "stacks (backtrace) come from frame pointers where the code keeps them,\n"
    "and shared libraries built with mdebug-clang still name their sites.\n"
    "\n"
    "  --options \"OPTIONS\"  set MDEBUG_OPTIONS (as with MDEBUG_OPTIONS=...)\n"
    "  --help               print this text\n"
    "\n"
    "A static executable, or a setuid, setgid or file-capability program\n"
    "(started in secure mode, where LD_PRELOAD is dropped), runs unchanged\n"
    "after one line saying so.\n";

static const char *me = "mdebug-run";

/* The runtime beside this launcher: <dir of /proc/self/exe>/../lib. */
static bool runtime_path(char *out, size_t size) {
  char self[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
  if (n <= 0)
    return false;
  self[n] = '\0';
  char *slash = strrchr(self, '/');
  if (!slash)
    return false;
  *slash = '\0';
  int len = snprintf(out, size, "%s/../lib/libmdebug-rt.so", self);
  if (len < 0 || (size_t)len >= size)
    return false;
  char real[PATH_MAX];
  if (realpath(out, real) && strlen(real) < size)
    strcpy(out, real);
  return access(out, R_OK) == 0;
}

/* PROGRAM as execvp would find it: as given if it has a '/', else the first
 * executable regular file of that name in PATH. */
static bool find_program(const char *name, char *out, size_t size) {
  if (strchr(name, '/')) {
    snprintf(out, size, "%s", name);
    return true;
  }
  const char *path = getenv("PATH");
  if (!path || !*path)
    path = "/usr/local/bin:/usr/bin:/bin";
  for (const char *p = path;;) {
    const char *end = strchr(p, ':');
    size_t len = end ? (size_t)(end - p) : strlen(p);
    struct stat st;
    snprintf(out, size, "%.*s%s%s", (int)len, p, len ? "/" : "", name);
    if (stat(out, &st) == 0 && S_ISREG(st.st_mode) && access(out, X_OK) == 0)
      return true;
    if (!end)
      break;
    p = end + 1;
  }
  return false;
}

/* Why LD_PRELOAD cannot reach the program, or NULL. */
static const char *unreachable(const char *path, char *why, size_t size) {
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return NULL; /* exec will say why */
  struct stat st;
  Elf64_Ehdr eh;
  const char *reason = NULL;
  if (fstat(fd, &st) != 0)
    goto done;
  if (((st.st_mode & S_ISUID) && st.st_uid != geteuid()) ||
      ((st.st_mode & S_ISGID) && st.st_gid != getegid())) {
    snprintf(why, size, "it is %s: the dynamic linker starts it in secure "
                        "mode, where it ignores LD_PRELOAD",
             (st.st_mode & S_ISUID) ? "setuid" : "setgid");
    reason = why;
    goto done;
  }
  if (fgetxattr(fd, "security.capability", NULL, 0) > 0) {
    snprintf(why, size, "it has file capabilities: the dynamic linker "
                        "starts it in secure mode, where it ignores "
                        "LD_PRELOAD");
    reason = why;
    goto done;
  }
  if (pread(fd, &eh, sizeof(eh), 0) != (ssize_t)sizeof(eh) ||
      memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0)
    goto done; /* a script: its interpreter gets the runtime */
  if (eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_machine != EM_X86_64) {
    snprintf(why, size, "it is not an x86-64 program, and mdebug's runtime "
                        "is");
    reason = why;
    goto done;
  }
  bool interp = false;
  for (unsigned i = 0; i < eh.e_phnum; i++) {
    Elf64_Phdr ph;
    if (pread(fd, &ph, sizeof(ph), (off_t)(eh.e_phoff + (uint64_t)i * eh.e_phentsize)) !=
        (ssize_t)sizeof(ph))
      break;
    interp |= ph.p_type == PT_INTERP;
  }
  if (!interp) {
    snprintf(why, size, "it is statically linked: there is no dynamic "
                        "linker to preload mdebug's runtime");
    reason = why;
  }
done:
  close(fd);
  return reason;
}

/* Sets variable to value, then what it held (if anything), ':' between. */
static bool prepend(const char *variable, const char *value) {
  const char *old = getenv(variable);
  size_t len = strlen(value) + (old ? strlen(old) + 1 : 0) + 1;
  char *both = malloc(len);
  if (!both) {
    fprintf(stderr, "%s: out of memory\n", me);
    return false;
  }
  snprintf(both, len, "%s%s%s", value, old && *old ? ":" : "", old ? old : "");
  setenv(variable, both, 1);
  free(both);
  return true;
}

int main(int argc, char **argv) {
  char runtime[PATH_MAX];
  bool have_runtime = runtime_path(runtime, sizeof(runtime));
  const char *options = NULL;
  int i = 1;
  for (; i < argc; i++) {
    if (strcmp(argv[i], "--") == 0) {
      i++;
      break;
    }
    if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
      printf(usage, have_runtime ? runtime : "<lib>/libmdebug-rt.so");
      return 0;
    }
    if (strcmp(argv[i], "--options") == 0) {
      if (i + 1 == argc) {
        fprintf(stderr, "%s: --options needs a value (--options \"OPTIONS\")\n",
                me);
        return 2;
      }
      options = argv[++i];
      continue;
    }
    if (strncmp(argv[i], "--options=", 10) == 0) {
      options = argv[i] + 10;
      continue;
    }
    if (argv[i][0] == '-' && argv[i][1]) {
      fprintf(stderr, "%s: unknown option %s (try --help)\n", me, argv[i]);
      return 2;
    }
    break;
  }
  if (i == argc) {
    fprintf(stderr, "%s: no program to run (try --help)\n", me);
    return 2;
  }
  char program[PATH_MAX];
  if (!find_program(argv[i], program, sizeof(program))) {
    fprintf(stderr, "%s: %s: command not found\n", me, argv[i]);
    return 127;
  }
  char why[256];
  const char *reason = unreachable(program, why, sizeof(why));
  if (reason) {
    fprintf(stderr, "%s: %s: %s; running it without mdebug\n", me, program,
            reason);
  } else {
    if (!have_runtime) {
      fprintf(stderr, "%s: cannot find mdebug's runtime (libmdebug-rt.so) in "
                      "../lib beside this program\n", me);
      return 127;
    }
    const char *name = runtime;
    if (strpbrk(runtime, " \t:")) {
      char *slash = strrchr(runtime, '/');
      *slash = '\0';
      if (strchr(runtime, ':')) {
        fprintf(stderr, "%s: cannot preload mdebug's runtime from %s: the "
                        "dynamic linker splits paths at ':'\n", me, runtime);
        return 127;
      }
      if (!prepend("LD_LIBRARY_PATH", runtime))
        return 127;
      name = slash + 1;
    }
    if (!prepend("LD_PRELOAD", name))
      return 127;
    if (options)
      setenv("MDEBUG_OPTIONS", options, 1);
  }
  execv(program, argv + i);
  int err = errno;
  fprintf(stderr, "%s: cannot run %s: %s\n", me, program, strerror(err));
  return err == ENOENT ? 127 : 126;
}
