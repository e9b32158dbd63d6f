/* SPDX-License-Identifier: MIT */
/* The planted union-of-orthonormal-bases generator and its atom recovery
 * count. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "datasets/planted.h"
#include "harness/error.h"

/* Column c minus its projections on the columns before it, then unit. */
static void orth_column(int p, double *Q, int c)
{
    double *q = Q + (size_t)c * p;
    for (int pass = 0; pass < 2; pass++)
        for (int k = 0; k < c; k++) {
            const double *e = Q + (size_t)k * p;
            double d = 0.0;
            for (int r = 0; r < p; r++)
                d += e[r] * q[r];
            for (int r = 0; r < p; r++)
                q[r] -= d * e[r];
        }
    double n = 0.0;
    for (int r = 0; r < p; r++)
        n += q[r] * q[r];
    n = sqrt(n);
    for (int r = 0; r < p; r++)
        q[r] /= n;
}

void rb_planted_orth(struct rb_rng *r, int p, double *Q)
{
    for (size_t k = 0; k < (size_t)p * p; k++)
        Q[k] = rb_rng_normal(r);
    for (int c = 0; c < p; c++)
        orth_column(p, Q, c);
}

int rb_planted_make(struct rb_planted *pl, int p, int m, int L, int s, double snr_db,
                    uint64_t seed)
{
    memset(pl, 0, sizeof *pl);
    if (p < 1 || m < 1 || L < 1 || s < 1 || s > p)
        return RB_EINVAL;
    *pl = (struct rb_planted){ .p = p, .m = m, .L = L, .s = s, .snr_db = snr_db };
    pl->D = malloc((size_t)L * p * p * sizeof *pl->D);
    pl->Y = calloc((size_t)m * p, sizeof *pl->Y);
    pl->block = malloc((size_t)m * sizeof *pl->block);
    int *atoms = malloc((size_t)p * sizeof *atoms);
    if (!pl->D || !pl->Y || !pl->block || !atoms) {
        free(atoms);
        rb_planted_free(pl);
        return RB_ENOMEM;
    }
    struct rb_rng r;
    rb_rng_seed(&r, rb_seed_derive(seed, "planted/blocks"));
    for (int j = 0; j < L; j++)
        rb_planted_orth(&r, p, pl->D + (size_t)j * p * p);
    rb_rng_seed(&r, rb_seed_derive(seed, "planted/signals"));
    double mean_norm = 0.0;
    for (int i = 0; i < m; i++) {
        int j = (int)(rb_rng_uniform(&r) * L);
        pl->block[i] = j;
        for (int k = 0; k < p; k++)
            atoms[k] = k;
        double *y = pl->Y + (size_t)i * p, n = 0.0;
        for (int k = 0; k < s; k++) {       /* partial Fisher-Yates */
            int at = k + (int)(rb_rng_uniform(&r) * (p - k)), t = atoms[at];
            atoms[at] = atoms[k];
            atoms[k] = t;
            const double *d = pl->D + ((size_t)j * p + t) * p;
            double a = rb_rng_normal(&r);
            for (int row = 0; row < p; row++)
                y[row] += a * d[row];
        }
        for (int row = 0; row < p; row++)
            n += y[row] * y[row];
        mean_norm += sqrt(n) / m;
    }
    free(atoms);
    if (isfinite(snr_db)) {
        double sigma = pow(10.0, -snr_db / 20.0) * mean_norm / sqrt((double)p);
        rb_rng_seed(&r, rb_seed_derive(seed, "planted/noise"));
        for (size_t k = 0; k < (size_t)m * p; k++)
            pl->Y[k] += sigma * rb_rng_normal(&r);
    }
    return 0;
}

void rb_planted_free(struct rb_planted *pl)
{
    free(pl->D);
    free(pl->Y);
    free(pl->block);
    pl->D = pl->Y = NULL;
    pl->block = NULL;
}

int rb_planted_recovered(int p, int nt, const double *Dt, int nb, const double *D, double tol)
{
    int found = 0;
    for (int a = 0; a < nt * p; a++) {
        const double *t = Dt + (size_t)a * p;
        int hit = 0;
        for (int b = 0; b < nb * p && !hit; b++) {
            const double *d = D + (size_t)b * p;
            double c = 0.0;
            for (int r = 0; r < p; r++)
                c += t[r] * d[r];
            hit = fabs(c) > tol;
        }
        found += hit;
    }
    return found;
}
