/* SPDX-License-Identifier: MIT */
/* The HIP backend's descriptor: what the harness dispatches to it. */
#include <config.h>
#include "harness/backend/backend.h"
#include "harness/backend/hip.h"

static void hip_describe(json_t *versions)
{
    json_object_set_new(versions, "hip", rb_hip_versions());
}

const struct rb_backend_ops rb_hip_backend = {
    .id = RB_BACKEND_HIP,
    .name = "hip",
    .available = rb_hip_available,
    .devices = rb_hip_devices,
    .describe = hip_describe,
    .ceiling = rb_ceiling_hip,
    .pci_bus_id = rb_hip_pci_bus_id,
    .release = rb_hip_release,
};
