/* SPDX-License-Identifier: MIT */
/* learn's host trainers: the fp64 reference (sbo_train) and the OpenMP
 * float version (sbo_train_omp); the device ones are sbo_learn_opencl.c,
 * sbo_learn_gpu.c with sbo_learn_cuda.c and sbo_learn_hip.c, and the table
 * of those this build has is harness/cli/learn_backends.c. */
#include <math.h>
#include <omp.h>
#include <stdlib.h>
#include "harness/error.h"
#include "harness/run/timer.h"
#include "impl/sbo/sbo_learn.h"
#include "impl/sbo/sbo_omp.h"

/* RMSE from the retained energies (sbo.h), summed in double. */
static double rmse_of(const struct sbo_learn_run *r, const double *ynorm, const float *ef,
                      const double *ed)
{
    double sum = 0.0;
    for (int i = 0; i < r->m; i++)
        sum += fmax(ynorm[i] - (ef ? (double)ef[i] : ed[i]), 0.0);
    return sqrt(sum / ((double)SBO_LEARN_P * r->m));
}

static double *norms(int m, const double *Yd, const float *Yf)
{
    double *n = malloc((size_t)m * sizeof *n);
    for (int i = 0; n && i < m; i++) {
        double a = 0.0;
        for (int k = 0; k < SBO_LEARN_P; k++) {
            double v = Yd ? Yd[(size_t)i * SBO_LEARN_P + k] : Yf[(size_t)i * SBO_LEARN_P + k];
            a += v * v;
        }
        n[i] = a;
    }
    return n;
}

/* --- serial: the fp64 reference --- */

static int serial_prepare(struct sbo_learn_run *r)
{
    (void)r;
    return 0;
}

static int serial_train(struct sbo_learn_run *r)
{
    return sbo_train(SBO_LEARN_P, r->m, r->Y, &r->opts, r->D, &r->nb, r->assign, &r->rmse);
}

static int serial_code(struct sbo_learn_run *r)
{
    double *e = malloc((size_t)r->m * sizeof *e), *yn = norms(r->m, r->Y, NULL);
    int rc = RB_ENOMEM;
    if (e && yn) {
        uint64_t t0 = rb_now_ns();
        sbo_represent(SBO_LEARN_P, r->opts.s, r->nb, r->D, r->m, r->Y, r->assign, e, NULL);
        r->code_s = rb_ms_since(t0) / 1e3;
        r->code_rmse = rmse_of(r, yn, NULL, e);
        rc = 0;
    }
    free(yn);
    free(e);
    return rc;
}

static void serial_release(struct sbo_learn_run *r)
{
    (void)r;
}

/* --- omp: float, OpenMP and OpenBLAS --- */

struct omp_state {
    float *Y, *D;               /* p x m; L p^2 */
};

static int omp_threads(const struct sbo_learn_run *r)
{
    return r->threads > 0 ? r->threads : omp_get_max_threads();
}

static int omp_prepare(struct sbo_learn_run *r)
{
    struct omp_state *st = calloc(1, sizeof *st);
    size_t ny = (size_t)r->m * SBO_LEARN_P, nd = (size_t)r->opts.L * SBO_LEARN_P * SBO_LEARN_P;
    if (!st)
        return RB_ENOMEM;
    r->priv = st;
    st->Y = malloc(ny * sizeof *st->Y);
    st->D = malloc(nd * sizeof *st->D);
    if (!st->Y || !st->D)
        return RB_ENOMEM;
    for (size_t k = 0; k < ny; k++)
        st->Y[k] = (float)r->Y[k];
    /* The float copy is all the trainer reads: the double one would double
     * the peak memory of a million patches. */
    free(r->Y);
    r->Y = NULL;
    return 0;
}

static int omp_train(struct sbo_learn_run *r)
{
    struct omp_state *st = r->priv;
    int rc = sbo_train_omp(SBO_LEARN_P, r->m, st->Y, &r->opts, st->D, &r->nb, r->assign,
                           &r->rmse, omp_threads(r));
    for (size_t k = 0; rc == 0 && k < (size_t)r->nb * SBO_LEARN_P * SBO_LEARN_P; k++)
        r->D[k] = st->D[k];
    return rc;
}

static int omp_code(struct sbo_learn_run *r)
{
    struct omp_state *st = r->priv;
    float *e = malloc((size_t)r->m * sizeof *e);
    double *yn = norms(r->m, NULL, st->Y);
    int rc = RB_ENOMEM;
    if (e && yn) {
        uint64_t t0 = rb_now_ns();
        rc = sbo_represent_omp(SBO_LEARN_P, r->opts.s, r->nb, st->D, r->m, st->Y, r->assign,
                               e, omp_threads(r));
        r->code_s = rb_ms_since(t0) / 1e3;
        r->code_rmse = rmse_of(r, yn, e, NULL);
    }
    free(yn);
    free(e);
    return rc;
}

static void omp_release(struct sbo_learn_run *r)
{
    struct omp_state *st = r->priv;
    if (st) {
        free(st->Y);
        free(st->D);
        free(st);
    }
    r->priv = NULL;
}

const struct sbo_learner sbo_learner_serial = {
    .name = "serial", .about = "the fp64 reference, one thread",
    .prepare = serial_prepare, .train = serial_train, .code = serial_code,
    .release = serial_release
};

const struct sbo_learner sbo_learner_omp = {
    .name = "omp", .about = "float, OpenMP threads and OpenBLAS",
    .prepare = omp_prepare, .train = omp_train, .code = omp_code, .release = omp_release
};
