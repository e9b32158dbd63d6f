/* SPDX-License-Identifier: MIT */
/* What the OpenCL SBO training kernel tests share: a device side of given
 * sizes on the test's device, host <-> device copies in the case's
 * precision (from and to double), random matrices of a given rank, and the
 * LAPACK side of the SVD checks.  Include after t/tap.h and
 * t/opencl_test.h. */
#ifndef RB_T_SBO_OPENCL_TRAIN_UTIL_H
#define RB_T_SBO_OPENCL_TRAIN_UTIL_H

#include <lapacke.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "harness/registry.h"
#include "impl/common/rng.h"
#include "impl/sbo/sbo_opencl_train.h"
#include "t/tap.h"

struct env {
    struct rb_ctx ctx;
    struct rb_case c;
    enum rb_prec prec;
    double u;                   /* unit roundoff of prec */
    const char *name;           /* "f32" or "f64" */
    struct rb_rng rng;
    size_t ns_wg_max, ns_local_max;     /* Newton-Schulz's caps; 0: the device's */
};

static inline void env_init(struct env *e, enum rb_prec prec, uint64_t seed)
{
    e->prec = prec;
    e->u = prec == RB_PREC_F64 ? 0x1.0p-53 : 0x1.0p-24;
    e->name = prec == RB_PREC_F64 ? "f64" : "f32";
    rb_rng_seed(&e->rng, seed);
    e->ns_wg_max = e->ns_local_max = 0;
}

/* t on the device with p, s, L blocks and m signals (zero Y, D), wg 64,
 * the own GEMM, the SVD.  Nonzero (and a diagnostic) on failure. */
static inline int env_open(struct env *e, struct sbo_cl_train *t, int p, int s, int L, int m)
{
    const struct rb_variant *v;
    memset(&e->c, 0, sizeof e->c);
    for (size_t i = 0; (v = rb_registry_get(i)); i++)
        if (v->backend == RB_BACKEND_OPENCL && strcmp(v->algo, "train") == 0)
            e->c.v = v;
    e->c.ctx = &e->ctx;
    e->c.prec = e->prec;
    e->c.device_ms = e->c.transfer_ms = e->c.build_ms = -1;
    memset(t, 0, sizeof *t);
    *t = (struct sbo_cl_train){ .p = p, .s = s, .L = L, .m = m, .wg = 64,
                                .f64 = e->prec == RB_PREC_F64, .ns_wg_max = e->ns_wg_max,
                                .ns_local_max = e->ns_local_max };
    size_t ny = (size_t)p * m, nd = (size_t)L * p * p, sz = e->prec == RB_PREC_F64 ? 8 : 4;
    void *zero = calloc(ny > nd ? ny : nd, sz);
    int rc = !e->c.v || !zero ? RB_ENOMEM : rb_opencl_get(&e->ctx, &t->cl, e->c.msg,
                                                             sizeof e->c.msg);
    if (!rc)
        rc = sbo_cl_train_prepare(&e->c, t, zero, zero);
    free(zero);
    if (rc) {
        tap_diag("device side of p=%d L=%d m=%d: rc %d %s", p, L, m, rc, e->c.msg);
        sbo_cl_train_release(t);
    }
    return rc;
}

static inline void env_close(struct sbo_cl_train *t)
{
    sbo_cl_train_release(t);
}

/* Copy n values to `mem`, rounding a (in place) to the precision first. */
static inline int put_real(struct env *e, struct sbo_cl_train *t, cl_mem mem, double *a,
                           size_t n)
{
    size_t sz = t->f64 ? sizeof(double) : sizeof(float);
    float *f = t->f64 ? NULL : malloc(n * sizeof *f);
    if (!t->f64 && !f)
        return RB_ENOMEM;
    for (size_t k = 0; f && k < n; k++)
        a[k] = f[k] = (float)a[k];
    cl_int err = clEnqueueWriteBuffer(t->cl->queue, mem, CL_TRUE, 0, n * sz,
                                      f ? (void *)f : (void *)a, 0, NULL, NULL);
    free(f);
    return err != CL_SUCCESS ? rb_fail(&e->c, RB_EDEVICE, "write: %d", (int)err) : 0;
}

static inline int get_real(struct env *e, struct sbo_cl_train *t, cl_mem mem, double *a,
                           size_t n)
{
    cl_int err = clFinish(t->cl->queue);
    if (t->f64)
        err = err ? err : clEnqueueReadBuffer(t->cl->queue, mem, CL_TRUE, 0, n * sizeof *a, a,
                                              0, NULL, NULL);
    else {
        float *f = malloc(n * sizeof *f);
        err = err || !f ? (err ? err : CL_OUT_OF_HOST_MEMORY)
                        : clEnqueueReadBuffer(t->cl->queue, mem, CL_TRUE, 0, n * sizeof *f, f,
                                              0, NULL, NULL);
        for (size_t k = 0; f && !err && k < n; k++)
            a[k] = f[k];
        free(f);
    }
    return err != CL_SUCCESS ? rb_fail(&e->c, RB_EDEVICE, "read: %d", (int)err) : 0;
}

static inline int put_ints(struct env *e, struct sbo_cl_train *t, cl_mem mem, const int *a,
                           int n)
{
    cl_int err = clEnqueueWriteBuffer(t->cl->queue, mem, CL_TRUE, 0, (size_t)n * sizeof *a, a,
                                      0, NULL, NULL);
    return err != CL_SUCCESS ? rb_fail(&e->c, RB_EDEVICE, "write: %d", (int)err) : 0;
}

static inline int get_ints(struct env *e, struct sbo_cl_train *t, cl_mem mem, int *a, int n)
{
    cl_int err = clEnqueueReadBuffer(t->cl->queue, mem, CL_TRUE, 0, (size_t)n * sizeof *a, a,
                                     0, NULL, NULL);
    return err != CL_SUCCESS ? rb_fail(&e->c, RB_EDEVICE, "read: %d", (int)err) : 0;
}

/* nb p x p matrices: Gaussian (rank p), or A B with A p x rank and B
 * rank x p Gaussian. */
static inline void random_rank(struct env *e, int p, int nb, int rank, double *M)
{
    if (rank >= p) {
        for (size_t k = 0; k < (size_t)nb * p * p; k++)
            M[k] = rb_rng_normal(&e->rng);
        return;
    }
    double *A = malloc((size_t)2 * p * rank * sizeof *A), *B = A + (size_t)p * rank;
    for (int g = 0; g < nb; g++) {
        for (size_t k = 0; k < (size_t)2 * p * rank; k++)
            A[k] = rb_rng_normal(&e->rng);
        for (int r = 0; r < p; r++)
            for (int c = 0; c < p; c++) {
                double x = 0;
                for (int k = 0; k < rank; k++)
                    x += A[r + k * p] * B[k + c * rank];
                M[(size_t)g * p * p + r + c * p] = x;
            }
    }
    free(A);
}

/* |U diag(s) V^T - M|_F / |M|_F. */
static inline double recon_error(int p, const double *M, const double *U, const double *s,
                                 const double *V)
{
    double num = 0, den = 0;
    for (int r = 0; r < p; r++)
        for (int c = 0; c < p; c++) {
            double x = 0;
            for (int k = 0; k < p; k++)
                x += U[r + k * p] * s[k] * V[c + k * p];
            num += (x - M[r + c * p]) * (x - M[r + c * p]);
            den += M[r + c * p] * M[r + c * p];
        }
    return sqrt(num / den);
}

/* M's singular values, descending (LAPACKE_dgesvd). */
static inline void svd_values(int p, const double *M, double *sv)
{
    double *a = malloc((size_t)p * p * sizeof *a), *sup = malloc((size_t)p * sizeof *sup);
    memcpy(a, M, (size_t)p * p * sizeof *a);
    LAPACKE_dgesvd(LAPACK_COL_MAJOR, 'N', 'N', p, p, a, p, sv, NULL, p, NULL, p, sup);
    free(sup);
    free(a);
}

static int by_descending(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x < y) - (x > y);
}

/* max_k |sorted(s)_k - ref_k| / ref_0. */
static inline double sorted_dev(int p, const double *s, const double *ref)
{
    double *a = malloc((size_t)p * sizeof *a), dev = 0;
    memcpy(a, s, (size_t)p * sizeof *a);
    qsort(a, (size_t)p, sizeof *a, by_descending);
    for (int k = 0; k < p; k++)
        dev = tap_worst(dev, fabs(a[k] - ref[k]) / ref[0]);
    free(a);
    return dev;
}

#endif
