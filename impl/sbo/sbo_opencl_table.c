/* SPDX-License-Identifier: MIT */
/* The OpenCL SBO variants: the paper's representation pass (a map over
 * (signal, block) pairs, then the argmax) and the fused kernel, over the
 * `wg` axis (the paper's m-tilde). */
#include "harness/backend/opencl.h"
#include "impl/sbo/sbo_case.h"
#include "impl/sbo/sbo_opencl.h"

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

#define SBO_OPENCL_ENTRY                                                       \
    .paper = "sbo", .algo = "represent", .backend = RB_BACKEND_OPENCL,         \
    .precs = RB_PREC_F32 | RB_PREC_F64, .sizes = sbo_represent_sizes,          \
    .tunables = sbo_wg_axis, .available = rb_opencl_available,                 \
    .footprint = sbo_opencl_footprint, .admit = sbo_opencl_admit,              \
    .setup = sbo_opencl_setup, .run = sbo_opencl_run,                          \
    .verify = sbo_opencl_verify, .teardown = sbo_opencl_teardown,              \
    .occupancy = sbo_opencl_occupancy, .work = sbo_represent_work

const struct rb_variant sbo_opencl_variants[] = {
    { SBO_OPENCL_ENTRY, .name = "paper",
      .doc = "paper's map-reduce: a work-item per (signal, block) pair, private codes and "
             "top-s, energies to an L x m buffer, then an argmax kernel" },
    { SBO_OPENCL_ENTRY, .name = "fused",
      .doc = "one kernel: a work-item per signal over all blocks, block rows staged in "
             "local memory, top-s and the argmax on chip" },
    { 0 }
};
