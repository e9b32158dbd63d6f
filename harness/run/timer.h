/* SPDX-License-Identifier: MIT */
/* The host clock: CLOCK_MONOTONIC. */
#ifndef RB_TIMER_H
#define RB_TIMER_H

#include <stdint.h>

uint64_t rb_now_ns(void);
double rb_ms_since(uint64_t t0_ns);

#endif
