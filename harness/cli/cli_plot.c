/* SPDX-License-Identifier: MIT */
/* reprobench plot DIR: redraw a run's plots from its records alone. */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include "harness/cli/cli.h"
#include "harness/cli/cli_opts.h"
#include "harness/error.h"
#include "harness/run/lock.h"
#include "harness/report/plot.h"
#include "harness/records/results.h"

enum { PLOT_QUIET };

struct plot_opts {
    const char *dir;
    int quiet;
};

static const struct rb_opt plot_table[] = {
    { RB_OPT_FLAG, "--quiet", .id = PLOT_QUIET, .help = "print nothing but errors" },
    { RB_OPT_END }
};

static int set_option(void *self, const struct rb_opt *o, const struct rb_opt_value *v)
{
    (void)o;
    (void)v;
    ((struct plot_opts *)self)->quiet = 1;
    return 0;
}

static int positional(void *self, const char *arg)
{
    struct plot_opts *p = self;

    if (p->dir)
        return rb_cli_usage_error("plot: one run directory only ('%s' and '%s')", p->dir, arg);
    p->dir = arg;
    return 0;
}

static const struct rb_cli plot_cli = {
    .command = "plot",
    .synopsis = "usage: reprobench plot [--quiet] RUN_DIR\n"
                "\n"
                "Regenerate RUN_DIR/records.tsv from records.jsonl and draw every figure of the\n"
                "papers present into RUN_DIR/plots/ (PNG and PDF) with gnuplot.  The scripts\n"
                "are read from $RB_PLOTS_DIR, else the installed plots folder.  A figure the\n"
                "records cannot draw is listed with the reason in plots/not-drawn.tsv.\n"
                "Exit status: 0, 1 when writing failed, 2 for bad input (not a run directory,\n"
                "a malformed record, the run in use by another process).\n\n",
    .opts = plot_table,
    .set = set_option,
    .positional = positional,
};

int rb_cli_plot(int argc, char **argv)
{
    struct plot_opts p = { 0 };
    char err[PATH_MAX + 256], records[PATH_MAX + 16];
    struct stat st;
    int rc, lock;

    if ((rc = rb_cli_parse(&plot_cli, argc, argv, &p, NULL)))
        return rc < 0 ? 0 : rc;
    if (!p.dir)
        return rb_cli_usage_error("plot: give a run directory (see 'reprobench plot --help')");
    snprintf(records, sizeof records, "%s/records.jsonl", p.dir);
    if (stat(p.dir, &st) != 0 || !S_ISDIR(st.st_mode) || stat(records, &st) != 0)
        return rb_cli_usage_error("plot: %s is not a run directory (no records.jsonl)", p.dir);
    if ((rc = rb_lock_take(p.dir, &lock, err, sizeof err))) {
        fprintf(stderr, "reprobench: %s\n", err);
        return rc == RB_EINVAL ? 2 : 1;
    }
    rc = rb_plot_run(p.dir, p.quiet, err, sizeof err);
    rb_lock_release(lock);
    if (rc) {
        fprintf(stderr, "reprobench: %s\n", err);
        return rc == RB_EINVAL ? 2 : 1;
    }
    return 0;
}
