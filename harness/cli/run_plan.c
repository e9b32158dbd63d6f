/* SPDX-License-Identifier: MIT */
/* A run's plan as `run` reads it back: from a run directory (its stored
 * plan, or, for a run recorded before plans were kept, its command parsed
 * again), and a shard's own run directory made from its sweep's. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <jansson.h>
#include "harness/cli/cli.h"
#include "harness/cli/run_opts.h"
#include "harness/cli/run_plan.h"
#include "harness/error.h"
#include "harness/records/results.h"
#include "harness/run/plan.h"
#include "harness/slurm/shard.h"

/* A run recorded before plans were kept: its command, parsed again. */
static int plan_of_command(json_t *meta, struct rb_plan_spec *p, char *err, size_t errlen)
{
    json_t *cmd = json_object_get(meta, "command"), *seed = json_object_get(meta, "seed");
    struct rb_run_opts o;
    size_t n = json_array_size(cmd);
    char **argv = calloc(n + 1, sizeof *argv);
    int rc = 0;

    if (!argv)
        return RB_ENOMEM;
    for (size_t i = 0; i < n; i++)
        if (!(argv[i] = (char *)json_string_value(json_array_get(cmd, i))))
            rc = RB_EINVAL;
    if (rc || n == 0 || strcmp(argv[0], "run") != 0 || !json_is_integer(seed)
        || rb_run_opts_parse((int)n, argv, &o) != 0) {
        free(argv);
        snprintf(err, errlen, "meta.json holds no plan, and its command cannot be re-planned");
        return RB_EINVAL;
    }
    free(argv);
    *p = o.plan;
    if (!o.seed_given)
        p->seed = (uint64_t)json_integer_value(seed);
    p->owner = json_incref(meta);
    return 0;
}

int rb_run_plan_load(const char *run_dir, struct rb_plan_spec *p, char *err, size_t errlen)
{
    char path[PATH_MAX + 16], why[256];
    json_error_t jerr;
    json_t *meta, *plan;
    int rc;

    rb_plan_spec_init(p);
    snprintf(path, sizeof path, "%s/meta.json", run_dir);
    if (!(meta = json_load_file(path, JSON_REJECT_DUPLICATES, &jerr))) {
        snprintf(err, errlen, "%s: %s", path, jerr.text);
        return RB_EINVAL;
    }
    plan = json_object_get(meta, "plan");
    if (plan)
        rc = rb_plan_from_json(plan, p, why, sizeof why);
    else
        rc = plan_of_command(meta, p, why, sizeof why);
    if (rc)
        snprintf(err, errlen, "%s: %s", path, why);
    json_decref(meta);
    return rc;
}

static int make_dir(const char *path)
{
    if (mkdir(path, 0777) == 0 || errno == EEXIST)
        return 0;
    fprintf(stderr, "reprobench: %s: %s\n", path, strerror(errno));
    return 2;
}

/* A new shard directory: meta.json naming the shard, the sweep's plan, an
 * empty records.jsonl last (it is what makes the folder a run directory). */
static int shard_create(const struct rb_run_opts *o, const char *dir,
                        const struct rb_plan_spec *plan)
{
    char path[PATH_MAX + 32], text[PATH_MAX + 128], err[1024];
    FILE *f;

    snprintf(path, sizeof path, "%s/meta.json", dir);
    snprintf(text, sizeof text, "{\"shard\": {\"index\": %d, \"of\": %d}}\n", o->shard_i,
             o->shard_k);
    if (rb_write_file_atomic(path, text, err, sizeof err)
        || rb_plan_store(dir, plan, err, sizeof err)) {
        fprintf(stderr, "reprobench: %s\n", err);
        return 2;
    }
    snprintf(path, sizeof path, "%s/records.jsonl", dir);
    if (!(f = fopen(path, "a")) || fclose(f)) {
        fprintf(stderr, "reprobench: %s: %s\n", path, strerror(errno));
        return 2;
    }
    return 0;
}

/* A sweep submitted as K shards is run as K shards. */
static int check_count(const struct rb_run_opts *o)
{
    char path[PATH_MAX + 32];
    json_t *meta;
    json_int_t k;

    snprintf(path, sizeof path, "%s/meta.json", o->plan_dir);
    if (!(meta = json_load_file(path, 0, NULL)))
        return 0;
    k = json_integer_value(json_object_get(meta, "shards"));
    json_decref(meta);
    if (k > 0 && k != o->shard_k)
        return rb_cli_usage_error("--shard %d/%d: %s was submitted as %lld shards", o->shard_i,
                                  o->shard_k, o->plan_dir, (long long)k);
    return 0;
}

int rb_shard_begin(struct rb_run_opts *o, char *dir, size_t dirlen)
{
    struct rb_plan_spec plan;
    char path[PATH_MAX + 32], err[1024];
    struct stat st;
    int rc;

    rb_plan_spec_init(&plan);
    if (rb_run_plan_load(o->plan_dir, &plan, err, sizeof err))
        return rb_cli_usage_error("--plan %s: %s", o->plan_dir, err);
    if ((rc = check_count(o)))
        goto out_free_plan;
    snprintf(path, sizeof path, "%s/shards", o->plan_dir);
    rb_shard_path(o->plan_dir, o->shard_i, dir, dirlen);
    if ((rc = make_dir(path)) || (rc = make_dir(dir)))
        goto out_free_plan;
    snprintf(path, sizeof path, "%s/records.jsonl", dir);
    if (stat(path, &st) != 0 && (rc = shard_create(o, dir, &plan)))
        goto out_free_plan;
    o->resume = dir;
    o->no_db = 1;
    o->no_plot = 1;
out_free_plan:
    rb_plan_spec_free(&plan);
    return rc;
}
