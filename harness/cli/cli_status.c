/* SPDX-License-Identifier: MIT */
/* reprobench status: a submitted sweep's shards, each with its Slurm state
 * (squeue, else scontrol; else what its records show) and its cases done,
 * failed and left, then the merge's state. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "harness/cli/cli.h"
#include "harness/slurm/shard.h"
#include "harness/slurm/submit.h"
#include "harness/slurm/submit_plan.h"

static const char usage[] =
    "usage: reprobench status RUN_DIR\n\n"
    "Each shard of a sweep from 'reprobench submit': its state in Slurm (or, where\n"
    "Slurm no longer knows it, from its records) and its cases done, failed, left.\n";

/* A shard Slurm does not know (any more): what its records say. */
static const char *state_of_records(const struct rb_shard_count *n)
{
    if (!n->left)
        return "finished";
    return n->done || n->failed ? "stopped" : "not started";
}

static void print_status(const char *dir, int k, const struct rb_shard_count *counts,
                         char (*states)[32], const char *mstate, long array, long merge)
{
    struct rb_shard_count all = { 0 };

    printf("%s: %d shards, array job %ld, merge job %ld\n", dir, k, array, merge);
    printf("%-6s %-12s %6s %6s %6s %6s\n", "shard", "state", "cases", "done", "failed", "left");
    for (int i = 1; i <= k; i++) {
        const struct rb_shard_count *n = &counts[i];

        printf("%-6d %-12s %6zu %6zu %6zu %6zu\n", i,
               states[i][0] ? states[i] : state_of_records(n), n->cases, n->done, n->failed,
               n->left);
        all.cases += n->cases, all.done += n->done;
        all.failed += n->failed, all.left += n->left;
    }
    printf("%-6s %-12s %6zu %6zu %6zu %6zu\n", "all", "", all.cases, all.done, all.failed,
           all.left);
    printf("merge  %s\n", mstate[0] ? mstate : "unknown to Slurm");
    if (all.left && !mstate[0])
        printf("%zu cases left: reprobench submit --resume %s\n", all.left, dir);
}

int rb_cli_status(int argc, char **argv)
{
    struct rb_shard_count *counts;
    char (*states)[32], mstate[32] = "";
    const json_t *subs, *last;
    json_t *record;
    long array, merge;
    int k, rc;

    if (argc == 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
        fputs(usage, stdout);
        return 0;
    }
    if (argc != 2 || argv[1][0] == '-')
        return rb_cli_usage_error("status: give one run directory (see 'reprobench status "
                                  "--help')");
    if (!(record = rb_submit_load(argv[1])))
        return rb_cli_usage_error("status: %s: no slurm.json here, not a submitted sweep",
                                  argv[1]);
    k = (int)json_integer_value(json_object_get(record, "shards"));
    subs = json_object_get(record, "submissions");
    last = json_array_get(subs, json_array_size(subs) - 1);
    array = (long)json_integer_value(json_object_get(last, "array"));
    merge = (long)json_integer_value(json_object_get(last, "merge"));
    counts = calloc((size_t)k + 1, sizeof *counts);
    states = calloc((size_t)k + 1, sizeof *states);
    if (k < 1 || k > RB_SHARD_MAX || !counts || !states) {
        rc = rb_cli_usage_error("status: %s/slurm.json: no shard count", argv[1]);
        goto out_free;
    }
    if ((rc = rb_submit_progress(argv[1], k, counts)))
        goto out_free;
    if (rb_slurm_states(array, k, states, merge, mstate) != 0)
        fprintf(stderr, "reprobench: status: no Slurm to ask (squeue not found); states "
                "from the records\n");
    print_status(argv[1], k, counts, states, mstate, array, merge);
out_free:
    free(counts);
    free(states);
    json_decref(record);
    return rc;
}
