/* SPDX-License-Identifier: MIT */
/* The mapping between a record's JSON fields and the store's columns,
 * written once as a table: checking, binding and rebuilding a record all
 * walk it. */
#include <string.h>

#include "harness/store/db_record.h"
#include "harness/error.h"

enum kind {
    K_TEXT,                     /* a string */
    K_INT,                      /* an integer */
    K_BOOL,                     /* true or false, stored 1 or 0 */
    K_REAL,                     /* a number */
    K_JSON,                     /* any value, stored as its JSON text */
    K_STATS,                    /* the stats object: the columns below it */
};

/* field        kind     (json null is SQL NULL for every kind) */
static const struct column {
    const char *name;
    enum kind kind;
} columns[] = {
    { "key",         K_TEXT },
    { "schema",      K_INT },
    { "paper",       K_TEXT },
    { "algo",        K_TEXT },
    { "variant",     K_TEXT },
    { "backend",     K_TEXT },
    { "prec",        K_TEXT },
    { "device",      K_TEXT },
    { "baseline",    K_BOOL },
    { "sizes",       K_JSON },
    { "tunables",    K_JSON },
    { "seed",        K_JSON },
    { "status",      K_TEXT },
    { "stage",       K_TEXT },
    { "message",     K_TEXT },
    { "timer",       K_TEXT },
    { "samples_ms",  K_JSON },
    { "stats",       K_STATS },
    { "truncated",   K_BOOL },
    { "transfer_ms", K_REAL },
    { "build_ms",    K_REAL },
    { "occupancy",   K_JSON },
    { "verify",      K_JSON },
    { "metrics",     K_JSON },
    { "work",        K_JSON },
    { "time",        K_TEXT },
};
#define NCOLUMNS (sizeof columns / sizeof *columns)

/* The stats object's fields, each a column: n is an integer, the rest ms. */
static const char *const stats_fields[] = { "n", "min", "median", "mean", "stddev", "p10",
                                            "p90" };
#define NSTATS (sizeof stats_fields / sizeof *stats_fields)

/* In table order, with the statistics where "stats" stands and "extra"
 * last: keep these three in step with the tables above. */
#define COLS "key, schema, paper, algo, variant, backend, prec, device, baseline, sizes," \
    " tunables, seed, status, stage, message, timer, samples_ms, n, min, median, mean," \
    " stddev, p10, p90, truncated, transfer_ms, build_ms, occupancy, verify, metrics," \
    " work, time, extra"
#define PARAMS "?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17," \
    " ?18, ?19, ?20, ?21, ?22, ?23, ?24, ?25, ?26, ?27, ?28, ?29, ?30, ?31, ?32, ?33, ?34"
#define SAME "key IS ?2 AND schema IS ?3 AND paper IS ?4 AND algo IS ?5 AND variant IS ?6" \
    " AND backend IS ?7 AND prec IS ?8 AND device IS ?9 AND baseline IS ?10" \
    " AND sizes IS ?11 AND tunables IS ?12 AND seed IS ?13 AND status IS ?14" \
    " AND stage IS ?15 AND message IS ?16 AND timer IS ?17 AND samples_ms IS ?18" \
    " AND n IS ?19 AND min IS ?20 AND median IS ?21 AND mean IS ?22 AND stddev IS ?23" \
    " AND p10 IS ?24 AND p90 IS ?25 AND truncated IS ?26 AND transfer_ms IS ?27" \
    " AND build_ms IS ?28 AND occupancy IS ?29 AND verify IS ?30 AND metrics IS ?31" \
    " AND work IS ?32 AND time IS ?33 AND extra IS ?34"

const char rb_db_record_insert_sql[] =
    "INSERT INTO records(run, " COLS ") VALUES(?1, " PARAMS ")"
    " ON CONFLICT(run, key) DO UPDATE SET schema = excluded.schema, paper = excluded.paper,"
    " algo = excluded.algo, variant = excluded.variant, backend = excluded.backend,"
    " prec = excluded.prec, device = excluded.device, baseline = excluded.baseline,"
    " sizes = excluded.sizes, tunables = excluded.tunables, seed = excluded.seed,"
    " status = excluded.status, stage = excluded.stage, message = excluded.message,"
    " timer = excluded.timer, samples_ms = excluded.samples_ms, n = excluded.n,"
    " min = excluded.min, median = excluded.median, mean = excluded.mean,"
    " stddev = excluded.stddev, p10 = excluded.p10, p90 = excluded.p90,"
    " truncated = excluded.truncated, transfer_ms = excluded.transfer_ms,"
    " build_ms = excluded.build_ms, occupancy = excluded.occupancy,"
    " verify = excluded.verify, metrics = excluded.metrics, work = excluded.work,"
    " time = excluded.time, extra = excluded.extra";
const char rb_db_record_compare_sql[] =
    "SELECT " SAME " FROM records WHERE run = ?1 AND key = ?2";
const char rb_db_record_select_cols[] =
    "r.key, r.schema, r.paper, r.algo, r.variant, r.backend, r.prec, r.device, r.baseline,"
    " r.sizes, r.tunables, r.seed, r.status, r.stage, r.message, r.timer, r.samples_ms,"
    " r.n, r.min, r.median, r.mean, r.stddev, r.p10, r.p90, r.truncated, r.transfer_ms,"
    " r.build_ms, r.occupancy, r.verify, r.metrics, r.work, r.time, r.extra";

int rb_db_record_ncols(void)
{
    return (int)(NCOLUMNS - 1 + NSTATS + 1);
}

static int known(const char *key)
{
    for (size_t i = 0; i < NCOLUMNS; i++)
        if (strcmp(columns[i].name, key) == 0)
            return 1;
    return 0;
}

static int stats_plain(const json_t *stats)
{
    const char *key;
    json_t *v;

    json_object_foreach((json_t *)stats, key, v) {
        int ours = 0;
        for (size_t i = 0; i < NSTATS; i++)
            ours |= strcmp(stats_fields[i], key) == 0;
        if (!ours || !(json_is_number(v) || json_is_null(v)))
            return 0;
    }
    return 1;
}

int rb_db_record_check(const json_t *rec, char *why, size_t len)
{
    static const char *const wants[] = {
        [K_TEXT] = "a string", [K_INT] = "an integer", [K_BOOL] = "true or false",
        [K_REAL] = "a number", [K_STATS] = "an object",
    };

    for (size_t i = 0; i < NCOLUMNS; i++) {
        const json_t *v = json_object_get(rec, columns[i].name);
        int ok;

        switch (columns[i].kind) {
        case K_TEXT: ok = json_is_string(v); break;
        case K_INT: ok = json_is_integer(v); break;
        case K_BOOL: ok = json_is_boolean(v); break;
        case K_REAL: ok = json_is_number(v); break;
        case K_STATS: ok = json_is_object(v); break;
        default: ok = 1;
        }
        if (!ok && v && !json_is_null(v)) {
            snprintf(why, len, "\"%s\" is not %s", columns[i].name, wants[columns[i].kind]);
            return RB_EINVAL;
        }
    }
    return 0;
}

/* The fields the table does not know (and a stats object with fields of
 * its own, whole), as a new object; NULL when there are none. */
static json_t *extra_of(const json_t *rec)
{
    json_t *extra = json_object(), *v;
    const char *key;

    json_object_foreach((json_t *)rec, key, v)
        if (!known(key) || (strcmp(key, "stats") == 0 && json_is_object(v) && !stats_plain(v)))
            json_object_set(extra, key, v);
    if (json_object_size(extra) == 0) {
        json_decref(extra);
        return NULL;
    }
    return extra;
}

static int bind_value(sqlite3_stmt *st, int col, enum kind kind, const json_t *v)
{
    if (!v || json_is_null(v))
        return sqlite3_bind_null(st, col);
    switch (kind) {
    case K_TEXT: return sqlite3_bind_text(st, col, json_string_value(v), -1, SQLITE_TRANSIENT);
    case K_INT: return sqlite3_bind_int64(st, col, json_integer_value(v));
    case K_BOOL: return sqlite3_bind_int(st, col, json_is_true(v));
    case K_REAL: return sqlite3_bind_double(st, col, json_number_value(v));
    default: return rb_db_bind_json(st, col, v);
    }
}

int rb_db_record_bind(sqlite3_stmt *st, const char *run, const json_t *rec)
{
    json_t *extra = extra_of(rec);
    int col = 2, rc;

    sqlite3_reset(st);
    sqlite3_clear_bindings(st);
    rc = sqlite3_bind_text(st, 1, run, -1, SQLITE_TRANSIENT);
    for (size_t i = 0; rc == SQLITE_OK && i < NCOLUMNS; i++) {
        const json_t *v = json_object_get(rec, columns[i].name);

        if (columns[i].kind != K_STATS) {
            rc = bind_value(st, col++, columns[i].kind, v);
            continue;
        }
        for (size_t j = 0; rc == SQLITE_OK && j < NSTATS; j++)
            rc = bind_value(st, col++, j == 0 ? K_INT : K_REAL,
                            json_object_get(v, stats_fields[j]));
    }
    if (rc == SQLITE_OK)
        rc = rb_db_bind_json(st, col, extra);
    json_decref(extra);
    return rc;
}

static json_t *value_of(sqlite3_stmt *st, int col, enum kind kind)
{
    if (sqlite3_column_type(st, col) == SQLITE_NULL)
        return json_null();
    switch (kind) {
    case K_TEXT: return json_string(rb_db_text(st, col));
    case K_INT: return json_integer(sqlite3_column_int64(st, col));
    case K_BOOL: return json_boolean(sqlite3_column_int(st, col));
    case K_REAL: return json_real(sqlite3_column_double(st, col));
    default: return rb_db_json(st, col);
    }
}

/* The stats object of columns col.., or null when the record had none. */
static json_t *stats_of(sqlite3_stmt *st, int col)
{
    json_t *stats;
    int bad = 0;

    if (sqlite3_column_type(st, col) == SQLITE_NULL)
        return json_null();
    if (!(stats = json_object()))
        return NULL;
    for (size_t j = 0; j < NSTATS; j++) {
        json_t *v = value_of(st, col + (int)j, j == 0 ? K_INT : K_REAL);
        if (!v || json_object_set_new(stats, stats_fields[j], v) < 0)
            bad = 1;
    }
    if (bad) {
        json_decref(stats);
        return NULL;
    }
    return stats;
}

json_t *rb_db_record_of_row(sqlite3_stmt *st, int first)
{
    json_t *rec = json_object(), *extra;
    int col = first, bad = !rec;

    for (size_t i = 0; !bad && i < NCOLUMNS; i++) {
        json_t *v;

        if (columns[i].kind == K_STATS) {
            v = stats_of(st, col);
            col += (int)NSTATS;
        } else {
            v = value_of(st, col++, columns[i].kind);
        }
        if (!v || json_object_set_new(rec, columns[i].name, v) < 0)
            bad = 1;
    }
    extra = bad ? NULL : rb_db_json(st, col);
    if (!bad && json_is_object(extra) && json_object_update(rec, extra) < 0)
        bad = 1;
    json_decref(extra);
    if (bad) {
        json_decref(rec);
        return NULL;
    }
    return rec;
}
