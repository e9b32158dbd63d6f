/* SPDX-License-Identifier: MIT */
/* The OpenCL device's ceilings for the roofline: clEnqueueCopyBuffer of a
 * large buffer and the FMA kernel of kernels/opencl/rb_ceiling.cl, both
 * timed with profiling events. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "harness/backend/opencl.h"
#include "harness/run/ceiling.h"

extern const char rb_cl_rb_ceiling[];

/* The copy's buffers: 256 MiB, or a quarter of the largest allocation. */
#define COPY_MAX_BYTES ((size_t)256 << 20)
#define REPEATS 3
/* An FMA timing at least this long is trusted; the iterations double until
 * one is. */
#define FMA_MIN_MS 20.0
#define FMA_CHAINS 8
/* Work-items per compute unit: enough to fill a GPU's schedulers. */
#define FMA_ITEMS_PER_CU 2048
/* Work-items per group, a multiple of every SIMD width (and one a CPU
 * runtime can vectorise across). */
#define FMA_GROUP 64

/* The bytes read plus written per second of a buffer-to-buffer copy, best of
 * REPEATS after one untimed; 0 or the failing status in c->msg. */
static int copy_rate(struct rb_case *c, struct rb_opencl *cl, double *gbps)
{
    cl_ulong max_alloc = 0;
    size_t bytes = COPY_MAX_BYTES;
    cl_mem a = NULL, b = NULL;
    cl_event ev = NULL;
    double best = INFINITY;
    cl_float fill = 1.0f;
    cl_int err;
    int rc = 0;

    RB_CL_CHECK(c, clGetDeviceInfo(cl->device, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof max_alloc,
                                   &max_alloc, NULL));
    if (bytes > max_alloc / 4)
        bytes = (size_t)(max_alloc / 4) & ~(size_t)4095;
    a = clCreateBuffer(cl->context, CL_MEM_READ_WRITE, bytes, NULL, &err);
    RB_CL_CHECK_GOTO(c, err, rc, out_release);
    b = clCreateBuffer(cl->context, CL_MEM_READ_WRITE, bytes, NULL, &err);
    RB_CL_CHECK_GOTO(c, err, rc, out_release);
    /* Untouched pages may all map one zero page, which a copy reads from
     * cache: both buffers are written first. */
    RB_CL_CHECK_GOTO(c, clEnqueueFillBuffer(cl->queue, a, &fill, sizeof fill, 0, bytes, 0, NULL,
                                            NULL), rc, out_release);
    RB_CL_CHECK_GOTO(c, clEnqueueFillBuffer(cl->queue, b, &fill, sizeof fill, 0, bytes, 0, NULL,
                                            NULL), rc, out_release);
    for (int r = 0; r <= REPEATS; r++) {
        double ms;
        RB_CL_CHECK_GOTO(c, clEnqueueCopyBuffer(cl->queue, a, b, 0, 0, bytes, 0, NULL, &ev),
                         rc, out_release);
        ms = rb_opencl_event_ms(ev);
        clReleaseEvent(ev);
        ev = NULL;
        if (ms <= 0) {
            rc = rb_fail(c, RB_EDEVICE, "copy: no profiling time");
            goto out_release;
        }
        if (r > 0 && ms < best)
            best = ms;
    }
    *gbps = 2.0 * (double)bytes / (best * 1e-3) * 1e-9;
out_release:
    if (a)
        clReleaseMemObject(a);
    if (b)
        clReleaseMemObject(b);
    return rc;
}

/* One launch of kernel k at `iters`; its time in *ms. */
static int fma_launch(struct rb_case *c, struct rb_opencl *cl, cl_kernel k, size_t items,
                      int iters, double *ms)
{
    size_t local = FMA_GROUP;
    cl_event ev = NULL;

    RB_CL_CHECK(c, clSetKernelArg(k, 0, sizeof iters, &iters));
    RB_CL_CHECK(c, clEnqueueNDRangeKernel(cl->queue, k, 1, NULL, &items, &local, 0, NULL, &ev));
    *ms = rb_opencl_event_ms(ev);
    clReleaseEvent(ev);
    if (*ms <= 0)
        return rb_fail(c, RB_EDEVICE, "FMA kernel: no profiling time");
    return 0;
}

/* GFLOP/s of kernel `name` (element size `size`) over `items` work-items. */
static int fma_rate(struct rb_case *c, struct rb_opencl *cl, cl_program p, const char *name,
                    size_t size, size_t items, double *gflops)
{
    float af = 0.999999f, bf = 1e-6f;
    double ad = 0.999999, bd = 1e-6, best = 0, ms;
    cl_int err;
    cl_mem out = NULL;
    cl_kernel k = clCreateKernel(p, name, &err);
    int iters = 64, rc = 0;

    RB_CL_CHECK(c, err);
    out = clCreateBuffer(cl->context, CL_MEM_WRITE_ONLY, items * size, NULL, &err);
    RB_CL_CHECK_GOTO(c, err, rc, out_release);
    RB_CL_CHECK_GOTO(c, clSetKernelArg(k, 1, size, size == sizeof ad ? (void *)&ad : &af),
                     rc, out_release);
    RB_CL_CHECK_GOTO(c, clSetKernelArg(k, 2, size, size == sizeof bd ? (void *)&bd : &bf),
                     rc, out_release);
    RB_CL_CHECK_GOTO(c, clSetKernelArg(k, 3, sizeof out, &out), rc, out_release);
    while ((rc = fma_launch(c, cl, k, items, iters, &best)) == 0 && best < FMA_MIN_MS
           && iters < (1 << 24))
        iters *= 2;
    for (int r = 1; rc == 0 && r < REPEATS; r++)
        if ((rc = fma_launch(c, cl, k, items, iters, &ms)) == 0 && ms < best)
            best = ms;
    if (rc == 0)
        *gflops = 2.0 * FMA_CHAINS * (double)iters * (double)items / (best * 1e-3) * 1e-9;
out_release:
    if (out)
        clReleaseMemObject(out);
    clReleaseKernel(k);
    return rc;
}

int rb_ceiling_opencl(struct rb_ctx *ctx, struct rb_ceiling *out)
{
    struct rb_case c;
    struct rb_opencl *cl;
    cl_program p;
    cl_uint cus = 1;
    cl_device_fp_config fp64 = 0;
    char options[96];
    size_t items;
    int rc;

    memset(&c, 0, sizeof c);
    c.ctx = ctx;
    c.build_ms = -1;
    rb_ceiling_clear(out);
    if ((rc = rb_opencl_get(ctx, &cl, out->error, sizeof out->error)))
        return rc;
    snprintf(out->device, sizeof out->device, "%s", cl->name);
    if ((rc = copy_rate(&c, cl, &out->copy_gbytes_per_s)))
        rb_ceiling_fail(out, "copy: %s", c.msg);
    clGetDeviceInfo(cl->device, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof cus, &cus, NULL);
    clGetDeviceInfo(cl->device, CL_DEVICE_DOUBLE_FP_CONFIG, sizeof fp64, &fp64, NULL);
    items = (size_t)(cus ? cus : 1) * FMA_ITEMS_PER_CU;
    snprintf(options, sizeof options, "-DRB_CEILING_CHAINS=%d%s", FMA_CHAINS,
             fp64 ? " -DRB_CEILING_FP64" : "");
    if ((rc = rb_opencl_program(&c, "rb_ceiling", rb_cl_rb_ceiling, options, &p))) {
        rb_ceiling_fail(out, "FMA kernel: %s", c.msg);
        return rc;
    }
    if ((rc = fma_rate(&c, cl, p, "rb_ceiling_fma_f", sizeof(float), items,
                       &out->fp32_gflops)))
        rb_ceiling_fail(out, "fp32: %s", c.msg);
    if (!fp64)
        rb_ceiling_fail(out, "fp64: the device has no cl_khr_fp64");
    else if ((rc = fma_rate(&c, cl, p, "rb_ceiling_fma_d", sizeof(double), items,
                            &out->fp64_gflops)))
        rb_ceiling_fail(out, "fp64: %s", c.msg);
    snprintf(out->method, sizeof out->method,
             "clEnqueueCopyBuffer, best of %d; FMA kernel rb_ceiling.cl, %zu work-items x %d "
             "chains, best of %d, >= %.0f ms each; profiling events", REPEATS, items,
             FMA_CHAINS, REPEATS, FMA_MIN_MS);
    return out->error[0] ? RB_EDEVICE : 0;
}
