/* SPDX-License-Identifier: MIT */
/* The OpenCL backend's descriptor: what the harness dispatches to it. */
#include <config.h>
#include <stdio.h>
#include "harness/backend/backend.h"
#include "harness/backend/opencl.h"

/* A CPU device such as PoCL runs the GPU kernels for correctness; at GPU
 * sizes they would take hours there, so only `--backend opencl` asks. */
static int opencl_in_default_sweep(struct rb_ctx *ctx, char *why, size_t len)
{
    struct rb_opencl *cl;
    if (rb_opencl_get(ctx, &cl, why, len) == 0
        && !(cl->type & (CL_DEVICE_TYPE_GPU | CL_DEVICE_TYPE_ACCELERATOR))) {
        snprintf(why, len, "the OpenCL device is a CPU (%s); --backend opencl runs it",
                 cl->name);
        return 0;
    }
    return 1;
}

static void opencl_describe(json_t *versions)
{
    json_object_set_new(versions, "opencl", rb_opencl_versions());
}

const struct rb_backend_ops rb_opencl_backend = {
    .id = RB_BACKEND_OPENCL,
    .name = "opencl",
    .platforms = 1,
    .fault_points = 1,
    .available = rb_opencl_available,
    .devices = rb_opencl_devices,
    .in_default_sweep = opencl_in_default_sweep,
    .describe = opencl_describe,
    .ceiling = rb_ceiling_opencl,
    .pci_bus_id = rb_opencl_pci_bus_id,
    .release = rb_opencl_release,
};
