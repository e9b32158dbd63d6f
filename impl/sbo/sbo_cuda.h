/* SPDX-License-Identifier: MIT */
/* The CUDA SBO representation variants (sbo_cuda.cu): the paper's map and
 * reduce (kernels/cuda/sbo_paper.cuh) and the fused kernel
 * (kernels/cuda/sbo_fused.cuh), the entry points their table names.
 * No CUDA header is needed to include this. */
#ifndef SBO_CUDA_H
#define SBO_CUDA_H

#include <stddef.h>
#include "harness/variant.h"

#ifdef __cplusplus
extern "C" {
#endif

extern const struct rb_variant sbo_cuda_variants[];

/* sbo_admit, then RB_ESKIP with the reason where the kernels are not built
 * for the case: s outside 1, 2, 4, ..., 32, p > 256, or more than 256
 * threads a block. */
int sbo_cuda_admit(struct rb_case *c);
/* Device bytes the case allocates. */
size_t sbo_cuda_footprint(const struct rb_case *c);
/* sbo_setup, then select the device, allocate, upload (sbo_cuda_upload) and
 * check that the kernels launch at the case's block.  0, or as sbo_setup,
 * or RB_ENODEV / RB_ENOMEM / RB_EDEVICE, or RB_ESKIP when the device gives
 * a kernel fewer threads a block. */
int sbo_cuda_setup(struct rb_case *c);
/* Copy the state's Y and D (timed into c->transfer_ms), best and energy to
 * the device, and poison the paper's energies (NaN).  0 or RB_EDEVICE. */
int sbo_cuda_upload(struct rb_case *c);
/* The timed region, device-timed into c->device_ms.  0, RB_ELAUNCH or
 * RB_EDEVICE. */
int sbo_cuda_run(struct rb_case *c);
/* Copy best and energy back into the state and sbo_represent_verify them. */
int sbo_cuda_verify(struct rb_case *c, struct rb_check *out);
/* The runtime's occupancy of every kernel run() launches. */
void sbo_cuda_occupancy(struct rb_case *c, struct rb_occ *occ);
/* Free the device state, then sbo_teardown; safe after a partial setup and
 * twice. */
void sbo_cuda_teardown(struct rb_case *c);

#ifdef __cplusplus
}
#endif

#endif
