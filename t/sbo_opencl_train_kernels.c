/* SPDX-License-Identifier: MIT */
/* The kernels of the OpenCL SBO training, each against the CPU on fresh
 * random data, in float and (with fp64) double: the Jacobi SVD (orthonormal
 * U and V, reconstruction, singular values as LAPACKE_dgesvd's, Q = U V^T
 * as sbo_polar, rank-deficient M still orthonormal and optimal, a singular
 * value under the null floor but positive with Q still M's polar factor,
 * the sorted initial basis), the Newton-Schulz polar factor (as sbo_polar; flagged and
 * handed to the SVD when M is singular), the worst-W selection (sbo_worst's
 * order: ties, +-0, every key byte; the whole order of 40000 signals in
 * chunks of several pieces), the grouping and gather, the thresholding (sbo_code's
 * choice, ties included), and the batched GEMM by the own kernel (K split
 * into chunks or not, every transpose pair, several tiles) and by CLBlast
 * where built. */
#include <lapacke.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "harness/registry.h"
#include "impl/common/rng.h"
#include "impl/sbo/sbo_gemm_split.h"
#include "impl/sbo/sbo_opencl_train.h"
#include "t/tap.h"
#include "t/opencl_test.h"
#include "t/sbo_residuals.h"
#include "t/sbo_svd_floor.h"
#include "t/sbo_opencl_train_util.h"

/* Jacobi SVD and product (mode 0) of nb random p x p matrices of rank
 * `rank` (p: full), against LAPACK. */
static void svd_check(struct env *e, int p, int nb, int rank, int polar)
{
    struct sbo_cl_train t;
    if (env_open(e, &t, p, 4, nb, 64))
        return;
    size_t pp = (size_t)p * p;
    double *M = malloc(nb * pp * sizeof *M), *Q = malloc(nb * pp * sizeof *Q);
    double *U = malloc(nb * pp * sizeof *U), *V = malloc(nb * pp * sizeof *V);
    double *sg = malloc((size_t)nb * p * sizeof *sg), *ref = malloc(pp * sizeof *ref);
    double *sv = malloc((size_t)p * sizeof *sv);
    random_rank(e, p, nb, rank, M);
    int *ones = malloc((size_t)nb * sizeof *ones), fall = -1;
    for (int g = 0; g < nb; g++)
        ones[g] = 1;
    int rc = put_ints(e, &t, t.cnt, ones, nb) || put_real(e, &t, t.M, M, nb * pp);
    if (!rc)
        rc = polar ? sbo_cl_polar(&e->c, &t, nb, 0, &fall)
                   : sbo_cl_svd_product(&e->c, &t, nb, 0, t.cnt, 0);
    rc = rc || get_real(e, &t, t.D, Q, nb * pp) || get_real(e, &t, t.U, U, nb * pp)
         || get_real(e, &t, t.V, V, nb * pp) || get_real(e, &t, t.sig, sg, (size_t)nb * p);
    double orth = 0, uv = 0, recon = 0, sdev = 0, qdev = 0, opt = 0;
    for (int g = 0; !rc && g < nb; g++) {
        const double *Mg = M + g * pp;
        orth = tap_worst(orth, sbo_orth_error(p, 1, Q + g * pp));
        if (!polar) {
            uv = tap_worst(uv, tap_worst(sbo_orth_error(p, 1, U + g * pp),
                               sbo_orth_error(p, 1, V + g * pp)));
            recon = tap_worst(recon, recon_error(p, Mg, U + g * pp, sg + g * p, V + g * pp));
        }
        svd_values(p, Mg, sv);
        double nuc = 0, got = 0;
        for (int k = 0; k < p; k++)
            nuc += sv[k];
        for (size_t k = 0; k < pp; k++)
            got += Q[g * pp + k] * Mg[k];       /* trace(Q^T M) */
        opt = tap_worst(opt, fabs(nuc - got) / nuc);
        if (!polar)
            sdev = tap_worst(sdev, sorted_dev(p, sg + g * p, sv));
        /* The computed U, V are within d = 64 p u of orthonormal ones U0,
         * V0 (what the check above accepts), and U0 S V0^T is M + dM with
         * |dM|_F up to 64 p u |M|_F (the reconstruction it accepts, plus
         * 2 d |M|).  The polar factor U0 V0^T of M + dM is within
         * 2 |dM|_F / (s_p-1 + s_p) of M's (Higham, Functions of Matrices,
         * thm 8.9), and Q = U V^T within 2 d of U0 V0^T.  Each entry of Q
         * relative to that bound on the whole. */
        double fro = 0;
        for (size_t k = 0; k < pp; k++)
            fro += Mg[k] * Mg[k];
        const double d = 64 * p * e->u;
        double qtol = 2 * d + 2 * 3 * d * sqrt(fro) / (sv[p - 2] + sv[p - 1]);
        if (rank == p && sbo_polar(p, Mg, ref) == 0)
            for (size_t k = 0; k < pp; k++)
                qdev = tap_worst(qdev, fabs(Q[g * pp + k] - ref[k]) / qtol);
    }
    const char *what = polar ? "Newton-Schulz" : "Jacobi SVD";
    double u = e->u;
    tap_ok(!rc && orth <= 16 * p * u, "%s %s p=%d rank %d x%d: Q orthonormal (%.2g <= %.2g)",
           what, e->name, p, rank, nb, orth, 16 * p * u);
    if (!polar)
        tap_ok(!rc && uv <= 64 * p * u && recon <= 64 * p * u && sdev <= 64 * p * u,
               "%s %s p=%d rank %d: U, V orthonormal to %.2g, U S V^T = M to %.2g, singular "
               "values as LAPACK to %.2g", what, e->name, p, rank, uv, recon, sdev);
    tap_ok(!rc && opt <= 64 * p * u, "%s %s p=%d rank %d: trace(Q^T M) is M's nuclear norm "
           "to %.2g (Procrustes optimum)", what, e->name, p, rank, opt);
    if (rank == p)
        tap_ok(!rc && qdev <= 1, "%s %s p=%d: Q = sbo_polar(M) to %.2g of 2 d + 6 d |M|_F / "
               "(s_p-1 + s_p), d = 64 p u", what, e->name, p, qdev);
    if (polar && rank == p)
        tap_ok(!rc && fall == 0, "Newton-Schulz %s p=%d: %d of %d blocks to the SVD", e->name,
               p, fall, nb);
    else if (polar)
        tap_diag("Newton-Schulz %s p=%d rank %d: %d of %d blocks to the SVD", e->name, p, rank,
                 fall, nb);
    if (rc)
        tap_diag("rc %d: %s", rc, e->c.msg);
    free(sv);
    free(ref);
    free(sg);
    free(V);
    free(U);
    free(Q);
    free(ones);
    free(M);
    env_close(&t);
}

/* Jacobi SVD and product (mode 0) of nb blocks whose smallest singular
 * value is under the null floor but positive (t/sbo_svd_floor.h): the
 * completed column keeps M's sign, so Q stays M's polar factor within the
 * derived bound (a completion of either sign at random fails a block in
 * two). */
static void floor_check(struct env *e, int p, int nb)
{
    struct sbo_cl_train t;
    if (env_open(e, &t, p, 4, nb, 64))
        return;
    const size_t pp = (size_t)p * p;
    double *M = malloc(nb * pp * sizeof *M), *Q = malloc(nb * pp * sizeof *Q);
    double *bound = malloc(nb * sizeof *bound), worst = NAN, orth = NAN;
    int *ones = malloc((size_t)nb * sizeof *ones);
    for (int g = 0; g < nb; g++) {
        bound[g] = sbo_test_below_floor(&e->rng, p, e->prec == RB_PREC_F32, M + g * pp);
        ones[g] = 1;
    }
    int rc = put_ints(e, &t, t.cnt, ones, nb) || put_real(e, &t, t.M, M, nb * pp);
    rc = rc || sbo_cl_svd_product(&e->c, &t, nb, 0, t.cnt, 0) || get_real(e, &t, t.D, Q, nb * pp);
    if (!rc)
        worst = sbo_test_floor_worst(p, nb, M, Q, bound, &orth);
    tap_ok(!rc && worst <= 1 && orth <= 16 * p * e->u, "Jacobi SVD %s p=%d x%d, s_p under the "
           "null floor: Q as sbo_polar to %.2g of the bound, orthonormal (%.2g)", e->name, p, nb,
           worst, orth);
    if (rc)
        tap_diag("rc %d: %s", rc, e->c.msg);
    free(ones);
    free(bound);
    free(Q);
    free(M);
    env_close(&t);
}

/* Mode 1: the initial basis of G = Y Y^T, columns by descending
 * eigenvalue: Q^T G Q diagonal, its diagonal LAPACK's singular values. */
static void basis_check(struct env *e, int p)
{
    struct sbo_cl_train t;
    if (env_open(e, &t, p, 4, 1, 64))
        return;
    size_t pp = (size_t)p * p;
    double *G = malloc(pp * sizeof *G), *Q = malloc(pp * sizeof *Q), *sv = malloc(p * sizeof *sv);
    random_rank(e, p, 1, p, G);
    double *Y = malloc(pp * sizeof *Y);
    memcpy(Y, G, pp * sizeof *Y);
    for (int a = 0; a < p; a++)             /* G = Y Y^T */
        for (int b = 0; b < p; b++) {
            double x = 0;
            for (int k = 0; k < p; k++)
                x += Y[a + k * p] * Y[b + k * p];
            G[a + b * p] = x;
        }
    int one = 1;
    int rc = put_ints(e, &t, t.cnt, &one, 1) || put_real(e, &t, t.M, G, pp)
             || sbo_cl_svd_product(&e->c, &t, 1, 0, t.cnt, 1) || get_real(e, &t, t.D, Q, pp);
    svd_values(p, G, sv);
    double off = 0, dev = 0;
    for (int a = 0; !rc && a < p; a++)
        for (int b = 0; b < p; b++) {
            double x = 0;
            for (int r = 0; r < p; r++)
                for (int k = 0; k < p; k++)
                    x += Q[r + a * p] * G[r + k * p] * Q[k + b * p];
            if (a == b)
                dev = tap_worst(dev, fabs(x - sv[a]) / sv[0]);
            else
                off = tap_worst(off, fabs(x) / sv[0]);
        }
    tap_ok(!rc && sbo_orth_error(p, 1, Q) <= 16 * p * e->u && off <= 64 * p * e->u
           && dev <= 64 * p * e->u, "initial basis %s p=%d: Q^T G Q diagonal (%.2g), "
           "descending as LAPACK (%.2g)", e->name, p, off, dev);
    free(Y);
    free(sv);
    free(Q);
    free(G);
    env_close(&t);
}

/* sbo_worst's W, order and ties; the grouping's counts and stable order;
 * the gather. */
static void select_check(struct env *e, int m, int W, int nb)
{
    struct sbo_cl_train t;
    if (env_open(e, &t, 16, 4, nb, m))
        return;
    double *r = malloc(m * sizeof *r), *Y = malloc((size_t)16 * m * sizeof *Y);
    double *Ys = malloc((size_t)16 * m * sizeof *Ys);
    int *best = malloc(m * sizeof *best), *idx = malloc(m * sizeof *idx);
    int *ref = malloc(m * sizeof *ref), *cnt = calloc(nb, sizeof *cnt);
    for (int i = 0; i < m; i++) {
        r[i] = sbo_test_residual(&e->rng, e->prec == RB_PREC_F32);
        best[i] = (int)(rb_rng_u64(&e->rng) % (nb - 1));       /* block nb-1 empty */
        cnt[best[i]]++;
    }
    for (int k = 0; k < 16 * m; k++)
        Y[k] = rb_rng_normal(&e->rng);
    int same = 0, rc = put_real(e, &t, t.r, r, m);
    rc = rc || sbo_cl_worst(&e->c, &t, W) || get_ints(e, &t, t.idx, idx, W);
    sbo_worst(m, r, W, ref);
    for (int k = 0; !rc && k < W; k++)
        same += idx[k] == ref[k];
    tap_ok(!rc && same == W, "worst %s m=%d: %d of W=%d as sbo_worst", e->name, m, same, W);
    rc = rc || put_ints(e, &t, t.best, best, m) || put_real(e, &t, t.Y, Y, 16 * (size_t)m)
         || sbo_cl_group(&e->c, &t, nb) || get_ints(e, &t, t.order, idx, m)
         || sbo_cl_gather(&e->c, &t, t.order, m) || get_real(e, &t, t.Ysub, Ys, 16 * (size_t)m);
    int at = 0, ok = 1;
    for (int j = 0; j < nb; j++) {
        ok &= !rc && t.cnt_h[j] == cnt[j];
        for (int i = 0; i < m; i++)
            if (best[i] == j)
                ok &= !rc && idx[at++] == i;
    }
    tap_ok(ok, "group %s m=%d nb=%d (one empty): counts and stable order", e->name, m, nb);
    double gdev = 0;
    for (int k = 0; !rc && k < m; k++)
        for (int row = 0; row < 16; row++)
            gdev = tap_worst(gdev, fabs(Ys[k * 16 + row] - Y[idx[k] * 16 + row]));
    tap_ok(!rc && gdev == 0, "gather %s m=%d: signals copied exactly", e->name, m);
    free(cnt);
    free(ref);
    free(idx);
    free(best);
    free(Ys);
    free(Y);
    free(r);
    env_close(&t);
}

/* Thresholding of 3 blocks' codes with counts {n, n/3, 0}: sbo_code's
 * choice on the same values (ties from quantised values). */
static void threshold_check(struct env *e, int p, int s, int n)
{
    struct sbo_cl_train t;
    if (env_open(e, &t, p, s, 3, n))
        return;
    size_t len = (size_t)3 * p * n;
    double *C = malloc(len * sizeof *C), *got = malloc(len * sizeof *got);
    double *x = malloc(p * sizeof *x), *eye = calloc((size_t)p * p, sizeof *eye);
    int cnt[3] = { n, n / 3, 0 }, bad = 0;
    for (size_t k = 0; k < len; k++)
        C[k] = (double)((int)(rb_rng_u64(&e->rng) % 17) - 8) / 4;
    for (int k = 0; k < p; k++)
        eye[k + (size_t)k * p] = 1;
    int rc = put_ints(e, &t, t.cnt, cnt, 3) || put_real(e, &t, t.C, C, len)
             || sbo_cl_threshold(&e->c, &t, 3, n) || get_real(e, &t, t.C, got, len);
    for (int g = 0; !rc && g < 3; g++)
        for (int col = 0; col < n; col++) {
            const double *c = C + ((size_t)g * n + col) * p;
            const double *o = got + ((size_t)g * n + col) * p;
            if (col < cnt[g])
                sbo_code(p, s, eye, c, x);        /* Q = I: x = H_s(c) */
            else
                memset(x, 0, p * sizeof *x);
            for (int k = 0; k < p; k++)
                bad += o[k] != x[k];
        }
    tap_ok(!rc && bad == 0, "threshold %s p=%d s=%d: as sbo_code with ties, padding zeroed "
           "(%d entries differ)", e->name, p, s, bad);
    free(eye);
    free(x);
    free(got);
    free(C);
    env_close(&t);
}

/* The two GEMMs of 1ONB and the Gram matrix, batched with offsets, against
 * double loops; the own kernel, and CLBlast where built. */
static void gemm_check(struct env *e, int p, int n, int clblast)
{
    struct sbo_cl_train t;
    if (env_open(e, &t, p, 4, 3, 2 * n))
        return;
    t.clblast = clblast;
    const int nb = 3;
    size_t pp = (size_t)p * p, ny = (size_t)p * 2 * n, nc = (size_t)nb * p * n;
    double *D = malloc(nb * pp * sizeof *D), *Y = malloc(ny * sizeof *Y);
    double *C = malloc(nc * sizeof *C), *M = malloc(nb * pp * sizeof *M);
    for (size_t k = 0; k < nb * pp; k++)
        D[k] = rb_rng_normal(&e->rng);
    for (size_t k = 0; k < ny; k++)
        Y[k] = rb_rng_normal(&e->rng);
    size_t qo[3], yo[3], co[3], mo[3];
    for (int g = 0; g < nb; g++) {
        qo[g] = g * pp;
        yo[g] = (size_t)(g * n / 2) * p;           /* overlapping signal windows */
        co[g] = (size_t)g * p * n;
        mo[g] = g * pp;
    }
    int rc = put_real(e, &t, t.D, D, nb * pp) || put_real(e, &t, t.Y, Y, ny)
             || sbo_cl_gemm(&e->c, &t, 1, 0, p, n, p, t.D, qo, t.Y, yo, t.C, co, nb)
             || get_real(e, &t, t.C, C, nc)
             || sbo_cl_gemm(&e->c, &t, 0, 1, p, p, n, t.Y, yo, t.C, co, t.M, mo, nb)
             || get_real(e, &t, t.M, M, nb * pp);
    double dc = 0, dm = 0, sc = 0, sm = 0;
    for (int g = 0; !rc && g < nb; g++) {
        const double *Q = D + qo[g], *y = Y + yo[g];
        for (int col = 0; col < n; col++)
            for (int r = 0; r < p; r++) {
                double a = 0;
                for (int k = 0; k < p; k++)
                    a += Q[k + r * p] * y[k + col * p];
                dc = tap_worst(dc, fabs(C[co[g] + r + col * p] - a));
                sc = tap_worst(sc, fabs(a));
            }
        for (int a = 0; a < p; a++)
            for (int b = 0; b < p; b++) {
                double x = 0;
                for (int k = 0; k < n; k++)
                    x += y[a + k * p] * C[co[g] + b + k * p];
                dm = tap_worst(dm, fabs(M[mo[g] + a + b * p] - x));
                sm = tap_worst(sm, fabs(x));
            }
    }
    double tol_c = 4 * p * e->u * (sc + 1), tol_m = 4 * n * e->u * (sm + p * n);
    tap_ok(!rc && dc <= tol_c && dm <= tol_m, "GEMM %s %s p=%d n=%d x3: Q^T Y to %.2g "
           "(<= %.2g), Y C^T to %.2g (<= %.2g)", clblast ? "CLBlast" : "kernel", e->name, p,
           n, dc, tol_c, dm, tol_m);
    if (rc)
        tap_diag("rc %d: %s", rc, e->c.msg);
    free(M);
    free(C);
    free(Y);
    free(D);
    env_close(&t);
}

/* C_b = op(A_b) op(B_b) by sbo_cl_gemm for 2 entries and every transpose
 * pair, M x N, inner K, every operand of leading dimension p (the
 * training's), C poisoned (rows M .. p - 1 stay so), against double loops
 * to (K + 1) u sum |a b| per element.  K past a chunk splits it. */
static void gemm_shape_check(struct env *e, int p, int M, int N, int K)
{
    struct sbo_cl_train t;
    const int nb = 2, w = (M > K ? M : K) + 1, m = nb * (w > N ? w : N) + 1;
    if (env_open(e, &t, p, 4, nb, m))
        return;
    const size_t ny = (size_t)p * m, nc = (size_t)nb * p * N;
    double *A = malloc(ny * sizeof *A), *B = malloc(ny * sizeof *B);
    double *C = malloc(nc * sizeof *C);
    int rc = !A || !B || !C, ok = 1;
    double worst = 0;
    for (size_t k = 0; !rc && k < ny; k++) {
        A[k] = rb_rng_normal(&e->rng);
        B[k] = rb_rng_normal(&e->rng);
    }
    rc = rc || put_real(e, &t, t.Y, A, ny) || put_real(e, &t, t.Ysub, B, ny);
    size_t ao[2], bo[2], co[2];
    for (int g = 0; g < nb; g++) {
        ao[g] = (size_t)(g * w + 1) * p;
        bo[g] = (size_t)(nb - 1 - g) * w * p;
        co[g] = (size_t)(nb - 1 - g) * p * N;
    }
    for (int tr = 0; !rc && tr < 4; tr++) {
        const int ta = tr & 1, tb = tr >> 1;
        for (size_t k = 0; k < nc; k++)
            C[k] = NAN;
        rc = put_real(e, &t, t.C, C, nc)
             || sbo_cl_gemm(&e->c, &t, ta, tb, M, N, K, t.Y, ao, t.Ysub, bo, t.C, co, nb)
             || get_real(e, &t, t.C, C, nc);
        for (int g = 0; !rc && g < nb; g++)
            for (int col = 0; col < N; col++)
                for (int r = 0; r < p; r++) {
                    const double got = C[co[g] + r + (size_t)col * p];
                    if (r >= M) {
                        ok &= isnan(got);
                        continue;
                    }
                    double x = 0, ax = 0;
                    for (int k = 0; k < K; k++) {
                        const double a = ta ? A[ao[g] + k + (size_t)r * p]
                                            : A[ao[g] + r + (size_t)k * p];
                        const double b = tb ? B[bo[g] + col + (size_t)k * p]
                                            : B[bo[g] + k + (size_t)col * p];
                        x += a * b;
                        ax += fabs(a * b);
                    }
                    const double err = fabs(got - x) / ((K + 1) * e->u * ax + 1e-300);
                    ok &= err <= 1.0;
                    worst = tap_worst(worst, err);
                }
    }
    int chunk = 0;
    const int nsplit = sbo_gemm_split(M, N, K, nb, t.gpart_cap, &chunk);
    tap_ok(!rc && ok, "GEMM kernel %s %dx%d K=%d (%d chunks of %d), all transposes: to %.2g "
           "of K u sum |a b|", e->name, M, N, K, nsplit, chunk, worst);
    if (rc)
        tap_diag("rc %d: %s", rc, e->c.msg);
    free(C);
    free(B);
    free(A);
    env_close(&t);
}

int main(void)
{
    struct env e;
    struct rb_opencl *cl = cl_test_open(&e.ctx);
    int fp64 = cl_test_fp64(cl), precs = fp64 ? 2 : 1, blas = sbo_cl_have_clblast();
    uint64_t seed = tap_seed();
    /* SVD 4 + 3 + 2 under the floor, polar 4 + 2; basis, selection 3,
     * threshold, GEMM 3 or 4, GEMM shapes 3. */
    tap_plan(precs * (15 + 1 + 3 + 3 + 1 + 3 + blas + 3));
    tap_diag("seed %llu (RB_TEST_SEED=%llu repeats it); device %s%s%s",
             (unsigned long long)seed, (unsigned long long)seed, cl->name,
             fp64 ? "" : "; no fp64, f32 only", blas ? "" : "; no CLBlast");
    for (int k = 0; k < precs; k++) {
        env_init(&e, k ? RB_PREC_F64 : RB_PREC_F32, seed + (uint64_t)k);
        svd_check(&e, 64, 3, 64, 0);
        svd_check(&e, 37, 2, 18, 0);
        svd_check(&e, 37, 3, 37, 1);
        svd_check(&e, 16, 2, 9, 1);
        floor_check(&e, 64, 3);
        floor_check(&e, 37, 3);
        basis_check(&e, 37);
        select_check(&e, 1537, 1537 / 3 + 1, 5);
        select_check(&e, 40000, 40000, 7);      /* the whole order; chunks of pieces */
        threshold_check(&e, 37, 5, 70);
        gemm_check(&e, 37, 75, 0);
        gemm_check(&e, 37, 700, 0);     /* Y C^T: K split, not a chunk multiple */
        gemm_check(&e, 64, 4100, 0);    /* the training's p, many chunks */
        gemm_shape_check(&e, 40, 21, 70, 35);          /* K below a chunk, two tiles */
        gemm_shape_check(&e, 150, 40, 70, 150);        /* K split in two */
        gemm_shape_check(&e, 150, 67, 9, 133);         /* two row tiles, K split */
        if (blas)
            gemm_check(&e, 37, 75, 1);
    }
    rb_ctx_release(&e.ctx);
    return tap_done();
}
