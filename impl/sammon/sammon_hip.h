/* SPDX-License-Identifier: MIT */
/* The HIP Sammon variants (sammon_hip.hip): the entry points their table names.
 * No HIP header is needed to include this. */
#ifndef SAMMON_HIP_H
#define SAMMON_HIP_H

#include <stddef.h>
#include "harness/variant.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Each does what its sammon_cuda.h namesake does, on the HIP device, with
 * the same kernels. */
int sammon_hip_admit(struct rb_case *c);
size_t sammon_hip_footprint(const struct rb_case *c);
int sammon_hip_setup(struct rb_case *c);
int sammon_hip_run(struct rb_case *c);
int sammon_hip_verify(struct rb_case *c, struct rb_check *out);
void sammon_hip_occupancy(struct rb_case *c, struct rb_occ *occ);
void sammon_hip_teardown(struct rb_case *c);

#ifdef __cplusplus
}
#endif

#endif
