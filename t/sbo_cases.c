/* SPDX-License-Identifier: MIT */
/* Every registered CPU SBO variant through the harness's life cycle, each
 * precision it has, on small sizes (represent also on patches of the shipped
 * photographs, images=1): admit, setup, verify without run (fails:
 * setup poisons the outputs), run, verify (passes, with the RMSE metrics),
 * then a corrupted output must fail verify (represent: one signal moved to
 * a clearly worse block, or its energy off; train: one block entry off,
 * or the reported RMSE off), and a NaN; teardown twice. */
#include <math.h>
#include <stdint.h>
#include <string.h>
#include "harness/backend/cpu.h"
#include "harness/error.h"
#include "harness/registry.h"
#include "impl/sbo/sbo_case.h"
#include "t/tap.h"

static void make_case(struct rb_case *c, const struct rb_variant *v, enum rb_prec prec,
                      const int *size, int images, uint64_t seed)
{
    static const char *const names[] = { "p", "s", "blocks", "signals" };
    memset(c, 0, sizeof *c);
    c->v = v;
    c->prec = prec;
    c->seed = seed;
    for (int k = 0; k < 4; k++)
        c->params[c->nparams++] = (struct rb_param){ names[k], size[k] };
    if (images)
        c->params[c->nparams++] = (struct rb_param){ "images", 1 };
    if (v->tunables)
        c->params[c->nparams++] =
            (struct rb_param){ "threads", rb_omp_max_threads() > 1 ? 2 : 1 };
}

static double metric(const struct rb_case *c, const char *name)
{
    for (int k = 0; k < c->nmetrics; k++)
        if (strcmp(c->metrics[k].name, name) == 0)
            return c->metrics[k].value;
    return NAN;
}

static void set(void *a, enum rb_prec prec, size_t k, double v)
{
    if (prec == RB_PREC_F64)
        ((double *)a)[k] = v;
    else
        ((float *)a)[k] = (float)v;
}

static double get(const void *a, enum rb_prec prec, size_t k)
{
    return prec == RB_PREC_F64 ? ((const double *)a)[k] : ((const float *)a)[k];
}

/* Represent: 2 results.  The signal of largest energy is corrupted: an
 * image patch can be flat (zero after the mean is removed), its energy 0 in
 * every block, where another block is a tie and a relative change nothing;
 * a planted signal at 20 dB is never a tie. */
static void corrupt_represent(struct rb_case *c, enum rb_prec prec, const char *what)
{
    struct sbo_state *s = c->state;
    struct rb_check chk;
    int i = 0;
    for (int k = 1; k < s->m; k++)
        if (get(s->energy, prec, k) > get(s->energy, prec, i))
            i = k;
    int keep = s->best[i];
    double e = get(s->energy, prec, i);
    s->best[i] = (keep + 1) % s->L;
    int rc = c->v->verify(c, &chk);
    tap_ok(s->L == 1 || (rc == 0 && !chk.pass), "%s: a signal in another block fails (%.3g)",
           what, chk.error);
    s->best[i] = keep;
    set(s->energy, prec, i, e * (1.0 + (prec == RB_PREC_F64 ? 1e-9 : 1e-3)));
    rc = c->v->verify(c, &chk);
    tap_ok(rc == 0 && !chk.pass, "%s: an energy off fails (%.3g)", what, chk.error);
    set(s->energy, prec, i, NAN);
}

/* Train: 2 results. */
static void corrupt_train(struct rb_case *c, enum rb_prec prec, const char *what)
{
    struct sbo_state *s = c->state;
    struct rb_check chk;
    double keep = get(s->D, prec, 5);
    set(s->D, prec, 5, keep + 1e-2);
    int rc = c->v->verify(c, &chk);
    tap_ok(rc == 0 && !chk.pass, "%s: one block entry off by 1e-2 fails (%.3g)", what,
           chk.error);
    set(s->D, prec, 5, keep);
    double r = s->rmse;
    s->rmse = r * 1.01;
    rc = c->v->verify(c, &chk);
    tap_ok(rc == 0 && !chk.pass, "%s: the RMSE 1%% off fails (%.3g)", what, chk.error);
    s->rmse = r;
    set(s->D, prec, 0, NAN);
}

/* 6 results per call. */
static void life_cycle(const struct rb_variant *v, enum rb_prec prec, const int *size,
                       int images, uint64_t seed)
{
    struct rb_case c;
    struct rb_check chk = { 0 };
    char what[128];
    int train = strcmp(v->algo, "train") == 0;
    snprintf(what, sizeof what, "%s %s %s p=%d s=%d L=%d m=%d%s", v->algo,
             rb_backend_name(v->backend), rb_prec_name(prec), size[0], size[1], size[2],
             size[3], images ? " images" : "");
    make_case(&c, v, prec, size, images, seed);
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
    double r = metric(&c, "rmse"), r2 = metric(&c, train ? "rmse_check" : "rmse_ref");
    /* train: verify itself bounds |rmse - rmse_check|; f32 near zero RMSE
     * the bound is wider than a relative 1e-3. */
    if (!tap_ok(rc == 0 && chk.pass && isfinite(r) && (train || fabs(r - r2) <= 1e-3 * r2),
                "%s: verifies (%.3g <= %.3g), rmse %.6g vs %.6g", what, chk.error,
                chk.tolerance, r, r2))
        tap_diag("rc %d msg '%s' method '%s'", rc, c.msg, chk.method);
    if (rc == 0) {
        if (train)
            corrupt_train(&c, prec, what);
        else
            corrupt_represent(&c, prec, what);
        rc = v->verify(&c, &chk);
        tap_ok(rc == 0 && !chk.pass, "%s: a NaN fails", what);
    } else {
        tap_ok(0, "%s: corrupted outputs (not run)", what);
        tap_ok(0, "%s: corrupted outputs (not run)", what);
        tap_ok(0, "%s: NaN output (not run)", what);
    }
    tap_ok(v->footprint(&c) >= (size_t)size[0] * size[3] * rb_prec_size(prec)
           && c.device_ms < 0 && c.device[0], "%s: footprint, host clock, device", what);
    v->teardown(&c);
    v->teardown(&c);
}

/* The CPU variants: the GPU ones have tests of their own that give them a
 * device context. */
static int cpu_sbo(const struct rb_variant *v)
{
    return strcmp(v->paper, "sbo") == 0
           && (v->backend == RB_BACKEND_SERIAL || v->backend == RB_BACKEND_OMP);
}

int main(void)
{
    /* p, s, blocks, signals: tiny, odd, one block, the default p. */
    static const int sizes[][4] = { { 4, 1, 2, 3 }, { 9, 2, 3, 301 }, { 16, 3, 1, 200 },
                                    { 64, 8, 3, 300 } };
    static const int image_size[4] = { 64, 8, 3, 500 };
    int ns = (int)(sizeof sizes / sizeof *sizes), runs = 0, represent = 0;
    const struct rb_variant *v;
    uint64_t seed = tap_seed();
    for (size_t i = 0; (v = rb_registry_get(i)); i++)
        if (cpu_sbo(v)) {
            int n = ((v->precs & RB_PREC_F32) != 0) + ((v->precs & RB_PREC_F64) != 0);
            runs += n;
            represent += strcmp(v->algo, "represent") == 0 ? n : 0;
        }
    tap_plan(4 + (runs * ns + represent) * 6);
    tap_diag("seed %llu (RB_TEST_SEED=%llu repeats it)", (unsigned long long)seed,
             (unsigned long long)seed);
    tap_ok(runs >= 3, "%d SBO variant-precisions registered", runs);
    for (size_t i = 0; (v = rb_registry_get(i)); i++) {
        if (!cpu_sbo(v))
            continue;
        for (int prec = RB_PREC_F32; prec <= RB_PREC_F64; prec <<= 1)
            if (v->precs & (unsigned)prec)
                for (int k = 0; k < ns + (strcmp(v->algo, "represent") == 0); k++)
                    life_cycle(v, (enum rb_prec)prec, k < ns ? sizes[k] : image_size, k == ns,
                               seed + k);
    }
    struct rb_case c;
    static const int bad[4] = { 4, 5, 2, 10 };
    v = NULL;
    for (size_t i = 0; (v = rb_registry_get(i)) && strcmp(v->paper, "sbo") != 0; i++)
        ;
    make_case(&c, v, RB_PREC_F64, bad, 0, seed);
    tap_is(v->admit(&c), RB_ESKIP, "s > p is skipped");
    static const int not8x8[4] = { 16, 2, 2, 10 }, many[4] = { 64, 8, 1, 2000000 };
    make_case(&c, v, RB_PREC_F64, not8x8, 1, seed);
    tap_ok(v->admit(&c) == RB_ESKIP && strstr(c.msg, "p=64"), "images=1 at p=16 is skipped: %s",
           c.msg);
    make_case(&c, v, RB_PREC_F64, many, 1, seed);
    int rc = v->admit(&c);
    if (rc == 0)
        rc = v->setup(&c);
    tap_ok(rc == RB_EINVAL && strstr(c.msg, "1128216"),
           "images=1 with more signals than the photographs have patches fails: %s", c.msg);
    v->teardown(&c);
    return tap_done();
}
