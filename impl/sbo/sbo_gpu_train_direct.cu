// SPDX-License-Identifier: MIT
// The CUDA and HIP float training driven on host arrays, outside the
// harness's cases (sbo_gpu.h; sbo-learn's trainer): open a device side and
// warm it up, fit, code, close.  Compiled once for CUDA and once for HIP
// (sbo_gpu_train_state.h).
#include <config.h>
#include <stdlib.h>
#include "impl/sbo/sbo_case.h"
#include "impl/sbo/sbo_gpu_train_state.h"
extern "C" {                    // a C header without C++ guards
#include "harness/run/timer.h"
}

namespace sbo_gpu {
inline namespace RB_GPU_NS {

// One representation pass of nb blocks and its RMSE, read back at once.
template <typename T> static int direct_pass(struct rb_case *c, gtrain *t, int nb, double *rmse)
{
    int n = 0;
    t->npend = 0;
    int rc = gt_represent_enqueue<T>(c, t, nb, 1);
    if (rc == 0)
        rc = gt_rmse_read<T>(c, t, &n);
    if (rc == 0 && n > 0)
        *rmse = t->rmse_h[n - 1];
    return rc;
}

// A training of two blocks (one 1ONB iteration for each new block, one
// refinement round) and a coding pass on the uploaded signals: every kernel
// of a training runs once, so that CUDA's lazy module loading and cuBLAS's
// first-call setup are paid here, as OpenCL pays its program build before
// the timed training, and not inside fit.
static int direct_warm(struct rb_case *c, gtrain *t)
{
    struct sbo_opts o;
    sbo_opts_default(&o);
    o.s = t->s;
    o.L = t->L < 2 ? t->L : 2;
    o.K = 1;
    o.R = 1;
    int nb = 0;
    double rmse = 0;
    int rc = train_loop<float>(c, t, &o, &nb, &rmse);
    return rc ? rc : direct_pass<float>(c, t, nb, &rmse);
}

// What the kernels or the build cannot do, as gt_admits says it for cases.
static int direct_admits(struct rb_case *c, int p, int s, int L, int m, int block, int cublas)
{
    if (p < 1 || p > SBO_SVD_MAX_P)
        return rb_fail(c, RB_ESKIP, "p=%d outside the kernels' 1..%d", p, SBO_SVD_MAX_P);
    if (s < 1 || s > SBO_TRAIN_MAX_S || s > p)
        return rb_fail(c, RB_ESKIP, "s=%d outside 1..%d", s,
                       p < SBO_TRAIN_MAX_S ? p : SBO_TRAIN_MAX_S);
    if (block < 32 || block > SBO_TRAIN_MAX_BLOCK)
        return rb_fail(c, RB_ESKIP, "block=%d outside the kernels' 32..%d", block,
                       SBO_TRAIN_MAX_BLOCK);
    if (L < 1 || m < 1)
        return rb_fail(c, RB_ESKIP, "L=%d blocks and m=%d signals", L, m);
    if (cublas && !SBO_GPU_CUBLAS)
        return rb_fail(c, RB_ESKIP, "cuBLAS: this build has none");
    return 0;
}

int direct_open(struct rb_case *c, int p, int s, int L, int m, int block, int polar,
                int cublas, int prof, const float *Y, struct sbo_gpu_train_dev **out)
{
    *out = NULL;
    int rc = direct_admits(c, p, s, L, m, block, cublas);
    if (rc || (rc = gpu_select(c)))
        return rc;
    gtrain *t = (gtrain *)calloc(1, sizeof *t);
    if (!t)
        return rb_fail(c, RB_ENOMEM, "SBO GPU training state");
    t->p = p;
    t->s = s;
    t->L = L;
    t->m = m;
    t->block = block;
    t->cublas = cublas != 0;
    t->polar = polar != 0;
    t->sz = sizeof(float);
    t->prof = prof != 0;
    // The trace at each pass (defer_trace 0): its rows carry their times.
    uint64_t t0 = rb_now_ns();
    rc = gt_prepare(c, t, Y, NULL);
    c->transfer_ms = rb_ms_since(t0);
    if (rc == 0) {
        t0 = rb_now_ns();
        rc = direct_warm(c, t);
        c->build_ms = rb_ms_since(t0);
    }
    if (rc) {
        gt_release(t);
        free(t);
        return rc;
    }
    *out = (struct sbo_gpu_train_dev *)t;
    return 0;
}

// C holds the device side as an opaque struct sbo_gpu_train_dev.
static gtrain *of(struct sbo_gpu_train_dev *t)
{
    return (gtrain *)t;
}

int direct_fit(struct rb_case *c, struct sbo_gpu_train_dev *dt, const float *Y,
               const struct sbo_opts *o, int *nb, double *rmse, float *D, int *best)
{
    gtrain *t = of(dt);
    const size_t p = (size_t)t->p, m = (size_t)t->m;
    t->nev = 0;
    t->launches = t->syncs = 0;
    c->nmetrics = 0;
    // From the caller's pageable memory, as the OpenCL trainer's upload.
    GPU_CHECK(c, gpuMemcpyAsync(t->Y, Y, p * m * sizeof *Y, gpuMemcpyHostToDevice, t->stream));
    uint64_t t0 = rb_now_ns();
    GPU_CHECK(c, gpuEventRecord(t->run_start, t->stream));
    int rc = train_loop<float>(c, t, o, nb, rmse);
    if (rc)
        return rc;
    GPU_CHECK(c, gpuEventRecord(t->run_stop, t->stream));
    GPU_CHECK(c, gpuEventSynchronize(t->run_stop));
    t->wall_ms = rb_ms_since(t0);
    float ms = 0;
    GPU_CHECK(c, gpuEventElapsedTime(&ms, t->run_start, t->run_stop));
    c->device_ms = ms;
    GPU_CHECK(c, gpuMemcpyAsync(D, t->D, (size_t)*nb * p * p * sizeof *D, gpuMemcpyDeviceToHost,
                                t->stream));
    GPU_CHECK(c, gpuMemcpyAsync(best, t->best, m * sizeof *best, gpuMemcpyDeviceToHost,
                                t->stream));
    GPU_CHECK(c, gpuStreamSynchronize(t->stream));
    rb_case_metric(c, "ms_device", c->device_ms);
    if (t->prof)
        return gt_metrics(c, t);
    rb_case_metric(c, "launches", (double)t->launches);
    rb_case_metric(c, "host_syncs", (double)t->syncs);
    return 0;
}

int direct_code(struct rb_case *c, struct sbo_gpu_train_dev *dt, int nb, double *rmse)
{
    gtrain *t = of(dt);
    if (nb < 1 || nb > t->L)
        return rb_fail(c, RB_EINVAL, "%d blocks for a device side of %d", nb, t->L);
    return direct_pass<float>(c, t, nb, rmse);
}

void direct_close(struct sbo_gpu_train_dev *dt)
{
    gtrain *t = of(dt);
    if (t) {
        gt_release(t);
        free(t);
    }
}

} // namespace RB_GPU_NS
} // namespace sbo_gpu
