/* SPDX-License-Identifier: MIT */
/* Error checks and event timers for CUDA host code (.cu files only). */
#ifndef RB_BACKEND_CUDA_CHECK_H
#define RB_BACKEND_CUDA_CHECK_H

#include <cuda_runtime.h>
#include "harness/error.h"
#include "harness/variant.h"

/* Run `call` (a cudaError_t expression); on error clear CUDA's last error so
 * the next check does not see it again, fail the case with RB_EDEVICE and
 * "file:line: call: cudaErrorName (n): text", and return from the caller. */
#define RB_CUDA_CHECK(c, call)                                                 \
    do {                                                                       \
        cudaError_t rb_cuda_err_ = (call);                                     \
        if (rb_cuda_err_ != cudaSuccess) {                                     \
            (void)cudaGetLastError();                                          \
            return rb_fail((c), RB_EDEVICE, "%s:%d: %s: %s (%d): %s", __FILE__, \
                           __LINE__, #call, cudaGetErrorName(rb_cuda_err_),    \
                           (int)rb_cuda_err_, cudaGetErrorString(rb_cuda_err_)); \
        }                                                                      \
    } while (0)

/* After a <<<>>> launch: a bad configuration (too many threads or shared
 * bytes, no kernel image for this GPU) fails the case with RB_ELAUNCH. */
#define RB_CUDA_CHECK_LAUNCH(c)                                                \
    do {                                                                       \
        cudaError_t rb_cuda_err_ = cudaGetLastError();                         \
        if (rb_cuda_err_ != cudaSuccess)                                       \
            return rb_fail((c), RB_ELAUNCH, "%s:%d: kernel launch: %s (%d): %s", \
                           __FILE__, __LINE__, cudaGetErrorName(rb_cuda_err_), \
                           (int)rb_cuda_err_, cudaGetErrorString(rb_cuda_err_)); \
    } while (0)

/* A pair of events around the timed region on one stream. */
struct rb_cuda_timer {
    cudaEvent_t start, stop;
};

static inline int rb_cuda_timer_create(struct rb_case *c, struct rb_cuda_timer *t)
{
    t->start = t->stop = NULL;
    RB_CUDA_CHECK(c, cudaEventCreate(&t->start));
    RB_CUDA_CHECK(c, cudaEventCreate(&t->stop));
    return 0;
}

static inline int rb_cuda_timer_start(struct rb_case *c, struct rb_cuda_timer *t,
                                      cudaStream_t s)
{
    RB_CUDA_CHECK(c, cudaEventRecord(t->start, s));
    return 0;
}

/* Record the stop event, wait for it and store the elapsed time in *ms. */
static inline int rb_cuda_timer_stop(struct rb_case *c, struct rb_cuda_timer *t,
                                     cudaStream_t s, double *ms)
{
    float f = 0;
    RB_CUDA_CHECK(c, cudaEventRecord(t->stop, s));
    RB_CUDA_CHECK(c, cudaEventSynchronize(t->stop));
    RB_CUDA_CHECK(c, cudaEventElapsedTime(&f, t->start, t->stop));
    *ms = f;
    return 0;
}

/* Safe on a timer that was never created or only half created. */
static inline void rb_cuda_timer_destroy(struct rb_cuda_timer *t)
{
    if (t->start)
        (void)cudaEventDestroy(t->start);
    if (t->stop)
        (void)cudaEventDestroy(t->stop);
    t->start = t->stop = NULL;
}

#endif
