/* SPDX-License-Identifier: MIT */
/* The CUDA backend's plumbing: device discovery and choice, versions and
 * occupancy.  Links cudart only, so it starts where no driver is present. */
#include <config.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cuda_runtime.h>
#include "harness/backend/cuda.h"
#include "harness/backend/cuda_check.h"
#include "harness/backend/occ.h"

/* The device --device picked for cuda, else device 0. */
static int cuda_index(const struct rb_ctx *ctx)
{
    const int d = ctx->device[RB_BACKEND_CUDA].index;
    return d >= 0 ? d : 0;
}


struct cuda_state {
    int device;
    char name[128];            /* as long as rb_case.device */
};

/* "13.0" from the runtime's 13000. */
static void version_text(char *buf, size_t len, int v)
{
    snprintf(buf, len, "%d.%d", v / 1000, v % 1000 / 10);
}

static int attr(enum cudaDeviceAttr a, int dev)
{
    int v = -1;
    if (cudaDeviceGetAttribute(&v, a, dev) != cudaSuccess) {
        (void)cudaGetLastError();
        return -1;
    }
    return v;
}

/* Devices present, or 0 with the runtime's own words in detail. */
static int device_count(char *detail, size_t len)
{
    int n = 0;
    cudaError_t err = cudaGetDeviceCount(&n);
    if (err != cudaSuccess) {
        (void)cudaGetLastError();
        snprintf(detail, len, "cudaGetDeviceCount: %s", cudaGetErrorString(err));
        return 0;
    }
    if (n == 0)
        snprintf(detail, len, "cudaGetDeviceCount: 0 devices");
    return n;
}

int rb_cuda_available(struct rb_ctx *ctx, char *why, size_t len)
{
    char detail[256];
    int n = device_count(detail, sizeof detail);
    if (n == 0) {
        snprintf(why, len, "no CUDA device (%s)", detail);
        return 0;
    }
    if (cuda_index(ctx) < 0 || cuda_index(ctx) >= n) {
        snprintf(why, len, "CUDA device %d does not exist (%d found)", cuda_index(ctx), n);
        return 0;
    }
    if (len)
        why[0] = '\0';
    return 1;
}

int rb_cuda_select(struct rb_case *c)
{
    struct rb_ctx *ctx = c->ctx;
    struct cuda_state *s = (struct cuda_state *)ctx->backend[RB_BACKEND_CUDA];
    if (!s) {
        if (!rb_cuda_available(ctx, c->msg, sizeof c->msg))
            return RB_ENODEV;
        s = (struct cuda_state *)calloc(1, sizeof *s);
        if (!s)
            return rb_fail(c, RB_ENOMEM, "out of host memory");
        s->device = cuda_index(ctx);
        cudaDeviceProp p;
        if (cudaGetDeviceProperties(&p, s->device) == cudaSuccess)
            snprintf(s->name, sizeof s->name, "%.*s", (int)sizeof s->name - 1, p.name);
        else
            snprintf(s->name, sizeof s->name, "CUDA device %d", s->device);
        (void)cudaGetLastError();
        ctx->backend[RB_BACKEND_CUDA] = s;
    }
    RB_CUDA_CHECK(c, cudaSetDevice(s->device));
    snprintf(c->device, sizeof c->device, "%s", s->name);
    return 0;
}

static json_t *describe(int i)
{
    cudaDeviceProp p;
    json_t *o = json_object();
    json_object_set_new(o, "backend", json_string("cuda"));
    json_object_set_new(o, "index", json_integer(i));
    if (cudaGetDeviceProperties(&p, i) != cudaSuccess) {
        (void)cudaGetLastError();
        json_object_set_new(o, "name", json_string("unreadable (cudaGetDeviceProperties failed)"));
        return o;
    }
    char cc[16], bus[32] = "";
    snprintf(cc, sizeof cc, "%d.%d", p.major, p.minor);
    json_object_set_new(o, "name", json_string(p.name));
    json_object_set_new(o, "vendor", json_string("NVIDIA"));
    json_object_set_new(o, "cc", json_string(cc));
    json_object_set_new(o, "compute_units", json_integer(p.multiProcessorCount));
    json_object_set_new(o, "memory_bytes", json_integer((json_int_t)p.totalGlobalMem));
    /* CUDA 13 dropped cudaDeviceProp::clockRate: the attributes stay (kHz). */
    int clock = attr(cudaDevAttrClockRate, i), mclock = attr(cudaDevAttrMemoryClockRate, i);
    json_object_set_new(o, "clock_mhz", json_integer(clock > 0 ? clock / 1000 : -1));
    json_object_set_new(o, "memory_clock_mhz", json_integer(mclock > 0 ? mclock / 1000 : -1));
    json_object_set_new(o, "memory_bus_bits",
                        json_integer(attr(cudaDevAttrGlobalMemoryBusWidth, i)));
    json_object_set_new(o, "l2_bytes", json_integer(attr(cudaDevAttrL2CacheSize, i)));
    json_object_set_new(o, "warp_size", json_integer(attr(cudaDevAttrWarpSize, i)));
    json_object_set_new(o, "max_threads_per_sm",
                        json_integer(attr(cudaDevAttrMaxThreadsPerMultiProcessor, i)));
    json_object_set_new(o, "max_blocks_per_sm",
                        json_integer(attr(cudaDevAttrMaxBlocksPerMultiprocessor, i)));
    json_object_set_new(o, "registers_per_sm",
                        json_integer(attr(cudaDevAttrMaxRegistersPerMultiprocessor, i)));
    json_object_set_new(o, "shared_memory_per_sm",
                        json_integer(attr(cudaDevAttrMaxSharedMemoryPerMultiprocessor, i)));
    json_object_set_new(o, "ecc", json_integer(attr(cudaDevAttrEccEnabled, i)));
    if (cudaDeviceGetPCIBusId(bus, sizeof bus, i) == cudaSuccess)
        json_object_set_new(o, "pci_bus_id", json_string(bus));
    (void)cudaGetLastError();
    int drv = 0;
    if (cudaDriverGetVersion(&drv) == cudaSuccess && drv > 0) {
        char v[16];
        version_text(v, sizeof v, drv);
        json_object_set_new(o, "driver", json_string(v));
    }
    return o;
}

int rb_cuda_devices(json_t *devices, char *why, size_t len)
{
    char detail[256];
    int n = device_count(detail, sizeof detail);
    for (int i = 0; i < n; i++)
        json_array_append_new(devices, describe(i));
    if (n == 0)
        snprintf(why, len, "no device (%s)", detail);
    return n;
}

json_t *rb_cuda_versions(void)
{
    json_t *o = json_object();
    char v[32];
    int rt = 0, drv = 0;
    if (cudaRuntimeGetVersion(&rt) == cudaSuccess) {
        version_text(v, sizeof v, rt);
        json_object_set_new(o, "runtime", json_string(v));
    }
    if (cudaDriverGetVersion(&drv) == cudaSuccess) {
        version_text(v, sizeof v, drv);
        /* 0 means no driver is installed: say so rather than "0.0". */
        json_object_set_new(o, "driver", json_string(drv > 0 ? v : "none"));
    }
    (void)cudaGetLastError();
    snprintf(v, sizeof v, "%d.%d.%d", __CUDACC_VER_MAJOR__, __CUDACC_VER_MINOR__,
             __CUDACC_VER_BUILD__);
    json_object_set_new(o, "nvcc", json_string(v));
    return o;
}

int rb_cuda_pci_bus_id(struct rb_ctx *ctx, char *bus, size_t len, char *why, size_t whylen)
{
    if (!rb_cuda_available(ctx, why, whylen))
        return RB_ENODEV;
    cudaError_t err = cudaDeviceGetPCIBusId(bus, (int)len, cuda_index(ctx));
    if (err != cudaSuccess) {
        (void)cudaGetLastError();
        snprintf(why, whylen, "cudaDeviceGetPCIBusId: %s", cudaGetErrorString(err));
        return RB_ENODEV;
    }
    return 0;
}

void rb_cuda_release(struct rb_ctx *ctx)
{
    free(ctx->backend[RB_BACKEND_CUDA]);
    ctx->backend[RB_BACKEND_CUDA] = NULL;
}

static int fail_occ(struct rb_occ_kernel *k, const char *call, cudaError_t err)
{
    (void)cudaGetLastError();
    snprintf(k->source, sizeof k->source, "%s", call);
    snprintf(k->limiter, sizeof k->limiter, "%s", cudaGetErrorName(err));
    return RB_EDEVICE;
}

int rb_cuda_occupancy(const void *func, int block, size_t dyn_smem, const char *name,
                      struct rb_occ_kernel *k)
{
    rb_occ_kernel_clear(k, name, block);
    cudaFuncAttributes fa;
    cudaError_t err = cudaFuncGetAttributes(&fa, func);
    if (err != cudaSuccess)
        return fail_occ(k, "cudaFuncGetAttributes", err);
    k->regs = fa.numRegs;
    k->smem_static = (long long)fa.sharedSizeBytes;
    k->smem_dynamic = (long long)dyn_smem;
    k->local_bytes = (long long)fa.localSizeBytes;
    int active = 0, dev = 0;
    err = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&active, func, block, dyn_smem);
    if (err != cudaSuccess)
        return fail_occ(k, "cudaOccupancyMaxActive...", err);
    if ((err = cudaGetDevice(&dev)) != cudaSuccess)
        return fail_occ(k, "cudaGetDevice", err);
    /* Register allocation unit and scheduler slices from CUDA's
     * cuda_occupancy.h (256 registers per warp, 4 slices since Maxwell). */
    struct rb_occ_limits lim = {
        .warp_size = attr(cudaDevAttrWarpSize, dev),
        .max_threads_sm = attr(cudaDevAttrMaxThreadsPerMultiProcessor, dev),
        .max_blocks_sm = attr(cudaDevAttrMaxBlocksPerMultiprocessor, dev),
        .max_threads_block = fa.maxThreadsPerBlock,
        .regs_sm = attr(cudaDevAttrMaxRegistersPerMultiprocessor, dev),
        .reg_unit = 256,
        .reg_partitions = 4,
        .smem_sm = attr(cudaDevAttrMaxSharedMemoryPerMultiprocessor, dev),
        .smem_unit = 128,
        .smem_reserved = attr(cudaDevAttrReservedSharedMemoryPerBlock, dev),
    };
    k->active_blocks = active;
    k->occupancy = rb_occ_fraction(&lim, block, active);
    snprintf(k->source, sizeof k->source, "cuda-runtime");
    if (block > fa.maxThreadsPerBlock) {
        snprintf(k->limiter, sizeof k->limiter, "block > kernel max %d", fa.maxThreadsPerBlock);
        return 0;
    }
    struct rb_occ_bounds b;
    rb_occ_bounds(&lim, block, fa.numRegs, k->smem_static + k->smem_dynamic, &b);
    snprintf(k->limiter, sizeof k->limiter, "%s", rb_occ_limiter(&b, active));
    return 0;
}
