/* SPDX-License-Identifier: MIT */
/* The GPU Givens variants as C sees them: one engine per backend, the same
 * host code (givens_gpu_*.cu) compiled for CUDA and for HIP, and the tables
 * that name them (givens_gpu_table.c, built once per backend).  No CUDA or
 * HIP header is needed to include this. */
#ifndef GIVENS_GPU_H
#define GIVENS_GPU_H

#include <stddef.h>
#include "harness/variant.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One backend's entry points.  The table rows reach them through the
 * table's own small functions, so that a row names no backend's symbol. */
struct givens_gpu_engine {
    /* RB_ESKIP with the reason when m > n, or a tunable does not apply: the
     * fused kernels need slots in {1, 2, 4, 8, 16} dividing S, cols one of
     * their builds' column groups (admit_fused in givens_gpu_case.cu) and at
     * most GIVENS_GPU_FUSED_MAXT threads per block. */
    int (*admit)(struct rb_case *c);
    /* Device bytes the case allocates at its peak (setup included). */
    size_t (*footprint)(const struct rb_case *c);
    /* Select the device, draw theta as the CPU variants do (same seed, same
     * angles), upload it (timed into c->transfer_ms); for the backward form
     * U on the device (untimed) and Gamma = G X^T; poison the output with
     * NaN.  0, or RB_EINVAL / RB_ENODEV / RB_ENOMEM / RB_EDEVICE / RB_ELAUNCH. */
    int (*setup)(struct rb_case *c);
    /* Timed regions, device-timed into c->device_ms: U from theta (the
     * paper's identity and one launch per step; the rotation table and the
     * fused kernel), and dtheta from (theta, U, Gamma) by the paper's
     * Algorithm 3. */
    int (*run_forward_paper)(struct rb_case *c);
    int (*run_forward_fused)(struct rb_case *c);
    int (*run_backward_paper)(struct rb_case *c);
    int (*run_backward_fused)(struct rb_case *c);
    /* Copy the output (U, n x n, or dtheta, N values, in c->prec) to the
     * host and point *out at it; valid until teardown.  0 or RB_EDEVICE. */
    int (*fetch)(struct rb_case *c, const void **out);
    /* givens_check_forward or givens_check_backward on the fetched output. */
    int (*verify)(struct rb_case *c, struct rb_check *out);
    /* The runtime's occupancy of every kernel the case launches in run(). */
    void (*occupancy)(struct rb_case *c, struct rb_occ *occ);
    /* Free everything; safe after a partial setup and twice. */
    void (*teardown)(struct rb_case *c);

    /* Apply mode (givens_gpu_apply.cu): RB_ESKIP when m > n or the fused
     * kernel is not built for slots/cols. */
    int (*apply_admit)(struct rb_case *c);
    /* Device bytes: theta, the rotation table, the (step, slot) sums, the
     * n x batch arrays. */
    size_t (*apply_footprint)(const struct rb_case *c);
    /* Draw theta, X and GY from c->seed, upload; for the backward form
     * Y = U X on the device (untimed); poison the outputs with NaN. */
    int (*apply_setup)(struct rb_case *c);
    /* Timed: Y = U X; and dtheta with dX = U^T GY from (theta, Y, GY). */
    int (*apply_run_forward)(struct rb_case *c);
    int (*apply_run_backward)(struct rb_case *c);
    /* givens_check_apply or givens_check_apply_backward on the outputs. */
    int (*apply_verify)(struct rb_case *c, struct rb_check *out);
    void (*apply_occupancy)(struct rb_case *c, struct rb_occ *occ);
    /* Free everything; safe after a partial setup and twice. */
    void (*apply_teardown)(struct rb_case *c);
};

/* Each backend's engine, defined by givens_gpu_case.cu once per backend it
 * is compiled for. */
const struct givens_gpu_engine *givens_cuda_engine(void);
const struct givens_gpu_engine *givens_hip_engine(void);

/* The tables (givens_gpu_table.c): forward and backward, paper and fused;
 * and apply mode. */
extern const struct rb_variant givens_cuda_variants[];
extern const struct rb_variant givens_cuda_apply_variants[];
extern const struct rb_variant givens_hip_variants[];
extern const struct rb_variant givens_hip_apply_variants[];

#ifdef __cplusplus
}
#endif

#endif
