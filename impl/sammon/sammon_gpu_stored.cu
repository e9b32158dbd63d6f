// SPDX-License-Identifier: MIT
// The stored variant's launches (kernels/cuda/sammon_stored.cuh), compiled
// once for CUDA and once for HIP (sammon_gpu_state.h): the kernels for the
// case's tile, the fill of the triangle (in setup, timed into the metric
// "precompute_ms", or at the head of the timed region with precompute 1),
// the step, and the device memory the case needs against what the device
// has.  float only.
#include <config.h>
#include <stdint.h>
#include <stdio.h>
#include "impl/sammon/sammon_case.h"
#include "impl/sammon/sammon_gpu_state.h"
#include "kernels/cuda/sammon_modified.cuh"
#include "kernels/cuda/sammon_stored.cuh"

namespace sammon_gpu {
inline namespace RB_GPU_NS {

using stored_fill_fn = void (*)(int, int, const float *, float4 *, unsigned *, double *,
                                float *);
using stored_pass_fn = void (*)(int, int, const float *, const float4 *, const float *, float *,
                                double *);

static stored_fill_fn stored_fill_kernel(int tile)
{
    if (tile == sammon_tiled_tile(2))
        return sammon_stored_fill<2>;
    if (tile == sammon_tiled_tile(4))
        return sammon_stored_fill<4>;
    if (tile == sammon_tiled_tile(8))
        return sammon_stored_fill<8>;
    return NULL;
}

template <int M> static stored_pass_fn stored_pass_kernel(int tile)
{
    if (tile == sammon_tiled_tile(2))
        return sammon_stored_pass<M, 2, SAMMON_PASS_GD, true>;
    if (tile == sammon_tiled_tile(4))
        return sammon_stored_pass<M, 4, SAMMON_PASS_GD, true>;
    if (tile == sammon_tiled_tile(8))
        return sammon_stored_pass<M, 8, SAMMON_PASS_GD, true>;
    return NULL;
}

// The pass kernel of a case of precision T (NULL but for float), for the
// occupancy the grid is planned from.
template <typename T, int M> const void *stored_pass_any(int tile)
{
    if constexpr (sizeof(T) == sizeof(float))
        return (const void *)stored_pass_kernel<M>(tile);
    return NULL;
}

// Tile pairs of the triangle: the fill's grid.
static long long stored_blocks(int N, int tile)
{
    const long long tiles = cdiv(N, tile);
    return tiles * (tiles + 1) / 2;
}

// Device bytes of a stored case besides the paper variants' x, y0 and the
// iterates: the triangle, the sums g and the fill's counter.
size_t stored_extra_bytes(const struct rb_case *c)
{
    const long long N = rb_case_param(c, "points", 2), tile = rb_case_param(c, "tile", 128);
    return sammon_stored_bytes(N, tile) + (size_t)N * rb_case_param(c, "outdim", 2)
           * sizeof(float) + sizeof(unsigned);
}

// RB_ESKIP when `need` bytes exceed the device's total (free: 0) or free
// (free: 1) memory, naming both; 0 otherwise or when the device cannot say.
int stored_fits(struct rb_case *c, size_t need, int free_only)
{
    size_t free_b = 0, total_b = 0;
    if (gpuMemGetInfo(&free_b, &total_b) != gpuSuccess) {
        (void)gpuGetLastError();
        return 0;
    }
    const size_t have = free_only ? free_b : total_b;
    if (need <= have)
        return 0;
    return rb_fail(c, RB_ESKIP, "the stored triangle needs %.2f GiB of device memory in all; "
                   "%s has %.2f GiB %s (of %.2f GiB)", (double)need / (1u << 30), c->device,
                   (double)have / (1u << 30), free_only ? "free" : "in all",
                   (double)total_b / (1u << 30));
}

int stored_fill(struct rb_case *c, const struct sammon_state *s, dev *d)
{
    stored_fill_fn k = stored_fill_kernel(d->tile);
    k<<<(unsigned)stored_blocks(s->N, d->tile), SAMMON_TILED_THREADS, 0, d->stream>>>(
        s->N, s->n, (const float *)d->x, (float4 *)d->store, d->lost, NULL, NULL);
    GPU_CHECK_LAUNCH(c);
    return 0;
}

// Setup's part: the triangle filled once (unless the timed region does),
// its device time the metric "precompute_ms"; a pair the fill could not
// separate in float fails the case.
int stored_setup(struct rb_case *c, const struct sammon_state *s, dev *d)
{
    unsigned lost = 0;
    double ms = 0.0;
    GPU_CHECK(c, gpuMemsetAsync(d->lost, 0, sizeof *d->lost, d->stream));
    int rc = gpu_timer_start(c, &d->timer, d->stream);
    if (rc == 0)
        rc = stored_fill(c, s, d);
    if (rc == 0)
        rc = gpu_timer_stop(c, &d->timer, d->stream, &ms);
    if (rc)
        return rc;
    GPU_CHECK(c, gpuMemcpyAsync(&lost, d->lost, sizeof lost, gpuMemcpyDeviceToHost, d->stream));
    GPU_CHECK(c, gpuStreamSynchronize(d->stream));
    rb_case_metric(c, "precompute_ms", ms);
    if (lost)
        return rb_fail(c, RB_EINVAL, "%u pairs of distinct points have no float distance", lost);
    return 0;
}

// One GD step of the stored form from y, in place (the sums, then the
// update that clears them).
template <int M> int stored_step(struct rb_case *c, const struct sammon_state *s, dev *d, float *y)
{
    const int64_t count = (int64_t)s->N * M;
    dim3 grid((unsigned)d->splits, (unsigned)cdiv(s->N, d->tile));
    stored_pass_fn k = stored_pass_kernel<M>(d->tile);
    k<<<grid, SAMMON_TILED_THREADS, 0, d->stream>>>(s->N, s->n, NULL, (const float4 *)d->store,
                                                    y, (float *)d->g, NULL);
    GPU_CHECK_LAUNCH(c);
    sammon_update<float><<<grid_stride_blocks(count, UPDATE_BLOCK), UPDATE_BLOCK, 0,
                           d->stream>>>(count, (float)d->coef, y, (float *)d->g);
    GPU_CHECK_LAUNCH(c);
    return 0;
}

template <int M> void stored_occupancy(const dev *d, struct rb_occ *occ)
{
    char name[64];
    if (d->precompute) {
        snprintf(name, sizeof name, "sammon_stored_fill<R=%d>", d->tile / SAMMON_TILED_SIDE);
        rb_gpu_occ_add(occ, (const void *)stored_fill_kernel(d->tile), SAMMON_TILED_THREADS, 0,
                       name);
    }
    snprintf(name, sizeof name, "sammon_stored_pass<R=%d>", d->tile / SAMMON_TILED_SIDE);
    rb_gpu_occ_add(occ, (const void *)stored_pass_kernel<M>(d->tile), SAMMON_TILED_THREADS, 0,
                   name);
    rb_gpu_occ_add(occ, (const void *)sammon_update<float>, UPDATE_BLOCK, 0, "sammon_update");
}

// The output dimensions the other units ask for (1 to SAMMON_GPU_MAXM).
template const void *stored_pass_any<float, 1>(int);
template const void *stored_pass_any<float, 2>(int);
template const void *stored_pass_any<float, 3>(int);
template const void *stored_pass_any<double, 1>(int);
template const void *stored_pass_any<double, 2>(int);
template const void *stored_pass_any<double, 3>(int);
template int stored_step<1>(struct rb_case *, const struct sammon_state *, dev *, float *);
template int stored_step<2>(struct rb_case *, const struct sammon_state *, dev *, float *);
template int stored_step<3>(struct rb_case *, const struct sammon_state *, dev *, float *);
template void stored_occupancy<1>(const dev *, struct rb_occ *);
template void stored_occupancy<2>(const dev *, struct rb_occ *);
template void stored_occupancy<3>(const dev *, struct rb_occ *);

} // namespace RB_GPU_NS
} // namespace sammon_gpu
