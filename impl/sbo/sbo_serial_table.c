/* SPDX-License-Identifier: MIT */
/* The serial SBO variants, the baseline: the representation pass in plain
 * loops in the case's precision, and the fp64 training (sbo_train). */
#include <stddef.h>
#include "harness/backend/cpu.h"
#include "harness/error.h"
#include "impl/sbo/sbo_case.h"

static void represent_f(int p, int s, int nb, const float *D, int m, const float *Y,
                        int *best, float *energy)
{
    float c[256];
    for (int i = 0; i < m; i++) {
        const float *y = Y + (size_t)i * p;
        int jb = 0;
        float eb = -1.0f;
        for (int j = 0; j < nb; j++) {
            const float *Q = D + (size_t)j * p * p;
            for (int r = 0; r < p; r++) {
                float acc = 0.0f;
                for (int k = 0; k < p; k++)
                    acc += Q[(size_t)r * p + k] * y[k];
                c[r] = acc;
            }
            float e = sbo_top_energy_f(p, s, c);
            if (e > eb) {
                eb = e;
                jb = j;
            }
        }
        best[i] = jb;
        energy[i] = eb;
    }
}

static int run_represent(struct rb_case *c)
{
    struct sbo_state *s = c->state;
    if (c->prec == RB_PREC_F64)
        sbo_represent(s->p, s->s, s->L, s->D, s->m, s->Y, s->best, s->energy, NULL);
    else
        represent_f(s->p, s->s, s->L, s->D, s->m, s->Y, s->best, s->energy);
    c->device_ms = -1;
    return 0;
}

static int run_train(struct rb_case *c)
{
    struct sbo_state *s = c->state;
    s->ntrace = 0;
    int rc = sbo_train(s->p, s->m, s->Y, &s->opts, s->D, &s->nb, s->best, &s->rmse);
    c->device_ms = -1;
    return rc ? rb_fail(c, rc, "SBO training failed") : 0;
}

const struct rb_variant sbo_serial_variants[] = {
    { .paper = "sbo", .algo = "represent", .name = "loops",
      .backend = RB_BACKEND_SERIAL, .precs = RB_PREC_F32 | RB_PREC_F64,
      .sizes = sbo_represent_sizes, .baseline = 1,
      .doc = "every block's top-s energy per signal and the argmax, plain loops, one thread",
      .available = rb_serial_available, .footprint = sbo_footprint, .admit = sbo_admit,
      .setup = sbo_setup, .run = run_represent, .verify = sbo_represent_verify,
      .teardown = sbo_teardown, .work = sbo_represent_work },
    { .paper = "sbo", .algo = "train", .name = "loops",
      .backend = RB_BACKEND_SERIAL, .precs = RB_PREC_F64,
      .sizes = sbo_train_sizes, .baseline = 1,
      .doc = "SBO training to L blocks (K 20, R 20, W m/4), fp64 loops and LAPACK SVDs",
      .available = rb_serial_available, .footprint = sbo_footprint, .admit = sbo_admit,
      .setup = sbo_setup, .run = run_train, .verify = sbo_train_verify,
      .teardown = sbo_teardown },
    { 0 }
};
