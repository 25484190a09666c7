/* old-project: one leak, so that the run shows mdebug was linked in. */
#include <stdlib.h>

int main(void) {
  char *kept = malloc(24);
  kept[0] = 'x';
  kept = NULL;
  return 0;
}
