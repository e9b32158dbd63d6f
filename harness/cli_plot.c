/* SPDX-License-Identifier: MIT */
/* reprobench plot DIR: redraw a run's plots from its records alone. */
#include <stdio.h>
#include <string.h>
#include "harness/cli.h"
#include "harness/error.h"
#include "harness/plot.h"

static const char usage[] =
    "usage: reprobench plot [--quiet] RUN_DIR\n"
    "\n"
    "Regenerate RUN_DIR/records.tsv from records.jsonl and draw every figure of the\n"
    "papers present into RUN_DIR/plots/ (PNG and PDF) with gnuplot.  The scripts\n"
    "are read from $RB_PLOTS_DIR, else the installed plots folder.\n";

int rb_cli_plot(int argc, char **argv)
{
    const char *dir = NULL;
    int quiet = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            fputs(usage, stdout);
            return 0;
        } else if (strcmp(argv[i], "--quiet") == 0) {
            quiet = 1;
        } else if (argv[i][0] == '-') {
            return rb_cli_usage_error("plot: unknown option '%s'", argv[i]);
        } else if (dir) {
            return rb_cli_usage_error("plot: one run directory only ('%s' and '%s')", dir,
                                      argv[i]);
        } else {
            dir = argv[i];
        }
    }
    if (!dir)
        return rb_cli_usage_error("plot: give a run directory (see 'reprobench plot --help')");
    char err[512];
    int rc = rb_plot_run(dir, quiet, err, sizeof err);
    if (rc) {
        fprintf(stderr, "reprobench: %s\n", err);
        return rc == RB_EINVAL ? 2 : 1;
    }
    return 0;
}
