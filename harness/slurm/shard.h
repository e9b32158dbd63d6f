/* SPDX-License-Identifier: MIT */
/* A sweep split into shards: which cases shard I of K runs (spread by
 * their estimated time), where it records them (RUN/shards/I, a run
 * directory of its own with its own lock and records.jsonl), and the merge
 * of the shards' records into the sweep's run directory. */
#ifndef RB_SHARD_H
#define RB_SHARD_H

#include <stddef.h>
#include <jansson.h>
#include "harness/run/measure.h"
#include "harness/run/sweep.h"

#define RB_SHARD_MAX 1000

/* "I/K" with 1 <= I <= K <= RB_SHARD_MAX.  0, or -1. */
int rb_shard_parse(const char *s, int *i, int *k);

/* A case's expected seconds under the policy (docs/slurm.md says how). */
double rb_shard_estimate(const struct rb_case *c, const struct rb_policy *pol);

/* shard_of[c] (1..k) for every case of the plan: longest estimate first,
 * each to the shard with the least time so far.  The same plan always gives
 * the same assignment.  0, or RB_ENOMEM. */
int rb_shard_assign(const struct rb_plan *plan, const struct rb_policy *pol, int k,
                    int *shard_of);

/* RUN/shards.tsv: the assignment submit made, one line per case
 * ("I<TAB>KEY<TAB>SECONDS"), so that every shard, status and --resume use
 * the same one whatever host reads it.  0, or RB_EIO / RB_ENOMEM with err. */
int rb_shard_store(const char *run_dir, const struct rb_plan *plan,
                   const struct rb_policy *pol, int k, char *err, size_t errlen);
/* RUN/shards.tsv as an object: case key -> shard (an integer); NULL when
 * there is none or it cannot be read. */
json_t *rb_shard_load(const char *run_dir);

/* Keep only shard i of k's cases in plan: those shards.tsv in run_dir
 * gives it, or where there is none, those rb_shard_assign does.  0, or
 * RB_ENOMEM. */
int rb_shard_filter(struct rb_plan *plan, const struct rb_policy *pol, int i, int k,
                    const char *run_dir);

/* RUN/shards/I into buf. */
void rb_shard_path(const char *run_dir, int i, char *buf, size_t len);

/* What each record of a shard carries: {"node": {"host", "machine" (the
 * store's fingerprint), "name"}} from its hardware.json; NULL when it
 * cannot be read. */
json_t *rb_shard_stamp(const char *shard_dir);

/* Every shard's records (1..k) as RUN/records.jsonl, each case once (the
 * first shard's record of a key wins; shards never share a case), written
 * whole through a temporary; the first shard's hardware.json and hw.xml
 * copied beside them.  *nrec: the records written.  0, or RB_EIO /
 * RB_EINVAL / RB_ENOMEM with err. */
int rb_shard_merge(const char *run_dir, int k, size_t *nrec, char *err, size_t errlen);

#endif
