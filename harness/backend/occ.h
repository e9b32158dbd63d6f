/* SPDX-License-Identifier: MIT */
/* Occupancy arithmetic shared by the CUDA, HIP and OpenCL plumbing: how many
 * blocks per SM (CU) each resource allows, which one binds, and the fraction
 * of warp slots filled (notes/harness.md §5, the CUDA calculator's model). */
#ifndef RB_BACKEND_OCC_H
#define RB_BACKEND_OCC_H

#include "harness/variant.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Per-SM limits of a device; -1 (or 0 for the units) where unknown. */
struct rb_occ_limits {
    int warp_size;                  /* 32 on NVIDIA, 32 or 64 on AMD */
    int max_threads_sm;             /* resident threads per SM */
    int max_blocks_sm;              /* resident blocks per SM, -1 unknown */
    int max_threads_block;          /* -1 unknown */
    int regs_sm;                    /* 32-bit registers per SM, -1 unknown */
    int reg_unit;                   /* registers per warp are rounded up to this */
    int reg_partitions;             /* register file split per scheduler (4 on NVIDIA) */
    long long smem_sm;              /* shared memory bytes per SM, -1 unknown */
    int smem_unit;                  /* shared memory per block rounded up to this */
    long long smem_reserved;        /* bytes the runtime reserves per block */
};

/* Blocks per SM that each resource allows at one launch configuration;
 * -1 where the resource or the kernel's use of it is unknown. */
struct rb_occ_bounds {
    int warps;
    int regs;
    int smem;
    int blocks;
};

/* Bounds for `block` threads, `regs` registers per thread (-1 unknown) and
 * `smem_block` bytes of shared memory per block (-1 unknown). */
void rb_occ_bounds(const struct rb_occ_limits *d, int block, int regs, long long smem_block,
                   struct rb_occ_bounds *out);

/* The smallest known bound, -1 if none is known. */
int rb_occ_bounds_min(const struct rb_occ_bounds *b);

/* Name of the first bound equal to `active` ("warps", "registers",
 * "shared-memory", "blocks"), or "" when none matches (a limit the model
 * does not know, e.g. barriers). */
const char *rb_occ_limiter(const struct rb_occ_bounds *b, int active);

/* Active warps over the SM's warp slots for `active` blocks of `block`
 * threads, 0..1; -1 if the device limits are unknown. */
double rb_occ_fraction(const struct rb_occ_limits *d, int block, int active);

/* Empty record: every count unknown (-1), strings empty. */
void rb_occ_kernel_clear(struct rb_occ_kernel *k, const char *name, int block);

#ifdef __cplusplus
}
#endif

#endif
