/* SPDX-License-Identifier: MIT */
/* The fp64 SBO building blocks in plain loops: hard-thresholded coding, the
 * block choice and its brute-force check, the explicit RMSE, the Procrustes
 * step through LAPACKE_dgesvd, initial bases and 1ONB. */
#include <lapacke.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "datasets/planted.h"
#include "harness/error.h"
#include "impl/common/rng.h"
#include "impl/sbo/sbo.h"

void sbo_opts_default(struct sbo_opts *o)
{
    *o = (struct sbo_opts){ .s = 8, .L = 4, .W = 0, .K = 20, .R = 20, .refine_iters = 1,
                            .target_rmse = 0.0, .init = SBO_INIT_SVD_OF_DATA };
}

int sbo_worst_count(const struct sbo_opts *o, int m)
{
    int w = o->W > 0 ? o->W : m / 4;
    return w < 1 ? 1 : w > m ? m : w;
}

/* Indices of the s largest |c_k|, ties to the lower index; s <= p, s <= 64. */
static int top_indices(int p, int s, const double *c, int *idx)
{
    int n = 0;
    for (int k = 0; k < p; k++) {
        double a = fabs(c[k]);
        if (n == s && a <= fabs(c[idx[n - 1]]))
            continue;
        int at = n < s ? n++ : n - 1;
        while (at > 0 && fabs(c[idx[at - 1]]) < a) {
            idx[at] = idx[at - 1];
            at--;
        }
        idx[at] = k;
    }
    return n;
}

double sbo_top_energy(int p, int s, const double *c)
{
    int idx[64];
    int n = top_indices(p, s > 64 ? 64 : s, c, idx);
    double e = 0.0;
    for (int k = 0; k < n; k++)
        e += c[idx[k]] * c[idx[k]];
    return e;
}

/* The sum of the s largest squares of c, as sbo_top_energy: an insertion
 * list of the s largest, ties to the earlier entry. */
float sbo_top_energy_f(int p, int s, const float *c)
{
    float top[SBO_MAX_S];
    int n = 0;
    for (int k = 0; k < p; k++) {
        float a = c[k] * c[k];
        if (n == s && a <= top[n - 1])
            continue;
        int at = n < s ? n++ : n - 1;
        while (at > 0 && top[at - 1] < a) {
            top[at] = top[at - 1];
            at--;
        }
        top[at] = a;
    }
    float e = 0.0f;
    for (int k = 0; k < n; k++)
        e += top[k];
    return e;
}

static void qt_times(int p, const double *Q, const double *y, double *c)
{
    for (int r = 0; r < p; r++) {
        double acc = 0.0;
        for (int k = 0; k < p; k++)
            acc += Q[(size_t)r * p + k] * y[k];
        c[r] = acc;
    }
}

double sbo_code(int p, int s, const double *Q, const double *y, double *x)
{
    int idx[64];
    qt_times(p, Q, y, x);
    int n = top_indices(p, s > 64 ? 64 : s, x, idx);
    double keep[64], e = 0.0;
    for (int k = 0; k < n; k++)
        keep[k] = x[idx[k]];
    memset(x, 0, (size_t)p * sizeof *x);
    for (int k = 0; k < n; k++) {
        x[idx[k]] = keep[k];
        e += keep[k] * keep[k];
    }
    return e;
}

void sbo_represent(int p, int s, int nb, const double *D, int m, const double *Y,
                   int *best, double *energy, double *all)
{
    double c[4096];
    for (int i = 0; i < m; i++) {
        int jb = 0;
        double eb = -1.0;
        for (int j = 0; j < nb; j++) {
            qt_times(p, D + (size_t)j * p * p, Y + (size_t)i * p, c);
            double e = sbo_top_energy(p, s, c);
            if (all)
                all[(size_t)i * nb + j] = e;
            if (e > eb) {
                eb = e;
                jb = j;
            }
        }
        if (best)
            best[i] = jb;
        if (energy)
            energy[i] = eb;
    }
}

static int by_magnitude(const void *a, const void *b)
{
    double x = fabs(*(const double *)a), y = fabs(*(const double *)b);
    return (x < y) - (x > y);
}

/* |y - Q x|^2 with x = H_s(Q^T y) from a full sort; c, x scratch of p. */
static double resid_sorted(int p, int s, const double *Q, const double *y, double *c,
                           double *x)
{
    qt_times(p, Q, y, c);
    memcpy(x, c, (size_t)p * sizeof *x);
    qsort(x, (size_t)p, sizeof *x, by_magnitude);
    double cut = fabs(x[s - 1]);
    int kept = 0;
    for (int k = 0; k < p; k++) {
        int keep = kept < s && fabs(c[k]) >= cut;
        kept += keep;
        x[k] = keep ? c[k] : 0.0;
    }
    double r = 0.0;
    for (int row = 0; row < p; row++) {
        double acc = y[row];
        for (int k = 0; k < p; k++)
            acc -= Q[(size_t)k * p + row] * x[k];
        r += acc * acc;
    }
    return r;
}

int sbo_best_block_brute(int p, int s, int nb, const double *D, const double *y,
                         double *resid)
{
    double *c = malloc(2 * (size_t)p * sizeof *c);
    if (!c)
        return -1;
    int jb = 0;
    double rb = INFINITY;
    for (int j = 0; j < nb; j++) {
        double r = resid_sorted(p, s, D + (size_t)j * p * p, y, c, c + p);
        if (r < rb) {
            rb = r;
            jb = j;
        }
    }
    free(c);
    *resid = rb;
    return jb;
}

double sbo_rmse_explicit(int p, int s, const double *D, int m, const double *Y,
                         const int *assign)
{
    double x[4096], sum = 0.0;
    for (int i = 0; i < m; i++) {
        const double *Q = D + (size_t)assign[i] * p * p, *y = Y + (size_t)i * p;
        sbo_code(p, s, Q, y, x);
        for (int row = 0; row < p; row++) {
            double acc = y[row];
            for (int k = 0; k < p; k++)
                acc -= Q[(size_t)k * p + row] * x[k];
            sum += acc * acc;
        }
    }
    return sqrt(sum / ((double)p * m));
}

double sbo_orth_error(int p, int nb, const double *D)
{
    double worst = 0.0;
    for (int j = 0; j < nb; j++) {
        const double *Q = D + (size_t)j * p * p;
        double f = 0.0;
        for (int a = 0; a < p; a++)
            for (int b = 0; b < p; b++) {
                double g = 0.0;
                for (int k = 0; k < p; k++)
                    g += Q[(size_t)a * p + k] * Q[(size_t)b * p + k];
                g -= a == b;
                f += g * g;
            }
        /* fmax would pass over a NaN block: an unwritten D must fail. */
        worst = isnan(worst) || isnan(f) ? NAN : fmax(worst, sqrt(f));
    }
    return worst;
}

int sbo_polar(int p, const double *M, double *Q)
{
    size_t pp = (size_t)p * p;
    double *a = malloc((3 * pp + 2 * (size_t)p) * sizeof *a);
    if (!a)
        return RB_ENOMEM;
    double *u = a + pp, *vt = u + pp, *sv = vt + pp, *sup = sv + p;
    memcpy(a, M, pp * sizeof *a);
    lapack_int info = LAPACKE_dgesvd(LAPACK_COL_MAJOR, 'A', 'A', p, p, a, p, sv, u, p, vt,
                                     p, sup);
    if (info == 0)
        for (int c = 0; c < p; c++)
            for (int r = 0; r < p; r++) {
                double acc = 0.0;
                for (int k = 0; k < p; k++)
                    acc += u[(size_t)k * p + r] * vt[(size_t)c * p + k];
                Q[(size_t)c * p + r] = acc;
            }
    free(a);
    return info == 0 ? 0 : RB_EINVAL;
}

int sbo_init_basis(int p, int m, const double *Y, enum sbo_init how, uint64_t seed,
                   double *Q)
{
    size_t pp = (size_t)p * p;
    if (how == SBO_INIT_IDENTITY || how == SBO_INIT_RANDOM_ORTH) {
        memset(Q, 0, pp * sizeof *Q);
        for (int k = 0; k < p; k++)
            Q[(size_t)k * p + k] = 1.0;
        if (how == SBO_INIT_RANDOM_ORTH) {
            struct rb_rng r;
            rb_rng_seed(&r, seed);
            rb_planted_orth(&r, p, Q);
        }
        return 0;
    }
    /* svd_of_data: G = Y Y^T is symmetric, so its SVD's U are the left
     * singular vectors of Y, by descending singular value. */
    double *g = malloc((2 * pp + 2 * (size_t)p) * sizeof *g);
    if (!g)
        return RB_ENOMEM;
    double *vt = g + pp, *sv = vt + pp, *sup = sv + p;
    memset(g, 0, pp * sizeof *g);
    for (int i = 0; i < m; i++) {
        const double *y = Y + (size_t)i * p;
        for (int c = 0; c < p; c++)
            for (int r = 0; r < p; r++)
                g[(size_t)c * p + r] += y[r] * y[c];
    }
    lapack_int info = LAPACKE_dgesvd(LAPACK_COL_MAJOR, 'A', 'A', p, p, g, p, sv, Q, p, vt, p,
                                     sup);
    free(g);
    return info == 0 ? 0 : RB_EINVAL;
}

int sbo_1onb(int p, int m, const double *Y, int s, int K, double *Q, double *err)
{
    size_t pp = (size_t)p * p;
    double *M = malloc((pp + (size_t)p) * sizeof *M);
    if (!M)
        return RB_ENOMEM;
    double *x = M + pp, ynorm = 0.0;
    for (size_t k = 0; k < (size_t)m * p; k++)
        ynorm += Y[k] * Y[k];
    int rc = 0;
    for (int it = 0; it <= K && rc == 0; it++) {
        double kept = 0.0;
        memset(M, 0, pp * sizeof *M);
        for (int i = 0; i < m; i++) {
            const double *y = Y + (size_t)i * p;
            kept += sbo_code(p, s, Q, y, x);
            for (int c = 0; c < p; c++)
                if (x[c] != 0.0)
                    for (int r = 0; r < p; r++)
                        M[(size_t)c * p + r] += y[r] * x[c];
        }
        if (err)
            err[it] = fmax(ynorm - kept, 0.0);
        if (it < K)
            rc = sbo_polar(p, M, Q);
    }
    free(M);
    return rc;
}
