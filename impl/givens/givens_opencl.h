/* SPDX-License-Identifier: MIT */
/* The OpenCL Givens variants (kernels/opencl/givens_*.cl): the case state
 * and the entry points their table names.  Private to impl/givens. */
#ifndef GIVENS_OPENCL_H
#define GIVENS_OPENCL_H

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

/* Column groups per work-group (WG) and values per row of a group (W) of a
 * fused kind for the case's cols: the forward holds groups of up to 4 (f32)
 * or 2 (f64) columns of U; the backward one group, cols columns of M and
 * the same of V.  0 groups where cols does not split so. */
void givens_cl_fused_shape(enum givens_cl_kind kind, size_t sz, int cols, int *groups,
                           int *width);

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

/* RB_ESKIP when m > n, the device lacks fp64 for an f64 case, or the
 * tunables do not fit (wg above the device's work-group size; slots not
 * dividing the nt/2 slots, or the work-group's (nt/2 / slots) column groups
 * above the device's work-items; cols or batch below 1, or cols not a whole
 * number of a fused kind's column groups). */
int givens_opencl_admit(struct rb_case *c);
/* Device bytes of the case's buffers. */
size_t givens_opencl_footprint(const struct rb_case *c);
/* Build the programs (c->build_ms), draw theta from c->seed as the CPU
 * variants do, upload (c->transfer_ms); the backwards form U on the device
 * (untimed) and Gamma = G X^T, or Y = U X (apply); outputs are poisoned with
 * NaN.  0 or RB_E*. */
int givens_opencl_setup(struct rb_case *c);
/* Read the outputs back and check them with givens_check_forward,
 * _backward, _apply or _apply_backward. */
int givens_opencl_verify(struct rb_case *c, struct rb_check *out);
/* Release everything; safe after a partial setup and twice. */
void givens_opencl_teardown(struct rb_case *c);
/* rb_opencl_occupancy of each kernel of the timed region. */
void givens_opencl_occupancy(struct rb_case *c, struct rb_occ *occ);

/* givens_opencl_kernels.c. */
/* Build the case's program (s->wg, or s->slots and s->width), create the
 * kernels its timed region launches and set their arguments; the buffers
 * must exist.  0, RB_EBUILD, RB_EDEVICE, or RB_ESKIP when a fused kernel
 * cannot hold nt/2 / slots work-items or their local memory. */
int givens_opencl_prepare(struct rb_case *c, struct givens_opencl *s);
/* The input of a backward on the device (untimed), before the fused
 * backwards' givens_opencl_prepare and after the paper backward's: U for
 * Algorithm 3, or Y = U X for the apply-form JVP, by the fused forward (or
 * apply) with one column per group and the fewest slots per work-item that
 * fits; the paper backward falls back to givens_opencl_form_u_rotate, the
 * others skip.  Their kernels are released after, and the paper backward's
 * rotation table. */
int givens_opencl_form_input(struct rb_case *c, struct givens_opencl *s);

/* Timed regions (givens_opencl_run.c): enqueue, wait, and set c->device_ms
 * from the first command's start to the last command's end.  run_fused
 * serves every kind on the fused engine. */
int givens_opencl_run_paper_forward(struct rb_case *c);
int givens_opencl_run_paper_backward(struct rb_case *c);
int givens_opencl_run_fused(struct rb_case *c);

/* Work-groups of width columns each over ncols columns. */
size_t givens_opencl_slabs(int ncols, int width);
/* Enqueue the rotation table into s->cs, then sweep kernel k (arguments set)
 * over `groups` work-groups of s->local[k]; the events of both launches if
 * first and last are not NULL. */
int givens_opencl_enqueue_sweep(struct rb_case *c, struct givens_opencl *s, int k,
                                size_t groups, cl_event *first, cl_event *last);
/* U on the device for the backward when the fused forward fits no slots
 * value: the backward's rotate kernel applied to M = V = I, then U <- M.
 * Untimed; waits for the result. */
int givens_opencl_form_u_rotate(struct rb_case *c, struct givens_opencl *s);

/* givens_opencl_apply.c: after theta and the table's buffer, the apply
 * kinds' host draws (X, then dL/dY, from rb_seed_derive(c->seed,
 * "givens/apply")), their buffers and kernels, Y formed for the backward,
 * outputs poisoned; and their verification by givens_check_apply /
 * givens_check_apply_backward. */
int givens_opencl_apply_setup(struct rb_case *c, struct givens_opencl *s);
int givens_opencl_apply_verify(struct rb_case *c, struct givens_opencl *s,
                               struct rb_check *out);

#endif
