/* SPDX-License-Identifier: MIT */
/* Entry points of the CUDA apply-mode Givens variants (givens_cuda_apply.cu),
 * named by givens_cuda_apply_table.c. */
#ifndef GIVENS_CUDA_APPLY_H
#define GIVENS_CUDA_APPLY_H

#include <stddef.h>
#include "harness/variant.h"

#ifdef __cplusplus
extern "C" {
#endif

extern const struct rb_variant givens_cuda_apply_variants[];

/* RB_ESKIP when m > n or the fused kernel is not built for slots/cols. */
int givens_cuda_apply_admit(struct rb_case *c);
/* Device bytes: theta, the rotation table, the (step, slot) sums, the n x batch
 * arrays. */
size_t givens_cuda_apply_footprint(const struct rb_case *c);
/* Draw theta, X and GY from c->seed, upload; for the backward form Y = U X on
 * the device (untimed); poison the outputs with NaN. */
int givens_cuda_apply_setup(struct rb_case *c);
/* Timed: Y = U X; and dtheta with dX = U^T GY from (theta, Y, GY). */
int givens_cuda_apply_run_forward(struct rb_case *c);
int givens_cuda_apply_run_backward(struct rb_case *c);
/* givens_check_apply or givens_check_apply_backward on the outputs. */
int givens_cuda_apply_verify(struct rb_case *c, struct rb_check *out);
void givens_cuda_apply_occupancy(struct rb_case *c, struct rb_occ *occ);
/* Free everything; safe after a partial setup and twice. */
void givens_cuda_apply_teardown(struct rb_case *c);

#ifdef __cplusplus
}
#endif

#endif
