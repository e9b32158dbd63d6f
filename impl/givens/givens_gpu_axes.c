/* SPDX-License-Identifier: MIT */
/* The tunables of the fused and apply-mode Givens variants on CUDA and HIP,
 * which build the same kernels from the same source. */
#include "impl/givens/givens_case.h"

/* slots and cols: admit skips the values a size or precision cannot take. */
static const long long slots_deflt[] = { 8, 4, RB_AXIS_END };
static const long long slots_quick[] = { 8, RB_AXIS_END };
static const long long slots_paper[] = { 8, 4, 2, 1, RB_AXIS_END };
static const long long cols_fwd[] = { 4, 8, RB_AXIS_END };
/* The fused backward holds two matrices: half the columns per block. */
static const long long cols_bwd[] = { 4, 2, RB_AXIS_END };

#define SLOTS_HELP "schedule slots (pairs) per thread of the fused kernels; must divide n/2 " \
                   "(rounded up), n/2/slots <= 256"
#define COLS_HELP "columns of U per block of the fused forward (f64: 4 only); of M and U^T " \
                  "each for the fused backward (2, 4; f64: 2)"

const struct rb_axis givens_gpu_fused_axes[] = {
    { .name = "slots", .help = SLOTS_HELP,
      .min = 1, .max = 8, .deflt = slots_deflt, .quick = slots_quick, .paper = slots_paper },
    { .name = "cols", .help = COLS_HELP,
      .min = 2, .max = 8, .deflt = cols_fwd, .quick = cols_fwd, .paper = cols_fwd },
    { 0 }
};

const struct rb_axis givens_gpu_fused_bwd_axes[] = {
    { .name = "slots", .help = SLOTS_HELP,
      .min = 1, .max = 8, .deflt = slots_deflt, .quick = slots_quick, .paper = slots_paper },
    { .name = "cols", .help = COLS_HELP,
      .min = 2, .max = 8, .deflt = cols_bwd, .quick = cols_bwd, .paper = cols_bwd },
    { 0 }
};

/* Apply mode: X's columns per block; the backward holds those of Y and GY. */
static const long long apply_cols[] = { 4, 2, RB_AXIS_END };

const struct rb_axis givens_gpu_apply_axes[] = {
    { .name = "slots", .help = SLOTS_HELP,
      .min = 1, .max = 8, .deflt = slots_deflt, .quick = slots_quick, .paper = slots_deflt },
    { .name = "cols", .help = "columns of X per block (2, 4; f64: 2)",
      .min = 2, .max = 8, .deflt = apply_cols, .quick = apply_cols, .paper = apply_cols },
    { 0 }
};
