/* SPDX-License-Identifier: MIT */
/* embed's backends, picked by build, and their start (embed_engines.c). */
#ifndef RB_EMBED_ENGINES_H
#define RB_EMBED_ENGINES_H

#include <pthread.h>
#include "harness/ctx.h"
#include "impl/sammon/sammon_engine.h"

/* Picking the engine and starting its device, on a thread of its own
 * while the caller loads and checks the data (a device's driver and
 * context take a large part of a second to come up).  The engine is the
 * one named `name`, or for NULL the best available: the first GPU engine
 * with a device (cuda, hip, then opencl on a GPU), else omp.  Nothing of
 * the data reaches the device before the caller has checked it and ended
 * the start; the caller ends it on every path, before releasing ctx. */
struct embed_start {
    const char *name;
    struct rb_ctx *ctx;
    const struct sammon_engine_ops *ops;    /* the engine, once ended with 0 */
    int status;                             /* 0, or the exit status (2 no such
                                               device, 1 it failed to start) */
    char why[640];                          /* the line to print when not 0 */
    double seconds;                         /* the picking and starting took */
    pthread_t thread;
    int running, ended;
};

/* Begin the start (on the caller's thread, at the end, where no thread can
 * be made). */
void embed_start_begin(struct embed_start *s, const char *name, struct rb_ctx *ctx);
/* Wait for it; its status, and in *waited (may be NULL) the wait. */
int embed_start_end(struct embed_start *s, double *waited);
/* Closing the engine, and stopping its device (sammon_engine_ops' stop),
 * on a thread of its own while the caller writes the outputs: freeing a
 * device's memory and tearing down its context take a noticeable part of
 * a second, and nothing written needs them.  The caller ends it on every
 * path once begun. */
struct embed_finish {
    struct sammon_engine *e;
    struct rb_ctx *ctx;
    pthread_t thread;
    int running;
};

/* Begin closing e (open, its results fetched); the caller no longer uses
 * it. */
void embed_finish_begin(struct embed_finish *f, struct sammon_engine *e, struct rb_ctx *ctx);
/* Wait for the close and the stop. */
void embed_finish_end(struct embed_finish *f);
/* 0 when `name` is a backend built in; else 2 after one line. */
int embed_engine_known(const char *name);
/* The names built in, "serial|omp|..." for --help. */
const char *embed_engine_names(void);

#endif
