/* SPDX-License-Identifier: MIT */
/* Entry points of the HIP apply-mode Givens variants (givens_hip_apply.hip),
 * named by givens_hip_apply_table.c.  Each does what its givens_cuda_apply.h
 * namesake does, on the HIP device.  No HIP header is needed to include this. */
#ifndef GIVENS_HIP_APPLY_H
#define GIVENS_HIP_APPLY_H

#include <stddef.h>
#include "harness/variant.h"

#ifdef __cplusplus
extern "C" {
#endif

extern const struct rb_variant givens_hip_apply_variants[];

int givens_hip_apply_admit(struct rb_case *c);
size_t givens_hip_apply_footprint(const struct rb_case *c);
int givens_hip_apply_setup(struct rb_case *c);
int givens_hip_apply_run_forward(struct rb_case *c);
int givens_hip_apply_run_backward(struct rb_case *c);
int givens_hip_apply_verify(struct rb_case *c, struct rb_check *out);
void givens_hip_apply_occupancy(struct rb_case *c, struct rb_occ *occ);
void givens_hip_apply_teardown(struct rb_case *c);

#ifdef __cplusplus
}
#endif

#endif
