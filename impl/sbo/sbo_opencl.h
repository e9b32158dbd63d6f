/* SPDX-License-Identifier: MIT */
/* The OpenCL SBO representation variants (kernels/opencl/sbo_represent.cl):
 * the backend's part of a case and the entry points their table names.
 * Private to impl/sbo. */
#ifndef SBO_OPENCL_H
#define SBO_OPENCL_H

#include <stddef.h>
#include "harness/backend/opencl.h"
#include "harness/variant.h"

/* The kernels of a case's timed region, in launch order: the paper's map
 * (sbo_energy) and reduce (sbo_argmax), or the fused kernel alone. */
enum { SBO_CL_MAIN, SBO_CL_AFTER, SBO_CL_NKERNELS };

/* The local memory the fused kernel stages a block's rows in, at most:
 * well under the 48 KiB every GPU gives a group, so that several fit. */
#define SBO_CL_CHUNK_BYTES (16 * 1024)

/* The fused kernel's shape at p for elements of sz bytes: signals a
 * work-item (its SBO_SIG: 2 in float at p <= 64, so that each coefficient
 * read feeds both; else 1), the staged row (p up to a multiple of 4: its
 * SBO_PP) and the code rows a staged chunk holds (a multiple of 4 within
 * SBO_CL_CHUNK_BYTES, at most the padded block). */
struct sbo_cl_fused_shape {
    int sig, pp, rows;
};

static inline struct sbo_cl_fused_shape sbo_cl_fused_shape(int p, size_t sz)
{
    struct sbo_cl_fused_shape f;
    f.sig = sz == sizeof(float) && p <= 64 ? 2 : 1;
    f.pp = (p + 3) / 4 * 4;
    f.rows = (int)(SBO_CL_CHUNK_BYTES / ((size_t)f.pp * sz)) / 4 * 4;
    f.rows = f.rows < 4 ? 4 : f.rows > f.pp ? f.pp : f.rows;
    return f;
}

/* A case's device side, in struct sbo_state's backend. */
struct sbo_opencl {
    int fused;                  /* 1: sbo_fused; 0: the paper's two kernels */
    int p, s, L, m;
    int wg;                     /* the `wg` tunable (the paper's m-tilde) */
    struct sbo_cl_fused_shape shape;    /* fused: signals a work-item, rows */
    size_t sz;                  /* bytes of one element */
    struct rb_opencl *cl;
    cl_kernel k[SBO_CL_NKERNELS];
    cl_mem D, Y, E;             /* E: the paper's L x m energies */
    cl_mem best, energy;        /* the outputs, m each */
    cl_event first, last;       /* the timed region's first and last commands */
};

/* The variant table (sbo_opencl_table.c). */
extern const struct rb_variant sbo_opencl_variants[];

/* sbo_admit, then RB_ESKIP when the device lacks fp64 for an f64 case, wg
 * exceeds its work-group size, or p exceeds the kernels' 256. */
int sbo_opencl_admit(struct rb_case *c);
/* Host bytes (sbo_footprint) plus the device buffers. */
size_t sbo_opencl_footprint(const struct rb_case *c);
/* sbo_setup, then the buffers and uploads (c->transfer_ms) and the program
 * (c->build_ms); the device outputs poisoned.  0 or RB_E*. */
int sbo_opencl_setup(struct rb_case *c);
/* Copy the state's Y and D (the case's precision) to the device; the time
 * is added to c->transfer_ms.  0 or RB_EDEVICE. */
int sbo_opencl_upload(struct rb_case *c);
/* The timed region; c->device_ms from the first and last commands' events. */
int sbo_opencl_run(struct rb_case *c);
/* Read best and energy back into the state and check them with
 * sbo_represent_verify. */
int sbo_opencl_verify(struct rb_case *c, struct rb_check *out);
/* Release everything, then sbo_teardown; safe after a partial setup and
 * twice. */
void sbo_opencl_teardown(struct rb_case *c);
/* rb_opencl_occupancy of each kernel of the timed region. */
void sbo_opencl_occupancy(struct rb_case *c, struct rb_occ *occ);
/* Fill the device outputs (and E) with NaN and the blocks with -1, so that
 * a value a run does not write fails verify.  0 or RB_EDEVICE. */
int sbo_opencl_poison(struct rb_case *c);

/* sbo_opencl_run.c.  Build the case's program, create its kernels and set
 * their arguments (the buffers must exist).  0, RB_EBUILD, RB_EDEVICE, or
 * RB_ESKIP when a kernel cannot take wg work-items per group or the staged
 * chunk exceeds the local memory. */
int sbo_opencl_prepare(struct rb_case *c, struct sbo_opencl *b);

#endif
