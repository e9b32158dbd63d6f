/* SPDX-License-Identifier: MIT */
/* Device limits and buffers for every OpenCL variant: create, upload, fill,
 * poison with NaN, download and release, failing the case with the status's name. */
#include "harness/backend/opencl.h"

#include <math.h>
#include "harness/run/fault.h"
#include "harness/run/timer.h"

size_t rb_opencl_device_wg(const struct rb_opencl *cl)
{
    size_t wg = 0;
    if (clGetDeviceInfo(cl->device, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof wg, &wg, NULL)
        != CL_SUCCESS)
        return 0;
    return wg;
}

size_t rb_opencl_max_wg(const struct rb_opencl *cl)
{
    size_t wg = rb_opencl_device_wg(cl), items[16] = { 0 };
    /* A one-dimensional launch is also bounded by the first dimension's limit. */
    if (clGetDeviceInfo(cl->device, CL_DEVICE_MAX_WORK_ITEM_SIZES, sizeof items, items, NULL)
        == CL_SUCCESS && items[0] && items[0] < wg)
        wg = items[0];
    return wg;
}

cl_ulong rb_opencl_local_mem(const struct rb_opencl *cl)
{
    cl_ulong bytes = 0;
    if (clGetDeviceInfo(cl->device, CL_DEVICE_LOCAL_MEM_SIZE, sizeof bytes, &bytes, NULL)
        != CL_SUCCESS)
        return 0;
    return bytes;
}

int rb_opencl_fp64(const struct rb_opencl *cl)
{
    cl_device_fp_config fp = 0;
    return clGetDeviceInfo(cl->device, CL_DEVICE_DOUBLE_FP_CONFIG, sizeof fp, &fp, NULL)
           == CL_SUCCESS && fp != 0;
}

int rb_opencl_buffer(struct rb_case *c, const struct rb_opencl *cl, size_t bytes, cl_mem *out)
{
    cl_int err;
    bytes = RB_FAULT_POINT(c, oom, bytes);      /* RB_FAULT=oom: a size no device holds */
    *out = clCreateBuffer(cl->context, CL_MEM_READ_WRITE, bytes, NULL, &err);
    /* A size the device cannot hold is the case's memory, not a broken device. */
    if (err == CL_MEM_OBJECT_ALLOCATION_FAILURE || err == CL_OUT_OF_HOST_MEMORY
        || err == CL_INVALID_BUFFER_SIZE)
        return rb_fail(c, RB_ENOMEM, "%zu bytes on %s: %s", bytes, cl->name,
                       rb_cl_strerror(err));
    RB_CL_CHECK(c, err);
    /* Some drivers (NVIDIA's) create a buffer of any size and fail at its
     * first use: one beyond the device's largest buffer is refused here
     * with the error the standard gives it. */
    cl_ulong most = 0;
    if (clGetDeviceInfo(cl->device, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof most, &most, NULL)
            == CL_SUCCESS && most > 0 && bytes > most) {
        clReleaseMemObject(*out);
        *out = NULL;
        return rb_fail(c, RB_ENOMEM, "%zu bytes on %s: CL_INVALID_BUFFER_SIZE (more than "
                       "CL_DEVICE_MAX_MEM_ALLOC_SIZE, %llu bytes)", bytes, cl->name,
                       (unsigned long long)most);
    }
    return 0;
}

int rb_opencl_upload(struct rb_case *c, const struct rb_opencl *cl, cl_mem dst, size_t offset,
                     const void *src, size_t bytes)
{
    uint64_t t0 = rb_now_ns();
    cl_int err = clEnqueueWriteBuffer(cl->queue, dst, CL_TRUE, offset, bytes, src, 0, NULL,
                                      NULL);
    c->transfer_ms = (c->transfer_ms > 0 ? c->transfer_ms : 0) + rb_ms_since(t0);
    RB_CL_CHECK(c, err);
    return 0;
}

int rb_opencl_fill(struct rb_case *c, const struct rb_opencl *cl, cl_mem buf,
                   const void *pattern, size_t pattern_size, size_t bytes)
{
    RB_CL_CHECK(c, clEnqueueFillBuffer(cl->queue, buf, pattern, pattern_size, 0, bytes, 0, NULL,
                                       NULL));
    return 0;
}

int rb_opencl_poison(struct rb_case *c, const struct rb_opencl *cl, cl_mem buf, size_t sz,
                     size_t count)
{
    const float nan_f = NAN;
    const double nan_d = NAN;
    const void *pattern = sz == sizeof nan_d ? (const void *)&nan_d : (const void *)&nan_f;
    int rc = rb_opencl_fill(c, cl, buf, pattern, sz == sizeof nan_d ? sz : sizeof nan_f,
                            count * sz);
    if (rc)
        return rc;
    /* Waited for, so that no fill runs on into a timed region. */
    RB_CL_CHECK(c, clFinish(cl->queue));
    return 0;
}

int rb_opencl_download(struct rb_case *c, const struct rb_opencl *cl, cl_mem src, size_t offset,
                       void *dst, size_t bytes)
{
    RB_CL_CHECK(c, clEnqueueReadBuffer(cl->queue, src, CL_TRUE, offset, bytes, dst, 0, NULL,
                                       NULL));
    return 0;
}

void rb_opencl_mems_release(cl_mem *const mems[], size_t n)
{
    for (size_t k = 0; k < n; k++) {
        if (*mems[k])
            clReleaseMemObject(*mems[k]);
        *mems[k] = NULL;
    }
}
