/* SPDX-License-Identifier: MIT */
/* The float SBO training loop with OpenMP and OpenBLAS: sbo_train's steps
 * (sbo_train.c) on sbo_omp.c's building blocks; each block's signals are
 * gathered contiguously before its 1ONB, as the paper does before step 5. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "harness/error.h"
#include "impl/common/rng.h"
#include "impl/sbo/sbo_omp.h"

struct work {
    int p, m, threads;
    const float *Y;
    float *energy, *sub;            /* m, p x m (gathered signals) */
    double *ynorm, *r;              /* m, m */
    int *order;                     /* m */
};

static int assign_all(struct work *w, const struct sbo_opts *o, int nb, const float *D,
                      int *assign, double *rmse)
{
    int rc = sbo_represent_omp(w->p, o->s, nb, D, w->m, w->Y, assign, w->energy, w->threads);
    double sum = 0.0;
    for (int i = 0; i < w->m; i++) {
        w->r[i] = fmax(w->ynorm[i] - w->energy[i], 0.0);
        sum += w->r[i];
    }
    *rmse = sqrt(sum / ((double)w->p * w->m));
    return rc;
}

static void gather(struct work *w, const int *idx, int n)
{
#pragma omp parallel for num_threads(w->threads) schedule(static) if (n > SBO_OMP_CHUNK)
    for (int k = 0; k < n; k++)
        memcpy(w->sub + (size_t)k * w->p, w->Y + (size_t)idx[k] * w->p,
               (size_t)w->p * sizeof *w->sub);
}

static int add_block(struct work *w, const struct sbo_opts *o, int nb, float *Q)
{
    int W = sbo_worst_count(o, w->m);
    if (sbo_worst(w->m, w->r, W, w->order))
        return RB_ENOMEM;
    gather(w, w->order, W);
    char key[32];
    snprintf(key, sizeof key, "sbo/init/%d", nb);
    int rc = sbo_init_basis_omp(w->p, W, w->sub, o->init, rb_seed_derive(o->seed, key), Q,
                                w->threads);
    return rc ? rc : sbo_1onb_omp(w->p, W, w->sub, o->s, o->K, Q, NULL, w->threads);
}

static int refine(struct work *w, const struct sbo_opts *o, int nb, float *D,
                  const int *assign)
{
    for (int j = 0; j < nb; j++) {
        int n = 0;
        for (int i = 0; i < w->m; i++)
            if (assign[i] == j)
                w->order[n++] = i;
        if (n == 0)
            continue;                   /* an empty block is left as is */
        gather(w, w->order, n);
        int rc = sbo_1onb_omp(w->p, n, w->sub, o->s, o->refine_iters,
                              D + (size_t)j * w->p * w->p, NULL, w->threads);
        if (rc)
            return rc;
    }
    return 0;
}

int sbo_train_omp(int p, int m, const float *Y, const struct sbo_opts *o, float *D, int *nb,
                  int *assign, double *rmse, int threads)
{
    if (p < 1 || p > SBO_MAX_P || m < 1 || o->s < 1 || o->s > p || o->s > SBO_MAX_S
        || o->L < 1 || o->K < 0 || o->R < 0 || o->refine_iters < 0 || threads < 1)
        return RB_EINVAL;
    struct work w = { .p = p, .m = m, .threads = threads, .Y = Y };
    w.energy = malloc((size_t)m * sizeof *w.energy);
    w.sub = malloc((size_t)m * p * sizeof *w.sub);
    w.ynorm = malloc((size_t)m * sizeof *w.ynorm);
    w.r = malloc((size_t)m * sizeof *w.r);
    w.order = malloc((size_t)m * sizeof *w.order);
    int rc = RB_ENOMEM;
    if (!w.energy || !w.sub || !w.ynorm || !w.r || !w.order)
        goto cleanup;
#pragma omp parallel for num_threads(threads) schedule(static) if (m > SBO_OMP_CHUNK)
    for (int i = 0; i < m; i++) {
        double a = 0.0;
        for (int k = 0; k < p; k++)
            a += (double)Y[(size_t)i * p + k] * Y[(size_t)i * p + k];
        w.ynorm[i] = a;
    }
    rc = sbo_init_basis_omp(p, m, Y, o->init, rb_seed_derive(o->seed, "sbo/init/0"), D,
                            threads);
    if (rc == 0)
        rc = sbo_1onb_omp(p, m, Y, o->s, o->K, D, NULL, threads);
    *nb = 1;
    /* As sbo_train: one representation pass per round. */
    for (int round = 0; rc == 0; round++) {
        rc = assign_all(&w, o, *nb, D, assign, rmse);
        if (rc)
            break;
        if (o->trace)
            o->trace(*nb, round, *rmse, o->trace_arg);
        if (*nb > 1 && round < o->R) {
            rc = refine(&w, o, *nb, D, assign);
            continue;
        }
        if (*nb >= o->L || *rmse <= o->target_rmse)
            break;
        rc = add_block(&w, o, *nb, D + (size_t)*nb * p * p);
        if (rc == 0)
            ++*nb;
        round = -1;
    }
cleanup:
    free(w.order);
    free(w.r);
    free(w.ynorm);
    free(w.sub);
    free(w.energy);
    return rc;
}
