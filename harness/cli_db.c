/* SPDX-License-Identifier: MIT */
/* reprobench db import|info: load run directories into the results store,
 * and show what it holds; and the import at the end of a run. */
#include <stdio.h>
#include <string.h>

#include "harness/cli.h"
#include "harness/db.h"
#include "harness/error.h"
#include "harness/results.h"

static const char usage[] =
    "usage: reprobench db import [--db FILE] [--quiet] RUN_DIR...\n"
    "       reprobench db info [--db FILE]\n"
    "\n"
    "import  load each run directory (meta.json, hardware.json, records.jsonl) into\n"
    "        the store, one transaction a run: importing a run again adds only the\n"
    "        records it gained since, so it is safe to repeat; a run whose records\n"
    "        are malformed or cut short is refused whole\n"
    "info    the store's schema, its machines (one per distinct hardware) and runs\n"
    "\n"
    "  --db FILE   the store (default " RB_DB_DEFAULT "; created by import)\n"
    "  --quiet     import prints nothing but errors\n"
    "\n"
    "'reprobench run' imports its run at the end (--no-db skips it).  Exit status: 0,\n"
    "1 when the store cannot be written (locked, a full disk), 2 for bad input (not a\n"
    "run directory, a malformed record, a file that is not a store or is corrupt).\n";

/* The exit status of a store error: 2 for bad input, else 1. */
static int exit_of(int status)
{
    return status == RB_EINVAL || status == RB_ENODEV ? 2 : 1;
}

static int import(const char *path, char **dirs, int ndirs, int quiet)
{
    struct rb_db *db;
    char err[PATH_MAX + 512];
    int status, rc = 0;

    if ((status = rb_db_open(path, RB_DB_WRITE, &db, err, sizeof err))) {
        fprintf(stderr, "reprobench: %s\n", err);
        return exit_of(status);
    }
    for (int i = 0; i < ndirs; i++) {
        struct rb_db_import_stats st;

        if ((status = rb_db_import(db, dirs[i], &st, err, sizeof err))) {
            fprintf(stderr, "reprobench: %s; not imported\n", err);
            if (rc != 2)
                rc = exit_of(status);
            continue;
        }
        if (!quiet)
            printf("%s: %s, %zu records added, %zu replaced, %zu already there\n", st.run,
                   st.new_run ? "new run" : "known run", st.added, st.replaced, st.unchanged);
    }
    rb_db_close(db);
    return rc;
}

static int info(const char *path)
{
    json_t *machines = NULL, *runs = NULL, *m, *r;
    struct rb_db *db;
    char err[PATH_MAX + 512];
    size_t i, nrec = 0;
    int status;

    if ((status = rb_db_open(path, RB_DB_READ, &db, err, sizeof err))
        || (status = rb_db_machines(db, &machines, err, sizeof err))
        || (status = rb_db_runs(db, &runs, err, sizeof err))) {
        fprintf(stderr, "reprobench: %s\n", err);
        rb_db_close(db);
        json_decref(machines);
        return exit_of(status);
    }
    json_array_foreach(runs, i, r)
        nrec += (size_t)json_integer_value(json_object_get(r, "records"));
    printf("store %s (schema %d): %zu runs, %zu records, %zu machine%s\n\n", path,
           rb_db_schema_version(db), json_array_size(runs), nrec, json_array_size(machines),
           json_array_size(machines) == 1 ? "" : "s");
    printf("%-7s  %-16s  %4s  %-16s  %s\n", "machine", "fingerprint", "runs", "hosts", "name");
    json_array_foreach(machines, i, m)
        printf("%-7lld  %-16s  %4lld  %-16s  %s\n",
               (long long)json_integer_value(json_object_get(m, "id")),
               json_string_value(json_object_get(m, "fingerprint")),
               (long long)json_integer_value(json_object_get(m, "runs")),
               json_string_value(json_object_get(m, "hosts")),
               json_string_value(json_object_get(m, "name")));
    printf("\n%-28s  %-20s  %-24s  %7s  %7s\n", "run", "start", "git", "machine", "records");
    json_array_foreach(runs, i, r) {
        const json_t *mid = json_object_get(r, "machine");
        char mbuf[24];

        snprintf(mbuf, sizeof mbuf, json_is_integer(mid) ? "%lld" : "-",
                 (long long)json_integer_value(mid));
        printf("%-28s  %-20s  %-24s  %7s  %7lld\n", json_string_value(json_object_get(r, "name")),
               json_string_value(json_object_get(r, "start")),
               json_string_value(json_object_get(r, "git")), mbuf,
               (long long)json_integer_value(json_object_get(r, "records")));
    }
    json_decref(machines);
    json_decref(runs);
    rb_db_close(db);
    return 0;
}

int rb_cli_db(int argc, char **argv)
{
    const char *path = RB_DB_DEFAULT, *sub;
    int quiet = 0, first = 0;

    if (argc < 2)
        return rb_cli_usage_error("db: give a command: import or info (see 'reprobench db "
                                  "--help')");
    sub = argv[1];
    if (strcmp(sub, "--help") == 0 || strcmp(sub, "-h") == 0) {
        fputs(usage, stdout);
        return 0;
    }
    if (strcmp(sub, "import") != 0 && strcmp(sub, "info") != 0)
        return rb_cli_usage_error("db: unknown command '%s' (import, info)", sub);
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i];

        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            fputs(usage, stdout);
            return 0;
        } else if (strcmp(a, "--quiet") == 0) {
            quiet = 1;
        } else if (strcmp(a, "--db") == 0 || strncmp(a, "--db=", 5) == 0) {
            if (a[4] == '=')
                path = a + 5;
            else if (++i < argc)
                path = argv[i];
            else
                return rb_cli_usage_error("db: --db needs a file name");
            if (!*path)
                return rb_cli_usage_error("db: --db needs a file name");
        } else if (a[0] == '-') {
            return rb_cli_usage_error("db %s: unknown option '%s'", sub, a);
        } else if (strcmp(sub, "info") == 0) {
            return rb_cli_usage_error("db info: unexpected argument '%s'", a);
        } else {
            /* Run directories gather at the end of argv, in order. */
            argv[first++ + 2] = argv[i];
        }
    }
    if (!rb_db_built()) {
        char err[256];
        struct rb_db *db;
        rb_db_open(path, RB_DB_READ, &db, err, sizeof err);
        return rb_cli_usage_error("db: %s", err);
    }
    if (strcmp(sub, "info") == 0)
        return info(path);
    if (first == 0)
        return rb_cli_usage_error("db import: give one or more run directories");
    return import(path, argv + 2, first, quiet);
}

void rb_db_import_after_run(const char *store, const char *run_dir, int quiet)
{
    char path[PATH_MAX + 32], err[PATH_MAX + 512];
    struct rb_db_import_stats st;
    struct rb_db *db;
    int status;

    if (!store && !rb_db_built())
        return;                 /* nothing asked for, nothing to say */
    if (!store) {
        const char *slash = strrchr(run_dir, '/');
        if (slash)
            snprintf(path, sizeof path, "%.*s/reprobench.db", (int)(slash - run_dir), run_dir);
        else
            snprintf(path, sizeof path, "reprobench.db");
        store = path;
    }
    if ((status = rb_db_open(store, RB_DB_WRITE, &db, err, sizeof err)) == 0) {
        status = rb_db_import(db, run_dir, &st, err, sizeof err);
        rb_db_close(db);
    }
    if (status)
        fprintf(stderr, "reprobench: warning: the run is not in the store: %s (the run "
                "directory is complete; 'reprobench db import %s' retries)\n", err, run_dir);
    else if (!quiet)
        fprintf(stderr, "reprobench: %zu records into the store %s\n", st.added + st.replaced,
                store);
}
