/* SPDX-License-Identifier: MIT */
/* The AMD targets HIP is built for, as data: per LLVM target (gfx900,
 * gfx90a, gfx942, ...) the wavefront, the compute unit's register files,
 * wave slots and LDS, and the allocation units, one row each
 * (harness/backend/hip_targets.c); and the occupancy they allow a kernel,
 * the way the AMDGPU compiler and AMD's occupancy calculator count it
 * (notes/harness.md section 5).  Pure C: no HIP needed to use it. */
#ifndef RB_BACKEND_HIP_TARGETS_H
#define RB_BACKEND_HIP_TARGETS_H

#ifdef __cplusplus
extern "C" {
#endif

struct rb_hip_target {
    const char *arch;           /* LLVM target name, gcnArchName up to ':' */
    const char *family;         /* "GCN5 (Vega)", "CDNA2", ... */
    const char *boards;         /* boards and their compute units */
    int cus;                    /* compute units of the first board named */
    int wave;                   /* lanes of a wavefront */
    int simds;                  /* SIMDs of a compute unit */
    int waves_simd;             /* wave slots of a SIMD */
    int vgprs;                  /* VGPRs a SIMD has per lane (arch and acc, where unified) */
    int vgpr_unit;              /* a wave's VGPRs are allocated in multiples of this */
    int vgpr_max;               /* most VGPRs one wave may use */
    int sgprs;                  /* SGPRs of a SIMD */
    int sgpr_unit;              /* a wave's SGPRs are allocated in multiples of this */
    int lds;                    /* LDS bytes of a compute unit, at most this a block */
    int lds_unit;               /* a block's LDS is allocated in multiples of this */
    int blocks_cu;              /* most blocks of more than one wave a compute unit holds */
    int block_max;              /* most threads a block */
};

/* The row of an agent's gcnArchName ("gfx90a:sramecc+:xnack-" or "gfx90a"),
 * or NULL for a target the table does not have. */
const struct rb_hip_target *rb_hip_target_find(const char *gcn_arch_name);

/* Every row, ended by one whose arch is NULL. */
extern const struct rb_hip_target rb_hip_targets[];

/* What each resource allows one kernel: blocks a compute unit holds. */
struct rb_hip_occ {
    int waves_block;            /* wavefronts a block */
    int by_waves;               /* the wave slots */
    int by_blocks;              /* the blocks a compute unit tracks (-1: no limit of its own) */
    int by_vgprs;               /* -1 where the VGPRs are unknown */
    int by_sgprs;               /* -1 where the SGPRs are unknown */
    int by_lds;                 /* -1 where the block uses no LDS */
    int blocks;                 /* the least of them */
    int waves_simd;             /* wavefronts a SIMD then runs */
    int waves_simd_regs;        /* wavefronts a SIMD's registers alone allow, at most its
                                 * slots: the compiler's own figure where LDS does not bind */
    double occupancy;           /* waves over the compute unit's wave slots, 0..1 */
    const char *limiter;        /* "warps", "registers", "sgprs", "shared-memory", "blocks" */
};

/* The occupancy of a kernel of `block` threads using vgprs and agprs
 * (accumulation VGPRs, 0 where the target has none or the kernel uses
 * none) per lane, sgprs per wave and lds bytes per block (static and
 * dynamic); a count below 0 is unknown and bounds nothing.  0, or
 * RB_EINVAL for a block of no threads; a block or resource past the
 * target's limits gives blocks 0. */
int rb_hip_target_occupancy(const struct rb_hip_target *t, int block, int vgprs, int agprs,
                            int sgprs, long long lds, struct rb_hip_occ *out);

#ifdef __cplusplus
}
#endif

#endif
