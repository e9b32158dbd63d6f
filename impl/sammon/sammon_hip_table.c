/* SPDX-License-Identifier: MIT */
/* The HIP Sammon variants: the paper's four (standard or modified, flat or
 * transposed) over the `block` axis, and the tiled kernels, standard and
 * symmetric, over `tile`. */
#include "harness/backend/hip.h"
#include "impl/sammon/sammon_case.h"
#include "impl/sammon/sammon_hip.h"

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

#define SAMMON_HIP_ENTRY                                                       \
    .paper = "sammon", .algo = "gd", .backend = RB_BACKEND_HIP,                \
    .precs = RB_PREC_F32 | RB_PREC_F64, .sizes = sammon_sizes,                 \
    .available = rb_hip_available, .footprint = sammon_hip_footprint,          \
    .admit = sammon_hip_admit, .setup = sammon_hip_setup,                      \
    .run = sammon_hip_run, .verify = sammon_hip_verify,                        \
    .teardown = sammon_hip_teardown, .occupancy = sammon_hip_occupancy

const struct rb_variant sammon_hip_variants[] = {
    { SAMMON_HIP_ENTRY, .name = "standard-flat", .tunables = sammon_block_axis,
      .doc = "paper's 1: a thread per point sums over all others; row-major x, y" },
    { SAMMON_HIP_ENTRY, .name = "standard-transposed", .tunables = sammon_block_axis,
      .doc = "paper's 3: a thread per point sums over all others; column-major x, y" },
    { SAMMON_HIP_ENTRY, .name = "modified-flat", .tunables = sammon_block_axis,
      .doc = "paper's 2: a thread per pair, atomic adds to both points, update; row-major" },
    { SAMMON_HIP_ENTRY, .name = "modified-transposed", .tunables = sammon_block_axis,
      .doc = "paper's 4: a thread per pair, atomic adds to both points, update; "
             "column-major" },
    { SAMMON_HIP_ENTRY, .name = "tiled", .tunables = tile_axis,
      .doc = "point tiles in shared memory, R x R pairs a thread, sums in registers" },
    { SAMMON_HIP_ENTRY, .name = "tiled-symmetric", .tunables = tile_axis,
      .doc = "tiled over tile pairs j <= i only, each pair's terms to both points (atomics)" },
    { 0 }
};
