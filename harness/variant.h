/* SPDX-License-Identifier: MIT */
/* The variant interface: what an implementation registers, and the case it is
 * handed.  impl/ fills these in; harness/ knows nothing else about a variant. */
#ifndef RB_VARIANT_H
#define RB_VARIANT_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

enum rb_backend {
    RB_BACKEND_SERIAL,
    RB_BACKEND_OMP,
    RB_BACKEND_OPENCL,
    RB_BACKEND_CUDA,
    RB_BACKEND_HIP,
    RB_BACKEND_COUNT
};

/* Floating-point precision of a case.  A variant lists those it supports. */
enum rb_prec {
    RB_PREC_F32 = 1 << 0,
    RB_PREC_F64 = 1 << 1
};

/* The end of an axis's value list. */
#define RB_AXIS_END LLONG_MIN

/* One sweep axis: a named integer parameter ("n", "m", "block", "threads").
 * The lists end with RB_AXIS_END.  `quick` and `paper` are the presets,
 * `deflt` what a plain run sweeps. */
struct rb_axis {
    const char *name;
    const char *help;
    long long min, max;             /* legal range, checked on the command line */
    const long long *deflt;
    const long long *quick;
    const long long *paper;
};

#define RB_MAX_PARAMS 8

struct rb_param {
    const char *name;
    long long value;
};

/* Occupancy of one kernel launch configuration, filled by backends that can
 * say it.  `available` 0 means the reason is in `why`; nothing is invented. */
struct rb_occ_kernel {
    char kernel[64];
    int block;                      /* threads per block / work-items per group */
    int active_blocks;              /* resident blocks per SM / CU, -1 unknown */
    double occupancy;               /* active warps over the maximum, 0..1; -1 unknown */
    int regs;                       /* registers per thread, -1 unknown */
    long long smem_static;          /* bytes per block, -1 unknown */
    long long smem_dynamic;
    long long local_bytes;          /* spills / private memory per thread, -1 unknown */
    char limiter[32];               /* "registers", "warps", ... or "" */
    char source[32];                /* "cuda-runtime", "opencl-estimate", ... */
};

/* Enough for every kernel of the longest pipeline (SBO training: 16). */
#define RB_OCC_MAX_KERNELS 16

struct rb_occ {
    int available;
    char why[160];
    int count;
    struct rb_occ_kernel k[RB_OCC_MAX_KERNELS];
};

/* The result of checking a case against the CPU reference. */
struct rb_check {
    int pass;
    double error;
    double tolerance;
    char method[96];                /* what was compared, e.g. "rel-frobenius U*X vs fp64" */
};

#define RB_MAX_METRICS 24

/* A number a case reports besides its time, e.g. the final stress or RMSE of
 * what it computed; written to the record under "metrics". */
struct rb_metric {
    char name[24];
    double value;
};

struct rb_ctx;                      /* run-wide state: options, devices (harness/ctx.h) */

/* One measured case: a variant at one point of its axes and one precision. */
struct rb_case {
    const struct rb_variant *v;
    struct rb_ctx *ctx;
    enum rb_prec prec;
    int nparams;                    /* sizes first, then tunables, in axis order */
    struct rb_param params[RB_MAX_PARAMS];
    uint64_t seed;                  /* data seed of this case */
    void *state;                    /* the variant's own, from setup to teardown */

    /* Filled by the variant. */
    double device_ms;               /* run(): time of the timed region from device
                                       events; < 0 when the host clock is used */
    double transfer_ms;             /* setup(): host<->device copies, not timed in run */
    double build_ms;                /* setup(): program build / JIT */
    char device[128];               /* setup(): the device the case ran on */
    char msg[512];                  /* the reason of a failure or skip */
    int nmetrics;                   /* verify(): rb_case_metric */
    struct rb_metric metrics[RB_MAX_METRICS];
};

struct rb_variant {
    const char *paper, *algo, *name;       /* "givens", "forward", "fused" */
    enum rb_backend backend;
    unsigned precs;                        /* RB_PREC_F32 | RB_PREC_F64 */
    const struct rb_axis *sizes;           /* ended by { 0 } */
    const struct rb_axis *tunables;        /* ended by { 0 }; may be NULL */
    const char *doc;                       /* one line for `list` */
    int baseline;                          /* 1: the paper's baseline for its algo;
                                              speedups are measured against it */
    int kind;                              /* which of its paper's engines runs the
                                              variant: a value of the paper's own enum
                                              (impl/<paper>/), so that host code never
                                              tells variants apart by name */

    /* 1 if the variant can run here; else 0 with the reason in why. */
    int (*available)(struct rb_ctx *, char *why, size_t len);
    /* Bytes the case needs in the backend's memory, for refusing it early. */
    size_t (*footprint)(const struct rb_case *);
    /* 0, or RB_ESKIP with the reason in msg when the parameters do not combine. */
    int (*admit)(struct rb_case *);
    int (*setup)(struct rb_case *);        /* allocate, make data, upload, build */
    int (*run)(struct rb_case *);          /* the timed region only */
    int (*verify)(struct rb_case *, struct rb_check *);
    void (*teardown)(struct rb_case *);    /* safe after a partial setup */
    void (*occupancy)(struct rb_case *, struct rb_occ *);   /* may be NULL */
    /* The case's floating-point operations (a fused multiply-add counts 2)
     * and the fewest bytes it must move through the device's memory (each
     * input read once, each output written once), for the roofline; NULL
     * when unknown.  Depends on the parameters and precision only. */
    void (*work)(const struct rb_case *, double *flops, double *bytes);
};

/* The value of the case's parameter `name`; `deflt` if it has none. */
long long rb_case_param(const struct rb_case *c, const char *name, long long deflt);

/* Set the case's metric `name` (added, or replaced if present; beyond
 * RB_MAX_METRICS names the call is ignored). */
void rb_case_metric(struct rb_case *c, const char *name, double value);

/* Store a formatted message in c->msg and return code (a negative RB_E*). */
int rb_fail(struct rb_case *c, int code, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

const char *rb_backend_name(enum rb_backend b);
int rb_backend_parse(const char *s, enum rb_backend *out);   /* 0 or -1 */
const char *rb_prec_name(enum rb_prec p);                    /* "f32", "f64" */
size_t rb_prec_size(enum rb_prec p);

#ifdef __cplusplus
}
#endif

#endif
