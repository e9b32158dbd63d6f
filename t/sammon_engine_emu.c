/* SPDX-License-Identifier: MIT */
/* The CUDA and HIP embedding engine's host code and kernels on the CPU
 * (t/sammon_engine_emu_gpu.cc), as NVIDIA's 32-lane warps or, built with
 * GPU_EMU_WAVE=64, AMD's 64-lane wavefronts.  Of the checks a device gets
 * (t/sammon_engine_test.h), those of the engine's own paths: evaluations
 * over one tile and many, the map kept on the device (the queued step,
 * the early stop, the steps not foreseen), the refusal, the forms; the
 * rules' long runs, which add nothing of the engine's on top (their
 * kernels' arithmetic is t/sammon_stored_host's and t/sammon_step_host's),
 * are the device's.  Then what a device seldom shows: memory short of the
 * triangle, reported or found at its allocation, and nothing held once
 * every engine is closed. */
#include <string.h>
#include "impl/sammon/sammon_engine.h"
/* engine_test and the rules' checks are a device's. */
#pragma GCC diagnostic ignored "-Wunused-function"
#include "t/sammon_engine_test.h"

/* t/sammon_engine_emu_gpu.cc's. */
const struct sammon_engine_ops *sammon_engine_emu_ops(void);
void sammon_engine_emu_memory(size_t total, size_t reported);
void sammon_engine_emu_held(size_t *bytes, long *objects);

#define GIB ((size_t)1 << 30)

/* The form memory (total, reported free) leaves at tile 64, which `says`
 * names, and one evaluation in it against fp64 (form_check). */
static void short_check(const struct sammon_engine_ops *ops, struct rb_ctx *ctx, struct data *s,
                        size_t total, size_t reported, const char *says)
{
    static const struct sammon_engine_opts opts = { 64, 0, NULL };
    struct sammon_engine e;
    sammon_engine_emu_memory(total, reported);
    int rc = sammon_engine_open(&e, ops, ctx, s->d.N, s->d.n, 2, &opts, s->d.x);
    tap_ok(rc == 0 && strstr(e.form, says), "%s %s, %zu bytes of which %zu reported free: %s",
           ops->name, s->what, total, reported, rc == 0 ? e.form : e.msg);
    sammon_engine_close(&e);
    form_check(ops, ctx, s, &opts);
    sammon_engine_emu_memory(GIB, GIB);
}

int main(void)
{
    static const struct sammon_engine_opts forms[] = { { 64, 1, NULL }, { 128, 1, NULL },
                                                       { 128, 0, NULL } };
    const struct sammon_engine_ops *ops = sammon_engine_emu_ops();
    struct rb_ctx ctx;
    struct data iris, digits, gen;
    size_t held;
    long objects;
    rb_ctx_init(&ctx);
    tap_plan(16);
    tap_diag("the %s engine on the CPU's emulator; seed %llu (RB_TEST_SEED=%llu repeats it)",
             ops->name, (unsigned long long)tap_seed(), (unsigned long long)tap_seed());
    if (data_load(&iris, "iris") || data_load(&digits, "digits") || data_load(&gen, "generated"))
        tap_diag("a data set did not load");
    eval_check(ops, &ctx, &iris);
    eval_check(ops, &ctx, &digits);
    eval_check(ops, &ctx, &gen);
    resident_check(ops, &ctx, &gen, 30, 0);
    resident_check(ops, &ctx, &iris, 100, 1);
    coinciding_check(ops, &ctx, &gen, 30);
    resident_replan_check(ops, &ctx, &iris);
    float_duplicates(ops, &ctx);
    for (int k = 0; k < 3; k++)
        form_check(ops, &ctx, &gen, &forms[k]);
    /* 300 points: a triangle of 0.25 MB, the rest 0.05 MB; the engine
     * leaves 256 MB free beside them. */
    short_check(ops, &ctx, &gen, GIB, (size_t)256 << 20, "exceed the");
    short_check(ops, &ctx, &gen, (size_t)200 << 10, GIB, "allocation failed");
    sammon_engine_emu_held(&held, &objects);
    tap_ok(held == 0 && objects == 0, "%s: every engine closed, %zu device bytes and %ld "
           "streams, events and pinned buffers held", ops->name, held, objects);
    struct data *sets[] = { &iris, &digits, &gen };
    for (int k = 0; k < 3; k++) {
        rb_dataset_free(&sets[k]->d);
        free(sets[k]->y0);
    }
    rb_ctx_release(&ctx);
    return tap_done();
}
