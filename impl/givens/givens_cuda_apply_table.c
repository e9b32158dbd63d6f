/* SPDX-License-Identifier: MIT */
/* The CUDA apply-mode Givens variants: Y = U X and its backward without
 * forming U (notes/givens.md sections 5 and 11). */
#include "harness/backend/cuda.h"
#include "impl/givens/givens_case.h"
#include "impl/givens/givens_cuda.h"
#include "impl/givens/givens_cuda_apply.h"

const struct rb_variant givens_cuda_apply_variants[] = {
    { .paper = "givens", .algo = "forward", .name = "apply",
      .backend = RB_BACKEND_CUDA, .precs = RB_PREC_F32 | RB_PREC_F64,
      .sizes = givens_apply_sizes, .tunables = givens_gpu_apply_axes,
      .doc = "Y = U X for X of n x batch without forming U, in one launch",
      .available = rb_cuda_available, .footprint = givens_cuda_apply_footprint,
      .admit = givens_cuda_apply_admit, .setup = givens_cuda_apply_setup,
      .run = givens_cuda_apply_run_forward, .verify = givens_cuda_apply_verify,
      .teardown = givens_cuda_apply_teardown, .occupancy = givens_cuda_apply_occupancy,
      .work = givens_work },
    { .paper = "givens", .algo = "backward", .name = "apply",
      .backend = RB_BACKEND_CUDA, .precs = RB_PREC_F32 | RB_PREC_F64,
      .sizes = givens_apply_sizes, .tunables = givens_gpu_apply_axes,
      .doc = "the batched JVP of Y = U X: dtheta and dX = U^T dY in one launch",
      .available = rb_cuda_available, .footprint = givens_cuda_apply_footprint,
      .admit = givens_cuda_apply_admit, .setup = givens_cuda_apply_setup,
      .run = givens_cuda_apply_run_backward, .verify = givens_cuda_apply_verify,
      .teardown = givens_cuda_apply_teardown, .occupancy = givens_cuda_apply_occupancy,
      .work = givens_work },
    { 0 }
};
