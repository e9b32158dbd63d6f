/* SPDX-License-Identifier: MIT */
/* The store's versioned schema on real SQLite files: a new store is of the
 * current schema; one of schema 1 (before machines) is migrated in place
 * with its runs' machines filled in; a newer schema, another program's
 * database, a file that is no database and a missing store are refused with
 * one clear line, each file left as it was. */
#include "harness/store/db_priv.h"
#include "harness/error.h"
#include "t/db_test.h"
#include "t/tap.h"

static char top[] = "/tmp/rb-db-schema-XXXXXX";

static long long one_number(const char *path, const char *sql)
{
    sqlite3 *h;
    sqlite3_stmt *st;
    long long v = -1;

    if (sqlite3_open(path, &h) == SQLITE_OK && sqlite3_prepare_v2(h, sql, -1, &st, NULL) == 0) {
        if (sqlite3_step(st) == SQLITE_ROW)
            v = sqlite3_column_int64(st, 0);
        sqlite3_finalize(st);
    }
    sqlite3_close(h);
    return v;
}

static int run_sql(const char *path, const char *sql)
{
    sqlite3 *h;
    int rc = sqlite3_open(path, &h);

    if (rc == SQLITE_OK)
        rc = sqlite3_exec(h, sql, NULL, NULL, NULL);
    sqlite3_close(h);
    return rc;
}

/* Opening `path` fails with `want`, err holding `says`, the file unchanged. */
static void check_refused(const char *path, enum rb_db_mode mode, int want, const char *says,
                          const char *what)
{
    struct rb_db *db = NULL;
    char err[512];
    size_t len;
    char *before = dbt_slurp(path, &len);
    int rc = rb_db_open(path, mode, &db, err, sizeof err);

    tap_ok(rc == want && !db && strstr(err, says) && !strchr(err, '\n'), "%s: refused (%s)",
           what, err);
    tap_ok(before ? dbt_same(path, before, len) : access(path, F_OK) != 0,
           "%s: the file is as it was", what);
    free(before);
    rb_db_close(db);
}

static void check_new(void)
{
    char path[600], err[512];
    struct rb_db *db;

    snprintf(path, sizeof path, "%s/new.db", top);
    tap_ok(rb_db_open(path, RB_DB_WRITE, &db, err, sizeof err) == 0
           && rb_db_schema_version(db) == RB_DB_SCHEMA, "a new store has schema %d",
           RB_DB_SCHEMA);
    rb_db_close(db);
    tap_is(one_number(path, "PRAGMA user_version"), RB_DB_SCHEMA, "written as user_version");
    tap_is(one_number(path, "PRAGMA application_id"), RB_DB_APPLICATION_ID,
           "with the store's application_id");
    tap_is(one_number(path, "SELECT count(*) FROM sqlite_master WHERE name IN "
                      "('runs', 'records', 'machines')"), 3, "and its three tables");
}

static void check_migrated(void)
{
    char path[600], err[512], sql[2048];
    struct rb_db *db;
    json_t *hw = dbt_hardware("old", 8, 1 << 30, 1);
    char *hwtext = json_dumps(hw, JSON_COMPACT);

    snprintf(path, sizeof path, "%s/old.db", top);
    tap_ok(rb_db_create_version(path, 1, err, sizeof err) == 0
           && one_number(path, "PRAGMA user_version") == 1, "a store of schema 1");
    tap_is(one_number(path, "SELECT count(*) FROM sqlite_master WHERE name = 'machines'"), 0,
           "has no machines table");
    snprintf(sql, sizeof sql, "INSERT INTO runs(id, name, dir, meta, hardware, imported) VALUES"
             "('a', 'run-a', '/x/run-a', '{}', '%s', 'now'), ('b', 'run-b', '/x/run-b', '{}',"
             " '%s', 'now'), ('c', 'run-c', '/x/run-c', '{}', NULL, 'now');"
             "INSERT INTO records(run, key, paper, median) VALUES ('a', 'k1', 'givens', 1.5);",
             hwtext, hwtext);
    tap_is(run_sql(path, sql), SQLITE_OK, "holding three runs, one record");
    tap_ok(rb_db_open(path, RB_DB_WRITE, &db, err, sizeof err) == 0
           && rb_db_schema_version(db) == RB_DB_SCHEMA, "opens, migrated to schema %d",
           RB_DB_SCHEMA);
    rb_db_close(db);
    tap_is(one_number(path, "PRAGMA user_version"), RB_DB_SCHEMA, "in place");
    tap_is(one_number(path, "SELECT count(*) FROM machines"), 1,
           "the two runs of one hardware share one machine");
    tap_is(one_number(path, "SELECT count(*) FROM runs WHERE machine = 1"), 2,
           "which both runs name");
    tap_is(one_number(path, "SELECT count(*) FROM runs WHERE machine IS NULL"), 1,
           "and a run without hardware has none");
    tap_is(one_number(path, "SELECT count(*) FROM records WHERE median = 1.5"), 1,
           "the records are kept");
    free(hwtext);
    json_decref(hw);
    /* Read-only callers migrate too, once. */
    snprintf(path, sizeof path, "%s/old-read.db", top);
    rb_db_create_version(path, 1, err, sizeof err);
    tap_ok(rb_db_open(path, RB_DB_READ, &db, err, sizeof err) == 0
           && one_number(path, "PRAGMA user_version") == RB_DB_SCHEMA,
           "a reader migrates an old store too");
    rb_db_close(db);
}

static void check_refusals(void)
{
    char path[600];

    snprintf(path, sizeof path, "%s/newer.db", top);
    {
        struct rb_db *db;
        char err[512];
        rb_db_open(path, RB_DB_WRITE, &db, err, sizeof err);
        rb_db_close(db);
    }
    run_sql(path, "PRAGMA user_version = 99");
    check_refused(path, RB_DB_WRITE, RB_EINVAL, "schema 99, newer than this program's",
                  "a newer schema");
    snprintf(path, sizeof path, "%s/other.db", top);
    run_sql(path, "CREATE TABLE photos(id INTEGER)");
    check_refused(path, RB_DB_WRITE, RB_EINVAL, "not a reprobench store",
                  "another program's database");
    snprintf(path, sizeof path, "%s/otherapp.db", top);
    run_sql(path, "PRAGMA application_id = 1234; CREATE TABLE runs(id TEXT)");
    check_refused(path, RB_DB_READ, RB_EINVAL, "another program", "another application_id");
    snprintf(path, sizeof path, "%s/junk.db", top);
    dbt_write(path, "this is no SQLite file, only some text long enough to look at..."
              "................................................................\n");
    check_refused(path, RB_DB_WRITE, RB_EINVAL, "not a readable store", "a file of text");
    snprintf(path, sizeof path, "%s/missing.db", top);
    check_refused(path, RB_DB_READ, RB_EINVAL, "no store here", "a store that is not there");
    snprintf(path, sizeof path, "%s/empty.db", top);
    dbt_write(path, "");
    check_refused(path, RB_DB_READ, RB_EINVAL, "empty, not a reprobench store",
                  "an empty file, to read");
    snprintf(path, sizeof path, "%s/no-such-dir/x.db", top);
    check_refused(path, RB_DB_WRITE, RB_EIO, "cannot open", "a folder that is not there");
}

int main(void)
{
    char cmd[600];

    tap_plan(28);
    if (!mkdtemp(top))
        return 1;
    check_new();
    check_migrated();
    check_refusals();
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", top);
    if (system(cmd) != 0)
        tap_diag("could not remove %s", top);
    return tap_done();
}
