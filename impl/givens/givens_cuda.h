/* SPDX-License-Identifier: MIT */
/* The CUDA Givens variants (givens_cuda.cu): the entry points their table
 * names.  No CUDA header is needed to include this. */
#ifndef GIVENS_CUDA_H
#define GIVENS_CUDA_H

#include <stddef.h>
#include "harness/variant.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The table (givens_cuda_table.c): forward and backward, paper and fused. */
extern const struct rb_variant givens_cuda_variants[];

/* RB_ESKIP with the reason when m > n, or a tunable does not apply: the fused
 * kernels need slots in {1, 2, 4, 8, 16} dividing S, cols one of their
 * builds' column groups (admit_fused in givens_gpu_case.inc) and at most
 * GIVENS_GPU_FUSED_MAXT threads per block. */
int givens_cuda_admit(struct rb_case *c);
/* Device bytes the case allocates at its peak (setup included). */
size_t givens_cuda_footprint(const struct rb_case *c);
/* Select the device, draw theta as the CPU variants do (same seed, same
 * angles), upload it (timed into c->transfer_ms); for the backward form U
 * on the device (untimed) and Gamma = G X^T; poison the output with NaN.
 * 0, or RB_EINVAL / RB_ENODEV / RB_ENOMEM / RB_EDEVICE / RB_ELAUNCH. */
int givens_cuda_setup(struct rb_case *c);
/* Timed regions, device-timed into c->device_ms: U from theta (the paper's
 * identity and one launch per step; the rotation table and the fused
 * kernel), and dtheta from (theta, U, Gamma) by the paper's Algorithm 3. */
int givens_cuda_run_forward_paper(struct rb_case *c);
int givens_cuda_run_forward_fused(struct rb_case *c);
int givens_cuda_run_backward_paper(struct rb_case *c);
int givens_cuda_run_backward_fused(struct rb_case *c);
/* Copy the output (U, n x n, or dtheta, N values, in c->prec) to the host
 * and point *out at it; valid until teardown.  0 or RB_EDEVICE. */
int givens_cuda_fetch(struct rb_case *c, const void **out);
/* givens_check_forward or givens_check_backward on the fetched output. */
int givens_cuda_verify(struct rb_case *c, struct rb_check *out);
/* The runtime's occupancy of every kernel the case launches in run(). */
void givens_cuda_occupancy(struct rb_case *c, struct rb_occ *occ);
/* Free everything; safe after a partial setup and twice. */
void givens_cuda_teardown(struct rb_case *c);

#ifdef __cplusplus
}
#endif

#endif
