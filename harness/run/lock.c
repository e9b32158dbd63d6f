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
#include <time.h>
#include <unistd.h>

#include "harness/error.h"
#include "harness/run/lock.h"

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

static void busy_message(int f, const char *run_dir, char *err, size_t errlen)
{
    long holder = holder_pid(f);

    /* A holder that has just taken the lock writes its pid next: two runs
     * started together meet in that gap, so give it up to 50 ms. */
    for (int i = 0; holder <= 0 && i < 50; i++) {
        struct timespec ms = { 0, 1000000 };
        nanosleep(&ms, NULL);
        holder = holder_pid(f);
    }

    if (holder > 0)
        snprintf(err, errlen, "%s is in use by pid %ld", run_dir, holder);
    else
        snprintf(err, errlen, "%s is in use by another process", run_dir);
}

/* flock(f, how) without waiting; on failure f is closed.  0, RB_EINVAL
 * (held by another process) or RB_EIO. */
static int flock_nowait(int f, int how, const char *run_dir, const char *path, char *err,
                        size_t errlen)
{
    while (flock(f, how | LOCK_NB) != 0) {
        if (errno == EINTR)
            continue;
        int busy = errno == EWOULDBLOCK;
        if (busy)
            busy_message(f, run_dir, err, errlen);
        else
            snprintf(err, errlen, "%s: %s", path, strerror(errno));
        close(f);
        return busy ? RB_EINVAL : RB_EIO;
    }
    return 0;
}

int rb_lock_take(const char *run_dir, int *fd, char *err, size_t errlen)
{
    char path[PATH_MAX + 16], pid[32];
    int n, status;

    *fd = -1;
    snprintf(path, sizeof path, "%s/%s", run_dir, RB_LOCK_FILE);
    /* Close-on-exec: gnuplot and other children must not hold it. */
    int f = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0666);
    if (f < 0) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        return RB_EIO;
    }
    if ((status = flock_nowait(f, LOCK_EX, run_dir, path, err, errlen)))
        return status;
    /* The pid is a courtesy for the message; the lock is the flock. */
    n = snprintf(pid, sizeof pid, "%ld\n", (long)getpid());
    if (ftruncate(f, 0) != 0 || pwrite(f, pid, (size_t)n, 0) != n) {
        /* Then the message says "another process". */
    }
    *fd = f;
    return 0;
}

int rb_lock_share(const char *run_dir, int *fd, char *err, size_t errlen)
{
    char path[PATH_MAX + 16];
    int f, status;

    *fd = -1;
    snprintf(path, sizeof path, "%s/%s", run_dir, RB_LOCK_FILE);
    /* Read-only and never created: a reader leaves the run as it found it. */
    if ((f = open(path, O_RDONLY | O_CLOEXEC)) < 0) {
        if (errno == ENOENT)
            return 0;
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        return RB_EIO;
    }
    if ((status = flock_nowait(f, LOCK_SH, run_dir, path, err, errlen)))
        return status;
    *fd = f;
    return 0;
}

void rb_lock_release(int fd)
{
    if (fd < 0)
        return;
    /* A reader's descriptor is read-only: the holder's pid is not its own. */
    if ((fcntl(fd, F_GETFL) & O_ACCMODE) != O_RDONLY && ftruncate(fd, 0) != 0) {
        /* A stale pid is harmless: only the flock counts. */
    }
    close(fd);
}
