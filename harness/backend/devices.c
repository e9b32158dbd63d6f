/* SPDX-License-Identifier: MIT */
/* The GPU backends seen from the harness: devices, availability, versions
 * and release, dispatched to the backends this binary was built with. */
#include <config.h>
#include <stdio.h>
#include "harness/backend/backend.h"
#include "harness/backend/cpu.h"
#include "harness/ceiling.h"
#include "harness/error.h"
#if RB_HAVE_OPENCL
#include "harness/backend/opencl.h"
#endif
#if RB_HAVE_CUDA
#include "harness/backend/cuda.h"
#endif
#if RB_HAVE_HIP
#include "harness/backend/hip.h"
#endif

static const char not_built[] = "not built (see configure summary)";

static void note(json_t *notes, const char *backend, const char *why)
{
    char line[512];
    snprintf(line, sizeof line, "%s: %s", backend, why);
    json_array_append_new(notes, json_string(line));
}

void rb_backend_devices(struct rb_ctx *ctx, json_t *devices, json_t *notes)
{
    char why[400];
    (void)ctx;
    (void)why;
    (void)devices;
#if RB_HAVE_OPENCL
    if (rb_opencl_devices(devices, why, sizeof why) == 0)
        note(notes, "opencl", why);
#else
    note(notes, "opencl", not_built);
#endif
#if RB_HAVE_CUDA
    if (rb_cuda_devices(devices, why, sizeof why) == 0)
        note(notes, "cuda", why);
#else
    note(notes, "cuda", not_built);
#endif
#if RB_HAVE_HIP
    if (rb_hip_devices(devices, why, sizeof why) == 0)
        note(notes, "hip", why);
#else
    note(notes, "hip", not_built);
#endif
}

int rb_backend_in_default_sweep(struct rb_ctx *ctx, enum rb_backend b, char *why, size_t len)
{
#if RB_HAVE_OPENCL
    struct rb_opencl *cl;
    if (b == RB_BACKEND_OPENCL && rb_opencl_get(ctx, &cl, why, len) == 0
        && !(cl->type & (CL_DEVICE_TYPE_GPU | CL_DEVICE_TYPE_ACCELERATOR))) {
        snprintf(why, len, "the OpenCL device is a CPU (%s); --backend opencl runs it",
                 cl->name);
        return 0;
    }
#else
    (void)ctx;
    (void)b;
    (void)why;
    (void)len;
#endif
    return 1;
}

int rb_backend_available(struct rb_ctx *ctx, enum rb_backend b, char *why, size_t len)
{
    switch (b) {
    case RB_BACKEND_SERIAL:
        return rb_serial_available(ctx, why, len);
    case RB_BACKEND_OMP:
        return rb_omp_available(ctx, why, len);
    case RB_BACKEND_OPENCL:
#if RB_HAVE_OPENCL
        return rb_opencl_available(ctx, why, len);
#else
        break;
#endif
    case RB_BACKEND_CUDA:
#if RB_HAVE_CUDA
        return rb_cuda_available(ctx, why, len);
#else
        break;
#endif
    case RB_BACKEND_HIP:
#if RB_HAVE_HIP
        return rb_hip_available(ctx, why, len);
#else
        break;
#endif
    default:
        snprintf(why, len, "unknown backend %d", (int)b);
        return 0;
    }
    snprintf(why, len, "%s %s", rb_backend_name(b), not_built);
    return 0;
}

json_t *rb_backend_versions(struct rb_ctx *ctx)
{
    json_t *v = json_object();
    (void)ctx;
#if defined(_OPENMP)
    json_object_set_new(v, "openmp", json_integer(_OPENMP));
#else
    json_object_set_new(v, "openmp", json_string(not_built));
#endif
#if RB_HAVE_OPENCL
    json_object_set_new(v, "opencl", rb_opencl_versions());
#else
    json_object_set_new(v, "opencl", json_string(not_built));
#endif
#if RB_HAVE_CUDA
    json_object_set_new(v, "cuda", rb_cuda_versions());
#else
    json_object_set_new(v, "cuda", json_string(not_built));
#endif
#if RB_HAVE_HIP
    json_object_set_new(v, "hip", rb_hip_versions());
#else
    json_object_set_new(v, "hip", json_string(not_built));
#endif
    return v;
}

void rb_backend_ceiling(struct rb_ctx *ctx, enum rb_backend b, struct rb_ceiling *out)
{
    char why[256];

    rb_ceiling_clear(out);
    if (!rb_backend_available(ctx, b, why, sizeof why)) {
        rb_ceiling_fail(out, "%s", why);
        return;
    }
    switch (b) {
    case RB_BACKEND_SERIAL:
        rb_ceiling_cpu(1, out);
        return;
    case RB_BACKEND_OMP:
        rb_ceiling_cpu(rb_omp_max_threads(), out);
        return;
#if RB_HAVE_OPENCL
    case RB_BACKEND_OPENCL:
        rb_ceiling_opencl(ctx, out);
        return;
#endif
#if RB_HAVE_CUDA
    case RB_BACKEND_CUDA:
        rb_ceiling_cuda(ctx, out);
        return;
#endif
#if RB_HAVE_HIP
    case RB_BACKEND_HIP:
        rb_ceiling_hip(ctx, out);
        return;
#endif
    default:
        rb_ceiling_fail(out, "%s: no ceiling probe", rb_backend_name(b));
    }
}

int rb_backend_pci_bus_id(struct rb_ctx *ctx, enum rb_backend b, char *bus, size_t len,
                          char *why, size_t whylen)
{
    switch (b) {
#if RB_HAVE_OPENCL
    case RB_BACKEND_OPENCL:
        return rb_opencl_pci_bus_id(ctx, bus, len, why, whylen);
#endif
#if RB_HAVE_CUDA
    case RB_BACKEND_CUDA:
        return rb_cuda_pci_bus_id(ctx, bus, len, why, whylen);
#endif
#if RB_HAVE_HIP
    case RB_BACKEND_HIP:
        return rb_hip_pci_bus_id(ctx, bus, len, why, whylen);
#endif
    default:
        (void)ctx;
        (void)bus;
        (void)len;
        snprintf(why, whylen, "%s has no PCI device", rb_backend_name(b));
        return RB_ENODEV;
    }
}

void rb_backend_release(struct rb_ctx *ctx)
{
#if RB_HAVE_OPENCL
    rb_opencl_release(ctx);
#endif
#if RB_HAVE_CUDA
    rb_cuda_release(ctx);
#endif
#if RB_HAVE_HIP
    rb_hip_release(ctx);
#endif
    (void)ctx;
}
