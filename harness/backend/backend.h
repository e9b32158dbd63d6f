/* SPDX-License-Identifier: MIT */
/* What the harness asks of the backends without naming one: each backend
 * library defines one descriptor (struct rb_backend_ops), the registry lists
 * them, and the functions below dispatch through it. */
#ifndef RB_BACKEND_H
#define RB_BACKEND_H

#include <stddef.h>
#include <jansson.h>
#include "harness/ctx.h"

#ifdef __cplusplus
extern "C" {
#endif

struct rb_ceiling;

/* One backend, as its library describes it (cpu_ops.c, opencl_ops.c,
 * cuda_ops.c, hip_ops.c).  An operation left NULL is one the backend has
 * not: the functions below then say so or take the neutral answer. */
struct rb_backend_ops {
    enum rb_backend id;
    const char *name;                   /* rb_backend_name(id) */
    const char *units_name;             /* its compute units in `info`: "SMs"; NULL: "CUs" */
    int platforms;                      /* 1: devices are picked as platform:index */
    int fault_points;                   /* 1: its allocations and launches pass through
                                           RB_FAULT_POINT (harness/run/fault.h) */
    /* 1 if the backend can run cases here; else 0 and the reason in why. */
    int (*available)(struct rb_ctx *ctx, char *why, size_t len);
    /* Probe: append one object per device found to `devices` (its
     * "platform" and "device" where the backend has platforms, else its
     * "index"); the count, or 0 with the reason in why.  NULL: the host's
     * CPU, in the topology. */
    int (*devices)(json_t *devices, char *why, size_t len);
    /* 0 with the reason in why to stay out of a sweep that names no
     * backend; NULL: always in. */
    int (*in_default_sweep)(struct rb_ctx *ctx, char *why, size_t len);
    /* Describe: set the backend's compiler and driver versions in
     * `versions` under the key meta.json gives them. */
    void (*describe)(json_t *versions);
    /* The copy and FMA ceilings of the device the cases use; the backend
     * is available.  Fills *out (NaN and out->error where it could not). */
    int (*ceiling)(struct rb_ctx *ctx, struct rb_ceiling *out);
    /* The PCI bus id of that device: 0, or RB_ENODEV with the reason. */
    int (*pci_bus_id)(struct rb_ctx *ctx, char *bus, size_t len, char *why, size_t whylen);
    /* Free the backend's state in ctx->backend[id]. */
    void (*release)(struct rb_ctx *ctx);
};

/* What a backend that was not built says in notes and versions. */
extern const char rb_backend_not_built[];

/* Append one object per device found (backend, index, name, vendor, memory,
 * compute units, clocks, compute capability, driver) to `devices`, and one
 * note per built backend that found none to `notes` ("cuda: no device: ...").
 * Backends not built add "hip: not built" notes. */
void rb_backend_devices(struct rb_ctx *ctx, json_t *devices, json_t *notes);

/* 1 if backend b can run cases here; else 0 and the reason in why. */
int rb_backend_available(struct rb_ctx *ctx, enum rb_backend b, char *why, size_t len);

/* 1 if backend b belongs in a sweep that names no backend.  0 (with the
 * reason in why) for OpenCL on a CPU device such as PoCL: the GPU kernels run
 * there for correctness, and at GPU sizes would take hours; `--backend
 * opencl` still runs them. */
int rb_backend_in_default_sweep(struct rb_ctx *ctx, enum rb_backend b, char *why, size_t len);

/* Versions of the device compilers this binary was built with, and of the
 * drivers found at run time, as an object for meta.json. */
json_t *rb_backend_versions(struct rb_ctx *ctx);

/* Probe backend b's device for its ceilings (harness/run/ceiling.h): the CPU
 * backends on 1 (serial) or all OpenMP threads, the GPU backends on the
 * device their cases use.  Always fills *out; what could not be measured is
 * NaN with the reason in out->error. */
void rb_backend_ceiling(struct rb_ctx *ctx, enum rb_backend b, struct rb_ceiling *out);

/* The PCI bus id ("0000:19:00.0") of the device backend b's cases run on,
 * for finding it in NVML.  0, or RB_ENODEV with the reason in why (a CPU
 * backend, a device without one such as PoCL's, or a backend not built). */
int rb_backend_pci_bus_id(struct rb_ctx *ctx, enum rb_backend b, char *bus, size_t len,
                          char *why, size_t whylen);

/* Free each backend's state in ctx. */
void rb_backend_release(struct rb_ctx *ctx);

/* --device LIST: one pick per backend, "B:N" (device N of backend B, as
 * `reprobench info` names them) or "B:P:D" for a backend with platforms,
 * comma-separated, into pick[] (the others left as they are).  0, or
 * RB_EINVAL with the reason in err (an unknown or unbuilt backend, a
 * malformed index, a platform where the backend has none, a backend named
 * twice). */
int rb_device_parse(const char *list, struct rb_device_pick pick[RB_BACKEND_COUNT], char *err,
                    size_t errlen);
/* The picks that are not the default, as --device takes them
 * ("cuda:1,opencl:0:1"), into buf; "" when there is none. */
void rb_device_format(const struct rb_device_pick pick[RB_BACKEND_COUNT], char *buf,
                      size_t len);

#ifdef __cplusplus
}
#endif

#endif
