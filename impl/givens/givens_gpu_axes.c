/* SPDX-License-Identifier: MIT */
/* The tunables of the fused and apply-mode Givens variants on CUDA and HIP,
 * which build the same kernels from the same source. */
#include "impl/givens/givens_case.h"

/* slots and cols: admit skips the values a size or precision cannot take. */
static const long long slots_deflt[] = { 8, 4, RB_AXIS_END };
static const long long slots_quick[] = { 8, RB_AXIS_END };
static const long long fused_slots_deflt[] = { 16, 8, 4, RB_AXIS_END };
static const long long fused_slots_quick[] = { 16, RB_AXIS_END };
static const long long fused_slots_paper[] = { 16, 8, 4, 2, 1, RB_AXIS_END };
/* Columns per block: column groups of 4 (f32) or 2 (f64) columns. */
static const long long cols_fwd[] = { 16, 8, 4, 2, RB_AXIS_END };
static const long long cols_fwd_quick[] = { 16, 8, RB_AXIS_END };
/* The fused backward holds two matrices: groups of half as many columns
 * at slots 16; 6 is the wide backward's one group (f32, slots 8). */
static const long long cols_bwd[] = { 8, 6, 4, 2, RB_AXIS_END };

#define SLOTS_HELP "schedule slots (pairs) per thread of the apply kernels; must divide n/2 " \
                   "(rounded up), n/2/slots <= 256"
#define FUSED_SLOTS_HELP "schedule slots (pairs) per thread of the fused kernels (1, 2, 4, " \
                         "8, 16); must divide n/2 (rounded up)"
#define COLS_HELP "columns of U per block of the fused forward: 1, 2 or 4 groups of 4 " \
                  "(f64: 2) at slots 8 and 16, one group below; of M and U^T each for the " \
                  "fused backward (groups of 2 at slots 16 (f64: 1), else of 4 (f64: 2), " \
                  "or one group of 6 at slots 8 in f32); " \
                  "(n/2/slots) * groups <= 256"

const struct rb_axis givens_gpu_fused_axes[] = {
    { .name = "slots", .help = FUSED_SLOTS_HELP, .min = 1, .max = 16,
      .deflt = fused_slots_deflt, .quick = fused_slots_quick, .paper = fused_slots_paper },
    { .name = "cols", .help = COLS_HELP,
      .min = 1, .max = 16, .deflt = cols_fwd, .quick = cols_fwd_quick, .paper = cols_fwd },
    { 0 }
};

const struct rb_axis givens_gpu_fused_bwd_axes[] = {
    { .name = "slots", .help = FUSED_SLOTS_HELP, .min = 1, .max = 16,
      .deflt = fused_slots_deflt, .quick = fused_slots_quick, .paper = fused_slots_paper },
    { .name = "cols", .help = COLS_HELP,
      .min = 1, .max = 16, .deflt = cols_bwd, .quick = cols_bwd, .paper = cols_bwd },
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
