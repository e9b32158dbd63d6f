/* SPDX-License-Identifier: MIT */
/* The stored form on OpenCL (kernels/opencl/sammon_stored.cl): the device
 * side both the benchmark's `stored` variant (sammon_opencl_stored_case.c)
 * and the embedding engine (sammon_engine_opencl.c) drive: the programs of
 * a tile and mode, the triangle of 1 / d*, the partial sums that stand in
 * for float atomics, and the launches.  Private to impl/sammon. */
#ifndef SAMMON_OPENCL_STORED_H
#define SAMMON_OPENCL_STORED_H

#include <stddef.h>
#include "harness/backend/opencl.h"
#include "harness/variant.h"

/* What a pass adds up (sammon_stored.cl's SAMMON_MODE). */
enum sammon_cls_mode { SAMMON_CLS_GD, SAMMON_CLS_EMBED, SAMMON_CLS_STRESS, SAMMON_CLS_MODES };

/* Work-items per group of every kernel but the last (16 x 16). */
#define SAMMON_CLS_THREADS 256

struct sammon_cls {
    struct rb_opencl *cl;
    int N, n, m;
    int tile, tiles, splits;    /* tile: 32, 64 or 128 points a side */
    int stored;                 /* 1: r from the triangle; 0: recomputed from x */
    long long blocks;           /* tile pairs */
    cl_kernel fill, pass[SAMMON_CLS_MODES], finish[SAMMON_CLS_MODES];
    cl_mem x, store, part_i, part_j, st_part, lost, c_part, sums;
};

/* Per-point sums of a mode (G; G, H; none), as sammon_pass_sums. */
int sammon_cls_sums(int m, enum sammon_cls_mode mode);
/* Bytes of the triangle and of the partial buffers the modes in `modes`
 * (a bit per mode) need, for N points of n, m at `tile`. */
size_t sammon_cls_bytes(int N, int n, int m, int tile, int stored, unsigned modes);
/* RB_ESKIP with the reason when the device cannot hold the case (a buffer
 * above its largest allocation, all of them above its memory) or run
 * groups of 256; 0 otherwise. */
int sammon_cls_fits(struct rb_case *c, const struct rb_opencl *cl, int N, int n, int m,
                    int tile, int stored, unsigned modes);
/* Shape (tiles, splits) for b's N, tile and device, then the programs of
 * each mode in `modes` and the fill; c->build_ms gets the build time.
 * 0, RB_EBUILD, RB_EDEVICE, or RB_ESKIP when a kernel cannot take 256
 * work-items per group. */
int sammon_cls_prepare(struct rb_case *c, struct sammon_cls *b, unsigned modes);
/* The buffers (x uploaded from the flat float xf), each partial buffer
 * poisoned with NaN.  0, RB_ENOMEM or RB_EDEVICE. */
int sammon_cls_alloc(struct rb_case *c, struct sammon_cls *b, const float *xf, unsigned modes);
/* Enqueue the fill (the triangle when b->stored, else the count and the
 * sums only), the lost counter cleared first; ev, if not NULL, gets its
 * event.  0 or RB_EDEVICE. */
int sammon_cls_fill(struct rb_case *c, struct sammon_cls *b, cl_event *ev);
/* After a finished fill: *lost and *dsum, the sum of d* (fp64 over the
 * groups' float sums).  0 or RB_EDEVICE. */
int sammon_cls_fill_result(struct rb_case *c, struct sammon_cls *b, unsigned *lost,
                           double *dsum);
/* Enqueue one pass of `mode` over the iterate y (N x m flat) and its
 * finish: GD adds scale G to y in place, the others gather the sums into
 * b->sums (N x sums).  ev gets the finish's event if not NULL. */
int sammon_cls_pass(struct rb_case *c, struct sammon_cls *b, enum sammon_cls_mode mode,
                    cl_mem y, float scale, cl_event *ev);
/* Release kernels and buffers (programs belong to the cache); safe twice. */
void sammon_cls_release(struct sammon_cls *b);
/* Append the occupancy of the fill (if `fill`), the mode's pass and its
 * finish to occ. */
void sammon_cls_occupancy(const struct sammon_cls *b, enum sammon_cls_mode mode, int fill,
                          struct rb_occ *occ);

#endif
