/* SPDX-License-Identifier: MIT */
/* reprobench db import|info: load run directories into the results store,
 * and show what it holds; and the import at the end of a run. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/cli/cli.h"
#include "harness/cli/cli_opts.h"
#include "harness/store/db.h"
#include "harness/error.h"
#include "harness/records/results.h"

#define SYNOPSIS \
    "usage: reprobench db import [--db FILE] [--quiet] RUN_DIR...\n" \
    "       reprobench db info [--db FILE]\n" \
    "\n" \
    "import  load each run directory (meta.json, hardware.json, records.jsonl) into\n" \
    "        the store, one transaction a run: importing a run again adds only the\n" \
    "        records it gained since, so it is safe to repeat; a run whose records\n" \
    "        are malformed, cut short or hold a case twice is refused whole, and so\n" \
    "        is a run that another process is writing\n" \
    "info    the store's schema, its machines (one per distinct hardware) and runs\n" \
    "\n"

enum { DB_OPT_DB, DB_OPT_QUIET };

static const struct rb_opt db_table[] = {
    { RB_OPT_STRING, "--db", "FILE", .id = DB_OPT_DB,
      .help = "the store (default " RB_DB_DEFAULT "; created by import)" },
    { RB_OPT_FLAG, "--quiet", .id = DB_OPT_QUIET, .help = "import prints nothing but errors" },
    { RB_OPT_TEXT,
      .help = "\n'reprobench run' imports its run at the end (--no-db skips it).  Exit status: 0,\n"
              "1 when the store cannot be written (locked, a full disk), 2 for bad input (not a\n"
              "run directory, a malformed record, a run in use, a file that is not a store or\n"
              "is corrupt)." },
    { RB_OPT_END }
};

struct db_opts {
    const char *path;
    int quiet, info;
    char **dirs;                /* the run directories, in argv's order */
    int ndirs;
};

static int set_option(void *self, const struct rb_opt *opt, const struct rb_opt_value *v)
{
    struct db_opts *o = self;

    if (opt->id == DB_OPT_DB)
        o->path = v->str;
    else
        o->quiet = 1;
    return 0;
}

static int positional(void *self, const char *arg)
{
    struct db_opts *o = self;

    if (o->info)
        return rb_cli_usage_error("db info: unexpected argument '%s'", arg);
    o->dirs[o->ndirs++] = (char *)arg;
    return 0;
}

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

        if ((status = rb_db_import(db, dirs[i], 0, &st, err, sizeof err))) {
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
    struct rb_cli cli = { .command = "db", .synopsis = SYNOPSIS, .opts = db_table,
                          .set = set_option, .positional = positional };
    struct db_opts o = { .path = RB_DB_DEFAULT };
    const char *sub;
    int rc;

    if (argc < 2)
        return rb_cli_usage_error("db: give a command: import or info (see 'reprobench db "
                                  "--help')");
    sub = argv[1];
    if (strcmp(sub, "--help") == 0 || strcmp(sub, "-h") == 0) {
        rb_cli_help(&cli, stdout);
        return 0;
    }
    if (strcmp(sub, "import") == 0)
        cli.command = "db import";
    else if (strcmp(sub, "info") == 0)
        cli.command = "db info";
    else
        return rb_cli_usage_error("db: unknown command '%s' (import, info)", sub);
    o.info = strcmp(sub, "info") == 0;
    /* The run directories are among argv's; they stay there. */
    if (!(o.dirs = calloc((size_t)argc, sizeof *o.dirs))) {
        fprintf(stderr, "reprobench: db: out of memory\n");
        return 1;
    }
    if ((rc = rb_cli_parse(&cli, argc - 1, argv + 1, &o, NULL)))
        goto out_free_dirs;
    if (!rb_db_built()) {
        char err[256];
        struct rb_db *db;
        rb_db_open(o.path, RB_DB_READ, &db, err, sizeof err);
        rc = rb_cli_usage_error("db: %s", err);
    } else if (o.info) {
        rc = info(o.path);
    } else if (o.ndirs == 0) {
        rc = rb_cli_usage_error("db import: give one or more run directories");
    } else {
        rc = import(o.path, o.dirs, o.ndirs, o.quiet);
    }
out_free_dirs:
    free(o.dirs);
    return rc < 0 ? 0 : rc;
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
        status = rb_db_import(db, run_dir, RB_DB_IMPORT_LOCK_HELD, &st, err, sizeof err);
        rb_db_close(db);
    }
    if (status)
        fprintf(stderr, "reprobench: warning: the run is not in the store: %s (the run "
                "directory is complete; 'reprobench db import %s' retries)\n", err, run_dir);
    else if (!quiet)
        fprintf(stderr, "reprobench: %zu records into the store %s\n", st.added + st.replaced,
                store);
}
