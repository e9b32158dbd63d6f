/* SPDX-License-Identifier: MIT */
/* The HIP SBO representation variants (sbo_hip.hip): the entry points their
 * table names.  No HIP header is needed to include this. */
#ifndef SBO_HIP_H
#define SBO_HIP_H

#include <stddef.h>
#include "harness/variant.h"

#ifdef __cplusplus
extern "C" {
#endif

extern const struct rb_variant sbo_hip_variants[];

/* Each does what its sbo_cuda.h namesake does, on the HIP device, with the
 * same kernels. */
int sbo_hip_admit(struct rb_case *c);
size_t sbo_hip_footprint(const struct rb_case *c);
int sbo_hip_setup(struct rb_case *c);
int sbo_hip_upload(struct rb_case *c);
int sbo_hip_run(struct rb_case *c);
int sbo_hip_verify(struct rb_case *c, struct rb_check *out);
void sbo_hip_occupancy(struct rb_case *c, struct rb_occ *occ);
void sbo_hip_teardown(struct rb_case *c);

#ifdef __cplusplus
}
#endif

#endif
