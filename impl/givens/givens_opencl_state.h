/* SPDX-License-Identifier: MIT */
/* The OpenCL Givens variants (kernels/opencl/givens_*.cl): the case state
 * that every layer shares.  The layers call one way, each through its own
 * header: givens_opencl_setup.h (givens_opencl.c, givens_opencl_apply.c)
 * -> givens_opencl_kernels.h -> givens_opencl_run.h; the table names
 * entry points of all three.  Private to impl/givens. */
#ifndef GIVENS_OPENCL_STATE_H
#define GIVENS_OPENCL_STATE_H

#include <stddef.h>
#include "harness/backend/opencl.h"
#include "harness/variant.h"

/* The kernels a case may use; a variant creates only its own. */
enum givens_cl_kernel {
    GIVENS_CL_IDENTITY,         /* givens_paper_forward.cl */
    GIVENS_CL_STEP,
    GIVENS_CL_TABLE,            /* givens_table.cl */
    GIVENS_CL_FINISH,
    GIVENS_CL_FUSED,            /* givens_fused.cl, on givens_slab.cl */
    GIVENS_CL_BACKWARD,
    GIVENS_CL_APPLY,            /* givens_apply.cl, on givens_apply_engine.cl */
    GIVENS_CL_APPLY_JVP,
    GIVENS_CL_TRANSPOSE,        /* givens_paper_backward.cl */
    GIVENS_CL_ROTATE,
    GIVENS_CL_SET_A,
    GIVENS_CL_ROW_SUM,
    GIVENS_CL_NKERNELS
};

/* Which variant a case runs: algo forward or backward, name paper, fused or
 * apply. */
enum givens_cl_kind {
    GIVENS_CL_PAPER_FORWARD,
    GIVENS_CL_FUSED_FORWARD,
    GIVENS_CL_APPLY_FORWARD,
    GIVENS_CL_PAPER_BACKWARD,
    GIVENS_CL_FUSED_BACKWARD,
    GIVENS_CL_APPLY_BACKWARD
};

/* 1 for the kinds that sweep a rotation table: the fused kernels
 * (givens_slab.cl) and apply mode (givens_apply_engine.cl). */
static inline int givens_cl_engine(enum givens_cl_kind kind)
{
    return kind != GIVENS_CL_PAPER_FORWARD && kind != GIVENS_CL_PAPER_BACKWARD;
}

/* 1 for the fused backwards, whose slabs hold two matrices side by side:
 * Algorithm 3 (M and V) and the apply-form JVP (Y and dL/dY). */
static inline int givens_cl_two_matrices(enum givens_cl_kind kind)
{
    return kind == GIVENS_CL_FUSED_BACKWARD || kind == GIVENS_CL_APPLY_BACKWARD;
}

/* 1 for the apply-mode kinds (X is n x nb, U never formed). */
static inline int givens_cl_apply(enum givens_cl_kind kind)
{
    return kind == GIVENS_CL_APPLY_FORWARD || kind == GIVENS_CL_APPLY_BACKWARD;
}

/* The most slots per work-item of the fused kernels, and the rows of the
 * rotation table for `steps` steps: a sweep of the fused kernels pads them
 * to a multiple of its slots (givens_slab.cl), 1 to 16. */
#define GIVENS_CL_SLOTS_MAX 16
static inline int givens_cl_table_rows(int steps)
{
    return (steps + GIVENS_CL_SLOTS_MAX - 1) / GIVENS_CL_SLOTS_MAX * GIVENS_CL_SLOTS_MAX;
}

/* One case's host and device data.  "prec" arrays hold float or double. */
struct givens_opencl {
    enum givens_cl_kind kind;
    int n, m, nb;               /* m = 0: all rows; nb: columns of X (apply) */
    int nt, S, steps;           /* padded size, slots per step, steps */
    int nsteps;                 /* steps of a sweep: steps, padded for the fused kinds */
    int wg, slots, cols, tile;  /* tunables; tile: side of the transpose's tile */
    int width;                  /* values per slab row: cols, or 2 cols (two matrices);
                                   the fused forward's per column group */
    int cgroups;                /* column groups per work-group of the fused kinds, else 1 */
    int staged;                 /* the fused sweep stages each step's rotations in local
                                   memory (else reads them from the table) */
    int exchange;               /* the fused sweep's steps per exchange: 1, or 2 (slots
                                   >= 4; givens_slab.cl, GIVENS_PAIRS) */
    int groups;                 /* work-groups of a backward sweep (givens_cl_two_matrices) */
    size_t count, sz;           /* angles N; bytes of one element */
    double *theta_d;            /* the angles in fp64, as the device sees them */
    double *G, *X;              /* fp64 draws: Gamma = G X^T, both n x
                                   GIVENS_COTANGENT_RANK; apply: G = dL/dY and X, n x nb */
    void *out, *out2;           /* prec: the read-back outputs, U, Y or dtheta; dX */
    struct rb_opencl *cl;
    cl_kernel k[GIVENS_CL_NKERNELS];
    size_t local[GIVENS_CL_NKERNELS];   /* work-items per group along dimension 0 */
    cl_mem theta, U, gamma, M, V, A, dtheta, cs, P;
    cl_mem Xd, Y, GY, dX;       /* apply mode, n x nb */
    cl_event first, last;       /* the timed region's first and last commands */
};

/* The variant table (givens_opencl_table.c). */
extern const struct rb_variant givens_opencl_variants[];

/* The tunables of the OpenCL variants (sizes: givens_gpu_sizes, or
 * givens_apply_sizes): wg of the paper's kernels; slots and cols of the fused
 * and apply ones, cols up to 4 where a slab holds two matrices. */
extern const struct rb_axis givens_wg_axis[];
extern const struct rb_axis givens_fused_axes[];
extern const struct rb_axis givens_fused_backward_axes[];
extern const struct rb_axis givens_apply_axes[];
extern const struct rb_axis givens_apply_backward_axes[];

#endif
