/* SPDX-License-Identifier: MIT */
/* The CUDA backend's C-callable entry points (harness/backend/cuda.cu).
 * No CUDA header is needed to include this; .cu files add cuda_check.h. */
#ifndef RB_BACKEND_CUDA_H
#define RB_BACKEND_CUDA_H

#include <stddef.h>
#include <jansson.h>
#include "harness/ctx.h"
#include "harness/variant.h"

#ifdef __cplusplus
extern "C" {
#endif

/* 1 if ctx's device (--device, else 0) exists; else 0 and why, e.g. "no CUDA device
 * (cudaGetDeviceCount: no CUDA-capable device is detected)". */
int rb_cuda_available(struct rb_ctx *ctx, char *why, size_t len);

/* Make ctx's device (--device, else 0) current for this case and name it in c->device.
 * 0, or RB_ENODEV / RB_EDEVICE with the reason in c->msg. */
int rb_cuda_select(struct rb_case *c);

/* Append one object per CUDA device to `devices`; the count, or 0 with the
 * reason in why. */
int rb_cuda_devices(json_t *devices, char *why, size_t len);

/* Runtime and driver versions found, and the nvcc that built this. */
json_t *rb_cuda_versions(void);

/* The PCI bus id of ctx's device (--device, else 0) ("0000:19:00.0"), for NVML.  0, or
 * RB_ENODEV with the reason in why. */
int rb_cuda_pci_bus_id(struct rb_ctx *ctx, char *bus, size_t len, char *why, size_t whylen);

/* Free the backend's state in ctx; the device itself is left as it is. */
void rb_cuda_release(struct rb_ctx *ctx);

/* Occupancy of kernel `func` (a __global__ function's address) at `block`
 * threads and `dyn_smem` dynamic shared bytes, from the runtime's
 * occupancy calculator and the kernel's attributes; the limiter names the
 * resource that binds.  0, or RB_EDEVICE with the failed call in k->source
 * and its error name in k->limiter. */
int rb_cuda_occupancy(const void *func, int block, size_t dyn_smem, const char *name,
                      struct rb_occ_kernel *k);

struct rb_ceiling;
/* The ceilings of ctx's device (--device, else 0) (harness/run/ceiling.h): a device-to-device
 * copy and an FMA kernel in fp32 and fp64, timed with events.  0, or
 * RB_ENODEV / RB_EDEVICE with the reason in out->error. */
int rb_ceiling_cuda(struct rb_ctx *ctx, struct rb_ceiling *out);

#ifdef __cplusplus
}
#endif

#endif
