/* SPDX-License-Identifier: MIT */
/* Sammon start configurations: seeded uniform random, and the uncentred PCA
 * of Cawley's sammon.m (y = X V_m, V_m the top eigenvectors of X^T X) with a
 * small cyclic Jacobi eigensolver, since n is at most a few hundred here. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif
#include "impl/common/rng.h"
#include "impl/sammon/sammon.h"

void sammon_init_random(uint64_t seed, int N, int m, double scale, double *y)
{
    struct rb_rng r;
    rb_rng_seed(&r, seed);
    for (size_t k = 0; k < (size_t)N * m; k++)
        y[k] = rb_rng_range(&r, 0.0, scale);
}

static double off_diagonal(int n, const double *a)
{
    double s = 0.0;
    for (int p = 0; p < n; p++)
        for (int q = p + 1; q < n; q++)
            s += a[(size_t)p * n + q] * a[(size_t)p * n + q];
    return s;
}

/* Rotate rows/columns p, q of the symmetric a (n x n) to zero a[p][q], and
 * columns p, q of v the same way (Golub and Van Loan, Algorithm 8.4.2). */
static void jacobi_rotate(int n, double *a, double *v, int p, int q)
{
    double apq = a[(size_t)p * n + q];
    if (apq == 0.0)
        return;
    double app = a[(size_t)p * n + p], aqq = a[(size_t)q * n + q];
    double tau = (aqq - app) / (2.0 * apq);
    double t = (tau >= 0 ? 1.0 : -1.0) / (fabs(tau) + sqrt(1.0 + tau * tau));
    double cs = 1.0 / sqrt(1.0 + t * t), sn = t * cs;
    for (int k = 0; k < n; k++) {
        double akp = a[(size_t)k * n + p], akq = a[(size_t)k * n + q];
        a[(size_t)k * n + p] = cs * akp - sn * akq;
        a[(size_t)k * n + q] = sn * akp + cs * akq;
    }
    for (int k = 0; k < n; k++) {
        double apk = a[(size_t)p * n + k], aqk = a[(size_t)q * n + k];
        a[(size_t)p * n + k] = cs * apk - sn * aqk;
        a[(size_t)q * n + k] = sn * apk + cs * aqk;
    }
    for (int k = 0; k < n; k++) {
        double vkp = v[(size_t)k * n + p], vkq = v[(size_t)k * n + q];
        v[(size_t)k * n + p] = cs * vkp - sn * vkq;
        v[(size_t)k * n + q] = sn * vkp + cs * vkq;
    }
}

/* Eigen-decompose the symmetric a in place: the diagonal ends up holding
 * the eigenvalues, v (n x n) the eigenvectors as columns. */
static void jacobi_eigen(int n, double *a, double *v)
{
    double norm = 0.0;
    for (size_t k = 0; k < (size_t)n * n; k++)
        norm += a[k] * a[k];
    for (int p = 0; p < n; p++)
        for (int q = 0; q < n; q++)
            v[(size_t)p * n + q] = p == q;
    /* Cyclic sweeps converge quadratically; 60 is far more than needed. */
    for (int sweep = 0; sweep < 60 && off_diagonal(n, a) > 1e-30 * norm; sweep++)
        for (int p = 0; p < n; p++)
            for (int q = p + 1; q < n; q++)
                jacobi_rotate(n, a, v, p, q);
}

/* a = X^T X (n x n, zeroed), each entry summed over the rows i in order, so
 * that the start is the same whatever the thread count: each thread takes
 * a band of rows p of a, its upper part q >= p, in one sweep over X (O(N
 * n^2 / 2); 65536 x 64 on one thread is a noticeable part of a GPU run),
 * and the lower part is mirrored. */
static void gram_upper(int N, int n, const double *x, double *a)
{
#ifdef _OPENMP
#pragma omp parallel if ((size_t)N * n >= 65536)
#endif
    {
        int lo = 0, hi = n;
#ifdef _OPENMP
        /* Bands of equal work: band t ends where (n - p)^2 has dropped by
         * t + 1 shares of n^2. */
        const int t = omp_get_thread_num(), T = omp_get_num_threads();
        lo = n - (int)lround(n * sqrt(1.0 - (double)t / T));
        hi = n - (int)lround(n * sqrt(1.0 - (double)(t + 1) / T));
#endif
        for (int i = 0; i < N; i++) {
            const double *xi = x + (size_t)i * n;
            for (int p = lo; p < hi; p++) {
                const double xp = xi[p];
                double *ap = a + (size_t)p * n;
                for (int q = p; q < n; q++)
                    ap[q] += xp * xi[q];
            }
        }
    }
    for (int p = 0; p < n; p++)
        for (int q = 0; q < p; q++)
            a[(size_t)p * n + q] = a[(size_t)q * n + p];
}

/* The index of the largest eigenvalue not yet taken. */
static int next_largest(int n, const double *a, const char *taken)
{
    int best = -1;
    for (int k = 0; k < n; k++)
        if (!taken[k] && (best < 0 || a[(size_t)k * n + k] > a[(size_t)best * n + best]))
            best = k;
    return best;
}

int sammon_init_pca(int N, int n, int m, const double *x, double *y)
{
    if (m > n || m > N)
        return -1;
    double *a = calloc((size_t)n * n, sizeof *a), *v = malloc((size_t)n * n * sizeof *v);
    char *taken = calloc((size_t)n, 1);
    int rc = -1;
    if (!a || !v || !taken)
        goto out_free;
    gram_upper(N, n, x, a);
    jacobi_eigen(n, a, v);
    double top = 0.0;
    for (int col = 0; col < m; col++) {
        int k = next_largest(n, a, taken);
        double lam = a[(size_t)k * n + k];
        taken[k] = 1;
        if (col == 0)
            top = lam;
        /* A direction with no variance beyond rounding: rank < m. */
        if (!(lam > 1e-12 * n * top) || !(top > 0.0))
            goto out_free;
        /* The sign of a singular vector is arbitrary: make the largest
         * entry positive so every platform starts from the same y. */
        int big = 0;
        for (int p = 1; p < n; p++)
            if (fabs(v[(size_t)p * n + k]) > fabs(v[(size_t)big * n + k]))
                big = p;
        double sgn = v[(size_t)big * n + k] < 0 ? -1.0 : 1.0;
#ifdef _OPENMP
#pragma omp parallel for schedule(static) if ((size_t)N * n >= 65536)
#endif
        for (int i = 0; i < N; i++) {
            double s = 0.0;
            for (int p = 0; p < n; p++)
                s += x[(size_t)i * n + p] * v[(size_t)p * n + k];
            y[(size_t)i * m + col] = sgn * s;
        }
    }
    rc = 0;
out_free:
    free(taken);
    free(v);
    free(a);
    return rc;
}
