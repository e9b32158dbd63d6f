/* SPDX-License-Identifier: MIT */
/* The OpenCL Sammon variants: the paper's four (standard or modified, flat
 * or transposed) and the tiled design, all over the `wg` axis; the stored
 * form over `tile` and `precompute`. */
#include "harness/backend/opencl.h"
#include "impl/sammon/sammon_case.h"
#include "impl/sammon/sammon_opencl.h"

#define SAMMON_OPENCL_ENTRY                                                    \
    .paper = "sammon", .algo = "gd", .backend = RB_BACKEND_OPENCL,             \
    .precs = RB_PREC_F32 | RB_PREC_F64, .sizes = sammon_sizes,                 \
    .tunables = sammon_wg_axis, .available = rb_opencl_available,              \
    .footprint = sammon_opencl_footprint, .admit = sammon_opencl_admit,        \
    .setup = sammon_opencl_setup, .run = sammon_opencl_run,                    \
    .verify = sammon_opencl_verify, .teardown = sammon_opencl_teardown,        \
    .occupancy = sammon_opencl_occupancy

const struct rb_variant sammon_opencl_variants[] = {
    { SAMMON_OPENCL_ENTRY, .name = "standard-flat", .kind = SAMMON_KIND_STANDARD_FLAT,
      .work = sammon_work_all_pairs,
      .doc = "paper's 1: a work-item per point sums over all others; row-major x, y" },
    { SAMMON_OPENCL_ENTRY, .name = "standard-transposed", .kind = SAMMON_KIND_STANDARD_TRANSPOSED,
      .work = sammon_work_all_pairs,
      .doc = "paper's 3: a work-item per point sums over all others; column-major x, y" },
    { SAMMON_OPENCL_ENTRY, .name = "modified-flat", .kind = SAMMON_KIND_MODIFIED_FLAT,
      .work = sammon_work_half_pairs,
      .doc = "paper's 2: a work-item per pair, CAS-loop atomic adds, update; row-major" },
    { SAMMON_OPENCL_ENTRY, .name = "modified-transposed", .kind = SAMMON_KIND_MODIFIED_TRANSPOSED,
      .work = sammon_work_half_pairs,
      .doc = "paper's 4: a work-item per pair, CAS-loop atomic adds, update; column-major" },
    { SAMMON_OPENCL_ENTRY, .name = "tiled", .kind = SAMMON_KIND_TILED,
      .work = sammon_work_all_pairs,
      .doc = "points in local-memory tiles, several per work-item, sum split in slices" },
    { .paper = "sammon", .algo = "gd", .name = "stored", .kind = SAMMON_KIND_STORED,
      .backend = RB_BACKEND_OPENCL,
      .precs = RB_PREC_F32, .sizes = sammon_sizes, .tunables = sammon_stored_axes,
      .available = rb_opencl_available, .footprint = sammon_opencl_stored_footprint,
      .admit = sammon_opencl_stored_admit, .setup = sammon_opencl_stored_setup,
      .run = sammon_opencl_stored_run, .verify = sammon_opencl_stored_verify,
      .teardown = sammon_opencl_stored_teardown, .occupancy = sammon_opencl_stored_occupancy,
      .work = sammon_work_stored,
      .doc = "1/d* computed once into device memory in tiles, streamed each iteration; "
             "partial sums per tile pair" },
    { 0 }
};
