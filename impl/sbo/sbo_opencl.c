/* SPDX-License-Identifier: MIT */
/* Admission, setup, verification and teardown of the OpenCL SBO variants:
 * the planted case of sbo_setup on the device, poisoned outputs, and the
 * shared check sbo_represent_verify. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "harness/fault.h"
#include "harness/timer.h"
#include "impl/sbo/sbo_case.h"
#include "impl/sbo/sbo_opencl.h"

/* The kernels' private arrays hold a signal of at most this dimension. */
#define SBO_CL_MAX_P 256

static int case_fused(const struct rb_case *c)
{
    return c->v->kind == SBO_KIND_FUSED;
}

static int device_fp64(const struct rb_opencl *cl)
{
    cl_device_fp_config fp = 0;
    return clGetDeviceInfo(cl->device, CL_DEVICE_DOUBLE_FP_CONFIG, sizeof fp, &fp, NULL)
           == CL_SUCCESS && fp != 0;
}

/* The device's largest work-group along dimension 0. */
static size_t max_wg(const struct rb_opencl *cl)
{
    size_t wg = 0, items[16] = { 0 };
    clGetDeviceInfo(cl->device, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof wg, &wg, NULL);
    if (clGetDeviceInfo(cl->device, CL_DEVICE_MAX_WORK_ITEM_SIZES, sizeof items, items, NULL)
        == CL_SUCCESS && items[0] && items[0] < wg)
        wg = items[0];
    return wg;
}

/* RB_ESKIP for what the device or the kernels cannot do; 0 otherwise. */
static int device_admits(struct rb_case *c, const struct rb_opencl *cl, long long wg)
{
    long long p = rb_case_param(c, "p", 64);
    if (p > SBO_CL_MAX_P)
        return rb_fail(c, RB_ESKIP, "p=%lld > the kernels' %d", p, SBO_CL_MAX_P);
    if (c->prec == RB_PREC_F64 && !device_fp64(cl))
        return rb_fail(c, RB_ESKIP, "%s has no fp64 (cl_khr_fp64)", cl->name);
    size_t most = max_wg(cl);
    if (wg < 1 || (size_t)wg > most)
        return rb_fail(c, RB_ESKIP, "wg=%lld outside 1..%zu of %s", wg, most, cl->name);
    return 0;
}

int sbo_opencl_admit(struct rb_case *c)
{
    struct rb_opencl *cl;
    char why[256];
    int rc = sbo_admit(c);
    if (rc || rb_opencl_get(c->ctx, &cl, why, sizeof why))
        return rc;                      /* setup reports a missing device */
    return device_admits(c, cl, rb_case_param(c, "wg", 64));
}

size_t sbo_opencl_footprint(const struct rb_case *c)
{
    size_t p = (size_t)rb_case_param(c, "p", 1), m = (size_t)rb_case_param(c, "signals", 1);
    size_t L = (size_t)rb_case_param(c, "blocks", 1), sz = rb_prec_size(c->prec);
    size_t dev = (p * m + L * p * p + m) * sz + m * sizeof(int);
    return sbo_footprint(c) + dev + (case_fused(c) ? 0 : L * m * sz);
}

static int buffer(struct rb_case *c, struct sbo_opencl *b, size_t bytes, cl_mem *out)
{
    cl_int err;
    bytes = RB_FAULT_POINT(c, oom, bytes);    /* RB_FAULT=oom: a size no device holds */
    *out = clCreateBuffer(b->cl->context, CL_MEM_READ_WRITE, bytes, NULL, &err);
    if (err == CL_MEM_OBJECT_ALLOCATION_FAILURE || err == CL_OUT_OF_HOST_MEMORY
        || err == CL_INVALID_BUFFER_SIZE)
        return rb_fail(c, RB_ENOMEM, "%zu bytes on %s: %s", bytes, b->cl->name,
                       rb_cl_strerror(err));
    RB_CL_CHECK(c, err);
    return 0;
}

int sbo_opencl_upload(struct rb_case *c)
{
    struct sbo_state *s = c->state;
    struct sbo_opencl *b = s->backend;
    const size_t ny = (size_t)b->p * b->m * b->sz, nd = (size_t)b->L * b->p * b->p * b->sz;
    uint64_t t0 = rb_now_ns();
    cl_int err = clEnqueueWriteBuffer(b->cl->queue, b->Y, CL_TRUE, 0, ny, s->Y, 0, NULL, NULL);
    if (err == CL_SUCCESS)
        err = clEnqueueWriteBuffer(b->cl->queue, b->D, CL_TRUE, 0, nd, s->D, 0, NULL, NULL);
    c->transfer_ms = (c->transfer_ms > 0 ? c->transfer_ms : 0) + rb_ms_since(t0);
    RB_CL_CHECK(c, err);
    return 0;
}

int sbo_opencl_poison(struct rb_case *c)
{
    struct sbo_state *s = c->state;
    struct sbo_opencl *b = s->backend;
    const float nan_f = NAN;
    const double nan_d = NAN;
    const cl_int none = -1;
    const void *pattern = b->sz == sizeof nan_d ? (const void *)&nan_d : (const void *)&nan_f;
    cl_command_queue q = b->cl->queue;
    RB_CL_CHECK(c, clEnqueueFillBuffer(q, b->energy, pattern, b->sz, 0, (size_t)b->m * b->sz,
                                       0, NULL, NULL));
    RB_CL_CHECK(c, clEnqueueFillBuffer(q, b->best, &none, sizeof none, 0,
                                       (size_t)b->m * sizeof none, 0, NULL, NULL));
    if (b->E)
        RB_CL_CHECK(c, clEnqueueFillBuffer(q, b->E, pattern, b->sz, 0,
                                           (size_t)b->L * b->m * b->sz, 0, NULL, NULL));
    RB_CL_CHECK(c, clFinish(q));
    return 0;
}

static int setup_device(struct rb_case *c, struct sbo_opencl *b)
{
    const size_t m = (size_t)b->m;
    int rc = buffer(c, b, (size_t)b->p * m * b->sz, &b->Y);
    if (!rc)
        rc = buffer(c, b, (size_t)b->L * b->p * b->p * b->sz, &b->D);
    if (!rc)
        rc = buffer(c, b, m * sizeof(cl_int), &b->best);
    if (!rc)
        rc = buffer(c, b, m * b->sz, &b->energy);
    if (!rc && !b->fused)
        rc = buffer(c, b, (size_t)b->L * m * b->sz, &b->E);
    if (!rc)
        rc = sbo_opencl_upload(c);
    if (!rc)
        rc = sbo_opencl_prepare(c, b);
    return rc ? rc : sbo_opencl_poison(c);
}

int sbo_opencl_setup(struct rb_case *c)
{
    int rc = sbo_setup(c);
    if (rc)
        return rc;
    struct sbo_state *s = c->state;
    struct sbo_opencl *b = calloc(1, sizeof *b);
    if (!b)
        return rb_fail(c, RB_ENOMEM, "SBO OpenCL state");
    s->backend = b;
    c->device_ms = -1;
    if ((rc = rb_opencl_get(c->ctx, &b->cl, c->msg, sizeof c->msg)))
        return rc;
    snprintf(c->device, sizeof c->device, "%s", b->cl->name);
    b->fused = case_fused(c);
    b->p = s->p;
    b->s = s->s;
    b->L = s->L;
    b->m = s->m;
    b->wg = (int)rb_case_param(c, "wg", 64);
    b->sz = rb_prec_size(c->prec);
    b->shape = sbo_cl_fused_shape(b->p, b->sz);
    if ((rc = device_admits(c, b->cl, b->wg)))     /* for callers that skip admit */
        return rc;
    return setup_device(c, b);
}

int sbo_opencl_verify(struct rb_case *c, struct rb_check *out)
{
    struct sbo_state *s = c->state;
    struct sbo_opencl *b = s->backend;
    cl_command_queue q = b->cl->queue;
    RB_CL_CHECK(c, clEnqueueReadBuffer(q, b->best, CL_TRUE, 0, (size_t)b->m * sizeof(int),
                                       s->best, 0, NULL, NULL));
    RB_CL_CHECK(c, clEnqueueReadBuffer(q, b->energy, CL_TRUE, 0, (size_t)b->m * b->sz,
                                       s->energy, 0, NULL, NULL));
    return sbo_represent_verify(c, out);
}

void sbo_opencl_teardown(struct rb_case *c)
{
    struct sbo_state *s = c->state;
    struct sbo_opencl *b = s ? s->backend : NULL;
    if (b) {
        if (b->cl && b->cl->queue)
            clFinish(b->cl->queue);
        if (b->first)
            clReleaseEvent(b->first);
        if (b->last)
            clReleaseEvent(b->last);
        for (int k = 0; k < SBO_CL_NKERNELS; k++)
            if (b->k[k])
                clReleaseKernel(b->k[k]);
        const cl_mem bufs[] = { b->D, b->Y, b->E, b->best, b->energy };
        for (size_t k = 0; k < sizeof bufs / sizeof bufs[0]; k++)
            if (bufs[k])
                clReleaseMemObject(bufs[k]);
        free(b);
        s->backend = NULL;
    }
    sbo_teardown(c);
}
