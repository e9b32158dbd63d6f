// SPDX-License-Identifier: MIT
// The CUDA or HIP device's ceilings for the roofline, compiled once for CUDA
// and once for HIP (RB_GPU_HIP, impl/common/gpu_api.h): a device-to-device
// copy and the FMA kernel of kernels/cuda/rb_ceiling.cuh, timed with events.
// Everything is file-local but the entry point, rb_ceiling_cuda or
// rb_ceiling_hip (harness/run/ceiling.h), spelled out per backend at the end.
#include <config.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "harness/run/ceiling.h"
#include "impl/common/gpu_api.h"
#include "kernels/cuda/rb_ceiling.cuh"

// Two buffers of 256 MiB: far past any L2, a fraction of a millisecond a
// copy on a current GPU.
static const size_t copy_bytes = (size_t)256 << 20;
static const int repeats = 3;
// An FMA timing at least this long is trusted; the iterations double until
// one is.
static const double fma_min_ms = 20.0;
static const int fma_block = 256;
// Threads per multiprocessor: enough to fill its schedulers.
static const int fma_threads_per_sm = 2048;

struct ceiling_bufs {
    void *a, *b;
    struct gpu_timer t;
};

// Bytes read plus written per second of a device-to-device copy, best of
// `repeats` after one untimed.
static int copy_rate(struct rb_case *c, struct ceiling_bufs *s, double *gbps)
{
    double best = INFINITY, ms = 0;

    GPU_CHECK(c, gpuMalloc(&s->a, copy_bytes));
    GPU_CHECK(c, gpuMalloc(&s->b, copy_bytes));
    // Written first: a copy of never-touched memory may not reach DRAM.
    GPU_CHECK(c, gpuMemsetAsync(s->a, 0, copy_bytes, 0));
    GPU_CHECK(c, gpuMemsetAsync(s->b, 0, copy_bytes, 0));
    for (int r = 0; r <= repeats; r++) {
        if (gpu_timer_start(c, &s->t, 0))
            return RB_EDEVICE;
        GPU_CHECK(c, gpuMemcpyAsync(s->b, s->a, copy_bytes, gpuMemcpyDeviceToDevice, 0));
        if (gpu_timer_stop(c, &s->t, 0, &ms))
            return RB_EDEVICE;
        if (r > 0 && ms < best)
            best = ms;
    }
    *gbps = 2.0 * (double)copy_bytes / (best * 1e-3) * 1e-9;
    return 0;
}

// GFLOP/s of the FMA kernel in T over `items` threads; out holds items T.
template <typename T>
static int fma_rate(struct rb_case *c, struct ceiling_bufs *s, int items, double *gflops)
{
    double best = 0, ms = 0;
    int iters = 64;

    for (;;) {
        if (gpu_timer_start(c, &s->t, 0))
            return RB_EDEVICE;
        rb_ceiling_fma<T><<<items / fma_block, fma_block>>>(iters, (T)0.999999, (T)1e-6,
                                                           (T *)s->b);
        GPU_CHECK_LAUNCH(c);
        if (gpu_timer_stop(c, &s->t, 0, &best))
            return RB_EDEVICE;
        if (best >= fma_min_ms || iters >= (1 << 24))
            break;
        iters *= 2;
    }
    for (int r = 1; r < repeats; r++) {
        if (gpu_timer_start(c, &s->t, 0))
            return RB_EDEVICE;
        rb_ceiling_fma<T><<<items / fma_block, fma_block>>>(iters, (T)0.999999, (T)1e-6,
                                                           (T *)s->b);
        GPU_CHECK_LAUNCH(c);
        if (gpu_timer_stop(c, &s->t, 0, &ms))
            return RB_EDEVICE;
        if (ms < best)
            best = ms;
    }
    *gflops = 2.0 * RB_CEILING_CHAINS * (double)iters * items / (best * 1e-3) * 1e-9;
    return 0;
}

// Copy, then the FMA kernel in fp32 and fp64 on the selected device.
static int probe(struct rb_case *c, struct ceiling_bufs *s, const char *api,
                 struct rb_ceiling *out)
{
    int rc, dev = 0, sms = 0, items;

    if ((rc = gpu_timer_create(c, &s->t)) || (rc = copy_rate(c, s, &out->copy_gbytes_per_s)))
        return rc;
    GPU_CHECK(c, gpuGetDevice(&dev));
    GPU_CHECK(c, gpuDeviceGetAttribute(&sms, gpuDevAttrMultiProcessorCount, dev));
    // The copy's buffer holds far more than one value per thread.
    items = (sms > 0 ? sms : 1) * fma_threads_per_sm;
    snprintf(out->method, sizeof out->method,
             "%s device-to-device copy of %zu MiB, best of %d; FMA kernel rb_ceiling.cuh, "
             "%d threads x %d chains, best of %d, >= %.0f ms each; events", api,
             copy_bytes >> 20, repeats, items, RB_CEILING_CHAINS, repeats, fma_min_ms);
    if ((rc = fma_rate<float>(c, s, items, &out->fp32_gflops)))
        return rc;
    return fma_rate<double>(c, s, items, &out->fp64_gflops);
}

// The ceilings of the context's device through the runtime named `api`.
static int ceiling_measure(struct rb_ctx *ctx, const char *api, struct rb_ceiling *out)
{
    struct rb_case c;
    struct ceiling_bufs s;
    int rc;

    memset(&c, 0, sizeof c);
    memset(&s, 0, sizeof s);
    c.ctx = ctx;
    rb_ceiling_clear(out);
    if ((rc = gpu_select(&c))) {
        rb_ceiling_fail(out, "%s", c.msg);
        return rc;
    }
    snprintf(out->device, sizeof out->device, "%s", c.device);
    if ((rc = probe(&c, &s, api, out)))
        rb_ceiling_fail(out, "%s", c.msg);
    if (s.a)
        (void)gpuFree(s.a);
    if (s.b)
        (void)gpuFree(s.b);
    gpu_timer_destroy(&s.t);
    return rc;
}

#ifdef RB_GPU_HIP
extern "C" int rb_ceiling_hip(struct rb_ctx *ctx, struct rb_ceiling *out)
{
    return ceiling_measure(ctx, "hip", out);
}
#else
extern "C" int rb_ceiling_cuda(struct rb_ctx *ctx, struct rb_ceiling *out)
{
    return ceiling_measure(ctx, "cuda", out);
}
#endif
