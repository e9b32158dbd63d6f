/* SPDX-License-Identifier: MIT */
/* OpenCL device choice, context and profiling queue, events, error names. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "harness/backend/opencl.h"
#include "harness/cli/env.h"

/* Status names by -code; the 2.x and 3.0 codes are spelled out because the
 * 1.2 headers this is built against do not define them. */
static const char *const cl_errors[] = {
    [0] = "CL_SUCCESS", [1] = "CL_DEVICE_NOT_FOUND", [2] = "CL_DEVICE_NOT_AVAILABLE",
    [3] = "CL_COMPILER_NOT_AVAILABLE", [4] = "CL_MEM_OBJECT_ALLOCATION_FAILURE",
    [5] = "CL_OUT_OF_RESOURCES", [6] = "CL_OUT_OF_HOST_MEMORY",
    [7] = "CL_PROFILING_INFO_NOT_AVAILABLE", [8] = "CL_MEM_COPY_OVERLAP",
    [9] = "CL_IMAGE_FORMAT_MISMATCH", [10] = "CL_IMAGE_FORMAT_NOT_SUPPORTED",
    [11] = "CL_BUILD_PROGRAM_FAILURE", [12] = "CL_MAP_FAILURE",
    [13] = "CL_MISALIGNED_SUB_BUFFER_OFFSET",
    [14] = "CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST",
    [15] = "CL_COMPILE_PROGRAM_FAILURE", [16] = "CL_LINKER_NOT_AVAILABLE",
    [17] = "CL_LINK_PROGRAM_FAILURE", [18] = "CL_DEVICE_PARTITION_FAILED",
    [19] = "CL_KERNEL_ARG_INFO_NOT_AVAILABLE",
    [30] = "CL_INVALID_VALUE", [31] = "CL_INVALID_DEVICE_TYPE", [32] = "CL_INVALID_PLATFORM",
    [33] = "CL_INVALID_DEVICE", [34] = "CL_INVALID_CONTEXT",
    [35] = "CL_INVALID_QUEUE_PROPERTIES", [36] = "CL_INVALID_COMMAND_QUEUE",
    [37] = "CL_INVALID_HOST_PTR", [38] = "CL_INVALID_MEM_OBJECT",
    [39] = "CL_INVALID_IMAGE_FORMAT_DESCRIPTOR", [40] = "CL_INVALID_IMAGE_SIZE",
    [41] = "CL_INVALID_SAMPLER", [42] = "CL_INVALID_BINARY",
    [43] = "CL_INVALID_BUILD_OPTIONS", [44] = "CL_INVALID_PROGRAM",
    [45] = "CL_INVALID_PROGRAM_EXECUTABLE", [46] = "CL_INVALID_KERNEL_NAME",
    [47] = "CL_INVALID_KERNEL_DEFINITION", [48] = "CL_INVALID_KERNEL",
    [49] = "CL_INVALID_ARG_INDEX", [50] = "CL_INVALID_ARG_VALUE",
    [51] = "CL_INVALID_ARG_SIZE", [52] = "CL_INVALID_KERNEL_ARGS",
    [53] = "CL_INVALID_WORK_DIMENSION", [54] = "CL_INVALID_WORK_GROUP_SIZE",
    [55] = "CL_INVALID_WORK_ITEM_SIZE", [56] = "CL_INVALID_GLOBAL_OFFSET",
    [57] = "CL_INVALID_EVENT_WAIT_LIST", [58] = "CL_INVALID_EVENT",
    [59] = "CL_INVALID_OPERATION", [60] = "CL_INVALID_GL_OBJECT",
    [61] = "CL_INVALID_BUFFER_SIZE", [62] = "CL_INVALID_MIP_LEVEL",
    [63] = "CL_INVALID_GLOBAL_WORK_SIZE", [64] = "CL_INVALID_PROPERTY",
    [65] = "CL_INVALID_IMAGE_DESCRIPTOR", [66] = "CL_INVALID_COMPILER_OPTIONS",
    [67] = "CL_INVALID_LINKER_OPTIONS", [68] = "CL_INVALID_DEVICE_PARTITION_COUNT",
    [69] = "CL_INVALID_PIPE_SIZE", [70] = "CL_INVALID_DEVICE_QUEUE",
    [71] = "CL_INVALID_SPEC_ID", [72] = "CL_MAX_SIZE_RESTRICTION_EXCEEDED",
};

const char *rb_cl_strerror(cl_int err)
{
    if (err <= 0 && -err < (cl_int)(sizeof cl_errors / sizeof cl_errors[0])
        && cl_errors[-err])
        return cl_errors[-err];
    if (err == -1001)
        return "CL_PLATFORM_NOT_FOUND_KHR";     /* the ICD loader found no platform */
    return "unknown OpenCL error";
}

static int platform_gpu(cl_platform_id p, cl_device_id *dev, int *index)
{
    cl_uint n = 0;
    if (clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 0, NULL, &n) != CL_SUCCESS || n == 0)
        return 0;
    cl_device_id *ids = malloc(n * sizeof *ids);
    int found = 0;
    if (ids && clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, n, ids, NULL) == CL_SUCCESS) {
        for (cl_uint i = 0; i < n && !found; i++) {
            cl_device_type type = 0;
            clGetDeviceInfo(ids[i], CL_DEVICE_TYPE, sizeof type, &type, NULL);
            if (type & CL_DEVICE_TYPE_GPU) {
                *dev = ids[i];
                *index = (int)i;
                found = 1;
            }
        }
    }
    free(ids);
    return found;
}

/* Pick (platform, device) by the rule in opencl.h; 0 or RB_ENODEV. */
static int choose_device(struct rb_ctx *ctx, struct rb_opencl *cl, char *why, size_t len)
{
    const struct rb_device_pick *k = &ctx->device[RB_BACKEND_OPENCL];
    int want_p = k->platform >= 0 ? k->platform : rb_env_index("RB_CL_PLATFORM");
    int want_d = k->index >= 0 ? k->index : rb_env_index("RB_CL_DEVICE");
    cl_uint np = 0;
    cl_int err = clGetPlatformIDs(0, NULL, &np);
    if (err != CL_SUCCESS || np == 0) {
        snprintf(why, len, "no OpenCL platform (clGetPlatformIDs: %s (%d))",
                 err == CL_SUCCESS ? "0 platforms" : rb_cl_strerror(err), (int)err);
        return RB_ENODEV;
    }
    cl_platform_id ps[64];
    if (np > 64)
        np = 64;
    clGetPlatformIDs(np, ps, NULL);
    if (want_p >= (int)np) {
        snprintf(why, len, "OpenCL platform %d does not exist (%u found)", want_p, np);
        return RB_ENODEV;
    }
    int p = want_p;
    if (p < 0) {                    /* the first platform with a GPU, else the first */
        for (cl_uint i = 0; i < np && p < 0; i++) {
            cl_device_id d;
            int di;
            if (platform_gpu(ps[i], &d, &di))
                p = (int)i;
        }
        if (p < 0)
            p = 0;
    }
    cl_uint nd = 0;
    err = clGetDeviceIDs(ps[p], CL_DEVICE_TYPE_ALL, 0, NULL, &nd);
    if (err != CL_SUCCESS || nd == 0) {
        snprintf(why, len, "no OpenCL device on platform %d (clGetDeviceIDs: %s (%d))", p,
                 err == CL_SUCCESS ? "0 devices" : rb_cl_strerror(err), (int)err);
        return RB_ENODEV;
    }
    if (want_d >= (int)nd) {
        snprintf(why, len, "OpenCL device %d.%d does not exist (%u on platform %d)", p,
                 want_d, nd, p);
        return RB_ENODEV;
    }
    cl->platform = ps[p];
    cl->platform_index = p;
    if (want_d < 0 && platform_gpu(ps[p], &cl->device, &cl->device_index))
        return 0;
    cl_device_id ds[64];
    if (nd > 64)
        nd = 64;
    clGetDeviceIDs(ps[p], CL_DEVICE_TYPE_ALL, nd, ds, NULL);
    cl->device_index = want_d < 0 ? 0 : want_d;
    cl->device = ds[cl->device_index];
    return 0;
}

/* Compute capability and warp size on NVIDIA (cl_nv_device_attribute_query). */
static void query_nv(struct rb_opencl *cl)
{
    char ext[4096] = "";
    clGetDeviceInfo(cl->device, CL_DEVICE_EXTENSIONS, sizeof ext - 1, ext, NULL);
    if (!strstr(ext, "cl_nv_device_attribute_query"))
        return;
    cl_uint v;
    if (clGetDeviceInfo(cl->device, 0x4000, sizeof v, &v, NULL) == CL_SUCCESS)
        cl->nv_cc_major = (int)v;
    if (clGetDeviceInfo(cl->device, 0x4001, sizeof v, &v, NULL) == CL_SUCCESS)
        cl->nv_cc_minor = (int)v;
    if (clGetDeviceInfo(cl->device, 0x4002, sizeof v, &v, NULL) == CL_SUCCESS)
        cl->nv_regs_per_block = (int)v;
    if (clGetDeviceInfo(cl->device, 0x4003, sizeof v, &v, NULL) == CL_SUCCESS)
        cl->nv_warp_size = (int)v;
}

static int create(struct rb_ctx *ctx, struct rb_opencl *cl, char *why, size_t len)
{
    int rc = choose_device(ctx, cl, why, len);
    if (rc)
        return rc;
    clGetDeviceInfo(cl->device, CL_DEVICE_NAME, sizeof cl->name - 1, cl->name, NULL);
    clGetDeviceInfo(cl->device, CL_DEVICE_TYPE, sizeof cl->type, &cl->type, NULL);
    clGetPlatformInfo(cl->platform, CL_PLATFORM_NAME, sizeof cl->platform_name - 1,
                      cl->platform_name, NULL);
    query_nv(cl);
    cl_context_properties props[] = {
        CL_CONTEXT_PLATFORM, (cl_context_properties)cl->platform, 0
    };
    cl_int err;
    cl->context = clCreateContext(props, 1, &cl->device, NULL, NULL, &err);
    if (err != CL_SUCCESS) {
        snprintf(why, len, "clCreateContext on %s: %s (%d)", cl->name, rb_cl_strerror(err),
                 (int)err);
        return RB_EDEVICE;
    }
    cl->queue = clCreateCommandQueue(cl->context, cl->device, CL_QUEUE_PROFILING_ENABLE, &err);
    if (err != CL_SUCCESS) {
        snprintf(why, len, "clCreateCommandQueue on %s: %s (%d)", cl->name,
                 rb_cl_strerror(err), (int)err);
        clReleaseContext(cl->context);
        cl->context = NULL;
        return RB_EDEVICE;
    }
    return 0;
}

int rb_opencl_get(struct rb_ctx *ctx, struct rb_opencl **out, char *why, size_t len)
{
    struct rb_opencl *cl = ctx->backend[RB_BACKEND_OPENCL];
    if (cl) {
        *out = cl;
        return 0;
    }
    cl = calloc(1, sizeof *cl);
    if (!cl) {
        snprintf(why, len, "out of host memory");
        return RB_ENOMEM;
    }
    int rc = create(ctx, cl, why, len);
    if (rc) {
        free(cl);
        return rc;
    }
    ctx->backend[RB_BACKEND_OPENCL] = cl;
    *out = cl;
    return 0;
}

int rb_opencl_available(struct rb_ctx *ctx, char *why, size_t len)
{
    struct rb_opencl *cl;
    return rb_opencl_get(ctx, &cl, why, len) == 0;
}

void rb_opencl_release(struct rb_ctx *ctx)
{
    struct rb_opencl *cl = ctx->backend[RB_BACKEND_OPENCL];
    if (!cl)
        return;
    for (int i = 0; i < cl->nprograms; i++) {
        clReleaseProgram(cl->programs[i].program);
        free(cl->programs[i].options);
    }
    free(cl->programs);
    if (cl->queue)
        clReleaseCommandQueue(cl->queue);
    if (cl->context)
        clReleaseContext(cl->context);
    free(cl);
    ctx->backend[RB_BACKEND_OPENCL] = NULL;
}

double rb_opencl_event_ms(cl_event ev)
{
    cl_ulong start = 0, end = 0;
    if (clWaitForEvents(1, &ev) != CL_SUCCESS
        || clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, sizeof start, &start,
                                   NULL) != CL_SUCCESS
        || clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof end, &end,
                                   NULL) != CL_SUCCESS
        || end < start)
        return -1;
    return (double)(end - start) * 1e-6;
}
