/* SPDX-License-Identifier: MIT */
/* compare --db: the two sides of a comparison selected from the store by
 * queries instead of read from run directories; matched and judged by the
 * same code and noise model. */
#include <stdio.h>
#include <string.h>

#include "harness/report/compare.h"
#include "harness/store/db.h"
#include "harness/store/db_compare.h"
#include "harness/error.h"

/* The newest record of each case, in the order of each case's first
 * record, as a new array; the count of runs they came from in *runs.  The
 * "store" object says where each came from. */
static json_t *newest_per_case(const json_t *records, size_t *runs)
{
    json_t *last = json_object(), *seen_runs = json_object(), *out = json_array(), *rec;
    size_t i;

    *runs = 0;
    if (!last || !seen_runs || !out)
        goto out_free;
    json_array_foreach(records, i, rec) {
        const char *key = json_string_value(json_object_get(rec, "key"));
        const char *run = json_string_value(json_object_get(json_object_get(rec, "store"),
                                                            "run_id"));
        if (json_object_set_new(last, key, json_integer((json_int_t)i)) < 0)
            goto out_free;
        if (run && json_object_set_new(seen_runs, run, json_true()) < 0)
            goto out_free;
    }
    json_array_foreach(records, i, rec) {
        const char *key = json_string_value(json_object_get(rec, "key"));
        json_t *at = json_object_get(last, key);

        if (!at)
            continue;
        if (json_array_append(out, json_array_get(records, (size_t)json_integer_value(at))) < 0)
            goto out_free;
        json_object_del(last, key);
    }
    *runs = json_object_size(seen_runs);
    json_decref(last);
    json_decref(seen_runs);
    return out;
out_free:
    json_decref(last);
    json_decref(seen_runs);
    json_decref(out);
    return NULL;
}

/* One side: its query's records, newest per case, with its name. */
static int side(struct rb_db *db, const char *store, const char *which, const char *text,
                json_t **records, char *name, size_t namelen, char *err, size_t errlen)
{
    struct rb_db_query q = { 0 };
    json_t *all;
    size_t runs;
    int status;

    if ((status = rb_db_query_parse(text, &q, err, errlen)))
        return status;
    if ((status = rb_db_select(db, &q, &all, err, errlen)))
        return status;
    *records = newest_per_case(all, &runs);
    json_decref(all);
    if (!*records) {
        snprintf(err, errlen, "out of memory");
        return RB_ENOMEM;
    }
    if (json_array_size(*records) == 0) {
        snprintf(err, errlen, "--%s '%s' selects no record in %s", which, text, store);
        return RB_EINVAL;
    }
    snprintf(name, namelen, "%s [%s], the newest of each case in %zu run%s", store, text, runs,
             runs == 1 ? "" : "s");
    return 0;
}

int rb_compare_store(const char *store, const char *query_a, const char *query_b,
                     const struct rb_ratio_opts *o, struct rb_comparison *cmp,
                     char *err, size_t errlen)
{
    struct rb_db_query check = { 0 };
    struct rb_db *db;
    int status;

    memset(cmp, 0, sizeof *cmp);
    cmp->opts = *o;
    /* A query naming an unknown field is bad input before any store is opened. */
    if ((status = rb_db_query_parse(query_a, &check, err, errlen))
        || (status = rb_db_query_parse(query_b, &check, err, errlen)))
        return status;
    if ((status = rb_db_open(store, RB_DB_READ, &db, err, errlen)))
        return status;
    /* Both sides from the store at one moment. */
    status = rb_db_read_begin(db, err, errlen);
    if (!status)
        status = side(db, store, "a", query_a, &cmp->a_records, cmp->a_dir,
                      sizeof cmp->a_dir, err, errlen);
    if (!status)
        status = side(db, store, "b", query_b, &cmp->b_records, cmp->b_dir,
                      sizeof cmp->b_dir, err, errlen);
    rb_db_read_end(db);
    rb_db_close(db);
    if (status) {
        rb_comparison_free(cmp);
        return status;
    }
    return rb_compare_records(cmp, err, errlen);
}
