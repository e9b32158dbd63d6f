/* SPDX-License-Identifier: MIT */
/* The OpenCL Sammon variants (kernels/opencl/sammon_*.cl): the backend's
 * part of a case and the entry points their table names.  Private to
 * impl/sammon. */
#ifndef SAMMON_OPENCL_H
#define SAMMON_OPENCL_H

#include <stddef.h>
#include "harness/backend/opencl.h"
#include "harness/variant.h"

/* Which kernels a case runs: the paper's standard and modified approaches
 * (flat or transposed), or the tiled design (transposed). */
enum sammon_cl_kind {
    SAMMON_CL_STANDARD,         /* sammon_standard.cl */
    SAMMON_CL_MODIFIED,         /* sammon_modified.cl: pairs, then update */
    SAMMON_CL_TILED             /* sammon_tiled.cl: tiles, then finish */
};

/* The most slices the tiled kernel splits the sum over j into. */
#define SAMMON_CL_MAX_SLICES 256

/* The kernels of a case's timed region, in launch order. */
enum { SAMMON_CL_MAIN, SAMMON_CL_AFTER, SAMMON_CL_NKERNELS };

/* A case's device side, in struct sammon_state's backend.  x, y and g are
 * in the variant's layout on the device; the host's are row-major. */
struct sammon_opencl {
    enum sammon_cl_kind kind;
    int transposed;             /* column-major on the device */
    int N, n, m, iters;
    int wg;                     /* the `wg` tunable: work-items per group */
    int ppi;                    /* tiled: points per work-item */
    int tj, span, slices;       /* tiled: tile points, slice points, slices */
    long long pairs;            /* modified: N (N - 1) / 2 */
    size_t pair_items;          /* modified: global size of the grid-stride loop */
    size_t sz;                  /* bytes of one element */
    double scale;               /* 2 alpha / c: y <- y + scale sum_j w_ij (y_i - y_j) */
    struct rb_opencl *cl;
    cl_kernel k[SAMMON_CL_NKERNELS];
    size_t local[SAMMON_CL_NKERNELS];
    cl_mem x, y0, y[2];         /* y[0], y[1]: Jacobi's previous and next iterate */
    cl_mem g;                   /* modified: the gradient sums; tiled: the partial sums */
    int result;                 /* which y holds the last run's iterate */
    cl_event first, last;       /* the timed region's first and last commands */
};

/* The variant table (sammon_opencl_table.c). */
extern const struct rb_variant sammon_opencl_variants[];

/* RB_ESKIP when the device lacks fp64 for an f64 case (or 64-bit atomics for
 * an f64 modified case), or wg exceeds the device's work-group size. */
int sammon_opencl_admit(struct rb_case *c);
/* Device bytes of the case's buffers. */
size_t sammon_opencl_footprint(const struct rb_case *c);
/* sammon_setup, then the buffers and uploads (c->transfer_ms) and the
 * program (c->build_ms); the outputs are poisoned.  0 or RB_E*, RB_ESKIP
 * when the kernel cannot take wg work-items per group. */
int sammon_opencl_setup(struct rb_case *c);
/* The timed region: y0 copied to the first buffer, then `iters` iterations;
 * c->device_ms from the profiling events of the first and last commands. */
int sammon_opencl_run(struct rb_case *c);
/* Read the last iterate back into the state's y (row-major) and check it
 * with sammon_verify. */
int sammon_opencl_verify(struct rb_case *c, struct rb_check *out);
/* Release everything, then sammon_teardown; safe after a partial setup and
 * twice. */
void sammon_opencl_teardown(struct rb_case *c);
/* rb_opencl_occupancy of each kernel of the timed region. */
void sammon_opencl_occupancy(struct rb_case *c, struct rb_occ *occ);
/* Fill the case's device outputs (both iterates and g) with NaN, so that a
 * value a run does not write fails verify.  0 or RB_EDEVICE. */
int sammon_opencl_poison(struct rb_case *c);

/* The `stored` variant (sammon_opencl_stored_case.c, f32): as the entry
 * points above; admit also refuses (RB_ESKIP, with the reason) a case the
 * device's memory or largest buffer cannot hold. */
int sammon_opencl_stored_admit(struct rb_case *c);
size_t sammon_opencl_stored_footprint(const struct rb_case *c);
int sammon_opencl_stored_setup(struct rb_case *c);
int sammon_opencl_stored_run(struct rb_case *c);
int sammon_opencl_stored_verify(struct rb_case *c, struct rb_check *out);
void sammon_opencl_stored_teardown(struct rb_case *c);
void sammon_opencl_stored_occupancy(struct rb_case *c, struct rb_occ *occ);

/* sammon_opencl_kernels.c. */
/* The modified kernel's grid: b->pairs and b->pair_items, enough work-items
 * to fill the device, each looping over its share of the pairs. */
void sammon_opencl_pairing(struct sammon_opencl *b);
/* The tiled kernel's shape from N, n, m, wg and the device: b->ppi, b->tj
 * (tile points within the local memory), b->span and b->slices (at most
 * SAMMON_CL_MAX_SLICES), enough groups to fill the device at small N. */
void sammon_opencl_tiling(struct sammon_opencl *b);
/* Build the case's program, create its kernels and set their fixed
 * arguments (the buffers must exist, and the tiled shape).  0, RB_EBUILD,
 * RB_EDEVICE, or RB_ESKIP when a kernel cannot take wg work-items per group
 * or the tile exceeds the local memory. */
int sammon_opencl_prepare(struct rb_case *c, struct sammon_opencl *b);

#endif
