/* SPDX-License-Identifier: MIT */
/* A run's plan as `run` reads it back (harness/run/plan.h keeps it, this
 * adds what needs run's options: the command of an older run parsed again,
 * and a shard's directory). */
#ifndef RB_RUN_PLAN_H
#define RB_RUN_PLAN_H

#include <stddef.h>
#include "harness/cli/run_opts.h"
#include "harness/run/plan.h"

/* The plan of run_dir: meta.json's "plan", or for a run recorded before
 * plans were stored, its "command" parsed again with its "seed".  0, or
 * RB_EINVAL (no meta.json, no plan in it) / RB_EIO with err. */
int rb_run_plan_load(const char *run_dir, struct rb_plan_spec *p, char *err, size_t errlen);

/* `run --plan DIR --shard I/K`: make DIR/shards/I if new (meta.json with
 * DIR's plan, an empty records.jsonl), then let run resume it: o->resume
 * points at it (in dir), and the store and plots are left to the merge.
 * 0, or 2 after one line on stderr. */
int rb_shard_begin(struct rb_run_opts *o, char *dir, size_t dirlen);

#endif
