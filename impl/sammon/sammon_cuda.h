/* SPDX-License-Identifier: MIT */
/* The CUDA Sammon variants (sammon_cuda.cu): the entry points their table
 * names (the paper's four, tiled and tiled-symmetric).
 * No CUDA header is needed to include this. */
#ifndef SAMMON_CUDA_H
#define SAMMON_CUDA_H

#include <stddef.h>
#include "harness/variant.h"

#ifdef __cplusplus
extern "C" {
#endif

/* RB_ESKIP with the reason when a tunable does not apply: the tiled kernels
 * are built for tile 32, 64 and 128 (f32 only) points a side. */
int sammon_cuda_admit(struct rb_case *c);
/* Device bytes the case allocates. */
size_t sammon_cuda_footprint(const struct rb_case *c);
/* sammon_setup, then select the device, upload x and y0 (transposed for the
 * transposed variants; timed into c->transfer_ms) and poison the iterates
 * with NaN.  0, or as sammon_setup, or RB_ENODEV / RB_ENOMEM / RB_EDEVICE. */
int sammon_cuda_setup(struct rb_case *c);
/* The timed region, device-timed into c->device_ms: restart from y0 and do
 * `iters` Jacobi GD steps with the case's variant.  0, RB_ELAUNCH or
 * RB_EDEVICE. */
int sammon_cuda_run(struct rb_case *c);
/* Copy the iterate into s->y (row-major) and sammon_verify it. */
int sammon_cuda_verify(struct rb_case *c, struct rb_check *out);
/* The runtime's occupancy of every kernel run() launches. */
void sammon_cuda_occupancy(struct rb_case *c, struct rb_occ *occ);
/* Free the device state, then sammon_teardown; safe after a partial setup
 * and twice. */
void sammon_cuda_teardown(struct rb_case *c);

#ifdef __cplusplus
}
#endif

#endif
