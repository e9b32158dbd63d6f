/* SPDX-License-Identifier: MIT */
/* The plan side of `submit` and `status`: a new sweep's run directory, and
 * which of a submitted sweep's cases each shard has recorded. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "harness/cli/cli.h"
#include "harness/ctx.h"
#include "harness/error.h"
#include "harness/run/plan.h"
#include "harness/records/record.h"
#include "harness/records/results.h"
#include "harness/cli/run_opts.h"
#include "harness/slurm/shard.h"
#include "harness/slurm/submit.h"
#include "harness/slurm/submit_plan.h"
#include "harness/run/sweep.h"

/* The plan's cases as run would plan them on this host. */
static int plan_cases(const struct rb_plan_spec *p, struct rb_ctx *ctx, struct rb_plan *plan)
{
    char err[1024];

    ctx->seed = p->seed;
    ctx->quiet = 1;
    memcpy(ctx->device, p->device, sizeof ctx->device);
    if (p->cl_dir)
        ctx->cl_dir = p->cl_dir;
    rb_ctx_set_mem_limit(ctx);
    if (rb_sweep_plan(&p->sweep, ctx, plan, err, sizeof err))
        return rb_cli_usage_error("%s", err);
    return 0;
}

int rb_submit_plan_new(const struct rb_run_opts *o, int argc, char **argv, int k,
                       char *run_dir, char *tasks, size_t tlen, json_t **record)
{
    const char *parent = o->out ? o->out : "results";
    struct rb_ctx ctx;
    struct rb_plan plan = { 0 };
    struct rb_run run;
    char err[1024];
    int rc;

    rb_ctx_init(&ctx);
    if ((rc = plan_cases(&o->plan, &ctx, &plan)))
        goto out_free_ctx;
    if ((size_t)k > plan.n) {
        rc = rb_cli_usage_error("submit: --shards %d: the plan has only %zu cases", k, plan.n);
        goto out_free_plan;
    }
    if (rb_run_create(&run, parent, err, sizeof err)) {
        rc = rb_cli_usage_error("--out %s: %s", parent, err);
        goto out_free_plan;
    }
    if (rb_run_write_meta(&run, argc, argv, &ctx, err, sizeof err)
        || rb_plan_store(run.dir, &o->plan, err, sizeof err)
        || rb_meta_set(run.dir, "shards", json_integer(k), err, sizeof err)
        || rb_shard_store(run.dir, &plan, &o->plan.policy, k, err, sizeof err)
        || !realpath(run.dir, run_dir)
        || !(*record = json_pack("{s:i, s:[]}", "shards", k, "submissions"))) {
        fprintf(stderr, "reprobench: submit: %s\n", err);
        rc = 1;
        rb_submit_remove(run.dir);
    } else {
        snprintf(tasks, tlen, k == 1 ? "1" : "1-%d", k);
    }
    rb_run_close(&run);
out_free_plan:
    rb_plan_free(&plan);
out_free_ctx:
    rb_ctx_release(&ctx);
    return rc;
}

int rb_submit_dry_run(const struct rb_run_opts *o, int k)
{
    struct rb_ctx ctx;
    struct rb_plan plan = { 0 };
    double *load = calloc((size_t)k + 1, sizeof *load);
    int *shard_of = NULL, rc;
    char label[512];

    rb_ctx_init(&ctx);
    if ((rc = plan_cases(&o->plan, &ctx, &plan)))
        goto out_free;
    if (!load || !(shard_of = calloc(plan.n + 1, sizeof *shard_of))
        || rb_shard_assign(&plan, &o->plan.policy, k, shard_of)) {
        rc = rb_cli_usage_error("out of memory");
        goto out_free;
    }
    for (size_t c = 0; c < plan.n; c++) {
        double est = rb_shard_estimate(&plan.cases[c], &o->plan.policy);

        rb_case_label(&plan.cases[c], label, sizeof label);
        printf("shard %d  %8.2f s  %s\n", shard_of[c], est, label);
        load[shard_of[c]] += est;
    }
    for (int i = 1; i <= k; i++)
        printf("shard %d: %.1f s estimated\n", i, load[i]);
    printf("%zu cases in %d shards\n", plan.n, k);
out_free:
    free(load);
    free(shard_of);
    rb_plan_free(&plan);
    rb_ctx_release(&ctx);
    return rc;
}

/* A job state in which it may still run a case. */
static int state_active(const char *st)
{
    static const char *const ended[] = { "", "COMPLETED", "CANCELLED", "FAILED", "TIMEOUT",
                                         "NODE_FAIL", "PREEMPTED", "OUT_OF_MEMORY",
                                         "BOOT_FAIL", "DEADLINE" };

    for (size_t i = 0; i < sizeof ended / sizeof *ended; i++)
        if (strcmp(st, ended[i]) == 0)
            return 0;
    return 1;
}

/* Refuse while the last submission may still write. */
static int check_idle(const char *run, const json_t *record, int k)
{
    const json_t *subs = json_object_get(record, "submissions");
    const json_t *last = json_array_get(subs, json_array_size(subs) - 1);
    long array = (long)json_integer_value(json_object_get(last, "array"));
    long merge = (long)json_integer_value(json_object_get(last, "merge"));
    char (*states)[32] = calloc((size_t)k + 1, sizeof *states), mstate[32];
    int rc = 0;

    if (!states)
        return rb_cli_usage_error("out of memory");
    if (last && rb_slurm_states(array, k, states, merge, mstate) == 0) {
        for (int i = 1; i <= k && !rc; i++)
            if (state_active(states[i]))
                rc = rb_cli_usage_error("submit --resume %s: shard %d is still %s (job "
                                        "%ld_%d); wait for it or scancel it", run, i,
                                        states[i], array, i);
        if (!rc && state_active(mstate))
            rc = rb_cli_usage_error("submit --resume %s: its merge is still %s (job %ld)",
                                    run, mstate, merge);
    }
    free(states);
    return rc;
}

int rb_submit_plan_resume(const char *run, int *k, char *run_dir, char *tasks, size_t tlen,
                          json_t **record)
{
    struct rb_shard_count *counts;
    size_t used = 0;
    int rc;

    if (!(*record = rb_submit_load(run)))
        return rb_cli_usage_error("submit --resume %s: no slurm.json here, not a submitted "
                                  "sweep", run);
    *k = (int)json_integer_value(json_object_get(*record, "shards"));
    if (*k < 1 || *k > RB_SHARD_MAX || !realpath(run, run_dir)) {
        json_decref(*record);
        return rb_cli_usage_error("submit --resume %s: slurm.json has no shard count", run);
    }
    if ((rc = check_idle(run, *record, *k)))
        goto out_free_record;
    if (!(counts = calloc((size_t)*k + 1, sizeof *counts))) {
        rc = rb_cli_usage_error("out of memory");
        goto out_free_record;
    }
    tasks[0] = '\0';
    if (!(rc = rb_submit_progress(run_dir, *k, counts)))
        for (int i = 1; i <= *k; i++)
            if (counts[i].left && used + 8 < tlen)
                used += (size_t)snprintf(tasks + used, tlen - used, "%s%d", used ? "," : "", i);
    free(counts);
out_free_record:
    if (rc) {
        json_decref(*record);
        *record = NULL;
    }
    return rc;
}

/* Shard i's recorded cases: key -> status. */
static json_t *shard_records(const char *run_dir, int i)
{
    char dir[PATH_MAX], path[PATH_MAX + 32], err[512];
    json_t *records, *rec, *by_key = json_object();
    size_t j;

    rb_shard_path(run_dir, i, dir, sizeof dir);
    snprintf(path, sizeof path, "%s/records.jsonl", dir);
    if (access(path, F_OK) != 0 || rb_records_load(path, &records, err, sizeof err) < 0)
        return by_key;
    json_array_foreach(records, j, rec) {
        const char *key = json_string_value(json_object_get(rec, "key"));
        if (key)
            json_object_set(by_key, key, json_object_get(rec, "status"));
    }
    json_decref(records);
    return by_key;
}

int rb_submit_progress(const char *run_dir, int k, struct rb_shard_count *counts)
{
    json_t **recs = calloc((size_t)k + 1, sizeof *recs), *assigned = rb_shard_load(run_dir), *v;
    const char *key;
    int rc = 0;

    if (!recs || !assigned) {
        rc = recs ? rb_cli_usage_error("%s: no shards.tsv, not a submitted sweep", run_dir)
                  : rb_cli_usage_error("out of memory");
        goto out_free;
    }
    for (int i = 1; i <= k; i++)
        recs[i] = shard_records(run_dir, i);
    json_object_foreach(assigned, key, v) {
        int i = (int)json_integer_value(v);
        struct rb_shard_count *n = &counts[i];
        const char *st;

        if (i < 1 || i > k)
            continue;
        st = json_string_value(json_object_get(recs[i], key));
        n->cases++;
        if (!st)
            n->left++;
        else if (strcmp(st, "failed") == 0)
            n->failed++;
        else
            n->done++;
    }
out_free:
    for (int i = 0; recs && i <= k; i++)
        json_decref(recs[i]);
    free(recs);
    json_decref(assigned);
    return rc;
}
