/* SPDX-License-Identifier: MIT */
/* harness/records/atomic_file.c: a file replaced whole or not at all; under a
 * file-size limit (SIGXFSZ ignored, as reprobench runs) the write fails
 * with the file's name and EFBIG's text, the old content stays and no
 * temporary is left beside it. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <ftw.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>

#include "harness/records/atomic_file.h"
#include "harness/error.h"
#include "t/tap.h"

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    static char buf[1 << 16];
    size_t n;

    if (!f)
        return NULL;
    n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    return buf;
}

/* Entries of dir other than "." and ".." and the names in keep. */
static int others_in(const char *dir, const char *keep)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    int n = 0;

    while (d && (e = readdir(d)))
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..") && !strstr(keep, e->d_name))
            n++;
    if (d)
        closedir(d);
    return n;
}

static int failing(void *arg, FILE *f)
{
    (void)arg;
    fputs("half", f);
    return RB_EINVAL;
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st;
    (void)flag;
    (void)ftw;
    return remove(path);
}

int main(void)
{
    char dir[] = "/tmp/rb-atomic-XXXXXX", path[256], other[256], err[512];
    static char big[200000];
    struct rlimit old, lim;
    const char *text;

    tap_plan(13);
    if (!mkdtemp(dir))
        tap_skip_all("mkdtemp: %s", strerror(errno));
    snprintf(path, sizeof path, "%s/out.txt", dir);
    tap_is(rb_atomic_write(path, "first\n", 6, err, sizeof err), 0, "a new file written");
    text = slurp(path);
    tap_ok(text && strcmp(text, "first\n") == 0, "with its content");
    tap_is(rb_atomic_write(path, "second\n", 7, err, sizeof err), 0, "and replaced");
    text = slurp(path);
    tap_ok(text && strcmp(text, "second\n") == 0, "by the new content");

    /* A limit below the new content: the write fails, the file is as it was. */
    signal(SIGXFSZ, SIG_IGN);
    memset(big, 'x', sizeof big);
    getrlimit(RLIMIT_FSIZE, &old);
    lim = old;
    lim.rlim_cur = 4096;
    if (setrlimit(RLIMIT_FSIZE, &lim) != 0) {
        tap_skip("setrlimit: %s", strerror(errno));
        tap_skip("no file-size limit here");
        tap_skip("no file-size limit here");
    } else {
        int rc = rb_atomic_write(path, big, sizeof big, err, sizeof err);
        setrlimit(RLIMIT_FSIZE, &old);
        tap_is(rc, RB_EIO, "past the file-size limit: RB_EIO, not a kill");
        tap_ok(strstr(err, path) && strstr(err, strerror(EFBIG)), "naming the file and EFBIG: %s",
               err);
        text = slurp(path);
        tap_ok(text && strcmp(text, "second\n") == 0, "the old content stays");
    }
    tap_is(others_in(dir, "out.txt"), 0, "no temporary left beside it");

    tap_is(rb_atomic_print(path, failing, NULL, err, sizeof err), RB_EINVAL,
           "a renderer's failure is returned");
    text = slurp(path);
    tap_ok(text && strcmp(text, "second\n") == 0 && others_in(dir, "out.txt") == 0,
           "and writes nothing");

    snprintf(other, sizeof other, "%s/none/out.txt", dir);
    tap_ok(rb_atomic_write(other, "x", 1, err, sizeof err) == RB_EIO && strstr(err, other),
           "into a missing directory: RB_EIO naming the file (%s)", err);
    snprintf(other, sizeof other, "%s/copy.txt", dir);
    tap_ok(rb_atomic_copy(path, other, err, sizeof err) == 0
           && (text = slurp(other)) && strcmp(text, "second\n") == 0, "a copy");
    snprintf(other, sizeof other, "%s/missing", dir);
    tap_ok(rb_atomic_copy(other, path, err, sizeof err) == RB_EIO && strstr(err, other)
           && others_in(dir, "out.txt copy.txt") == 0,
           "a copy of a missing file names it and leaves nothing (%s)", err);
    nftw(dir, remove_entry, 8, FTW_DEPTH | FTW_PHYS);
    return tap_done();
}
