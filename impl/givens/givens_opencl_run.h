/* SPDX-License-Identifier: MIT */
/* The Givens OpenCL run layer (givens_opencl_run.c): enqueues of the timed
 * regions and of the sweeps; it calls no other Givens OpenCL file. */
#ifndef GIVENS_OPENCL_RUN_H
#define GIVENS_OPENCL_RUN_H

#include "impl/givens/givens_opencl_state.h"

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

#endif
