/* SPDX-License-Identifier: MIT */
/* The OpenCL Newton-Schulz polar factor on badly conditioned blocks
 * (singular values log-spaced over a condition of 1e3 to 1e5), in float
 * and (with fp64) double, at p = 64 in each of the kernel's storage plans
 * (X and T in local memory, T in global memory as on a 48 KB device,
 * both global, a group smaller than the tiles) and at odd p: converged,
 * Q orthonormal, Q = sbo_polar(M) within the perturbation bound,
 * trace(Q^T M) the nuclear norm, the same bits on a second run; and a
 * block with a zero column flagged at once, the SVD answering. */
#include <lapacke.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "harness/registry.h"
#include "impl/common/rng.h"
#include "impl/sbo/sbo_opencl_train.h"
#include "t/tap.h"
#include "t/opencl_test.h"

#include "t/sbo_opencl_train_util.h"

/* A random p x p orthogonal matrix: Q of a Gaussian's QR. */
static void random_orth(struct env *e, int p, double *Q)
{
    double *tau = malloc((size_t)p * sizeof *tau);
    for (size_t k = 0; k < (size_t)p * p; k++)
        Q[k] = rb_rng_normal(&e->rng);
    LAPACKE_dgeqrf(LAPACK_COL_MAJOR, p, p, Q, p, tau);
    LAPACKE_dorgqr(LAPACK_COL_MAJOR, p, p, p, Q, p, tau);
    free(tau);
}

/* nb blocks U diag(s) V^T, s from 1 down to 1 / cond log-spaced, scaled
 * by a random power of ten (the kernel's scaling must not care). */
static void conditioned(struct env *e, int p, int nb, double cond, double *M)
{
    size_t pp = (size_t)p * p;
    double *U = malloc(2 * pp * sizeof *U), *V = U + pp;
    for (int g = 0; g < nb; g++) {
        random_orth(e, p, U);
        random_orth(e, p, V);
        double scale = pow(10, (double)(rb_rng_u64(&e->rng) % 7) - 3);
        for (int r = 0; r < p; r++)
            for (int c = 0; c < p; c++) {
                double x = 0;
                for (int k = 0; k < p; k++)
                    x += U[r + k * p] * pow(cond, -(double)k / (p - 1)) * V[c + k * p];
                M[g * pp + r + (size_t)c * p] = scale * x;
            }
    }
    free(U);
}

/* Newton-Schulz on nb blocks of condition cond (0: a zero column in each)
 * with the caps wg_max, local_max; the checks of the file's comment. */
static void polar_check(struct env *e, int p, int nb, double cond, size_t wg_max,
                        size_t local_max)
{
    struct sbo_cl_train t;
    e->ns_wg_max = wg_max;
    e->ns_local_max = local_max;
    int fail = env_open(e, &t, p, 4, nb, 64);
    e->ns_wg_max = e->ns_local_max = 0;
    if (fail) {
        tap_ok(0, "Newton-Schulz %s p=%d: device side", e->name, p);
        return;
    }
    size_t pp = (size_t)p * p, n = nb * pp;
    double *M = malloc(n * sizeof *M), *Q = malloc(2 * n * sizeof *Q), *Q2 = Q + n;
    double *ref = malloc(pp * sizeof *ref), *sv = malloc((size_t)p * sizeof *sv);
    int *ones = malloc((size_t)nb * sizeof *ones), fall = -1, fall2 = -1;
    conditioned(e, p, nb, cond > 0 ? cond : 10, M);
    for (int g = 0; g < nb; g++) {
        ones[g] = 1;
        for (int r = 0; cond == 0 && r < p; r++)
            M[g * pp + r + (size_t)(g % p) * p] = 0;
    }
    for (size_t k = 0; k < 2 * n; k++)
        Q[k] = NAN;
    int rc = put_ints(e, &t, t.cnt, ones, nb) || put_real(e, &t, t.M, M, n)
             || put_real(e, &t, t.D, Q, n) || sbo_cl_polar(&e->c, &t, nb, 0, &fall)
             || get_real(e, &t, t.D, Q, n) || put_real(e, &t, t.D, Q2, n)
             || put_real(e, &t, t.M, M, n)          /* the SVD consumes M */
             || sbo_cl_polar(&e->c, &t, nb, 0, &fall2) || get_real(e, &t, t.D, Q2, n);
    double orth = 0, qdev = 0, opt = 0, u = e->u;
    for (int g = 0; !rc && g < nb; g++) {
        const double *Mg = M + g * pp;
        orth = tap_worst(orth, sbo_orth_error(p, 1, Q + g * pp));
        svd_values(p, Mg, sv);
        double nuc = 0, got = 0, fro = 0;
        for (int k = 0; k < p; k++)
            nuc += sv[k];
        for (size_t k = 0; k < pp; k++) {
            got += Q[g * pp + k] * Mg[k];
            fro += Mg[k] * Mg[k];
        }
        opt = tap_worst(opt, fabs(nuc - got) / nuc);
        /* As t/sbo_opencl_train_kernels: the polar factor moves by up to
         * 2 |dM|_F / (s_p-1 + s_p) when M does (Higham, thm 8.9). */
        double qtol = 16 * 2 * p * u * sqrt(fro) / (sv[p - 2] + sv[p - 1]);
        if (cond > 0 && sbo_polar(p, Mg, ref) == 0)
            for (size_t k = 0; k < pp; k++)
                qdev = tap_worst(qdev, fabs(Q[g * pp + k] - ref[k]) / qtol);
    }
    int same = !rc && memcmp(Q, Q2, n * sizeof *Q) == 0 && fall == fall2;
    char plan[64];
    snprintf(plan, sizeof plan, "wg %d, local %s", t.ns_wg,
             local_max == 1 ? "none" : local_max ? "48 KB" : "device's");
    if (cond > 0)
        tap_ok(!rc && fall == 0 && orth <= 16 * p * u && qdev <= 1 && opt <= 64 * p * u && same,
               "Newton-Schulz %s p=%d cond %.0e x%d (%s): %d to the SVD, orthonormal to %.2g, "
               "sbo_polar to %.2g of the bound, optimal to %.2g, %s run to run", e->name, p,
               cond, nb, plan, fall, orth, qdev, opt, same ? "same bits" : "differs");
    else
        tap_ok(!rc && fall == nb && orth <= 16 * p * u && opt <= 64 * p * u && same,
               "Newton-Schulz %s p=%d zero column x%d: %d of %d to the SVD, orthonormal to "
               "%.2g, optimal to %.2g", e->name, p, nb, fall, nb, orth, opt);
    if (rc)
        tap_diag("rc %d: %s", rc, e->c.msg);
    free(ones);
    free(sv);
    free(ref);
    free(Q);
    free(M);
    env_close(&t);
}

int main(void)
{
    struct env e;
    struct rb_opencl *cl = cl_test_open(&e.ctx);
    int fp64 = cl_test_fp64(cl), precs = fp64 ? 2 : 1;
    uint64_t seed = tap_seed();
    tap_plan(precs * 8);
    tap_diag("seed %llu (RB_TEST_SEED=%llu repeats it); device %s%s",
             (unsigned long long)seed, (unsigned long long)seed, cl->name,
             fp64 ? "" : "; no fp64, f32 only");
    for (int k = 0; k < precs; k++) {
        env_init(&e, k ? RB_PREC_F64 : RB_PREC_F32, seed + (uint64_t)k);
        polar_check(&e, 64, 3, 1e4, 0, 0);
        polar_check(&e, 64, 2, 1e5, 0, 49152);      /* an NVIDIA device's local memory */
        polar_check(&e, 64, 2, 1e4, 0, 1);          /* X and T in global memory */
        polar_check(&e, 64, 2, 1e3, 64, 0);         /* four tiles per work-item */
        polar_check(&e, 37, 3, 1e5, 0, 0);
        polar_check(&e, 63, 2, 1e3, 0, 0);
        polar_check(&e, 17, 2, 1e4, 32, 1);
        polar_check(&e, 37, 3, 0, 0, 0);
    }
    rb_ctx_release(&e.ctx);
    return tap_done();
}
