/* SPDX-License-Identifier: MIT */
/* The embedding engines' common part (sammon_engine.h): open, eval and
 * close through a backend's ops, the evaluator the rules take, the fp64
 * engines (serial and omp: the reference of sammon_ref.c), and what the
 * device engines share: the scaled float inputs and the derivatives from
 * a pass's sums. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif
#include "harness/error.h"
#include "harness/run/timer.h"
#include "impl/sammon/sammon.h"
#include "impl/sammon/sammon_engine.h"
#include "impl/sammon/sammon_sums.h"

int sammon_engine_open(struct sammon_engine *e, const struct sammon_engine_ops *ops,
                       struct rb_ctx *ctx, int N, int n, int m,
                       const struct sammon_engine_opts *opts, const double *x)
{
    memset(e, 0, sizeof *e);
    e->ops = ops;
    e->ctx = ctx;
    e->N = N;
    e->n = n;
    e->m = m;
    e->tile = opts && opts->tile ? opts->tile : 64;
    e->recompute = opts && opts->recompute;
    e->floats = opts ? opts->floats : NULL;
    uint64_t t0 = rb_now_ns();
    int rc = ops->open(e, x);
    e->setup_s = rb_ms_since(t0) / 1e3;
    e->floats = NULL;                   /* the caller's, for open alone */
    if (rc && !e->msg[0])
        snprintf(e->msg, sizeof e->msg, "%s", rb_strerror(rc));
    return rc;
}

int sammon_engine_eval(struct sammon_engine *e, const double *y, double *stress, double *g,
                       double *h)
{
    return e->ops->eval(e, y, stress, g, h);
}

void sammon_engine_close(struct sammon_engine *e)
{
    if (e->ops)
        e->ops->close(e);
    e->impl = NULL;
}

static int engine_fn(void *arg, const double *y, double *stress, double *g, double *h)
{
    return sammon_engine_eval(arg, y, stress, g, h);
}

struct sammon_eval sammon_engine_evaluator(struct sammon_engine *e)
{
    return (struct sammon_eval){ .fn = engine_fn, .arg = e, .c = e->c, .fused = e->ops->gpu,
                                 .resident = e->resident };
}

/* --- the fp64 reference --- */

struct cpu_engine {
    const double *x;            /* the caller's, alive while the engine is */
};

static int cpu_available(struct rb_ctx *ctx, int gpu_only, char *why, size_t len)
{
    (void)ctx;
    (void)gpu_only;
    (void)why;
    (void)len;
    return 1;
}

static int omp_available(struct rb_ctx *ctx, int gpu_only, char *why, size_t len)
{
    (void)ctx;
    (void)gpu_only;
#ifdef _OPENMP
    (void)why;
    (void)len;
    return 1;
#else
    snprintf(why, len, "this build has no OpenMP");
    return 0;
#endif
}

static int cpu_open(struct sammon_engine *e, const double *x)
{
    struct cpu_engine *k = calloc(1, sizeof *k);
    int threads = 1;
    if (!k)
        return RB_ENOMEM;
    k->x = x;
    e->impl = k;
#ifdef _OPENMP
    if (strcmp(e->ops->name, "serial") == 0)
        omp_set_num_threads(1);
    threads = omp_get_max_threads();
#endif
    e->c = sammon_input_scale(e->N, e->n, x);
    snprintf(e->device, sizeof e->device, "the host, %d thread%s", threads,
             threads == 1 ? "" : "s");
    snprintf(e->form, sizeof e->form, "fp64 reference, distances recomputed each pass");
    return 0;
}

static int cpu_eval(struct sammon_engine *e, const double *y, double *stress, double *g,
                    double *h)
{
    const struct cpu_engine *k = e->impl;
    if (stress)
        *stress = sammon_stress(e->N, e->n, e->m, k->x, y, e->c);
    if (g)
        sammon_gradient(e->N, e->n, e->m, k->x, y, e->c, g, h);
    return 0;
}

static void cpu_close(struct sammon_engine *e)
{
    free(e->impl);
}

const struct sammon_engine_ops sammon_engine_serial = {
    .name = "serial", .gpu = 0, .available = cpu_available, .open = cpu_open,
    .eval = cpu_eval, .close = cpu_close,
};
const struct sammon_engine_ops sammon_engine_omp = {
    .name = "omp", .gpu = 0, .available = omp_available, .open = cpu_open,
    .eval = cpu_eval, .close = cpu_close,
};

/* --- what the device engines share --- */

/* Loops over the inputs, or between two device passes with the device
 * idle: over the host's cores, for sizes where that pays. */
#define PAR_MIN 16384

/* x / scale into xf, scale the power of two that takes x's bounding-box
 * diagonal to [0.5, 1), and two rows distinct in x but one point in float
 * (*i < 0: none).  0, or RB_ENOMEM. */
static int floats_into(int N, int n, const double *x, float *xf, double *scale, int *i, int *j)
{
    const size_t len = (size_t)N * n;
    double extent = sammon_extent(N, n, x);
    int ex = 0;
    frexp(extent > 0 && isfinite(extent) ? extent : 1.0, &ex);
    *scale = ldexp(1.0, ex);
    double *back = malloc(len * sizeof *back);
    if (!back)
        return RB_ENOMEM;
    const double sc = *scale;
#pragma omp parallel for schedule(static) if (len >= PAR_MIN)
    for (size_t k = 0; k < len; k++) {
        xf[k] = (float)(x[k] / sc);
        back[k] = xf[k];
    }
    if (!sammon_find_duplicate(N, n, back, i, j))
        *i = *j = -1;
    free(back);
    return 0;
}

int sammon_floats_make(int N, int n, const double *x, struct sammon_floats *f)
{
    *f = (struct sammon_floats){ .dup_i = -1, .dup_j = -1 };
    if (!(f->xf = malloc((size_t)N * n * sizeof *f->xf)))
        return RB_ENOMEM;
    int rc = floats_into(N, n, x, f->xf, &f->scale, &f->dup_i, &f->dup_j);
    if (rc)
        sammon_floats_free(f);
    return rc;
}

void sammon_floats_free(struct sammon_floats *f)
{
    free(f->xf);
    f->xf = NULL;
}

int sammon_engine_floats(struct sammon_engine *e, const double *x, double *scale, float *xf)
{
    const struct sammon_floats *f = e->floats;
    int i, j, rc = 0;
    if (f) {                            /* made before the device was needed: a copy */
        memcpy(xf, f->xf, (size_t)e->N * e->n * sizeof *xf);
        *scale = f->scale;
        i = f->dup_i;
        j = f->dup_j;
    } else if ((rc = floats_into(e->N, e->n, x, xf, scale, &i, &j)) != 0) {
        return rc;
    }
    if (i >= 0) {
        snprintf(e->msg, sizeof e->msg, "rows %d and %d are distinct but the same point in "
                 "single precision, which %s computes in (--backend omp keeps double)", i + 1,
                 j + 1, e->ops->name);
        rc = RB_EINVAL;
    }
    return rc;
}

void sammon_engine_to_float(size_t len, const double *y, double scale, float *out)
{
    const double inv = 1.0 / scale;     /* a power of two: exact */
#pragma omp parallel for schedule(static) if (len >= PAR_MIN)
    for (size_t k = 0; k < len; k++)
        out[k] = (float)(y[k] * inv);
}

void sammon_engine_derivatives(int N, int m, const float *sums, const float *rsum, double c,
                               double scale, double *g, double *h)
{
    const int K = SAMMON_ENGINE_SUMS(m);
    const double gf = -2.0 / c, hd = c * scale;
#pragma omp parallel for schedule(static) if ((size_t)N * m >= PAR_MIN)
    for (int p = 0; p < N; p++) {
        const float *s = sums + (size_t)p * K;
        for (int q = 0; q < m; q++) {
            g[(size_t)p * m + q] = gf * s[q];
            if (h)
                h[(size_t)p * m + q] = -2.0 * sammon_sums_h(s, m, q, rsum, p) / hd;
        }
    }
}
