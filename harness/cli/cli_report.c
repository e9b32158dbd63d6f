/* SPDX-License-Identifier: MIT */
/* reprobench report RUN_DIR: redraw the plots, then write the run's report
 * as HTML and Markdown; report --db: the results store's report across
 * machines (harness/store/report_store.c). */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "harness/cli/cli.h"
#include "harness/cli/cli_opts.h"
#include "harness/error.h"
#include "harness/run/lock.h"
#include "harness/report/plot.h"
#include "harness/report/report.h"
#include "harness/store/report_store.h"
#include "harness/records/results.h"

enum { REPORT_NO_PLOT, REPORT_QUIET, REPORT_DB, REPORT_OUT };

struct report_opts {
    const char *dir, *db, *out;
    int quiet, no_plot;
};

static const struct rb_opt report_table[] = {
    { RB_OPT_FLAG, "--no-plot", .id = REPORT_NO_PLOT,
      .help = "do not redraw the plots first (by default they are, when gnuplot\n"
              "is installed); figures already in RUN_DIR/plots are used" },
    { RB_OPT_FLAG, "--quiet", .id = REPORT_QUIET, .help = "print nothing but errors" },
    { RB_OPT_STRING, "--db", "FILE", .id = REPORT_DB,
      .help = "instead of a run, the results store: a report across its machines\n"
              "(one table per paper of the best configuration of every variant on\n"
              "every machine, the paper's claims on each, each variant's history)" },
    { RB_OPT_STRING, "--out", "DIR", .id = REPORT_OUT,
      .help = "where the store's report goes (default: store-report beside FILE)" },
    { RB_OPT_END }
};

static int set_option(void *self, const struct rb_opt *o, const struct rb_opt_value *v)
{
    struct report_opts *r = self;

    switch (o->id) {
    case REPORT_NO_PLOT: r->no_plot = 1; break;
    case REPORT_QUIET: r->quiet = 1; break;
    case REPORT_DB: r->db = v->str; break;
    default: r->out = v->str; break;
    }
    return 0;
}

static int positional(void *self, const char *arg)
{
    struct report_opts *r = self;

    if (r->dir)
        return rb_cli_usage_error("report: one run directory only ('%s' and '%s')", r->dir,
                                  arg);
    r->dir = arg;
    return 0;
}

static const struct rb_cli report_cli = {
    .command = "report",
    .synopsis =
    "usage: reprobench report [--no-plot] [--quiet] RUN_DIR\n"
    "       reprobench report --db FILE [--out DIR] [--quiet]\n"
    "\n"
    "Write RUN_DIR/report/index.html and its Markdown twin RUN_DIR/report/README.md:\n"
    "the hardware, the build, and for each paper its figures, the best configuration\n"
    "of every variant at every size, the cases that did not succeed and the paper's\n"
    "claims against the same ratios measured in this run.  The figures are copied\n"
    "beside them, so the report folder can be moved or published alone.\n"
    "\n"
    "Prints the path of index.html.  Exit status: 0, 1 when writing failed, 2 for\n"
    "bad input (not a run directory, a malformed records.jsonl line, the run in use\n"
    "by another process).\n\n",
    .opts = report_table,
    .set = set_option,
    .positional = positional,
};

/* The plots (unless no_plot), then the pages.  Returns an exit status. */
static int write_report(const char *dir, int quiet, int no_plot, char *index, size_t indexlen,
                        char *err, size_t errlen)
{
    char gnuplot[PATH_MAX];
    int rc;

    if (!no_plot && rb_plot_find_gnuplot(gnuplot, sizeof gnuplot) == 0
        && (rc = rb_plot_run(dir, quiet, err, errlen))) {
        if (rc == RB_EINVAL)
            return rb_cli_usage_error("%s", err);
        if (!quiet)
            fprintf(stderr, "reprobench: plots not drawn: %s\n", err);
    }
    if ((rc = rb_report_write(dir, index, indexlen, err, errlen))) {
        if (rc == RB_EINVAL)
            return rb_cli_usage_error("%s", err);
        fprintf(stderr, "reprobench: %s\n", err);
        return 1;
    }
    return 0;
}

/* report --db FILE [--out DIR].  Returns an exit status. */
static int report_store(const struct report_opts *o)
{
    char dir[PATH_MAX], index[PATH_MAX + 64], err[PATH_MAX + 256];
    const char *slash;
    int rc;

    if (!o->db)
        return rb_cli_usage_error("report: --out goes with --db (a run's report goes to "
                                  "RUN_DIR/report)");
    if (o->dir)
        return rb_cli_usage_error("report: a run directory or --db, not both");
    slash = strrchr(o->db, '/');
    if (o->out)
        snprintf(dir, sizeof dir, "%s", o->out);
    else if (slash)
        snprintf(dir, sizeof dir, "%.*s/store-report", (int)(slash - o->db), o->db);
    else
        snprintf(dir, sizeof dir, "store-report");
    if ((rc = rb_report_store_write(o->db, dir, o->quiet, index, sizeof index, err,
                                    sizeof err))) {
        if (rc == RB_EINVAL || rc == RB_ENODEV)
            return rb_cli_usage_error("report: %s", err);
        fprintf(stderr, "reprobench: report: %s\n", err);
        return 1;
    }
    if (!o->quiet)
        printf("%s\n", index);
    return 0;
}

int rb_cli_report(int argc, char **argv)
{
    char dir[PATH_MAX], index[PATH_MAX + 64], err[PATH_MAX + 256];
    struct report_opts o = { 0 };
    int quiet, no_plot, rc, lock;
    struct stat st;
    size_t len;

    if ((rc = rb_cli_parse(&report_cli, argc, argv, &o, NULL)))
        return rc < 0 ? 0 : rc;
    if (o.db || o.out)
        return report_store(&o);
    quiet = o.quiet;
    no_plot = o.no_plot;
    if (!o.dir || !*o.dir)
        return rb_cli_usage_error("report: give a run directory (see 'reprobench report "
                                  "--help')");
    snprintf(dir, sizeof dir, "%s", o.dir);
    for (len = strlen(dir); len > 1 && dir[len - 1] == '/'; len--)
        dir[len - 1] = '\0';
    snprintf(index, sizeof index, "%s/records.jsonl", dir);
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode) || stat(index, &st) != 0)
        return rb_cli_usage_error("report: %s is not a run directory (no records.jsonl)",
                                  dir);
    if ((rc = rb_lock_take(dir, &lock, err, sizeof err))) {
        fprintf(stderr, "reprobench: %s\n", err);
        return rc == RB_EINVAL ? 2 : 1;
    }
    rc = write_report(dir, quiet, no_plot, index, sizeof index, err, sizeof err);
    rb_lock_release(lock);
    if (rc == 0 && !quiet)
        printf("%s\n", index);
    return rc;
}
