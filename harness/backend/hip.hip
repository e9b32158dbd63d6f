/* SPDX-License-Identifier: MIT */
/* The HIP backend's plumbing: device discovery and choice, versions and
 * occupancy.  Real HIP API: hipcc on AMD, or nvcc with harness/backend/hipcuda
 * on NVIDIA. */
#include <config.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <hip/hip_runtime.h>
#include "harness/backend/hip.h"
#include "harness/backend/hip_check.h"
#include "harness/backend/hip_targets.h"
#include "harness/backend/occ.h"

/* The device --device picked for hip, else device 0. */
static int hip_index(const struct rb_ctx *ctx)
{
    const int d = ctx->device[RB_BACKEND_HIP].index;
    return d >= 0 ? d : 0;
}


struct hip_state {
    int device;
    char name[128];            /* as long as rb_case.device */
};

/* Runtime versions: HIP_VERSION form (major*10^7 + minor*10^5 + patch) on
 * AMD, CUDA's major*1000 + minor*10 through the HIP-on-CUDA header. */
static void version_text(char *buf, size_t len, int v)
{
#ifdef __HIP_PLATFORM_NVIDIA__
    snprintf(buf, len, "%d.%d", v / 1000, v % 1000 / 10);
#else
    snprintf(buf, len, "%d.%d.%d", v / 10000000, v / 100000 % 100, v % 100000);
#endif
}

static int attr(hipDeviceAttribute_t a, int dev)
{
    int v = -1;
    if (hipDeviceGetAttribute(&v, a, dev) != hipSuccess) {
        (void)hipGetLastError();
        return -1;
    }
    return v;
}

/* Devices present, or 0 with the runtime's own words in detail. */
static int device_count(char *detail, size_t len)
{
    int n = 0;
    hipError_t err = hipGetDeviceCount(&n);
    if (err != hipSuccess) {
        (void)hipGetLastError();
        snprintf(detail, len, "hipGetDeviceCount: %s", hipGetErrorString(err));
        return 0;
    }
    if (n == 0)
        snprintf(detail, len, "hipGetDeviceCount: 0 devices");
    return n;
}

int rb_hip_available(struct rb_ctx *ctx, char *why, size_t len)
{
    char detail[256];
    int n = device_count(detail, sizeof detail);
    if (n == 0) {
        snprintf(why, len, "no HIP device (%s)", detail);
        return 0;
    }
    if (hip_index(ctx) < 0 || hip_index(ctx) >= n) {
        snprintf(why, len, "HIP device %d does not exist (%d found)", hip_index(ctx), n);
        return 0;
    }
    if (len)
        why[0] = '\0';
    return 1;
}

int rb_hip_select(struct rb_case *c)
{
    struct rb_ctx *ctx = c->ctx;
    struct hip_state *s = (struct hip_state *)ctx->backend[RB_BACKEND_HIP];
    if (!s) {
        if (!rb_hip_available(ctx, c->msg, sizeof c->msg))
            return RB_ENODEV;
        s = (struct hip_state *)calloc(1, sizeof *s);
        if (!s)
            return rb_fail(c, RB_ENOMEM, "out of host memory");
        s->device = hip_index(ctx);
        hipDeviceProp_t p;
        if (hipGetDeviceProperties(&p, s->device) == hipSuccess)
            snprintf(s->name, sizeof s->name, "%.*s", (int)sizeof s->name - 1, p.name);
        else
            snprintf(s->name, sizeof s->name, "HIP device %d", s->device);
        (void)hipGetLastError();
        ctx->backend[RB_BACKEND_HIP] = s;
    }
    RB_HIP_CHECK(c, hipSetDevice(s->device));
    snprintf(c->device, sizeof c->device, "%s", s->name);
    return 0;
}

static json_t *describe(int i)
{
    hipDeviceProp_t p;
    json_t *o = json_object();
    json_object_set_new(o, "backend", json_string("hip"));
    json_object_set_new(o, "index", json_integer(i));
    if (hipGetDeviceProperties(&p, i) != hipSuccess) {
        (void)hipGetLastError();
        json_object_set_new(o, "name", json_string("unreadable (hipGetDeviceProperties failed)"));
        return o;
    }
    json_object_set_new(o, "name", json_string(p.name));
#ifdef __HIP_PLATFORM_NVIDIA__
    char cc[16];
    snprintf(cc, sizeof cc, "%d.%d", p.major, p.minor);
    json_object_set_new(o, "vendor", json_string("NVIDIA"));
    json_object_set_new(o, "cc", json_string(cc));
#else
    json_object_set_new(o, "vendor", json_string("AMD"));
    json_object_set_new(o, "arch", json_string(p.gcnArchName));
#endif
    json_object_set_new(o, "compute_units", json_integer(p.multiProcessorCount));
    json_object_set_new(o, "memory_bytes", json_integer((json_int_t)p.totalGlobalMem));
    int clock = attr(hipDeviceAttributeClockRate, i);
    int mclock = attr(hipDeviceAttributeMemoryClockRate, i);
    json_object_set_new(o, "clock_mhz", json_integer(clock > 0 ? clock / 1000 : -1));
    json_object_set_new(o, "memory_clock_mhz", json_integer(mclock > 0 ? mclock / 1000 : -1));
    json_object_set_new(o, "memory_bus_bits",
                        json_integer(attr(hipDeviceAttributeMemoryBusWidth, i)));
    json_object_set_new(o, "l2_bytes", json_integer(attr(hipDeviceAttributeL2CacheSize, i)));
    json_object_set_new(o, "warp_size", json_integer(attr(hipDeviceAttributeWarpSize, i)));
    json_object_set_new(o, "max_threads_per_sm",
                        json_integer(attr(hipDeviceAttributeMaxThreadsPerMultiProcessor, i)));
    json_object_set_new(o, "registers_per_sm",
                        json_integer(attr(hipDeviceAttributeMaxRegistersPerMultiprocessor, i)));
    json_object_set_new(o, "shared_memory_per_sm",
                        json_integer(attr(hipDeviceAttributeMaxSharedMemoryPerMultiprocessor, i)));
    int drv = 0;
    if (hipDriverGetVersion(&drv) == hipSuccess && drv > 0) {
        char v[32];
        version_text(v, sizeof v, drv);
        json_object_set_new(o, "driver", json_string(v));
    }
    (void)hipGetLastError();
    return o;
}

int rb_hip_devices(json_t *devices, char *why, size_t len)
{
    char detail[256];
    int n = device_count(detail, sizeof detail);
    for (int i = 0; i < n; i++)
        json_array_append_new(devices, describe(i));
    if (n == 0)
        snprintf(why, len, "no device (%s)", detail);
    return n;
}

json_t *rb_hip_versions(void)
{
    json_t *o = json_object();
    char v[160];
    int rt = 0, drv = 0;
    if (hipRuntimeGetVersion(&rt) == hipSuccess) {
        version_text(v, sizeof v, rt);
        json_object_set_new(o, "runtime", json_string(v));
    }
    if (hipDriverGetVersion(&drv) == hipSuccess) {
        version_text(v, sizeof v, drv);
        json_object_set_new(o, "driver", json_string(drv > 0 ? v : "none"));
    }
    (void)hipGetLastError();
#ifdef __HIP_PLATFORM_NVIDIA__
    json_object_set_new(o, "platform", json_string("nvidia"));
    snprintf(v, sizeof v, "nvcc %d.%d.%d with harness/backend/hipcuda", __CUDACC_VER_MAJOR__,
             __CUDACC_VER_MINOR__, __CUDACC_VER_BUILD__);
#else
    json_object_set_new(o, "platform", json_string("amd"));
    snprintf(v, sizeof v, "hipcc HIP %d.%d.%d, clang %s", HIP_VERSION_MAJOR, HIP_VERSION_MINOR,
             HIP_VERSION_PATCH, __clang_version__);
#endif
    json_object_set_new(o, "compiler", json_string(v));
    return o;
}

int rb_hip_pci_bus_id(struct rb_ctx *ctx, char *bus, size_t len, char *why, size_t whylen)
{
    if (!rb_hip_available(ctx, why, whylen))
        return RB_ENODEV;
    hipError_t err = hipDeviceGetPCIBusId(bus, (int)len, hip_index(ctx));
    if (err != hipSuccess) {
        (void)hipGetLastError();
        snprintf(why, whylen, "hipDeviceGetPCIBusId: %s", hipGetErrorString(err));
        return RB_ENODEV;
    }
    return 0;
}

void rb_hip_release(struct rb_ctx *ctx)
{
    free(ctx->backend[RB_BACKEND_HIP]);
    ctx->backend[RB_BACKEND_HIP] = NULL;
}

static int fail_occ(struct rb_occ_kernel *k, const char *call, hipError_t err)
{
    (void)hipGetLastError();
    snprintf(k->source, sizeof k->source, "%s", call);
    snprintf(k->limiter, sizeof k->limiter, "%s", hipGetErrorName(err));
    return RB_EDEVICE;
}

#ifndef __HIP_PLATFORM_NVIDIA__
/* Occupancy on an AMD target of the table: blocks a CU holds by the
 * runtime where it answers (source "hip-runtime+ARCH"), else by the
 * table's model ("hip-targets:ARCH"); the limiter the model's bound
 * equal to that count; the fraction of the CU's wave slots.  SGPRs and
 * accumulation VGPRs the runtime does not report bound nothing. */
static int target_occupancy(struct rb_occ_kernel *k, const struct rb_hip_target *t,
                            const void *func, int block, int vgprs, long long lds)
{
    struct rb_hip_occ o;
    if (rb_hip_target_occupancy(t, block, vgprs, 0, -1, lds, &o))
        return fail_occ(k, "rb_hip_target_occupancy", hipErrorInvalidValue);
    int active = 0;
    hipError_t err = hipOccupancyMaxActiveBlocksPerMultiprocessor(&active, func, block,
                                                                  (size_t)k->smem_dynamic);
    if (err == hipSuccess) {
        snprintf(k->source, sizeof k->source, "hip-runtime+%s", t->arch);
    } else {
        (void)hipGetLastError();
        active = o.blocks;
        snprintf(k->source, sizeof k->source, "hip-targets:%s", t->arch);
    }
    k->active_blocks = active;
    double f = (double)active * o.waves_block / (t->simds * t->waves_simd);
    k->occupancy = f > 1 ? 1 : f;
    snprintf(k->limiter, sizeof k->limiter, "%s", active == o.blocks ? o.limiter : "");
    return 0;
}
#endif

int rb_hip_occupancy(const void *func, int block, size_t dyn_smem, const char *name,
                     struct rb_occ_kernel *k)
{
    rb_occ_kernel_clear(k, name, block);
    hipFuncAttributes fa;
    hipError_t err = hipFuncGetAttributes(&fa, func);
    if (err != hipSuccess)
        return fail_occ(k, "hipFuncGetAttributes", err);
    k->regs = fa.numRegs;
    k->smem_static = (long long)fa.sharedSizeBytes;
    k->smem_dynamic = (long long)dyn_smem;
    k->local_bytes = (long long)fa.localSizeBytes;
    int active = 0, dev = 0;
    if ((err = hipGetDevice(&dev)) != hipSuccess)
        return fail_occ(k, "hipGetDevice", err);
#ifndef __HIP_PLATFORM_NVIDIA__
    /* A target of harness/backend/hip_targets.c: its model, checked against
     * the runtime's count where the runtime gives one. */
    hipDeviceProp_t p;
    const struct rb_hip_target *t = NULL;
    if (hipGetDeviceProperties(&p, dev) == hipSuccess)
        t = rb_hip_target_find(p.gcnArchName);
    (void)hipGetLastError();
    if (t)
        return target_occupancy(k, t, func, block, fa.numRegs,
                                k->smem_static + k->smem_dynamic);
#endif
    err = hipOccupancyMaxActiveBlocksPerMultiprocessor(&active, func, block, dyn_smem);
    if (err != hipSuccess)
        return fail_occ(k, "hipOccupancyMaxActive...", err);
    struct rb_occ_limits lim = {
        .warp_size = attr(hipDeviceAttributeWarpSize, dev),
        .max_threads_sm = attr(hipDeviceAttributeMaxThreadsPerMultiProcessor, dev),
        .max_blocks_sm = -1,
        .max_threads_block = fa.maxThreadsPerBlock,
        .regs_sm = attr(hipDeviceAttributeMaxRegistersPerMultiprocessor, dev),
        .reg_unit = 0,
        .reg_partitions = 1,
        .smem_sm = attr(hipDeviceAttributeMaxSharedMemoryPerMultiprocessor, dev),
        .smem_unit = 0,
        .smem_reserved = 0,
    };
#ifdef __HIP_PLATFORM_NVIDIA__
    /* As in cuda.cu: CUDA's allocation units (cuda_occupancy.h). */
    lim.max_blocks_sm = attr(hipDeviceAttributeMaxBlocksPerMultiProcessor, dev);
    lim.reg_unit = 256;
    lim.reg_partitions = 4;
    lim.smem_unit = 128;
#endif
    k->active_blocks = active;
    k->occupancy = rb_occ_fraction(&lim, block, active);
    snprintf(k->source, sizeof k->source, "hip-runtime");
    if (block > fa.maxThreadsPerBlock) {
        snprintf(k->limiter, sizeof k->limiter, "block > kernel max %d", fa.maxThreadsPerBlock);
        return 0;
    }
    /* On AMD the register file is per SIMD and VGPRs are granular: the
     * bounds are approximate, so the limiter may stay empty. */
    struct rb_occ_bounds b;
    rb_occ_bounds(&lim, block, fa.numRegs, k->smem_static + k->smem_dynamic, &b);
    snprintf(k->limiter, sizeof k->limiter, "%s", rb_occ_limiter(&b, active));
    return 0;
}
