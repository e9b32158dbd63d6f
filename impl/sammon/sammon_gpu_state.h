/* SPDX-License-Identifier: MIT */
/* The CUDA and HIP Sammon variants' units (sammon_gpu_case.cu, _launch.cu,
 * _stored.cu), each compiled once for CUDA and once for HIP: their own part
 * of a case (s->backend) and the functions and templates one unit calls in
 * another, in namespace sammon_gpu::RB_GPU_NS (impl/common/gpu_api.h) so
 * that both compilations link side by side.  C sees the engine
 * (sammon_gpu.h).  C++ for the CUDA and HIP compilers only. */
#ifndef SAMMON_GPU_STATE_H
#define SAMMON_GPU_STATE_H

#include <stddef.h>
#include "impl/common/gpu_api.h"

#include "impl/sammon/sammon_case.h"
#include "impl/sammon/sammon_gpu.h"

/* The largest output dimension the kernels are built for (the outdim
 * axis's maximum). */
#define SAMMON_GPU_MAXM 3

namespace sammon_gpu {
inline namespace RB_GPU_NS {

struct dev {
    enum sammon_kind kind;          /* the table row's */
    int transposed;             /* x, y and g column-major on the device */
    int block;                  /* threads per block of the paper's kernels */
    int tile;                   /* points per tile side of the tiled kernel */
    int splits, per_split;      /* tiled: blocks over the points j, tiles j each */
    size_t g_len;               /* values in g */
    double coef;                /* 2 alpha / c: y <- y + coef sum_j w (y_p - y_j) */
    void *x, *y0;               /* device, prec: inputs and the start */
    void *ya, *yb;              /* device, prec: the iterates (Jacobi ping-pong) */
    void *g;                    /* device, prec: the modified and symmetric sums, or
                                   the tiled partials */
    void *result;               /* ya or yb: the iterate run() left */
    void *prev;                 /* device, prec: the iterate the last step started from,
                                   where the check takes it (s->y_prev), else NULL */
    void *store;                /* stored: the triangle of 1 / d* (float, in tiles) */
    unsigned *lost;             /* stored: the fill's count of pairs it could not store */
    int precompute;             /* stored: the timed region fills the triangle first */
    void *host;                 /* host, prec: transposing copies */
    gpuStream_t stream;
    struct gpu_timer timer;
};

/* Threads of the update kernels; the most blocks of a grid-stride kernel
 * (1024-thread blocks stay within HIP's 2^32 work-items a dimension). */
static constexpr int UPDATE_BLOCK = 256;
static constexpr long long GRID_CAP = 1 << 20;
/* The most tiled blocks at all (partial sums). */
static constexpr long long TILED_BLOCKS_MAX = 1 << 14;

static inline long long cdiv(long long a, long long b)
{
    return (a + b - 1) / b;
}

static inline int grid_stride_blocks(long long total, int block)
{
    long long b = cdiv(total, block);
    return (int)(b < 1 ? 1 : b < GRID_CAP ? b : GRID_CAP);
}

/* The most splits of the points j the tiled kernel takes at N points. */
static inline int tiled_splits_max(int N, int tile)
{
    long long itiles = cdiv(N, tile), most = TILED_BLOCKS_MAX / itiles;
    return (int)(most < 1 ? 1 : most < itiles ? most : itiles);
}

/* The stored variant (sammon_gpu_stored.cu, float only): its pass kernel
 * for a case of precision T (NULL but for float) at output dimension M; the
 * device bytes it needs besides the other variants'; RB_ESKIP when `need`
 * bytes exceed the device's total (free_only 0) or free memory; the fill of
 * the triangle; setup's part (the fill, timed into "precompute_ms"); one GD
 * step from y in place; the occupancy of its kernels.  The templates are
 * instantiated there for M = 1 to SAMMON_GPU_MAXM. */
template <typename T, int M> const void *stored_pass_any(int tile);
size_t stored_extra_bytes(const struct rb_case *c);
int stored_fits(struct rb_case *c, size_t need, int free_only);
int stored_fill(struct rb_case *c, const struct sammon_state *s, dev *d);
int stored_setup(struct rb_case *c, const struct sammon_state *s, dev *d);
template <int M> int stored_step(struct rb_case *c, const struct sammon_state *s, dev *d, float *y);
template <int M> void stored_occupancy(const dev *d, struct rb_occ *occ);

/* The tiled kernels' split of the points j over blocks for the case
 * (sammon_gpu_launch.cu). */
int tiled_plan_case(struct rb_case *c, struct sammon_state *s, dev *d);

/* The entry points of the engine (sammon_gpu.h), by unit. */
int admit(struct rb_case *c);                           /* sammon_gpu_case.cu */
size_t footprint(const struct rb_case *c);
int setup(struct rb_case *c);
int verify(struct rb_case *c, struct rb_check *out);
void teardown(struct rb_case *c);
int run(struct rb_case *c);                             /* sammon_gpu_launch.cu */
void occupancy(struct rb_case *c, struct rb_occ *occ);

} // namespace RB_GPU_NS
} // namespace sammon_gpu

#endif
