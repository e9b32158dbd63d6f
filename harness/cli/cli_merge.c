/* SPDX-License-Identifier: MIT */
/* reprobench merge: a submitted sweep's shards into its run directory
 * (records.jsonl, records.tsv and best.tsv, the report with its plots) and
 * into the results store; the job that submit queues after the shards. */
#include <stdio.h>
#include <string.h>
#include "harness/cli/cli.h"
#include "harness/cli/cli_opts.h"
#include "harness/store/db.h"
#include "harness/error.h"
#include "harness/run/lock.h"
#include "harness/records/results.h"
#include "harness/slurm/shard.h"
#include "harness/slurm/submit.h"

enum { MERGE_DB, MERGE_NO_DB, MERGE_NO_PLOT, MERGE_QUIET };

struct merge_opts {
    const char *dir, *db;
    int no_db, no_plot, quiet;
};

static const struct rb_opt merge_table[] = {
    { RB_OPT_STRING, "--db", "FILE", .id = MERGE_DB,
      .help = "import into this store (default: reprobench.db beside the run)" },
    { RB_OPT_FLAG, "--no-db", .id = MERGE_NO_DB, .help = "do not import into a store" },
    { RB_OPT_FLAG, "--no-plot", .id = MERGE_NO_PLOT, .help = "do not draw plots" },
    { RB_OPT_FLAG, "--quiet", .id = MERGE_QUIET, .help = "print nothing but errors" },
    { RB_OPT_END }
};

static int set_option(void *self, const struct rb_opt *o, const struct rb_opt_value *v)
{
    struct merge_opts *m = self;

    switch (o->id) {
    case MERGE_DB: m->db = v->str; break;
    case MERGE_NO_DB: m->no_db = 1; break;
    case MERGE_NO_PLOT: m->no_plot = 1; break;
    default: m->quiet = 1; break;
    }
    return 0;
}

static int positional(void *self, const char *arg)
{
    struct merge_opts *m = self;

    if (m->dir)
        return rb_cli_usage_error("merge: one run directory only");
    m->dir = arg;
    return 0;
}

static const struct rb_cli merge_cli = {
    .command = "merge",
    .synopsis = "usage: reprobench merge [options] RUN_DIR\n\n"
                "The shards of a sweep that 'reprobench submit' made, merged into RUN_DIR\n"
                "and imported into the store (Slurm runs this after the shards).\n\n",
    .opts = merge_table,
    .set = set_option,
    .positional = positional,
};

int rb_cli_merge(int argc, char **argv)
{
    struct merge_opts o = { 0 };
    char err[PATH_MAX + 256];
    char *report_argv[5] = { "report", "--quiet" };
    json_t *record;
    size_t n;
    int rc, k, lock, nr = 2;

    if ((rc = rb_cli_parse(&merge_cli, argc, argv, &o, NULL)))
        return rc < 0 ? 0 : rc;
    if (!o.dir)
        return rb_cli_usage_error("merge: give the sweep's run directory");
    if (o.db && o.no_db)
        return rb_cli_usage_error("merge: --db and --no-db exclude each other");
    if (!(record = rb_submit_load(o.dir)))
        return rb_cli_usage_error("merge: %s: no slurm.json here, not a submitted sweep", o.dir);
    k = (int)json_integer_value(json_object_get(record, "shards"));
    json_decref(record);
    if (k < 1 || k > RB_SHARD_MAX)
        return rb_cli_usage_error("merge: %s/slurm.json: no shard count", o.dir);
    if ((rc = rb_lock_take(o.dir, &lock, err, sizeof err))) {
        fprintf(stderr, "reprobench: %s\n", err);
        return rc == RB_EINVAL ? 2 : 1;
    }
    if ((rc = rb_shard_merge(o.dir, k, &n, err, sizeof err))
        || (rc = rb_run_write_tsv(o.dir, err, sizeof err))) {
        fprintf(stderr, "reprobench: merge: %s\n", err);
        rb_lock_release(lock);
        return rc == RB_EINVAL ? 2 : 1;
    }
    if (!o.no_db)
        rb_db_import_after_run(o.db, o.dir, o.quiet);
    rb_lock_release(lock);
    if (!o.quiet)
        fprintf(stderr, "reprobench: merged %zu records from %d shards into %s\n", n, k, o.dir);
    if (o.no_plot)
        report_argv[nr++] = "--no-plot";
    report_argv[nr++] = (char *)o.dir;
    return rb_cli_report(nr, report_argv);
}
