/* SPDX-License-Identifier: MIT */
/* Store queries: their terms parsed and checked (an unknown field is one
 * clear error naming the known ones), and what they select from a real
 * store of three runs on two machines. */
#include "harness/store/db_priv.h"
#include "harness/error.h"
#include "t/db_test.h"
#include "t/tap.h"

static char top[] = "/tmp/rb-db-query-XXXXXX";

static void check_parse(void)
{
    struct rb_db_query q = { 0 };
    char err[512];

    tap_ok(rb_db_query_parse("machine=1  backend=omp,serial n=16:64:pow2 variant~round", &q,
                             err, sizeof err) == 0 && q.n == 4, "four terms parse");
    tap_ok(q.t[0].field == RB_DBQ_MACHINE && strcmp(q.t[0].value, "1") == 0
           && q.t[1].field == RB_DBQ_BACKEND && strcmp(q.t[1].value, "omp,serial") == 0,
           "fields and values");
    tap_ok(q.t[2].field == RB_DBQ_AXIS && q.t[2].nv == 3 && q.t[2].v[2] == 64,
           "an axis takes a range as run does");
    tap_ok(q.t[3].op == RB_DBQ_LIKE, "~ is a substring match");
    memset(&q, 0, sizeof q);
    tap_ok(rb_db_query_parse("v0.2", &q, err, sizeof err) == 0 && q.t[0].field == RB_DBQ_WORD,
           "a bare word is a git describe or a run");
    tap_ok(rb_db_query_parse("colour=blue", &q, err, sizeof err) == RB_EINVAL
           && strstr(err, "unknown field 'colour'") && strstr(err, "machine")
           && !strchr(err, '\n'), "an unknown field is named, with the known ones (%s)", err);
    tap_ok(rb_db_query_parse("n=abc", &q, err, sizeof err) == RB_EINVAL && strstr(err, "n:"),
           "a bad axis value is named (%s)", err);
    tap_ok(rb_db_query_parse("since=2026-02-31", &q, err, sizeof err) == RB_EINVAL
           && strstr(err, "not a date"), "a date that is none (%s)", err);
    tap_ok(rb_db_query_parse("paper=", &q, err, sizeof err) == RB_EINVAL
           && strstr(err, "empty"), "an empty value (%s)", err);
    memset(&q, 0, sizeof q);
    tap_ok(rb_db_query_add(&q, "since", RB_DBQ_EQ, "2026-12-01T11:30", err, sizeof err) == 0
           && strcmp(q.t[0].value, "2026-12-01T11:30:00Z") == 0, "a date reads as UTC (%s)",
           q.t[0].value);
    tap_ok(rb_db_query_add(&q, "until", RB_DBQ_EQ, "3d", err, sizeof err) == 0
           && strlen(q.t[1].value) == 20, "an age reads as a time (%s)", q.t[1].value);
}

static size_t selected(struct rb_db *db, const char *text)
{
    struct rb_db_query q = { 0 };
    json_t *recs = NULL;
    char err[512];
    size_t n;

    if (rb_db_query_parse(text, &q, err, sizeof err) || rb_db_select(db, &q, &recs, err,
                                                                     sizeof err)) {
        tap_diag("%s: %s", text, err);
        return (size_t)-1;
    }
    n = json_array_size(recs);
    json_decref(recs);
    return n;
}

static void check_select(void)
{
    char store[600], dir[600], err[512];
    struct rb_db_import_stats st;
    struct rb_db *db;
    json_t *recs = NULL;
    struct rb_db_query q = { 0 };
    int ok = 1;

    snprintf(store, sizeof store, "%s/store.db", top);
    rb_db_open(store, RB_DB_WRITE, &db, err, sizeof err);
    for (int i = 0; i < 3; i++) {
        char host[16], start[32];
        snprintf(dir, sizeof dir, "%s/run%d", top, i);
        snprintf(host, sizeof host, "host%d", i);
        snprintf(start, sizeof start, "2026-12-0%dT10:00:00Z", i + 1);
        dbt_run(dir, host, start, i < 2 ? "v0.1" : "v0.2",
                dbt_hardware(host, i == 2 ? 4 : 2, 1 << 30, 0),
                json_pack("[o, o, o]", dbt_record("sequential", "serial", 16, 1.0 + i),
                          dbt_record("roundrobin", "omp", 16, 2.0 + i),
                          dbt_record("roundrobin", "omp", 32, 3.0 + i)));
        ok &= rb_db_import(db, dir, 0, &st, err, sizeof err) == 0;
    }
    tap_ok(ok, "three runs imported");
    tap_is((long long)selected(db, ""), 9, "an empty query selects everything");
    tap_is((long long)selected(db, "machine=1"), 6, "machine=1: the two runs of its hardware");
    tap_is((long long)selected(db, "machine=host2"), 3, "a machine by a host that ran on it");
    tap_is((long long)selected(db, "machine~9000"), 9, "a machine by part of its name");
    tap_is((long long)selected(db, "v0.2"), 3, "a git describe");
    tap_is((long long)selected(db, "run=run1"), 3, "a run by name");
    tap_is((long long)selected(db, "backend=omp n=32"), 3, "a backend and an axis value");
    tap_is((long long)selected(db, "backend=omp,serial n=16"), 6, "lists are alternatives");
    tap_is((long long)selected(db, "since=2026-12-02"), 6, "since a date");
    tap_is((long long)selected(db, "until=2026-12-02"), 3, "until a date");
    tap_is((long long)selected(db, "variant~ROUND"), 6, "~ ignores case");
    tap_is((long long)selected(db, "git=nothing"), 0, "a value nobody has selects nothing");
    rb_db_query_parse("n=16", &q, err, sizeof err);
    rb_db_select(db, &q, &recs, err, sizeof err);
    tap_ok(json_array_size(recs) == 6
           && strcmp(json_string_value(json_object_get(json_object_get(json_array_get(recs, 0),
                                                                       "store"), "run")),
                     "run0") == 0
           && strcmp(json_string_value(json_object_get(json_object_get(json_array_get(recs, 5),
                                                                       "store"), "run")),
                     "run2") == 0, "oldest run first, with where each record came from");
    json_decref(recs);
    rb_db_close(db);
}

int main(void)
{
    char cmd[600];

    tap_plan(25);
    if (!mkdtemp(top))
        return 1;
    check_parse();
    check_select();
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", top);
    if (system(cmd) != 0)
        tap_diag("could not remove %s", top);
    return tap_done();
}
