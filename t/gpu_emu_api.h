/* SPDX-License-Identifier: MIT */
/* impl/common/gpu_api.h for the emulator (t/gpu_emu.h): the runtime calls
 * a host source spells as gpuX, and its GPU_LAUNCHes, on the CPU, so that a
 * test runs that source whole, host code and kernels.  Include after
 * t/gpu_emu.h and before the source: its own include of gpu_api.h then
 * finds this one's guard.
 *
 * Everything is synchronous: a call on a stream is done when it returns
 * and an event has passed once recorded, so what runs here is the host
 * code's logic (which buffer, which slot, what is queued, dropped and read
 * back), not its ordering on a device.  Device memory is the host's,
 * poisoned with NaN bytes where it is allocated; gpu_emu_mem says how much
 * there is, how much gpuMemGetInfo reports free (a test sets them to drive
 * a source's choices where memory is short) and what is held, so that a
 * test sees a leak.  Of gpu_api.h's names, those the sources run here
 * use. */
#ifndef RB_T_GPU_EMU_API_H
#define RB_T_GPU_EMU_API_H
#define RB_GPU_API_H

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <unordered_map>
#include "harness/error.h"
#include "harness/variant.h"

#ifdef RB_GPU_HIP
#define RB_GPU_NS rb_emu_hip
#else
#define RB_GPU_NS rb_emu_cuda
#endif

enum gpuError_t { gpuSuccess = 0, gpuErrorInvalidValue = 1, gpuErrorMemoryAllocation = 2,
                  gpuErrorInvalidConfiguration = 9 };
enum gpuMemcpyKind { gpuMemcpyHostToDevice = 1, gpuMemcpyDeviceToHost = 2,
                     gpuMemcpyDeviceToDevice = 3 };
enum { gpuStreamNonBlocking = 1, gpuDevAttrMultiProcessorCount = 16 };

/* A stream or an event: nothing to hold but its being alive. */
struct gpu_emu_object {
    int kind;                   /* 1 a stream, 2 an event */
};
typedef gpu_emu_object *gpuStream_t;
typedef gpu_emu_object *gpuEvent_t;

using dim3 = gpu_emu_dim3;

/* The device's memory (bytes), what gpuMemGetInfo reports free before
 * what is held, what is held, and the streams, events and pinned
 * buffers alive; the SMs, and the blocks of any kernel an SM holds. */
struct gpu_emu_memory {
    size_t total, reported, held;
    long objects;
    int sms, active;
};
static gpu_emu_memory gpu_emu_mem = { (size_t)1 << 30, (size_t)1 << 30, 0, 0, 2, 1 };
static std::unordered_map<void *, size_t> gpu_emu_allocs;
static gpuError_t gpu_emu_launch_error = gpuSuccess;

static inline gpuError_t gpu_emu_malloc(void **p, size_t bytes)
{
    *p = NULL;
    if (bytes > gpu_emu_mem.total - gpu_emu_mem.held)
        return gpuErrorMemoryAllocation;
    if (!(*p = std::malloc(bytes ? bytes : 1)))
        return gpuErrorMemoryAllocation;
    std::memset(*p, 0xff, bytes);       /* NaN in float and double */
    gpu_emu_allocs[*p] = bytes;
    gpu_emu_mem.held += bytes;
    return gpuSuccess;
}

/* gpu_emu_free(NULL) is the runtime's idiom for making the context. */
static inline gpuError_t gpu_emu_free(void *p)
{
    if (!p)
        return gpuSuccess;
    auto a = gpu_emu_allocs.find(p);
    if (a == gpu_emu_allocs.end())
        return gpuErrorInvalidValue;
    gpu_emu_mem.held -= a->second;
    gpu_emu_allocs.erase(a);
    std::free(p);
    return gpuSuccess;
}

static inline gpuError_t gpu_emu_host_alloc(void **p, size_t bytes)
{
    if (!(*p = std::malloc(bytes ? bytes : 1)))
        return gpuErrorMemoryAllocation;
    std::memset(*p, 0xff, bytes);
    gpu_emu_mem.objects++;
    return gpuSuccess;
}

static inline gpuError_t gpu_emu_host_free(void *p)
{
    if (p)
        gpu_emu_mem.objects--;
    std::free(p);
    return gpuSuccess;
}

static inline gpuError_t gpu_emu_mem_get_info(size_t *free_b, size_t *total_b)
{
    const size_t top = gpu_emu_mem.reported;
    *free_b = top > gpu_emu_mem.held ? top - gpu_emu_mem.held : 0;
    *total_b = gpu_emu_mem.total;
    return gpuSuccess;
}

static inline gpuError_t gpu_emu_memcpy_async(void *to, const void *from, size_t bytes,
                                              gpuMemcpyKind, gpuStream_t)
{
    std::memcpy(to, from, bytes);
    return gpuSuccess;
}

static inline gpuError_t gpu_emu_memset_async(void *p, int v, size_t bytes, gpuStream_t)
{
    std::memset(p, v, bytes);
    return gpuSuccess;
}

static inline gpuError_t gpu_emu_object_new(gpu_emu_object **o, int kind)
{
    *o = new gpu_emu_object{ kind };
    gpu_emu_mem.objects++;
    return gpuSuccess;
}

static inline gpuError_t gpu_emu_object_delete(gpu_emu_object *o)
{
    if (!o)
        return gpuErrorInvalidValue;
    gpu_emu_mem.objects--;
    delete o;
    return gpuSuccess;
}

static inline gpuError_t gpu_emu_stream_create_with_flags(gpuStream_t *s, unsigned)
{
    return gpu_emu_object_new(s, 1);
}

static inline gpuError_t gpu_emu_event_create(gpuEvent_t *e)
{
    return gpu_emu_object_new(e, 2);
}

static inline gpuError_t gpu_emu_stream_synchronize(gpuStream_t s)
{
    return s ? gpuSuccess : gpuErrorInvalidValue;
}

static inline gpuError_t gpu_emu_event_record(gpuEvent_t e, gpuStream_t s)
{
    return e && s ? gpuSuccess : gpuErrorInvalidValue;
}

/* The first error of a launch since the last call, as the runtime's. */
static inline gpuError_t gpu_emu_get_last_error(void)
{
    gpuError_t e = gpu_emu_launch_error;
    gpu_emu_launch_error = gpuSuccess;
    return e;
}

static inline gpuError_t gpu_emu_get_device(int *d)
{
    *d = 0;
    return gpuSuccess;
}

static inline gpuError_t gpu_emu_device_get_attribute(int *v, int attr, int)
{
    *v = gpu_emu_mem.sms;
    return attr == gpuDevAttrMultiProcessorCount ? gpuSuccess : gpuErrorInvalidValue;
}

static inline gpuError_t gpu_emu_occupancy(int *n, const void *, int, size_t)
{
    *n = gpu_emu_mem.active;
    return gpuSuccess;
}

static inline gpuError_t gpu_emu_device_reset(void)
{
    return gpuSuccess;
}

/* The names the sources call, as gpu_api.h maps them onto cudaX or hipX. */
#define gpuDeviceGetAttribute gpu_emu_device_get_attribute
#define gpuDeviceReset gpu_emu_device_reset
#define gpuEventCreate gpu_emu_event_create
#define gpuEventDestroy gpu_emu_object_delete
#define gpuEventRecord gpu_emu_event_record
#define gpuEventSynchronize gpu_emu_stream_synchronize
#define gpuFree gpu_emu_free
#define gpuFreeHost gpu_emu_host_free
#define gpuGetDevice gpu_emu_get_device
#define gpuGetLastError gpu_emu_get_last_error
#define gpuMalloc gpu_emu_malloc
#define gpuMallocHost gpu_emu_host_alloc
#define gpuMemGetInfo gpu_emu_mem_get_info
#define gpuMemcpyAsync gpu_emu_memcpy_async
#define gpuMemsetAsync gpu_emu_memset_async
#define gpuOccupancyMaxActiveBlocksPerMultiprocessor gpu_emu_occupancy
#define gpuStreamCreateWithFlags gpu_emu_stream_create_with_flags
#define gpuStreamDestroy gpu_emu_object_delete
#define gpuStreamSynchronize gpu_emu_stream_synchronize

#define GPU_CHECK(c, call)                                                             \
    do {                                                                               \
        gpuError_t rb_emu_err_ = (call);                                               \
        if (rb_emu_err_ != gpuSuccess)                                                 \
            return rb_fail((c), RB_EDEVICE, "%s:%d: %s: error %d (emulated)", __FILE__, \
                           __LINE__, #call, (int)rb_emu_err_);                         \
    } while (0)

#define GPU_CHECK_LAUNCH(c) GPU_CHECK((c), gpu_emu_get_last_error())

static inline int gpu_emu_available(struct rb_ctx *, char *, size_t)
{
    return 1;
}

static inline int gpu_emu_select(struct rb_case *c)
{
    std::snprintf(c->device, sizeof c->device, "the CPU emulating %d-lane warps", GPU_EMU_WAVE);
    return 0;
}

#define gpu_available gpu_emu_available
#define gpu_select gpu_emu_select

/* A launch: the limits of CUDA's (blocks of up to 1024 threads, a grid of
 * up to 65535 in y) fail it, as the runtime's configuration error; else it
 * runs to its end. */
template <class K, class... A>
static void gpu_emu_call(gpu_emu_dim3 grid, unsigned block, K kernel, A... args)
{
    if (block == 0 || block > 1024 || grid.x == 0 || grid.y == 0 || grid.y > 65535
        || grid.z != 1) {
        if (gpu_emu_launch_error == gpuSuccess)
            gpu_emu_launch_error = gpuErrorInvalidConfiguration;
        return;
    }
    gpu_emu_launch(grid.x, grid.y, block, [&] { kernel(args...); });
}

#define GPU_LAUNCH(kernel, grid, block, stream, ...) \
    ((void)(stream), gpu_emu_call(gpu_emu_dim3(grid), (block), kernel, __VA_ARGS__))

#endif
