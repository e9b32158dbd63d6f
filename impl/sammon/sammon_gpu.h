/* SPDX-License-Identifier: MIT */
/* The CUDA and HIP Sammon variants as C sees them: one engine per backend,
 * the same host code (sammon_gpu_*.cu) compiled for CUDA and for HIP, and
 * the tables that name them (sammon_gpu_table.c, built once per backend):
 * the paper's four, tiled, tiled-symmetric and stored.  No CUDA or HIP
 * header is needed to include this. */
#ifndef SAMMON_GPU_H
#define SAMMON_GPU_H

#include <stddef.h>
#include "harness/variant.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One backend's entry points.  The table rows reach them through the
 * table's own small functions, so that a row names no backend's symbol. */
struct sammon_gpu_engine {
    /* RB_ESKIP with the reason when a tunable does not apply: the tiled
     * kernels are built for tile 32, 64 and 128 (f32 only) points a side. */
    int (*admit)(struct rb_case *c);
    /* Device bytes the case allocates. */
    size_t (*footprint)(const struct rb_case *c);
    /* sammon_setup, then select the device, upload x and y0 (transposed for
     * the transposed variants; timed into c->transfer_ms) and poison the
     * iterates with NaN.  0, or as sammon_setup, or RB_ENODEV / RB_ENOMEM /
     * RB_EDEVICE. */
    int (*setup)(struct rb_case *c);
    /* The timed region, device-timed into c->device_ms: restart from y0 and
     * do `iters` Jacobi GD steps with the case's variant.  0, RB_ELAUNCH or
     * RB_EDEVICE. */
    int (*run)(struct rb_case *c);
    /* Copy the iterate into s->y (row-major) and sammon_verify it. */
    int (*verify)(struct rb_case *c, struct rb_check *out);
    /* The runtime's occupancy of every kernel run() launches. */
    void (*occupancy)(struct rb_case *c, struct rb_occ *occ);
    /* Free the device state, then sammon_teardown; safe after a partial
     * setup and twice. */
    void (*teardown)(struct rb_case *c);
};

/* Each backend's engine, defined by sammon_gpu_case.cu once per backend it
 * is compiled for. */
const struct sammon_gpu_engine *sammon_cuda_engine(void);
const struct sammon_gpu_engine *sammon_hip_engine(void);

extern const struct rb_variant sammon_cuda_variants[];
extern const struct rb_variant sammon_hip_variants[];

#ifdef __cplusplus
}
#endif

#endif
