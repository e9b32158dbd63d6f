// SPDX-License-Identifier: MIT
// The Sammon variants' launches, compiled once for CUDA and once for HIP
// (sammon_gpu_state.h): the kernel each variant runs for the case's
// precision and output dimension, the timed region, the tiled kernel's split
// of the points j over blocks, and the occupancy of what run launches.
#include <config.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "impl/sammon/sammon_case.h"
#include "impl/sammon/sammon_gpu_state.h"
#include "kernels/cuda/sammon_modified.cuh"
#include "kernels/cuda/sammon_standard.cuh"
#include "kernels/cuda/sammon_tiled.cuh"
#include "kernels/cuda/sammon_tiled_sym.cuh"

namespace sammon_gpu {
inline namespace RB_GPU_NS {

// Resident blocks' worth of tiled blocks aimed at (waves: the last one's
// tail stays small).  UPDATE_BLOCK, GRID_CAP and TILED_BLOCKS_MAX:
// sammon_gpu_state.h.
static constexpr long long TILED_WAVES = 4;

template <typename T> using standard_fn = void (*)(int, int, T, const T *, const T *, T *);
template <typename T> using modified_fn = void (*)(int, int, const T *, const T *, T *);
template <typename T> using tiled_fn = void (*)(int, int, int, const T *, const T *, T *);
template <typename T> using symmetric_fn = void (*)(int, int, const T *, const T *, T *);

// The flat kernels load V values at once where rows of n keep alignment.
template <typename T, int M> static standard_fn<T> standard_kernel(const dev *d, int n)
{
    constexpr int V = sammon_vec_width<T>();
    if (d->kind == SAMMON_KIND_STANDARD_TRANSPOSED)
        return sammon_standard_transposed<T, M>;
    return n % V ? sammon_standard_flat<T, M, 1> : sammon_standard_flat<T, M, V>;
}

template <typename T, int M> static modified_fn<T> modified_kernel(const dev *d, int n)
{
    constexpr int V = sammon_vec_width<T>();
    if (d->kind == SAMMON_KIND_MODIFIED_TRANSPOSED)
        return sammon_modified_transposed<T, M>;
    return n % V ? sammon_modified_flat<T, M, 1> : sammon_modified_flat<T, M, V>;
}

// R = tile / 16 points a thread side; 8 x 8 fp64 sums would spill.
template <typename T, int M> static tiled_fn<T> tiled_kernel(int tile)
{
    if (tile == sammon_tiled_tile(2))
        return sammon_tiled<T, M, 2>;
    if (tile == sammon_tiled_tile(4))
        return sammon_tiled<T, M, 4>;
    if constexpr (sizeof(T) == sizeof(float))
        if (tile == sammon_tiled_tile(8))
            return sammon_tiled<T, M, 8>;
    return NULL;
}

template <typename T, int M> static symmetric_fn<T> symmetric_kernel(int tile)
{
    if (tile == sammon_tiled_tile(2))
        return sammon_tiled_sym<T, M, 2>;
    if (tile == sammon_tiled_tile(4))
        return sammon_tiled_sym<T, M, 4>;
    if constexpr (sizeof(T) == sizeof(float))
        if (tile == sammon_tiled_tile(8))
            return sammon_tiled_sym<T, M, 8>;
    return NULL;
}

// The tiled grids: enough (tile, split) blocks for TILED_WAVES waves of the
// resident ones.  tiled: every split the same number of tiles j, at most
// TILED_BLOCKS_MAX blocks (partial sums); symmetric and stored: splits of
// each row of tiles j <= i, at most one a tile.
template <typename T, int M> static int tiled_plan(struct rb_case *c, int N, dev *d)
{
    const int sym = d->kind == SAMMON_KIND_TILED_SYMMETRIC || d->kind == SAMMON_KIND_STORED;
    const void *k = d->kind == SAMMON_KIND_STORED ? stored_pass_any<T, M>(d->tile)
                    : sym ? (const void *)symmetric_kernel<T, M>(d->tile)
                          : (const void *)tiled_kernel<T, M>(d->tile);
    if (!k)
        return rb_fail(c, RB_EINVAL, "%s: no kernel for tile=%d in %s", c->v->name, d->tile,
                       rb_prec_name(c->prec));
    int device = 0, sms = 0, active = 0;
    GPU_CHECK(c, gpuGetDevice(&device));
    GPU_CHECK(c, gpuDeviceGetAttribute(&sms, gpuDevAttrMultiProcessorCount, device));
    GPU_CHECK(c, gpuOccupancyMaxActiveBlocksPerMultiprocessor(&active, k, SAMMON_TILED_THREADS,
                                                              0));
    long long itiles = cdiv(N, d->tile), resident = (long long)sms * (active > 0 ? active : 1);
    long long want = cdiv(TILED_WAVES * resident, itiles);
    long long most = sym ? itiles : tiled_splits_max(N, d->tile);
    long long split = want < 1 ? 1 : want < most ? want : most;
    d->per_split = (int)cdiv(itiles, split);
    d->splits = sym ? (int)split : (int)cdiv(itiles, d->per_split);
    return 0;
}

// One step of the case's variant from cur; *cur gets the new iterate.
template <typename T, int M>
static int step(struct rb_case *c, const struct sammon_state *s, dev *d, T **cur)
{
    const int N = s->N, n = s->n, block = d->block;
    const int64_t count = (int64_t)N * M;
    const T coef = (T)d->coef, *x = (const T *)d->x;
    T *g = (T *)d->g;
    if (d->kind == SAMMON_KIND_STANDARD_FLAT || d->kind == SAMMON_KIND_STANDARD_TRANSPOSED) {
        T *next = *cur == d->ya ? (T *)d->yb : (T *)d->ya;
        standard_fn<T> k = standard_kernel<T, M>(d, n);
        k<<<(int)cdiv(N, block), block, 0, d->stream>>>(N, n, coef, x, *cur, next);
        GPU_CHECK_LAUNCH(c);
        *cur = next;
    } else if (d->kind == SAMMON_KIND_TILED) {
        dim3 grid((unsigned)cdiv(N, d->tile), (unsigned)d->splits);
        tiled_fn<T> k = tiled_kernel<T, M>(d->tile);
        k<<<grid, SAMMON_TILED_THREADS, 0, d->stream>>>(N, n, d->per_split, x, *cur, g);
        GPU_CHECK_LAUNCH(c);
        sammon_tiled_update<T><<<grid_stride_blocks(count, UPDATE_BLOCK), UPDATE_BLOCK, 0,
                                 d->stream>>>(count, d->splits, coef, *cur, g);
        GPU_CHECK_LAUNCH(c);
    } else if (d->kind == SAMMON_KIND_STORED) {
        if constexpr (sizeof(T) == sizeof(float))
            return stored_step<M>(c, s, d, *cur);
        return rb_fail(c, RB_EINVAL, "the stored variant is float only");
    } else if (d->kind == SAMMON_KIND_TILED_SYMMETRIC) {
        dim3 grid((unsigned)d->splits, (unsigned)cdiv(N, d->tile));
        symmetric_fn<T> k = symmetric_kernel<T, M>(d->tile);
        k<<<grid, SAMMON_TILED_THREADS, 0, d->stream>>>(N, n, x, *cur, g);
        GPU_CHECK_LAUNCH(c);
        sammon_update<T><<<grid_stride_blocks(count, UPDATE_BLOCK), UPDATE_BLOCK, 0,
                           d->stream>>>(count, coef, *cur, g);
        GPU_CHECK_LAUNCH(c);
    } else {
        modified_fn<T> k = modified_kernel<T, M>(d, n);
        k<<<grid_stride_blocks(sammon_pair_count(N), block), block, 0, d->stream>>>(N, n, x,
                                                                                   *cur, g);
        GPU_CHECK_LAUNCH(c);
        sammon_update<T><<<grid_stride_blocks(count, block), block, 0, d->stream>>>(count, coef,
                                                                                    *cur, g);
        GPU_CHECK_LAUNCH(c);
    }
    return 0;
}

// The timed region: y0 copied in (N m values, device to device), iters steps;
// where the check takes it (d->prev), a copy of the iterate the last step
// starts from, device to device (N m values, a microsecond beside the
// steps of a case that large).
template <typename T, int M>
static int iterate(struct rb_case *c, const struct sammon_state *s, dev *d)
{
    T *cur = (T *)d->ya;
    if (d->kind == SAMMON_KIND_STORED && d->precompute) {
        int rc = stored_fill(c, s, d);
        if (rc)
            return rc;
    }
    GPU_CHECK(c, gpuMemcpyAsync(cur, d->y0, (size_t)s->N * M * sizeof(T),
                                gpuMemcpyDeviceToDevice, d->stream));
    for (int it = 0; it < s->iters; it++) {
        if (d->prev && it + 1 == s->iters)
            GPU_CHECK(c, gpuMemcpyAsync(d->prev, cur, (size_t)s->N * M * sizeof(T),
                                        gpuMemcpyDeviceToDevice, d->stream));
        int rc = step<T, M>(c, s, d, &cur);
        if (rc)
            return rc;
    }
    d->result = cur;
    return 0;
}

template <typename T, int M>
static void occupancy_of(const struct sammon_state *s, const dev *d, struct rb_occ *occ)
{
    char name[64];
    switch (d->kind) {
    case SAMMON_KIND_STANDARD_FLAT:
    case SAMMON_KIND_STANDARD_TRANSPOSED:
        rb_gpu_occ_add(occ, (const void *)standard_kernel<T, M>(d, s->n), d->block, 0,
                       d->transposed ? "sammon_standard_transposed" : "sammon_standard_flat");
        break;
    case SAMMON_KIND_MODIFIED_FLAT:
    case SAMMON_KIND_MODIFIED_TRANSPOSED:
        rb_gpu_occ_add(occ, (const void *)modified_kernel<T, M>(d, s->n), d->block, 0,
                       d->transposed ? "sammon_modified_transposed" : "sammon_modified_flat");
        rb_gpu_occ_add(occ, (const void *)sammon_update<T>, d->block, 0, "sammon_update");
        break;
    case SAMMON_KIND_STORED:
        if constexpr (sizeof(T) == sizeof(float))
            stored_occupancy<M>(d, occ);
        break;
    case SAMMON_KIND_TILED_SYMMETRIC:
        snprintf(name, sizeof name, "sammon_tiled_sym<R=%d>", d->tile / SAMMON_TILED_SIDE);
        rb_gpu_occ_add(occ, (const void *)symmetric_kernel<T, M>(d->tile),
                       SAMMON_TILED_THREADS, 0, name);
        rb_gpu_occ_add(occ, (const void *)sammon_update<T>, UPDATE_BLOCK, 0, "sammon_update");
        break;
    default:
        snprintf(name, sizeof name, "sammon_tiled<R=%d>", d->tile / SAMMON_TILED_SIDE);
        rb_gpu_occ_add(occ, (const void *)tiled_kernel<T, M>(d->tile), SAMMON_TILED_THREADS, 0,
                       name);
        rb_gpu_occ_add(occ, (const void *)sammon_tiled_update<T>, UPDATE_BLOCK, 0,
                       "sammon_tiled_update");
        break;
    }
}

// The output dimension as a template argument: 1 to SAMMON_GPU_MAXM.
template <typename T> static int iterate_any(struct rb_case *c, struct sammon_state *s, dev *d)
{
    switch (s->m) {
    case 1: return iterate<T, 1>(c, s, d);
    case 2: return iterate<T, 2>(c, s, d);
    case 3: return iterate<T, 3>(c, s, d);
    }
    return rb_fail(c, RB_EINVAL, "outdim=%d: the kernels are built for 1 to %d", s->m,
                   SAMMON_GPU_MAXM);
}

template <typename T> static int tiled_plan_any(struct rb_case *c, struct sammon_state *s, dev *d)
{
    switch (s->m) {
    case 1: return tiled_plan<T, 1>(c, s->N, d);
    case 2: return tiled_plan<T, 2>(c, s->N, d);
    case 3: return tiled_plan<T, 3>(c, s->N, d);
    }
    return rb_fail(c, RB_EINVAL, "outdim=%d: the kernels are built for 1 to %d", s->m,
                   SAMMON_GPU_MAXM);
}

template <typename T>
static void occupancy_any(const struct sammon_state *s, const dev *d, struct rb_occ *occ)
{
    switch (s->m) {
    case 1: occupancy_of<T, 1>(s, d, occ); return;
    case 2: occupancy_of<T, 2>(s, d, occ); return;
    case 3: occupancy_of<T, 3>(s, d, occ); return;
    }
    occ->available = 0;
    snprintf(occ->why, sizeof occ->why, "outdim=%d: no kernel", s->m);
}

int run(struct rb_case *c)
{
    struct sammon_state *s = (struct sammon_state *)c->state;
    dev *d = (dev *)s->backend;
    int rc = gpu_timer_start(c, &d->timer, d->stream);
    if (rc == 0)
        rc = c->prec == RB_PREC_F64 ? iterate_any<double>(c, s, d) : iterate_any<float>(c, s, d);
    if (rc == 0)
        rc = gpu_timer_stop(c, &d->timer, d->stream, &c->device_ms);
    return rc;
}

void occupancy(struct rb_case *c, struct rb_occ *occ)
{
    const struct sammon_state *s = (const struct sammon_state *)c->state;
    memset(occ, 0, sizeof *occ);
    occ->available = 1;
    if (!s || !s->backend) {
        occ->available = 0;
        snprintf(occ->why, sizeof occ->why, "the case was not set up");
        return;
    }
    if (c->prec == RB_PREC_F64)
        occupancy_any<double>(s, (const dev *)s->backend, occ);
    else
        occupancy_any<float>(s, (const dev *)s->backend, occ);
}

int tiled_plan_case(struct rb_case *c, struct sammon_state *s, dev *d)
{
    return c->prec == RB_PREC_F64 ? tiled_plan_any<double>(c, s, d)
                                  : tiled_plan_any<float>(c, s, d);
}

} // namespace RB_GPU_NS
} // namespace sammon_gpu
