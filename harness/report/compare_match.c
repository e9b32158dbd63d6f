/* SPDX-License-Identifier: MIT */
/* Two runs' records matched by case key into the rows of a comparison:
 * cases of both runs, then those of one run only, none dropped. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "harness/report/compare.h"
#include "harness/error.h"
#include "harness/records/record.h"

/* The run as given, without trailing slashes, and its records.jsonl path. */
static int run_paths(const char *run, char *dir, size_t dirlen, char *path, size_t pathlen,
                     char *err, size_t errlen)
{
    size_t len = strlen(run);
    struct stat st;

    while (len > 1 && run[len - 1] == '/')
        len--;
    if (len == 0 || len >= dirlen) {
        snprintf(err, errlen, "'%s': not a run directory name", run);
        return RB_EINVAL;
    }
    memcpy(dir, run, len);
    dir[len] = '\0';
    if (stat(dir, &st) != 0) {
        snprintf(err, errlen, "%s: %s", dir, strerror(errno));
        return RB_EINVAL;
    }
    if (S_ISREG(st.st_mode)) {
        snprintf(path, pathlen, "%s", dir);
        return 0;
    }
    if (!S_ISDIR(st.st_mode)) {
        snprintf(err, errlen, "%s: not a run directory", dir);
        return RB_EINVAL;
    }
    if ((size_t)snprintf(path, pathlen, "%s/records.jsonl", dir) >= pathlen) {
        snprintf(err, errlen, "%s: path too long", dir);
        return RB_EINVAL;
    }
    if (stat(path, &st) != 0) {
        snprintf(err, errlen, "%s: no records.jsonl (%s): not a run directory", dir,
                 strerror(errno));
        return RB_EINVAL;
    }
    return 0;
}

/* key -> index of its last record, in a run's records. */
static json_t *index_by_key(const json_t *records)
{
    json_t *idx = json_object(), *rec;
    size_t i;

    json_array_foreach(records, i, rec) {
        if (idx && json_object_set_new(idx, json_string_value(json_object_get(rec, "key")),
                                       json_integer((json_int_t)i)) < 0) {
            json_decref(idx);
            return NULL;
        }
    }
    return idx;
}

static const json_t *last_of(const json_t *records, const json_t *idx, const char *key)
{
    json_t *i = json_object_get(idx, key);
    return i ? json_array_get(records, (size_t)json_integer_value(i)) : NULL;
}

/* "paper/algo/variant/backend/prec/n=16" -> "paper/algo/variant backend prec
 * n=16", as rb_case_label names cases. */
static void label_of(const char *key, char *buf, size_t len)
{
    int slashes = 0;

    snprintf(buf, len, "%s", key);
    for (char *p = buf; *p; p++)
        if (*p == '/' && ++slashes > 2)
            *p = ' ';
}

static const char *status_of(const json_t *rec)
{
    const char *s = json_string_value(json_object_get(rec, "status"));
    return s ? s : "no status";
}

/* The samples of an ok record as a new array of doubles, NULL when there are
 * none or one is not a number (a non-finite time is written as null). */
static double *samples_of(const json_t *rec, size_t *n)
{
    const json_t *arr = json_object_get(rec, "samples_ms"), *v;
    double *x;
    size_t i;

    *n = json_array_size(arr);
    if (*n == 0 || !(x = malloc(*n * sizeof *x)))
        return NULL;
    json_array_foreach(arr, i, v) {
        if (!json_is_number(v)) {
            free(x);
            return NULL;
        }
        x[i] = json_number_value(v);
    }
    return x;
}

/* Fill a row of both runs: compared when both are ok and have samples. */
static int compare_row(struct rb_compare_row *row, const struct rb_ratio_opts *o)
{
    const char *sa = status_of(row->a), *sb = status_of(row->b);
    double *xa, *xb;
    size_t na, nb;
    int status;

    if (strcmp(sa, "ok") != 0 || strcmp(sb, "ok") != 0) {
        if (strcmp(sa, "ok") != 0 && strcmp(sb, "ok") != 0)
            snprintf(row->why, sizeof row->why, "A %.20s, B %.20s", sa, sb);
        else
            snprintf(row->why, sizeof row->why, "%s %.40s", strcmp(sa, "ok") ? "A" : "B",
                     strcmp(sa, "ok") ? sa : sb);
        return 0;
    }
    xa = samples_of(row->a, &na);
    xb = samples_of(row->b, &nb);
    if (!xa || !xb) {
        snprintf(row->why, sizeof row->why, "%s: no usable samples", xa ? "B" : "A");
        status = 0;
        goto out_free;
    }
    status = rb_ratio_bootstrap(xa, na, xb, nb, o, &row->r);
    if (status == RB_EINVAL) {
        snprintf(row->why, sizeof row->why, "a statistic is not a positive time");
        status = 0;
    } else if (status == 0) {
        row->compared = 1;
    }
out_free:
    free(xa);
    free(xb);
    return status;
}

static int add_row(struct rb_comparison *cmp, const char *key, const json_t *a, const json_t *b)
{
    struct rb_compare_row *row = &cmp->rows[cmp->n++];

    memset(row, 0, sizeof *row);
    row->key = key;
    row->a = a;
    row->b = b;
    label_of(key, row->label, sizeof row->label);
    return a && b ? compare_row(row, &cmp->opts) : 0;
}

/* Each case not yet in a row, in the order of its first record in A (or in B
 * with from_b), and only cases of both runs with both. */
static int add_rows(struct rb_comparison *cmp, json_t *seen, const json_t *ia, const json_t *ib,
                    int from_b, int both)
{
    const json_t *records = from_b ? cmp->b_records : cmp->a_records, *rec;
    size_t i;
    int status;

    json_array_foreach(records, i, rec) {
        const char *key = json_string_value(json_object_get(rec, "key"));
        const json_t *a = last_of(cmp->a_records, ia, key), *b = last_of(cmp->b_records, ib, key);

        if (json_object_get(seen, key) || (both && !(a && b)))
            continue;
        if (json_object_set_new(seen, key, json_true()) < 0)
            return RB_ENOMEM;
        if ((status = add_row(cmp, key, a, b)) < 0)
            return status;
    }
    return 0;
}

int rb_compare_runs(const char *run_a, const char *run_b, const struct rb_ratio_opts *o,
                    struct rb_comparison *cmp, char *err, size_t errlen)
{
    char path_a[sizeof cmp->a_dir + 16], path_b[sizeof cmp->b_dir + 16];
    int status;

    memset(cmp, 0, sizeof *cmp);
    cmp->opts = *o;
    if ((status = run_paths(run_a, cmp->a_dir, sizeof cmp->a_dir, path_a, sizeof path_a,
                            err, errlen))
        || (status = run_paths(run_b, cmp->b_dir, sizeof cmp->b_dir, path_b, sizeof path_b,
                               err, errlen))
        || (status = rb_records_load(path_a, &cmp->a_records, err, errlen))
        || (status = rb_records_load(path_b, &cmp->b_records, err, errlen))) {
        rb_comparison_free(cmp);
        return status;
    }
    return rb_compare_records(cmp, err, errlen);
}

int rb_compare_records(struct rb_comparison *cmp, char *err, size_t errlen)
{
    json_t *ia = NULL, *ib = NULL, *seen = NULL;
    int status;

    ia = index_by_key(cmp->a_records);
    ib = index_by_key(cmp->b_records);
    seen = json_object();
    cmp->rows = calloc(json_array_size(cmp->a_records) + json_array_size(cmp->b_records) + 1,
                       sizeof *cmp->rows);
    if (!ia || !ib || !seen || !cmp->rows) {
        status = RB_ENOMEM;
        goto out_free_all;
    }
    /* Cases of both runs, then of A only, then of B only. */
    if ((status = add_rows(cmp, seen, ia, ib, 0, 1)) < 0
        || (status = add_rows(cmp, seen, ia, ib, 0, 0)) < 0
        || (status = add_rows(cmp, seen, ia, ib, 1, 0)) < 0
        || (status = rb_comparison_noise(cmp)) < 0)
        goto out_free_all;
    goto out_free_index;
out_free_all:
    if (status == RB_ENOMEM)
        snprintf(err, errlen, "out of memory");
    rb_comparison_free(cmp);
out_free_index:
    json_decref(seen);
    json_decref(ia);
    json_decref(ib);
    return status;
}

void rb_comparison_free(struct rb_comparison *cmp)
{
    json_decref(cmp->a_records);
    json_decref(cmp->b_records);
    free(cmp->rows);
    cmp->a_records = cmp->b_records = NULL;
    cmp->rows = NULL;
    cmp->n = 0;
}
