/* SPDX-License-Identifier: MIT */
/* The OpenMP Givens variants: Algorithms 2 and 3 with the threads tunable. */
#include "harness/backend/cpu.h"
#include "impl/givens/givens.h"
#include "impl/givens/givens_case.h"

static int run_forward_rr_omp(struct rb_case *c)
{
    struct givens_state *s = c->state;
    if (c->prec == RB_PREC_F64)
        givens_forward_rr_omp_d(s->n, s->m, s->theta, s->U, s->threads);
    else
        givens_forward_rr_omp_f(s->n, s->m, s->theta, s->U, s->threads);
    c->device_ms = -1;
    return 0;
}

static int run_backward_rr_omp(struct rb_case *c)
{
    struct givens_state *s = c->state;
    if (c->prec == RB_PREC_F64)
        givens_backward_rr_omp_d(s->n, s->m, s->theta, s->U, s->gamma, s->dtheta, s->work,
                                 s->threads);
    else
        givens_backward_rr_omp_f(s->n, s->m, s->theta, s->U, s->gamma, s->dtheta, s->work,
                                 s->threads);
    c->device_ms = -1;
    return 0;
}

const struct rb_variant givens_omp_variants[] = {
    { .paper = "givens", .algo = "forward", .name = "roundrobin",
      .backend = RB_BACKEND_OMP, .precs = RB_PREC_F32 | RB_PREC_F64,
      .sizes = givens_sizes, .tunables = givens_threads_axis,
      .doc = "Algorithm 2: the pairs of each block across threads, a barrier per block",
      .available = rb_omp_available, .footprint = givens_footprint,
      .admit = givens_admit, .setup = givens_setup, .run = run_forward_rr_omp,
      .verify = givens_verify, .teardown = givens_teardown,
      .work = givens_work },
    { .paper = "givens", .algo = "backward", .name = "roundrobin",
      .backend = RB_BACKEND_OMP, .precs = RB_PREC_F32 | RB_PREC_F64,
      .sizes = givens_sizes, .tunables = givens_threads_axis,
      .doc = "Algorithm 3: the pairs of each block across threads, a barrier per block",
      .available = rb_omp_available, .footprint = givens_footprint,
      .admit = givens_admit, .setup = givens_setup, .run = run_backward_rr_omp,
      .verify = givens_verify, .teardown = givens_teardown,
      .work = givens_work },
    { 0 }
};
