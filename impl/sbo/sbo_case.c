/* SPDX-License-Identifier: MIT */
/* The SBO case every backend shares: axes, the planted data (sbo_setup),
 * verification of both algorithms (sbo_case.h says how) and teardown. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "datasets/image_patches.h"
#include "datasets/planted.h"
#include "harness/backend/cpu.h"
#include "harness/error.h"
#include "impl/sbo/sbo_case.h"

/* p: the paper's 8x8 patches.  blocks: the notes' L = 4 (n = 256 atoms);
 * the paper preset's 16 is a guess at its grid (unconfirmed).  signals: the
 * paper's m is unknown; times against m up to 2^20 for the kernel.  The
 * defaults give every figure three sizes: the representation pass is cheap
 * on a CPU (0.14 s a run at 8192 serially), a whole training is not (22 s
 * at 8192), so training sweeps smaller m. */
static const long long p_all[] = { 64, RB_AXIS_END };
static const long long s_all[] = { 8, RB_AXIS_END };
static const long long blocks_deflt[] = { 4, RB_AXIS_END };
static const long long blocks_paper[] = { 16, RB_AXIS_END };
static const long long m_deflt[] = { 2048, 8192, 32768, RB_AXIS_END };
static const long long m_train_deflt[] = { 512, 1024, 2048, RB_AXIS_END };
static const long long m_quick[] = { 2048, RB_AXIS_END };
static const long long m_paper[] = { 16384, 32768, 65536, 131072, 262144, 524288, 1048576,
                                     RB_AXIS_END };
static const long long m_train_paper[] = { 8192, 16384, 32768, RB_AXIS_END };

#define SBO_SIZE_AXES(deflt_m, paper_m) \
    { .name = "p", .help = "signal dimension (8x8 patches: 64)", .min = 2, .max = 256, \
      .deflt = p_all, .quick = p_all, .paper = p_all }, \
    { .name = "s", .help = "sparsity per signal", .min = 1, .max = SBO_MAX_S, \
      .deflt = s_all, .quick = s_all, .paper = s_all }, \
    { .name = "blocks", .help = "orthonormal blocks L (given, or learned up to)", \
      .min = 1, .max = 256, .deflt = blocks_deflt, .quick = blocks_deflt, \
      .paper = blocks_paper }, \
    { .name = "signals", .help = "signals m (planted data)", .min = 1, .max = 1 << 24, \
      .deflt = deflt_m, .quick = m_quick, .paper = paper_m }

/* represent's signals: planted (0), or 8 x 8 patches of the shipped
 * photographs (1), a seeded random subset of m of their 1,128,216, the
 * blocks still the planted random orthonormal ones. */
static const long long images_all[] = { 0, RB_AXIS_END };

const struct rb_axis sbo_represent_sizes[] = {
    SBO_SIZE_AXES(m_deflt, m_paper),
    { .name = "images", .help = "1: signals are 8x8 patches of the shipped photographs",
      .min = 0, .max = 1, .deflt = images_all, .quick = images_all, .paper = images_all },
    { 0 }
};
const struct rb_axis sbo_train_sizes[] = {
    SBO_SIZE_AXES(m_train_deflt, m_train_paper),
    { 0 }
};

static const long long threads_deflt[] = { 1, 2, 4, 8, 16, RB_AXIS_END };
static const long long threads_quick[] = { 1, 2, RB_AXIS_END };
static const long long threads_paper[] = { 1, 2, 4, 8, 16, 32, 64, 128, RB_AXIS_END };

const struct rb_axis sbo_threads_axis[] = {
    { .name = "threads", .help = "OpenMP threads", .min = 1, .max = 1024,
      .deflt = threads_deflt, .quick = threads_quick, .paper = threads_paper },
    { 0 }
};

int sbo_admit(struct rb_case *c)
{
    long long threads = rb_case_param(c, "threads", 1);
    if (threads > rb_omp_max_threads())
        return rb_fail(c, RB_ESKIP, "threads=%lld > the %d cores OpenMP may use here",
                       threads, rb_omp_max_threads());
    if (rb_case_param(c, "s", 1) > rb_case_param(c, "p", 1))
        return rb_fail(c, RB_ESKIP, "s > p");
    if (rb_case_param(c, "images", 0) && rb_case_param(c, "p", 1) != SBO_IMAGE_P)
        return rb_fail(c, RB_ESKIP, "images=1 needs p=%d (8x8 patches)", SBO_IMAGE_P);
    return 0;
}

size_t sbo_footprint(const struct rb_case *c)
{
    size_t p = (size_t)rb_case_param(c, "p", 1), m = (size_t)rb_case_param(c, "signals", 1);
    size_t L = (size_t)rb_case_param(c, "blocks", 1), sz = rb_prec_size(c->prec);
    /* Y twice, D twice, the outputs, verify's energies of every block; the
     * planted generator's fp64 copy while setting up. */
    return p * m * (sz + 2 * sizeof(double)) + L * p * p * (sz + 2 * sizeof(double))
           + m * (sizeof(int) + sz + L * sizeof(double));
}

void sbo_represent_work(const struct rb_case *c, double *flops, double *bytes)
{
    double p = (double)rb_case_param(c, "p", 1), m = (double)rb_case_param(c, "signals", 1);
    double L = (double)rb_case_param(c, "blocks", 1), sz = (double)rb_prec_size(c->prec);
    *flops = 2.0 * L * p * p * m;
    *bytes = (p * m + L * p * p) * sz + m * (sizeof(int) + sz);
}

static double put(void *a, size_t k, enum rb_prec prec, double v)
{
    if (prec == RB_PREC_F64) {
        ((double *)a)[k] = v;
        return v;
    }
    ((float *)a)[k] = (float)v;
    return (float)v;
}

static double get(const void *a, size_t k, enum rb_prec prec)
{
    return prec == RB_PREC_F64 ? ((const double *)a)[k] : ((const float *)a)[k];
}

static int is_train(const struct rb_case *c)
{
    return strcmp(c->v->algo, "train") == 0;
}

/* Y_d (p x m) <- m random patches of the shipped photographs (images=1). */
static int image_signals(struct rb_case *c, struct sbo_state *s)
{
    char paths[RB_SHIPPED_IMAGES][4096], err[4400];
    const char *list[RB_SHIPPED_IMAGES];
    double *Y = NULL;
    long total = 0;
    int m = 0, rc = rb_shipped_images(paths, err, sizeof err);
    for (int k = 0; k < RB_SHIPPED_IMAGES; k++)
        list[k] = paths[k];
    if (rc == 0)
        rc = rb_image_patches(list, RB_SHIPPED_IMAGES, SBO_IMAGE_SIDE, 0, s->m, c->seed,
                              "sbo/images", &Y, &m, &total, err, sizeof err);
    if (rc)
        return rb_fail(c, rc, "images=1: %s", err);
    free(s->Y_d);
    s->Y_d = Y;
    return 0;
}

int sbo_setup(struct rb_case *c)
{
    struct sbo_state *s = calloc(1, sizeof *s);
    if (!s)
        return rb_fail(c, RB_ENOMEM, "sbo state");
    c->state = s;
    c->device_ms = -1;
    snprintf(c->device, sizeof c->device, "%s", rb_cpu_name());
    s->p = (int)rb_case_param(c, "p", 64);
    s->s = (int)rb_case_param(c, "s", 8);
    s->L = (int)rb_case_param(c, "blocks", 4);
    s->m = (int)rb_case_param(c, "signals", 0);
    s->threads = (int)rb_case_param(c, "threads", 1);
    if (s->p < 1 || s->s < 1 || s->s > s->p || s->s > SBO_MAX_S || s->L < 1 || s->m < 1)
        return rb_fail(c, RB_EINVAL, "p=%d s=%d blocks=%d signals=%d do not combine", s->p,
                       s->s, s->L, s->m);
    sbo_opts_default(&s->opts);
    s->opts.s = s->s;
    s->opts.L = s->L;
    s->opts.seed = c->seed;
    s->opts.trace = sbo_case_trace;
    s->opts.trace_arg = s;
    size_t ny = (size_t)s->p * s->m, nd = (size_t)s->L * s->p * s->p;
    size_t sz = rb_prec_size(c->prec);
    /* images=1 takes the planted blocks only: one planted signal. */
    const int images = rb_case_param(c, "images", 0) != 0;
    struct rb_planted pl;
    int rc = rb_planted_make(&pl, s->p, images ? 1 : s->m, s->L, s->s,
                             is_train(c) ? SBO_TRAIN_SNR_DB : SBO_REPRESENT_SNR_DB, c->seed);
    if (rc)
        return rb_fail(c, rc, "planted data for p=%d signals=%d", s->p, s->m);
    s->Y_d = pl.Y;
    s->D_d = pl.D;
    free(pl.block);
    if (images && (rc = image_signals(c, s)))
        return rc;
    s->Y = malloc(ny * sz);
    s->D = malloc(nd * sz);
    s->best = malloc((size_t)s->m * sizeof *s->best);
    s->energy = malloc((size_t)s->m * sz);
    s->cap = 2 + s->L * (s->opts.R + 1);
    s->trace = malloc((size_t)s->cap * sizeof *s->trace);
    if (!s->Y || !s->D || !s->best || !s->energy || !s->trace)
        return rb_fail(c, RB_ENOMEM, "arrays for p=%d signals=%d", s->p, s->m);
    for (size_t k = 0; k < ny; k++)
        s->Y_d[k] = put(s->Y, k, c->prec, s->Y_d[k]);
    for (size_t k = 0; k < nd; k++)
        s->D_d[k] = put(s->D, k, c->prec, is_train(c) ? NAN : s->D_d[k]);
    for (int i = 0; i < s->m; i++) {
        s->best[i] = -1;
        put(s->energy, (size_t)i, c->prec, NAN);
    }
    s->rmse = NAN;
    return 0;
}

void sbo_case_trace(int blocks, int round, double rmse, void *arg)
{
    struct sbo_state *s = arg;
    (void)blocks;
    (void)round;
    if (s->ntrace < s->cap)
        s->trace[s->ntrace++] = rmse;
}

static void verdict(struct rb_check *out, double err, const char *method)
{
    out->error = err;
    out->tolerance = 1.0;
    out->pass = err <= 1.0;             /* NaN fails */
    snprintf(out->method, sizeof out->method, "%s", method);
}

/* Bound on the error of a top-s energy of a signal of squared norm yy: s
 * squares of dot products of length p, each off by p u |y|, and their sum. */
static double energy_bound(int p, int s, double u, double yy)
{
    return 2.0 * (2.0 * p * sqrt((double)s) + s) * u * yy;
}

/* sbo_represent over the host's cores, in chunks of signals: the signals are
 * independent, so the energies are those of one call, bit for bit.  At
 * 2^20 signals and 16 blocks the fp64 reference is 1.4e11 flops: a minute
 * on one core, seconds on all. */
static void represent_all_cores(const struct sbo_state *s, double *all)
{
    enum { CHUNK = 1024 };
    long nchunks = (s->m + CHUNK - 1) / CHUNK;
#pragma omp parallel for schedule(dynamic)
    for (long k = 0; k < nchunks; k++) {
        size_t i0 = (size_t)k * CHUNK;
        int n = s->m - (int)i0 < CHUNK ? s->m - (int)i0 : CHUNK;
        sbo_represent(s->p, s->s, s->L, s->D_d, n, s->Y_d + i0 * s->p, NULL, NULL,
                      all + i0 * s->L);
    }
}

int sbo_represent_verify(struct rb_case *c, struct rb_check *out)
{
    struct sbo_state *s = c->state;
    int p = s->p, L = s->L;
    double *all = malloc((size_t)s->m * L * sizeof *all);
    if (!all)
        return rb_fail(c, RB_ENOMEM, "verification of signals=%d", s->m);
    represent_all_cores(s, all);
    double u = c->prec == RB_PREC_F64 ? 0x1.0p-53 : 0x1.0p-24, worst = 0.0;
    double res = 0.0, res_ref = 0.0;
    int ties = 0;
    for (int i = 0; i < s->m && !isnan(worst); i++) {
        const double *y = s->Y_d + (size_t)i * p, *e = all + (size_t)i * L;
        double yy = 0.0, eref = -1.0, e_got = get(s->energy, (size_t)i, c->prec);
        for (int k = 0; k < p; k++)
            yy += y[k] * y[k];
        double tol = energy_bound(p, s->s, u, yy) + 1e-300;
        int jr = 0, jg = s->best[i];
        for (int j = 0; j < L; j++)
            if (e[j] > eref) {
                eref = e[j];
                jr = j;
            }
        res_ref += yy - eref;
        res += yy - e_got;
        if (jg < 0 || jg >= L || !isfinite(e_got)) {
            worst = NAN;
            break;
        }
        worst = fmax(worst, fabs(e_got - e[jg]) / tol);
        if (jg != jr) {
            if (eref - e[jg] > 2.0 * tol)
                worst = INFINITY;
            ties++;
        }
    }
    free(all);
    verdict(out, worst, "best block and energy vs fp64 (ties allowed), per-signal bound");
    double pm = (double)p * s->m;
    rb_case_metric(c, "rmse", isfinite(worst) ? sqrt(fmax(res, 0.0) / pm) : NAN);
    rb_case_metric(c, "rmse_ref", sqrt(fmax(res_ref, 0.0) / pm));
    rb_case_metric(c, "ties", isfinite(worst) ? ties : NAN);
    return 0;
}

int sbo_train_verify(struct rb_case *c, struct rb_check *out)
{
    struct sbo_state *s = c->state;
    int p = s->p;
    size_t nd = (size_t)s->L * p * p;
    double u = c->prec == RB_PREC_F64 ? 0x1.0p-53 : 0x1.0p-24, worst = 0.0;
    double *D = malloc(nd * sizeof *D);
    if (!D)
        return rb_fail(c, RB_ENOMEM, "verification of blocks=%d", s->L);
    int ok = s->nb >= 1 && s->nb <= s->L && s->ntrace >= 1 && isfinite(s->rmse);
    for (size_t k = 0; ok && k < (size_t)s->nb * p * p; k++)
        ok = isfinite(D[k] = get(s->D, k, c->prec));
    /* The trace's steps are folded through fmax below, which passes over a
     * NaN. */
    for (int k = 0; ok && k < s->ntrace; k++)
        ok = isfinite(s->trace[k]);
    for (int i = 0; ok && i < s->m; i++)
        ok = s->best[i] >= 0 && s->best[i] < s->nb;
    double check = NAN;
    if (ok) {
        double yy = 0.0;
        for (size_t k = 0; k < (size_t)s->m * p; k++)
            yy += s->Y_d[k] * s->Y_d[k];
        yy /= (double)p * s->m;
        /* Orthonormal to 16 p u; the RMSE^2 from energies and explicitly
         * agree to the energy bound plus what non-orthonormality adds. */
        double orth = sbo_orth_error(p, s->nb, D), orth_tol = 16.0 * p * u;
        double delta = energy_bound(p, s->s, u, yy) + 2.0 * orth * yy + 1e-300;
        check = sbo_rmse_explicit(p, s->s, D, s->m, s->Y_d, s->best);
        worst = fmax(orth / orth_tol, fabs(check * check - s->rmse * s->rmse) / delta);
        for (int k = 1; k < s->ntrace; k++)
            worst = fmax(worst, (s->trace[k] * s->trace[k]
                                 - s->trace[k - 1] * s->trace[k - 1]) / delta);
        worst = fmax(worst, fabs(s->trace[s->ntrace - 1] - s->rmse) / (s->rmse + 1e-300)
                                / (64 * u));
    }
    free(D);
    verdict(out, ok ? worst : NAN, "RMSE recomputed in fp64, orthonormality, monotone RMSE");
    rb_case_metric(c, "rmse", s->rmse);
    rb_case_metric(c, "rmse_check", check);
    rb_case_metric(c, "blocks", s->nb);
    return 0;
}

void sbo_teardown(struct rb_case *c)
{
    struct sbo_state *s = c->state;
    if (!s)
        return;
    free(s->trace);
    free(s->energy);
    free(s->best);
    free(s->D);
    free(s->Y);
    free(s->D_d);
    free(s->Y_d);
    free(s);
    c->state = NULL;
}
