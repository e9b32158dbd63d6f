/* SPDX-License-Identifier: MIT */
/* Run-wide state handed to every case: options, and each backend's device
 * state, created on first use by harness/backend/ and released at the end. */
#ifndef RB_CTX_H
#define RB_CTX_H

#include <stdint.h>
#include "harness/variant.h"

#ifdef __cplusplus
extern "C" {
#endif

struct rb_observers;                /* harness/run/observe.h */

/* The device a backend's cases run on: its platform (for backends that
 * have them, such as OpenCL) and its index; -1 leaves the choice to the
 * backend (OpenCL: the first GPU; the others: device 0). */
struct rb_device_pick {
    int platform, index;
};

struct rb_ctx {
    uint64_t seed;              /* base seed; each case derives its own */
    int quiet;
    const char *run_dir;        /* where build logs go; NULL outside a run */
    const char *cl_dir;         /* load OpenCL sources from here (--cl-dir) */
    struct rb_device_pick device[RB_BACKEND_COUNT];    /* --device, by backend */
    unsigned long long mem_limit;       /* host bytes a CPU case may take; 0: none known */
    unsigned long long mem_limit_mb;    /* RB_MEM_LIMIT_MB when it set mem_limit, else 0 */
    void *backend[RB_BACKEND_COUNT];    /* owned by harness/backend/ */
    struct rb_observers *observers;     /* made on first use */
};

/* Defaults: seed 1, devices chosen automatically, RB_CL_DIR from the environment. */
/* Every backend's pick at its default (-1, -1). */
static inline void rb_device_picks_default(struct rb_device_pick pick[RB_BACKEND_COUNT])
{
    for (int b = 0; b < RB_BACKEND_COUNT; b++)
        pick[b] = (struct rb_device_pick){ -1, -1 };
}
void rb_ctx_init(struct rb_ctx *ctx);
/* Set mem_limit: RB_MEM_LIMIT_MB, else 90% of the host's memory. */
void rb_ctx_set_mem_limit(struct rb_ctx *ctx);
/* Release every backend's state. */
void rb_ctx_release(struct rb_ctx *ctx);

#ifdef __cplusplus
}
#endif

#endif
