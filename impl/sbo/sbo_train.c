/* SPDX-License-Identifier: MIT */
/* The fp64 SBO training loop (notes section 4): one block trained on every
 * signal, then per addition a new block from the W worst-represented
 * signals and R rounds of {reassign, 1ONB on each block's own signals}. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "harness/error.h"
#include "impl/common/rng.h"
#include "impl/sbo/sbo.h"
#include <stdio.h>

struct work {
    int p, m;
    const double *Y;
    double *energy, *ynorm, *sub;   /* m, m, p x m (gathered signals) */
    int *order;                     /* m */
};

/* Assign every signal to its best block; the RMSE from the energies
 * (residual r_i = ynorm_i - energy_i). */
static double assign_all(struct work *w, const struct sbo_opts *o, int nb, const double *D,
                         int *assign)
{
    sbo_represent(w->p, o->s, nb, D, w->m, w->Y, assign, w->energy, NULL);
    double sum = 0.0;
    for (int i = 0; i < w->m; i++)
        sum += fmax(w->ynorm[i] - w->energy[i], 0.0);
    return sqrt(sum / ((double)w->p * w->m));
}

static void gather(struct work *w, const int *idx, int n)
{
    for (int k = 0; k < n; k++)
        memcpy(w->sub + (size_t)k * w->p, w->Y + (size_t)idx[k] * w->p,
               (size_t)w->p * sizeof *w->sub);
}

/* A new block trained on the W signals of largest residual. */
static int add_block(struct work *w, const struct sbo_opts *o, int nb, double *Q)
{
    int W = sbo_worst_count(o, w->m);
    double *r = malloc((size_t)w->m * sizeof *r);
    if (!r)
        return RB_ENOMEM;
    for (int i = 0; i < w->m; i++)
        r[i] = w->ynorm[i] - w->energy[i];
    int bad = sbo_worst(w->m, r, W, w->order);
    free(r);
    if (bad)
        return RB_ENOMEM;
    gather(w, w->order, W);
    char key[32];
    snprintf(key, sizeof key, "sbo/init/%d", nb);
    int rc = sbo_init_basis(w->p, W, w->sub, o->init, rb_seed_derive(o->seed, key), Q);
    return rc ? rc : sbo_1onb(w->p, W, w->sub, o->s, o->K, Q, NULL);
}

/* Each block's 1ONB on its own signals; an empty block is left as is. */
static int refine(struct work *w, const struct sbo_opts *o, int nb, double *D,
                  const int *assign)
{
    for (int j = 0; j < nb; j++) {
        int n = 0;
        for (int i = 0; i < w->m; i++)
            if (assign[i] == j)
                w->order[n++] = i;
        if (n == 0)
            continue;
        gather(w, w->order, n);
        int rc = sbo_1onb(w->p, n, w->sub, o->s, o->refine_iters, D + (size_t)j * w->p * w->p,
                          NULL);
        if (rc)
            return rc;
    }
    return 0;
}

int sbo_train(int p, int m, const double *Y, const struct sbo_opts *o, double *D, int *nb,
              int *assign, double *rmse)
{
    if (p < 1 || p > SBO_MAX_P || m < 1 || o->s < 1 || o->s > p || o->s > SBO_MAX_S
        || o->L < 1 || o->K < 0 || o->R < 0 || o->refine_iters < 0)
        return RB_EINVAL;
    struct work w = { .p = p, .m = m, .Y = Y };
    w.energy = malloc((size_t)m * sizeof *w.energy);
    w.ynorm = malloc((size_t)m * sizeof *w.ynorm);
    w.sub = malloc((size_t)m * p * sizeof *w.sub);
    w.order = malloc((size_t)m * sizeof *w.order);
    int rc = RB_ENOMEM;
    if (!w.energy || !w.ynorm || !w.sub || !w.order)
        goto cleanup;
    for (int i = 0; i < m; i++) {
        double a = 0.0;
        for (int k = 0; k < p; k++)
            a += Y[(size_t)i * p + k] * Y[(size_t)i * p + k];
        w.ynorm[i] = a;
    }
    rc = sbo_init_basis(p, m, Y, o->init, rb_seed_derive(o->seed, "sbo/init/0"), D);
    if (rc == 0)
        rc = sbo_1onb(p, m, Y, o->s, o->K, D, NULL);
    *nb = 1;
    /* One representation pass per round; `round` counts the refinement
     * rounds since the last block was added (0: just added). */
    for (int round = 0; rc == 0; round++) {
        *rmse = assign_all(&w, o, *nb, D, assign);
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
    free(w.sub);
    free(w.ynorm);
    free(w.energy);
    return rc;
}

struct ranked {
    double r;
    int i;
};

static int by_residual(const void *a, const void *b)
{
    const struct ranked *x = a, *y = b;
    if (x->r != y->r)
        return (x->r < y->r) - (x->r > y->r);
    return (x->i > y->i) - (x->i < y->i);
}

int sbo_worst(int m, const double *r, int W, int *idx)
{
    struct ranked *a = malloc((size_t)m * sizeof *a);
    if (!a)
        return -1;
    for (int i = 0; i < m; i++)
        a[i] = (struct ranked){ r[i], i };
    qsort(a, (size_t)m, sizeof *a, by_residual);
    for (int k = 0; k < W && k < m; k++)
        idx[k] = a[k].i;
    free(a);
    return 0;
}
