/* SPDX-License-Identifier: MIT */
/* The HIP apply-mode Givens variants: Y = U X and its backward without
 * forming U (notes/givens.md sections 5 and 11), CUDA's kernels. */
#include "harness/backend/hip.h"
#include "impl/givens/givens_case.h"
#include "impl/givens/givens_hip_apply.h"

const struct rb_variant givens_hip_apply_variants[] = {
    { .paper = "givens", .algo = "forward", .name = "apply",
      .backend = RB_BACKEND_HIP, .precs = RB_PREC_F32 | RB_PREC_F64,
      .sizes = givens_apply_sizes, .tunables = givens_gpu_apply_axes,
      .doc = "Y = U X for X of n x batch without forming U, in one launch",
      .available = rb_hip_available, .footprint = givens_hip_apply_footprint,
      .admit = givens_hip_apply_admit, .setup = givens_hip_apply_setup,
      .run = givens_hip_apply_run_forward, .verify = givens_hip_apply_verify,
      .teardown = givens_hip_apply_teardown, .occupancy = givens_hip_apply_occupancy,
      .work = givens_work },
    { .paper = "givens", .algo = "backward", .name = "apply",
      .backend = RB_BACKEND_HIP, .precs = RB_PREC_F32 | RB_PREC_F64,
      .sizes = givens_apply_sizes, .tunables = givens_gpu_apply_axes,
      .doc = "the batched JVP of Y = U X: dtheta and dX = U^T dY in one launch",
      .available = rb_hip_available, .footprint = givens_hip_apply_footprint,
      .admit = givens_hip_apply_admit, .setup = givens_hip_apply_setup,
      .run = givens_hip_apply_run_backward, .verify = givens_hip_apply_verify,
      .teardown = givens_hip_apply_teardown, .occupancy = givens_hip_apply_occupancy,
      .work = givens_work },
    { 0 }
};
