/* SPDX-License-Identifier: MIT */
/* The OpenMP Sammon variant: the serial baseline's Jacobi GD step with the
 * points over threads and the loops vectorised (sammon_omp.c), as the
 * paper's CPU version (OpenMP, AVX, 1 and 16 threads). */
#include "harness/backend/cpu.h"
#include "impl/sammon/sammon_case.h"
#include "impl/sammon/sammon_cpu.h"
#include "impl/sammon/sammon_omp.h"

_Static_assert(SAMMON_CPU_ROWS >= SAMMON_OMP_BLOCK, "scratch rows per thread");

static int run_omp(struct rb_case *c)
{
    struct sammon_state *s = c->state;
    struct sammon_cpu *cpu = s->backend;
    struct sammon_omp_step a = { .N = s->N, .n = s->n, .m = s->m, .x = s->x,
                                 .coef = s->alpha * 2.0 / s->c, .scratch = cpu->scratch };
    void *from, *to, *t;
    sammon_cpu_restart(c, &from, &to);
    for (int it = 0; it < s->iters; it++) {
        a.y_in = from;
        a.y_out = to;
        sammon_step_omp(&a, c->prec == RB_PREC_F64, cpu->threads);
        t = from;
        from = to;
        to = t;
    }
    c->device_ms = -1;
    return 0;
}

const struct rb_variant sammon_omp_variants[] = {
    { .paper = "sammon", .algo = "gd", .name = "standard",
      .backend = RB_BACKEND_OMP, .precs = RB_PREC_F32 | RB_PREC_F64,
      .sizes = sammon_cpu_sizes, .tunables = sammon_threads_axis,
      .doc = "each point sums over all others; points over threads, loops vectorised "
             "(AVX2 where the CPU has it)",
      .available = rb_omp_available, .footprint = sammon_footprint,
      .admit = sammon_admit, .setup = sammon_cpu_setup, .run = run_omp,
      .verify = sammon_verify, .teardown = sammon_cpu_teardown,
      .work = sammon_work_all_pairs },
    { 0 }
};
