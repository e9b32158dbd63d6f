/* SPDX-License-Identifier: MIT */
/* The Sammon embedding's engines: one per backend, each set up once with
 * the inputs X and then asked, at any map Y, for the stress, the gradient
 * and the diagonal second derivative (sammon.h's definitions), from one
 * pass over the pairs where the backend can.  The update rules
 * (sammon_run_*_with) drive an engine through sammon_engine_eval, the
 * program (sammon_embed.c) drives the rules; Y stays in fp64 (on the host,
 * or for the fixed rules on the device, below), so every backend
 * runs the same rules on the same numbers.
 *
 *  - serial, omp: the fp64 reference (sammon_ref.c), one thread or all.
 *  - cuda, hip, opencl: float on the device, the pass of
 *    kernels/cuda/sammon_stored.cuh or kernels/opencl/sammon_stored.cl
 *    over the stored triangle of 1 / d* when it fits the device's memory,
 *    else recomputing the input distances each pass; the inputs are scaled
 *    by a power of two (exact) to about unit size first, so that float
 *    neither overflows nor underflows on data of any scale.  fp64 where a
 *    sum needs it: the stress (float per thread and tile, fp64 across
 *    tiles and blocks; CUDA's and HIP's pass with the derivatives sums the
 *    stress expanded, d* + d^2 / d* - 2 d a pair, its d* added back as c,
 *    and the stress-only pass of a run's last step the direct form), the
 *    sum c of the input distances, and the conversion of the per-point
 *    sums to the gradient and second derivative on the host.  CUDA, HIP
 *    and OpenCL devices with fp64 keep the map there for the fixed rules
 *    (newton, gd): the same conversion and step in double, so that an
 *    iteration sends nothing but the stress back. */
#ifndef SAMMON_ENGINE_H
#define SAMMON_ENGINE_H

#include <stddef.h>
#include "harness/ctx.h"
#include "impl/sammon/sammon.h"

#ifdef __cplusplus
extern "C" {
#endif

struct sammon_engine;

/* One backend's engine.  open: set up from x (N x n, fp64, rows distinct
 * and finite, distances that fit double: sammon-embed's checks), setting
 * e->c, e->device and e->form; 0, RB_EINVAL (data the backend cannot take,
 * the reason in e->msg), RB_ENODEV, RB_ENOMEM or RB_EDEVICE.  eval: as
 * struct sammon_eval's fn.  close: free everything; safe after a failed
 * open. */
struct sammon_engine_ops {
    const char *name;                       /* "serial", "omp", "opencl", "cuda", "hip" */
    int gpu;                                /* a device: the default prefers these */
    /* 1 if the backend has a device here (for opencl: a GPU one when
     * gpu_only); else 0 with the reason in why. */
    int (*available)(struct rb_ctx *ctx, int gpu_only, char *why, size_t len);
    int (*open)(struct sammon_engine *e, const double *x);
    int (*eval)(struct sammon_engine *e, const double *y, double *stress, double *g,
                double *h);
    void (*close)(struct sammon_engine *e);
    /* Optional (NULL: nothing to start): bring the device up, its driver
     * and context, on the calling thread and before open, so that open
     * finds it ready; embed runs it beside loading and checking the data.
     * 0, or an RB_E* status with the reason in why. */
    int (*start)(struct rb_ctx *ctx, char *why, size_t len);
    /* Optional (NULL: nothing to give back): after close, the device's
     * context torn down, for a program done with the device, so that its
     * exit finds nothing left to do; embed runs close and stop beside
     * writing its outputs, on a thread of its own. */
    void (*stop)(struct rb_ctx *ctx);
};

/* The inputs in float that the device engines upload, made on the host
 * before the device is needed (embed makes them while the device starts):
 * x / scale, scale the power of two that takes x's bounding-box diagonal
 * to [0.5, 1) (exact); and two rows that are distinct in x but one point
 * in float (0-based), or -1: an error for a device engine only. */
struct sammon_floats {
    float *xf;                  /* N x n */
    double scale;
    int dup_i, dup_j;
};

/* How a device engine runs: points per tile side (64 or 128; 0: 64),
 * recompute 1 to take the recomputing form even where the triangle fits,
 * and floats the inputs already in float (NULL: open makes them). */
struct sammon_engine_opts {
    int tile, recompute;
    const struct sammon_floats *floats;
};

struct sammon_engine {
    const struct sammon_engine_ops *ops;
    struct rb_ctx *ctx;
    int N, n, m;
    int tile;                   /* GPUs: points per tile side (64, 128) */
    int recompute;              /* GPUs: the recomputing form asked for */
    double c;                   /* sum of the input distances, from open */
    double setup_s;             /* open's time on the host clock */
    const struct sammon_floats *floats; /* opts', during open only */
    char device[128];           /* what runs it */
    char form[128];             /* how, e.g. "stored 1/d* (4.30 GB), tile 64" */
    char msg[512];              /* the reason of a failure */
    /* Set by open where the device keeps the fixed rules' map between
     * steps (sammon.h's struct sammon_resident, arg the engine): CUDA and
     * HIP, and OpenCL on devices with fp64; else NULL. */
    const struct sammon_resident *resident;
    void *impl;
};

/* Open engine e of backend ops for N x n inputs x, mapped to m dims;
 * opts may be NULL (the defaults). */
int sammon_engine_open(struct sammon_engine *e, const struct sammon_engine_ops *ops,
                       struct rb_ctx *ctx, int N, int n, int m,
                       const struct sammon_engine_opts *opts, const double *x);
int sammon_engine_eval(struct sammon_engine *e, const double *y, double *stress, double *g,
                       double *h);
void sammon_engine_close(struct sammon_engine *e);
/* The engine as a driver's evaluator (fused on the devices). */
struct sammon_eval sammon_engine_evaluator(struct sammon_engine *e);

/* The fp64 engines (sammon_engine_cpu.c); omp uses OpenMP's threads. */
extern const struct sammon_engine_ops sammon_engine_serial, sammon_engine_omp;

/* The device engines: OpenCL's (sammon_engine_opencl.c), and CUDA's and
 * HIP's (sammon_engine_gpu.cu, compiled for each). */
extern const struct sammon_engine_ops sammon_engine_opencl;
const struct sammon_engine_ops *sammon_engine_cuda_ops(void);
const struct sammon_engine_ops *sammon_engine_hip_ops(void);

/* f from x (N x n): 0, or RB_ENOMEM.  Free with sammon_floats_free. */
int sammon_floats_make(int N, int n, const double *x, struct sammon_floats *f);
void sammon_floats_free(struct sammon_floats *f);

/* Shared by the device engines (sammon_engine_cpu.c).  The power of two
 * that takes x's bounding-box diagonal to [0.5, 1), and x / scale in
 * float (copied from e->floats where the caller made them); 0, or
 * RB_EINVAL with the rows named in e->msg when two distinct rows coincide
 * once rounded to float. */
int sammon_engine_floats(struct sammon_engine *e, const double *x, double *scale, float *xf);
/* y / scale in float (scale a power of two), over the host's cores for
 * large maps: each evaluation's upload. */
void sammon_engine_to_float(size_t len, const double *y, double scale, float *out);
/* The EMBED pass's per-point sums in m dimensions: G_q, then H_q. */
#define SAMMON_ENGINE_SUMS(m) (2 * (m))
/* From the pass's per-point float sums (kernels/cuda/sammon_stored.cuh's
 * EMBED mode: G, H; or, rsum not NULL, G, C and D of the pass without the
 * coinciding test, rsum the fill's sums of 1/d*: impl/sammon/sammon_sums.h)
 * in scaled units, the gradient and (h not NULL) second derivative of the
 * caller's units: c the caller's sum of input distances, scale the power of
 * two. */
void sammon_engine_derivatives(int N, int m, const float *sums, const float *rsum, double c,
                               double scale, double *g, double *h);

#ifdef __cplusplus
}
#endif

#endif
