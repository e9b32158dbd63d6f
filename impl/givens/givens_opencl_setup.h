/* SPDX-License-Identifier: MIT */
/* The Givens OpenCL setup layer (givens_opencl.c, givens_opencl_apply.c):
 * admission, buffers, uploads, verify and teardown; it calls the kernels
 * layer, nothing calls back into it but the table. */
#ifndef GIVENS_OPENCL_SETUP_H
#define GIVENS_OPENCL_SETUP_H

#include "impl/givens/givens_opencl_state.h"

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
/* givens_opencl.c. */
/* Column groups per work-group (WG) and values per row of a group (W) of a
 * fused kind for the case's cols: the forward holds groups of up to 4 (f32)
 * or 2 (f64) columns of U; the backward one group, cols columns of M and
 * the same of V.  0 groups where cols does not split so. */
void givens_cl_fused_shape(enum givens_cl_kind kind, size_t sz, int cols, int *groups,
                           int *width);

/* givens_opencl_apply.c: after theta and the table's buffer, the apply
 * kinds' host draws (X, then dL/dY, from rb_seed_derive(c->seed,
 * "givens/apply")), their buffers and kernels, Y formed for the backward,
 * outputs poisoned; and their verification by givens_check_apply /
 * givens_check_apply_backward. */
int givens_opencl_apply_setup(struct rb_case *c, struct givens_opencl *s);
int givens_opencl_apply_verify(struct rb_case *c, struct givens_opencl *s,
                               struct rb_check *out);

#endif
