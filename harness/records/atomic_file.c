/* SPDX-License-Identifier: MIT */
/* Whole-file output through a temporary and a rename.  write(2) is used on
 * the descriptor rather than a stream, so that the first failing call's
 * errno is the reason reported; with SIGXFSZ ignored (main) a file-size
 * limit is one such failure (EFBIG), not the end of the program. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include "harness/records/atomic_file.h"
#include "harness/error.h"
#include "harness/run/timer.h"

#ifndef PATH_MAX
#define PATH_MAX 4096
#endif

/* "dir/" of path (with its slash), or "" for a bare name. */
static size_t dir_len(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? (size_t)(slash - path) + 1 : 0;
}

/* Sync the directory holding path, so that a rename survives a crash; a
 * file system that cannot sync a directory loses nothing else by it. */
static void sync_dir(const char *path)
{
    char dir[PATH_MAX];
    size_t n = dir_len(path);
    int fd;

    if (n >= sizeof dir)
        return;
    if (n == 0)
        snprintf(dir, sizeof dir, ".");
    else
        snprintf(dir, sizeof dir, "%.*s", (int)(n > 1 ? n - 1 : n), path);
    if ((fd = open(dir, O_RDONLY | O_DIRECTORY)) >= 0) {
        fsync(fd);
        close(fd);
    }
}

/* What makes a temporary's name unique beside the pid. */
static unsigned long long unique_tag(unsigned attempt)
{
    return (unsigned long long)rb_now_ns() ^ ((unsigned long long)attempt << 48);
}

/* A name no other writer uses: the pid, the clock and a try count, created
 * with O_EXCL.  The descriptor, or -1 with errno. */
static int open_unique(const char *path, char *tmp, size_t len)
{
    size_t n = dir_len(path);

    for (unsigned attempt = 0; attempt < 100; attempt++) {
        unsigned long long tag = unique_tag(attempt);
        int fd;

        if ((size_t)snprintf(tmp, len, "%.*s.%s.%ld-%llx.tmp", (int)n, path, path + n,
                             (long)getpid(), tag) >= len) {
            errno = ENAMETOOLONG;
            return -1;
        }
        fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd >= 0 || errno != EEXIST)
            return fd;
    }
    errno = EEXIST;
    return -1;
}

static int write_all(int fd, const char *data, size_t len)
{
    size_t done = 0;

    while (done < len) {
        ssize_t w = write(fd, data + done, len - done);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            if (w == 0)
                errno = EIO;
            return -1;
        }
        done += (size_t)w;
    }
    return 0;
}

/* The end of every writer: sync, close and rename, or remove the temporary.
 * why is the errno of a failure already seen (0: none yet). */
static int finish(int fd, const char *tmp, const char *path, int why, char *err, size_t errlen)
{
    if (!why && fsync(fd) != 0 && errno != EINVAL)
        why = errno;
    if (close(fd) != 0 && !why)
        why = errno;
    if (!why && rename(tmp, path) != 0)
        why = errno;
    if (why) {
        unlink(tmp);
        snprintf(err, errlen, "%s: %s", path, strerror(why));
        return RB_EIO;
    }
    sync_dir(path);
    return 0;
}

int rb_atomic_write(const char *path, const void *data, size_t len, char *err, size_t errlen)
{
    char tmp[PATH_MAX + 64];
    int fd = open_unique(path, tmp, sizeof tmp);

    if (fd < 0) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        return RB_EIO;
    }
    return finish(fd, tmp, path, write_all(fd, data, len) ? errno : 0, err, errlen);
}

int rb_atomic_print(const char *path, int (*render)(void *arg, FILE *f), void *arg,
                    char *err, size_t errlen)
{
    char *text = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&text, &len);
    int status;

    if (!mem) {
        snprintf(err, errlen, "%s: out of memory", path);
        return RB_ENOMEM;
    }
    status = render(arg, mem);
    if (fclose(mem) != 0 && status == 0)
        status = RB_ENOMEM;
    if (status < 0)
        snprintf(err, errlen, "%s: %s", path, rb_strerror(status));
    else
        status = rb_atomic_write(path, text, len, err, errlen);
    free(text);
    return status;
}

int rb_atomic_copy(const char *from, const char *to, char *err, size_t errlen)
{
    char tmp[PATH_MAX + 64], buf[65536];
    int in = open(from, O_RDONLY | O_CLOEXEC), fd, why = 0;
    ssize_t n;

    if (in < 0) {
        snprintf(err, errlen, "%s: %s", from, strerror(errno));
        return RB_EIO;
    }
    if ((fd = open_unique(to, tmp, sizeof tmp)) < 0) {
        snprintf(err, errlen, "%s: %s", to, strerror(errno));
        close(in);
        return RB_EIO;
    }
    while ((n = read(in, buf, sizeof buf)) != 0) {
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            /* The source's fault: name it, not the target. */
            int saved = errno;
            close(in);
            close(fd);
            unlink(tmp);
            snprintf(err, errlen, "%s: %s", from, strerror(saved));
            return RB_EIO;
        }
        if (write_all(fd, buf, (size_t)n) != 0) {
            why = errno;
            break;
        }
    }
    close(in);
    return finish(fd, tmp, to, why, err, errlen);
}

int rb_atomic_move(const char *from, const char *path, char *err, size_t errlen)
{
    int fd = open(from, O_RDONLY | O_CLOEXEC), why = 0;

    if (fd < 0 || fsync(fd) != 0)
        why = errno;
    if (fd >= 0)
        close(fd);
    if (!why && rename(from, path) != 0)
        why = errno;
    if (why) {
        snprintf(err, errlen, "%s: %s", path, strerror(why));
        return RB_EIO;
    }
    sync_dir(path);
    return 0;
}

int rb_atomic_tmpdir(const char *parent, const char *stem, char *buf, size_t len,
                     char *err, size_t errlen)
{
    for (unsigned attempt = 0; attempt < 100; attempt++) {
        unsigned long long tag = unique_tag(attempt);

        if ((size_t)snprintf(buf, len, "%s/.%s-%ld-%llx", parent, stem, (long)getpid(), tag)
            >= len) {
            snprintf(err, errlen, "%s: path too long", parent);
            return RB_EINVAL;
        }
        if (mkdir(buf, 0777) == 0)
            return 0;
        if (errno != EEXIST)
            break;
    }
    snprintf(err, errlen, "%s: %s", buf, strerror(errno));
    return RB_EIO;
}
