/* SPDX-License-Identifier: MIT */
/* The OpenMP Sammon step against the serial one and itself: one thread and
 * two give bit-identical iterates (each point's sums run in one order
 * whatever the threads), f64 matches the serial variant to rounding, f32
 * verifies at sizes past the vector width with m = 1, 2, 3, and odd N. */
#include <math.h>
#include <stdint.h>
#include <string.h>
#include "harness/backend/cpu.h"
#include "impl/sammon/sammon_case.h"
#include "impl/sammon/sammon_omp.h"
#include "t/tap.h"

static void make_case(struct rb_case *c, const struct rb_variant *v, enum rb_prec prec, int N,
                      int n, int m, int iters, int threads, uint64_t seed)
{
    memset(c, 0, sizeof *c);
    c->v = v;
    c->prec = prec;
    c->seed = seed;
    c->params[c->nparams++] = (struct rb_param){ "points", N };
    c->params[c->nparams++] = (struct rb_param){ "dim", n };
    c->params[c->nparams++] = (struct rb_param){ "outdim", m };
    c->params[c->nparams++] = (struct rb_param){ "iters", iters };
    if (v->tunables)
        c->params[c->nparams++] = (struct rb_param){ "threads", threads };
}

/* Run v and return its output as doubles in out (N m values); 0 on success. */
static int run_case(const struct rb_variant *v, enum rb_prec prec, int N, int n, int m,
                    int iters, int threads, uint64_t seed, double *out, struct rb_check *chk)
{
    struct rb_case c;
    make_case(&c, v, prec, N, n, m, iters, threads, seed);
    int rc = v->setup(&c);
    if (rc == 0)
        rc = v->run(&c);
    if (rc == 0)
        rc = v->verify(&c, chk);
    if (rc == 0) {
        struct sammon_state *s = c.state;
        for (size_t k = 0; k < (size_t)N * m; k++)
            out[k] = prec == RB_PREC_F64 ? ((double *)s->y)[k] : ((float *)s->y)[k];
    } else {
        tap_diag("%s: %s", v->name, c.msg);
    }
    v->teardown(&c);
    return rc;
}

static double max_diff(const double *a, const double *b, size_t len)
{
    double d = 0.0;
    for (size_t k = 0; k < len; k++)
        d = isnan(a[k]) || isnan(b[k]) ? INFINITY : fmax(d, fabs(a[k] - b[k]));
    return d;
}

int main(void)
{
    enum { N = 301, n = 19, BIG = 1001 };
    static double a[BIG * 3], b[BIG * 3];
    uint64_t seed = tap_seed();
    const struct rb_variant *omp = sammon_omp_variants, *serial = sammon_serial_variants;
    struct rb_check chk;
    int two = rb_omp_max_threads() > 1 ? 2 : 1;
    tap_plan(2 + 1 + 3);
    tap_diag("seed %llu (RB_TEST_SEED=%llu repeats it); vector ISA %s",
             (unsigned long long)seed, (unsigned long long)seed, sammon_omp_isa());
    for (int p = 0; p < 2; p++) {
        enum rb_prec prec = p ? RB_PREC_F64 : RB_PREC_F32;
        int rc = run_case(omp, prec, N, n, 2, 3, 1, seed, a, &chk);
        rc |= run_case(omp, prec, N, n, 2, 3, two, seed, b, &chk);
        tap_ok(rc == 0 && max_diff(a, b, N * 2) == 0.0,
               "%s: 1 and %d threads give identical iterates", rb_prec_name(prec), two);
    }
    int rc = run_case(serial, RB_PREC_F64, N, n, 2, 3, 1, seed, b, &chk);
    double d = max_diff(a, b, N * 2);
    tap_ok(rc == 0 && d <= 1e-10, "f64: OpenMP matches the serial loops (%.2g)", d);
    for (int m = 1; m <= 3; m++) {
        rc = run_case(omp, RB_PREC_F32, BIG, 64, m, 1, two, seed + m, a, &chk);
        tap_ok(rc == 0 && chk.pass, "f32 N=%d n=64 m=%d: verifies (%.3g <= %.3g)", BIG, m,
               chk.error, chk.tolerance);
    }
    return tap_done();
}
