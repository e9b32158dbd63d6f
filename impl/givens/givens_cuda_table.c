/* SPDX-License-Identifier: MIT */
/* The CUDA Givens variants: the paper's per-step kernels (forward, and the
 * backward of Algorithm 3) and a forward fused into one launch. */
#include "harness/backend/cuda.h"
#include "impl/givens/givens_case.h"
#include "impl/givens/givens_cuda.h"

const struct rb_variant givens_cuda_variants[] = {
    { .paper = "givens", .algo = "forward", .name = "paper",
      .backend = RB_BACKEND_CUDA, .precs = RB_PREC_F32 | RB_PREC_F64,
      .sizes = givens_gpu_sizes, .tunables = givens_gpu_block_axis,
      .doc = "the paper's GPU forward: U <- I, one launch per block of the schedule",
      .available = rb_cuda_available, .footprint = givens_cuda_footprint,
      .admit = givens_cuda_admit, .setup = givens_cuda_setup,
      .run = givens_cuda_run_forward_paper, .verify = givens_cuda_verify,
      .teardown = givens_cuda_teardown, .occupancy = givens_cuda_occupancy,
      .work = givens_work },
    { .paper = "givens", .algo = "forward", .name = "fused",
      .backend = RB_BACKEND_CUDA, .precs = RB_PREC_F32 | RB_PREC_F64,
      .sizes = givens_gpu_sizes, .tunables = givens_gpu_fused_axes,
      .doc = "forward in one launch: column slabs in registers through all n-1 blocks",
      .available = rb_cuda_available, .footprint = givens_cuda_footprint,
      .admit = givens_cuda_admit, .setup = givens_cuda_setup,
      .run = givens_cuda_run_forward_fused, .verify = givens_cuda_verify,
      .teardown = givens_cuda_teardown, .occupancy = givens_cuda_occupancy,
      .work = givens_work },
    { .paper = "givens", .algo = "backward", .name = "paper",
      .backend = RB_BACKEND_CUDA, .precs = RB_PREC_F32 | RB_PREC_F64,
      .sizes = givens_gpu_sizes, .tunables = givens_gpu_block_axis,
      .doc = "Algorithm 3 on the GPU: per block rotate M and U^T, fill A, sum its rows",
      .available = rb_cuda_available, .footprint = givens_cuda_footprint,
      .admit = givens_cuda_admit, .setup = givens_cuda_setup,
      .run = givens_cuda_run_backward_paper, .verify = givens_cuda_verify,
      .teardown = givens_cuda_teardown, .occupancy = givens_cuda_occupancy,
      .work = givens_work },
    { .paper = "givens", .algo = "backward", .name = "fused",
      .backend = RB_BACKEND_CUDA, .precs = RB_PREC_F32 | RB_PREC_F64,
      .sizes = givens_gpu_sizes, .tunables = givens_gpu_fused_bwd_axes,
      .doc = "Algorithm 3 in one launch: slabs of M and U^T in registers, dot products "
             "added across slabs with atomics",
      .available = rb_cuda_available, .footprint = givens_cuda_footprint,
      .admit = givens_cuda_admit, .setup = givens_cuda_setup,
      .run = givens_cuda_run_backward_fused, .verify = givens_cuda_verify,
      .teardown = givens_cuda_teardown, .occupancy = givens_cuda_occupancy,
      .work = givens_work },
    { 0 }
};
