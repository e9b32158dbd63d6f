/* SPDX-License-Identifier: MIT */
/* The glue between the harness and the Sammon variants of every backend:
 * axes, the per-case data and the entry points the variant tables name.
 *
 * A case is `iters` Jacobi iterations of plain gradient descent (the paper's
 * rule, step SAMMON_GD_LAMBDA through sammon_gd_alpha) on `points` random
 * points uniform in [0, 255]^dim (the paper's set-up), mapped to `outdim`
 * dimensions from a seeded random start.  Every run starts again from that
 * start, so each run computes the same iterate and the verification compares
 * it with the fp64 serial reference's. */
#ifndef SAMMON_CASE_H
#define SAMMON_CASE_H

#include <stddef.h>
#include "harness/variant.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The engine a Sammon variant runs on: the `kind` of its table row.  Zero is
 * no kind, so a row that forgets it is caught. */
enum sammon_kind {
    SAMMON_KIND_STANDARD = 1,           /* CPU: each point sums over all others */
    SAMMON_KIND_STANDARD_FLAT,          /* the paper's implementation 1 */
    SAMMON_KIND_STANDARD_TRANSPOSED,    /* 3 */
    SAMMON_KIND_MODIFIED_FLAT,          /* 2: a thread per pair, atomics */
    SAMMON_KIND_MODIFIED_TRANSPOSED,    /* 4 */
    SAMMON_KIND_TILED,                  /* tiles in shared memory, no atomics */
    SAMMON_KIND_TILED_SYMMETRIC,        /* tile pairs j <= i, both points' sums */
    SAMMON_KIND_STORED                  /* the input distances stored once */
};

/* The coordinate range of the paper's random points. */
#define SAMMON_DATA_MAX 255.0

/* One case's data, the same for every backend.  Arrays marked "prec" hold
 * float or double per c->prec, row-major (flat). */
struct sammon_state {
    int N, n, m, iters;
    double c;                   /* sum of input distances, fp64 */
    double alpha;               /* the GD step, fp64 */
    double *x_d;                /* N x n inputs in fp64, exactly those in x */
    double *y0_d;               /* N x m start in fp64, exactly those in y0 */
    void *x;                    /* prec, N x n */
    void *y0;                   /* prec, N x m */
    void *y;                    /* prec, N x m: the output, poisoned by setup */
    void *y_prev;               /* prec, N x m: the iterate the last step started from,
                                 * poisoned by sammon_setup_keeping where the check
                                 * needs it (sammon_last_step_checked), else NULL */
    void *backend;              /* the backend's own (device buffers, kernels) */
};

/* Sizes: points (N), dim (n), outdim (m), iters.  Tunables: threads (OpenMP),
 * block (CUDA, HIP) and wg (OpenCL) from 16 to 1024. */
extern const struct rb_axis sammon_sizes[];
/* The same axes with the paper preset's N cut for the CPU variants. */
extern const struct rb_axis sammon_cpu_sizes[];
extern const struct rb_axis sammon_threads_axis[];
extern const struct rb_axis sammon_block_axis[];
extern const struct rb_axis sammon_wg_axis[];
/* The tiled CUDA/HIP kernels' tunable: points per side of a block's tile. */
extern const struct rb_axis sammon_tile_axis[];

/* The stored variant's tunables: tile (as sammon_tile_axis, default 128)
 * and precompute (0: setup computes the input distances, its time the
 * case's metric "precompute_ms"; 1: the timed region computes them before
 * its iterations). */
extern const struct rb_axis sammon_stored_axes[];
/* Bytes of the stored triangle of N points in tiles of `tile` points a
 * side (sammon_stored.cuh, sammon_stored.cl): every tile pair J <= I whole,
 * float. */
size_t sammon_stored_bytes(long long N, long long tile);

/* RB_ESKIP when the threads exceed the cores OpenMP may use. */
int sammon_admit(struct rb_case *c);
/* Host bytes of the case's arrays. */
size_t sammon_footprint(const struct rb_case *c);
/* Draw x and y0 from c->seed, c and alpha; allocate and poison y (NaN).
 * 0, RB_EINVAL or RB_ENOMEM (message in c->msg).  Backends call it first
 * and keep their own state in s->backend. */
int sammon_setup(struct rb_case *c);
/* 1 when a case of more than one step is too large for the fp64
 * reference of all its steps (iters N^2 n pair-coordinate terms beyond
 * what the check computes, SAMMON_CHECK_FULL in sammon_case.c): its last
 * step alone is checked, from the run's own iterate before it (y_prev),
 * exactly on a sample of rows.  0 otherwise. */
int sammon_last_step_checked(long long N, long long n, long long iters);
/* sammon_setup, for a variant that keeps the iterate before its last step
 * in s->y_prev where sammon_last_step_checked (allocated and poisoned
 * here); plain sammon_setup skips such cases (RB_ESKIP, named). */
int sammon_setup_keeping(struct rb_case *c);
/* Compare s->y (host, prec) with `iters` fp64 reference steps from y0 and
 * record the stresses of both as the case's metrics "stress" and
 * "stress_ref"; or, where sammon_last_step_checked, with the last step
 * from s->y_prev on sampled rows.  0, or RB_ENOMEM. */
int sammon_verify(struct rb_case *c, struct rb_check *out);
/* Free the host arrays; safe after a partial setup and twice.  Backends free
 * s->backend first. */
void sammon_teardown(struct rb_case *c);

/* The roofline's work of a case (struct rb_variant.work): the standard
 * forms evaluate each ordered pair, N (N - 1) a step, for the point it
 * updates; the modified and symmetric forms each unordered pair once,
 * N (N - 1) / 2, for both points.  The count is sammon_case.c's. */
void sammon_work_all_pairs(const struct rb_case *c, double *flops, double *bytes);
void sammon_work_half_pairs(const struct rb_case *c, double *flops, double *bytes);
/* The stored variant's count (sammon_case.c): the triangle read once per
 * iteration in place of the input distances' arithmetic. */
void sammon_work_stored(const struct rb_case *c, double *flops, double *bytes);

/* The variant tables. */
extern const struct rb_variant sammon_serial_variants[];
extern const struct rb_variant sammon_omp_variants[];
extern const struct rb_variant sammon_opencl_variants[];
extern const struct rb_variant sammon_cuda_variants[];
extern const struct rb_variant sammon_hip_variants[];

#ifdef __cplusplus
}
#endif

#endif
