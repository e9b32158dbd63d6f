/* SPDX-License-Identifier: MIT */
/* Every OpenCL Givens variant on whatever device is there (PoCL in CI): for
 * each precision and size (odd n, restricted m; apply mode with a partial
 * last slab of columns), a poisoned output fails verify, a run verifies, the
 * device time is read and teardown is safe twice (the fused slabs also with
 * two steps per exchange); the fused forward's U and backward's dtheta
 * equal the paper kernels' on the same data; and the
 * fused backward's groups of two work-items are refused on PoCL alone. */
#include <math.h>
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
#include "impl/givens/givens_opencl_state.h"
#include "t/tap.h"
#include "t/opencl_test.h"

#define MAX_CASES 2048
#define CHECKS_PER_CASE 4

struct tcase {
    const struct rb_variant *v;
    enum rb_prec prec;
    int size;                   /* index into sizes or apply_sizes: the data's seed */
    int n, m, nb;
    long long a, b;             /* wg, or slots and cols */
    void *out;                  /* U or dtheta after the run, for the paper/fused pairs */
    int x;                      /* the fused kinds' steps per exchange (0: 1) */
};

/* In an order where the CPU's turn of slots x cols pairs (below) meets the
 * slots values: sizes 2, 6, 33 and 130 take only slots 1. */
static const int sizes[][2] = {
    { 2, 0 }, { 3, 0 }, { 7, 0 }, { 64, 0 }, { 6, 0 }, { 33, 0 }, { 16, 5 }, { 64, 20 }, { 130, 0 }
};
#define NSIZES ((int)(sizeof sizes / sizeof sizes[0]))

/* n, m, batch: batches of 5 to 8 columns leave a partial last slab for
 * cols 2 and 4. */
static const int apply_sizes[][3] = {
    { 2, 0, 5 }, { 3, 0, 6 }, { 7, 0, 7 }, { 33, 0, 8 }, { 64, 0, 5 }, { 130, 0, 6 },
    { 16, 5, 7 }, { 64, 20, 8 }
};
#define NAPPLY ((int)(sizeof apply_sizes / sizeof apply_sizes[0]))

/* On a GPU many slots x cols pairs at every size.  On a CPU device, where
 * each new program and group size costs a compile, the odd wg 7 (the
 * reduction's fold) and one slots x cols pair per size from the first
 * CPU_PAIRS, taken in turn (the next that fits when slots does not divide
 * n/2); sizes i, i + 4, ... start at pair i % 4. */
#define CPU_PAIRS 4
static const long long wg_gpu[] = { 64, 128, 256, 7 }, wg_cpu[] = { 64, 7 };
/* Apply mode (givens_apply_engine.cl). */
static const long long fused_pairs[][2] = {
    { 1, 1 }, { 2, 8 }, { 4, 4 }, { 8, 2 }, { 1, 2 }, { 1, 4 }, { 1, 8 }, { 2, 1 },
    { 2, 2 }, { 2, 4 }, { 4, 1 }, { 4, 2 }, { 4, 8 }, { 8, 1 }, { 8, 4 }, { 8, 8 }
};
/* Slabs holding two matrices take cols up to 4.  Wide slabs cost PoCL much
 * compile time, so the CPU's pairs give slots 1 (four sizes) one column. */
static const long long two_pairs[][2] = {
    { 1, 1 }, { 2, 4 }, { 4, 2 }, { 8, 1 }, { 1, 2 }, { 1, 4 }, { 2, 1 }, { 2, 2 },
    { 4, 1 }, { 4, 4 }, { 8, 2 }, { 8, 4 }
};
/* The fused kernels (givens_slab.cl).  On the CPU: two groups of 4 columns
 * (f32) at slots 2 (n = 7, 16), two of 4 (f32) or four of 2 (f64) at slots
 * 16 (n = 64), one of 4 at slots 1 (f32, n = 3, 33); the backward's widest
 * slab at slots 1 and 8, two columns at slots 2. */
static const long long slab_pairs[][2] = {
    { 1, 1 }, { 1, 4 }, { 2, 8 }, { 16, 8 }, { 1, 2 }, { 2, 1 }, { 4, 4 }, { 4, 8 },
    { 4, 16 }, { 8, 8 }, { 8, 16 }, { 16, 4 }, { 16, 16 }
};
static const long long slab_two_pairs[][2] = {
    { 1, 1 }, { 1, 4 }, { 2, 2 }, { 8, 4 }, { 2, 4 }, { 4, 4 }, { 8, 1 }, { 16, 2 },
    { 16, 4 }, { 8, 2 }
};

#define NPAIRS(a) ((int)(sizeof a / sizeof a[0]))

static int is_paper(const struct rb_variant *v)
{
    return strcmp(v->name, "paper") == 0;
}

static int is_apply(const struct rb_variant *v)
{
    return strcmp(v->name, "apply") == 0;
}

static int is_backward(const struct rb_variant *v)
{
    return strcmp(v->algo, "backward") == 0;
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
    if (is_apply(t->v))
        c->params[c->nparams++] = (struct rb_param){ "batch", t->nb };
    if (is_paper(t->v)) {
        c->params[c->nparams++] = (struct rb_param){ "wg", t->a };
    } else {
        c->params[c->nparams++] = (struct rb_param){ "slots", t->a };
        c->params[c->nparams++] = (struct rb_param){ "cols", t->b };
        if (!is_apply(t->v))
            c->params[c->nparams++] = (struct rb_param){ "exchange", t->x ? t->x : 1 };
    }
}

static int admitted(struct tcase *t, struct rb_ctx *ctx)
{
    struct rb_case c;
    make_case(&c, t, ctx, 1);
    return t->v->admit(&c) == 0;
}

/* The cases of variant v at one precision and size; how many. */
static int plan_size(struct tcase *list, int room, struct tcase t, struct rb_ctx *ctx, int gpu)
{
    int count = 0;
    if (is_paper(t.v)) {
        for (int j = 0; j < (gpu ? 4 : 2) && count < room; j++) {
            t.a = gpu ? wg_gpu[j] : wg_cpu[j];
            if (admitted(&t, ctx))
                list[count++] = t;
        }
        return count;
    }
    const long long (*pairs)[2] = fused_pairs;
    int npairs = NPAIRS(fused_pairs);
    if (is_backward(t.v) && is_apply(t.v)) {
        pairs = two_pairs;
        npairs = NPAIRS(two_pairs);
    } else if (is_backward(t.v)) {
        pairs = slab_two_pairs;
        npairs = NPAIRS(slab_two_pairs);
    } else if (!is_apply(t.v)) {
        pairs = slab_pairs;
        npairs = NPAIRS(slab_pairs);
    }
    if (!gpu)
        npairs = CPU_PAIRS;
    for (int j = 0; j < npairs && count < room && (gpu || count == 0); j++) {
        int p = gpu ? j : (t.size + j) % npairs;
        t.a = pairs[p][0];
        t.b = pairs[p][1];
        if (admitted(&t, ctx))
            list[count++] = t;
    }
    /* The fused slabs with two steps per exchange: slots 4 (a pair of
     * pairs per unrolled sweep) and 8 on a GPU, slots 4 on the CPU. */
    for (int slots = 4; !is_apply(t.v) && slots <= (gpu ? 8 : 4) && count < room; slots *= 2) {
        t.a = slots;
        t.b = is_backward(t.v) ? 2 : 4;
        t.x = 2;
        if (admitted(&t, ctx))
            list[count++] = t;
    }
    return count;
}

/* Every case; *missing counts the (variant, precision, size) with none. */
static int plan(struct tcase *list, struct rb_ctx *ctx, int gpu, int fp64, int *missing)
{
    int count = 0;
    const struct rb_variant *v;
    *missing = 0;
    for (size_t i = 0; (v = rb_registry_get(i)); i++) {
        if (strcmp(v->paper, "givens") || v->backend != RB_BACKEND_OPENCL)
            continue;
        for (unsigned p = RB_PREC_F32; p <= RB_PREC_F64; p <<= 1) {
            if (!(v->precs & p) || (p == RB_PREC_F64 && !fp64))
                continue;
            for (int k = 0; k < (is_apply(v) ? NAPPLY : NSIZES); k++) {
                struct tcase t = { v, (enum rb_prec)p, k, 0, 0, 0, 0, 0, NULL, 0 };
                t.n = is_apply(v) ? apply_sizes[k][0] : sizes[k][0];
                t.m = is_apply(v) ? apply_sizes[k][1] : sizes[k][1];
                t.nb = is_apply(v) ? apply_sizes[k][2] : 0;
                int got = plan_size(list + count, MAX_CASES - count, t, ctx, gpu);
                *missing += got == 0;
                count += got;
            }
        }
    }
    return count;
}

static void label(const struct tcase *t, char *buf, size_t len)
{
    int used = snprintf(buf, len, "%s/%s %s n=%d m=%d", t->v->algo, t->v->name,
                        rb_prec_name(t->prec), t->n, t->m);
    if (is_apply(t->v))
        used += snprintf(buf + used, len - (size_t)used, " batch=%d", t->nb);
    if (is_paper(t->v))
        snprintf(buf + used, len - (size_t)used, " wg=%lld", t->a);
    else
        snprintf(buf + used, len - (size_t)used, " slots=%lld cols=%lld%s", t->a, t->b,
                 t->x == 2 ? " exchange=2" : "");
}

/* Elements of the kept output: dtheta for a backward, else U. */
static size_t out_len(const struct tcase *t)
{
    if (is_backward(t->v))
        return givens_theta_count(t->n, t->m);
    return (size_t)t->n * t->n;
}

/* CHECKS_PER_CASE results; the paper and fused forwards' and backwards'
 * outputs are kept in t->out. */
static void life_cycle(struct tcase *t, struct rb_ctx *ctx, uint64_t seed)
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
    size_t bytes = out_len(t) * rb_prec_size(t->prec);
    if (rc == 0 && !is_apply(t->v) && (t->out = malloc(bytes)))
        memcpy(t->out, ((struct givens_opencl *)c.state)->out, bytes);
    struct rb_occ occ;
    if (rc == 0)
        t->v->occupancy(&c, &occ);
    t->v->teardown(&c);
    t->v->teardown(&c);
    tap_ok(c.state == NULL && (rc || occ.available), "%s: occupancy, teardown twice", name);
}

static double value(const void *a, enum rb_prec prec, size_t k)
{
    return prec == RB_PREC_F64 ? ((const double *)a)[k] : ((const float *)a)[k];
}

/* The fused and the paper kernels give the same U (forward) or dtheta
 * (backward, relative to its largest angle) at size k, up to rounding. */
static void compare(const struct tcase *list, int count, const char *algo, enum rb_prec prec,
                    int k)
{
    const struct tcase *paper = NULL, *fused = NULL;
    for (int i = 0; i < count; i++) {
        const struct tcase *t = &list[i];
        if (t->prec != prec || t->size != k || is_apply(t->v) || strcmp(t->v->algo, algo))
            continue;
        if (is_paper(t->v) && !paper)
            paper = t;
        else if (!is_paper(t->v) && !fused)
            fused = t;
    }
    int n = sizes[k][0], m = sizes[k][1];
    if (!paper || !fused) {
        tap_skip("no paper and fused %s pair for %s n=%d m=%d", algo, rb_prec_name(prec), n, m);
        return;
    }
    double worst = 0, scale = 0, eps = prec == RB_PREC_F64 ? 2.2e-16 : 1.2e-7;
    size_t len = out_len(paper);
    for (size_t j = 0; paper->out && fused->out && j < len; j++) {
        double a = value(paper->out, prec, j), e = fabs(a - value(fused->out, prec, j));
        if (!(e <= worst))
            worst = e;
        if (fabs(a) > scale)
            scale = fabs(a);
    }
    double tol = is_backward(paper->v) ? 16 * n * eps * scale : 4 * n * eps;
    tap_ok(paper->out && fused->out && worst <= tol,
           "%s n=%d m=%d: fused %s equals paper's (%.3g <= %.3g)", rb_prec_name(prec), n, m,
           is_backward(paper->v) ? "dtheta" : "U", worst, tol);
}

/* PoCL 3.1's compiler aborts building the fused backward for groups of one
 * or two work-items (n = 64 at slots 16: two), so the variant refuses them
 * there with a reason; any other device runs them. */
static void tiny_groups(struct rb_ctx *ctx, const struct rb_opencl *cl)
{
    const struct rb_variant *v;
    for (size_t i = 0; (v = rb_registry_get(i)); i++)
        if (!strcmp(v->paper, "givens") && !strcmp(v->algo, "backward")
            && !strcmp(v->name, "fused") && v->backend == RB_BACKEND_OPENCL)
            break;
    if (!v) {
        tap_ok(0, "the OpenCL fused backward is registered");
        return;
    }
    struct tcase t = { v, RB_PREC_F32, 3, 64, 0, 0, 16, 4, NULL, 0 };
    struct rb_case c;
    make_case(&c, &t, ctx, 1);
    const int rc = v->admit(&c);
    if (strstr(cl->platform_name, "Portable Computing Language"))
        tap_ok(rc == RB_ESKIP && strstr(c.msg, "PoCL") != NULL,
               "PoCL: the fused backward at n=64 slots=16 cols=4 is refused with a reason "
               "(status %d: %s)", rc, c.msg);
    else
        tap_ok(rc == 0, "%s: the fused backward at n=64 slots=16 cols=4 is admitted (%s)",
               cl->platform_name, c.msg);
}

int main(void)
{
    struct rb_ctx ctx;
    struct rb_opencl *cl = cl_test_open(&ctx);
    static struct tcase list[MAX_CASES];
    int gpu = !(cl->type & CL_DEVICE_TYPE_CPU), missing;
    int count = plan(list, &ctx, gpu, cl_test_fp64(cl), &missing);
    uint64_t seed = tap_seed();
    tap_plan(2 + count * CHECKS_PER_CASE + 2 * 2 * NSIZES);
    tap_diag("seed %llu (RB_TEST_SEED=%llu repeats it); device %s", (unsigned long long)seed,
             (unsigned long long)seed, cl->name);
    tap_ok(missing == 0 && count > 0, "%d admitted cases; every variant, precision and size "
           "has one (%d without)", count, missing);
    tiny_groups(&ctx, cl);
    /* The data's seed follows the size, so the paper and fused cases of one
     * size and precision see the same angles and Gamma. */
    for (int i = 0; i < count; i++)
        life_cycle(&list[i], &ctx, seed + (uint64_t)list[i].size);
    for (unsigned p = RB_PREC_F32; p <= RB_PREC_F64; p <<= 1)
        for (int k = 0; k < NSIZES; k++) {
            compare(list, count, "forward", (enum rb_prec)p, k);
            compare(list, count, "backward", (enum rb_prec)p, k);
        }
    for (int i = 0; i < count; i++)
        free(list[i].out);
    rb_ctx_release(&ctx);
    return tap_done();
}
