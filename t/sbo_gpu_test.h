/* SPDX-License-Identifier: MIT */
/* The test driver of the GPU SBO representation variants (t/sbo_cuda.c,
 * t/sbo_hip.c): both variants of the backend SBO_TEST_BACKEND, which the
 * test defines first, through the harness's life cycle on a device, in f32
 * and f64, at two block sizes per planted case (m 1 and m off every block
 * size, L 1 to 16, s 1 to 16, p 64, 48, 37 and 100): the poisoned outputs
 * fail verify; a run from poisoned outputs verifies against the fp64
 * reference with a device time; a second one gives the same bits; one
 * corrupted output (an energy 1% off, and the next block where L > 1)
 * fails verify; identical blocks give every signal block 0 (ties to the
 * lower index); the runtime knows the kernels' occupancy; teardown twice.
 * Refusals (s 3, block 512, p 300) carry a reason. */
#ifndef SBO_GPU_TEST_H
#define SBO_GPU_TEST_H

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "harness/ctx.h"
#include "harness/error.h"
#include "harness/registry.h"
#include "impl/sbo/sbo_case.h"
#include "t/tap.h"

#define CHECKS_PER_CASE 6

/* signals, blocks, s, p. */
static const int sizes[][4] = {
    { 1, 1, 1, 64 },            /* one signal, one block */
    { 1000, 3, 4, 64 },
    { 1025, 16, 8, 64 },        /* the paper preset's L, m a multiple of no block */
    { 777, 3, 4, 37 },          /* odd p: scalar loads, padded rows and columns */
    { 1500, 2, 8, 48 },         /* p a multiple of 4 below the padding */
    { 300, 2, 2, 100 },         /* p past 64: the 256-value kernels */
    { 513, 4, 16, 64 },
};
#define NSIZES ((int)(sizeof sizes / sizeof sizes[0]))
static const long long blocks[] = { 32, 64, 128, 256 };
#define NBLOCKS ((int)(sizeof blocks / sizeof blocks[0]))
static const enum rb_prec precs[] = { RB_PREC_F32, RB_PREC_F64 };

/* Copies the state's inputs and outputs to the device (sbo_X_upload). */
typedef int (*upload_fn)(struct rb_case *);

static int is_tested(const struct rb_variant *v)
{
    return strcmp(v->paper, "sbo") == 0 && strcmp(v->algo, "represent") == 0
           && v->backend == SBO_TEST_BACKEND;
}

/* RB_TEST_VARIANT=NAME runs one variant's cases only (a sanitizer's run of
 * a new kernel need not wait for the others); the registry check stays. */
static int is_run(const struct rb_variant *v)
{
    const char *only = getenv("RB_TEST_VARIANT");
    return is_tested(v) && (!only || !*only || strcmp(only, v->name) == 0);
}

static void make_case(struct rb_case *c, const struct rb_variant *v, struct rb_ctx *ctx,
                      enum rb_prec prec, const int *z, long long block, uint64_t seed)
{
    memset(c, 0, sizeof *c);
    c->v = v;
    c->ctx = ctx;
    c->prec = prec;
    c->seed = seed;
    c->device_ms = c->transfer_ms = c->build_ms = -1;
    c->params[c->nparams++] = (struct rb_param){ "p", z[3] };
    c->params[c->nparams++] = (struct rb_param){ "s", z[2] };
    c->params[c->nparams++] = (struct rb_param){ "blocks", z[1] };
    c->params[c->nparams++] = (struct rb_param){ "signals", z[0] };
    c->params[c->nparams++] = (struct rb_param){ "block", block };
}

static void label(const struct rb_case *c, char *buf, size_t len)
{
    snprintf(buf, len, "%s %s m=%lld L=%lld s=%lld p=%lld block=%lld", c->v->name,
             rb_prec_name(c->prec), rb_case_param(c, "signals", 0),
             rb_case_param(c, "blocks", 0), rb_case_param(c, "s", 0),
             rb_case_param(c, "p", 0), rb_case_param(c, "block", 0));
}

static double energy_at(const struct rb_case *c, int i)
{
    const struct sbo_state *s = c->state;
    return c->prec == RB_PREC_F64 ? ((const double *)s->energy)[i]
                                  : ((const float *)s->energy)[i];
}

static void energy_set(struct rb_case *c, int i, double v)
{
    struct sbo_state *s = c->state;
    if (c->prec == RB_PREC_F64)
        ((double *)s->energy)[i] = v;
    else
        ((float *)s->energy)[i] = (float)v;
}

/* Poison the outputs (host and device), run, read back, verify. */
static int poisoned_run(struct rb_case *c, upload_fn upload, struct rb_check *chk)
{
    struct sbo_state *s = c->state;
    for (int i = 0; i < s->m; i++) {
        s->best[i] = -1;
        energy_set(c, i, NAN);
    }
    int rc = upload(c);
    if (rc == 0)
        rc = c->v->run(c);
    memset(chk, 0, sizeof *chk);
    return rc ? rc : c->v->verify(c, chk);
}

/* One result: signal i's energy 1% off (and its block the next one where
 * L > 1), written to the device; verify must reject it. */
static void corrupted(struct rb_case *c, upload_fn upload, const char *name, uint64_t seed)
{
    struct sbo_state *s = c->state;
    struct rb_check chk;
    int i = (int)(seed % (uint64_t)s->m);
    energy_set(c, i, energy_at(c, i) * 1.01);
    s->best[i] = (s->best[i] + 1) % s->L;
    memset(&chk, 0, sizeof chk);
    int rc = upload(c);
    if (rc == 0)
        rc = c->v->verify(c, &chk);
    if (!tap_ok(rc == 0 && !chk.pass, "%s: signal %d corrupted fails verify (%.3g > %.3g)", name,
                i, chk.error, chk.tolerance))
        tap_diag("rc %d msg '%s'", rc, c->msg);
}

/* One result: every block made a copy of block 0 (device, host and fp64
 * copies): the energies tie exactly, so every signal must get block 0. */
static void ties(struct rb_case *c, upload_fn upload, const char *name)
{
    struct sbo_state *s = c->state;
    struct rb_check chk;
    size_t pp = (size_t)s->p * s->p, sz = rb_prec_size(c->prec);
    for (int j = 1; j < s->L; j++) {
        memcpy((char *)s->D + j * pp * sz, s->D, pp * sz);
        memcpy(s->D_d + j * pp, s->D_d, pp * sizeof *s->D_d);
    }
    int rc = poisoned_run(c, upload, &chk), zero = 0;
    for (int i = 0; rc == 0 && i < s->m; i++)
        zero += s->best[i] == 0;
    if (!tap_ok(rc == 0 && chk.pass && zero == s->m,
                "%s: %d identical blocks: block 0 for %d of %d signals", name, s->L, zero, s->m))
        tap_diag("rc %d msg '%s' error %.3g", rc, c->msg, chk.error);
}

/* The checks of an admitted case after its first verified run. */
static void after_run(struct rb_case *c, upload_fn upload, const char *name, uint64_t seed)
{
    struct sbo_state *s = c->state;
    struct rb_check chk;
    size_t m = (size_t)s->m, bytes = m * rb_prec_size(c->prec);
    int *best = malloc(m * sizeof *best);
    void *energy = malloc(bytes);
    int rc = best && energy ? 0 : RB_ENOMEM;
    if (rc == 0) {
        memcpy(best, s->best, m * sizeof *best);
        memcpy(energy, s->energy, bytes);
        rc = poisoned_run(c, upload, &chk);
    }
    int same = rc == 0 && memcmp(best, s->best, m * sizeof *best) == 0
               && memcmp(energy, s->energy, bytes) == 0;
    if (!tap_ok(rc == 0 && chk.pass && same, "%s: second run verifies, same bits", name))
        tap_diag("rc %d msg '%s' error %.3g same %d", rc, c->msg, chk.error, same);
    free(energy);
    free(best);
    corrupted(c, upload, name, seed);
    ties(c, upload, name);
}

/* CHECKS_PER_CASE results for one admitted case. */
static void life_cycle(struct rb_case *c, upload_fn upload)
{
    char name[160];
    struct rb_check chk;
    label(c, name, sizeof name);
    memset(&chk, 0, sizeof chk);
    int rc = c->v->setup(c);
    if (rc == RB_ESKIP) {
        for (int k = 0; k < CHECKS_PER_CASE; k++)
            tap_skip("%s: %s", name, c->msg);
        c->v->teardown(c);
        return;
    }
    if (rc == 0)
        rc = c->v->verify(c, &chk);
    if (!tap_ok(rc == 0 && !chk.pass && c->transfer_ms >= 0,
                "%s: poisoned output fails verify", name))
        tap_diag("rc %d msg '%s'", rc, c->msg);
    if (rc == 0)
        rc = poisoned_run(c, upload, &chk);
    if (!tap_ok(rc == 0 && chk.pass && c->device_ms >= 0,
                "%s: run verifies (%.3g <= %.3g), %.3f ms on the device", name, chk.error,
                chk.tolerance, c->device_ms))
        tap_diag("rc %d msg '%s' method '%s'", rc, c->msg, chk.method);
    if (rc == 0) {
        after_run(c, upload, name, c->seed);
    } else {
        tap_ok(0, "%s: second run (not run)", name);
        tap_ok(0, "%s: corrupted output (not run)", name);
        tap_ok(0, "%s: identical blocks (not run)", name);
    }
    struct rb_occ occ;
    memset(&occ, 0, sizeof occ);
    if (rc == 0)
        c->v->occupancy(c, &occ);
    int want = strncmp(c->v->name, "fused", 5) == 0 ? 1 : 2, ok = occ.available
               && occ.count == want;
    for (int k = 0; ok && k < occ.count; k++)
        ok = occ.k[k].regs > 0 && occ.k[k].active_blocks >= 1;
    c->v->teardown(c);
    c->v->teardown(c);
    tap_ok(ok && c->state == NULL, "%s: occupancy of %d kernels (%s: %d regs, %lld B shared), "
           "teardown twice", name, occ.count, occ.count ? occ.k[0].kernel : "-",
           occ.count ? occ.k[0].regs : -1, occ.count ? occ.k[0].smem_static : -1LL);
    if (!ok)
        tap_diag("why '%s'", occ.why);
}

/* Every size of v in each of its precisions at two block sizes each
 * (turning with the size); with run = 0 only the results are counted. */
static int sweep(const struct rb_variant *v, struct rb_ctx *ctx, uint64_t seed, upload_fn up,
                 int run)
{
    int results = 0;
    struct rb_case c;
    for (int p = 0; p < 2; p++)
        for (int k = 0; k < NSIZES && (v->precs & precs[p]); k++)
            for (int b = 0; b < 2; b++) {
                long long block = blocks[(k + 2 * b + p) % NBLOCKS];
                uint64_t cs = seed + (uint64_t)(k * 4 + b * 2 + p);
                make_case(&c, v, ctx, precs[p], sizes[k], block, cs);
                int admitted = v->admit(&c) == 0;
                results += admitted ? CHECKS_PER_CASE : 1;
                if (!run)
                    continue;
                if (!admitted) {
                    char name[160];
                    label(&c, name, sizeof name);
                    tap_ok(c.msg[0] != 0, "%s: skipped (%s)", name, c.msg);
                    continue;
                }
                make_case(&c, v, ctx, precs[p], sizes[k], block, cs);
                life_cycle(&c, up);
            }
    return results;
}

/* One result: admit refuses the case with RB_ESKIP and a reason. */
static void refused(const struct rb_variant *v, struct rb_ctx *ctx, int s, int p,
                    long long block, const char *what)
{
    struct rb_case c;
    const int z[4] = { 100, 2, s, p };
    make_case(&c, v, ctx, RB_PREC_F32, z, block, 1);
    int rc = v->admit(&c);
    tap_ok(rc == RB_ESKIP && c.msg[0], "%s: %s is skipped (%s)", v->name, what, c.msg);
}

/* ctx set up, and the seed; without a device (`available` says why) the
 * whole test is skipped. */
static uint64_t test_start(struct rb_ctx *ctx, int (*available)(struct rb_ctx *, char *, size_t))
{
    char why[512];
    rb_ctx_init(ctx);
    if (!available(ctx, why, sizeof why))
        tap_skip_all("%s", why);
    return tap_seed();
}

/* The whole test: the three variants registered, each one's sweep and
 * refusals. */
static void test_all(struct rb_ctx *ctx, uint64_t seed, upload_fn up, const char *backend)
{
    const struct rb_variant *v;
    int planned = 1, nv = 0, paper = 0, fused = 0, pair = 0;
    for (size_t i = 0; (v = rb_registry_get(i)); i++)
        if (is_tested(v)) {
            nv++;
            paper += strcmp(v->name, "paper") == 0;
            fused += strcmp(v->name, "fused") == 0;
            pair += strcmp(v->name, "fused-pair") == 0;
            if (is_run(v))
                planned += sweep(v, ctx, seed, up, 0) + 3;
        }
    tap_plan(planned);
    tap_diag("seed %llu (RB_TEST_SEED=%llu repeats it)", (unsigned long long)seed,
             (unsigned long long)seed);
    tap_ok(nv == 3 && paper == 1 && fused == 1 && pair == 1,
           "%d %s SBO variants registered, paper, fused and fused-pair", nv, backend);
    for (size_t i = 0; (v = rb_registry_get(i)); i++)
        if (is_run(v)) {
            sweep(v, ctx, seed, up, 1);
            refused(v, ctx, 3, 64, 64, "s=3");
            refused(v, ctx, 8, 64, 512, "block=512");
            refused(v, ctx, 8, 300, 64, "p=300");
        }
}

#endif
