// Second source file of multiple-sources.c: an allocation site in another
// translation unit, compiled in the same command.
#include <stdlib.h>

char *helper_make(void) { return calloc(3, 8); }
