/* SPDX-License-Identifier: MIT */
/* The GPU SBO variants of one backend, built once for CUDA and once for HIP
 * (with RB_GPU_HIP): the representation (the paper's map and reduce, and
 * the fused kernels) over the `block` axis (the paper's m-tilde), and the
 * whole training on the device over `block` and `cublas`.  The rows name
 * this file's functions, which call the backend's engine (sbo_gpu.h),
 * SBO_GPU_ENGINE below. */
#include "impl/sbo/sbo_case.h"
#include "impl/sbo/sbo_gpu.h"

#ifdef RB_GPU_HIP
#include "harness/backend/hip.h"
#define SBO_GPU_VARIANTS sbo_hip_variants
#define SBO_GPU_ENGINE sbo_hip_engine
#define SBO_GPU_BACKEND RB_BACKEND_HIP
#define SBO_GPU_AVAILABLE rb_hip_available
#else
#include "harness/backend/cuda.h"
#define SBO_GPU_VARIANTS sbo_cuda_variants
#define SBO_GPU_ENGINE sbo_cuda_engine
#define SBO_GPU_BACKEND RB_BACKEND_CUDA
#define SBO_GPU_AVAILABLE rb_cuda_available
#endif

static int admit(struct rb_case *c) { return SBO_GPU_ENGINE()->admit(c); }
static size_t footprint(const struct rb_case *c) { return SBO_GPU_ENGINE()->footprint(c); }
static int setup(struct rb_case *c) { return SBO_GPU_ENGINE()->setup(c); }
static int run(struct rb_case *c) { return SBO_GPU_ENGINE()->run(c); }
static int verify(struct rb_case *c, struct rb_check *out)
{
    return SBO_GPU_ENGINE()->verify(c, out);
}
static void occupancy(struct rb_case *c, struct rb_occ *occ)
{
    SBO_GPU_ENGINE()->occupancy(c, occ);
}
static void teardown(struct rb_case *c) { SBO_GPU_ENGINE()->teardown(c); }

static int train_admit(struct rb_case *c) { return SBO_GPU_ENGINE()->train_admit(c); }
static size_t train_footprint(const struct rb_case *c)
{
    return SBO_GPU_ENGINE()->train_footprint(c);
}
static int train_setup(struct rb_case *c) { return SBO_GPU_ENGINE()->train_setup(c); }
static int train_run(struct rb_case *c) { return SBO_GPU_ENGINE()->train_run(c); }
static int train_verify(struct rb_case *c, struct rb_check *out)
{
    return SBO_GPU_ENGINE()->train_verify(c, out);
}
static void train_occupancy(struct rb_case *c, struct rb_occ *occ)
{
    SBO_GPU_ENGINE()->train_occupancy(c, occ);
}
static void train_teardown(struct rb_case *c) { SBO_GPU_ENGINE()->train_teardown(c); }

/* The paper reports m-tilde = 256 as best for its selection kernel; the
 * representation kernel's is not in the text.  Past 256 threads a block the
 * kernels' registers run out (admit skips those). */
static const long long block_deflt[] = { 64, 128, 256, RB_AXIS_END };
static const long long block_quick[] = { 64, RB_AXIS_END };
static const long long block_paper[] = { 64, 128, 256, RB_AXIS_END };

static const struct rb_axis sbo_gpu_block_axis[] = {
    { .name = "block", .help = "threads (signals) per block, the paper's m-tilde",
      .min = 32, .max = 1024, .deflt = block_deflt, .quick = block_quick,
      .paper = block_paper },
    { 0 }
};

/* The paper ran its GEMMs through the vendor BLAS: cuBLAS on CUDA (where
 * configure found it); 0 is the project's own batched kernel.  HIP has the
 * own kernel only, and a build without cuBLAS skips 1. */
static const long long blas_deflt[] = { 0, 1, RB_AXIS_END };
static const long long blas_quick[] = { 0, RB_AXIS_END };
static const long long blas_paper[] = { 1, RB_AXIS_END };
/* The training's kernels keep a block's arrays in shared memory sized for
 * 256 threads. */
static const long long tblock_deflt[] = { 64, 128, 256, RB_AXIS_END };

static const struct rb_axis sbo_gpu_train_axes[] = {
    { .name = "block", .help = "threads per block of the per-signal and per-matrix kernels",
      .min = 32, .max = 256, .deflt = tblock_deflt, .quick = block_quick,
      .paper = block_paper },
    { .name = "cublas", .help = "GEMMs through cuBLAS (1) or the own batched kernel (0)",
      .min = 0, .max = 1, .deflt = blas_deflt, .quick = blas_quick, .paper = blas_paper },
    { 0 }
};

#define SBO_GPU_VARIANT                                                        \
    .paper = "sbo", .algo = "represent", .backend = SBO_GPU_BACKEND,           \
    .sizes = sbo_represent_sizes,                                              \
    .tunables = sbo_gpu_block_axis, .available = SBO_GPU_AVAILABLE,            \
    .footprint = footprint, .admit = admit, .setup = setup, .run = run,        \
    .verify = verify, .teardown = teardown, .occupancy = occupancy,            \
    .work = sbo_represent_work

#define SBO_GPU_TRAIN_VARIANT                                                  \
    .paper = "sbo", .algo = "train", .backend = SBO_GPU_BACKEND,               \
    .precs = RB_PREC_F32 | RB_PREC_F64, .sizes = sbo_train_sizes,              \
    .tunables = sbo_gpu_train_axes, .available = SBO_GPU_AVAILABLE,            \
    .footprint = train_footprint, .admit = train_admit, .setup = train_setup,  \
    .run = train_run, .verify = train_verify, .teardown = train_teardown,      \
    .occupancy = train_occupancy

const struct rb_variant SBO_GPU_VARIANTS[] = {
    { SBO_GPU_VARIANT, .name = "paper", .kind = SBO_KIND_PAPER,
      .precs = RB_PREC_F32 | RB_PREC_F64,
      .doc = "paper's map-reduce: a thread per (signal, block) pair, codes and top-s in "
             "registers, energies to an L x m buffer, then an argmax kernel" },
    { SBO_GPU_VARIANT, .name = "fused", .kind = SBO_KIND_FUSED,
      .precs = RB_PREC_F32 | RB_PREC_F64,
      .doc = "one kernel: 2 signals a thread in registers (f32, p <= 64), blocks staged "
             "double-buffered in shared memory, top-s and the argmax on chip" },
    { SBO_GPU_VARIANT, .name = "fused-pair", .kind = SBO_KIND_FUSED_PAIR,
      .precs = RB_PREC_F32,
      .doc = "fused with a pair of lanes per two signals, each holding half of both "
             "(p <= 64), one shuffle per code: half the registers, twice the warps" },
    { SBO_GPU_TRAIN_VARIANT, .name = "paper", .kind = SBO_KIND_PAPER,
      .doc = "SBO training on the device: map-reduce representation, energy update, worst-W "
             "selection, grouping, batched GEMMs (cuBLAS or own), per-block Jacobi SVD and "
             "Q = U V^T" },
    { SBO_GPU_TRAIN_VARIANT, .name = "polar", .kind = SBO_KIND_POLAR,
      .doc = "as paper, with Q from a Newton-Schulz polar iteration per block in shared "
             "memory (Jacobi SVD for the initial bases and blocks it does not converge on)" },
    { 0 }
};

#undef SBO_GPU_TRAIN_VARIANT
#undef SBO_GPU_VARIANT
