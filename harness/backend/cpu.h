/* SPDX-License-Identifier: MIT */
/* The CPU backends: serial (always there) and OpenMP. */
#ifndef RB_BACKEND_CPU_H
#define RB_BACKEND_CPU_H

#include <stddef.h>
#include "harness/ctx.h"

/* Always 1. */
int rb_serial_available(struct rb_ctx *ctx, char *why, size_t len);
/* 1 when built with OpenMP; else 0 and why. */
int rb_omp_available(struct rb_ctx *ctx, char *why, size_t len);
/* Cores OpenMP may use here (omp_get_num_procs), 1 without OpenMP. */
int rb_omp_max_threads(void);
/* "Intel(R) Xeon(R) ..., 16 cores" for records' device field. */
const char *rb_cpu_name(void);

#endif
