/* SPDX-License-Identifier: MIT */
/* Setup, restart and teardown of the CPU Sammon variants' own buffers. */
#include <stdlib.h>
#include <string.h>
#include "harness/error.h"
#include "impl/sammon/sammon_cpu.h"

int sammon_cpu_setup(struct rb_case *c)
{
    int rc = sammon_setup(c);
    if (rc)
        return rc;
    struct sammon_state *s = c->state;
    struct sammon_cpu *cpu = calloc(1, sizeof *cpu);
    if (!cpu)
        return rb_fail(c, RB_ENOMEM, "CPU buffers");
    s->backend = cpu;
    size_t sz = rb_prec_size(c->prec);
    cpu->threads = (int)rb_case_param(c, "threads", 1);
    cpu->work = malloc((size_t)s->N * s->m * sz);
    cpu->scratch = malloc((size_t)cpu->threads * SAMMON_CPU_ROWS * s->N * sz);
    if (!cpu->work || !cpu->scratch)
        return rb_fail(c, RB_ENOMEM, "CPU buffers for points=%d threads=%d", s->N,
                       cpu->threads);
    return 0;
}

void sammon_cpu_teardown(struct rb_case *c)
{
    struct sammon_state *s = c->state;
    if (s && s->backend) {
        struct sammon_cpu *cpu = s->backend;
        free(cpu->scratch);
        free(cpu->work);
        free(cpu);
        s->backend = NULL;
    }
    sammon_teardown(c);
}

void sammon_cpu_restart(struct rb_case *c, void **from, void **to)
{
    struct sammon_state *s = c->state;
    struct sammon_cpu *cpu = s->backend;
    /* After an odd number of steps the iterate sits where the first wrote. */
    *from = s->iters % 2 ? cpu->work : s->y;
    *to = s->iters % 2 ? s->y : cpu->work;
    memcpy(*from, s->y0, (size_t)s->N * s->m * rb_prec_size(c->prec));
}
