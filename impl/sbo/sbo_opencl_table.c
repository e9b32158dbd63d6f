/* SPDX-License-Identifier: MIT */
/* The OpenCL SBO variants: the paper's representation pass (a map over
 * (signal, block) pairs, then the argmax) and the fused kernel, over the
 * `wg` axis (the paper's m-tilde); the whole training on the device, with
 * the SVD or the polar iteration, over `wg` and the GEMMs' `clblast`. */
#include "harness/backend/opencl.h"
#include "impl/sbo/sbo_case.h"
#include "impl/sbo/sbo_opencl.h"
#include "impl/sbo/sbo_opencl_train.h"

/* The paper reports m-tilde = 256 as best for its selection kernel; the
 * representation kernel's is not in the text. */
static const long long wg_deflt[] = { 64, 128, 256, RB_AXIS_END };
static const long long wg_quick[] = { 64, RB_AXIS_END };
static const long long wg_paper[] = { 64, 128, 256, RB_AXIS_END };

static const struct rb_axis sbo_wg_axis[] = {
    { .name = "wg", .help = "work-items (signals) per work-group, the paper's m-tilde",
      .min = 1, .max = 1024, .deflt = wg_deflt, .quick = wg_quick, .paper = wg_paper },
    { 0 }
};

/* The paper ran its GEMMs through the vendor BLAS (clBLAS): CLBlast here;
 * 0 is the project's own batched kernel.  Without CLBlast 1 is skipped. */
static const long long blas_deflt[] = { 0, 1, RB_AXIS_END };
static const long long blas_quick[] = { 0, RB_AXIS_END };
static const long long blas_paper[] = { 1, RB_AXIS_END };

static const struct rb_axis sbo_train_axes[] = {
    { .name = "wg", .help = "work-items (signals) per work-group, the paper's m-tilde",
      .min = 1, .max = 1024, .deflt = wg_deflt, .quick = wg_quick, .paper = wg_paper },
    { .name = "clblast", .help = "GEMMs through CLBlast (1) or the own batched kernel (0)",
      .min = 0, .max = 1, .deflt = blas_deflt, .quick = blas_quick, .paper = blas_paper },
    { 0 }
};

#define SBO_OPENCL_ENTRY                                                       \
    .paper = "sbo", .algo = "represent", .backend = RB_BACKEND_OPENCL,         \
    .precs = RB_PREC_F32 | RB_PREC_F64, .sizes = sbo_represent_sizes,          \
    .tunables = sbo_wg_axis, .available = rb_opencl_available,                 \
    .footprint = sbo_opencl_footprint, .admit = sbo_opencl_admit,              \
    .setup = sbo_opencl_setup, .run = sbo_opencl_run,                          \
    .verify = sbo_opencl_verify, .teardown = sbo_opencl_teardown,              \
    .occupancy = sbo_opencl_occupancy, .work = sbo_represent_work

const struct rb_variant sbo_opencl_variants[] = {
    { SBO_OPENCL_ENTRY, .name = "paper", .kind = SBO_KIND_PAPER,
      .doc = "paper's map-reduce: a work-item per (signal, block) pair, private codes and "
             "top-s, energies to an L x m buffer, then an argmax kernel" },
    { SBO_OPENCL_ENTRY, .name = "fused", .kind = SBO_KIND_FUSED,
      .doc = "one kernel: a work-item per signal over all blocks, block rows staged in "
             "local memory, top-s and the argmax on chip" },
    { .paper = "sbo", .algo = "train", .name = "paper", .kind = SBO_KIND_PAPER,
      .backend = RB_BACKEND_OPENCL,
      .precs = RB_PREC_F32 | RB_PREC_F64, .sizes = sbo_train_sizes, .tunables = sbo_train_axes,
      .doc = "SBO training on the device: map-reduce representation, energy update, worst-W "
             "selection, grouping, batched GEMMs, per-block Jacobi SVD and Q = U V^T",
      .available = rb_opencl_available, .footprint = sbo_opencl_train_footprint,
      .admit = sbo_opencl_train_admit, .setup = sbo_opencl_train_setup,
      .run = sbo_opencl_train_run, .verify = sbo_opencl_train_verify,
      .teardown = sbo_opencl_train_teardown, .occupancy = sbo_opencl_train_occupancy },
    { .paper = "sbo", .algo = "train", .name = "polar", .kind = SBO_KIND_POLAR,
      .backend = RB_BACKEND_OPENCL,
      .precs = RB_PREC_F32 | RB_PREC_F64, .sizes = sbo_train_sizes, .tunables = sbo_train_axes,
      .doc = "as paper, with Q from a Newton-Schulz polar iteration per block (Jacobi SVD "
             "for the initial bases and for blocks it does not converge on)",
      .available = rb_opencl_available, .footprint = sbo_opencl_train_footprint,
      .admit = sbo_opencl_train_admit, .setup = sbo_opencl_train_setup,
      .run = sbo_opencl_train_run, .verify = sbo_opencl_train_verify,
      .teardown = sbo_opencl_train_teardown, .occupancy = sbo_opencl_train_occupancy },
    { 0 }
};
