/* SPDX-License-Identifier: MIT */
/* The Givens OpenCL kernels layer (givens_opencl_kernels.c): programs,
 * kernels and their arguments, the backward's input; it calls the run
 * layer only. */
#ifndef GIVENS_OPENCL_KERNELS_H
#define GIVENS_OPENCL_KERNELS_H

#include "impl/givens/givens_opencl_state.h"

/* rb_opencl_occupancy of each kernel of the timed region. */
void givens_opencl_occupancy(struct rb_case *c, struct rb_occ *occ);

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

#endif
