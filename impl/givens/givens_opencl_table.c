/* SPDX-License-Identifier: MIT */
/* The OpenCL Givens variants: the paper's per-block kernels (forward and
 * Algorithm 3), the fused one-launch forward and backward, and apply mode
 * (Y = U X and its JVP without forming U), with their axes. */
#include "harness/backend/opencl.h"
#include "impl/givens/givens_case.h"
#include "impl/givens/givens_opencl_setup.h"
#include "impl/givens/givens_opencl_kernels.h"
#include "impl/givens/givens_opencl_run.h"

/* The official kernels run 64 threads over the columns (notes section 8). */
static const long long wg_deflt[] = { 64, 128, 256, RB_AXIS_END };
static const long long wg_one[] = { 64, RB_AXIS_END };

const struct rb_axis givens_wg_axis[] = {
    { .name = "wg", .help = "OpenCL work-group size over the columns (paper kernels)",
      .min = 1, .max = 1024, .deflt = wg_deflt, .quick = wg_one, .paper = wg_one },
    { 0 }
};

/* The fused kernels (givens_slab.cl): slots, cols and steps per exchange,
 * the full grid by default; for the quick preset the best at n = 2048 on
 * the H200 (README), for the paper's, whose sizes have n/2 = 10, 230, 450,
 * ..., the slots down to 2 as well.  admit skips what a size, precision or
 * device cannot take. */
static const long long slab_slots[] = { 1, 2, 4, 8, 16, RB_AXIS_END };
static const long long slab_cols[] = { 1, 2, 4, 8, 16, RB_AXIS_END };
static const long long slab_slots_one[] = { 16, RB_AXIS_END };
static const long long slab_slots_paper[] = { 16, 8, 4, 2, RB_AXIS_END };
static const long long slab_cols_one[] = { 8, RB_AXIS_END };
static const long long slab_bwd_cols[] = { 1, 2, 4, RB_AXIS_END };
static const long long slab_bwd_slots_one[] = { 4, RB_AXIS_END };
static const long long slab_bwd_slots_paper[] = { 8, 4, 2, RB_AXIS_END };
static const long long slab_bwd_cols_one[] = { 4, RB_AXIS_END };
/* Steps per exchange: both by default (admit skips 2 below slots 4), the
 * engine's one for the presets. */
static const long long slab_exchange[] = { 1, 2, RB_AXIS_END };
static const long long slab_exchange_one[] = { 1, RB_AXIS_END };

const struct rb_axis givens_fused_axes[] = {
    { .name = "slots", .help = "fused forward: consecutive slots (pairs) per work-item, "
                               "1, 2, 4, 8 or 16; must divide n/2 rounded up",
      .min = 1, .max = 16, .deflt = slab_slots, .quick = slab_slots_one,
      .paper = slab_slots_paper },
    { .name = "cols", .help = "fused forward: columns of U per work-group, in 1, 2 or 4 "
                              "groups of up to 4 (f64: 2) columns",
      .min = 1, .max = 16, .deflt = slab_cols, .quick = slab_cols_one, .paper = slab_cols_one },
    { .name = "exchange", .help = "fused forward: steps per exchange between work-items, 1 "
                                  "or 2 (slots >= 4: each work-item also rotates its "
                                  "neighbours' nearest slot)",
      .min = 1, .max = 2, .deflt = slab_exchange, .quick = slab_exchange_one,
      .paper = slab_exchange_one },
    { 0 }
};

const struct rb_axis givens_fused_backward_axes[] = {
    { .name = "slots", .help = "fused backward: consecutive slots (pairs) per work-item, "
                               "1, 2, 4, 8 or 16; must divide n/2 rounded up",
      .min = 1, .max = 16, .deflt = slab_slots, .quick = slab_bwd_slots_one,
      .paper = slab_bwd_slots_paper },
    { .name = "cols", .help = "fused backward: columns of each of the two matrices per "
                              "work-group, 1, 2 or 4",
      .min = 1, .max = 4, .deflt = slab_bwd_cols, .quick = slab_bwd_cols_one,
      .paper = slab_bwd_cols_one },
    { .name = "exchange", .help = "fused backward: steps per exchange between work-items, 1 "
                                  "or 2 (slots >= 4: each work-item also rotates its "
                                  "neighbours' nearest slot)",
      .min = 1, .max = 2, .deflt = slab_exchange, .quick = slab_exchange_one,
      .paper = slab_exchange_one },
    { 0 }
};

/* Apply mode (givens_apply_engine.cl): slots and cols, the full grid by
 * default; one point, the best of PoCL's grid at n = 256 and 512, for the
 * presets. */
static const long long slots_deflt[] = { 1, 2, 4, 8, RB_AXIS_END };
static const long long slots_one[] = { 2, RB_AXIS_END };
static const long long cols_deflt[] = { 1, 2, 4, 8, RB_AXIS_END };
static const long long cols_one[] = { 8, RB_AXIS_END };

const struct rb_axis givens_apply_axes[] = {
    { .name = "slots", .help = "apply: consecutive slots (pairs) per work-item, 1, 2, 4 "
                               "or 8; must divide n/2 rounded up",
      .min = 1, .max = 8, .deflt = slots_deflt, .quick = slots_one, .paper = slots_one },
    { .name = "cols", .help = "apply: columns of X per work-group, 1, 2, 4 or 8",
      .min = 1, .max = 8, .deflt = cols_deflt, .quick = cols_one, .paper = cols_one },
    { 0 }
};

/* The JVP's slab holds 2 cols values per row (Y and dL/dY), so cols stops
 * at 4. */
static const long long cols_two[] = { 1, 2, 4, RB_AXIS_END };
static const long long cols_two_one[] = { 4, RB_AXIS_END };

const struct rb_axis givens_apply_backward_axes[] = {
    { .name = "slots", .help = "apply backward: consecutive slots (pairs) per work-item, "
                               "1, 2, 4 or 8; must divide n/2 rounded up",
      .min = 1, .max = 8, .deflt = slots_deflt, .quick = slots_one, .paper = slots_one },
    { .name = "cols", .help = "apply backward: columns of each of Y and dL/dY per "
                              "work-group, 1, 2 or 4",
      .min = 1, .max = 4, .deflt = cols_two, .quick = cols_two_one, .paper = cols_two_one },
    { 0 }
};

const struct rb_variant givens_opencl_variants[] = {
    { .paper = "givens", .algo = "forward", .name = "paper", .kind = GIVENS_KIND_PAPER,
      .backend = RB_BACKEND_OPENCL, .precs = RB_PREC_F32 | RB_PREC_F64,
      .sizes = givens_gpu_sizes, .tunables = givens_wg_axis,
      .doc = "Algorithm 2 as the paper runs it: one launch per round-robin block",
      .available = rb_opencl_available, .footprint = givens_opencl_footprint,
      .admit = givens_opencl_admit, .setup = givens_opencl_setup,
      .run = givens_opencl_run_paper_forward, .verify = givens_opencl_verify,
      .teardown = givens_opencl_teardown, .occupancy = givens_opencl_occupancy,
      .work = givens_work },
    { .paper = "givens", .algo = "forward", .name = "fused", .kind = GIVENS_KIND_FUSED,
      .backend = RB_BACKEND_OPENCL, .precs = RB_PREC_F32 | RB_PREC_F64,
      .sizes = givens_gpu_sizes, .tunables = givens_fused_axes,
      .doc = "Algorithm 2 in one launch: column groups per work-group, rows by circle position",
      .available = rb_opencl_available, .footprint = givens_opencl_footprint,
      .admit = givens_opencl_admit, .setup = givens_opencl_setup,
      .run = givens_opencl_run_fused, .verify = givens_opencl_verify,
      .teardown = givens_opencl_teardown, .occupancy = givens_opencl_occupancy,
      .work = givens_work },
    { .paper = "givens", .algo = "backward", .name = "paper", .kind = GIVENS_KIND_PAPER,
      .backend = RB_BACKEND_OPENCL, .precs = RB_PREC_F32 | RB_PREC_F64,
      .sizes = givens_gpu_sizes, .tunables = givens_wg_axis,
      .doc = "Algorithm 3 as the paper runs it: rotate, set A and a row-sum per block",
      .available = rb_opencl_available, .footprint = givens_opencl_footprint,
      .admit = givens_opencl_admit, .setup = givens_opencl_setup,
      .run = givens_opencl_run_paper_backward, .verify = givens_opencl_verify,
      .teardown = givens_opencl_teardown, .occupancy = givens_opencl_occupancy,
      .work = givens_work },
    { .paper = "givens", .algo = "backward", .name = "fused", .kind = GIVENS_KIND_FUSED,
      .backend = RB_BACKEND_OPENCL, .precs = RB_PREC_F32 | RB_PREC_F64,
      .sizes = givens_gpu_sizes, .tunables = givens_fused_backward_axes,
      .doc = "Algorithm 3 in one launch: M and U^T in slabs per work-group, then a finish sum",
      .available = rb_opencl_available, .footprint = givens_opencl_footprint,
      .admit = givens_opencl_admit, .setup = givens_opencl_setup,
      .run = givens_opencl_run_fused, .verify = givens_opencl_verify,
      .teardown = givens_opencl_teardown, .occupancy = givens_opencl_occupancy,
      .work = givens_work },
    { .paper = "givens", .algo = "forward", .name = "apply", .kind = GIVENS_KIND_APPLY,
      .backend = RB_BACKEND_OPENCL, .precs = RB_PREC_F32 | RB_PREC_F64,
      .sizes = givens_apply_sizes, .tunables = givens_apply_axes,
      .doc = "Y = U X for X of n x batch without forming U, in one launch",
      .available = rb_opencl_available, .footprint = givens_opencl_footprint,
      .admit = givens_opencl_admit, .setup = givens_opencl_setup,
      .run = givens_opencl_run_fused, .verify = givens_opencl_verify,
      .teardown = givens_opencl_teardown, .occupancy = givens_opencl_occupancy,
      .work = givens_work },
    { .paper = "givens", .algo = "backward", .name = "apply", .kind = GIVENS_KIND_APPLY,
      .backend = RB_BACKEND_OPENCL, .precs = RB_PREC_F32 | RB_PREC_F64,
      .sizes = givens_apply_sizes, .tunables = givens_apply_backward_axes,
      .doc = "the batched JVP of Y = U X: dtheta and dX = U^T dY in one launch",
      .available = rb_opencl_available, .footprint = givens_opencl_footprint,
      .admit = givens_opencl_admit, .setup = givens_opencl_setup,
      .run = givens_opencl_run_fused, .verify = givens_opencl_verify,
      .teardown = givens_opencl_teardown, .occupancy = givens_opencl_occupancy,
      .work = givens_work },
    { 0 }
};
