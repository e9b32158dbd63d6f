/* SPDX-License-Identifier: MIT */
/* reprobench: dispatch to the subcommands. */
#include "config.h"
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include "harness/cli/cli.h"

static const char usage[] =
    "usage: reprobench <command> [options]\n"
    "\n"
    "commands:\n"
    "  list    one line per variant: paper, algorithm, variant, backend, axes, availability\n"
    "  info    this machine: hwloc topology summary and every OpenCL/CUDA/HIP device\n"
    "  run     run a sweep, write a results directory (records, hardware, plots)\n"
    "  plot    regenerate the plots of a results directory\n"
    "  compare two results directories case by case: ratios, intervals, verdicts\n"
    "  report  a run's report: hardware, build, figures, best configurations, claims\n"
    "  db      the results store: import run directories, show what it holds\n"
    "  history one series's median and spread across the runs of the store\n"
    "  submit  a sweep as a Slurm job array of shards, merged and imported after them\n"
    "  status  a submitted sweep's shards: Slurm state, cases done, failed, left\n"
    "  merge   a submitted sweep's shards into its run (the job submit queues)\n"
    "  embed   a Sammon map of a data set (iris, digits, a CSV, random points)\n"
    "  learn   an SBO dictionary of image patches: RMSE trace, atoms, summary\n"
    "\n"
    "'reprobench <command> --help' describes each.  Exit status: 0 success, 1 a case\n"
    "failed or did not verify, 2 bad input.\n";

int main(int argc, char **argv)
{
    /* A file-size limit must be a write that fails (EFBIG), which every
     * writer reports with the file's name, not a kill with no message. */
    signal(SIGXFSZ, SIG_IGN);
    if (argc < 2)
        return rb_cli_usage_error("no command given (try 'reprobench --help')");
    const char *cmd = argv[1];
    if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0 || strcmp(cmd, "help") == 0) {
        fputs(usage, stdout);
        return 0;
    }
    if (strcmp(cmd, "--version") == 0) {
        printf("reprobench %s\n", PACKAGE_VERSION);
        return 0;
    }
    if (strcmp(cmd, "list") == 0)
        return rb_cli_list(argc - 1, argv + 1);
    if (strcmp(cmd, "info") == 0)
        return rb_cli_info(argc - 1, argv + 1);
    if (strcmp(cmd, "run") == 0)
        return rb_cli_run(argc - 1, argv + 1);
    if (strcmp(cmd, "plot") == 0)
        return rb_cli_plot(argc - 1, argv + 1);
    if (strcmp(cmd, "compare") == 0)
        return rb_cli_compare(argc - 1, argv + 1);
    if (strcmp(cmd, "report") == 0)
        return rb_cli_report(argc - 1, argv + 1);
    if (strcmp(cmd, "db") == 0)
        return rb_cli_db(argc - 1, argv + 1);
    if (strcmp(cmd, "history") == 0)
        return rb_cli_history(argc - 1, argv + 1);
    if (strcmp(cmd, "submit") == 0)
        return rb_cli_submit(argc - 1, argv + 1);
    if (strcmp(cmd, "status") == 0)
        return rb_cli_status(argc - 1, argv + 1);
    if (strcmp(cmd, "merge") == 0)
        return rb_cli_merge(argc - 1, argv + 1);
    if (strcmp(cmd, "embed") == 0)
        return rb_cli_embed(argc - 1, argv + 1);
    if (strcmp(cmd, "learn") == 0)
#if RB_HAVE_BLAS && RB_HAVE_OPENMP
        return rb_cli_learn(argc - 1, argv + 1);
#else
        return rb_cli_usage_error("learn: this reprobench was built without BLAS or OpenMP");
#endif
    return rb_cli_usage_error("unknown command '%s' (try 'reprobench --help')", cmd);
}
