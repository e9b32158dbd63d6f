// SPDX-License-Identifier: MIT
// The GPU SBO representation variants' cases, compiled once for CUDA and
// once for HIP (sbo_gpu_state.h says how the two link side by side):
// admission, device footprint, setup (the planted case of sbo_setup,
// uploaded with its poisoned outputs), the check against the fp64 reference
// and teardown.
#include <config.h>
#include <stdlib.h>
#include <string.h>
#include "impl/sbo/sbo_case.h"
#include "impl/sbo/sbo_gpu_kernels.h"
#include "impl/sbo/sbo_gpu_state.h"

namespace sbo_gpu {
inline namespace RB_GPU_NS {

// SBO_GPU_FUSED, SBO_GPU_FUSED_PAIR, or 0 for the paper's two kernels.
static int case_fused(const struct rb_case *c)
{
    if (c->v->kind == SBO_KIND_FUSED_PAIR)
        return SBO_GPU_FUSED_PAIR;
    return c->v->kind == SBO_KIND_FUSED ? SBO_GPU_FUSED : 0;
}

// The kernels are built for s in 1, 2, 4, ..., 32 (sbo_gpu_launch.cu),
// p up to SBO_GPU_PMAX_LARGE, and blocks of at most 256 threads.
int admit(struct rb_case *c)
{
    int rc = sbo_admit(c);
    if (rc)
        return rc;
    long long p = rb_case_param(c, "p", 64), s = rb_case_param(c, "s", 8);
    long long block = rb_case_param(c, "block", 128);
    int most = case_fused(c) ? SBO_FUSED_MAX_BLOCK : SBO_ENERGY_MAX_BLOCK;
    if (case_fused(c) == SBO_GPU_FUSED_PAIR && p > 2 * SBO_PAIR_HALF)
        return rb_fail(c, RB_ESKIP, "p=%lld: fused-pair splits a signal of at most %d values "
                       "between two lanes", p, 2 * SBO_PAIR_HALF);
    if (p > SBO_GPU_PMAX_LARGE)
        return rb_fail(c, RB_ESKIP, "p=%lld: the kernels are built for p <= %d", p,
                       SBO_GPU_PMAX_LARGE);
    if (s > 32 || (s & (s - 1)) != 0)
        return rb_fail(c, RB_ESKIP, "s=%lld: the kernels are built for s = 1, 2, 4, 8, 16, 32 "
                       "(the top-s list is in registers)", s);
    if (block < 1 || block > most)
        return rb_fail(c, RB_ESKIP, "block=%lld: the kernels keep each thread's signal in "
                       "registers, built for 1 to %d threads a block", block, most);
    return 0;
}

size_t footprint(const struct rb_case *c)
{
    size_t p = (size_t)rb_case_param(c, "p", 1), m = (size_t)rb_case_param(c, "signals", 1);
    size_t L = (size_t)rb_case_param(c, "blocks", 1), sz = rb_prec_size(c->prec);
    size_t bytes = (p * m + L * p * p + m) * sz + m * sizeof(int);
    return bytes + (case_fused(c) ? 0 : L * m * sz);
}

static int dev_alloc(struct rb_case *c, dev *d)
{
    const size_t m = (size_t)d->m;
    GPU_CHECK(c, gpuStreamCreateWithFlags(&d->stream, gpuStreamNonBlocking));
    int rc = gpu_timer_create(c, &d->timer);
    if (rc)
        return rc;
    GPU_CHECK(c, gpuMalloc(&d->Y, (size_t)d->p * m * d->sz));
    GPU_CHECK(c, gpuMalloc(&d->D, (size_t)d->L * d->p * d->p * d->sz));
    GPU_CHECK(c, gpuMalloc(&d->energy, m * d->sz));
    GPU_CHECK(c, gpuMalloc((void **)&d->best, m * sizeof(int)));
    if (!d->fused)
        GPU_CHECK(c, gpuMalloc(&d->E, (size_t)d->L * m * d->sz));
    return 0;
}

int upload(struct rb_case *c)
{
    struct sbo_state *s = (struct sbo_state *)c->state;
    dev *d = (dev *)s->backend;
    const size_t m = (size_t)d->m;
    double ms = 0;
    int rc = gpu_timer_start(c, &d->timer, d->stream);
    if (rc)
        return rc;
    GPU_CHECK(c, gpuMemcpyAsync(d->Y, s->Y, (size_t)d->p * m * d->sz, gpuMemcpyHostToDevice,
                                d->stream));
    GPU_CHECK(c, gpuMemcpyAsync(d->D, s->D, (size_t)d->L * d->p * d->p * d->sz,
                                gpuMemcpyHostToDevice, d->stream));
    if ((rc = gpu_timer_stop(c, &d->timer, d->stream, &ms)))
        return rc;
    c->transfer_ms = (c->transfer_ms > 0 ? c->transfer_ms : 0) + ms;
    GPU_CHECK(c, gpuMemcpyAsync(d->best, s->best, m * sizeof(int), gpuMemcpyHostToDevice,
                                d->stream));
    GPU_CHECK(c, gpuMemcpyAsync(d->energy, s->energy, m * d->sz, gpuMemcpyHostToDevice,
                                d->stream));
    if (d->E)       // all bits set: NaN in either precision
        GPU_CHECK(c, gpuMemsetAsync(d->E, 0xff, (size_t)d->L * m * d->sz, d->stream));
    GPU_CHECK(c, gpuStreamSynchronize(d->stream));
    return 0;
}

int setup(struct rb_case *c)
{
    int rc = sbo_setup(c);
    if (rc)
        return rc;
    struct sbo_state *s = (struct sbo_state *)c->state;
    dev *d = (dev *)calloc(1, sizeof *d);
    if (!d)
        return rb_fail(c, RB_ENOMEM, "GPU SBO state");
    s->backend = d;
    d->fused = case_fused(c);
    d->p = s->p;
    d->s = s->s;
    d->L = s->L;
    d->m = s->m;
    d->block = (int)rb_case_param(c, "block", 128);
    d->sz = rb_prec_size(c->prec);
    if ((rc = admit(c)) || (rc = gpu_select(c)))  // for callers that skip admit
        return rc;
    if ((rc = kernels_fit(c, d)) || (rc = dev_alloc(c, d)))
        return rc;
    return upload(c);
}

int verify(struct rb_case *c, struct rb_check *out)
{
    struct sbo_state *s = (struct sbo_state *)c->state;
    dev *d = (dev *)s->backend;
    GPU_CHECK(c, gpuMemcpyAsync(s->best, d->best, (size_t)d->m * sizeof(int),
                                gpuMemcpyDeviceToHost, d->stream));
    GPU_CHECK(c, gpuMemcpyAsync(s->energy, d->energy, (size_t)d->m * d->sz,
                                gpuMemcpyDeviceToHost, d->stream));
    GPU_CHECK(c, gpuStreamSynchronize(d->stream));
    return sbo_represent_verify(c, out);
}

void teardown(struct rb_case *c)
{
    struct sbo_state *s = (struct sbo_state *)c->state;
    if (!s)
        return;
    dev *d = (dev *)s->backend;
    if (d) {
        if (d->stream)
            (void)gpuStreamSynchronize(d->stream);
        void *mem[] = { d->D, d->Y, d->E, d->energy, d->best };
        for (size_t k = 0; k < sizeof mem / sizeof *mem; k++)
            if (mem[k])
                (void)gpuFree(mem[k]);
        gpu_timer_destroy(&d->timer);
        if (d->stream)
            (void)gpuStreamDestroy(d->stream);
        (void)gpuGetLastError();
        free(d);
        s->backend = NULL;
    }
    sbo_teardown(c);
}

} // namespace RB_GPU_NS
} // namespace sbo_gpu
