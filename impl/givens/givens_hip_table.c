/* SPDX-License-Identifier: MIT */
/* The HIP Givens variants, those of CUDA from the same kernels: the paper's
 * per-step kernels (forward, and the backward of Algorithm 3) and both fused
 * into one launch. */
#include "harness/backend/hip.h"
#include "impl/givens/givens_case.h"
#include "impl/givens/givens_hip.h"

const struct rb_variant givens_hip_variants[] = {
    { .paper = "givens", .algo = "forward", .name = "paper",
      .backend = RB_BACKEND_HIP, .precs = RB_PREC_F32 | RB_PREC_F64,
      .sizes = givens_gpu_sizes, .tunables = givens_gpu_block_axis,
      .doc = "the paper's GPU forward: U <- I, one launch per block of the schedule",
      .available = rb_hip_available, .footprint = givens_hip_footprint,
      .admit = givens_hip_admit, .setup = givens_hip_setup,
      .run = givens_hip_run_forward_paper, .verify = givens_hip_verify,
      .teardown = givens_hip_teardown, .occupancy = givens_hip_occupancy,
      .work = givens_work },
    { .paper = "givens", .algo = "forward", .name = "fused",
      .backend = RB_BACKEND_HIP, .precs = RB_PREC_F32 | RB_PREC_F64,
      .sizes = givens_gpu_sizes, .tunables = givens_gpu_fused_axes,
      .doc = "forward in one launch: column slabs in registers through all n-1 blocks",
      .available = rb_hip_available, .footprint = givens_hip_footprint,
      .admit = givens_hip_admit, .setup = givens_hip_setup,
      .run = givens_hip_run_forward_fused, .verify = givens_hip_verify,
      .teardown = givens_hip_teardown, .occupancy = givens_hip_occupancy,
      .work = givens_work },
    { .paper = "givens", .algo = "backward", .name = "paper",
      .backend = RB_BACKEND_HIP, .precs = RB_PREC_F32 | RB_PREC_F64,
      .sizes = givens_gpu_sizes, .tunables = givens_gpu_block_axis,
      .doc = "Algorithm 3 on the GPU: per block rotate M and U^T, fill A, sum its rows",
      .available = rb_hip_available, .footprint = givens_hip_footprint,
      .admit = givens_hip_admit, .setup = givens_hip_setup,
      .run = givens_hip_run_backward_paper, .verify = givens_hip_verify,
      .teardown = givens_hip_teardown, .occupancy = givens_hip_occupancy,
      .work = givens_work },
    { .paper = "givens", .algo = "backward", .name = "fused",
      .backend = RB_BACKEND_HIP, .precs = RB_PREC_F32 | RB_PREC_F64,
      .sizes = givens_gpu_sizes, .tunables = givens_gpu_fused_bwd_axes,
      .doc = "Algorithm 3 in one launch: slabs of M and U^T in registers, dot products "
             "added across slabs with atomics",
      .available = rb_hip_available, .footprint = givens_hip_footprint,
      .admit = givens_hip_admit, .setup = givens_hip_setup,
      .run = givens_hip_run_backward_fused, .verify = givens_hip_verify,
      .teardown = givens_hip_teardown, .occupancy = givens_hip_occupancy,
      .work = givens_work },
    { 0 }
};
