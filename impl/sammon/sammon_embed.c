/* SPDX-License-Identifier: MIT */
/* sammon-embed: the Sammon mapping of a shipped data set, a CSV file or
 * generated points to 2 or 3 dimensions with the peers' update rules, on
 * the host in fp64 or on a GPU in float (sammon_engine.h), written as a
 * TSV and optionally drawn as a PNG. */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif
#include "harness/ctx.h"
#include "harness/error.h"
#include "harness/timer.h"
#include "impl/sammon/sammon_embed.h"

static const char usage[] =
    "usage: sammon-embed --data iris|digits|FILE.csv|random:NxD [options]\n"
    "Map the data to 2 (or 3) dimensions by Sammon's mapping and write one row per\n"
    "point: x y [z] label.\n"
    "  --data NAME     iris or digits (shipped; RB_DATA_DIR overrides where), a CSV\n"
    "                  of numeric rows whose last column is an integer label (a first\n"
    "                  line that is not all numbers is a header), or random:NxD, N\n"
    "                  points uniform in [0, 255]^D drawn from --seed (labels 0)\n"
    "  --dedup         keep the first of each set of equal rows (Sammon's stress\n"
    "                  divides by the distance, so duplicates are an error otherwise)\n"
    "  --init R        pca (uncentred, as Cawley's sammon.m), cmdscale (centred\n"
    "                  classical MDS, as R MASS) or random (uniform in [0, mean\n"
    "                  distance)); default cmdscale for --rule mass, else pca\n"
    "  --rule R        newton (Sammon's pseudo-Newton, factor 0.3), gd (plain\n"
    "                  gradient descent, step 0.3 of the mean distance at most),\n"
    "                  mass (R MASS: adaptive factor) or cawley (sammon.m: step\n"
    "                  halving); default cawley\n"
    "  --iters N       at most N iterations (default 100 for mass, else 500); newton\n"
    "                  and gd also stop when the stress changes by < 1e-9 relative;\n"
    "                  --max-iter is the same\n"
    "  --outdim M      2 (default) or 3\n"
    "  --backend B     where the work runs: serial or omp (double precision on the\n"
    "                  host, one thread or all), cuda, hip or opencl (single precision\n"
    "                  on the device, the stress summed in double); default the first\n"
    "                  GPU found (cuda, hip, opencl), else omp\n"
    "  --threads T     omp's threads (default OMP_NUM_THREADS or all)\n"
    "  --tile T        GPUs: points per tile side of the pass, 64 (default) or 128\n"
    "  --seed S        seed of --init random and of --data random (default 1)\n"
    "  --out FILE      write the TSV to FILE (through FILE.tmp); default stdout\n"
    "  --plot FILE     also draw the map's first two coordinates as a PNG (gnuplot)\n"
    "  --help          this text\n"
    "Progress (every 10 iterations: the stress, the time taken and left) and the\n"
    "final stress go to stderr.  Exit status: 0 done, 1 failure, 2 bad input.\n";

#define parse_int(...) rb_prog_parse_int("sammon-embed", __VA_ARGS__)

static int pick(const char *opt, const char *val, const char *const *names, int *out)
{
    for (int k = 0; names[k]; k++)
        if (strcmp(val, names[k]) == 0) {
            *out = k;
            return 0;
        }
    return complain(2, "%s: '%s' is not one of the choices (see --help)", opt, val);
}

/* One valued option; 0 or the exit status. */
static int set_option(struct embed_options *o, const char *opt, const char *val)
{
    static const char *const rules[] = { "newton", "gd", "mass", "cawley", NULL };
    static const char *const inits[] = { "pca", "cmdscale", "random", NULL };
    long long v;
    int k = 0, rc = 0;
    if (strcmp(opt, "--data") == 0)
        o->data = val;
    else if (strcmp(opt, "--out") == 0)
        o->out = val;
    else if (strcmp(opt, "--plot") == 0)
        o->plot = val;
    else if (strcmp(opt, "--backend") == 0 && !(rc = embed_engine_known(val)))
        o->backend = val;
    else if (strcmp(opt, "--rule") == 0 && !(rc = pick(opt, val, rules, &k)))
        o->rule = (enum embed_rule)k;
    else if (strcmp(opt, "--init") == 0 && !(rc = pick(opt, val, inits, &k)))
        o->init = (enum embed_init)(k + 1);
    else if ((!strcmp(opt, "--iters") || !strcmp(opt, "--max-iter"))
             && !(rc = parse_int(opt, val, 1, INT_MAX, &v)))
        o->iters = (int)v;
    else if (strcmp(opt, "--outdim") == 0 && !(rc = parse_int(opt, val, 2, 3, &v)))
        o->outdim = (int)v;
    else if (strcmp(opt, "--threads") == 0 && !(rc = parse_int(opt, val, 1, 4096, &v)))
        o->threads = (int)v;
    else if (strcmp(opt, "--tile") == 0 && !(rc = parse_int(opt, val, 64, 128, &v))) {
        if (v != 64 && v != 128)
            return complain(2, "--tile: '%s' is not 64 or 128", val);
        o->tile = (int)v;
    } else if (strcmp(opt, "--seed") == 0 && !(rc = parse_int(opt, val, 0, LLONG_MAX, &v)))
        o->seed = (unsigned long long)v;
    return rc;
}

static int parse_options(int argc, char **argv, struct embed_options *o)
{
    static const char *const valued[] = { "--data", "--init", "--rule", "--iters",
                                          "--max-iter", "--outdim", "--seed", "--out",
                                          "--plot", "--backend", "--threads", "--tile", NULL };
    *o = (struct embed_options){ .outdim = 2, .rule = RULE_CAWLEY, .seed = 1, .iters = -1,
                                 .tile = 64 };
    for (int a = 1; a < argc; a++) {
        const char *opt = argv[a];
        int known = 0, rc;
        if (strcmp(opt, "--help") == 0) {
            fputs(usage, stdout);
            return -1;
        }
        if (strcmp(opt, "--dedup") == 0) {
            o->dedup = 1;
            continue;
        }
        for (int k = 0; valued[k]; k++)
            known |= strcmp(opt, valued[k]) == 0;
        if (!known)
            return complain(2, "unknown option '%s' (see --help)", opt);
        if (a + 1 >= argc)
            return complain(2, "%s needs a value", opt);
        if ((rc = set_option(o, opt, argv[++a])) != 0)
            return rc;
    }
    if (!o->data)
        return complain(2, "--data is required (iris, digits, FILE.csv or random:NxD; see "
                        "--help)");
    if (o->iters < 0)
        o->iters = o->rule == RULE_MASS ? 100 : 500;
    if (o->init == INIT_DEFAULT)
        o->init = o->rule == RULE_MASS ? INIT_CMDSCALE : INIT_PCA;
    return 0;
}

/* The progress line every 10 iterations: its stress, the time since the
 * iterations began and, at that pace, the time to the iteration cap. */
struct progress {
    uint64_t t0;
    int iters;
};

static void trace(int iter, double stress, void *arg)
{
    const struct progress *p = arg;
    if (iter % 10)
        return;
    double s = rb_ms_since(p->t0) / 1e3;
    fprintf(stderr, "iteration %4d: stress %.7f, %.2f s elapsed, ETA %.2f s\n", iter, stress, s,
            s / iter * (p->iters - iter));
}

/* The pca or cmdscale start, from the data on the host. */
static int start_pca(const struct rb_dataset *d, const struct embed_options *o, double *y)
{
    int N = d->N, n = d->n, m = o->outdim, rc = 0;
    if (o->init == INIT_PCA && (rc = embed_check_pca_scale(d)) != 0)
        return rc;
    double *xc = malloc((size_t)N * n * sizeof *xc);
    if (!xc)
        return complain(1, "out of memory");
    memcpy(xc, d->x, (size_t)N * n * sizeof *xc);
    /* cmdscale on Euclidean distances is the PCA of the centred data. */
    for (int q = 0; o->init == INIT_CMDSCALE && q < n; q++) {
        double mean = 0.0;
        for (int p = 0; p < N; p++)
            mean += xc[(size_t)p * n + q];
        mean /= N;
        for (int p = 0; p < N; p++)
            xc[(size_t)p * n + q] -= mean;
    }
    if (sammon_init_pca(N, n, m, xc, y) != 0)
        rc = complain(2, "%s: the data have fewer than %d independent directions, so %s "
                      "cannot start in %d dimensions (try --init random)", d->name, m,
                      o->init == INIT_PCA ? "pca" : "cmdscale", m);
    free(xc);
    return rc;
}

/* The rule from y, through the engine; the iterations taken (or < 0). */
static int run_rule(const struct embed_options *o, struct sammon_engine *e, double *y,
                    double *stress, struct progress *p)
{
    struct sammon_eval ev = sammon_engine_evaluator(e);
    int N = e->N, m = e->m;
    p->iters = o->iters;
    p->t0 = rb_now_ns();
    if (o->rule == RULE_MASS) {
        struct sammon_mass_opts mo = { .niter = o->iters, .magic = 0.2, .tol = 1e-4,
                                       .trace = trace, .arg = p };
        return sammon_run_mass_with(N, m, &ev, y, &mo, stress);
    }
    if (o->rule == RULE_CAWLEY) {
        struct sammon_cawley_opts co = { .maxiter = o->iters, .maxhalves = 20, .tolfun = 1e-9,
                                         .trace = trace, .arg = p };
        return sammon_run_cawley_with(N, m, &ev, y, &co, stress);
    }
    struct sammon_fixed_opts fo = { .iters = o->iters, .newton = o->rule == RULE_NEWTON,
                                    .mf = SAMMON_MAGIC, .lambda = SAMMON_GD_LAMBDA,
                                    .tol = 1e-9, .trace = trace, .arg = p };
    return sammon_run_fixed_with(N, m, &ev, y, &fo, stress);
}

/* Times of the run's phases, for the summary line. */
struct phases {
    uint64_t t0;
    double data, start, setup, iterate, output;
};

static void summary(const struct phases *t, const struct sammon_engine *e, int it, double e_fin)
{
    static const char *const form = "time: data %.3f s, start %.3f s, setup %.3f s, %d "
                                    "iterations %.3f s (%.3f ms each), output %.3f s; total "
                                    "%.3f s\n";
    fprintf(stderr, form, t->data, t->start, t->setup, it, t->iterate,
            it ? t->iterate * 1e3 / it : 0.0, t->output, rb_ms_since(t->t0) / 1e3);
    fprintf(stderr, "stress %.7f after %d iterations (textbook E = (1/c) sum (d*-d)^2/d*; "
            "Cawley's sammon.m reports E/2 = %.7f)\n", e_fin, it, e_fin / 2);
    (void)e;
}

/* Engine, start, rule, checks, outputs; y (N x m) is the caller's. */
static int embed_run(const struct embed_options *o, struct rb_dataset *d, const int *keep,
                     const struct sammon_engine_ops *ops, struct rb_ctx *ctx, double *y,
                     struct phases *t)
{
    static const char *const names[] = { "newton", "gd", "mass", "cawley" };
    struct sammon_engine e;
    struct progress p;
    int N = d->N, m = o->outdim, rc = 0, it;
    double stress = 0.0;
    uint64_t t1 = rb_now_ns();
    if (o->init != INIT_RANDOM && (rc = start_pca(d, o, y)) != 0)
        return rc;
    t->start = rb_ms_since(t1) / 1e3;
    const struct sammon_engine_opts eo = { .tile = o->tile };
    if ((rc = sammon_engine_open(&e, ops, ctx, N, d->n, m, &eo, d->x)) != 0) {
        rc = complain(rc == RB_EINVAL ? 2 : 1, "%s: %s: %s", d->name, ops->name, e.msg);
        goto out_close;
    }
    t->setup = e.setup_s;
    if (o->init == INIT_RANDOM)        /* uniform in [0, mean distance): c from the engine */
        sammon_init_random(o->seed, N, m, e.c / (0.5 * N * (N - 1.0)), y);
    fprintf(stderr, "%s: %d points, %d dimensions -> %d, rule %s, backend %s (%s: %s)\n",
            d->name, N, d->n, m, names[o->rule], ops->name, e.device, e.form);
    it = run_rule(o, &e, y, &stress, &p);
    t->iterate = rb_ms_since(p.t0) / 1e3;
    if (it < 0) {
        rc = complain(1, "%s: %s", ops->name, it == RB_ENOMEM ? "out of memory" : e.msg);
        goto out_close;
    }
    if ((rc = embed_check_finite(d, y, N * m, stress, it, o->out)) != 0)
        goto out_close;
    t1 = rb_now_ns();
    if ((rc = embed_write_tsv(o, d, y, keep, N)) == 0 && o->plot)
        rc = embed_plot(o, d, y, keep, N);
    t->output = rb_ms_since(t1) / 1e3;
    if (rc == 0)
        summary(t, &e, it, stress);
out_close:
    sammon_engine_close(&e);
    return rc;
}

static int embed(const struct embed_options *o, struct rb_dataset *d, struct phases *t)
{
    const struct sammon_engine_ops *ops = NULL;
    struct rb_ctx ctx;
    int *keep = malloc((size_t)d->N * sizeof *keep), rc;
    double *y = NULL;
    rb_ctx_init(&ctx);
    ctx.seed = o->seed;
    if (!keep) {
        rc = complain(1, "out of memory");
        goto out_release;
    }
    if ((rc = embed_duplicates(d, o->dedup, keep)) != 0)
        goto out_free;
    rc = d->N < 2 ? complain(2, "%s: Sammon's mapping needs at least 2 points", d->name) : 0;
    if (rc || (rc = embed_check_extent(d)) != 0 || (rc = embed_pick_engine(o->backend, &ctx,
                                                                          &ops)) != 0)
        goto out_free;
    if (!(y = malloc((size_t)d->N * o->outdim * sizeof *y))) {
        rc = complain(1, "out of memory");
        goto out_free;
    }
    rc = embed_run(o, d, keep, ops, &ctx, y, t);
    free(y);
out_free:
    free(keep);
out_release:
    rb_ctx_release(&ctx);
    return rc;
}

int main(int argc, char **argv)
{
    struct embed_options o;
    struct rb_dataset d;
    struct phases t = { .t0 = rb_now_ns() };
    int rc = parse_options(argc, argv, &o);
    if (rc)
        return rc < 0 ? 0 : rc;
    if ((rc = embed_probe_outputs(&o)) != 0)
        return rc;
#ifdef _OPENMP
    if (o.threads > 0)
        omp_set_num_threads(o.threads);
#endif
    if ((rc = embed_load(o.data, o.seed, &d)) != 0)
        return rc;
    t.data = rb_ms_since(t.t0) / 1e3;
    rc = embed(&o, &d, &t);
    rb_dataset_free(&d);
    return rc;
}
