/* SPDX-License-Identifier: MIT */
/* Reading the store: the records a query selects (its terms become one
 * SELECT with bound values; the axes are checked on the records), and the
 * lists of machines and runs. */
#include <stdlib.h>
#include <string.h>

#include "harness/store/db_priv.h"
#include "harness/store/db_record.h"
#include "harness/error.h"

/* The SQL of a term's field, "%s" standing for the bound value; NULL for an
 * axis, checked on the record instead. */
static const char *term_sql(const struct rb_db_term *t)
{
    int like = t->op == RB_DBQ_LIKE;

    switch (t->field) {
    case RB_DBQ_RUN:
        return like ? "u.name LIKE '%%' || %s || '%%'" : "(u.name = %s OR u.id = %s)";
    case RB_DBQ_WORD: return "(u.git = %s OR u.name = %s OR u.id = %s)";
    case RB_DBQ_GIT: return like ? "u.git LIKE '%%' || %s || '%%'" : "u.git = %s";
    case RB_DBQ_HOST: return like ? "u.host LIKE '%%' || %s || '%%'" : "u.host = %s";
    case RB_DBQ_MACHINE:
        return like ? "m.name LIKE '%%' || %s || '%%'"
                    : "(CAST(m.id AS TEXT) = %s OR (length(%s) >= 4"
                      " AND substr(m.fingerprint, 1, length(%s)) = %s) OR m.name = %s"
                      " OR u.host = %s)";
    case RB_DBQ_SINCE: return "u.start >= %s";
    case RB_DBQ_UNTIL: return "u.start < %s";
    case RB_DBQ_PAPER: return like ? "r.paper LIKE '%%' || %s || '%%'" : "r.paper = %s";
    case RB_DBQ_ALGO: return like ? "r.algo LIKE '%%' || %s || '%%'" : "r.algo = %s";
    case RB_DBQ_VARIANT: return like ? "r.variant LIKE '%%' || %s || '%%'" : "r.variant = %s";
    case RB_DBQ_BACKEND: return like ? "r.backend LIKE '%%' || %s || '%%'" : "r.backend = %s";
    case RB_DBQ_PREC: return like ? "r.prec LIKE '%%' || %s || '%%'" : "r.prec = %s";
    case RB_DBQ_STATUS: return like ? "r.status LIKE '%%' || %s || '%%'" : "r.status = %s";
    default: return NULL;
    }
}

/* The form with each "%s" made param and each "%%" a '%'. */
static void fill(char *buf, size_t len, const char *form, const char *param)
{
    size_t at = 0, plen = strlen(param);

    for (const char *f = form; *f && at + plen + 1 < len; f++) {
        if (f[0] == '%' && f[1] == 's') {
            memcpy(buf + at, param, plen);
            at += plen;
            f++;
        } else {
            buf[at++] = *f;
            f += f[0] == '%' && f[1] == '%';
        }
    }
    buf[at] = '\0';
}

/* Append to sql at *at the term's condition, its values (split at commas
 * for "=") as ?N parameters, each listed in vals.  0 or RB_ENOMEM. */
static int add_term(char *sql, size_t len, size_t *at, const struct rb_db_term *t,
                    json_t *vals)
{
    const char *form = term_sql(t);
    char buf[sizeof t->value], *save = NULL, *v;
    int first = 1;

    if (!form)
        return 0;
    snprintf(buf, sizeof buf, "%s", t->value);
    *at += (size_t)snprintf(sql + *at, len - *at, " AND (");
    for (v = t->op == RB_DBQ_EQ ? strtok_r(buf, ",", &save) : buf; v;
         v = t->op == RB_DBQ_EQ ? strtok_r(NULL, ",", &save) : NULL) {
        char param[16], cond[512];
        size_t n = json_array_size(vals) + 1;

        if (json_array_append_new(vals, json_string(v)) < 0)
            return RB_ENOMEM;
        snprintf(param, sizeof param, "?%zu", n);
        fill(cond, sizeof cond, form, param);
        *at += (size_t)snprintf(sql + *at, len - *at, "%s%s", first ? "" : " OR ", cond);
        first = 0;
        if (*at >= len)
            return RB_ENOMEM;
    }
    *at += (size_t)snprintf(sql + *at, len - *at, "%s)", first ? "0" : "");
    return *at < len ? 0 : RB_ENOMEM;
}

/* The record's value of an axis (its sizes or tunables) is one of the
 * term's. */
static int axis_holds(const json_t *rec, const struct rb_db_term *t)
{
    const json_t *v = json_object_get(json_object_get(rec, "sizes"), t->name);

    if (!v)
        v = json_object_get(json_object_get(rec, "tunables"), t->name);
    if (!json_is_integer(v))
        return 0;
    for (size_t i = 0; i < t->nv; i++)
        if (t->v[i] == json_integer_value(v))
            return 1;
    return 0;
}

static int axes_hold(const json_t *rec, const struct rb_db_query *q)
{
    for (size_t i = 0; i < q->n; i++)
        if (q->t[i].field == RB_DBQ_AXIS && !axis_holds(rec, &q->t[i]))
            return 0;
    return 1;
}

/* The record of the row with its "store" object: where it came from. */
static json_t *row_record(sqlite3_stmt *st, int ncols)
{
    json_t *rec = rb_db_record_of_row(st, 0), *where;
    int c = ncols;

    if (!rec)
        return NULL;
    where = json_pack("{s:s, s:s, s:s, s:s, s:s, s:o, s:s}", "run", rb_db_text(st, c),
                      "run_id", rb_db_text(st, c + 6),
                      "start", rb_db_text(st, c + 1), "git", rb_db_text(st, c + 2),
                      "host", rb_db_text(st, c + 3),
                      "machine", sqlite3_column_type(st, c + 4) == SQLITE_NULL
                                 ? json_null() : json_integer(sqlite3_column_int64(st, c + 4)),
                      "machine_name", sqlite3_column_type(st, c + 5) == SQLITE_NULL
                                      ? "unknown" : rb_db_text(st, c + 5));
    if (!where || json_object_set_new(rec, "store", where) < 0) {
        json_decref(rec);
        return NULL;
    }
    return rec;
}

int rb_db_select(struct rb_db *db, const struct rb_db_query *q, json_t **records,
                 char *err, size_t errlen)
{
    char sql[16384];
    size_t at;
    json_t *vals = json_array(), *out = json_array(), *v;
    sqlite3_stmt *st = NULL;
    int rc, status = RB_ENOMEM, ncols = rb_db_record_ncols();
    size_t i;

    *records = NULL;
    if (!vals || !out)
        goto out_free;
    at = (size_t)snprintf(sql, sizeof sql, "SELECT %s, u.name, u.start, u.git, u.host, m.id,"
                          " m.name, u.id FROM records r JOIN runs u ON r.run = u.id"
                          " LEFT JOIN machines m ON u.machine = m.id WHERE 1",
                          rb_db_record_select_cols);
    for (i = 0; i < q->n; i++)
        if (add_term(sql, sizeof sql, &at, &q->t[i], vals) < 0)
            goto out_free;
    if ((size_t)snprintf(sql + at, sizeof sql - at, " ORDER BY u.start, u.id, r.rowid")
        >= sizeof sql - at)
        goto out_free;
    if ((status = rb_db_prepare(db, sql, &st, err, errlen)))
        goto out_free;
    json_array_foreach(vals, i, v)
        sqlite3_bind_text(st, (int)i + 1, json_string_value(v), -1, SQLITE_TRANSIENT);
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        json_t *rec = row_record(st, ncols);
        if (!rec || (axes_hold(rec, q) ? json_array_append_new(out, rec)
                                       : (json_decref(rec), 0)) < 0) {
            status = RB_ENOMEM;
            goto out_free;
        }
    }
    if (rc != SQLITE_DONE) {
        status = rb_db_fail(db, rc, "reading records", err, errlen);
        goto out_free;
    }
    *records = out;
    out = NULL;
    status = 0;
out_free:
    if (status == RB_ENOMEM)
        snprintf(err, errlen, "%s: out of memory", db->path);
    sqlite3_finalize(st);
    json_decref(vals);
    json_decref(out);
    return status;
}

/* Every row of sql as an object built by `row`, into a new array. */
static int select_all(struct rb_db *db, const char *sql, json_t *(*row)(sqlite3_stmt *),
                      json_t **out, char *err, size_t errlen)
{
    sqlite3_stmt *st;
    json_t *all = json_array();
    int rc, status;

    *out = NULL;
    if (!all) {
        snprintf(err, errlen, "%s: out of memory", db->path);
        return RB_ENOMEM;
    }
    if ((status = rb_db_prepare(db, sql, &st, err, errlen))) {
        json_decref(all);
        return status;
    }
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        if (json_array_append_new(all, row(st)) < 0) {
            rc = SQLITE_NOMEM;
            break;
        }
    }
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE) {
        json_decref(all);
        return rb_db_fail(db, rc, "reading", err, errlen);
    }
    *out = all;
    return 0;
}

static json_t *machine_row(sqlite3_stmt *st)
{
    return json_pack("{s:I, s:s, s:s, s:o, s:I, s:s}", "id",
                     (json_int_t)sqlite3_column_int64(st, 0), "fingerprint",
                     rb_db_text(st, 1), "name", rb_db_text(st, 2), "hardware",
                     rb_db_json(st, 3), "runs", (json_int_t)sqlite3_column_int64(st, 4),
                     "hosts", rb_db_text(st, 5));
}

int rb_db_machines(struct rb_db *db, json_t **machines, char *err, size_t errlen)
{
    return select_all(db, "SELECT m.id, m.fingerprint, m.name, m.hardware,"
                      " count(u.id), coalesce(group_concat(DISTINCT u.host), '')"
                      " FROM machines m LEFT JOIN runs u ON u.machine = m.id"
                      " GROUP BY m.id ORDER BY m.id", machine_row, machines, err, errlen);
}

static json_t *run_row(sqlite3_stmt *st)
{
    return json_pack("{s:s, s:s, s:s, s:s, s:s, s:s, s:o, s:I}", "id", rb_db_text(st, 0),
                     "name", rb_db_text(st, 1), "dir", rb_db_text(st, 2),
                     "start", rb_db_text(st, 3), "host", rb_db_text(st, 4),
                     "git", rb_db_text(st, 5),
                     "machine", sqlite3_column_type(st, 6) == SQLITE_NULL
                                ? json_null() : json_integer(sqlite3_column_int64(st, 6)),
                     "records", (json_int_t)sqlite3_column_int64(st, 7));
}

int rb_db_runs(struct rb_db *db, json_t **runs, char *err, size_t errlen)
{
    return select_all(db, "SELECT u.id, u.name, u.dir, u.start, u.host, u.git, u.machine,"
                      " (SELECT count(*) FROM records r WHERE r.run = u.id)"
                      " FROM runs u ORDER BY u.start, u.id", run_row, runs, err, errlen);
}

int rb_db_read_begin(struct rb_db *db, char *err, size_t errlen)
{
    return rb_db_exec(db, "BEGIN DEFERRED", err, errlen);
}

void rb_db_read_end(struct rb_db *db)
{
    /* Nothing was written: ending it cannot lose anything. */
    if (db && !sqlite3_get_autocommit(db->h))
        sqlite3_exec(db->h, "COMMIT", NULL, NULL, NULL);
}
