/* SPDX-License-Identifier: MIT */
/* Every registered CPU Sammon variant through the harness's life cycle, f32
 * and f64, down to N = 2: admit, setup, verify without run (fails: setup
 * poisons the output), run, verify (passes, with the stress metrics), then
 * the output corrupted by one element off by a small relative amount, or one
 * NaN, must fail verify; teardown twice; the admit refusals. */
#include <math.h>
#include <stdint.h>
#include <string.h>
#include "harness/backend/cpu.h"
#include "harness/error.h"
#include "harness/registry.h"
#include "impl/sammon/sammon_case.h"
#include "t/tap.h"

static void make_case(struct rb_case *c, const struct rb_variant *v, enum rb_prec prec,
                      const int *size, long long threads, uint64_t seed)
{
    static const char *const names[] = { "points", "dim", "outdim", "iters" };
    memset(c, 0, sizeof *c);
    c->v = v;
    c->prec = prec;
    c->seed = seed;
    for (int k = 0; k < 4; k++)
        c->params[c->nparams++] = (struct rb_param){ names[k], size[k] };
    if (v->tunables)
        c->params[c->nparams++] = (struct rb_param){ "threads", threads };
}

static int is_cpu_sammon(const struct rb_variant *v)
{
    return strcmp(v->paper, "sammon") == 0
           && (v->backend == RB_BACKEND_SERIAL || v->backend == RB_BACKEND_OMP);
}

static double metric(const struct rb_case *c, const char *name)
{
    for (int k = 0; k < c->nmetrics; k++)
        if (strcmp(c->metrics[k].name, name) == 0)
            return c->metrics[k].value;
    return NAN;
}

static void set_y(struct sammon_state *s, enum rb_prec prec, size_t k, double v)
{
    if (prec == RB_PREC_F64)
        ((double *)s->y)[k] = v;
    else
        ((float *)s->y)[k] = (float)v;
}

static double get_y(const struct sammon_state *s, enum rb_prec prec, size_t k)
{
    return prec == RB_PREC_F64 ? ((double *)s->y)[k] : ((float *)s->y)[k];
}

/* 5 results per call. */
static void life_cycle(const struct rb_variant *v, enum rb_prec prec, const int *size,
                       uint64_t seed)
{
    struct rb_case c;
    struct rb_check chk = { 0 };
    char what[128];
    snprintf(what, sizeof what, "%s %s N=%d n=%d m=%d iters=%d", rb_backend_name(v->backend),
             rb_prec_name(prec), size[0], size[1], size[2], size[3]);
    make_case(&c, v, prec, size, rb_omp_max_threads() > 1 ? 2 : 1, seed);
    int rc = v->admit(&c);
    if (rc == 0)
        rc = v->setup(&c);
    if (rc == 0)
        rc = v->verify(&c, &chk);
    tap_ok(rc == 0 && !chk.pass, "%s: poisoned output fails verify", what);
    if (rc == 0)
        rc = v->run(&c);
    if (rc == 0)
        rc = v->verify(&c, &chk);
    double e = metric(&c, "stress"), e_ref = metric(&c, "stress_ref");
    if (!tap_ok(rc == 0 && chk.pass && fabs(e - e_ref) <= 1e-4 * e_ref,
                "%s: verifies (%.3g <= %.3g), stress %.6g vs %.6g", what, chk.error,
                chk.tolerance, e, e_ref))
        tap_diag("rc %d msg '%s' method '%s'", rc, c.msg, chk.method);
    struct sammon_state *s = c.state;
    if (rc == 0) {
        /* The most-moved coordinate, off by 20 tolerances of its move: for
         * float about 1e-4 of the displacement, 1e-12 for double. */
        size_t len = (size_t)s->N * s->m, at = 0;
        double most = 0.0;
        for (size_t k = 0; k < len; k++)
            if (fabs(get_y(s, prec, k) - s->y0_d[k]) > most) {
                most = fabs(get_y(s, prec, k) - s->y0_d[k]);
                at = k;
            }
        double keep = get_y(s, prec, at), bump = 20 * chk.tolerance * most;
        set_y(s, prec, at, keep + bump);
        rc = v->verify(&c, &chk);
        tap_ok(rc == 0 && !chk.pass, "%s: one value off by %.2g relative fails (%.3g > %.3g)",
               what, bump / fabs(keep), chk.error, chk.tolerance);
        set_y(s, prec, at, NAN);
        rc = v->verify(&c, &chk);
        tap_ok(rc == 0 && !chk.pass && isnan(metric(&c, "stress")), "%s: one NaN fails", what);
    } else {
        tap_ok(0, "%s: corrupted output (not run)", what);
        tap_ok(0, "%s: NaN output (not run)", what);
    }
    size_t fp = v->footprint(&c);
    tap_ok(fp >= (size_t)size[0] * size[1] * rb_prec_size(prec) && c.device_ms < 0
           && c.device[0], "%s: footprint %zu bytes, host clock, device '%s'", what, fp,
           c.device);
    v->teardown(&c);
    v->teardown(&c);
}

int main(void)
{
    /* points, dim, outdim, iters: the smallest N, m = 1 and 3, odd N,
     * several iterations, one size above the vector width. */
    static const int sizes[][4] = { { 2, 3, 2, 1 }, { 3, 1, 1, 2 }, { 17, 5, 3, 3 },
                                    { 257, 16, 2, 1 }, { 100, 64, 2, 4 } };
    int ns = (int)(sizeof sizes / sizeof *sizes), nv = 0;
    const struct rb_variant *v;
    for (size_t i = 0; (v = rb_registry_get(i)); i++)
        nv += is_cpu_sammon(v);
    uint64_t seed = tap_seed();
    tap_plan(1 + nv * (2 * ns * 5 + 1));
    tap_diag("seed %llu (RB_TEST_SEED=%llu repeats it)", (unsigned long long)seed,
             (unsigned long long)seed);
    tap_ok(nv >= 1, "%d CPU Sammon variants registered", nv);
    for (size_t i = 0; (v = rb_registry_get(i)); i++) {
        if (!is_cpu_sammon(v))
            continue;
        for (int k = 0; k < ns; k++) {
            life_cycle(v, RB_PREC_F32, sizes[k], seed + k);
            life_cycle(v, RB_PREC_F64, sizes[k], seed + k);
        }
        struct rb_case c;
        make_case(&c, v, RB_PREC_F64, sizes[0], rb_omp_max_threads() + 1, seed);
        if (v->tunables)
            tap_is(v->admit(&c), RB_ESKIP, "threads above the cores is skipped");
        else
            tap_is(v->admit(&c), 0, "serial ignores threads");
    }
    return tap_done();
}
