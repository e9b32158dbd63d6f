/* SPDX-License-Identifier: MIT */
/* The run directory's lock: flock(2) on a file inside it, so that the lock
 * goes with the directory (whatever path names it) and ends with the
 * process that holds it, however that process ends. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include "harness/error.h"
#include "harness/lock.h"

#ifndef PATH_MAX
#define PATH_MAX 4096
#endif

/* The pid the holder wrote, or 0 when it has not written it yet. */
static long holder_pid(int fd)
{
    char buf[32];
    ssize_t n = pread(fd, buf, sizeof buf - 1, 0);

    if (n <= 0)
        return 0;
    buf[n] = '\0';
    return strtol(buf, NULL, 10);
}

int rb_lock_take(const char *run_dir, int *fd, char *err, size_t errlen)
{
    char path[PATH_MAX + 16], pid[32];
    int n;

    *fd = -1;
    snprintf(path, sizeof path, "%s/%s", run_dir, RB_LOCK_FILE);
    /* Close-on-exec: gnuplot and other children must not hold it. */
    int f = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0666);
    if (f < 0) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        return RB_EIO;
    }
    while (flock(f, LOCK_EX | LOCK_NB) != 0) {
        if (errno == EINTR)
            continue;
        int busy = errno == EWOULDBLOCK;
        if (busy) {
            long holder = holder_pid(f);
            if (holder > 0)
                snprintf(err, errlen, "%s is in use by pid %ld", run_dir, holder);
            else
                snprintf(err, errlen, "%s is in use by another process", run_dir);
        } else {
            snprintf(err, errlen, "%s: %s", path, strerror(errno));
        }
        close(f);
        return busy ? RB_EINVAL : RB_EIO;
    }
    /* The pid is a courtesy for the message; the lock is the flock. */
    n = snprintf(pid, sizeof pid, "%ld\n", (long)getpid());
    if (ftruncate(f, 0) != 0 || pwrite(f, pid, (size_t)n, 0) != n) {
        /* Then the message says "another process". */
    }
    *fd = f;
    return 0;
}

void rb_lock_release(int fd)
{
    if (fd < 0)
        return;
    if (ftruncate(fd, 0) != 0) {
        /* A stale pid is harmless: only the flock counts. */
    }
    close(fd);
}
