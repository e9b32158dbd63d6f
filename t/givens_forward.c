/* SPDX-License-Identifier: MIT */
/* The Givens forward: sign, order and layout against dense products,
 * Algorithm 1 = Algorithm 2 bit for bit, orthogonality and det = +1, and the
 * apply form against U X. */
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

static double *random_theta(struct rb_rng *r, size_t count)
{
    double *t = malloc(count * sizeof *t);
    for (size_t e = 0; e < count; e++)
        t[e] = rb_rng_range(r, -M_PI, M_PI);
    return t;
}

/* C = A B, all n x n. */
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

/* U = G^{e_1} ... G^{e_N} as dense products, E the flattened schedule: an
 * implementation of eq. (2) that shares nothing with the library but
 * rb_rr_pair, whose blocks t/rr_schedule checks against the notes. */
static void dense_forward(int n, int m, const double *theta, double *U)
{
    int nt = rb_rr_padded(n);
    double *G = malloc(sizeof(double) * n * n), *T = malloc(sizeof(double) * n * n);
    memset(U, 0, sizeof(double) * n * n);
    for (int r = 0; r < n; r++)
        U[r * n + r] = 1.0;
    for (int s = 0; s < rb_rr_steps(n); s++)
        for (int k = 0; k < rb_rr_slots(n); k++) {
            int i, j;
            rb_rr_pair(nt, s, k, &i, &j);
            if (!rb_rr_keep(n, m, i, j))
                continue;
            double t = theta[i * n - i * (i + 1) / 2 + j - i - 1];
            memset(G, 0, sizeof(double) * n * n);
            for (int r = 0; r < n; r++)
                G[r * n + r] = 1.0;
            G[i * n + i] = G[j * n + j] = cos(t);
            G[i * n + j] = -sin(t);
            G[j * n + i] = sin(t);
            matmul(n, U, G, T);
            memcpy(U, T, sizeof(double) * n * n);
        }
    free(T);
    free(G);
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

/* ||U^T U - I||_max in fp64 from a float or double U. */
static double orth_error(int n, const double *Ud, const float *Uf)
{
    double worst = 0.0;
    for (int a = 0; a < n; a++)
        for (int b = 0; b < n; b++) {
            double v = 0.0;
            for (int l = 0; l < n; l++) {
                double x = Ud ? Ud[l * n + a] : Uf[l * n + a];
                double y = Ud ? Ud[l * n + b] : Uf[l * n + b];
                v += x * y;
            }
            double d = fabs(v - (a == b));
            if (!(d <= worst) && !isnan(worst))
                worst = d;
        }
    return worst;
}

/* det U by LU with partial pivoting, in fp64. */
static double det(int n, const double *U)
{
    double *A = malloc(sizeof(double) * n * n), d = 1.0;
    memcpy(A, U, sizeof(double) * n * n);
    for (int c = 0; c < n; c++) {
        int p = c;
        for (int r = c + 1; r < n; r++)
            if (fabs(A[r * n + c]) > fabs(A[p * n + c]))
                p = r;
        if (p != c) {
            for (int l = 0; l < n; l++) {
                double t = A[c * n + l];
                A[c * n + l] = A[p * n + l];
                A[p * n + l] = t;
            }
            d = -d;
        }
        d *= A[c * n + c];
        for (int r = c + 1; r < n; r++) {
            double f = A[r * n + c] / A[c * n + c];
            for (int l = c; l < n; l++)
                A[r * n + l] -= f * A[c * n + l];
        }
    }
    free(A);
    return d;
}

/* One angle alone: U must be that rotation, signs and slot per the header. */
static void check_single(void)
{
    int n = 6, bad = 0;
    size_t count = givens_theta_count(n, 0);
    double *theta = calloc(count, sizeof *theta), U[36];
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++) {
            size_t e = givens_theta_index(n, i, j);
            theta[e] = 0.3;
            givens_forward_rr_d(n, 0, theta, U);
            theta[e] = 0.0;
            for (int a = 0; a < n; a++)
                for (int b = 0; b < n; b++) {
                    double want = a == b ? 1.0 : 0.0;
                    if ((a == i && b == i) || (a == j && b == j))
                        want = cos(0.3);
                    else if (a == i && b == j)
                        want = -sin(0.3);
                    else if (a == j && b == i)
                        want = sin(0.3);
                    bad += U[a * n + b] != want;
                }
        }
    tap_ok(bad == 0, "n=6: one angle at tri(i,j) gives G_ii = G_jj = c, G_ij = -s, G_ji = s");
    free(theta);
}

struct size {
    int n, m;
};

/* Largest n for the O(n^3)-per-factor dense product and the determinant. */
#define DENSE_MAX 65

static void check_size(struct rb_rng *r, struct size z)
{
    int n = z.n, m = z.m;
    size_t nn = (size_t)n * n, count = givens_theta_count(n, m);
    double *theta = random_theta(r, count);
    float *theta_f = malloc(count * sizeof *theta_f);
    for (size_t e = 0; e < count; e++)
        theta_f[e] = (float)theta[e];
    double *U1 = malloc(nn * sizeof *U1), *U2 = malloc(nn * sizeof *U2);
    float *F1 = malloc(nn * sizeof *F1), *F2 = malloc(nn * sizeof *F2);
    for (size_t k = 0; k < nn; k++)
        U1[k] = U2[k] = F1[k] = F2[k] = NAN;

    givens_forward_seq_d(n, m, theta, U1);
    givens_forward_rr_d(n, m, theta, U2);
    tap_ok(memcmp(U1, U2, nn * sizeof *U1) == 0, "n=%d m=%d f64: Algorithm 1 = 2 bit for bit",
           n, m);
    givens_forward_seq_f(n, m, theta_f, F1);
    givens_forward_rr_f(n, m, theta_f, F2);
    tap_ok(memcmp(F1, F2, nn * sizeof *F1) == 0, "n=%d m=%d f32: Algorithm 1 = 2 bit for bit",
           n, m);

    double oe = orth_error(n, U2, NULL), tol = 4.0 * n * 0x1.0p-52;
    if (!tap_ok(oe <= tol, "n=%d m=%d f64: ||U^T U - I||_max <= 4 n eps", n, m))
        tap_diag("%.3g > %.3g", oe, tol);
    oe = orth_error(n, NULL, F2);
    tol = 4.0 * n * 0x1.0p-23;
    if (!tap_ok(oe <= tol, "n=%d m=%d f32: ||U^T U - I||_max <= 4 n eps", n, m))
        tap_diag("%.3g > %.3g", oe, tol);
    if (n <= DENSE_MAX) {
        double d = det(n, U2);
        tap_ok(fabs(d - 1.0) <= 1e-12, "n=%d m=%d: det U = +1 (got %.15f)", n, m, d);
        dense_forward(n, m, theta, U1);
        double e = max_abs_diff(U1, U2, nn);
        if (!tap_ok(e <= 1e-13, "n=%d m=%d: U = dense product of eq. (2)", n, m))
            tap_diag("max diff %.3g", e);
    }

    int B = 5;
    double *X = malloc((size_t)n * B * sizeof *X), *Y = malloc((size_t)n * B * sizeof *Y);
    for (size_t k = 0; k < (size_t)n * B; k++)
        X[k] = Y[k] = rb_rng_normal(r);
    givens_apply_d(n, m, theta, Y, B);
    double worst = 0.0;
    for (int a = 0; a < n; a++)
        for (int b = 0; b < B; b++) {
            double v = 0.0;
            for (int l = 0; l < n; l++)
                v += U2[(size_t)a * n + l] * X[(size_t)l * B + b];
            double d = fabs(v - Y[(size_t)a * B + b]);
            if (!(d <= worst) && !isnan(worst))
                worst = d;
        }
    if (!tap_ok(worst <= 1e-13, "n=%d m=%d: apply_d(theta, X) = U X", n, m))
        tap_diag("max diff %.3g", worst);
    free(Y);
    free(X);
    free(F2);
    free(F1);
    free(U2);
    free(U1);
    free(theta_f);
    free(theta);
}

int main(void)
{
    static const struct size sizes[] = {
        { 2, 0 }, { 6, 0 }, { 7, 0 }, { 64, 0 }, { 65, 0 }, { 8, 4 }, { 9, 5 }, { 10, 9 },
        { 64, 20 }, { 256, 0 },
    };
    int nsizes = (int)(sizeof sizes / sizeof *sizes);
    uint64_t seed = tap_seed();
    struct rb_rng r;
    int plan = 1;
    for (int k = 0; k < nsizes; k++)
        plan += sizes[k].n <= DENSE_MAX ? 7 : 5;
    tap_plan(plan);
    tap_diag("seed %llu (RB_TEST_SEED=%llu repeats it)", (unsigned long long)seed,
             (unsigned long long)seed);
    rb_rng_seed(&r, seed);
    check_single();
    for (int k = 0; k < nsizes; k++)
        check_size(&r, sizes[k]);
    return tap_done();
}
