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
    GIVENS_CL_TABLE,            /* givens_fused_forward.cl */
    GIVENS_CL_FUSED,
    GIVENS_CL_TRANSPOSE,        /* givens_paper_backward.cl */
    GIVENS_CL_ROTATE,
    GIVENS_CL_SET_A,
    GIVENS_CL_ROW_SUM,
    GIVENS_CL_NKERNELS
};

/* Which variant a case runs. */
enum givens_cl_kind { GIVENS_CL_PAPER_FORWARD, GIVENS_CL_FUSED_FORWARD, GIVENS_CL_PAPER_BACKWARD };

/* One case's host and device data.  "prec" arrays hold float or double. */
struct givens_opencl {
    enum givens_cl_kind kind;
    int n, m;                   /* m = 0: all rows */
    int nt, S, steps;           /* padded size, slots per step, steps */
    int wg, slots, cols, tile;  /* tunables; tile: side of the transpose's tile */
    size_t count, sz;           /* angles N; bytes of one element */
    double *theta_d;            /* the angles in fp64, as the device sees them */
    double *G, *X;              /* n x GIVENS_COTANGENT_RANK factors of Gamma */
    void *out;                  /* prec: the read-back output, U or dtheta */
    struct rb_opencl *cl;
    cl_kernel k[GIVENS_CL_NKERNELS];
    size_t local[GIVENS_CL_NKERNELS];   /* work-items per group along dimension 0 */
    cl_mem theta, U, gamma, M, V, A, dtheta, cs;
    cl_event first, last;       /* the timed region's first and last commands */
};

/* The variant table (givens_opencl_table.c). */
extern const struct rb_variant givens_opencl_variants[];

/* The tunables of the OpenCL variants (sizes: givens_gpu_sizes). */
extern const struct rb_axis givens_wg_axis[];
extern const struct rb_axis givens_fused_axes[];

/* RB_ESKIP when m > n, the device lacks fp64 for an f64 case, or the
 * tunables do not fit (wg above the device's work-group size; slots not
 * dividing the nt/2 slots, or nt/2 / slots work-items above the device's). */
int givens_opencl_admit(struct rb_case *c);
/* Device bytes of the case's buffers. */
size_t givens_opencl_footprint(const struct rb_case *c);
/* Build the programs (c->build_ms), draw theta from c->seed as the CPU
 * variants do, upload (c->transfer_ms); the backward forms U on the device
 * (untimed) and Gamma = G X^T; outputs are poisoned with NaN.  0 or RB_E*. */
int givens_opencl_setup(struct rb_case *c);
/* Read the output back and check it with givens_check_forward / _backward. */
int givens_opencl_verify(struct rb_case *c, struct rb_check *out);
/* Release everything; safe after a partial setup and twice. */
void givens_opencl_teardown(struct rb_case *c);
/* rb_opencl_occupancy of each kernel of the timed region. */
void givens_opencl_occupancy(struct rb_case *c, struct rb_occ *occ);

/* givens_opencl_kernels.c.  The device's largest work-group along
 * dimension 0. */
size_t givens_opencl_max_wg(const struct rb_opencl *cl);
/* Build the case's program (s->wg, or s->slots and s->cols), create the
 * kernels its timed region launches and set their arguments; the buffers
 * must exist.  0, RB_EBUILD, RB_EDEVICE, or RB_ESKIP when the fused kernel
 * cannot hold nt/2 / slots work-items or their local memory. */
int givens_opencl_prepare(struct rb_case *c, struct givens_opencl *s);
/* U on the device for the backward (untimed): the fused forward with the
 * fewest slots per work-item that fits, else givens_opencl_form_u_rotate. */
int givens_opencl_form_u(struct rb_case *c, struct givens_opencl *s);

/* Timed regions (givens_opencl_run.c): enqueue, wait, and set c->device_ms
 * from the first command's start to the last command's end. */
int givens_opencl_run_paper_forward(struct rb_case *c);
int givens_opencl_run_fused_forward(struct rb_case *c);
int givens_opencl_run_paper_backward(struct rb_case *c);

/* Enqueue the rotation table and the fused forward into s->cs and s->U with
 * the kernels k[GIVENS_CL_TABLE] and k[GIVENS_CL_FUSED] (arguments set),
 * s->slots slots per work-item and s->cols columns per group; events of
 * both launches if first and last are not NULL. */
int givens_opencl_enqueue_fused(struct rb_case *c, struct givens_opencl *s, cl_event *first,
                                cl_event *last);
/* U on the device for the backward when the fused forward fits no slots
 * value: the backward's rotate kernel applied to M = V = I, then U <- M.
 * Untimed; waits for the result. */
int givens_opencl_form_u_rotate(struct rb_case *c, struct givens_opencl *s);

#endif
