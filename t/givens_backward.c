/* SPDX-License-Identifier: MIT */
/* The Givens JVP: Algorithm 3 against the O(n^3)-per-angle dense reference
 * and central differences, the apply-form JVP against Algorithm 3, and fp32
 * against fp64 (notes/givens.md sections 5 and 12). */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "impl/common/rng.h"
#include "impl/common/roundrobin.h"
#include "impl/givens/givens.h"
#include "t/tap.h"

static void fill_normal(struct rb_rng *r, double *a, size_t len)
{
    for (size_t k = 0; k < len; k++)
        a[k] = rb_rng_normal(r);
}

static void matmul(int n, const double *A, const double *B, double *C)
{
    for (int a = 0; a < n; a++)
        for (int b = 0; b < n; b++) {
            double v = 0.0;
            for (int l = 0; l < n; l++)
                v += A[a * n + l] * B[l * n + b];
            C[a * n + b] = v;
        }
}

static void givens_dense(int n, int i, int j, double t, int derivative, double *G)
{
    memset(G, 0, sizeof(double) * n * n);
    for (int r = 0; !derivative && r < n; r++)
        G[r * n + r] = 1.0;
    double c = cos(t), s = sin(t);
    G[i * n + i] = G[j * n + j] = derivative ? -s : c;
    G[i * n + j] = derivative ? -c : -s;
    G[j * n + i] = derivative ? c : s;
}

/* dL/dtheta_e = <Gamma, G^{e_1} .. dG^{e_k} .. G^{e_N}> with prefix and
 * suffix products: O(n^3) per angle, sharing nothing with Algorithm 3. */
static void dense_jvp(int n, int m, const double *theta, const double *Gamma, double *out)
{
    int nt = rb_rr_padded(n), N = 0;
    size_t nn = (size_t)n * n;
    int (*pairs)[2] = malloc(sizeof(int[2]) * givens_theta_count(n, m));
    for (int s = 0; s < rb_rr_steps(n); s++)
        for (int k = 0; k < rb_rr_slots(n); k++) {
            int i, j;
            rb_rr_pair(nt, s, k, &i, &j);
            if (rb_rr_keep(n, m, i, j)) {
                pairs[N][0] = i;
                pairs[N++][1] = j;
            }
        }
    double *suffix = malloc(sizeof(double) * nn * (N + 1));
    double *P = malloc(sizeof(double) * nn), *G = malloc(sizeof(double) * nn);
    double *T = malloc(sizeof(double) * nn), *T2 = malloc(sizeof(double) * nn);
    memset(suffix + nn * N, 0, sizeof(double) * nn);
    for (int r = 0; r < n; r++)
        suffix[nn * N + r * n + r] = 1.0;
    for (int k = N - 1; k >= 0; k--) {     /* suffix[k] = G^{e_k} .. G^{e_N} */
        int i = pairs[k][0], j = pairs[k][1];
        givens_dense(n, i, j, theta[givens_theta_index(n, i, j)], 0, G);
        matmul(n, G, suffix + nn * (k + 1), suffix + nn * k);
    }
    memcpy(P, suffix + nn * N, sizeof(double) * nn);   /* identity */
    for (int k = 0; k < N; k++) {
        int i = pairs[k][0], j = pairs[k][1];
        size_t e = givens_theta_index(n, i, j);
        givens_dense(n, i, j, theta[e], 1, G);
        matmul(n, P, G, T);
        matmul(n, T, suffix + nn * (k + 1), T2);
        double v = 0.0;
        for (size_t q = 0; q < nn; q++)
            v += Gamma[q] * T2[q];
        out[e] = v;
        givens_dense(n, i, j, theta[e], 0, G);
        matmul(n, P, G, T);
        memcpy(P, T, sizeof(double) * nn);
    }
    free(T2);
    free(T);
    free(G);
    free(P);
    free(suffix);
    free(pairs);
}

static double max_abs(const double *a, size_t len)
{
    double worst = 0.0;
    for (size_t k = 0; k < len; k++)
        if (!(fabs(a[k]) <= worst) && !isnan(worst))
            worst = fabs(a[k]);
    return worst;
}

static double max_abs_diff(const double *a, const double *b, size_t len)
{
    double worst = 0.0;
    for (size_t k = 0; k < len; k++) {
        double d = fabs(a[k] - b[k]);
        if (!(d <= worst) && !isnan(worst))
            worst = d;
    }
    return worst;
}

/* Algorithm 3 in fp64 at (theta, Gamma); dtheta poisoned first. */
static void alg3(int n, int m, const double *theta, const double *Gamma, double *dtheta)
{
    size_t nn = (size_t)n * n, count = givens_theta_count(n, m);
    double *U = malloc(nn * sizeof *U);
    double *work = malloc(givens_backward_work_count(n) * sizeof *work);
    for (size_t e = 0; e < count; e++)
        dtheta[e] = NAN;
    givens_forward_rr_d(n, m, theta, U);
    givens_backward_rr_d(n, m, theta, U, Gamma, dtheta, work);
    free(work);
    free(U);
}

static double loss(int n, int m, const double *theta, const double *Gamma, double *U)
{
    givens_forward_rr_d(n, m, theta, U);
    double v = 0.0;
    for (size_t q = 0; q < (size_t)n * n; q++)
        v += Gamma[q] * U[q];
    return v;
}

static void check_small(struct rb_rng *r, int n, int m)
{
    size_t nn = (size_t)n * n, count = givens_theta_count(n, m);
    double *theta = malloc(count * sizeof *theta), *Gamma = malloc(nn * sizeof *Gamma);
    double *got = malloc(count * sizeof *got), *ref = malloc(count * sizeof *ref);
    double *U = malloc(nn * sizeof *U);
    for (size_t e = 0; e < count; e++)
        theta[e] = rb_rng_range(r, -M_PI, M_PI);
    fill_normal(r, Gamma, nn);
    alg3(n, m, theta, Gamma, got);
    dense_jvp(n, m, theta, Gamma, ref);
    double scale = max_abs(ref, count) > 1.0 ? max_abs(ref, count) : 1.0;
    double d = max_abs_diff(got, ref, count);
    if (!tap_ok(d <= 1e-12 * scale, "n=%d m=%d: Algorithm 3 = dense reference", n, m))
        tap_diag("max diff %.3g, scale %.3g", d, scale);

    const double h = 1e-6;
    double worst = 0.0;
    for (size_t e = 0; e < count; e++) {
        double t = theta[e];
        theta[e] = t + h;
        double lp = loss(n, m, theta, Gamma, U);
        theta[e] = t - h;
        double lm = loss(n, m, theta, Gamma, U);
        theta[e] = t;
        double fd = (lp - lm) / (2 * h), err = fabs(fd - got[e]);
        if (!(err <= worst) && !isnan(worst))
            worst = err;
    }
    if (!tap_ok(worst <= 1e-8 * scale, "n=%d m=%d: Algorithm 3 = central differences", n, m))
        tap_diag("max diff %.3g, scale %.3g", worst, scale);
    else
        tap_diag("n=%d m=%d: |fd - jvp| max %.2g", n, m, worst);
    free(U);
    free(ref);
    free(got);
    free(Gamma);
    free(theta);
}

/* The apply form at (Y = U X, GY) against Algorithm 3 at Gamma = GY X^T,
 * its dX against U^T GY, and Y back to X. */
static void check_apply(struct rb_rng *r, int n, int m, int B)
{
    size_t nn = (size_t)n * n, nb = (size_t)n * B, count = givens_theta_count(n, m);
    double *theta = malloc(count * sizeof *theta), *Gamma = malloc(nn * sizeof *Gamma);
    double *X = malloc(nb * sizeof *X), *GY = malloc(nb * sizeof *GY);
    double *Y = malloc(nb * sizeof *Y), *D = malloc(nb * sizeof *D);
    double *got = malloc(count * sizeof *got), *ref = malloc(count * sizeof *ref);
    double *U = malloc(nn * sizeof *U);
    for (size_t e = 0; e < count; e++)
        theta[e] = rb_rng_range(r, -M_PI, M_PI);
    fill_normal(r, X, nb);
    fill_normal(r, GY, nb);
    for (int a = 0; a < n; a++)
        for (int b = 0; b < n; b++) {
            double v = 0.0;
            for (int k = 0; k < B; k++)
                v += GY[(size_t)a * B + k] * X[(size_t)b * B + k];
            Gamma[(size_t)a * n + b] = v;
        }
    alg3(n, m, theta, Gamma, ref);
    memcpy(Y, X, nb * sizeof *Y);
    givens_apply_d(n, m, theta, Y, B);
    memcpy(D, GY, nb * sizeof *D);
    for (size_t e = 0; e < count; e++)
        got[e] = NAN;
    givens_apply_backward_d(n, m, theta, Y, D, B, got, NULL);
    double scale = max_abs(ref, count) > 1.0 ? max_abs(ref, count) : 1.0;
    double d = max_abs_diff(got, ref, count);
    if (!tap_ok(d <= 1e-12 * scale, "n=%d m=%d B=%d: apply-form JVP = Algorithm 3", n, m, B))
        tap_diag("max diff %.3g, scale %.3g", d, scale);

    givens_forward_rr_d(n, m, theta, U);
    double worst = 0.0;
    for (int a = 0; a < n; a++)
        for (int b = 0; b < B; b++) {
            double v = 0.0;                 /* (U^T GY)_ab */
            for (int l = 0; l < n; l++)
                v += U[(size_t)l * n + a] * GY[(size_t)l * B + b];
            double e = fabs(v - D[(size_t)a * B + b]);
            if (!(e <= worst) && !isnan(worst))
                worst = e;
        }
    if (!tap_ok(worst <= 1e-12, "n=%d m=%d: dX = U^T GY", n, m))
        tap_diag("max diff %.3g", worst);
    d = max_abs_diff(Y, X, nb);
    if (!tap_ok(d <= 1e-12, "n=%d m=%d: Y returns to X", n, m))
        tap_diag("max diff %.3g", d);
    free(U);
    free(ref);
    free(got);
    free(D);
    free(Y);
    free(GY);
    free(X);
    free(Gamma);
    free(theta);
}

/* fp32 Algorithm 3 (on the fp32 forward) against fp64, max error over RMS
 * within the 8 n eps of givens_check_backward. */
static void check_f32(struct rb_rng *r, int n, int m)
{
    size_t nn = (size_t)n * n, count = givens_theta_count(n, m);
    double *theta = malloc(count * sizeof *theta), *Gamma = malloc(nn * sizeof *Gamma);
    double *ref = malloc(count * sizeof *ref);
    float *tf = malloc(count * sizeof *tf), *Gf = malloc(nn * sizeof *Gf);
    float *Uf = malloc(nn * sizeof *Uf), *df = malloc(count * sizeof *df);
    float *wf = malloc(givens_backward_work_count(n) * sizeof *wf);
    for (size_t e = 0; e < count; e++) {
        tf[e] = (float)rb_rng_range(r, -M_PI, M_PI);
        theta[e] = tf[e];
        df[e] = NAN;
    }
    for (size_t q = 0; q < nn; q++) {
        Gf[q] = (float)rb_rng_normal(r);
        Gamma[q] = Gf[q];
    }
    alg3(n, m, theta, Gamma, ref);
    givens_forward_rr_f(n, m, tf, Uf);
    givens_backward_rr_f(n, m, tf, Uf, Gf, df, wf);
    double worst = 0.0, sq = 0.0;
    for (size_t e = 0; e < count; e++) {
        double d = fabs(df[e] - ref[e]);
        if (!(d <= worst) && !isnan(worst))
            worst = d;
        sq += ref[e] * ref[e];
    }
    double err = worst / sqrt(sq / count), tol = 8.0 * n * 0x1.0p-23;
    if (!tap_ok(err <= tol, "n=%d m=%d: f32 Algorithm 3 = f64 within 8 n eps", n, m))
        tap_diag("error %.3g > %.3g", err, tol);
    else
        tap_diag("n=%d m=%d: f32 error %.3g = %.3f n eps", n, m, err, err / n / 0x1.0p-23);
    free(wf);
    free(df);
    free(Uf);
    free(Gf);
    free(tf);
    free(ref);
    free(Gamma);
    free(theta);
}

int main(void)
{
    static const int small[][2] = { { 2, 0 }, { 6, 0 }, { 7, 0 }, { 10, 0 }, { 8, 4 },
                                    { 9, 5 }, { 10, 9 } };
    static const int apply[][3] = { { 6, 0, 5 }, { 7, 0, 3 }, { 64, 0, 5 }, { 65, 0, 4 },
                                    { 64, 20, 5 }, { 9, 5, 1 } };
    static const int f32[][2] = { { 64, 0 }, { 255, 0 }, { 256, 100 } };
    int ns = (int)(sizeof small / sizeof *small), na = (int)(sizeof apply / sizeof *apply);
    int nf = (int)(sizeof f32 / sizeof *f32);
    uint64_t seed = tap_seed();
    struct rb_rng r;
    tap_plan(2 * ns + 3 * na + nf);
    tap_diag("seed %llu (RB_TEST_SEED=%llu repeats it)", (unsigned long long)seed,
             (unsigned long long)seed);
    rb_rng_seed(&r, seed);
    for (int k = 0; k < ns; k++)
        check_small(&r, small[k][0], small[k][1]);
    for (int k = 0; k < na; k++)
        check_apply(&r, apply[k][0], apply[k][1], apply[k][2]);
    for (int k = 0; k < nf; k++)
        check_f32(&r, f32[k][0], f32[k][1]);
    return tap_done();
}
