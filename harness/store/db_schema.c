/* SPDX-License-Identifier: MIT */
/* Opening the results store: its versioned schema (PRAGMA user_version),
 * created or migrated step by step in one transaction, and SQLite's errors
 * turned into one line and a status. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "harness/store/db_priv.h"
#include "harness/error.h"

/* Schema 1: the runs and their records.  Every field of a record has a
 * column; nested values and the samples are JSON text, the statistics are
 * columns of their own so that SQL can sort by them; fields this schema
 * does not know go to "extra". */
static const char schema_1[] =
    "CREATE TABLE runs ("
    " id TEXT PRIMARY KEY NOT NULL, name TEXT NOT NULL, dir TEXT NOT NULL,"
    " start TEXT, host TEXT, git TEXT, version TEXT, configure TEXT, seed TEXT,"
    " command TEXT, meta TEXT NOT NULL, hardware TEXT, ceilings TEXT,"
    " imported TEXT NOT NULL);"
    "CREATE INDEX runs_start ON runs(start);"
    "CREATE TABLE records ("
    " run TEXT NOT NULL REFERENCES runs(id) ON DELETE CASCADE, key TEXT NOT NULL,"
    " schema INTEGER, paper TEXT, algo TEXT, variant TEXT, backend TEXT, prec TEXT,"
    " device TEXT, baseline INTEGER, sizes TEXT, tunables TEXT, seed TEXT,"
    " status TEXT, stage TEXT, message TEXT, timer TEXT, samples_ms TEXT,"
    " n INTEGER, min REAL, median REAL, mean REAL, stddev REAL, p10 REAL, p90 REAL,"
    " truncated INTEGER, transfer_ms REAL, build_ms REAL, occupancy TEXT,"
    " verify TEXT, metrics TEXT, work TEXT, time TEXT, extra TEXT,"
    " PRIMARY KEY (run, key));"
    "CREATE INDEX records_series ON records(paper, algo, variant, backend, prec);";

/* Schema 2: machines, one per distinct hardware fingerprint, and each run's. */
static const char schema_2[] =
    "CREATE TABLE machines ("
    " id INTEGER PRIMARY KEY, fingerprint TEXT NOT NULL UNIQUE, name TEXT NOT NULL,"
    " hardware TEXT);"
    "ALTER TABLE runs ADD COLUMN machine INTEGER REFERENCES machines(id);"
    "CREATE INDEX runs_machine ON runs(machine);";

/* The machine of every run that has none yet, from its hardware summary:
 * what migrating to schema 2 fills in for the runs already there. */
static int fill_machines(struct rb_db *db, char *err, size_t errlen)
{
    sqlite3_stmt *runs = NULL, *ins = NULL, *set = NULL;
    char fp[80], name[512];
    int rc, status;

    if ((status = rb_db_prepare(db, "SELECT id, hardware FROM runs WHERE machine IS NULL"
                                " AND hardware IS NOT NULL", &runs, err, errlen))
        || (status = rb_db_prepare(db, "INSERT INTO machines(fingerprint, name, hardware)"
                                   " VALUES(?1, ?2, ?3) ON CONFLICT(fingerprint) DO NOTHING",
                                   &ins, err, errlen))
        || (status = rb_db_prepare(db, "UPDATE runs SET machine = (SELECT id FROM machines"
                                   " WHERE fingerprint = ?1) WHERE id = ?2", &set, err,
                                   errlen)))
        goto out_finalize;
    while ((rc = sqlite3_step(runs)) == SQLITE_ROW) {
        json_t *hw = rb_db_json(runs, 1);

        if (!json_is_object(hw)) {
            json_decref(hw);
            continue;
        }
        status = rb_db_machine_of(hw, fp, sizeof fp, name, sizeof name);
        json_decref(hw);
        if (status) {
            snprintf(err, errlen, "%s: out of memory", db->path);
            goto out_finalize;
        }
        sqlite3_bind_text(ins, 1, fp, -1, SQLITE_TRANSIENT);
        sqlite3_bind_text(ins, 2, name, -1, SQLITE_TRANSIENT);
        sqlite3_bind_value(ins, 3, sqlite3_column_value(runs, 1));
        sqlite3_bind_text(set, 1, fp, -1, SQLITE_TRANSIENT);
        sqlite3_bind_value(set, 2, sqlite3_column_value(runs, 0));
        if ((rc = sqlite3_step(ins)) != SQLITE_DONE || (rc = sqlite3_step(set)) != SQLITE_DONE)
            break;
        sqlite3_reset(ins);
        sqlite3_reset(set);
    }
    if (rc != SQLITE_DONE)
        status = rb_db_fail(db, rc, "migrating to schema 2", err, errlen);
out_finalize:
    sqlite3_finalize(runs);
    sqlite3_finalize(ins);
    sqlite3_finalize(set);
    return status;
}

/* step        its SQL     what it derives from the data already there */
static const struct step {
    const char *sql;
    int (*fill)(struct rb_db *, char *, size_t);
} steps[RB_DB_SCHEMA] = {
    { schema_1, NULL },
    { schema_2, fill_machines },
};

int rb_db_fail(struct rb_db *db, int rc, const char *what, char *err, size_t errlen)
{
    const char *msg = db->h ? sqlite3_errmsg(db->h) : sqlite3_errstr(rc);

    switch (rc & 0xff) {
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
        snprintf(err, errlen, "%s: locked by another process while %s (%s); try again",
                 db->path, what, msg);
        return RB_EIO;
    case SQLITE_NOTADB:
    case SQLITE_CORRUPT:
        snprintf(err, errlen, "%s: not a readable store while %s (%s)", db->path, what, msg);
        return RB_EINVAL;
    case SQLITE_NOMEM:
        snprintf(err, errlen, "%s: out of memory while %s", db->path, what);
        return RB_ENOMEM;
    case SQLITE_ERROR:
    case SQLITE_CONSTRAINT:
    case SQLITE_MISMATCH:
    case SQLITE_SCHEMA:
        /* A table or column missing or of another shape: not our store. */
        snprintf(err, errlen, "%s: not a reprobench store of schema %d while %s (%s)",
                 db->path, db->version, what, msg);
        return RB_EINVAL;
    default:
        snprintf(err, errlen, "%s: %s while %s", db->path, msg, what);
        return RB_EIO;
    }
}

int rb_db_exec(struct rb_db *db, const char *sql, char *err, size_t errlen)
{
    int rc = sqlite3_exec(db->h, sql, NULL, NULL, NULL);

    return rc == SQLITE_OK ? 0 : rb_db_fail(db, rc, "writing", err, errlen);
}

int rb_db_prepare(struct rb_db *db, const char *sql, sqlite3_stmt **st, char *err,
                  size_t errlen)
{
    int rc = sqlite3_prepare_v2(db->h, sql, -1, st, NULL);

    return rc == SQLITE_OK ? 0 : rb_db_fail(db, rc, "reading", err, errlen);
}

/* A one-number PRAGMA. */
static int pragma_int(struct rb_db *db, const char *name, long long *out, char *err,
                      size_t errlen)
{
    char sql[64];
    sqlite3_stmt *st;
    int rc, status;

    snprintf(sql, sizeof sql, "PRAGMA %s", name);
    if ((status = rb_db_prepare(db, sql, &st, err, errlen)))
        return status;
    rc = sqlite3_step(st);
    *out = rc == SQLITE_ROW ? sqlite3_column_int64(st, 0) : 0;
    sqlite3_finalize(st);
    return rc == SQLITE_ROW ? 0 : rb_db_fail(db, rc, "reading its header", err, errlen);
}

/* Bring the store from its version to `to` inside one write transaction,
 * re-reading the version once the lock is held: another process may have
 * just done it. */
static int migrate(struct rb_db *db, int to, char *err, size_t errlen)
{
    long long version, tables;
    char sql[96];
    int status, from;

    if ((status = rb_db_exec(db, "BEGIN IMMEDIATE", err, errlen)))
        return status;
    if ((status = pragma_int(db, "user_version", &version, err, errlen)))
        goto out_rollback;
    from = (int)version;
    if (from == 0) {
        sqlite3_stmt *st;
        if ((status = rb_db_prepare(db, "SELECT count(*) FROM sqlite_master", &st, err,
                                    errlen)))
            goto out_rollback;
        tables = sqlite3_step(st) == SQLITE_ROW ? sqlite3_column_int64(st, 0) : -1;
        sqlite3_finalize(st);
        if (tables != 0) {
            snprintf(err, errlen, "%s: an SQLite database, but not a reprobench store",
                     db->path);
            status = RB_EINVAL;
            goto out_rollback;
        }
    }
    for (int v = from; v < to; v++) {
        db->version = v;
        if ((status = rb_db_exec(db, steps[v].sql, err, errlen))
            || (steps[v].fill && (status = steps[v].fill(db, err, errlen))))
            goto out_rollback;
    }
    snprintf(sql, sizeof sql, "PRAGMA application_id = %d; PRAGMA user_version = %d",
             RB_DB_APPLICATION_ID, to);
    if ((status = rb_db_exec(db, sql, err, errlen))
        || (status = rb_db_exec(db, "COMMIT", err, errlen)))
        goto out_rollback;
    db->version = to;
    if (from > 0 && from < to)
        fprintf(stderr, "reprobench: %s: migrated from schema %d to %d\n", db->path, from, to);
    return 0;
out_rollback:
    sqlite3_exec(db->h, "ROLLBACK", NULL, NULL, NULL);
    return status;
}

static long long busy_ms(void)
{
    const char *s = getenv("RB_DB_BUSY_MS");
    char *end;
    long long ms;

    if (!s || !*s)
        return 5000;
    ms = strtoll(s, &end, 10);
    return *end || ms < 0 ? 5000 : ms;
}

/* Open the file and check what it is: 0 with db->version set, or an error. */
static int open_file(const char *path, enum rb_db_mode mode, struct rb_db *db, char *err,
                     size_t errlen)
{
    int flags = SQLITE_OPEN_READWRITE | (mode == RB_DB_WRITE ? SQLITE_OPEN_CREATE : 0);
    long long app, version;
    struct stat st;
    int rc, status;

    if ((size_t)snprintf(db->path, sizeof db->path, "%s", path) >= sizeof db->path) {
        snprintf(err, errlen, "%s: path too long", path);
        return RB_EINVAL;
    }
    if (mode == RB_DB_READ && stat(path, &st) != 0) {
        snprintf(err, errlen, "%s: no store here (%s); 'reprobench db import RUN_DIR' makes "
                 "one", path, strerror(errno));
        return RB_EINVAL;
    }
    if ((rc = sqlite3_open_v2(path, &db->h, flags, NULL)) != SQLITE_OK) {
        snprintf(err, errlen, "%s: cannot open the store (%s)", path,
                 db->h ? sqlite3_errmsg(db->h) : sqlite3_errstr(rc));
        return rc == SQLITE_NOMEM ? RB_ENOMEM : RB_EIO;
    }
    sqlite3_extended_result_codes(db->h, 1);
    sqlite3_busy_timeout(db->h, (int)busy_ms());
    if ((status = pragma_int(db, "application_id", &app, err, errlen))
        || (status = pragma_int(db, "user_version", &version, err, errlen))
        || (status = rb_db_exec(db, "PRAGMA foreign_keys = ON", err, errlen)))
        return status;
    db->version = (int)version;
    if (app != 0 && app != RB_DB_APPLICATION_ID) {
        snprintf(err, errlen, "%s: an SQLite database of another program, not a reprobench "
                 "store", path);
        return RB_EINVAL;
    }
    if (version > RB_DB_SCHEMA) {
        snprintf(err, errlen, "%s: a store of schema %lld, newer than this program's %d: "
                 "use a newer reprobench", path, version, RB_DB_SCHEMA);
        return RB_EINVAL;
    }
    if (version == 0 && mode == RB_DB_READ) {
        snprintf(err, errlen, "%s: empty, not a reprobench store; 'reprobench db import "
                 "RUN_DIR' fills one", path);
        return RB_EINVAL;
    }
    return 0;
}

int rb_db_built(void)
{
    return 1;
}

int rb_db_open(const char *path, enum rb_db_mode mode, struct rb_db **out, char *err,
               size_t errlen)
{
    struct rb_db *db = calloc(1, sizeof *db);
    int status;

    *out = NULL;
    if (!db) {
        snprintf(err, errlen, "%s: out of memory", path);
        return RB_ENOMEM;
    }
    if ((status = open_file(path, mode, db, err, errlen))
        || (db->version < RB_DB_SCHEMA && (status = migrate(db, RB_DB_SCHEMA, err, errlen)))) {
        rb_db_close(db);
        return status;
    }
    *out = db;
    return 0;
}

int rb_db_create_version(const char *path, int version, char *err, size_t errlen)
{
    struct rb_db db = { 0 };
    int status;

    if (version < 1 || version > RB_DB_SCHEMA) {
        snprintf(err, errlen, "no schema %d", version);
        return RB_EINVAL;
    }
    if (!(status = open_file(path, RB_DB_WRITE, &db, err, errlen)))
        status = migrate(&db, version, err, errlen);
    sqlite3_close(db.h);
    return status;
}

void rb_db_close(struct rb_db *db)
{
    if (!db)
        return;
    sqlite3_close(db->h);
    free(db);
}

int rb_db_schema_version(struct rb_db *db)
{
    return db->version;
}

const char *rb_db_text(sqlite3_stmt *st, int col)
{
    const unsigned char *s = sqlite3_column_text(st, col);

    return s ? (const char *)s : "";
}

json_t *rb_db_json(sqlite3_stmt *st, int col)
{
    const char *s = (const char *)sqlite3_column_text(st, col);
    json_t *v = s ? json_loads(s, JSON_DECODE_ANY, NULL) : NULL;

    return v ? v : json_null();
}

int rb_db_bind_json(sqlite3_stmt *st, int col, const json_t *v)
{
    char *text;

    if (!v || json_is_null(v))
        return sqlite3_bind_null(st, col);
    if (!(text = json_dumps(v, JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_ENCODE_ANY)))
        return SQLITE_NOMEM;
    return sqlite3_bind_text(st, col, text, -1, free);
}
