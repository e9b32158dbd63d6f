/* SPDX-License-Identifier: MIT */
/* The options of `reprobench run`, as a table (harness/cli/cli_opts.h): what a
 * sweep runs (its plan, harness/run/plan.h) and how this session goes. */
#ifndef RB_RUN_OPTS_H
#define RB_RUN_OPTS_H

#include "harness/cli/cli_opts.h"
#include "harness/run/plan.h"

/* The table's ids; those up to RUN_OPT_PLAN_END are part of the plan. */
enum rb_run_opt {
    RUN_OPT_PAPER, RUN_OPT_ALGO, RUN_OPT_VARIANT, RUN_OPT_BACKEND, RUN_OPT_PREC,
    RUN_OPT_PRESET, RUN_OPT_WARMUP, RUN_OPT_MIN_SAMPLES, RUN_OPT_MAX_SAMPLES,
    RUN_OPT_MIN_TIME, RUN_OPT_MAX_TIME, RUN_OPT_SEED, RUN_OPT_DEVICE, RUN_OPT_CL_DIR,
    RUN_OPT_PLAN_END,
    RUN_OPT_OUT = RUN_OPT_PLAN_END, RUN_OPT_RESUME, RUN_OPT_NO_PLOT, RUN_OPT_NO_CEILINGS,
    RUN_OPT_DRY_RUN, RUN_OPT_QUIET, RUN_OPT_DB, RUN_OPT_NO_DB,
    RUN_OPT_PLAN_DIR, RUN_OPT_SHARD,
    RUN_OPT_DEVICES, RUN_OPT_WORKER
};

struct rb_run_opts {
    struct rb_plan_spec plan;
    const char *out, *resume, *db;
    int no_plot, no_ceilings, dry_run, quiet, no_db;
    int seed_given;
    struct rb_cli_seen seen;            /* which options were given */
    const char *plan_dir;               /* --plan: a submitted sweep's run directory */
    int shard_i, shard_k;               /* --shard I/K: this shard's share of it */
    const char *worker;                 /* --worker RUN_DIR: one device's worker of it */
};

/* Parse run's arguments (argv[0] is "run") into o, the plan's defaults
 * first (the seed from the clock unless --seed).  Returns 0; -1 after
 * --help; 2 after one line on stderr. */
int rb_run_opts_parse(int argc, char **argv, struct rb_run_opts *o);

/* With --resume: the plan and axis options o was given must equal the
 * stored plan's.  0, or 2 after one line naming the first that differs. */
int rb_run_opts_check_resume(const struct rb_run_opts *o, const struct rb_plan_spec *stored);

/* Whether the option with this id was given. */
int rb_run_opts_given(const struct rb_run_opts *o, int id);
/* The option's name ("--paper") of an id. */
const char *rb_run_opts_name(int id);

#endif
