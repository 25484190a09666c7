/* symbolize.c - names a code address: its module (dladdr) and the function
 * holding it, from the module's full symbol table (.symtab, so static
 * functions and executables without exported symbols are named too), else
 * from the dynamic symbols dladdr sees.
 *
 * Used only when printing (reports, heap dumps with backtrace_full, records):
 * never on the allocation path. Module files are mapped read-only once and
 * kept; names returned point into those mappings and stay valid. Never
 * allocates through malloc; names are not demangled (that would).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <elf.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lock.h"
#include "internal.h"

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

bool md_symbolize(uintptr_t pc, struct md_symbol *out) {
  Dl_info info;
  memset(out, 0, sizeof(*out));
  out->pc = pc;
  if (!dladdr((void *)pc, &info) || !info.dli_fname)
    return false;
  out->module = info.dli_fname[0] ? info.dli_fname : md_progname();
  out->rel_pc = pc - (uintptr_t)info.dli_fbase;
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
