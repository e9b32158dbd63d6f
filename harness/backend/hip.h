/* SPDX-License-Identifier: MIT */
/* The HIP backend's C-callable entry points (harness/backend/hip.hip).
 * No HIP header is needed to include this; .hip files add hip_check.h. */
#ifndef RB_BACKEND_HIP_H
#define RB_BACKEND_HIP_H

#include <stddef.h>
#include <jansson.h>
#include "harness/ctx.h"
#include "harness/variant.h"

#ifdef __cplusplus
extern "C" {
#endif

/* 1 if ctx's device (--device, else 0) exists; else 0 and why, e.g. "no HIP device
 * (hipGetDeviceCount: ...)". */
int rb_hip_available(struct rb_ctx *ctx, char *why, size_t len);

/* Make ctx's device (--device, else 0) current for this case and name it in c->device.
 * 0, or RB_ENODEV / RB_EDEVICE with the reason in c->msg. */
int rb_hip_select(struct rb_case *c);

/* Append one object per HIP device to `devices`; the count, or 0 with the
 * reason in why. */
int rb_hip_devices(json_t *devices, char *why, size_t len);

/* Runtime and driver versions found, and the compiler that built this
 * (hipcc, or nvcc through harness/backend/hipcuda). */
json_t *rb_hip_versions(void);

/* The PCI bus id of ctx's device (--device, else 0) ("0000:19:00.0"), for NVML.  0, or
 * RB_ENODEV with the reason in why. */
int rb_hip_pci_bus_id(struct rb_ctx *ctx, char *bus, size_t len, char *why, size_t whylen);

/* Free the backend's state in ctx; the device itself is left as it is. */
void rb_hip_release(struct rb_ctx *ctx);

/* Occupancy of kernel `func` (a __global__ function's address) at `block`
 * threads and `dyn_smem` dynamic shared bytes, from the runtime's
 * occupancy calculator and the kernel's attributes; the limiter names the
 * resource that binds.  On an AMD target of harness/backend/hip_targets.c
 * the bounds and the fraction are that row's (the count the runtime's, or
 * the row's model where the runtime has none), and the source says which.
 * 0, or RB_EDEVICE with the failed call in k->source
 * and its error name in k->limiter. */
int rb_hip_occupancy(const void *func, int block, size_t dyn_smem, const char *name,
                     struct rb_occ_kernel *k);

struct rb_ceiling;
/* The ceilings of ctx's device (--device, else 0) (harness/run/ceiling.h): a device-to-device
 * copy and an FMA kernel in fp32 and fp64, timed with events.  0, or
 * RB_ENODEV / RB_EDEVICE with the reason in out->error. */
int rb_ceiling_hip(struct rb_ctx *ctx, struct rb_ceiling *out);

#ifdef __cplusplus
}
#endif

#endif
