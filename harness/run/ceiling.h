/* SPDX-License-Identifier: MIT */
/* The roofline's ceilings: each backend's device probed once at the start
 * of a run for its copy bandwidth and FP32 / FP64 arithmetic rates. */
#ifndef RB_CEILING_H
#define RB_CEILING_H

#include <stddef.h>
#include <jansson.h>
#include "harness/ctx.h"
#include "harness/records/results.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A probe takes well under this many seconds per device. */
#define RB_CEILING_BUDGET_S 2.0

/* What one device reached.  A number the probe could not measure is NaN and
 * `error` says why; nothing is estimated. */
struct rb_ceiling {
    char device[128];
    double copy_gbytes_per_s;       /* a large device-to-device copy: bytes read
                                       plus bytes written per second, 1e9 units */
    double fp32_gflops;             /* FMA-bound kernel, an FMA counted as 2 */
    double fp64_gflops;
    char method[256];               /* sizes, threads, repetitions, ISA */
    char error[256];                /* "" when every number was measured */
};

/* Every number NaN, the texts empty. */
void rb_ceiling_clear(struct rb_ceiling *c);

/* Record a failure: the first reason is kept, later ones dropped. */
void rb_ceiling_fail(struct rb_ceiling *c, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* The CPU with `threads` OpenMP threads (1 for the serial backend): a copy
 * of two 128 MiB arrays and an FMA loop with enough independent chains per
 * thread for the widest SIMD unit the CPU has (AVX-512, AVX2 or the build's
 * baseline), each timed best of 3 with CLOCK_MONOTONIC.  0, or RB_ENOMEM
 * (copy_gbytes_per_s then NaN, the reason in error). */
int rb_ceiling_cpu(int threads, struct rb_ceiling *out);

/* The object meta.json keeps per backend: device, copy_gbytes_per_s,
 * fp32_gflops, fp64_gflops (null when unmeasured), method and error. */
json_t *rb_ceiling_json(const struct rb_ceiling *c);

/* Probe each backend of `backends` (bit 1 << b) that RUN/meta.json's
 * "ceilings" does not hold yet (a resumed run keeps its first probe), one
 * progress line each on stderr unless quiet; rewrite meta.json with them and
 * write RUN/ceilings.tsv.  0, or RB_EIO / RB_ENOMEM with a message. */
int rb_run_ceilings(struct rb_run *r, struct rb_ctx *ctx, unsigned backends,
                    char *err, size_t errlen);

#ifdef __cplusplus
}
#endif

#endif
