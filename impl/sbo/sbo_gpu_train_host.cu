// SPDX-License-Identifier: MIT
// Single steps of the CUDA and HIP SBO training on host arrays, for the
// tests (sbo_gpu.h): each opens a device side of its own sizes, copies fp64
// values in (rounded to the case's precision), runs the step and copies the
// results back as fp64.  Compiled once for CUDA and once for HIP
// (sbo_gpu_train_state.h).
#include <config.h>
#include <stdlib.h>
#include <string.h>
#include "impl/sbo/sbo_case.h"
#include "impl/sbo/sbo_gpu_train_state.h"

namespace sbo_gpu {
inline namespace RB_GPU_NS {

// A device side for p, s, nb blocks and m signals on c's device (zero Y,
// D), blocks of 64 threads, the own GEMM, the SVD.
static int host_open(struct rb_case *c, gtrain *t, int p, int s, int nb, int m)
{
    memset(t, 0, sizeof *t);
    t->p = p;
    t->s = s;
    t->L = nb;
    t->m = m;
    t->block = 64;
    t->f64 = c->prec == RB_PREC_F64;
    t->sz = t->f64 ? sizeof(double) : sizeof(float);
    int rc = gpu_select(c);
    return rc ? rc : gt_prepare(c, t, NULL, NULL);
}

template <typename T> static int put_t(struct rb_case *c, gtrain *t, void *dst, const double *a,
                                       size_t n)
{
    T *h = (T *)malloc((n ? n : 1) * sizeof *h);
    if (!h)
        return rb_fail(c, RB_ENOMEM, "%zu values", n);
    for (size_t k = 0; k < n; k++)
        h[k] = (T)a[k];
    gpuError_t err = gpuMemcpyAsync(dst, h, n * sizeof *h, gpuMemcpyHostToDevice, t->stream);
    if (err == gpuSuccess)
        err = gpuStreamSynchronize(t->stream);
    free(h);
    GPU_CHECK(c, err);
    return 0;
}

template <typename T> static int get_t(struct rb_case *c, gtrain *t, const void *src, double *a,
                                       size_t n)
{
    T *h = (T *)malloc((n ? n : 1) * sizeof *h);
    if (!h)
        return rb_fail(c, RB_ENOMEM, "%zu values", n);
    gpuError_t err = gpuMemcpyAsync(h, src, n * sizeof *h, gpuMemcpyDeviceToHost, t->stream);
    if (err == gpuSuccess)
        err = gpuStreamSynchronize(t->stream);
    for (size_t k = 0; err == gpuSuccess && k < n; k++)
        a[k] = (double)h[k];
    free(h);
    GPU_CHECK(c, err);
    return 0;
}

static int put(struct rb_case *c, gtrain *t, void *dst, const double *a, size_t n)
{
    return t->f64 ? put_t<double>(c, t, dst, a, n) : put_t<float>(c, t, dst, a, n);
}

static int get(struct rb_case *c, gtrain *t, const void *src, double *a, size_t n)
{
    return t->f64 ? get_t<double>(c, t, src, a, n) : get_t<float>(c, t, src, a, n);
}

static int ints(struct rb_case *c, gtrain *t, void *dst, const void *src, int n, int up)
{
    GPU_CHECK(c, gpuMemcpyAsync(dst, src, (size_t)n * sizeof(int),
                                up ? gpuMemcpyHostToDevice : gpuMemcpyDeviceToHost, t->stream));
    GPU_CHECK(c, gpuStreamSynchronize(t->stream));
    return 0;
}

int svd_host(struct rb_case *c, int p, int nb, const double *M, int polar, int mode, double *Q,
             double *U, double *V, double *sig, int *fallbacks)
{
    gtrain t;
    int rc = host_open(c, &t, p, 1, nb, 1);
    int *ones = (int *)malloc((size_t)nb * sizeof *ones);
    const size_t pp = (size_t)p * p;
    for (int g = 0; ones && g < nb; g++)
        ones[g] = 1;
    if (rc == 0 && !ones)
        rc = rb_fail(c, RB_ENOMEM, "%d flags", nb);
    if (rc == 0)
        rc = ints(c, &t, t.cnt, ones, nb, 1);
    if (rc == 0)
        rc = put(c, &t, t.M, M, nb * pp);
    if (rc == 0 && polar)
        rc = t.f64 ? gt_polar<double>(c, &t, nb, 0, fallbacks)
                   : gt_polar<float>(c, &t, nb, 0, fallbacks);
    else if (rc == 0)
        rc = t.f64 ? gt_svd_product<double>(c, &t, nb, 0, t.cnt, mode)
                   : gt_svd_product<float>(c, &t, nb, 0, t.cnt, mode);
    if (rc == 0)
        rc = get(c, &t, t.D, Q, nb * pp);
    if (rc == 0 && !polar && U && V && sig) {
        rc = get(c, &t, t.U, U, nb * pp);
        rc = rc ? rc : get(c, &t, t.V, V, nb * pp);
        rc = rc ? rc : get(c, &t, t.sig, sig, (size_t)nb * p);
    }
    free(ones);
    gt_release(&t);
    return rc;
}

template <typename T>
static int select_run(struct rb_case *c, gtrain *t, int W, int nb, int *idx, int *order)
{
    int rc = gt_worst<T>(c, t, W);
    rc = rc ? rc : ints(c, t, idx, t->idx, W, 0);
    rc = rc ? rc : gt_group<T>(c, t, nb);
    rc = rc ? rc : ints(c, t, order, t->order, t->m, 0);
    return rc ? rc : gt_gather<T>(c, t, t->order, t->m);
}

int select_host(struct rb_case *c, int p, int m, int W, const double *r, int nb,
                const int *best, const double *Y, int *idx, int *order, int *cnt, double *Ysub)
{
    gtrain t;
    int rc = host_open(c, &t, p, 1, nb, m);
    rc = rc ? rc : put(c, &t, t.r, r, (size_t)m);
    rc = rc ? rc : put(c, &t, t.Y, Y, (size_t)p * m);
    rc = rc ? rc : ints(c, &t, t.best, best, m, 1);
    if (rc == 0)
        rc = t.f64 ? select_run<double>(c, &t, W, nb, idx, order)
                   : select_run<float>(c, &t, W, nb, idx, order);
    if (rc == 0)
        memcpy(cnt, t.cnt_h, (size_t)nb * sizeof *cnt);
    rc = rc ? rc : get(c, &t, t.Ysub, Ysub, (size_t)p * m);
    gt_release(&t);
    return rc;
}

int threshold_host(struct rb_case *c, int p, int s, int nb, int n, const int *cnt, double *C)
{
    gtrain t;
    int rc = host_open(c, &t, p, s, nb, n);
    const size_t len = (size_t)nb * p * n;
    rc = rc ? rc : ints(c, &t, t.cnt, cnt, nb, 1);
    rc = rc ? rc : put(c, &t, t.C, C, len);
    if (rc == 0)
        rc = t.f64 ? gt_threshold<double>(c, &t, nb, n) : gt_threshold<float>(c, &t, nb, n);
    rc = rc ? rc : get(c, &t, t.C, C, len);
    gt_release(&t);
    return rc;
}

int gemm_host(struct rb_case *c, int p, int nb, int n, int ny, const double *D, const double *Y,
              const int *yoff, int cublas, double *C, double *M)
{
    if (cublas && !SBO_GPU_CUBLAS)
        return rb_fail(c, RB_ESKIP, "built without cuBLAS");
    gtrain t;
    const size_t pp = (size_t)p * p;
    size_t *off = (size_t *)malloc(4 * (size_t)nb * sizeof *off);
    // Y is ny signals; C is nb p x n: m covers both.
    int rc = host_open(c, &t, p, 1, nb, ny > n ? ny : n);
    if (rc == 0 && !off)
        rc = rb_fail(c, RB_ENOMEM, "offsets");
    size_t *qo = off, *yo = off + nb, *co = yo + nb, *mo = co + nb;
    for (int g = 0; off && g < nb; g++) {
        qo[g] = g * pp;
        yo[g] = (size_t)yoff[g] * p;
        co[g] = (size_t)g * p * n;
        mo[g] = g * pp;
    }
    t.cublas = cublas;
#if SBO_GPU_CUBLAS
    char why[512];
    if (rc == 0 && cublas && sbo_cublas_open(why, sizeof why) != 0)
        rc = rb_fail(c, RB_EDEVICE, "%s", why);
    if (rc == 0 && cublas
        && (sbo_cublas_create(&t.blas) != CUBLAS_STATUS_SUCCESS
            || sbo_cublas_set_stream(t.blas, t.stream) != CUBLAS_STATUS_SUCCESS))
        rc = rb_fail(c, RB_EDEVICE, "cuBLAS handle");
#endif
    rc = rc ? rc : put(c, &t, t.D, D, nb * pp);
    rc = rc ? rc : put(c, &t, t.Y, Y, (size_t)p * ny);
    if (rc == 0)
        rc = t.f64 ? gt_gemm<double>(c, &t, 1, 0, p, n, p, t.D, qo, t.Y, yo, t.C, co, nb)
                   : gt_gemm<float>(c, &t, 1, 0, p, n, p, t.D, qo, t.Y, yo, t.C, co, nb);
    rc = rc ? rc : get(c, &t, t.C, C, (size_t)nb * p * n);
    if (rc == 0)
        rc = t.f64 ? gt_gemm<double>(c, &t, 0, 1, p, p, n, t.Y, yo, t.C, co, t.M, mo, nb)
                   : gt_gemm<float>(c, &t, 0, 1, p, p, n, t.Y, yo, t.C, co, t.M, mo, nb);
    rc = rc ? rc : get(c, &t, t.M, M, nb * pp);
    free(off);
    gt_release(&t);
    return rc;
}

} // namespace RB_GPU_NS
} // namespace sbo_gpu
