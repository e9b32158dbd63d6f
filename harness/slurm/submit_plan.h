/* SPDX-License-Identifier: MIT */
/* What `submit` submits: a new sweep's run directory with its plan, or the
 * shards of a submitted one that still have cases left; and each shard's
 * progress, for `status`. */
#ifndef RB_SUBMIT_PLAN_H
#define RB_SUBMIT_PLAN_H

#include <stddef.h>
#include <jansson.h>

struct rb_run_opts;

struct rb_shard_count {
    size_t cases, done, failed, left;       /* failed: recorded, status failed */
};

/* A new run directory under o->out (default results) with meta.json, the
 * plan and "shards": k; its absolute path into run_dir, "1-K" into tasks,
 * and a new slurm.json record into *record.  0, or an exit status after
 * one line on stderr (nothing left behind). */
int rb_submit_plan_new(const struct rb_run_opts *o, int argc, char **argv, int k,
                       char *run_dir, char *tasks, size_t tlen, json_t **record);

/* --dry-run: each case with its shard and estimated seconds, and each
 * shard's total; nothing made or submitted.  0, or an exit status. */
int rb_submit_dry_run(const struct rb_run_opts *o, int k);

/* A submitted sweep's shards with cases left as an sbatch --array list
 * ("" when none); *k its shard count; refused while a task of its last
 * submission is still queued or running.  0, or an exit status after one
 * line. */
int rb_submit_plan_resume(const char *run, int *k, char *run_dir, char *tasks, size_t tlen,
                          json_t **record);

/* Each shard's cases and progress (counts[1..k]) from the plan and the
 * shards' records.  0, or an exit status after one line. */
int rb_submit_progress(const char *run_dir, int k, struct rb_shard_count *counts);

#endif
