/* SPDX-License-Identifier: MIT */
/* reprobench embed (and its alias sammon-embed): the Sammon mapping of a
 * shipped data set, a CSV file or generated points to 2 or 3 dimensions
 * with the peers' update rules, on the host in fp64 or on a GPU in float
 * (sammon_engine.h), written as a TSV and optionally drawn as a PNG. */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif
#include "harness/backend/backend.h"
#include "harness/cli/cli.h"
#include "harness/cli/cli_opts.h"
#include "harness/ctx.h"
#include "harness/error.h"
#include "harness/run/timer.h"
#include "harness/cli/embed_engines.h"
#include "impl/sammon/sammon_embed.h"
#include "impl/sammon/sammon_embed_io.h"

enum embed_opt { EO_DATA, EO_DEDUP, EO_INIT, EO_RULE, EO_ITERS, EO_OUTDIM, EO_BACKEND, EO_DEVICE,
                 EO_THREADS, EO_TILE, EO_SEED, EO_OUT, EO_PLOT };

/* The options, from which the parser checks values and --help is written;
 * the backend row's help names what this build has (embed_engine_names). */
static const struct rb_opt embed_table[] = {
    { RB_OPT_STRING, "--data", "NAME", .id = EO_DATA,
      .help = "iris or digits (shipped; RB_DATA_DIR overrides where), a CSV\n"
              "of numeric rows whose last column is an integer label (a first\n"
              "line that is not all numbers is a header), or random:NxD, N\n"
              "points uniform in [0, 255]^D drawn from --seed (labels 0)" },
    { RB_OPT_FLAG, "--dedup", NULL, .id = EO_DEDUP,
      .help = "keep the first of each set of equal rows (Sammon's stress\n"
              "divides by the distance, so duplicates are an error otherwise)" },
    { RB_OPT_CHOICE, "--init", "R", .choices = "pca,cmdscale,random", .id = EO_INIT,
      .help = "pca (uncentred, as Cawley's sammon.m), cmdscale (centred\n"
              "classical MDS, as R MASS) or random (uniform in [0, mean\n"
              "distance)); default cmdscale for --rule mass, else pca" },
    { RB_OPT_CHOICE, "--rule", "R", .choices = "newton,gd,mass,cawley", .id = EO_RULE,
      .help = "newton (Sammon's pseudo-Newton, factor 0.3), gd (plain\n"
              "gradient descent, step 0.3 of the mean distance at most),\n"
              "mass (R MASS: adaptive factor) or cawley (sammon.m: step\n"
              "halving); default cawley" },
    { RB_OPT_INT, "--iters", "N", 1, INT_MAX, .id = EO_ITERS,
      .help = "at most N iterations (default 100 for mass, else 500); newton\n"
              "and gd also stop when the stress changes by < 1e-9 relative" },
    { RB_OPT_INT, "--max-iter", "N", 1, INT_MAX, .id = EO_ITERS, .help = "the same as --iters" },
    { RB_OPT_INT, "--outdim", "M", 2, 3, .id = EO_OUTDIM, .help = "2 (default) or 3" },
    { RB_OPT_STRING, "--backend", "B", .id = EO_BACKEND,
      .help = "where the work runs: serial or omp (double precision on the\n"
              "host, one thread or all), cuda, hip or opencl (single precision\n"
              "on the device, the stress summed in double); default the first\n"
              "GPU found (cuda, hip, opencl), else omp" },
    { RB_OPT_STRING, "--device", "B:N", .id = EO_DEVICE,
      .help = "the device, as 'reprobench info' names it: cuda:N, hip:N,\n"
              "opencl:P:D or opencl:D; its backend unless --backend names\n"
              "it (default: device 0, or OpenCL's first GPU)" },
    { RB_OPT_INT, "--threads", "T", 1, 4096, .id = EO_THREADS,
      .help = "omp's threads (default OMP_NUM_THREADS or all)" },
    { RB_OPT_CHOICE, "--tile", "T", .choices = "64,128", .id = EO_TILE,
      .help = "GPUs: points per tile side of the pass, 64 (default) or 128" },
    { RB_OPT_INT, "--seed", "S", 0, LLONG_MAX, .id = EO_SEED,
      .help = "seed of --init random and of --data random (default 1)" },
    { RB_OPT_STRING, "--out", "FILE", .id = EO_OUT,
      .help = "write the TSV to FILE (through FILE.tmp); default stdout" },
    { RB_OPT_STRING, "--plot", "FILE", .id = EO_PLOT,
      .help = "also draw the map's first two coordinates as a PNG (gnuplot)" },
    { RB_OPT_TEXT, .help = "  --help             this text\n"
      "Progress (every 10 iterations: the stress, the time taken and left) and the\n"
      "final stress go to stderr.  Exit status: 0 done, 1 failure, 2 bad input." },
    { RB_OPT_END }
};

static int embed_set(void *self, const struct rb_opt *r, const struct rb_opt_value *v)
{
    struct embed_options *o = self;
    switch ((enum embed_opt)r->id) {
    case EO_DATA: o->data = v->str; break;
    case EO_DEDUP: o->dedup = 1; break;
    case EO_INIT: o->init = (enum embed_init)(v->i + 1); break;
    case EO_RULE: o->rule = (enum embed_rule)v->i; break;
    case EO_ITERS: o->iters = (int)v->i; break;
    case EO_OUTDIM: o->outdim = (int)v->i; break;
    case EO_BACKEND:
        if (embed_engine_known(v->str))
            return 2;
        o->backend = v->str;
        break;
    case EO_DEVICE: {
        char err[256];
        rb_device_picks_default(o->pick);       /* given again: the last counts */
        if (rb_device_parse(v->str, o->pick, err, sizeof err))
            return complain(2, "%s", err);
        o->device = v->str;
        break;
    }
    case EO_THREADS: o->threads = (int)v->i; break;
    case EO_TILE: o->tile = v->i ? 128 : 64; break;
    case EO_SEED: o->seed = (unsigned long long)v->i; break;
    case EO_OUT: o->out = v->str; break;
    case EO_PLOT: o->plot = v->str; break;
    }
    return 0;
}

/* --device's backend is the one that runs: --backend names it too, or is
 * left out. */
static int device_backend(struct embed_options *o)
{
    for (int b = 0; b < RB_BACKEND_COUNT; b++) {
        const char *name = rb_backend_name((enum rb_backend)b);
        if (o->pick[b].index < 0 && o->pick[b].platform < 0)
            continue;
        if (o->backend && strcmp(o->backend, name) != 0)
            return complain(2, "--device %s: not a device of --backend %s", o->device,
                            o->backend);
        o->backend = name;
    }
    return 0;
}

static int parse_options(int argc, char **argv, struct embed_options *o)
{
    char synopsis[400];
    snprintf(synopsis, sizeof synopsis,
             "usage: %s --data iris|digits|FILE.csv|random:NxD [options]\n"
             "Map the data to 2 (or 3) dimensions by Sammon's mapping and write one row per\n"
             "point: x y [z] label.\n", sammon_embed_prog);
    const struct rb_cli cli = { .command = "embed", .synopsis = synopsis, .opts = embed_table,
                                .set = embed_set, .last_wins = 1 };
    *o = (struct embed_options){ .outdim = 2, .rule = RULE_CAWLEY, .seed = 1, .iters = -1,
                                 .tile = 64 };
    rb_device_picks_default(o->pick);
    int rc = rb_cli_parse(&cli, argc, argv, o, NULL);
    if (rc)
        return rc;
    if (!o->data)
        return complain(2, "--data is required (iris, digits, FILE.csv or random:NxD; see "
                        "--help)");
    if (o->iters < 0)
        o->iters = o->rule == RULE_MASS ? 100 : 500;
    if (o->device && (rc = device_backend(o)) != 0)
        return rc;
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

/* The pca or cmdscale start, from the data on the host (cmdscale from a
 * centred copy). */
static int start_pca(const struct rb_dataset *d, const struct embed_options *o, double *y)
{
    int N = d->N, n = d->n, m = o->outdim, rc = 0;
    if (o->init == INIT_PCA && (rc = embed_check_pca_scale(d)) != 0)
        return rc;
    double *xc = NULL;
    if (o->init == INIT_CMDSCALE && !(xc = embed_centred(d)))
        return complain(1, "out of memory");
    if (sammon_init_pca(N, n, m, xc ? xc : d->x, y) != 0)
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

/* Times of the run's phases, for the summary line; the device's start
 * runs beside data, checks and start, and `waited` is the part of it they
 * did not cover. */
struct phases {
    uint64_t t0;
    double data, checks, start, waited, setup, iterate, output;
};

static void summary(const struct phases *t, const struct embed_start *st, int it,
                    double e_fin)
{
    static const char *const form = "time: data %.3f s, start %.3f s, setup %.3f s, %d "
                                    "iterations %.3f s (%.3f ms each), output %.3f s; checks "
                                    "%.3f s; device choice and start %.3f s beside data, "
                                    "checks and start, %.3f s of it waited for; total "
                                    "%.3f s\n";
    fprintf(stderr, form, t->data, t->start, t->setup, it, t->iterate,
            it ? t->iterate * 1e3 / it : 0.0, t->output, t->checks, st->seconds, t->waited,
            rb_ms_since(t->t0) / 1e3);
    fprintf(stderr, "stress %.7f after %d iterations (textbook E = (1/c) sum (d*-d)^2/d*; "
            "Cawley's sammon.m reports E/2 = %.7f)\n", e_fin, it, e_fin / 2);
}

/* Whether --backend leaves room for a device engine. */
static int maybe_device(const char *backend)
{
    return !backend || (strcmp(backend, "serial") != 0 && strcmp(backend, "omp") != 0);
}

/* Start, engine, rule, checks, outputs; y (N x m) is the caller's.  The
 * engine is the one the device's start st picked: waited for here, once
 * the input checks have passed and the start is computed.  The inputs in
 * float that a device engine uploads are made before the wait too. */
static int embed_run(const struct embed_options *o, struct rb_dataset *d, const int *keep,
                     struct embed_start *st, double *y, struct phases *t)
{
    static const char *const names[] = { "newton", "gd", "mass", "cawley" };
    struct sammon_engine e;
    struct sammon_floats fl = { 0 };
    struct progress p;
    int N = d->N, m = o->outdim, rc = 0, it;
    double stress = 0.0;
    uint64_t t1 = rb_now_ns();
    if (o->init != INIT_RANDOM && (rc = start_pca(d, o, y)) != 0)
        return rc;
    t->start = rb_ms_since(t1) / 1e3;
    t1 = rb_now_ns();
    if (maybe_device(o->backend) && sammon_floats_make(N, d->n, d->x, &fl) != 0)
        return complain(1, "out of memory");
    t->checks += rb_ms_since(t1) / 1e3;
    if ((rc = embed_start_end(st, &t->waited)) != 0) {
        sammon_floats_free(&fl);
        return complain(rc, "%s", st->why);
    }
    const struct sammon_engine_ops *ops = st->ops;
    const struct sammon_engine_opts eo = { .tile = o->tile,
                                           .floats = ops->gpu && fl.xf ? &fl : NULL };
    rc = sammon_engine_open(&e, ops, st->ctx, N, d->n, m, &eo, d->x);
    sammon_floats_free(&fl);
    if (rc != 0) {
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
    /* The map is on the host: the engine and its device are given back
     * beside the checks and the outputs. */
    struct embed_finish fin;
    embed_finish_begin(&fin, &e, st->ctx);
    if ((rc = embed_check_finite(d, y, N * m, stress, it, o->out)) == 0) {
        t1 = rb_now_ns();
        if ((rc = embed_write_tsv(o, d, y, keep, N)) == 0 && o->plot)
            rc = embed_plot(o, d, y, keep, N);
        t->output = rb_ms_since(t1) / 1e3;
    }
    embed_finish_end(&fin);
    if (rc == 0)
        summary(t, st, it, stress);
    return rc;
out_close:
    sammon_engine_close(&e);
    return rc;
}

/* The input checks, then the run. */
static int embed(const struct embed_options *o, struct rb_dataset *d, struct embed_start *st,
                 struct phases *t)
{
    int *keep = malloc((size_t)d->N * sizeof *keep), rc;
    double *y = NULL;
    uint64_t t1 = rb_now_ns();
    if (!keep)
        return complain(1, "out of memory");
    if ((rc = embed_duplicates(d, o->dedup, keep)) != 0)
        goto out_free;
    rc = d->N < 2 ? complain(2, "%s: Sammon's mapping needs at least 2 points", d->name) : 0;
    if (rc || (rc = embed_check_extent(d)) != 0)
        goto out_free;
    t->checks = rb_ms_since(t1) / 1e3;
    if (!(y = malloc((size_t)d->N * o->outdim * sizeof *y))) {
        rc = complain(1, "out of memory");
        goto out_free;
    }
    rc = embed_run(o, d, keep, st, y, t);
    free(y);
out_free:
    free(keep);
    return rc;
}

int sammon_embed_main(const char *prog, int argc, char **argv)
{
    struct embed_options o;
    struct rb_dataset d;
    struct rb_ctx ctx;
    struct embed_start st;
    struct phases t = { .t0 = rb_now_ns() };
    sammon_embed_prog = prog;
    int rc = parse_options(argc, argv, &o);
    if (rc)
        return rc < 0 ? 0 : rc;
    if ((rc = embed_probe_outputs(&o)) != 0)
        return rc;
#ifdef _OPENMP
    if (o.threads > 0)
        omp_set_num_threads(o.threads);
#endif
    rb_ctx_init(&ctx);
    ctx.seed = o.seed;
    memcpy(ctx.device, o.pick, sizeof ctx.device);
    embed_start_begin(&st, o.backend, &ctx);
    if ((rc = embed_load(o.data, o.seed, &d)) == 0) {
        t.data = rb_ms_since(t.t0) / 1e3;
        rc = embed(&o, &d, &st, &t);
        rb_dataset_free(&d);
    }
    embed_start_end(&st, NULL);         /* the device's start, where the run stopped early */
    rb_ctx_release(&ctx);
    return rc;
}
