/* SPDX-License-Identifier: MIT */
/* The serial Givens variants: the paper's CPU baselines and Algorithm 2. */
#include "harness/backend/cpu.h"
#include "impl/givens/givens_case.h"

const struct rb_variant givens_serial_variants[] = {
    { .paper = "givens", .algo = "forward", .name = "sequential",
      .backend = RB_BACKEND_SERIAL, .precs = RB_PREC_F32 | RB_PREC_F64,
      .sizes = givens_sizes, .baseline = 1,
      .doc = "Algorithm 1: U from the angles, one rotation at a time (paper's CPU baseline)",
      .available = rb_serial_available, .footprint = givens_footprint,
      .admit = givens_admit, .setup = givens_setup, .run = givens_run_forward_seq,
      .verify = givens_verify, .teardown = givens_teardown,
      .work = givens_work },
    { .paper = "givens", .algo = "forward", .name = "roundrobin",
      .backend = RB_BACKEND_SERIAL, .precs = RB_PREC_F32 | RB_PREC_F64,
      .sizes = givens_sizes,
      .doc = "Algorithm 2: U block by block over the circle-method schedule",
      .available = rb_serial_available, .footprint = givens_footprint,
      .admit = givens_admit, .setup = givens_setup, .run = givens_run_forward_rr,
      .verify = givens_verify, .teardown = givens_teardown,
      .work = givens_work },
    { .paper = "givens", .algo = "backward", .name = "roundrobin",
      .backend = RB_BACKEND_SERIAL, .precs = RB_PREC_F32 | RB_PREC_F64,
      .sizes = givens_sizes, .baseline = 1,
      .doc = "Algorithm 3: the angles' JVP from U and dL/dU (paper's CPU backward)",
      .available = rb_serial_available, .footprint = givens_footprint,
      .admit = givens_admit, .setup = givens_setup, .run = givens_run_backward_rr,
      .verify = givens_verify, .teardown = givens_teardown,
      .work = givens_work },
    { 0 }
};
