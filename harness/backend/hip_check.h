/* SPDX-License-Identifier: MIT */
/* Error checks and event timers for HIP host code (.hip files only). */
#ifndef RB_BACKEND_HIP_CHECK_H
#define RB_BACKEND_HIP_CHECK_H

#include <hip/hip_runtime.h>
#include "harness/error.h"
#include "harness/variant.h"

/* Run `call` (a hipError_t expression); on error clear HIP's last error so
 * the next check does not see it again, fail the case with RB_EDEVICE and
 * "file:line: call: hipErrorName (n): text", and return from the caller. */
#define RB_HIP_CHECK(c, call)                                                  \
    do {                                                                       \
        hipError_t rb_hip_err_ = (call);                                       \
        if (rb_hip_err_ != hipSuccess) {                                       \
            (void)hipGetLastError();                                           \
            return rb_fail((c), RB_EDEVICE, "%s:%d: %s: %s (%d): %s", __FILE__, \
                           __LINE__, #call, hipGetErrorName(rb_hip_err_),      \
                           (int)rb_hip_err_, hipGetErrorString(rb_hip_err_));  \
        }                                                                      \
    } while (0)

/* After hipLaunchKernelGGL: a bad configuration fails the case with
 * RB_ELAUNCH. */
#define RB_HIP_CHECK_LAUNCH(c)                                                 \
    do {                                                                       \
        hipError_t rb_hip_err_ = hipGetLastError();                            \
        if (rb_hip_err_ != hipSuccess)                                         \
            return rb_fail((c), RB_ELAUNCH, "%s:%d: kernel launch: %s (%d): %s", \
                           __FILE__, __LINE__, hipGetErrorName(rb_hip_err_),   \
                           (int)rb_hip_err_, hipGetErrorString(rb_hip_err_));  \
    } while (0)

/* A pair of events around the timed region on one stream. */
struct rb_hip_timer {
    hipEvent_t start, stop;
};

static inline int rb_hip_timer_create(struct rb_case *c, struct rb_hip_timer *t)
{
    t->start = t->stop = NULL;
    RB_HIP_CHECK(c, hipEventCreate(&t->start));
    RB_HIP_CHECK(c, hipEventCreate(&t->stop));
    return 0;
}

static inline int rb_hip_timer_start(struct rb_case *c, struct rb_hip_timer *t, hipStream_t s)
{
    RB_HIP_CHECK(c, hipEventRecord(t->start, s));
    return 0;
}

/* Record the stop event, wait for it and store the elapsed time in *ms. */
static inline int rb_hip_timer_stop(struct rb_case *c, struct rb_hip_timer *t, hipStream_t s,
                                    double *ms)
{
    float f = 0;
    RB_HIP_CHECK(c, hipEventRecord(t->stop, s));
    RB_HIP_CHECK(c, hipEventSynchronize(t->stop));
    RB_HIP_CHECK(c, hipEventElapsedTime(&f, t->start, t->stop));
    *ms = f;
    return 0;
}

/* Safe on a timer that was never created or only half created. */
static inline void rb_hip_timer_destroy(struct rb_hip_timer *t)
{
    if (t->start)
        (void)hipEventDestroy(t->start);
    if (t->stop)
        (void)hipEventDestroy(t->stop);
    t->start = t->stop = NULL;
}

#endif
