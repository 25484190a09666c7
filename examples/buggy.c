/* buggy.c - the example `./build.sh example` runs: five classic heap bugs,
 * each of which mdebug reports with the allocation site and the site that
 * found it. The program itself runs to completion; mdebug then exits 23. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct user {
  char name[8];
  int id;
};

static char *copy_name(const char *name) {
  char *s = malloc(strlen(name)); /* bug 1: no room for the '\0' */
  strcpy(s, name);
  return s;
}

static struct user *new_user(int id) {
  struct user *u = malloc(sizeof *u);
  u->id = id;
  return u;
}

int main(void) {
  char *name = copy_name("alice");
  printf("hello, %s\n", name);
  free(name); /* reports the rear guard written by strcpy */

  struct user *u = new_user(1);
  free(u);
  u->id = 2; /* bug 2: write after free, seen when the block leaves quarantine */

  int *counts = calloc(4, sizeof *counts);
  counts[-1] = 7; /* bug 3: write before the block */
  free(counts);

  char *line = malloc(64);
  free(line);
  free(line); /* bug 4: double free */

  for (int i = 0; i < 3; i++)
    new_user(10 + i); /* bug 5: leaked, reported at exit */
  return 0;
}
