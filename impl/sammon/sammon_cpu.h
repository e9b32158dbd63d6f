/* SPDX-License-Identifier: MIT */
/* What the serial and OpenMP Sammon variants keep beside the shared case:
 * a second iterate for the Jacobi ping-pong and per-thread scratch. */
#ifndef SAMMON_CPU_H
#define SAMMON_CPU_H

#include "harness/variant.h"
#include "impl/sammon/sammon_case.h"

/* Rows of distances each thread keeps (the OpenMP step's block). */
#define SAMMON_CPU_ROWS 8

struct sammon_cpu {
    int threads;
    void *work;             /* prec, N x m: the iterate that is not s->y */
    void *scratch;          /* prec, threads x SAMMON_CPU_ROWS x N: rows of distances */
};

/* sammon_setup, then the buffers in s->backend.  0, or as sammon_setup, or
 * RB_ENOMEM. */
int sammon_cpu_setup(struct rb_case *c);
/* Free s->backend, then sammon_teardown; safe after a partial setup. */
void sammon_cpu_teardown(struct rb_case *c);
/* Copy y0 into the buffer the `iters` steps must start from so that the
 * last one writes s->y: *from gets it, *to the other. */
void sammon_cpu_restart(struct rb_case *c, void **from, void **to);

#endif
