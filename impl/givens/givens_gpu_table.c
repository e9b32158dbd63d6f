/* SPDX-License-Identifier: MIT */
/* The GPU Givens variants of one backend, built once for CUDA and once for
 * HIP (with RB_GPU_HIP): the paper's per-step kernels (forward, and the
 * backward of Algorithm 3), both fused into one launch, and apply mode
 * (Y = U X and its backward without forming U, notes/givens.md sections 5
 * and 11).  The rows name this file's functions, which call the backend's
 * engine (givens_gpu.h), GIVENS_GPU_ENGINE below. */
#include "impl/givens/givens_case.h"
#include "impl/givens/givens_gpu.h"

#ifdef RB_GPU_HIP
#include "harness/backend/hip.h"
#define GIVENS_GPU_VARIANTS givens_hip_variants
#define GIVENS_GPU_APPLY_VARIANTS givens_hip_apply_variants
#define GIVENS_GPU_ENGINE givens_hip_engine
#define GIVENS_GPU_BACKEND RB_BACKEND_HIP
#define GIVENS_GPU_AVAILABLE rb_hip_available
#else
#include "harness/backend/cuda.h"
#define GIVENS_GPU_VARIANTS givens_cuda_variants
#define GIVENS_GPU_APPLY_VARIANTS givens_cuda_apply_variants
#define GIVENS_GPU_ENGINE givens_cuda_engine
#define GIVENS_GPU_BACKEND RB_BACKEND_CUDA
#define GIVENS_GPU_AVAILABLE rb_cuda_available
#endif

static int admit(struct rb_case *c) { return GIVENS_GPU_ENGINE()->admit(c); }
static size_t footprint(const struct rb_case *c) { return GIVENS_GPU_ENGINE()->footprint(c); }
static int setup(struct rb_case *c) { return GIVENS_GPU_ENGINE()->setup(c); }
static int run_forward_paper(struct rb_case *c)
{
    return GIVENS_GPU_ENGINE()->run_forward_paper(c);
}
static int run_forward_fused(struct rb_case *c)
{
    return GIVENS_GPU_ENGINE()->run_forward_fused(c);
}
static int run_backward_paper(struct rb_case *c)
{
    return GIVENS_GPU_ENGINE()->run_backward_paper(c);
}
static int run_backward_fused(struct rb_case *c)
{
    return GIVENS_GPU_ENGINE()->run_backward_fused(c);
}
static int verify(struct rb_case *c, struct rb_check *out)
{
    return GIVENS_GPU_ENGINE()->verify(c, out);
}
static void occupancy(struct rb_case *c, struct rb_occ *occ)
{
    GIVENS_GPU_ENGINE()->occupancy(c, occ);
}
static void teardown(struct rb_case *c) { GIVENS_GPU_ENGINE()->teardown(c); }

static int apply_admit(struct rb_case *c) { return GIVENS_GPU_ENGINE()->apply_admit(c); }
static size_t apply_footprint(const struct rb_case *c)
{
    return GIVENS_GPU_ENGINE()->apply_footprint(c);
}
static int apply_setup(struct rb_case *c) { return GIVENS_GPU_ENGINE()->apply_setup(c); }
static int apply_run_forward(struct rb_case *c)
{
    return GIVENS_GPU_ENGINE()->apply_run_forward(c);
}
static int apply_run_backward(struct rb_case *c)
{
    return GIVENS_GPU_ENGINE()->apply_run_backward(c);
}
static int apply_verify(struct rb_case *c, struct rb_check *out)
{
    return GIVENS_GPU_ENGINE()->apply_verify(c, out);
}
static void apply_occupancy(struct rb_case *c, struct rb_occ *occ)
{
    GIVENS_GPU_ENGINE()->apply_occupancy(c, occ);
}
static void apply_teardown(struct rb_case *c) { GIVENS_GPU_ENGINE()->apply_teardown(c); }

const struct rb_variant GIVENS_GPU_VARIANTS[] = {
    { .paper = "givens", .algo = "forward", .name = "paper", .kind = GIVENS_KIND_PAPER,
      .backend = GIVENS_GPU_BACKEND, .precs = RB_PREC_F32 | RB_PREC_F64,
      .sizes = givens_gpu_sizes, .tunables = givens_gpu_block_axis,
      .doc = "the paper's GPU forward: U <- I, one launch per block of the schedule",
      .available = GIVENS_GPU_AVAILABLE, .footprint = footprint, .admit = admit,
      .setup = setup, .run = run_forward_paper, .verify = verify, .teardown = teardown,
      .occupancy = occupancy, .work = givens_work },
    { .paper = "givens", .algo = "forward", .name = "fused", .kind = GIVENS_KIND_FUSED,
      .backend = GIVENS_GPU_BACKEND, .precs = RB_PREC_F32 | RB_PREC_F64,
      .sizes = givens_gpu_sizes, .tunables = givens_gpu_fused_axes,
      .doc = "forward in one launch: column slabs in registers through all n-1 blocks",
      .available = GIVENS_GPU_AVAILABLE, .footprint = footprint, .admit = admit,
      .setup = setup, .run = run_forward_fused, .verify = verify, .teardown = teardown,
      .occupancy = occupancy, .work = givens_work },
    { .paper = "givens", .algo = "backward", .name = "paper", .kind = GIVENS_KIND_PAPER,
      .backend = GIVENS_GPU_BACKEND, .precs = RB_PREC_F32 | RB_PREC_F64,
      .sizes = givens_gpu_sizes, .tunables = givens_gpu_block_axis,
      .doc = "Algorithm 3 on the GPU: per block rotate M and U^T, fill A, sum its rows",
      .available = GIVENS_GPU_AVAILABLE, .footprint = footprint, .admit = admit,
      .setup = setup, .run = run_backward_paper, .verify = verify, .teardown = teardown,
      .occupancy = occupancy, .work = givens_work },
    { .paper = "givens", .algo = "backward", .name = "fused", .kind = GIVENS_KIND_FUSED,
      .backend = GIVENS_GPU_BACKEND, .precs = RB_PREC_F32 | RB_PREC_F64,
      .sizes = givens_gpu_sizes, .tunables = givens_gpu_fused_bwd_axes,
      .doc = "Algorithm 3 in one launch: slabs of M and U^T in registers, dot products "
             "added across slabs with atomics",
      .available = GIVENS_GPU_AVAILABLE, .footprint = footprint, .admit = admit,
      .setup = setup, .run = run_backward_fused, .verify = verify, .teardown = teardown,
      .occupancy = occupancy, .work = givens_work },
    { 0 }
};

const struct rb_variant GIVENS_GPU_APPLY_VARIANTS[] = {
    { .paper = "givens", .algo = "forward", .name = "apply", .kind = GIVENS_KIND_APPLY,
      .backend = GIVENS_GPU_BACKEND, .precs = RB_PREC_F32 | RB_PREC_F64,
      .sizes = givens_apply_sizes, .tunables = givens_gpu_apply_axes,
      .doc = "Y = U X for X of n x batch without forming U, in one launch",
      .available = GIVENS_GPU_AVAILABLE, .footprint = apply_footprint,
      .admit = apply_admit, .setup = apply_setup, .run = apply_run_forward,
      .verify = apply_verify, .teardown = apply_teardown, .occupancy = apply_occupancy,
      .work = givens_work },
    { .paper = "givens", .algo = "backward", .name = "apply", .kind = GIVENS_KIND_APPLY,
      .backend = GIVENS_GPU_BACKEND, .precs = RB_PREC_F32 | RB_PREC_F64,
      .sizes = givens_apply_sizes, .tunables = givens_gpu_apply_axes,
      .doc = "the batched JVP of Y = U X: dtheta and dX = U^T dY in one launch",
      .available = GIVENS_GPU_AVAILABLE, .footprint = apply_footprint,
      .admit = apply_admit, .setup = apply_setup, .run = apply_run_backward,
      .verify = apply_verify, .teardown = apply_teardown, .occupancy = apply_occupancy,
      .work = givens_work },
    { 0 }
};
