/* SPDX-License-Identifier: MIT */
/* The CUDA and HIP Sammon variants, one table built once per backend (HIP
 * with RB_GPU_HIP): the paper's four (standard or modified, flat or
 * transposed) over the `block` axis, the tiled kernels, standard and
 * symmetric, over `tile`, and the stored form (the input distances computed
 * once) over `tile` and `precompute`.  The rows name this file's functions,
 * which call the backend's engine (sammon_gpu.h), SAMMON_GPU_ENGINE below. */
#include "impl/sammon/sammon_case.h"
#include "impl/sammon/sammon_gpu.h"

#ifdef RB_GPU_HIP
#include "harness/backend/hip.h"
#define SAMMON_GPU_TABLE sammon_hip_variants
#define SAMMON_GPU_ENGINE sammon_hip_engine
#define SAMMON_GPU_BACKEND RB_BACKEND_HIP
#define SAMMON_GPU_AVAILABLE rb_hip_available
#else
#include "harness/backend/cuda.h"
#define SAMMON_GPU_TABLE sammon_cuda_variants
#define SAMMON_GPU_ENGINE sammon_cuda_engine
#define SAMMON_GPU_BACKEND RB_BACKEND_CUDA
#define SAMMON_GPU_AVAILABLE rb_cuda_available
#endif

static int admit(struct rb_case *c) { return SAMMON_GPU_ENGINE()->admit(c); }
static size_t footprint(const struct rb_case *c) { return SAMMON_GPU_ENGINE()->footprint(c); }
static int setup(struct rb_case *c) { return SAMMON_GPU_ENGINE()->setup(c); }
static int run(struct rb_case *c) { return SAMMON_GPU_ENGINE()->run(c); }
static int verify(struct rb_case *c, struct rb_check *out)
{
    return SAMMON_GPU_ENGINE()->verify(c, out);
}
static void occupancy(struct rb_case *c, struct rb_occ *occ)
{
    SAMMON_GPU_ENGINE()->occupancy(c, occ);
}
static void teardown(struct rb_case *c) { SAMMON_GPU_ENGINE()->teardown(c); }

#define SAMMON_GPU_COMMON                                                      \
    .paper = "sammon", .algo = "gd", .backend = SAMMON_GPU_BACKEND,            \
    .sizes = sammon_sizes,                                                     \
    .available = SAMMON_GPU_AVAILABLE, .footprint = footprint,                 \
    .admit = admit, .setup = setup, .run = run, .verify = verify,              \
    .teardown = teardown, .occupancy = occupancy
#define SAMMON_GPU_VARIANT SAMMON_GPU_COMMON, .precs = RB_PREC_F32 | RB_PREC_F64

const struct rb_variant SAMMON_GPU_TABLE[] = {
    { SAMMON_GPU_VARIANT, .name = "standard-flat", .kind = SAMMON_KIND_STANDARD_FLAT,
      .work = sammon_work_all_pairs,
      .tunables = sammon_block_axis,
      .doc = "paper's 1: a thread per point sums over all others; row-major x, y" },
    { SAMMON_GPU_VARIANT, .name = "standard-transposed", .kind = SAMMON_KIND_STANDARD_TRANSPOSED,
      .work = sammon_work_all_pairs,
      .tunables = sammon_block_axis,
      .doc = "paper's 3: a thread per point sums over all others; column-major x, y" },
    { SAMMON_GPU_VARIANT, .name = "modified-flat", .kind = SAMMON_KIND_MODIFIED_FLAT,
      .work = sammon_work_half_pairs,
      .tunables = sammon_block_axis,
      .doc = "paper's 2: a thread per pair, atomic adds to both points, update; row-major" },
    { SAMMON_GPU_VARIANT, .name = "modified-transposed", .kind = SAMMON_KIND_MODIFIED_TRANSPOSED,
      .work = sammon_work_half_pairs,
      .tunables = sammon_block_axis,
      .doc = "paper's 4: a thread per pair, atomic adds to both points, update; "
             "column-major" },
    { SAMMON_GPU_VARIANT, .name = "tiled", .kind = SAMMON_KIND_TILED,
      .work = sammon_work_all_pairs,
      .tunables = sammon_tile_axis,
      .doc = "point tiles in shared memory, R x R pairs a thread, sums in registers" },
    { SAMMON_GPU_VARIANT, .name = "tiled-symmetric", .kind = SAMMON_KIND_TILED_SYMMETRIC,
      .work = sammon_work_half_pairs,
      .tunables = sammon_tile_axis,
      .doc = "tiled over tile pairs j <= i only, each pair's terms to both points (atomics)" },
    { SAMMON_GPU_COMMON, .precs = RB_PREC_F32, .name = "stored", .kind = SAMMON_KIND_STORED,
      .work = sammon_work_stored,
      .tunables = sammon_stored_axes,
      .doc = "1/d* computed once into device memory in tiles, streamed each iteration; "
             "tiled-symmetric's update" },
    { 0 }
};
