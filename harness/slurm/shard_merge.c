/* SPDX-License-Identifier: MIT */
/* The shards of a sweep merged into its run directory: one records.jsonl
 * written whole, the hardware description of the first shard beside it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "harness/error.h"
#include "harness/run/lock.h"
#include "harness/records/record.h"
#include "harness/records/results.h"
#include "harness/slurm/shard.h"

/* Append shard i's records to out, skipping keys already in seen. */
static int merge_one(const char *run_dir, int i, FILE *out, json_t *seen, size_t *nrec,
                     char *err, size_t errlen)
{
    char dir[PATH_MAX], path[PATH_MAX + 32];
    json_t *records, *rec;
    struct stat st;
    size_t j;
    int rc = 0, lock;

    rb_shard_path(run_dir, i, dir, sizeof dir);
    snprintf(path, sizeof path, "%s/records.jsonl", dir);
    if (stat(path, &st) != 0)
        return 0;               /* a shard that never started */
    /* A shard still writing would be merged half: refuse until it ends. */
    if ((rc = rb_lock_share(dir, &lock, err, errlen)) < 0)
        return rc;
    rc = rb_records_load(path, &records, err, errlen);
    rb_lock_release(lock);
    if (rc < 0)
        return rc;
    json_array_foreach(records, j, rec) {
        const char *key = json_string_value(json_object_get(rec, "key"));
        char *line;

        if (!key || json_object_get(seen, key))
            continue;
        /* The same line as the shard wrote it (rb_record_append's form). */
        line = json_dumps(rec, JSON_COMPACT | JSON_PRESERVE_ORDER);
        if (!line || json_object_set(seen, key, json_true()) < 0) {
            free(line);
            snprintf(err, errlen, "%s: out of memory", path);
            rc = RB_ENOMEM;
            break;
        }
        fprintf(out, "%s\n", line);
        free(line);
        (*nrec)++;
    }
    json_decref(records);
    return rc;
}

/* Copy name from the first shard that has it into run_dir. */
static int copy_first(const char *run_dir, int k, const char *name, char *err, size_t errlen)
{
    char dir[PATH_MAX], path[PATH_MAX + 64], *text = NULL;
    size_t len = 0;

    for (int i = 1; i <= k; i++) {
        FILE *f, *mem;
        char buf[8192];
        size_t n;
        int rc;

        rb_shard_path(run_dir, i, dir, sizeof dir);
        snprintf(path, sizeof path, "%s/%s", dir, name);
        if (!(f = fopen(path, "r")))
            continue;
        if (!(mem = open_memstream(&text, &len))) {
            fclose(f);
            snprintf(err, errlen, "%s: out of memory", path);
            return RB_ENOMEM;
        }
        while ((n = fread(buf, 1, sizeof buf, f)) > 0)
            fwrite(buf, 1, n, mem);
        fclose(f);
        fclose(mem);
        snprintf(path, sizeof path, "%s/%s", run_dir, name);
        rc = rb_write_file_atomic(path, text, err, errlen);
        free(text);
        return rc;
    }
    return 0;
}

int rb_shard_merge(const char *run_dir, int k, size_t *nrec, char *err, size_t errlen)
{
    char path[PATH_MAX + 32], *text = NULL;
    size_t len = 0;
    json_t *seen = json_object();
    FILE *out = open_memstream(&text, &len);
    int rc = 0;

    *nrec = 0;
    if (!seen || !out) {
        snprintf(err, errlen, "out of memory");
        rc = RB_ENOMEM;
        goto out_free;
    }
    for (int i = 1; i <= k && rc == 0; i++)
        rc = merge_one(run_dir, i, out, seen, nrec, err, errlen);
    fclose(out);
    out = NULL;
    snprintf(path, sizeof path, "%s/records.jsonl", run_dir);
    if (rc == 0)
        rc = rb_write_file_atomic(path, text ? text : "", err, errlen);
    if (rc == 0)
        rc = copy_first(run_dir, k, "hardware.json", err, errlen);
    if (rc == 0)
        rc = copy_first(run_dir, k, "hw.xml", err, errlen);
out_free:
    if (out)
        fclose(out);
    free(text);
    json_decref(seen);
    return rc;
}
