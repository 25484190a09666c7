/* wait_profile.h - for tests of snapshots the runtime takes on its own
 * time (a signal's, snapshot_interval's): wait until this process's heap
 * profile holds `count` snapshots labelled `label`. Sleeps in slices (a
 * signal cuts a sleep short); never allocates. */
#ifndef WAIT_PROFILE_H
#define WAIT_PROFILE_H

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* Snapshot records ("A N TIME BLOCKS LABEL CRC") with that label in path. */
static int count_snapshots(const char *path, const char *label) {
  static char buf[1 << 20];
  int fd = open(path, O_RDONLY);
  if (fd < 0)
    return 0;
  ssize_t n = read(fd, buf, sizeof(buf) - 1);
  close(fd);
  if (n <= 0)
    return 0;
  buf[n] = '\0';
  int found = 0;
  for (char *line = buf; line && *line;) {
    char *next = strchr(line, '\n');
    if (!next)
      break; /* a line still being written */
    *next = '\0';
    char tag[4], text[64];
    unsigned long number, time, blocks;
    if (sscanf(line, "%3s %lu %lu %lu %63s", tag, &number, &time, &blocks,
               text) == 5 &&
        strcmp(tag, "A") == 0 && strcmp(text, label) == 0)
      found++;
    line = next + 1;
  }
  return found;
}

/* Waits up to 30 s; 1 when prefix.PID.mdprof holds `count` of them. */
static int wait_for_snapshots(const char *prefix, const char *label,
                              int count) {
  char path[512];
  snprintf(path, sizeof(path), "%s.%d.mdprof", prefix, (int)getpid());
  for (int i = 0; i < 3000; i++) {
    if (count_snapshots(path, label) >= count)
      return 1;
    usleep(10000);
  }
  return 0;
}

#endif
