/* SPDX-License-Identifier: MIT */
/* Shards of a sweep: the assignment of cases by estimated time, and a
 * shard's own run directory under its sweep's. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "harness/store/db.h"
#include "harness/error.h"
#include "harness/run/plan.h"
#include "harness/records/results.h"
#include "harness/slurm/shard.h"
#include "harness/variant.h"

int rb_shard_parse(const char *s, int *i, int *k)
{
    char *end;
    long a, b;

    errno = 0;
    a = strtol(s, &end, 10);
    if (end == s || *end != '/' || errno)
        return -1;
    s = end + 1;
    b = strtol(s, &end, 10);
    if (end == s || *end || errno || a < 1 || b < a || b > RB_SHARD_MAX)
        return -1;
    *i = (int)a;
    *k = (int)b;
    return 0;
}

/* A sample's time at a deliberately slow nominal device (1 GFLOP/s and
 * 1 GB/s): only the ratios between cases matter, and a case whose work is
 * unknown counts as instant.  The policy then bounds the case: warm-up runs,
 * then samples until both min_samples and min_time are reached, cut at
 * max_time. */
double rb_shard_estimate(const struct rb_case *c, const struct rb_policy *pol)
{
    double flops = 0, bytes = 0, t, timed;

    if (c->v->work)
        c->v->work(c, &flops, &bytes);
    t = flops * 1e-9 + bytes * 1e-9;
    timed = (double)pol->min_samples * t;
    if (timed < pol->min_time_s)
        timed = pol->min_time_s;
    if (timed > pol->max_time_s)
        timed = pol->max_time_s;
    return pol->warmup * t + timed;
}

struct est { size_t idx; double s; };

static int by_estimate(const void *a, const void *b)
{
    const struct est *x = a, *y = b;

    if (x->s != y->s)
        return x->s > y->s ? -1 : 1;
    return x->idx < y->idx ? -1 : x->idx > y->idx;
}

int rb_shard_assign(const struct rb_plan *plan, const struct rb_policy *pol, int k,
                    int *shard_of)
{
    struct est *e = calloc(plan->n ? plan->n : 1, sizeof *e);
    double *load = calloc((size_t)k, sizeof *load);

    if (!e || !load) {
        free(e);
        free(load);
        return RB_ENOMEM;
    }
    for (size_t c = 0; c < plan->n; c++) {
        e[c].idx = c;
        e[c].s = rb_shard_estimate(&plan->cases[c], pol);
    }
    qsort(e, plan->n, sizeof *e, by_estimate);
    for (size_t j = 0; j < plan->n; j++) {
        int best = 0;

        for (int s = 1; s < k; s++)
            if (load[s] < load[best])
                best = s;
        load[best] += e[j].s;
        shard_of[e[j].idx] = best + 1;
    }
    free(e);
    free(load);
    return 0;
}

int rb_shard_store(const char *run_dir, const struct rb_plan *plan,
                   const struct rb_policy *pol, int k, char *err, size_t errlen)
{
    int *shard_of = calloc(plan->n ? plan->n : 1, sizeof *shard_of);
    char path[PATH_MAX + 32], key[512], *text = NULL;
    size_t len = 0;
    FILE *f = NULL;
    int rc = RB_ENOMEM;

    if (!shard_of || rb_shard_assign(plan, pol, k, shard_of) || !(f = open_memstream(&text, &len)))
        goto out_free;
    for (size_t c = 0; c < plan->n; c++) {
        rb_case_key(&plan->cases[c], key, sizeof key);
        fprintf(f, "%d\t%s\t%.3f\n", shard_of[c], key,
                rb_shard_estimate(&plan->cases[c], pol));
    }
    fclose(f);
    f = NULL;
    snprintf(path, sizeof path, "%s/shards.tsv", run_dir);
    rc = rb_write_file_atomic(path, text ? text : "", err, errlen);
out_free:
    if (rc == RB_ENOMEM)
        snprintf(err, errlen, "shards.tsv: out of memory");
    if (f)
        fclose(f);
    free(text);
    free(shard_of);
    return rc;
}

json_t *rb_shard_load(const char *run_dir)
{
    char path[PATH_MAX + 32], line[1024], key[600];
    json_t *by_key;
    FILE *f;
    int i;

    snprintf(path, sizeof path, "%s/shards.tsv", run_dir);
    if (!(f = fopen(path, "r")))
        return NULL;
    if ((by_key = json_object()))
        while (fgets(line, sizeof line, f))
            if (sscanf(line, "%d\t%599[^\t\n]", &i, key) == 2)
                json_object_set_new(by_key, key, json_integer(i));
    fclose(f);
    return by_key;
}

int rb_shard_filter(struct rb_plan *plan, const struct rb_policy *pol, int i, int k,
                    const char *run_dir)
{
    int *shard_of = calloc(plan->n ? plan->n : 1, sizeof *shard_of);
    json_t *stored = rb_shard_load(run_dir);
    size_t kept = 0;
    char key[512];

    if (!shard_of || (!stored && rb_shard_assign(plan, pol, k, shard_of))) {
        free(shard_of);
        return RB_ENOMEM;
    }
    for (size_t c = 0; c < plan->n; c++) {
        if (stored) {
            rb_case_key(&plan->cases[c], key, sizeof key);
            shard_of[c] = (int)json_integer_value(json_object_get(stored, key));
        }
        if (shard_of[c] == i)
            plan->cases[kept++] = plan->cases[c];
    }
    plan->n = kept;
    json_decref(stored);
    free(shard_of);
    return 0;
}

void rb_shard_path(const char *run_dir, int i, char *buf, size_t len)
{
    snprintf(buf, len, "%s/shards/%d", run_dir, i);
}

json_t *rb_shard_stamp(const char *shard_dir)
{
    char path[PATH_MAX + 32], fp[64], name[256], host[256];
    json_t *hw, *stamp;
    const char *h;

    snprintf(path, sizeof path, "%s/hardware.json", shard_dir);
    if (!(hw = json_load_file(path, 0, NULL)))
        return NULL;
    if (rb_db_machine_of(hw, fp, sizeof fp, name, sizeof name)) {
        json_decref(hw);
        return NULL;
    }
    h = json_string_value(json_object_get(hw, "host"));
    if (!h && gethostname(host, sizeof host) == 0) {
        host[sizeof host - 1] = '\0';
        h = host;
    }
    stamp = json_pack("{s:{s:s, s:s, s:s}}", "node", "host", h ? h : "unknown",
                      "machine", fp, "name", name);
    json_decref(hw);
    return stamp;
}
