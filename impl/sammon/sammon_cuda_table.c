/* SPDX-License-Identifier: MIT */
/* The CUDA Sammon variants: the paper's four (standard or modified, flat or
 * transposed) over the `block` axis, and the tiled kernels, standard and
 * symmetric, over `tile`. */
#include "harness/backend/cuda.h"
#include "impl/sammon/sammon_case.h"
#include "impl/sammon/sammon_cuda.h"

/* tile: points a block holds on each side, 16 x 16 threads with tile / 16
 * points each way a thread; 128 is f32 only. */
static const long long tile_deflt[] = { 64, RB_AXIS_END };
static const long long tile_all[] = { 32, 64, 128, RB_AXIS_END };

static const struct rb_axis tile_axis[] = {
    { .name = "tile", .help = "points per side of the tiled kernel's block tile "
                              "(32, 64, 128; 128 f32 only)",
      .min = 32, .max = 128, .deflt = tile_deflt, .quick = tile_deflt, .paper = tile_all },
    { 0 }
};

#define SAMMON_CUDA_ENTRY                                                      \
    .paper = "sammon", .algo = "gd", .backend = RB_BACKEND_CUDA,               \
    .precs = RB_PREC_F32 | RB_PREC_F64, .sizes = sammon_sizes,                 \
    .available = rb_cuda_available, .footprint = sammon_cuda_footprint,        \
    .admit = sammon_cuda_admit, .setup = sammon_cuda_setup,                    \
    .run = sammon_cuda_run, .verify = sammon_cuda_verify,                      \
    .teardown = sammon_cuda_teardown, .occupancy = sammon_cuda_occupancy

const struct rb_variant sammon_cuda_variants[] = {
    { SAMMON_CUDA_ENTRY, .name = "standard-flat", .tunables = sammon_block_axis,
      .doc = "paper's 1: a thread per point sums over all others; row-major x, y" },
    { SAMMON_CUDA_ENTRY, .name = "standard-transposed", .tunables = sammon_block_axis,
      .doc = "paper's 3: a thread per point sums over all others; column-major x, y" },
    { SAMMON_CUDA_ENTRY, .name = "modified-flat", .tunables = sammon_block_axis,
      .doc = "paper's 2: a thread per pair, atomic adds to both points, update; row-major" },
    { SAMMON_CUDA_ENTRY, .name = "modified-transposed", .tunables = sammon_block_axis,
      .doc = "paper's 4: a thread per pair, atomic adds to both points, update; "
             "column-major" },
    { SAMMON_CUDA_ENTRY, .name = "tiled", .tunables = tile_axis,
      .doc = "point tiles in shared memory, R x R pairs a thread, sums in registers" },
    { SAMMON_CUDA_ENTRY, .name = "tiled-symmetric", .tunables = tile_axis,
      .doc = "tiled over tile pairs j <= i only, each pair's terms to both points (atomics)" },
    { 0 }
};
