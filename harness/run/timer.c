/* SPDX-License-Identifier: MIT */
/* The host clock used for CPU cases and wall times. */
#include <time.h>
#include "harness/run/timer.h"

uint64_t rb_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

double rb_ms_since(uint64_t t0_ns)
{
    return (double)(rb_now_ns() - t0_ns) / 1e6;
}
