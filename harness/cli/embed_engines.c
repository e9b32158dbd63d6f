/* SPDX-License-Identifier: MIT */
/* embed's backends, the one place that picks them by build: the fp64
 * engines always, and each device engine this build has (the program's
 * table, as the registry lists variants); and their start, on a thread
 * beside the host's work. */
#include <config.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include "harness/run/timer.h"
#include "harness/cli/embed_engines.h"
#include "impl/sammon/sammon_embed_io.h"

/* In the order the default tries them; the GPU backends' ops come from
 * functions (sammon_engine.h), filled in at first use. */
static const struct sammon_engine_ops *engines[6];

static const struct sammon_engine_ops *const *engine_list(void)
{
    if (!engines[0]) {
        int k = 0;
#if RB_HAVE_CUDA
        engines[k++] = sammon_engine_cuda_ops();
#endif
#if RB_HAVE_HIP
        engines[k++] = sammon_engine_hip_ops();
#endif
#if RB_HAVE_OPENCL
        engines[k++] = &sammon_engine_opencl;
#endif
        engines[k++] = &sammon_engine_omp;
        engines[k] = &sammon_engine_serial;
    }
    return engines;
}

static const char *const all_names[] = { "cuda", "hip", "opencl", "omp", "serial", NULL };
static const char not_built[] = "--backend %s: this %s was built without it";

const char *embed_engine_names(void)
{
    const struct sammon_engine_ops *const *list = engine_list();
    static char buf[64];
    size_t at = 0;
    for (int k = 0; list[k]; k++)
        at += (size_t)snprintf(buf + at, sizeof buf - at, "%s%s", k ? "|" : "", list[k]->name);
    return buf;
}

int embed_engine_known(const char *name)
{
    const struct sammon_engine_ops *const *list = engine_list();
    for (int k = 0; list[k]; k++)
        if (strcmp(name, list[k]->name) == 0)
            return 0;
    for (int k = 0; all_names[k]; k++)
        if (strcmp(name, all_names[k]) == 0)
            return complain(2, not_built, name, sammon_embed_prog);
    return complain(2, "--backend: '%s' is not one of %s", name, embed_engine_names());
}

/* The picking and starting, silent: 0, or an exit status with why. */
static int pick(const char *name, struct rb_ctx *ctx, const struct sammon_engine_ops **out,
                char *why, size_t len)
{
    const struct sammon_engine_ops *const *list = engine_list();
    char reason[512] = "";
    for (int k = 0; list[k]; k++) {
        const struct sammon_engine_ops *e = list[k];
        if (name && strcmp(name, e->name) != 0)
            continue;
        if (!name && e->gpu && !e->available(ctx, 1, reason, sizeof reason))
            continue;                   /* the default looks for a GPU, else the host */
        if (name && !e->available(ctx, 0, reason, sizeof reason)) {
            snprintf(why, len, "--backend %s: %s", name, reason);
            return 2;
        }
        *out = e;
        if (e->start && e->start(ctx, reason, sizeof reason) != 0) {
            snprintf(why, len, "%s: %s", e->name, reason);
            return 1;
        }
        return 0;
    }
    if (name)                           /* --device named a backend not built in */
        snprintf(why, len, not_built, name, sammon_embed_prog);
    else
        snprintf(why, len, "no backend can run here");
    return 2;
}

/* fn(arg), ending with the signal stack the thread began with: an OpenCL
 * platform's compiler (PoCL's LLVM) gives the thread that starts it a
 * signal stack of its own, from malloc, and a thread's end frees the one
 * it finds as its own (where that is a sanitizer's, it aborts on any
 * other). */
static void keeping_signal_stack(void (*fn)(void *), void *arg)
{
    stack_t own;
    int kept = sigaltstack(NULL, &own) == 0;
    fn(arg);
    if (kept)
        sigaltstack(&own, NULL);
}

static void start(void *arg)
{
    struct embed_start *s = arg;
    uint64_t t0 = rb_now_ns();
    s->status = pick(s->name, s->ctx, &s->ops, s->why, sizeof s->why);
    s->seconds = rb_ms_since(t0) / 1e3;
}

static void *start_thread(void *arg)
{
    keeping_signal_stack(start, arg);
    return NULL;
}

void embed_start_begin(struct embed_start *s, const char *name, struct rb_ctx *ctx)
{
    *s = (struct embed_start){ .name = name, .ctx = ctx };
    (void)engine_list();                /* filled here, not raced for */
    s->running = pthread_create(&s->thread, NULL, start_thread, s) == 0;
}

int embed_start_end(struct embed_start *s, double *waited)
{
    uint64_t t0 = rb_now_ns();
    if (s->running)
        pthread_join(s->thread, NULL);
    else if (!s->ended)
        start_thread(s);                /* no thread to be had: start here */
    s->running = 0;
    s->ended = 1;
    if (waited)
        *waited = rb_ms_since(t0) / 1e3;
    return s->status;
}

static void finish(void *arg)
{
    struct embed_finish *f = arg;
    const struct sammon_engine_ops *ops = f->e->ops;
    sammon_engine_close(f->e);
    if (ops && ops->stop)
        ops->stop(f->ctx);
}

static void *finish_thread(void *arg)
{
    keeping_signal_stack(finish, arg);
    return NULL;
}

void embed_finish_begin(struct embed_finish *f, struct sammon_engine *e, struct rb_ctx *ctx)
{
    *f = (struct embed_finish){ .e = e, .ctx = ctx };
    f->running = pthread_create(&f->thread, NULL, finish_thread, f) == 0;
    if (!f->running)
        finish(f);                      /* no thread to be had: here */
}

void embed_finish_end(struct embed_finish *f)
{
    if (f->running)
        pthread_join(f->thread, NULL);
    f->running = 0;
}
