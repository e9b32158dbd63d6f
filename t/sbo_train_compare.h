/* SPDX-License-Identifier: MIT */
/* What the device trainings' tests (t/sbo_opencl_train.c, t/sbo_gpu_train_test.h)
 * share: a trained case against sbo_train's fp64 run on the same data and
 * options: f64 with s >= 2 the same RMSE trace within 1e-9 relative,
 * otherwise the final RMSE at most twice fp64's (t/sbo_opencl_train.c's
 * header says why those bounds). */
#ifndef SBO_TRAIN_COMPARE_H
#define SBO_TRAIN_COMPARE_H

#include <math.h>
#include <stdlib.h>
#include "impl/sbo/sbo.h"
#include "impl/sbo/sbo_case.h"
#include "t/tap.h"

/* The fp64 reference's trace. */
struct sbo_compare_trace {
    double rmse[64];
    int n;
};

static void sbo_compare_keep(int blocks, int round, double rmse, void *arg)
{
    struct sbo_compare_trace *t = arg;
    (void)blocks;
    (void)round;
    if (t->n < 64)
        t->rmse[t->n++] = rmse;
}

static void sbo_train_compare(const struct rb_case *c, const char *name)
{
    struct sbo_state *s = c->state;
    struct sbo_opts o = s->opts;
    struct sbo_compare_trace ref = { .n = 0 };
    o.trace = sbo_compare_keep;
    o.trace_arg = &ref;
    double *D = malloc((size_t)s->L * s->p * s->p * sizeof *D), rmse = NAN;
    int *assign = malloc((size_t)s->m * sizeof *assign), nb = 0;
    int rc = !D || !assign ? -1 : sbo_train(s->p, s->m, s->Y_d, &o, D, &nb, assign, &rmse);
    double worst = 0;
    int n = ref.n < s->ntrace ? ref.n : s->ntrace;
    for (int k = 0; k < n; k++)
        worst = tap_worst(worst, fabs(s->trace[k] - ref.rmse[k]) / ref.rmse[k]);
    if (c->prec == RB_PREC_F64 && s->s >= 2) {
        if (!tap_ok(rc == 0 && nb == s->nb && ref.n == s->ntrace && worst <= 1e-9,
                    "%s: %d RMSEs as sbo_train's to %.2g (final %.6g vs %.6g)", name, n,
                    worst, s->rmse, rmse))
            for (int k = 0; k < n; k++)
                tap_diag("pass %d: %.17g vs %.17g", k, s->trace[k], ref.rmse[k]);
    } else
        tap_ok(rc == 0 && nb == s->nb && s->rmse <= 2.0 * rmse,
               "%s: final RMSE %.6g vs fp64 %.6g (at most twice)", name, s->rmse, rmse);
    free(assign);
    free(D);
}

#endif
