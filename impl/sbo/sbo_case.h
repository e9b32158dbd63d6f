/* SPDX-License-Identifier: MIT */
/* The glue between the harness and the SBO variants of every backend: axes,
 * the per-case data, the entry points the variant tables name.
 *
 * Both algorithms run on planted data (datasets/planted.h): `blocks` random
 * orthonormal p x p blocks, each of the `signals` signals s-sparse in one of
 * them, plus noise (SBO_REPRESENT_SNR_DB, SBO_TRAIN_SNR_DB).  With images=1,
 * represent's signals are instead a seeded random subset of the 8 x 8
 * patches of the shipped photographs (datasets/image_patches.h,
 * mean-removed on the 0..255 scale), against the same planted blocks.
 *  - represent: one representation pass (SBO steps 2 and 4) with the planted
 *    blocks given: every block's top-s energy per signal, the best block and
 *    its energy.  This is the kernel the paper's speed goal times.
 *  - train: a whole SBO training to `blocks` blocks with the defaults of
 *    sbo_opts_default (K 20, R 20, W m/4, svd_of_data), s from the axis.
 * Verification: represent against the fp64 reference (energies within a
 * bound of fp32/fp64 dot products of length p; a different block only
 * where the reference's top two energies are within twice that bound, a
 * tie); train by self-consistency (the RMSE recomputed in fp64 from the
 * returned blocks and assignment, orthonormality, RMSE non-increasing over
 * rounds). */
#ifndef SBO_CASE_H
#define SBO_CASE_H

#include <stddef.h>
#include "harness/variant.h"
#include "impl/sbo/sbo.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The engine an SBO variant runs on: the `kind` of its table row.  Zero is
 * no kind, so a row that forgets it is caught. */
enum sbo_kind {
    SBO_KIND_LOOPS = 1,             /* the fp64 reference in plain loops */
    SBO_KIND_SGEMM,                 /* OpenMP + OpenBLAS */
    SBO_KIND_PAPER,                 /* the paper's kernels (a Jacobi SVD per block) */
    SBO_KIND_FUSED,                 /* the representation in one kernel */
    SBO_KIND_FUSED_PAIR,            /* as fused, two lanes per two signals */
    SBO_KIND_POLAR                  /* training with Newton-Schulz per block */
};

#define SBO_REPRESENT_SNR_DB 20.0
#define SBO_TRAIN_SNR_DB 30.0
/* images=1: patches of SBO_IMAGE_SIDE^2 = p pixels. */
#define SBO_IMAGE_SIDE 8
#define SBO_IMAGE_P (SBO_IMAGE_SIDE * SBO_IMAGE_SIDE)

struct sbo_state {
    int p, s, L, m, threads;
    struct sbo_opts opts;           /* train: s and L from the axes */
    double *Y_d;                    /* p x m in fp64, exactly the values in Y */
    double *D_d;                    /* represent: the given blocks in fp64, as in D */
    void *Y;                        /* prec, p x m */
    void *D;                        /* prec, L p x p: given (represent) or learned (train) */
    int *best;                      /* m: the block of each signal (output) */
    void *energy;                   /* prec, m: represent's best energies (output) */
    int nb;                         /* train: blocks learned (output) */
    double rmse;                    /* train: final RMSE (output) */
    double *trace;                  /* train: RMSE per representation pass (output) */
    int ntrace, cap;
    void *backend;                  /* a GPU backend's device side; its teardown frees it */
};

extern const struct rb_axis sbo_represent_sizes[];
extern const struct rb_axis sbo_train_sizes[];
extern const struct rb_axis sbo_threads_axis[];

/* RB_ESKIP when threads exceed the cores, or s > p. */
int sbo_admit(struct rb_case *c);
size_t sbo_footprint(const struct rb_case *c);
/* Planted data from c->seed; outputs poisoned (NaN, block -1).  0,
 * RB_EINVAL or RB_ENOMEM (message in c->msg). */
int sbo_setup(struct rb_case *c);
/* The trace callback of a train run: appends to s->trace. */
void sbo_case_trace(int blocks, int round, double rmse, void *arg);
int sbo_represent_verify(struct rb_case *c, struct rb_check *out);
int sbo_train_verify(struct rb_case *c, struct rb_check *out);
void sbo_teardown(struct rb_case *c);
/* The representation pass: 2 L p^2 m flops (the GEMM D^T Y); Y and D read,
 * the block and energy of each signal written. */
void sbo_represent_work(const struct rb_case *c, double *flops, double *bytes);

extern const struct rb_variant sbo_serial_variants[];
extern const struct rb_variant sbo_omp_variants[];

#ifdef __cplusplus
}
#endif

#endif
