/* SPDX-License-Identifier: MIT */
/* The OpenCL SBO representation variants on whatever device is there (PoCL
 * in CI): for each variant, precision and work-group size, on planted data
 * of several sizes (m not a multiple of any group, L 1 to 4, s 1 to 8, p 64
 * and 37), poisoned device outputs fail verify, runs from poisoned buffers
 * verify against the fp64 reference and repeat bit for bit, a dictionary of
 * identical blocks gives every signal block 0 (ties to the lower index),
 * the occupancy is known and teardown is safe twice. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "harness/backend/opencl.h"
#include "harness/ctx.h"
#include "harness/error.h"
#include "harness/registry.h"
#include "impl/sbo/sbo_case.h"
#include "impl/sbo/sbo_opencl.h"
#include "t/tap.h"
#include "t/opencl_test.h"

#define MAX_CASES 64
#define CHECKS_PER_CASE 5

/* signals, blocks, s, p. */
static const int sizes[][4] = {
    { 1000, 1, 1, 64 }, { 1537, 4, 8, 64 }, { 1000, 3, 4, 37 }, { 1537, 2, 8, 64 },
};
#define NSIZES ((int)(sizeof sizes / sizeof sizes[0]))
static const long long wgs[] = { 16, 64, 256 };
#define NWGS ((int)(sizeof wgs / sizeof wgs[0]))

static void make_case(struct rb_case *c, const struct cl_tcase *t, struct rb_ctx *ctx,
                      uint64_t seed)
{
    const int *z = sizes[t->size];
    memset(c, 0, sizeof *c);
    c->v = t->v;
    c->ctx = ctx;
    c->prec = t->prec;
    c->seed = seed;
    c->device_ms = c->transfer_ms = c->build_ms = -1;
    c->params[c->nparams++] = (struct rb_param){ "p", z[3] };
    c->params[c->nparams++] = (struct rb_param){ "s", z[2] };
    c->params[c->nparams++] = (struct rb_param){ "blocks", z[1] };
    c->params[c->nparams++] = (struct rb_param){ "signals", z[0] };
    c->params[c->nparams++] = (struct rb_param){ "wg", t->wg };
}

static void label(const struct cl_tcase *t, char *buf, size_t len)
{
    const int *z = sizes[t->size];
    snprintf(buf, len, "%s %s m=%d L=%d s=%d p=%d wg=%lld", t->v->name, rb_prec_name(t->prec),
             z[0], z[1], z[2], z[3], t->wg);
}

/* Poison the host outputs and the device buffers, run, read back, verify. */
static int poisoned_run(struct rb_case *c, struct rb_check *chk)
{
    struct sbo_state *s = c->state;
    for (int i = 0; i < s->m; i++) {
        s->best[i] = -1;
        if (c->prec == RB_PREC_F64)
            ((double *)s->energy)[i] = NAN;
        else
            ((float *)s->energy)[i] = NAN;
    }
    int rc = sbo_opencl_poison(c);
    if (rc == 0)
        rc = c->v->run(c);
    memset(chk, 0, sizeof *chk);
    return rc ? rc : c->v->verify(c, chk);
}

/* Every block made a copy of block 0 (device, host and fp64 copies): the
 * energies tie exactly, so every signal must get block 0. */
static void ties(struct rb_case *c, const char *name)
{
    struct sbo_state *s = c->state;
    struct rb_check chk;
    size_t pp = (size_t)s->p * s->p, sz = rb_prec_size(c->prec);
    for (int j = 1; j < s->L; j++) {
        memcpy((char *)s->D + j * pp * sz, s->D, pp * sz);
        memcpy(s->D_d + j * pp, s->D_d, pp * sizeof *s->D_d);
    }
    int rc = sbo_opencl_upload(c);
    if (rc == 0)
        rc = poisoned_run(c, &chk);
    int zero = 0;
    for (int i = 0; rc == 0 && i < s->m; i++)
        zero += s->best[i] == 0;
    if (!tap_ok(rc == 0 && chk.pass && zero == s->m,
                "%s: %d identical blocks: block 0 for %d of %d signals", name, s->L, zero, s->m))
        tap_diag("rc %d msg '%s' error %.3g", rc, c->msg, chk.error);
}

static void life_cycle(const struct cl_tcase *t, struct rb_ctx *ctx, uint64_t seed)
{
    struct rb_case c;
    struct rb_check chk;
    char name[160];
    label(t, name, sizeof name);
    make_case(&c, t, ctx, seed);
    memset(&chk, 0, sizeof chk);
    int rc = t->v->setup(&c);
    if (rc == 0)
        rc = t->v->verify(&c, &chk);
    if (!tap_ok(rc == 0 && !chk.pass && c.build_ms >= 0 && c.transfer_ms >= 0,
                "%s: poisoned output fails verify", name))
        tap_diag("rc %d msg '%s'", rc, c.msg);
    if (rc == 0)
        rc = poisoned_run(&c, &chk);
    if (!tap_ok(rc == 0 && chk.pass && c.device_ms >= 0,
                "%s: run verifies (%.3g <= %.3g), %.3f ms", name, chk.error, chk.tolerance,
                c.device_ms))
        tap_diag("rc %d msg '%s' method '%s'", rc, c.msg, chk.method);
    struct sbo_state *s = c.state;
    size_t m = s ? (size_t)s->m : 0, bytes = m * rb_prec_size(t->prec);
    int *best = rc == 0 ? malloc(m * sizeof *best) : NULL;
    void *energy = rc == 0 ? malloc(bytes) : NULL;
    if (best && energy) {
        memcpy(best, s->best, m * sizeof *best);
        memcpy(energy, s->energy, bytes);
    }
    if (rc == 0)
        rc = poisoned_run(&c, &chk);
    int same = best && energy && memcmp(best, s->best, m * sizeof *best) == 0
               && memcmp(energy, s->energy, bytes) == 0;
    if (!tap_ok(rc == 0 && chk.pass && same, "%s: second run verifies, same bits", name))
        tap_diag("rc %d msg '%s' error %.3g same %d", rc, c.msg, chk.error, same);
    free(energy);
    free(best);
    if (rc == 0)
        ties(&c, name);
    else
        tap_ok(0, "%s: identical blocks (not run)", name);
    struct rb_occ occ;
    memset(&occ, 0, sizeof occ);
    if (rc == 0)
        t->v->occupancy(&c, &occ);
    t->v->teardown(&c);
    t->v->teardown(&c);
    tap_ok(c.state == NULL && (rc || (occ.available && occ.count >= 1)),
           "%s: occupancy of %d kernels, teardown twice", name, occ.count);
}

int main(void)
{
    struct rb_ctx ctx;
    struct rb_opencl *cl = cl_test_open(&ctx);
    static struct cl_tcase list[MAX_CASES];
    int nvariants, fp64 = cl_test_fp64(cl);
    int count = cl_test_plan("sbo", list, MAX_CASES, wgs, NWGS, NSIZES, fp64, &nvariants);
    /* The representation variants only (they come first in the table; the
     * training ones have t/sbo_opencl_train). */
    int kept = 0;
    for (int i = 0; i < count; i++)
        if (strcmp(list[i].v->algo, "represent") == 0)
            list[kept++] = list[i];
    nvariants -= (count - kept) / (NWGS * (fp64 ? 2 : 1));
    count = kept;
    uint64_t seed = tap_seed();
    int admitted = 0;
    for (int i = 0; i < count; i++) {
        struct rb_case c;
        make_case(&c, &list[i], &ctx, seed);
        admitted += list[i].v->admit(&c) == 0;
    }
    tap_plan(1 + admitted * CHECKS_PER_CASE + (count - admitted));
    tap_diag("seed %llu (RB_TEST_SEED=%llu repeats it); device %s", (unsigned long long)seed,
             (unsigned long long)seed, cl->name);
    tap_ok(nvariants == 2 && count == nvariants * NWGS * (fp64 ? 2 : 1),
           "%d variants, %d cases (%d admitted)%s", nvariants, count, admitted,
           fp64 ? "" : "; no fp64 here, f32 only");
    for (int i = 0; i < count; i++) {
        struct rb_case c;
        char name[160];
        make_case(&c, &list[i], &ctx, seed + (uint64_t)i);
        if (list[i].v->admit(&c) != 0) {
            label(&list[i], name, sizeof name);
            tap_skip("%s: %s", name, c.msg);
            continue;
        }
        life_cycle(&list[i], &ctx, seed + (uint64_t)i);
    }
    rb_ctx_release(&ctx);
    return tap_done();
}
