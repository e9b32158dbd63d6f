/* SPDX-License-Identifier: MIT */
/* OpenCL plumbing for every OpenCL variant: device choice, one context and
 * profiling queue per run, program builds with a cache, events, error names,
 * occupancy from kernel info (notes/harness.md §5.3). */
#ifndef RB_BACKEND_OPENCL_H
#define RB_BACKEND_OPENCL_H

#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120
#endif
#include <stddef.h>
#include <stdint.h>
#include <CL/cl.h>
#include <jansson.h>
#include "harness/ctx.h"
#include "harness/error.h"
#include "harness/variant.h"

/* The name of an OpenCL status ("CL_OUT_OF_RESOURCES"); never NULL. */
const char *rb_cl_strerror(cl_int err);

/* Run `call` (a cl_int expression); on error fail the case with RB_EDEVICE
 * and "file:line: call: CL_NAME (n)" in c->msg, and return from the caller. */
#define RB_CL_CHECK(c, call)                                                   \
    do {                                                                       \
        cl_int rb_cl_err_ = (call);                                            \
        if (rb_cl_err_ != CL_SUCCESS)                                          \
            return rb_fail((c), RB_EDEVICE, "%s:%d: %s: %s (%d)", __FILE__,    \
                           __LINE__, #call, rb_cl_strerror(rb_cl_err_),        \
                           (int)rb_cl_err_);                                   \
    } while (0)

/* The same, storing the status in `rc` and jumping to `label` instead, for
 * functions that clean up through goto labels. */
#define RB_CL_CHECK_GOTO(c, call, rc, label)                                   \
    do {                                                                       \
        cl_int rb_cl_err_ = (call);                                            \
        if (rb_cl_err_ != CL_SUCCESS) {                                        \
            (rc) = rb_fail((c), RB_EDEVICE, "%s:%d: %s: %s (%d)", __FILE__,    \
                           __LINE__, #call, rb_cl_strerror(rb_cl_err_),        \
                           (int)rb_cl_err_);                                   \
            goto label;                                                        \
        }                                                                      \
    } while (0)

/* One built program of the cache, keyed by source checksum and options. */
struct rb_opencl_program {
    char name[64];                  /* the kernel file's name, without .cl */
    char *options;
    uint64_t checksum;              /* FNV-1a 64 of the source text built */
    char source_id[320];            /* "PATH fnv1a64:HEX" or "NAME.cl (embedded) fnv1a64:HEX" */
    cl_program program;
};

/* The run's OpenCL state, in ctx->backend[RB_BACKEND_OPENCL]. */
struct rb_opencl {
    cl_platform_id platform;
    cl_device_id device;
    cl_context context;
    cl_command_queue queue;         /* in order, CL_QUEUE_PROFILING_ENABLE */
    int platform_index, device_index;
    cl_device_type type;
    char name[128];                 /* CL_DEVICE_NAME */
    char platform_name[128];
    /* From cl_nv_device_attribute_query; 0 on other devices. */
    int nv_cc_major, nv_cc_minor, nv_warp_size, nv_regs_per_block;
    int nprograms, cap;
    struct rb_opencl_program *programs;
};

/* The run's OpenCL state, created on first use.  Device: the platform and
 * index --device picked (ctx->device), else the environment's
 * RB_CL_PLATFORM / RB_CL_DEVICE
 * (indices), else the first GPU of any platform, else the first device.
 * 0, or RB_ENODEV (no platform or device) / RB_EDEVICE with the reason in
 * why.  The state is owned by ctx and freed by rb_opencl_release. */
int rb_opencl_get(struct rb_ctx *ctx, struct rb_opencl **out, char *why, size_t len);

/* 1 if an OpenCL device can be used; else 0 with the reason in why. */
int rb_opencl_available(struct rb_ctx *ctx, char *why, size_t len);

/* Release programs, queue and context; safe when none was created. */
void rb_opencl_release(struct rb_ctx *ctx);

/* The program from kernel file `name`: DIR/name.cl when ctx->cl_dir (or the
 * environment's RB_CL_DIR) is set and the file exists, else `embedded_src`
 * (rb_cl_<name> from the .cl.c rule).  Built once per device, source and
 * options; the build time is added to c->build_ms.  The program is owned by
 * the cache: do not release it.  A failed build returns RB_EBUILD with the
 * log's head in c->msg, and the whole log goes to RUN_DIR/build-NAME.log when
 * ctx->run_dir is set. */
int rb_opencl_program(struct rb_case *c, const char *name, const char *embedded_src,
                      const char *options, cl_program *out);

/* The same for a program made of several files joined in order (e.g.
 * "common" then the kernel); each may be overridden from the directory. */
int rb_opencl_program_parts(struct rb_case *c, int nparts, const char *const names[],
                            const char *const embedded[], const char *options,
                            cl_program *out);

/* Which source a program was built from, with its checksum, for records;
 * NULL if `p` did not come from rb_opencl_program. */
const char *rb_opencl_source_id(const struct rb_ctx *ctx, cl_program p);

/* Milliseconds between CL_PROFILING_COMMAND_START and _END of a finished
 * command (waits for it); -1 if the profile cannot be read. */
double rb_opencl_event_ms(cl_event ev);

/* What the compiler says of a kernel for this device; query after its
 * arguments are set, since local arguments count in local_mem. */
struct rb_opencl_kernel_info {
    size_t max_wg;                  /* CL_KERNEL_WORK_GROUP_SIZE */
    size_t preferred_multiple;      /* CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE */
    cl_ulong local_mem;             /* CL_KERNEL_LOCAL_MEM_SIZE: static + local args */
    cl_ulong private_mem;           /* CL_KERNEL_PRIVATE_MEM_SIZE, per work-item */
};
int rb_opencl_kernel_info(const struct rb_opencl *cl, cl_kernel kernel,
                          struct rb_opencl_kernel_info *info);

/* Occupancy of `kernel` at `local_size` work-items per group.  On NVIDIA
 * (cl_nv_device_attribute_query) an upper bound from the CUDA model with
 * registers unknown (source "opencl-nv-estimate"); elsewhere the kernel info
 * only, occupancy -1 (source "opencl-kernel-info").  0 or RB_EDEVICE. */
int rb_opencl_occupancy(const struct rb_opencl *cl, cl_kernel kernel, size_t local_size,
                        struct rb_occ_kernel *k);

/* Append every platform's devices to `devices` (see harness/backend/backend.h);
 * the count, or 0 with the reason in why. */
int rb_opencl_devices(json_t *devices, char *why, size_t len);

/* Header version built against and each platform's version, for meta.json. */
json_t *rb_opencl_versions(void);

/* The PCI bus id of the run's OpenCL device ("0000:19:00.0") through
 * cl_nv_device_attribute_query, for NVML.  0, or RB_ENODEV with the reason
 * in why (another vendor's device, or PoCL's CPU). */
int rb_opencl_pci_bus_id(struct rb_ctx *ctx, char *bus, size_t len, char *why, size_t whylen);

struct rb_ceiling;
/* The ceilings of the run's OpenCL device (harness/run/ceiling.h): a
 * clEnqueueCopyBuffer of a large buffer and the FMA kernel of
 * kernels/opencl/rb_ceiling.cl in float and, where the device has fp64,
 * double, timed with profiling events.  0, or RB_ENODEV / RB_EDEVICE /
 * RB_EBUILD with the reason in out->error. */
int rb_ceiling_opencl(struct rb_ctx *ctx, struct rb_ceiling *out);

/* Device limits and buffers (opencl_buffer.c).  A kernel's own limits are
 * rb_opencl_kernel_info's.  CL_DEVICE_MAX_WORK_GROUP_SIZE; 0 if unknown. */
size_t rb_opencl_device_wg(const struct rb_opencl *cl);
/* The largest work-group of a one-dimensional launch: the above, capped by
 * CL_DEVICE_MAX_WORK_ITEM_SIZES[0]. */
size_t rb_opencl_max_wg(const struct rb_opencl *cl);
/* CL_DEVICE_LOCAL_MEM_SIZE, bytes per work-group; 0 if unknown. */
cl_ulong rb_opencl_local_mem(const struct rb_opencl *cl);
/* 1 if the device does double precision (cl_khr_fp64), else 0. */
int rb_opencl_fp64(const struct rb_opencl *cl);

/* A read-write buffer of `bytes` (RB_FAULT_POINT(c, oom, ...) applied).  0,
 * RB_ENOMEM when the device cannot hold it, or RB_EDEVICE; the status's
 * name in c->msg. */
int rb_opencl_buffer(struct rb_case *c, const struct rb_opencl *cl, size_t bytes, cl_mem *out);
/* Blocking write of `bytes` from src at `offset`; the time is added to
 * c->transfer_ms.  0 or RB_EDEVICE. */
int rb_opencl_upload(struct rb_case *c, const struct rb_opencl *cl, cl_mem dst, size_t offset,
                     const void *src, size_t bytes);
/* Enqueue a fill of the first `bytes` of buf with `pattern`; not waited for. */
int rb_opencl_fill(struct rb_case *c, const struct rb_opencl *cl, cl_mem buf,
                   const void *pattern, size_t pattern_size, size_t bytes);
/* `count` elements of `sz` bytes (8: double, else float) of buf set to NaN,
 * so that an output never written fails verify; waited for. */
int rb_opencl_poison(struct rb_case *c, const struct rb_opencl *cl, cl_mem buf, size_t sz,
                     size_t count);
/* Blocking read of `bytes` at `offset` into dst.  0 or RB_EDEVICE. */
int rb_opencl_download(struct rb_case *c, const struct rb_opencl *cl, cl_mem src, size_t offset,
                       void *dst, size_t bytes);
/* Release each buffer that is set and clear it; safe twice. */
void rb_opencl_mems_release(cl_mem *const mems[], size_t n);

#endif
