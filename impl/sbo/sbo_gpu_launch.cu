// SPDX-License-Identifier: MIT
// The GPU SBO representation variants' launches, compiled once for CUDA and
// once for HIP (sbo_gpu_state.h says how the two link side by side): the
// kernels built for the case's precision, p and s, the timed region, and
// the occupancy of what run launches.
#include <config.h>
#include <stdio.h>
#include <string.h>
#include "impl/sbo/sbo_case.h"
#include "impl/sbo/sbo_gpu_kernels.h"
#include "impl/sbo/sbo_gpu_state.h"

namespace sbo_gpu {
inline namespace RB_GPU_NS {

template <typename T> using argmax_fn = void (*)(int, int, const T *, int *, T *);

static long long cdiv(long long a, long long b)
{
    return (a + b - 1) / b;
}

// The kernels run() launches for the case, in launch order, with their
// block sizes and names; the count (0 when s has no kernel).
template <typename T>
static int kernels_of(const dev *d, const void **fn, int *block, char (*name)[64])
{
    const char *pad = pmax_of(d->p) == SBO_GPU_PMAX_SMALL ? "64" : "256";
    if (d->fused == SBO_GPU_FUSED_PAIR) {
        fn[0] = sizeof(T) == sizeof(float) ? (const void *)pair_kernel(d->s) : NULL;
        block[0] = d->block;
        snprintf(name[0], 64, "sbo_fused_pair<s=%d>", d->s);
        return fn[0] ? 1 : 0;
    }
    if (d->fused) {
        fn[0] = (const void *)fused_kernel<T>(d->p, d->s);
        block[0] = d->block;
        snprintf(name[0], 64, "sbo_fused<pmax=%s,s=%d,sig=%d>", pad, d->s, fused_sig<T>(d->p));
        return fn[0] ? 1 : 0;
    }
    fn[0] = (const void *)energy_kernel<T>(d->p, d->s);
    block[0] = d->block;
    snprintf(name[0], 64, "sbo_energy<pmax=%s,s=%d>", pad, d->s);
    fn[1] = (const void *)(argmax_fn<T>)sbo_argmax<T>;
    block[1] = d->block;
    snprintf(name[1], 64, "sbo_argmax");
    return fn[0] ? 2 : 0;
}

template <typename T> static int kernels_fit_t(struct rb_case *c, const dev *d)
{
    const void *fn[2];
    int block[2];
    char name[2][64];
    int n = kernels_of<T>(d, fn, block, name);
    if (n == 0)
        return rb_fail(c, RB_EINVAL, "s=%d: no kernel is built for it", d->s);
    for (int k = 0; k < n; k++) {
        gpuFuncAttributes fa;
        GPU_CHECK(c, gpuFuncGetAttributes(&fa, fn[k]));
        if (block[k] > fa.maxThreadsPerBlock)
            return rb_fail(c, RB_ESKIP, "block=%d > the %d threads %s takes here", block[k],
                           fa.maxThreadsPerBlock, name[k]);
    }
    return 0;
}

// The paper's map over a grid of (signal tiles, blocks), then its reduce;
// or the fused kernel, SIG signals a thread.
template <typename T> static int launch(struct rb_case *c, const dev *d)
{
    const T *D = (const T *)d->D, *Y = (const T *)d->Y;
    T *energy = (T *)d->energy;
    if (d->fused == SBO_GPU_FUSED_PAIR) {
        fused_fn<float> k = sizeof(T) == sizeof(float) ? pair_kernel(d->s) : NULL;
        if (!k)
            return rb_fail(c, RB_EINVAL, "s=%d: no fused-pair kernel is built for it", d->s);
        k<<<(unsigned)cdiv(d->m, d->block), d->block, 0, d->stream>>>(
            d->p, d->L, d->m, (const float *)D, (const float *)Y, d->best, (float *)energy);
        GPU_CHECK_LAUNCH(c);
        return 0;
    }
    if (d->fused) {
        fused_fn<T> k = fused_kernel<T>(d->p, d->s);
        if (!k)
            return rb_fail(c, RB_EINVAL, "s=%d: no kernel is built for it", d->s);
        const long long grid = cdiv(d->m, (long long)d->block * fused_sig<T>(d->p));
        k<<<(unsigned)grid, d->block, 0, d->stream>>>(d->p, d->L, d->m, D, Y, d->best, energy);
        GPU_CHECK_LAUNCH(c);
        return 0;
    }
    energy_fn<T> k = energy_kernel<T>(d->p, d->s);
    if (!k)
        return rb_fail(c, RB_EINVAL, "s=%d: no kernel is built for it", d->s);
    const dim3 grid((unsigned)cdiv(d->m, d->block), (unsigned)d->L);
    k<<<grid, d->block, 0, d->stream>>>(d->p, d->m, D, Y, (T *)d->E);
    GPU_CHECK_LAUNCH(c);
    sbo_argmax<T><<<(unsigned)cdiv(d->m, d->block), d->block, 0, d->stream>>>(
        d->m, d->L, (const T *)d->E, d->best, energy);
    GPU_CHECK_LAUNCH(c);
    return 0;
}

int kernels_fit(struct rb_case *c, const dev *d)
{
    return c->prec == RB_PREC_F64 ? kernels_fit_t<double>(c, d) : kernels_fit_t<float>(c, d);
}

int run(struct rb_case *c)
{
    struct sbo_state *s = (struct sbo_state *)c->state;
    dev *d = (dev *)s->backend;
    int rc = gpu_timer_start(c, &d->timer, d->stream);
    if (rc == 0)
        rc = c->prec == RB_PREC_F64 ? launch<double>(c, d) : launch<float>(c, d);
    if (rc == 0)
        rc = gpu_timer_stop(c, &d->timer, d->stream, &c->device_ms);
    return rc;
}

template <typename T> static void occupancy_of(const dev *d, struct rb_occ *occ)
{
    const void *fn[2];
    int block[2];
    char name[2][64];
    int n = kernels_of<T>(d, fn, block, name);
    if (n == 0) {
        occ->available = 0;
        snprintf(occ->why, sizeof occ->why, "s=%d: no kernel", d->s);
    }
    // The fused kernel's shared buffers are static: the attributes count them.
    for (int k = 0; k < n; k++)
        rb_gpu_occ_add(occ, fn[k], block[k], 0, name[k]);
}

void occupancy(struct rb_case *c, struct rb_occ *occ)
{
    const struct sbo_state *s = (const struct sbo_state *)c->state;
    memset(occ, 0, sizeof *occ);
    occ->available = 1;
    if (!s || !s->backend) {
        occ->available = 0;
        snprintf(occ->why, sizeof occ->why, "the case was not set up");
        return;
    }
    if (c->prec == RB_PREC_F64)
        occupancy_of<double>((const dev *)s->backend, occ);
    else
        occupancy_of<float>((const dev *)s->backend, occ);
}

} // namespace RB_GPU_NS
} // namespace sbo_gpu
