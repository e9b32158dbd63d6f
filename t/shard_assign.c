/* SPDX-License-Identifier: MIT */
/* The shard assignment: every case in exactly one shard, the same plan
 * always split the same way, shards within one case's estimate of each
 * other, the estimate bounded by the policy, and the stored assignment
 * (shards.tsv) read back as it was written. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "harness/slurm/shard.h"
#include "harness/variant.h"
#include "t/tap.h"

#define NCASES 40
#define K 3

/* n^3 floating-point operations and no bytes: estimates that differ. */
static void cubic_work(const struct rb_case *c, double *flops, double *bytes)
{
    double n = (double)c->params[0].value;
    *flops = n * n * n;
    *bytes = 0;
}

static const struct rb_variant cubic = { .paper = "t", .algo = "a", .name = "cubic",
                                         .work = cubic_work };
static const struct rb_variant unknown = { .paper = "t", .algo = "a", .name = "unknown" };

static void make_plan(struct rb_plan *plan, struct rb_case *cases)
{
    for (int c = 0; c < NCASES; c++) {
        memset(&cases[c], 0, sizeof cases[c]);
        cases[c].v = c % 5 ? &cubic : &unknown;
        cases[c].nparams = 1;
        cases[c].params[0].name = "n";
        cases[c].params[0].value = 40 * (c + 1);
        cases[c].prec = RB_PREC_F32;
    }
    plan->n = NCASES;
    plan->cases = cases;
}

static void check_estimates(const struct rb_policy *pol)
{
    struct rb_case c = { .v = &unknown, .nparams = 1, .params = { { "n", 8 } } };
    struct rb_case big = { .v = &cubic, .nparams = 1, .params = { { "n", 100000 } } };
    double t = 1e15 * 1e-9;

    tap_ok(rb_shard_estimate(&c, pol) == pol->min_time_s,
           "a case of unknown work is estimated at min-time");
    tap_ok(rb_shard_estimate(&big, pol) == pol->warmup * t + pol->max_time_s,
           "a huge case is its warm-up and max-time");
}

int main(void)
{
    struct rb_policy pol = { .warmup = 1, .min_samples = 10, .max_samples = 1000,
                             .min_time_s = 0.05, .max_time_s = 15 };
    struct rb_case cases[NCASES], copy[NCASES];
    int a[NCASES], b[NCASES], in_shards[NCASES] = { 0 }, st = 1, total = 0;
    double load[K + 1] = { 0 }, most = 0, lo = 1e300, hi = 0;
    struct rb_plan plan;
    char dir[] = "/tmp/rb-shard-assign.XXXXXX", err[512], key[512];
    json_t *stored;

    tap_plan(8);
    check_estimates(&pol);
    make_plan(&plan, cases);
    if (rb_shard_assign(&plan, &pol, K, a) || rb_shard_assign(&plan, &pol, K, b))
        return 1;
    for (int c = 0; c < NCASES; c++) {
        double e = rb_shard_estimate(&cases[c], &pol);
        st &= a[c] >= 1 && a[c] <= K;
        load[a[c]] += e;
        most = e > most ? e : most;
    }
    tap_ok(st, "every case has a shard in 1..%d", K);
    tap_ok(memcmp(a, b, sizeof a) == 0, "the same plan gives the same assignment");
    for (int i = 1; i <= K; i++) {
        lo = load[i] < lo ? load[i] : lo;
        hi = load[i] > hi ? load[i] : hi;
    }
    tap_ok(hi - lo <= most, "the shards' estimates differ by at most one case's (%.2f..%.2f s, "
           "largest case %.2f s)", lo, hi, most);

    for (int i = 1; i <= K; i++) {
        struct rb_plan p;
        memcpy(copy, cases, sizeof cases);
        p.n = NCASES;
        p.cases = copy;
        rb_shard_filter(&p, &pol, i, K, "/nonexistent");
        total += (int)p.n;
        for (size_t j = 0; j < p.n; j++)
            in_shards[(copy[j].params[0].value / 40) - 1]++;
    }
    st = total == NCASES;
    for (int c = 0; c < NCASES; c++)
        st &= in_shards[c] == 1;
    tap_ok(st, "the %d shards' filters split the plan, each case once", K);

    if (!mkdtemp(dir))
        return 1;
    tap_ok(rb_shard_store(dir, &plan, &pol, K, err, sizeof err) == 0, "shards.tsv written");
    stored = rb_shard_load(dir);
    st = stored && json_object_size(stored) == NCASES;
    for (int c = 0; st && c < NCASES; c++) {
        rb_case_key(&cases[c], key, sizeof key);
        st = json_integer_value(json_object_get(stored, key)) == a[c];
    }
    tap_ok(st, "shards.tsv reads back as the assignment");
    json_decref(stored);
    snprintf(err, sizeof err, "%s/shards.tsv", dir);
    unlink(err);
    rmdir(dir);
    return tap_done();
}
