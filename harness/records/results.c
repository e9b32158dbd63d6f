/* SPDX-License-Identifier: MIT */
/* The run directory: created fresh or resumed, records appended as cases end,
 * records.tsv regenerated from records.jsonl, files replaced atomically. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

#include "harness/records/atomic_file.h"
#include "harness/error.h"
#include "harness/records/record.h"
#include "harness/records/results.h"

/* Create dir and its missing parents, like mkdir -p. */
static int make_dirs(const char *dir, char *err, size_t errlen)
{
    char path[PATH_MAX];
    size_t len = strlen(dir);

    if (len == 0 || len >= sizeof path) {
        snprintf(err, errlen, "bad directory name \"%s\"", dir);
        return RB_EINVAL;
    }
    memcpy(path, dir, len + 1);
    for (char *p = path + 1; ; p++) {
        if (*p != '/' && *p != '\0')
            continue;
        char was = *p;
        *p = '\0';
        if (mkdir(path, 0777) != 0 && errno != EEXIST) {
            snprintf(err, errlen, "%s: %s", path, strerror(errno));
            return RB_EIO;
        }
        if (was == '\0')
            break;
        *p = was;
    }
    return 0;
}

/* The host part of a run's name: short host name, safe in a path. */
static void host_name(char *buf, size_t len)
{
    if (gethostname(buf, len) != 0 || !buf[0])
        snprintf(buf, len, "host");
    buf[len - 1] = '\0';
    for (char *p = buf; *p; p++) {
        if (*p == '.') {
            *p = '\0';
            break;
        }
        if (!(*p >= 'a' && *p <= 'z') && !(*p >= 'A' && *p <= 'Z')
            && !(*p >= '0' && *p <= '9') && *p != '-' && *p != '_')
            *p = '-';
    }
}

static int open_records(struct rb_run *r, char *err, size_t errlen)
{
    char path[PATH_MAX + 16];

    snprintf(path, sizeof path, "%s/records.jsonl", r->dir);
    if (!(r->records = fopen(path, "a"))) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        return RB_EIO;
    }
    return 0;
}

/* UTC keeps names sortable across time-zone and daylight-saving changes. */
int rb_run_create(struct rb_run *r, const char *parent, char *err, size_t errlen)
{
    char stamp[32], host[64];
    time_t now = time(NULL);
    struct tm tm;
    int status;

    memset(r, 0, sizeof *r);
    if ((status = make_dirs(parent, err, errlen)) < 0)
        return status;
    gmtime_r(&now, &tm);
    strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &tm);
    host_name(host, sizeof host);
    for (int i = 1; i < 1000; i++) {
        int n = i == 1 ? snprintf(r->dir, sizeof r->dir, "%s/%s-%s", parent, stamp, host)
                       : snprintf(r->dir, sizeof r->dir, "%s/%s-%s-%d", parent, stamp, host, i);
        if (n < 0 || (size_t)n >= sizeof r->dir) {
            snprintf(err, errlen, "%s: path too long", parent);
            return RB_EINVAL;
        }
        if (mkdir(r->dir, 0777) == 0)
            break;
        if (errno != EEXIST || i == 999) {
            snprintf(err, errlen, "%s: %s", r->dir, strerror(errno));
            return RB_EIO;
        }
    }
    if (!(r->done = json_object())) {
        snprintf(err, errlen, "out of memory");
        return RB_ENOMEM;
    }
    if ((status = open_records(r, err, errlen)) < 0)
        rb_run_close(r);
    return status;
}

/* An interrupted write leaves a last line without a newline; appending after
 * it would glue the next record onto it, so cut it off. */
static int drop_partial_line(const char *path, char *err, size_t errlen)
{
    int fd = open(path, O_RDWR);
    char buf[4096];
    off_t end, pos;
    int status = 0;

    if (fd < 0 || (end = lseek(fd, 0, SEEK_END)) < 0)
        goto out_io;
    for (pos = end; pos > 0; ) {
        size_t chunk = pos < (off_t)sizeof buf ? (size_t)pos : sizeof buf;
        pos -= (off_t)chunk;
        if (pread(fd, buf, chunk, pos) != (ssize_t)chunk)
            goto out_io;
        for (size_t i = chunk; i > 0; i--) {
            if (buf[i - 1] == '\n') {
                pos += (off_t)i;
                goto found;
            }
        }
    }
found:
    if (pos != end && ftruncate(fd, pos) != 0)
        goto out_io;
    close(fd);
    return status;
out_io:
    snprintf(err, errlen, "%s: %s", path, strerror(errno));
    if (fd >= 0)
        close(fd);
    return RB_EIO;
}

int rb_run_resume(struct rb_run *r, const char *dir, char *err, size_t errlen)
{
    char path[PATH_MAX + 16];
    json_t *records, *rec;
    struct stat st;
    size_t i;
    int status;

    memset(r, 0, sizeof *r);
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
        snprintf(err, errlen, "%s: not a directory", dir);
        return RB_EIO;
    }
    if ((size_t)snprintf(r->dir, sizeof r->dir, "%s", dir) >= sizeof r->dir) {
        snprintf(err, errlen, "%s: path too long", dir);
        return RB_EINVAL;
    }
    for (size_t len = strlen(r->dir); len > 1 && r->dir[len - 1] == '/'; len--)
        r->dir[len - 1] = '\0';
    snprintf(path, sizeof path, "%s/records.jsonl", dir);
    if (stat(path, &st) != 0) {
        snprintf(err, errlen, "%s: no records.jsonl here, not a run directory", dir);
        return RB_EIO;
    }
    if ((status = rb_records_load(path, &records, err, errlen)) < 0)
        return status;
    if (!(r->done = json_object())) {
        status = RB_ENOMEM;
        goto out_free_records;
    }
    json_array_foreach(records, i, rec) {
        if (json_object_set(r->done, json_string_value(json_object_get(rec, "key")),
                            json_true()) < 0) {
            snprintf(err, errlen, "out of memory");
            status = RB_ENOMEM;
            goto out_free_records;
        }
    }
    if ((status = drop_partial_line(path, err, errlen)) < 0)
        goto out_free_records;
    status = open_records(r, err, errlen);
out_free_records:
    json_decref(records);
    if (status < 0)
        rb_run_close(r);
    return status;
}

int rb_run_has(const struct rb_run *r, const char *key)
{
    return r->done && json_object_get(r->done, key) != NULL;
}

int rb_run_append(struct rb_run *r, const json_t *rec)
{
    const char *key = json_string_value(json_object_get(rec, "key"));
    int status;

    if (!r->records)
        return RB_EIO;
    if (r->stamp) {
        json_t *copy = json_copy((json_t *)rec);

        if (!copy || json_object_update(copy, r->stamp) < 0) {
            json_decref(copy);
            return RB_ENOMEM;
        }
        status = rb_record_append(r->records, copy);
        json_decref(copy);
    } else {
        status = rb_record_append(r->records, rec);
    }
    if (status < 0)
        return status;
    if (key && r->done)
        json_object_set(r->done, key, json_true());
    return 0;
}

struct table {
    const json_t *records;
    int (*writer)(const json_t *, FILE *);
};

static int render_table(void *arg, FILE *f)
{
    const struct table *t = arg;
    return t->writer(t->records, f);
}

/* DIR/NAME from one of the TSV writers, replaced atomically. */
static int write_table(const char *dir, const char *name, const json_t *records,
                       int (*writer)(const json_t *, FILE *), char *err, size_t errlen)
{
    char path[PATH_MAX + 16];
    struct table t = { records, writer };

    snprintf(path, sizeof path, "%s/%s", dir, name);
    return rb_atomic_print(path, render_table, &t, err, errlen);
}

int rb_run_write_tsv(const char *dir, char *err, size_t errlen)
{
    char path[PATH_MAX + 16];
    json_t *records;
    int status;

    snprintf(path, sizeof path, "%s/records.jsonl", dir);
    if ((status = rb_records_load(path, &records, err, errlen)) < 0)
        return status;
    status = write_table(dir, "records.tsv", records, rb_records_write_tsv, err, errlen);
    if (status == 0)
        status = write_table(dir, "best.tsv", records, rb_records_write_best_tsv, err, errlen);
    json_decref(records);
    return status;
}

void rb_run_close(struct rb_run *r)
{
    if (r->records) {
        fflush(r->records);
        fsync(fileno(r->records));
        fclose(r->records);
        r->records = NULL;
    }
    json_decref(r->done);
    r->done = NULL;
    json_decref(r->stamp);
    r->stamp = NULL;
}

int rb_write_file_atomic(const char *path, const char *text, char *err, size_t errlen)
{
    return rb_atomic_write(path, text, strlen(text), err, errlen);
}
