/* SPDX-License-Identifier: MIT */
/* The CUDA backend's descriptor: what the harness dispatches to it. */
#include <config.h>
#include "harness/backend/backend.h"
#include "harness/backend/cuda.h"

static void cuda_describe(json_t *versions)
{
    json_object_set_new(versions, "cuda", rb_cuda_versions());
}

const struct rb_backend_ops rb_cuda_backend = {
    .id = RB_BACKEND_CUDA,
    .name = "cuda",
    .units_name = "SMs",
    .available = rb_cuda_available,
    .devices = rb_cuda_devices,
    .describe = cuda_describe,
    .ceiling = rb_ceiling_cuda,
    .pci_bus_id = rb_cuda_pci_bus_id,
    .release = rb_cuda_release,
};
