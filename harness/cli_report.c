/* SPDX-License-Identifier: MIT */
/* reprobench report RUN_DIR: redraw the plots, then write the run's report
 * as HTML and Markdown. */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "harness/cli.h"
#include "harness/error.h"
#include "harness/plot.h"
#include "harness/report.h"
#include "harness/report_store.h"
#include "harness/results.h"

static const char usage[] =
    "usage: reprobench report [--no-plot] [--quiet] RUN_DIR\n"
    "       reprobench report --db FILE [--out DIR] [--quiet]\n"
    "\n"
    "Write RUN_DIR/report/index.html and its Markdown twin RUN_DIR/report/README.md:\n"
    "the hardware, the build, and for each paper its figures, the best configuration\n"
    "of every variant at every size, the cases that did not succeed and the paper's\n"
    "claims against the same ratios measured in this run.  The figures are copied\n"
    "beside them, so the report folder can be moved or published alone.\n"
    "\n"
    "  --no-plot   do not redraw the plots first (by default they are, when gnuplot\n"
    "              is installed); figures already in RUN_DIR/plots are used\n"
    "  --quiet     print nothing but errors\n"
    "  --db FILE   instead of a run, the results store: a report across its machines\n"
    "              (one table per paper of the best configuration of every variant on\n"
    "              every machine, the paper's claims on each, each variant's history)\n"
    "  --out DIR   where the store's report goes (default: store-report beside FILE)\n"
    "\n"
    "Prints the path of index.html.  Exit status: 0, 1 when writing failed, 2 for\n"
    "bad input (not a run directory, a malformed records.jsonl line).\n";

/* report --db FILE [--out DIR]. */
static int report_store(const char *db, const char *out, const char *given, int quiet)
{
    char dir[PATH_MAX], index[PATH_MAX + 64], err[PATH_MAX + 256];
    const char *slash;
    int rc;

    if (!db)
        return rb_cli_usage_error("report: --out goes with --db (a run's report goes to "
                                  "RUN_DIR/report)");
    if (given)
        return rb_cli_usage_error("report: a run directory or --db, not both");
    slash = strrchr(db, '/');
    if (out)
        snprintf(dir, sizeof dir, "%s", out);
    else if (slash)
        snprintf(dir, sizeof dir, "%.*s/store-report", (int)(slash - db), db);
    else
        snprintf(dir, sizeof dir, "store-report");
    if ((rc = rb_report_store_write(db, dir, quiet, index, sizeof index, err, sizeof err))) {
        if (rc == RB_EINVAL || rc == RB_ENODEV)
            return rb_cli_usage_error("report: %s", err);
        fprintf(stderr, "reprobench: report: %s\n", err);
        return 1;
    }
    if (!quiet)
        printf("%s\n", index);
    return 0;
}

int rb_cli_report(int argc, char **argv)
{
    char dir[PATH_MAX], index[PATH_MAX + 64], err[PATH_MAX + 256], gnuplot[PATH_MAX];
    const char *given = NULL, *db = NULL, *out = NULL;
    int quiet = 0, no_plot = 0, rc;
    struct stat st;
    size_t len;

    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            fputs(usage, stdout);
            return 0;
        } else if (strcmp(argv[i], "--quiet") == 0) {
            quiet = 1;
        } else if (strcmp(argv[i], "--no-plot") == 0) {
            no_plot = 1;
        } else if (strcmp(argv[i], "--db") == 0 || strcmp(argv[i], "--out") == 0) {
            if (i + 1 >= argc || !argv[i + 1][0])
                return rb_cli_usage_error("report: %s needs a value", argv[i]);
            *(argv[i][2] == 'd' ? &db : &out) = argv[i + 1];
            i++;
        } else if (argv[i][0] == '-') {
            return rb_cli_usage_error("report: unknown option '%s'", argv[i]);
        } else if (given) {
            return rb_cli_usage_error("report: one run directory only ('%s' and '%s')", given,
                                      argv[i]);
        } else {
            given = argv[i];
        }
    }
    if (db || out)
        return report_store(db, out, given, quiet);
    if (!given || !*given)
        return rb_cli_usage_error("report: give a run directory (see 'reprobench report "
                                  "--help')");
    snprintf(dir, sizeof dir, "%s", given);
    for (len = strlen(dir); len > 1 && dir[len - 1] == '/'; len--)
        dir[len - 1] = '\0';
    snprintf(index, sizeof index, "%s/records.jsonl", dir);
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode) || stat(index, &st) != 0)
        return rb_cli_usage_error("report: %s is not a run directory (no records.jsonl)",
                                  dir);
    if (!no_plot && rb_plot_find_gnuplot(gnuplot, sizeof gnuplot) == 0
        && (rc = rb_plot_run(dir, quiet, err, sizeof err))) {
        if (rc == RB_EINVAL)
            return rb_cli_usage_error("%s", err);
        if (!quiet)
            fprintf(stderr, "reprobench: plots not drawn: %s\n", err);
    }
    if ((rc = rb_report_write(dir, index, sizeof index, err, sizeof err))) {
        if (rc == RB_EINVAL)
            return rb_cli_usage_error("%s", err);
        fprintf(stderr, "reprobench: %s\n", err);
        return 1;
    }
    if (!quiet)
        printf("%s\n", index);
    return 0;
}
