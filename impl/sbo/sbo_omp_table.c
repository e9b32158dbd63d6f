/* SPDX-License-Identifier: MIT */
/* The OpenMP SBO variants, float: the representation pass and the training
 * of sbo_omp.h (OpenBLAS SGEMMs on chunks of signals, selection over
 * threads, sgesvd). */
#include "harness/backend/cpu.h"
#include "harness/error.h"
#include "impl/sbo/sbo_case.h"
#include "impl/sbo/sbo_omp.h"

static int run_represent(struct rb_case *c)
{
    struct sbo_state *s = c->state;
    int rc = sbo_represent_omp(s->p, s->s, s->L, s->D, s->m, s->Y, s->best, s->energy,
                               s->threads);
    c->device_ms = -1;
    return rc ? rb_fail(c, rc, "representation scratch") : 0;
}

static int run_train(struct rb_case *c)
{
    struct sbo_state *s = c->state;
    s->ntrace = 0;
    int rc = sbo_train_omp(s->p, s->m, s->Y, &s->opts, s->D, &s->nb, s->best, &s->rmse,
                           s->threads);
    c->device_ms = -1;
    return rc ? rb_fail(c, rc, "SBO training failed") : 0;
}

const struct rb_variant sbo_omp_variants[] = {
    { .paper = "sbo", .algo = "represent", .name = "sgemm",
      .backend = RB_BACKEND_OMP, .precs = RB_PREC_F32,
      .sizes = sbo_represent_sizes, .tunables = sbo_threads_axis,
      .doc = "one SGEMM D^T Y per chunk of signals, then top-s energies and the argmax; "
             "chunks over threads",
      .available = rb_omp_available, .footprint = sbo_footprint, .admit = sbo_admit,
      .setup = sbo_setup, .run = run_represent, .verify = sbo_represent_verify,
      .teardown = sbo_teardown, .work = sbo_represent_work },
    { .paper = "sbo", .algo = "train", .name = "sgemm",
      .backend = RB_BACKEND_OMP, .precs = RB_PREC_F32,
      .sizes = sbo_train_sizes, .tunables = sbo_threads_axis,
      .doc = "SBO training to L blocks (K 20, R 20, W m/4), SGEMMs, sgesvd, OpenMP",
      .available = rb_omp_available, .footprint = sbo_footprint, .admit = sbo_admit,
      .setup = sbo_setup, .run = run_train, .verify = sbo_train_verify,
      .teardown = sbo_teardown },
    { 0 }
};
