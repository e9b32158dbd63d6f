/* SPDX-License-Identifier: MIT */
/* The test driver of the GPU SBO training (t/sbo_cuda_train.c,
 * t/sbo_hip_train.c), as t/sbo_opencl_train.c and
 * t/sbo_opencl_train_kernels.c test the OpenCL one, on the backend
 * SBO_TEST_BACKEND through its engine SBO_TEST_ENGINE() (sbo_gpu.h; the
 * test defines both first):
 *  - kernels against the CPU, f32 and f64: the Jacobi SVD's Q = U V^T
 *    orthonormal and as sbo_polar, U S V^T = M, and still M's polar factor
 *    where a singular value is under the null floor; Newton-Schulz as sbo_polar
 *    with no fallback on full-rank M; the worst-W selection (sbo_worst's
 *    order: ties, +-0, every key byte; the whole order of 40000 signals,
 *    chunks of several pieces), the grouping (counts, stable order, an empty block) and the
 *    gather (exact); the thresholding (sbo_code, ties, padding zeroed); the
 *    batched GEMMs (own kernel, and cuBLAS where built).
 *  - whole trainings through the life cycle on planted data (p 16 to 64, L
 *    1 to 4, s 1 to 8, R 4): poisoned outputs fail verify, runs verify,
 *    and the RMSE trace against sbo_train's with t/sbo_opencl_train.c's
 *    bounds (f64 with s >= 2: every entry to 1e-9 relative; otherwise the
 *    final RMSE at most twice fp64's); occupancy of every kernel the
 *    profile names; the profile's metrics; teardown twice.
 * Skips without a device.  RB_TEST_VARIANT=NAME runs one training's life
 * cycles only. */
#ifndef SBO_GPU_TRAIN_TEST_H
#define SBO_GPU_TRAIN_TEST_H

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "harness/ctx.h"
#include "harness/error.h"
#include "harness/registry.h"
#include "impl/common/rng.h"
#include "impl/sbo/sbo_case.h"
#include "impl/sbo/sbo_gpu.h"
#include "t/sbo_residuals.h"
#include "t/sbo_svd_floor.h"
#include "t/sbo_train_compare.h"
#include "t/sbo_train_occ.h"
#include "t/tap.h"

#define LIFE_CHECKS 5

/* signals, blocks, s, p (t/sbo_opencl_train.c's). */
static const int sizes[][4] = {
    { 1201, 3, 3, 16 }, { 999, 2, 5, 37 }, { 2048, 2, 8, 64 }, { 1500, 4, 1, 24 },
};
#define NSIZES ((int)(sizeof sizes / sizeof sizes[0]))

static struct rb_rng rng;
/* The variant the single-step checks' cases belong to (the harness's fault
 * injection, among others, reads a case's variant). */
static const struct rb_variant *step_variant;

static void base_case(struct rb_case *c, struct rb_ctx *ctx, enum rb_prec prec)
{
    memset(c, 0, sizeof *c);
    c->v = step_variant;
    c->ctx = ctx;
    c->prec = prec;
    c->device_ms = c->transfer_ms = c->build_ms = -1;
}

/* The metric `name` of c, or -1. */
static double metric(const struct rb_case *c, const char *name)
{
    for (int k = 0; k < c->nmetrics; k++)
        if (strcmp(c->metrics[k].name, name) == 0)
            return c->metrics[k].value;
    return -1;
}

static double unit_of(enum rb_prec prec)
{
    return prec == RB_PREC_F64 ? 0x1.0p-53 : 0x1.0p-24;
}

/* The SVD's inputs and outputs for nb p x p blocks: M, then Q, U, V and
 * the singular values sg. */
struct svd_io {
    double *M, *Q, *U, *V, *sg;
};

static void svd_io_alloc(struct svd_io *b, int p, int nb)
{
    const size_t n = (size_t)nb * p * p;
    b->M = malloc(n * sizeof *b->M);
    b->Q = malloc(n * sizeof *b->Q);
    b->U = malloc(n * sizeof *b->U);
    b->V = malloc(n * sizeof *b->V);
    b->sg = malloc((size_t)nb * p * sizeof *b->sg);
}

static void svd_io_free(struct svd_io *b)
{
    free(b->sg);
    free(b->V);
    free(b->U);
    free(b->Q);
    free(b->M);
}

static void svd_polar_check(struct rb_ctx *ctx, enum rb_prec prec, int p, int nb, int polar)
{
    struct rb_case c;
    base_case(&c, ctx, prec);
    size_t pp = (size_t)p * p;
    struct svd_io b;
    svd_io_alloc(&b, p, nb);
    double *M = b.M, *Q = b.Q, *U = b.U, *V = b.V, *sg = b.sg, *ref = malloc(pp * sizeof *ref);
    for (size_t k = 0; k < nb * pp; k++)
        M[k] = prec == RB_PREC_F64 ? rb_rng_normal(&rng) : (float)rb_rng_normal(&rng);
    int fall = -1;
    int rc = SBO_TEST_ENGINE()->svd_host(&c, p, nb, M, polar, 0, Q, U, V, sg, &fall);
    double u = unit_of(prec), orth = 0, qdev = 0, recon = 0;
    for (int g = 0; rc == 0 && g < nb; g++) {
        orth = tap_worst(orth, sbo_orth_error(p, 1, Q + g * pp));
        if (sbo_polar(p, M + g * pp, ref) == 0)
            for (size_t k = 0; k < pp; k++)
                qdev = tap_worst(qdev, fabs(Q[g * pp + k] - ref[k]));
        for (int r = 0; !polar && r < p; r++)
            for (int col = 0; col < p; col++) {
                double x = 0;
                for (int k = 0; k < p; k++)
                    x += U[g * pp + r + k * p] * sg[g * p + k] * V[g * pp + col + k * p];
                recon = tap_worst(recon, fabs(x - M[g * pp + r + col * p]));
            }
    }
    /* Gaussian M: condition numbers of some 10^3 at most here; the polar
     * factor moves by about that times the rounding. */
    tap_ok(rc == 0 && orth <= 16 * p * u && qdev <= 1e4 * p * u && recon <= 64 * p * u * p
           && (!polar || fall == 0), "%s %s p=%d x%d: Q orthonormal (%.2g), as sbo_polar "
           "(%.2g)%s%s", polar ? "Newton-Schulz" : "Jacobi SVD", rb_prec_name(prec), p, nb,
           orth, qdev, polar ? "" : ", U S V^T = M", polar && fall ? ", fallbacks" : "");
    if (rc)
        tap_diag("rc %d: %s", rc, c.msg);
    free(ref);
    svd_io_free(&b);
}

/* The Jacobi SVD's Q on nb blocks whose smallest singular value is under
 * the null floor but positive (t/sbo_svd_floor.h): the completed column
 * keeps M's sign, so Q stays M's polar factor within the derived bound (a
 * completion of either sign at random fails a block in two). */
static void floor_check(struct rb_ctx *ctx, enum rb_prec prec, int p, int nb)
{
    struct rb_case c;
    base_case(&c, ctx, prec);
    const size_t pp = (size_t)p * p;
    struct svd_io b;
    svd_io_alloc(&b, p, nb);
    double *bound = malloc(nb * sizeof *bound), worst = NAN, orth = NAN, u = unit_of(prec);
    for (int g = 0; g < nb; g++)
        bound[g] = sbo_test_below_floor(&rng, p, prec == RB_PREC_F32, b.M + g * pp);
    int fall = -1;
    int rc = SBO_TEST_ENGINE()->svd_host(&c, p, nb, b.M, 0, 0, b.Q, b.U, b.V, b.sg, &fall);
    if (rc == 0)
        worst = sbo_test_floor_worst(p, nb, b.M, b.Q, bound, &orth);
    tap_ok(rc == 0 && worst <= 1 && orth <= 16 * p * u, "Jacobi SVD %s p=%d x%d, s_p under "
           "the null floor: Q as sbo_polar to %.2g of the bound, orthonormal (%.2g)",
           rb_prec_name(prec), p, nb, worst, orth);
    if (rc)
        tap_diag("rc %d: %s", rc, c.msg);
    free(bound);
    svd_io_free(&b);
}

static void select_check(struct rb_ctx *ctx, enum rb_prec prec, int m, int W, int nb)
{
    struct rb_case c;
    base_case(&c, ctx, prec);
    const int p = 16;
    double *r = malloc(m * sizeof *r), *Y = malloc((size_t)p * m * sizeof *Y);
    double *Ys = malloc((size_t)p * m * sizeof *Ys);
    int *best = malloc(m * sizeof *best), *idx = malloc(m * sizeof *idx);
    int *order = malloc(m * sizeof *order), *ref = malloc(m * sizeof *ref);
    int *cnt = calloc(nb, sizeof *cnt), *want = calloc(nb, sizeof *want);
    for (int i = 0; i < m; i++) {
        r[i] = sbo_test_residual(&rng, prec == RB_PREC_F32);
        best[i] = (int)(rb_rng_u64(&rng) % (uint64_t)(nb - 1));
        want[best[i]]++;
    }
    for (size_t k = 0; k < (size_t)p * m; k++)
        Y[k] = prec == RB_PREC_F64 ? rb_rng_normal(&rng) : (float)rb_rng_normal(&rng);
    int rc = SBO_TEST_ENGINE()->select_host(&c, p, m, W, r, nb, best, Y, idx, order, cnt, Ys);
    sbo_worst(m, r, W, ref);
    int same = 0, ok = rc == 0, at = 0;
    double gdev = 0;
    for (int k = 0; rc == 0 && k < W; k++)
        same += idx[k] == ref[k];
    for (int j = 0; rc == 0 && j < nb; j++) {
        ok &= cnt[j] == want[j];
        for (int i = 0; i < m; i++)
            if (best[i] == j)
                ok &= order[at++] == i;
    }
    for (int k = 0; rc == 0 && ok && k < m; k++)
        for (int row = 0; row < p; row++)
            gdev = tap_worst(gdev, fabs(Ys[(size_t)k * p + row] - Y[(size_t)order[k] * p + row]));
    tap_ok(rc == 0 && same == W && ok && gdev == 0, "select %s m=%d nb=%d: worst %d of %d as "
           "sbo_worst, grouping stable, gather exact", rb_prec_name(prec), m, nb, same, W);
    if (rc)
        tap_diag("rc %d: %s", rc, c.msg);
    free(want);
    free(cnt);
    free(ref);
    free(order);
    free(idx);
    free(best);
    free(Ys);
    free(Y);
    free(r);
}

static void threshold_check(struct rb_ctx *ctx, enum rb_prec prec, int p, int s, int n)
{
    struct rb_case c;
    base_case(&c, ctx, prec);
    size_t len = (size_t)3 * p * n;
    double *C = malloc(len * sizeof *C), *got = malloc(len * sizeof *got);
    double *x = malloc(p * sizeof *x), *eye = calloc((size_t)p * p, sizeof *eye);
    int cnt[3] = { n, n / 3, 0 }, bad = 0;
    for (size_t k = 0; k < len; k++)
        C[k] = got[k] = (double)((int)(rb_rng_u64(&rng) % 17) - 8) / 4;
    for (int k = 0; k < p; k++)
        eye[k + (size_t)k * p] = 1;
    int rc = SBO_TEST_ENGINE()->threshold_host(&c, p, s, 3, n, cnt, got);
    for (int g = 0; rc == 0 && g < 3; g++)
        for (int col = 0; col < n; col++) {
            const size_t at = ((size_t)g * n + col) * p;
            if (col < cnt[g])
                sbo_code(p, s, eye, C + at, x);
            else
                memset(x, 0, p * sizeof *x);
            for (int k = 0; k < p; k++)
                bad += got[at + k] != x[k];
        }
    tap_ok(rc == 0 && bad == 0, "threshold %s p=%d s=%d: as sbo_code (%d differ)",
           rb_prec_name(prec), p, s, bad);
    free(eye);
    free(x);
    free(got);
    free(C);
}

static void gemm_check(struct rb_ctx *ctx, enum rb_prec prec, int p, int n, int cublas)
{
    struct rb_case c;
    base_case(&c, ctx, prec);
    const int nb = 3, ny = 2 * n;
    size_t pp = (size_t)p * p;
    double *D = malloc(nb * pp * sizeof *D), *Y = malloc((size_t)p * ny * sizeof *Y);
    double *C = malloc((size_t)nb * p * n * sizeof *C), *M = malloc(nb * pp * sizeof *M);
    int yoff[3];
    for (size_t k = 0; k < nb * pp; k++)
        D[k] = prec == RB_PREC_F64 ? rb_rng_normal(&rng) : (float)rb_rng_normal(&rng);
    for (size_t k = 0; k < (size_t)p * ny; k++)
        Y[k] = prec == RB_PREC_F64 ? rb_rng_normal(&rng) : (float)rb_rng_normal(&rng);
    for (int g = 0; g < nb; g++)
        yoff[g] = g * n / 2;
    int rc = SBO_TEST_ENGINE()->gemm_host(&c, p, nb, n, ny, D, Y, yoff, cublas, C, M);
    double dc = 0, dm = 0, sc = 0, sm = 0;
    for (int g = 0; rc == 0 && g < nb; g++) {
        const double *Q = D + g * pp, *y = Y + (size_t)yoff[g] * p, *Cg = C + (size_t)g * p * n;
        for (int col = 0; col < n; col++)
            for (int r = 0; r < p; r++) {
                double a = 0;
                for (int k = 0; k < p; k++)
                    a += Q[k + r * p] * y[k + col * p];
                dc = tap_worst(dc, fabs(Cg[r + col * p] - a));
                sc = tap_worst(sc, fabs(a));
            }
        for (int a = 0; a < p; a++)
            for (int b = 0; b < p; b++) {
                double x = 0;
                for (int k = 0; k < n; k++)
                    x += y[a + k * p] * Cg[b + k * p];
                dm = tap_worst(dm, fabs(M[g * pp + a + b * p] - x));
                sm = tap_worst(sm, fabs(x));
            }
    }
    double u = unit_of(prec), tc = 4 * p * u * (sc + 1), tm = 4 * n * u * (sm + p * n);
    tap_ok(rc == 0 && dc <= tc && dm <= tm, "GEMM %s %s p=%d n=%d x3: Q^T Y to %.2g, Y C^T to "
           "%.2g", cublas ? "cuBLAS" : "kernel", rb_prec_name(prec), p, n, dc, dm);
    if (rc)
        tap_diag("rc %d: %s", rc, c.msg);
    free(M);
    free(C);
    free(Y);
    free(D);
}

static void life_cycle(const struct rb_variant *v, struct rb_ctx *ctx, enum rb_prec prec,
                       int size, int cublas, uint64_t seed)
{
    struct rb_case c;
    struct rb_check chk;
    char name[160];
    const int *z = sizes[size];
    snprintf(name, sizeof name, "%s %s%s m=%d L=%d s=%d p=%d", v->name, rb_prec_name(prec),
             cublas ? " cuBLAS" : "", z[0], z[1], z[2], z[3]);
    base_case(&c, ctx, prec);
    c.v = v;
    c.seed = seed;
    const char *names[] = { "p", "s", "blocks", "signals", "block", "cublas" };
    const int vals[] = { z[3], z[2], z[1], z[0], 64, cublas };
    for (int k = 0; k < 6; k++)
        c.params[c.nparams++] = (struct rb_param){ names[k], vals[k] };
    memset(&chk, 0, sizeof chk);
    int rc = v->setup(&c);
    if (rc == 0)
        rc = v->verify(&c, &chk);
    if (!tap_ok(rc == 0 && !chk.pass, "%s: poisoned output fails verify", name))
        tap_diag("rc %d msg '%s'", rc, c.msg);
    struct sbo_state *s = c.state;
    if (rc == 0) {
        s->opts.R = 4;
        rc = v->run(&c);
    }
    memset(&chk, 0, sizeof chk);
    if (rc == 0)
        rc = v->verify(&c, &chk);
    if (!tap_ok(rc == 0 && chk.pass && c.device_ms > 0 && s->nb == s->L
                && metric(&c, "launches") > 0 && metric(&c, "ms_sbo_gemm_batched") > 0,
                "%s: run verifies (%.3g <= %.3g), %d blocks, RMSE %.6g, %.1f ms", name,
                chk.error, chk.tolerance, s ? s->nb : 0, s ? s->rmse : NAN, c.device_ms))
        tap_diag("rc %d msg '%s' method '%s'", rc, c.msg, chk.method);
    if (rc == 0)
        sbo_train_compare(&c, name);
    else
        tap_ok(0, "%s: against sbo_train (not run)", name);
    struct rb_occ occ;
    memset(&occ, 0, sizeof occ);
    if (rc == 0)
        v->occupancy(&c, &occ);
    if (rc == 0)
        sbo_train_occ_check(&c, &occ, name);
    else
        tap_ok(0, "%s: occupancy (not run)", name);
    v->teardown(&c);
    v->teardown(&c);
    tap_ok(c.state == NULL, "%s: teardown twice", name);
}

/* RB_TEST_VARIANT=NAME runs that training's life cycles only (a
 * sanitizer's run of one training need not wait for the other). */
static int is_run(const struct rb_variant *v)
{
    const char *only = getenv("RB_TEST_VARIANT");
    return !only || !*only || strcmp(only, v->name) == 0;
}

/* Everything, on a device that `available` finds. */
static int test_train(int (*available)(struct rb_ctx *, char *, size_t))
{
    struct rb_ctx ctx;
    char why[512];
    rb_ctx_init(&ctx);
    if (!available(&ctx, why, sizeof why))
        tap_skip_all("%s", why);
    uint64_t seed = tap_seed();
    rb_rng_seed(&rng, seed);
    const struct rb_variant *list[4];
    int nv = 0, blas = SBO_TEST_ENGINE()->have_cublas();
    const struct rb_variant *v;
    for (size_t i = 0; (v = rb_registry_get(i)); i++)
        if (strcmp(v->paper, "sbo") == 0 && strcmp(v->algo, "train") == 0
            && v->backend == SBO_TEST_BACKEND && nv < 4)
            list[nv++] = v;
    int nrun = 0;
    for (int i = 0; i < nv; i++)
        nrun += is_run(list[i]);
    /* Kernels 10 + cuBLAS per precision; life cycles per variant run,
     * precision and size. */
    tap_plan(1 + 2 * (10 + blas) + nrun * 2 * NSIZES * LIFE_CHECKS);
    tap_diag("seed %llu (RB_TEST_SEED=%llu repeats it)%s", (unsigned long long)seed,
             (unsigned long long)seed, blas ? "" : "; no cuBLAS: own GEMM only");
    tap_ok(nv == 2, "%d training variants registered", nv);
    if (nv == 0) {
        rb_ctx_release(&ctx);
        return tap_done();
    }
    step_variant = list[0];
    for (int k = 0; k < 2; k++) {
        enum rb_prec prec = k ? RB_PREC_F64 : RB_PREC_F32;
        svd_polar_check(&ctx, prec, 64, 3, 0);
        svd_polar_check(&ctx, prec, 37, 2, 0);
        floor_check(&ctx, prec, 64, 3);
        svd_polar_check(&ctx, prec, 64, 3, 1);
        svd_polar_check(&ctx, prec, 37, 3, 1);
        select_check(&ctx, prec, 1537, 1537 / 3 + 1, 5);
        select_check(&ctx, prec, 40000, 40000, 7); /* the whole order; chunks of pieces */
        threshold_check(&ctx, prec, 37, 5, 70);
        gemm_check(&ctx, prec, 37, 75, 0);
        gemm_check(&ctx, prec, 64, 3001, 0);        /* M = Y C^T with K split */
        if (blas)
            gemm_check(&ctx, prec, 37, 75, 1);
    }
    for (int i = 0; i < nv; i++)
        for (int k = 0; k < 2 && is_run(list[i]); k++)
            for (int z = 0; z < NSIZES; z++)
                life_cycle(list[i], &ctx, k ? RB_PREC_F64 : RB_PREC_F32, z,
                           blas && (z + i) % 2 == 0, seed + (uint64_t)(i * 16 + k * 8 + z));
    rb_ctx_release(&ctx);
    return tap_done();
}

#endif
