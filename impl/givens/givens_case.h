/* SPDX-License-Identifier: MIT */
/* The glue between the harness and the CPU Givens variants: axes, per-case
 * state and the entry points the variant tables name. */
#ifndef GIVENS_CASE_H
#define GIVENS_CASE_H

#include <stddef.h>
#include <stdint.h>
#include "harness/variant.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The engine a Givens variant runs on: the `kind` of its table row.  Zero is
 * no kind, so a row that forgets it is caught. */
enum givens_kind {
    GIVENS_KIND_SEQUENTIAL = 1,     /* Algorithm 1, one rotation after another */
    GIVENS_KIND_ROUNDROBIN,         /* Algorithms 2 and 3 on the CPU */
    GIVENS_KIND_PAPER,              /* the paper's kernels, one launch per block */
    GIVENS_KIND_FUSED,              /* one launch, a slab of columns held on chip */
    GIVENS_KIND_APPLY               /* Y = U X and its JVP without forming U */
};

/* Rank of the backward cases' cotangent Gamma = G X^T (givens_check_backward). */
#define GIVENS_COTANGENT_RANK 4

/* One case's data.  Arrays marked "prec" hold float or double per c->prec. */
struct givens_state {
    int n, m, threads;          /* m = 0: all rows */
    int backward;               /* algo "backward" */
    size_t count;               /* angles N */
    double *theta_d;            /* the angles in fp64, exactly those the case uses */
    void *theta;                /* prec: the angles the variant reads */
    void *U;                    /* prec, n x n: forward output, backward input */
    void *gamma;                /* prec, n x n: dL/dU = G X^T (backward) */
    void *dtheta;               /* prec, N: backward output */
    void *work;                 /* prec: givens_backward_work_count(n) */
    double *G, *X;              /* n x GIVENS_COTANGENT_RANK factors of gamma */
};

/* Axes: sizes n and m (CPU and GPU grids); the OpenMP tunable threads. */
extern const struct rb_axis givens_sizes[];
extern const struct rb_axis givens_gpu_sizes[];
extern const struct rb_axis givens_threads_axis[];
/* The tunable of the paper's GPU kernels (CUDA, HIP): block. */
extern const struct rb_axis givens_gpu_block_axis[];
/* The tunables of the fused kernels on CUDA and HIP (givens_gpu_axes.c):
 * slots and cols of the fused forward and backward, and of apply mode. */
extern const struct rb_axis givens_gpu_fused_axes[];
extern const struct rb_axis givens_gpu_fused_bwd_axes[];
extern const struct rb_axis givens_gpu_apply_axes[];

/* The variant tables (givens_serial_table.c, givens_omp_table.c). */
extern const struct rb_variant givens_serial_variants[];
extern const struct rb_variant givens_omp_variants[];

/* The case's data, the same for every backend.  theta_d gets `count` angles
 * uniform in [-pi, pi) from `seed`, theta the same in prec (an fp32 case
 * rounds them, and theta_d keeps the rounded values so the fp64 reference
 * describes the same matrix).  G and X get the n x GIVENS_COTANGENT_RANK
 * normal factors of Gamma = G X^T. */
void givens_theta_draw(uint64_t seed, enum rb_prec prec, size_t count, double *theta_d,
                       void *theta);
void givens_cotangent_draw(uint64_t seed, int n, double *G, double *X);

/* Sizes of the apply-mode variants: n, m and batch (columns of X). */
extern const struct rb_axis givens_apply_sizes[];

/* RB_ESKIP when m > n or threads exceed the cores OpenMP may use. */
int givens_admit(struct rb_case *c);
/* Host bytes of the case's arrays. */
size_t givens_footprint(const struct rb_case *c);
/* Allocate, draw theta uniform in [-pi, pi) from c->seed; for the backward,
 * form U (Algorithm 2, untimed) and Gamma; poison outputs with NaN.
 * 0, RB_EINVAL or RB_ENOMEM (message in c->msg). */
int givens_setup(struct rb_case *c);
/* The check of any Givens case's host output (U for the forward, dtheta for
 * the backward with cotangent factors G, X): givens_check_forward with probes
 * from rb_seed_derive(c->seed, "givens/probe"), or givens_check_backward.
 * 0, or RB_ENOMEM with a message in c->msg. */
int givens_verify_output(struct rb_case *c, int backward, int n, int m, const double *theta_d,
                         const void *output, const double *G, const double *X,
                         struct rb_check *out);
/* The check of givens_check_forward or _backward, per the case's algo. */
int givens_verify(struct rb_case *c, struct rb_check *out);
/* Free everything; safe after a partial setup and twice. */
void givens_teardown(struct rb_case *c);

/* The roofline's work of any Givens case (struct rb_variant.work): forward
 * or backward per c->v->algo, apply mode when the case has a batch. */
void givens_work(const struct rb_case *c, double *flops, double *bytes);

/* Timed regions of the serial variants. */
int givens_run_forward_seq(struct rb_case *c);
int givens_run_forward_rr(struct rb_case *c);
int givens_run_backward_rr(struct rb_case *c);

#ifdef __cplusplus
}
#endif

#endif
