/* SPDX-License-Identifier: MIT */
/* The HIP Givens variants (givens_hip.hip): the entry points their table
 * names.  Each does what its givens_cuda.h namesake does, on the HIP device.
 * No HIP header is needed to include this. */
#ifndef GIVENS_HIP_H
#define GIVENS_HIP_H

#include <stddef.h>
#include "harness/variant.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The table (givens_hip_table.c): forward and backward, paper and fused. */
extern const struct rb_variant givens_hip_variants[];

int givens_hip_admit(struct rb_case *c);
size_t givens_hip_footprint(const struct rb_case *c);
int givens_hip_setup(struct rb_case *c);
int givens_hip_run_forward_paper(struct rb_case *c);
int givens_hip_run_backward_paper(struct rb_case *c);
int givens_hip_run_forward_fused(struct rb_case *c);
int givens_hip_run_backward_fused(struct rb_case *c);
int givens_hip_fetch(struct rb_case *c, const void **out);
int givens_hip_verify(struct rb_case *c, struct rb_check *out);
void givens_hip_occupancy(struct rb_case *c, struct rb_occ *occ);
void givens_hip_teardown(struct rb_case *c);

#ifdef __cplusplus
}
#endif

#endif
