/* SPDX-License-Identifier: MIT */
/* Every OpenCL Givens variant on whatever device is there (PoCL in CI): for
 * each precision, size and admitted tunable value, a poisoned output fails
 * verify, a run verifies, the device time is read and teardown is safe
 * twice; and the fused forward's U equals the paper forward's. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "harness/backend/opencl.h"
#include "harness/ctx.h"
#include "harness/error.h"
#include "harness/registry.h"
#include "impl/givens/givens.h"
#include "impl/givens/givens_case.h"
#include "impl/givens/givens_opencl.h"
#include "t/tap.h"

#define MAX_CASES 2048
#define CHECKS_PER_CASE 4

struct tcase {
    const struct rb_variant *v;
    enum rb_prec prec;
    int n, m;
    long long a, b;             /* wg, or slots and cols */
};

static const int sizes[][2] = {
    { 2, 0 }, { 3, 0 }, { 6, 0 }, { 7, 0 }, { 33, 0 }, { 64, 0 }, { 130, 0 }, { 16, 5 }, { 64, 20 }
};
#define NSIZES ((int)(sizeof sizes / sizeof sizes[0]))

/* On a GPU every value of the axes' default lists.  On a CPU device, where
 * each new group size costs a compile, the odd wg 7 (the reduction's fold)
 * and slots x cols pairs that still take every value of both axes. */
static const long long wg_gpu[] = { 64, 128, 256, 7 }, wg_cpu[] = { 64, 7 };
static const long long fused_gpu[][2] = {
    { 1, 1 }, { 1, 2 }, { 1, 4 }, { 1, 8 }, { 2, 1 }, { 2, 2 }, { 2, 4 }, { 2, 8 },
    { 4, 1 }, { 4, 2 }, { 4, 4 }, { 4, 8 }, { 8, 1 }, { 8, 2 }, { 8, 4 }, { 8, 8 }
};
static const long long fused_cpu[][2] = { { 1, 8 }, { 2, 4 }, { 4, 2 }, { 8, 1 } };

static uint64_t test_seed(void)
{
    const char *s = getenv("RB_TEST_SEED");
    if (s && *s)
        return strtoull(s, NULL, 0);
    return (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 32);
}

static int is_fused(const struct rb_variant *v)
{
    return strcmp(v->name, "fused") == 0;
}

static void make_case(struct rb_case *c, const struct tcase *t, struct rb_ctx *ctx,
                      uint64_t seed)
{
    memset(c, 0, sizeof *c);
    c->v = t->v;
    c->ctx = ctx;
    c->prec = t->prec;
    c->seed = seed;
    c->device_ms = c->transfer_ms = c->build_ms = -1;
    c->params[c->nparams++] = (struct rb_param){ "n", t->n };
    c->params[c->nparams++] = (struct rb_param){ "m", t->m };
    if (is_fused(t->v)) {
        c->params[c->nparams++] = (struct rb_param){ "slots", t->a };
        c->params[c->nparams++] = (struct rb_param){ "cols", t->b };
    } else {
        c->params[c->nparams++] = (struct rb_param){ "wg", t->a };
    }
}

/* Append t if the variant admits it. */
static void add(struct tcase *list, int *count, struct tcase t, struct rb_ctx *ctx)
{
    struct rb_case c;
    make_case(&c, &t, ctx, 1);
    if (*count < MAX_CASES && t.v->admit(&c) == 0)
        list[(*count)++] = t;
}

static int plan(struct tcase *list, struct rb_ctx *ctx, int gpu)
{
    int count = 0;
    const struct rb_variant *v;
    const long long *wg = gpu ? wg_gpu : wg_cpu;
    int nwg = gpu ? 4 : 2, nfused = gpu ? 16 : 4;
    const long long(*fused)[2] = gpu ? fused_gpu : fused_cpu;
    for (size_t i = 0; (v = rb_registry_get(i)); i++) {
        if (strcmp(v->paper, "givens") || v->backend != RB_BACKEND_OPENCL)
            continue;
        for (unsigned p = RB_PREC_F32; p <= RB_PREC_F64; p <<= 1)
            for (int k = 0; k < NSIZES && (v->precs & p); k++) {
                struct tcase t = { v, (enum rb_prec)p, sizes[k][0], sizes[k][1], 0, 0 };
                for (int j = 0; j < (is_fused(v) ? nfused : nwg); j++) {
                    t.a = is_fused(v) ? fused[j][0] : wg[j];
                    t.b = is_fused(v) ? fused[j][1] : 0;
                    add(list, &count, t, ctx);
                }
            }
    }
    return count;
}

static void label(const struct tcase *t, char *buf, size_t len)
{
    if (is_fused(t->v))
        snprintf(buf, len, "%s/%s %s n=%d m=%d slots=%lld cols=%lld", t->v->algo, t->v->name,
                 rb_prec_name(t->prec), t->n, t->m, t->a, t->b);
    else
        snprintf(buf, len, "%s/%s %s n=%d m=%d wg=%lld", t->v->algo, t->v->name,
                 rb_prec_name(t->prec), t->n, t->m, t->a);
}


/* CHECKS_PER_CASE results.  With `keep`, U is copied there (n x n, prec). */
static void life_cycle(const struct tcase *t, struct rb_ctx *ctx, uint64_t seed, void *keep)
{
    struct rb_case c;
    struct rb_check chk;
    char name[160];
    label(t, name, sizeof name);
    make_case(&c, t, ctx, seed);
    int rc = t->v->setup(&c);
    memset(&chk, 0, sizeof chk);
    if (rc == 0)
        rc = t->v->verify(&c, &chk);
    if (!tap_ok(rc == 0 && !chk.pass && c.build_ms >= 0, "%s: poisoned output fails verify",
                name))
        tap_diag("rc %d msg '%s'", rc, c.msg);
    double ms = -1;
    if (rc == 0 && (rc = t->v->run(&c)) == 0) {
        ms = c.device_ms;
        rc = t->v->run(&c);    /* a second run starts over: same result */
    }
    if (rc == 0)
        rc = t->v->verify(&c, &chk);
    if (!tap_ok(rc == 0 && chk.pass, "%s: run verifies (%.3g <= %.3g)", name, chk.error,
                chk.tolerance))
        tap_diag("rc %d msg '%s' method '%s'", rc, c.msg, chk.method);
    tap_ok(rc == 0 && ms >= 0 && c.device_ms >= 0, "%s: device time %.3f ms", name, ms);
    if (rc == 0 && keep)
        memcpy(keep, ((struct givens_opencl *)c.state)->out,
               (size_t)t->n * t->n * rb_prec_size(t->prec));
    struct rb_occ occ;
    if (rc == 0)
        t->v->occupancy(&c, &occ);
    t->v->teardown(&c);
    t->v->teardown(&c);
    tap_ok(c.state == NULL && (rc || occ.available), "%s: occupancy, teardown twice", name);
}

/* The fused and the paper forward give the same U, up to rounding. */
static void compare_forwards(const struct tcase *list, int count, struct rb_ctx *ctx,
                             uint64_t seed, enum rb_prec prec, int n, int m)
{
    const struct tcase *paper = NULL, *fused = NULL;
    for (int i = 0; i < count; i++) {
        const struct tcase *t = &list[i];
        if (t->prec != prec || t->n != n || t->m != m || strcmp(t->v->algo, "forward"))
            continue;
        if (is_fused(t->v) && (!fused || t->a * t->b >= fused->a * fused->b))
            fused = t;
        else if (!is_fused(t->v) && !paper)
            paper = t;
    }
    size_t nn = (size_t)n * n, sz = rb_prec_size(prec);
    char *u = malloc(2 * nn * sz);
    if (!paper || !fused || !u) {
        for (int k = 0; k < 1 + 2 * CHECKS_PER_CASE; k++)
            tap_skip("no paper and fused forward pair for %s n=%d m=%d", rb_prec_name(prec), n,
                     m);
        free(u);
        return;
    }
    /* Poisoned: a case that fails before writing U cannot pass. */
    memset(u, 0xff, 2 * nn * sz);
    life_cycle(paper, ctx, seed, u);
    life_cycle(fused, ctx, seed, u + nn * sz);
    double worst = 0, eps = prec == RB_PREC_F64 ? 2.2e-16 : 1.2e-7;
    for (size_t k = 0; k < nn; k++) {
        double a = prec == RB_PREC_F64 ? ((double *)u)[k] : ((float *)u)[k];
        double b = prec == RB_PREC_F64 ? ((double *)u)[nn + k] : ((float *)u)[nn + k];
        double e = fabs(a - b);
        if (!(e <= worst))
            worst = e;
    }
    tap_ok(worst <= 4 * n * eps, "%s n=%d m=%d: fused U equals paper U (%.3g <= %.3g)",
           rb_prec_name(prec), n, m, worst, 4 * n * eps);
    free(u);
}

int main(void)
{
    struct rb_ctx ctx;
    char why[512];
    rb_ctx_init(&ctx);
    if (!rb_opencl_available(&ctx, why, sizeof why))
        tap_skip_all("no OpenCL device: %s", why);
    struct rb_opencl *cl = NULL;
    if (rb_opencl_get(&ctx, &cl, why, sizeof why))
        tap_skip_all("OpenCL device unusable: %s", why);
    static struct tcase list[MAX_CASES];
    int gpu = !(cl->type & CL_DEVICE_TYPE_CPU);
    int count = plan(list, &ctx, gpu);
    uint64_t seed = test_seed();
    tap_plan(1 + count * CHECKS_PER_CASE + 2 * NSIZES * (1 + 2 * CHECKS_PER_CASE));
    tap_diag("seed %llu (RB_TEST_SEED=%llu repeats it); device %s", (unsigned long long)seed,
             (unsigned long long)seed, cl->name);
    tap_ok(count >= 3 * NSIZES, "%d admitted cases of the OpenCL Givens variants", count);
    for (int i = 0; i < count; i++)
        life_cycle(&list[i], &ctx, seed + (uint64_t)i, NULL);
    for (unsigned p = RB_PREC_F32; p <= RB_PREC_F64; p <<= 1)
        for (int k = 0; k < NSIZES; k++)
            compare_forwards(list, count, &ctx, seed + (uint64_t)k, (enum rb_prec)p,
                             sizes[k][0], sizes[k][1]);
    rb_ctx_release(&ctx);
    return tap_done();
}
