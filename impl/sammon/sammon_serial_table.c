/* SPDX-License-Identifier: MIT */
/* The serial Sammon variant: the paper's CPU baseline, plain loops in the
 * case's precision on one thread, one Jacobi GD step per iteration
 * (y <- y - alpha grad E, each point summing over all others). */
#include <math.h>
#include "harness/backend/cpu.h"
#include "impl/sammon/sammon_case.h"
#include "impl/sammon/sammon_cpu.h"

/* coef = alpha 2/c: y_p <- y_p + coef sum_j (d* - d)/(d* d) (y_p - y_j). */
static void step_f(int N, int n, int m, const float *x, const float *y, float coef, float *out)
{
    for (int p = 0; p < N; p++) {
        const float *xp = x + (size_t)p * n, *yp = y + (size_t)p * m;
        float g[3] = { 0.0f, 0.0f, 0.0f };
        for (int j = 0; j < N; j++) {
            const float *xj = x + (size_t)j * n, *yj = y + (size_t)j * m;
            float ds2 = 0.0f, d2 = 0.0f;
            for (int k = 0; k < n; k++)
                ds2 += (xp[k] - xj[k]) * (xp[k] - xj[k]);
            for (int q = 0; q < m; q++)
                d2 += (yp[q] - yj[q]) * (yp[q] - yj[q]);
            if (d2 == 0.0f)
                continue;               /* j == p, or coincident outputs */
            float ds = sqrtf(ds2), d = sqrtf(d2), w = (ds - d) / (ds * d);
            for (int q = 0; q < m; q++)
                g[q] += w * (yp[q] - yj[q]);
        }
        for (int q = 0; q < m; q++)
            out[(size_t)p * m + q] = yp[q] + coef * g[q];
    }
}

static void step_d(int N, int n, int m, const double *x, const double *y, double coef,
                   double *out)
{
    for (int p = 0; p < N; p++) {
        const double *xp = x + (size_t)p * n, *yp = y + (size_t)p * m;
        double g[3] = { 0.0, 0.0, 0.0 };
        for (int j = 0; j < N; j++) {
            const double *xj = x + (size_t)j * n, *yj = y + (size_t)j * m;
            double ds2 = 0.0, d2 = 0.0;
            for (int k = 0; k < n; k++)
                ds2 += (xp[k] - xj[k]) * (xp[k] - xj[k]);
            for (int q = 0; q < m; q++)
                d2 += (yp[q] - yj[q]) * (yp[q] - yj[q]);
            if (d2 == 0.0)
                continue;
            double ds = sqrt(ds2), d = sqrt(d2), w = (ds - d) / (ds * d);
            for (int q = 0; q < m; q++)
                g[q] += w * (yp[q] - yj[q]);
        }
        for (int q = 0; q < m; q++)
            out[(size_t)p * m + q] = yp[q] + coef * g[q];
    }
}

static int run_serial(struct rb_case *c)
{
    struct sammon_state *s = c->state;
    void *from, *to, *t;
    double coef = s->alpha * 2.0 / s->c;
    sammon_cpu_restart(c, &from, &to);
    for (int it = 0; it < s->iters; it++) {
        if (c->prec == RB_PREC_F64)
            step_d(s->N, s->n, s->m, s->x, from, coef, to);
        else
            step_f(s->N, s->n, s->m, s->x, from, (float)coef, to);
        t = from;
        from = to;
        to = t;
    }
    c->device_ms = -1;
    return 0;
}

const struct rb_variant sammon_serial_variants[] = {
    { .paper = "sammon", .algo = "gd", .name = "standard",
      .backend = RB_BACKEND_SERIAL, .precs = RB_PREC_F32 | RB_PREC_F64,
      .sizes = sammon_cpu_sizes, .baseline = 1,
      .doc = "each point sums over all others, plain loops, one thread (paper's CPU-1T)",
      .available = rb_serial_available, .footprint = sammon_footprint,
      .admit = sammon_admit, .setup = sammon_cpu_setup, .run = run_serial,
      .verify = sammon_verify, .teardown = sammon_cpu_teardown,
      .work = sammon_work_all_pairs },
    { 0 }
};
