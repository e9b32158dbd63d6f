/* SPDX-License-Identifier: MIT */
/* Importing run directories into a real SQLite store: every field comes back
 * as it went in, a second import adds nothing, a grown run adds its new
 * records, machines are one per hardware, and a bad run (cut short,
 * malformed, a field of the wrong type, a case recorded twice), a run a
 * writer holds or a locked store changes nothing. */
#include <unistd.h>

#include "harness/store/db_priv.h"
#include "harness/error.h"
#include "harness/run/lock.h"
#include "t/db_test.h"
#include "t/tap.h"

static char top[] = "/tmp/rb-db-import-XXXXXX";
static char store[512], run1[512], run2[512], run3[512];

static size_t count(struct rb_db *db, const char *sql)
{
    sqlite3_stmt *st;
    size_t n = 0;

    if (sqlite3_prepare_v2(db->h, sql, -1, &st, NULL) == SQLITE_OK
        && sqlite3_step(st) == SQLITE_ROW)
        n = (size_t)sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    return n;
}

static json_t *three_records(double scale)
{
    return json_pack("[o, o, o]", dbt_record("sequential", "serial", 16, scale),
                     dbt_record("roundrobin", "serial", 16, 2 * scale),
                     dbt_record("roundrobin", "omp", 32, 3 * scale));
}

static void check_roundtrip(struct rb_db *db)
{
    struct rb_db_query q = { 0 };
    json_t *got = NULL, *want = three_records(1.0), *rec;
    char err[512];
    size_t i;
    int same = 1;

    tap_ok(rb_db_select(db, &q, &got, err, sizeof err) == 0, "select every record");
    tap_ok(json_array_size(got) == 4, "four records in the store (%zu)", json_array_size(got));
    json_array_append_new(want, json_pack("{s:s}", "key", "placeholder"));
    json_array_foreach(got, i, rec) {
        json_t *copy = json_deep_copy(rec);
        const char *run = json_string_value(json_object_get(json_object_get(rec, "store"),
                                                            "run"));
        json_object_del(copy, "store");
        if (i < 3 && !json_equal(copy, json_array_get(want, i))) {
            char *a = json_dumps(copy, JSON_COMPACT), *b = json_dumps(json_array_get(want, i),
                                                                      JSON_COMPACT);
            tap_diag("record %zu:\n# got  %s\n# want %s", i, a, b);
            free(a);
            free(b);
            same = 0;
        }
        if (i == 3) {
            const char *host = json_string_value(json_object_get(copy, "hostname"));
            same &= host && strcmp(host, "node7") == 0;
        }
        same &= run && strcmp(run, "r1") == 0;
        json_decref(copy);
    }
    tap_ok(same, "every field comes back as it was written, an unknown one too");
    json_decref(got);
    json_decref(want);
}

/* dir/records.jsonl with its first line replaced by line. */
static void rewrite_first(const char *dir, const char *line)
{
    char path[600], *text, *rest;
    size_t len;

    snprintf(path, sizeof path, "%s/records.jsonl", dir);
    text = dbt_slurp(path, &len);
    rest = text ? memchr(text, '\n', len) : NULL;
    if (!rest || dbt_write(path, line) != 0) {
        tap_diag("could not rewrite %s", path);
        free(text);
        return;
    }
    text[len] = '\0';
    dbt_append(dir, rest);
    free(text);
}

static void check_import_twice(struct rb_db *db)
{
    struct rb_db_import_stats st;
    char err[512];
    json_t *extra = dbt_record("roundrobin", "omp", 64, 5.0);
    char *line;

    tap_ok(rb_db_import(db, run1, 0, &st, err, sizeof err) == 0 && st.new_run && st.added == 3,
           "a run's first import adds its records");
    tap_ok(rb_db_import(db, run1, 0, &st, err, sizeof err) == 0 && !st.new_run && st.added == 0
           && st.replaced == 0 && st.unchanged == 3, "importing it again adds nothing");
    json_object_set_new(extra, "hostname", json_string("node7"));
    line = json_dumps(extra, JSON_COMPACT | JSON_PRESERVE_ORDER);
    dbt_append(run1, line);
    dbt_append(run1, "\n");
    free(line);
    json_decref(extra);
    tap_ok(rb_db_import(db, run1, 0, &st, err, sizeof err) == 0 && st.added == 1
           && st.unchanged == 3, "a record appended since is added, alone");
    tap_ok(count(db, "SELECT count(*) FROM records") == 4, "four rows");
    check_roundtrip(db);

    /* The run's record of a key rewritten (the case measured again after
     * its records were cut back) replaces the stored one. */
    extra = dbt_record("sequential", "serial", 16, 7.0);
    line = json_dumps(extra, JSON_COMPACT | JSON_PRESERVE_ORDER);
    rewrite_first(run1, line);
    free(line);
    json_decref(extra);
    tap_ok(rb_db_import(db, run1, 0, &st, err, sizeof err) == 0 && st.replaced == 1
           && st.added == 0 && st.unchanged == 3, "a rewritten record of a key replaces it");
    tap_ok(count(db, "SELECT count(*) FROM records WHERE median = 7.0 * 1.05") == 1
           && count(db, "SELECT count(*) FROM records") == 4, "with the later numbers");
}

/* Each bad run is refused whole, with its reason, and the store's bytes stay. */
static void check_refused(struct rb_db *db, const char *dir, const char *append,
                          const char *says, const char *what)
{
    struct rb_db_import_stats st;
    char err[512];
    size_t len;
    char *before = dbt_slurp(store, &len);
    int rc;

    if (append)
        dbt_append(dir, append);
    rc = rb_db_import(db, dir, 0, &st, err, sizeof err);
    tap_ok(rc == RB_EINVAL && strstr(err, says), "%s: refused (%s)", what, err);
    tap_ok(dbt_same(store, before, len), "%s: the store is unchanged", what);
    free(before);
}

static void check_bad_runs(struct rb_db *db)
{
    char dir[600], *line;
    json_t *rec = dbt_record("sequential", "serial", 16, 1.0);

    snprintf(dir, sizeof dir, "%s/cut", top);
    dbt_run(dir, "h", "2026-12-01T11:00:00Z", "g1", dbt_hardware("h", 2, 1 << 30, 0),
            three_records(1.0));
    check_refused(db, dir, "{\"schema\":1,\"key\":\"x\"", "cut short", "a last line cut short");
    snprintf(dir, sizeof dir, "%s/malformed", top);
    dbt_run(dir, "h", "2026-12-01T11:00:01Z", "g1", dbt_hardware("h", 2, 1 << 30, 0),
            three_records(1.0));
    check_refused(db, dir, "{\"schema\":1,\"key\":\n", "records.jsonl:4", "a malformed line");
    snprintf(dir, sizeof dir, "%s/typed", top);
    json_object_set_new(rec, "paper", json_integer(5));
    dbt_run(dir, "h", "2026-12-01T11:00:02Z", "g1", dbt_hardware("h", 2, 1 << 30, 0),
            json_pack("[o]", rec));
    check_refused(db, dir, NULL, "\"paper\" is not a string", "a field of the wrong type");
    /* Two writers on one run before it had a lock: refused as report and
     * compare refuse it, not one of the two picked. */
    snprintf(dir, sizeof dir, "%s/twice", top);
    dbt_run(dir, "h", "2026-12-01T11:00:03Z", "g1", dbt_hardware("h", 2, 1 << 30, 0),
            three_records(1.0));
    rec = dbt_record("sequential", "serial", 16, 2.0);
    line = json_dumps(rec, JSON_COMPACT | JSON_PRESERVE_ORDER);
    dbt_append(dir, line);
    free(line);
    json_decref(rec);
    check_refused(db, dir, "\n", "recorded twice (first at line 1)", "a case recorded twice");
    snprintf(dir, sizeof dir, "%s/nometa", top);
    mkdir(dir, 0777);
    check_refused(db, dir, NULL, "not a run directory", "a folder without meta.json");
}

static void check_machines(struct rb_db *db)
{
    struct rb_db_import_stats st;
    json_t *machines = NULL;
    char err[512];

    /* run2: the same hardware as run1 on another host, its memory reading
     * otherwise; run3: two GPUs besides. */
    tap_ok(rb_db_import(db, run2, 0, &st, err, sizeof err) == 0
           && rb_db_import(db, run3, 0, &st, err, sizeof err) == 0, "two more runs import");
    rb_db_machines(db, &machines, err, sizeof err);
    tap_ok(json_array_size(machines) == 2, "two machines for three runs (%zu)",
           json_array_size(machines));
    tap_ok(json_integer_value(json_object_get(json_array_get(machines, 0), "runs")) == 2,
           "the first has both runs of its hardware");
    tap_ok(strcmp(json_string_value(json_object_get(json_array_get(machines, 1), "name")),
                  "Test CPU 9000, 4 cores + 2x NVIDIA H200") == 0, "named by CPU and GPUs (%s)",
           json_string_value(json_object_get(json_array_get(machines, 1), "name")));
    json_decref(machines);
}

static void check_locked(struct rb_db *db)
{
    struct rb_db_import_stats st;
    sqlite3 *other;
    char err[512], dir[600];
    size_t len;
    char *before;
    int rc;

    snprintf(dir, sizeof dir, "%s/later", top);
    dbt_run(dir, "h", "2026-12-02T09:00:00Z", "g2", dbt_hardware("h", 2, 1 << 30, 0),
            three_records(1.0));
    sqlite3_open(store, &other);
    tap_ok(sqlite3_exec(other, "BEGIN EXCLUSIVE", NULL, NULL, NULL) == SQLITE_OK,
           "another connection holds the store's lock");
    before = dbt_slurp(store, &len);
    rc = rb_db_import(db, dir, 0, &st, err, sizeof err);
    tap_ok(rc == RB_EIO && strstr(err, "locked"), "an import then fails as locked (%s)", err);
    tap_ok(dbt_same(store, before, len), "and writes nothing");
    free(before);
    sqlite3_exec(other, "ROLLBACK", NULL, NULL, NULL);
    sqlite3_close(other);
    tap_ok(rb_db_import(db, dir, 0, &st, err, sizeof err) == 0 && st.added == 3,
           "once it is released the import goes through");
}

/* A run its writer holds (harness/run/lock.h) is refused, not read half-grown;
 * the holder itself imports it (run's end); a reader writes nothing into
 * the run directory, not even a lock file. */
static void check_run_lock(struct rb_db *db)
{
    struct rb_db_import_stats st;
    char err[512], dir[600], path[700];
    size_t len;
    char *before;
    int fd, rc;

    snprintf(path, sizeof path, "%s/.lock", run2);
    tap_ok(access(path, F_OK) != 0, "an import leaves no lock file in the run");
    snprintf(dir, sizeof dir, "%s/held", top);
    dbt_run(dir, "h", "2026-12-02T10:00:00Z", "g2", dbt_hardware("h", 2, 1 << 30, 0),
            three_records(1.0));
    if (rb_lock_take(dir, &fd, err, sizeof err) != 0)
        tap_diag("could not lock %s: %s", dir, err);
    before = dbt_slurp(store, &len);
    rc = rb_db_import(db, dir, 0, &st, err, sizeof err);
    tap_ok(rc == RB_EINVAL && strstr(err, "is in use by pid"), "a run a writer holds is "
           "refused (%s)", err);
    tap_ok(dbt_same(store, before, len), "and the store is unchanged");
    free(before);
    tap_ok(rb_db_import(db, dir, RB_DB_IMPORT_LOCK_HELD, &st, err, sizeof err) == 0
           && st.added == 3, "the lock's holder imports it");
    rb_lock_release(fd);
    tap_ok(rb_db_import(db, dir, 0, &st, err, sizeof err) == 0 && st.unchanged == 3,
           "once it is released, so does anyone");
}

/* A run copied elsewhere is the same run. */
static void check_moved(struct rb_db *db)
{
    struct rb_db_import_stats st;
    char cmd[2048], dir[600], err[512];

    snprintf(dir, sizeof dir, "%s/moved", top);
    snprintf(cmd, sizeof cmd, "cp -r '%s' '%s'", run1, dir);
    tap_ok(system(cmd) == 0 && rb_db_import(db, dir, 0, &st, err, sizeof err) == 0 && !st.new_run
           && st.added == 0, "a copy of a run in another folder is the same run");
    tap_ok(count(db, "SELECT count(*) FROM runs WHERE dir LIKE '%/moved'") == 1,
           "whose folder is now the copy's");
}

int main(void)
{
    struct rb_db *db = NULL;
    char err[512], cmd[600];

    tap_plan(35);
    setenv("RB_DB_BUSY_MS", "100", 1);
    if (!mkdtemp(top))
        return 1;
    snprintf(store, sizeof store, "%s/store.db", top);
    snprintf(run1, sizeof run1, "%s/r1", top);
    snprintf(run2, sizeof run2, "%s/r2", top);
    snprintf(run3, sizeof run3, "%s/r3", top);
    dbt_run(run1, "node1", "2026-12-01T10:00:00Z", "v0.1", dbt_hardware("node1", 2, 1 << 30, 0),
            three_records(1.0));
    dbt_run(run2, "node2", "2026-12-01T12:00:00Z", "v0.2",
            dbt_hardware("node2", 2, (1 << 30) + 4096, 0), three_records(1.1));
    dbt_run(run3, "gpu1", "2026-12-01T13:00:00Z", "v0.2", dbt_hardware("gpu1", 4, 1LL << 34, 2),
            three_records(0.5));
    tap_ok(rb_db_open(store, RB_DB_WRITE, &db, err, sizeof err) == 0, "a new store opens");

    check_import_twice(db);
    check_bad_runs(db);
    check_machines(db);
    check_locked(db);
    check_run_lock(db);
    check_moved(db);

    rb_db_close(db);
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", top);
    if (system(cmd) != 0)
        tap_diag("could not remove %s", top);
    return tap_done();
}
