/* SPDX-License-Identifier: MIT */
/* Admission, setup, verification and teardown of the OpenCL Sammon variants:
 * the case's data from sammon_setup in the variant's layout on the device,
 * poisoned outputs, and the shared check sammon_verify. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "harness/fault.h"
#include "harness/timer.h"
#include "impl/sammon/sammon_case.h"
#include "impl/sammon/sammon_opencl.h"

static enum sammon_cl_kind case_kind(const struct rb_case *c)
{
    if (c->v->kind == SAMMON_KIND_MODIFIED_FLAT || c->v->kind == SAMMON_KIND_MODIFIED_TRANSPOSED)
        return SAMMON_CL_MODIFIED;
    if (c->v->kind == SAMMON_KIND_TILED)
        return SAMMON_CL_TILED;
    return SAMMON_CL_STANDARD;
}

/* The tiled design reads tiles coalesced from the transposed layout. */
static int case_transposed(const struct rb_case *c)
{
    const int k = c->v->kind;
    return k == SAMMON_KIND_TILED || k == SAMMON_KIND_STANDARD_TRANSPOSED
           || k == SAMMON_KIND_MODIFIED_TRANSPOSED;
}

/* 1 if the device's extension list names `ext` as a whole word. */
static int device_has(const struct rb_opencl *cl, const char *ext)
{
    size_t size = 0;
    if (clGetDeviceInfo(cl->device, CL_DEVICE_EXTENSIONS, 0, NULL, &size) != CL_SUCCESS)
        return 0;
    char *list = malloc(size + 1);
    int found = 0;
    if (list && clGetDeviceInfo(cl->device, CL_DEVICE_EXTENSIONS, size, list, NULL)
                    == CL_SUCCESS) {
        list[size] = '\0';
        size_t len = strlen(ext);
        for (const char *p = strstr(list, ext); p && !found; p = strstr(p + len, ext))
            found = (p == list || p[-1] == ' ') && (p[len] == ' ' || p[len] == '\0');
    }
    free(list);
    return found;
}

static int device_fp64(const struct rb_opencl *cl)
{
    cl_device_fp_config fp = 0;
    return clGetDeviceInfo(cl->device, CL_DEVICE_DOUBLE_FP_CONFIG, sizeof fp, &fp, NULL)
           == CL_SUCCESS && fp != 0;
}

/* RB_ESKIP for what the device cannot do; 0 otherwise. */
static int device_admits(struct rb_case *c, const struct rb_opencl *cl, long long wg)
{
    if (c->prec == RB_PREC_F64 && !device_fp64(cl))
        return rb_fail(c, RB_ESKIP, "%s has no fp64 (cl_khr_fp64)", cl->name);
    if (c->prec == RB_PREC_F64 && case_kind(c) == SAMMON_CL_MODIFIED
        && !device_has(cl, "cl_khr_int64_base_atomics"))
        return rb_fail(c, RB_ESKIP, "%s lacks cl_khr_int64_base_atomics, which the f64 "
                       "atomic add (a 64-bit compare-and-swap loop) needs", cl->name);
    size_t maxwg = sammon_opencl_max_wg(cl);
    if (wg < 1 || (size_t)wg > maxwg)
        return rb_fail(c, RB_ESKIP, "wg=%lld outside 1..%zu of %s", wg, maxwg, cl->name);
    return 0;
}

int sammon_opencl_admit(struct rb_case *c)
{
    struct rb_opencl *cl;
    char why[256];
    if (rb_opencl_get(c->ctx, &cl, why, sizeof why))
        return 0;                       /* setup reports it */
    return device_admits(c, cl, rb_case_param(c, "wg", 64));
}

/* The tiled partial sums are bounded by the slice cap of
 * sammon_opencl_tiling. */
size_t sammon_opencl_footprint(const struct rb_case *c)
{
    size_t N = (size_t)rb_case_param(c, "points", 0), n = (size_t)rb_case_param(c, "dim", 0);
    size_t m = (size_t)rb_case_param(c, "outdim", 0), sz = rb_prec_size(c->prec);
    size_t bytes = (N * n + 3 * N * m) * sz;
    switch (case_kind(c)) {
    case SAMMON_CL_MODIFIED:
        return bytes + N * m * sz;
    case SAMMON_CL_TILED:
        return bytes + (N < SAMMON_CL_MAX_SLICES ? N : SAMMON_CL_MAX_SLICES) * N * m * sz;
    default:
        return bytes;
    }
}

static int buffer(struct rb_case *c, struct sammon_opencl *b, size_t bytes, cl_mem *out)
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

/* dst = src with rows and columns swapped: src holds rows of w elements of
 * sz bytes each. */
static void transpose(void *dst, const void *src, size_t rows, size_t w, size_t sz)
{
    for (size_t r = 0; r < rows; r++)
        for (size_t k = 0; k < w; k++)
            memcpy((char *)dst + (k * rows + r) * sz, (const char *)src + (r * w + k) * sz, sz);
}

/* Upload the host's row-major N x w array into dst in the device's layout;
 * the time is added to c->transfer_ms. */
static int upload(struct rb_case *c, struct sammon_opencl *b, cl_mem dst, const void *src,
                  int w)
{
    size_t bytes = (size_t)b->N * (size_t)w * b->sz;
    void *tmp = NULL;
    if (b->transposed) {
        if (!(tmp = malloc(bytes)))
            return rb_fail(c, RB_ENOMEM, "%zu bytes to transpose", bytes);
        transpose(tmp, src, (size_t)b->N, (size_t)w, b->sz);
        src = tmp;
    }
    uint64_t t0 = rb_now_ns();
    cl_int err = clEnqueueWriteBuffer(b->cl->queue, dst, CL_TRUE, 0, bytes, src, 0, NULL, NULL);
    c->transfer_ms = (c->transfer_ms > 0 ? c->transfer_ms : 0) + rb_ms_since(t0);
    free(tmp);
    RB_CL_CHECK(c, err);
    return 0;
}

int sammon_opencl_poison(struct rb_case *c)
{
    struct sammon_state *st = c->state;
    struct sammon_opencl *b = st->backend;
    const float nan_f = NAN;
    const double nan_d = NAN;
    const void *pattern = b->sz == sizeof nan_d ? (const void *)&nan_d : (const void *)&nan_f;
    const size_t bytes = (size_t)b->N * (size_t)b->m * b->sz;
    const cl_mem bufs[3] = { b->y[0], b->y[1], b->g };
    const size_t sizes[3] = { bytes, bytes, bytes * (size_t)b->slices };
    for (int k = 0; k < 3; k++)
        if (bufs[k])
            RB_CL_CHECK(c, clEnqueueFillBuffer(b->cl->queue, bufs[k], pattern, b->sz, 0,
                                               sizes[k], 0, NULL, NULL));
    RB_CL_CHECK(c, clFinish(b->cl->queue));
    return 0;
}

/* The case's sizes and tunables; the device checked as admit does, for
 * callers that skip it. */
static int setup_params(struct rb_case *c, const struct sammon_state *st,
                        struct sammon_opencl *b)
{
    b->kind = case_kind(c);
    b->transposed = case_transposed(c);
    b->N = st->N;
    b->n = st->n;
    b->m = st->m;
    b->iters = st->iters;
    b->wg = (int)rb_case_param(c, "wg", 64);
    b->sz = rb_prec_size(c->prec);
    b->scale = 2.0 * st->alpha / st->c;
    b->slices = 1;
    int rc = device_admits(c, b->cl, b->wg);     /* sammon_setup checked the sizes */
    if (rc)
        return rc;
    if (b->kind == SAMMON_CL_MODIFIED)
        sammon_opencl_pairing(b);
    else if (b->kind == SAMMON_CL_TILED)
        sammon_opencl_tiling(b);
    return 0;
}

static int setup_device(struct rb_case *c, const struct sammon_state *st,
                        struct sammon_opencl *b)
{
    const size_t ym = (size_t)b->N * (size_t)b->m * b->sz;
    int rc = buffer(c, b, (size_t)b->N * (size_t)b->n * b->sz, &b->x);
    if (!rc)
        rc = buffer(c, b, ym, &b->y0);
    if (!rc)
        rc = buffer(c, b, ym, &b->y[0]);
    if (!rc && b->kind != SAMMON_CL_MODIFIED)     /* the modified update is in place */
        rc = buffer(c, b, ym, &b->y[1]);
    if (!rc && b->kind != SAMMON_CL_STANDARD)
        rc = buffer(c, b, ym * (size_t)b->slices, &b->g);
    if (!rc)
        rc = upload(c, b, b->x, st->x, b->n);
    if (!rc)
        rc = upload(c, b, b->y0, st->y0, b->m);
    if (!rc)
        rc = sammon_opencl_prepare(c, b);
    return rc ? rc : sammon_opencl_poison(c);
}

int sammon_opencl_setup(struct rb_case *c)
{
    int rc = sammon_setup(c);
    if (rc)
        return rc;
    struct sammon_state *st = c->state;
    struct sammon_opencl *b = calloc(1, sizeof *b);
    if (!b)
        return rb_fail(c, RB_ENOMEM, "sammon OpenCL state");
    st->backend = b;
    c->device_ms = -1;
    if ((rc = rb_opencl_get(c->ctx, &b->cl, c->msg, sizeof c->msg)))
        return rc;
    snprintf(c->device, sizeof c->device, "%s", b->cl->name);
    if ((rc = setup_params(c, st, b)))
        return rc;
    return setup_device(c, st, b);
}

int sammon_opencl_verify(struct rb_case *c, struct rb_check *out)
{
    struct sammon_state *st = c->state;
    struct sammon_opencl *b = st->backend;
    const size_t bytes = (size_t)b->N * (size_t)b->m * b->sz;
    void *dst = st->y;
    if (b->transposed && !(dst = malloc(bytes)))
        return rb_fail(c, RB_ENOMEM, "%zu bytes to transpose", bytes);
    cl_int err = clEnqueueReadBuffer(b->cl->queue, b->y[b->result], CL_TRUE, 0, bytes, dst, 0,
                                     NULL, NULL);
    if (err == CL_SUCCESS && b->transposed)
        transpose(st->y, dst, (size_t)b->m, (size_t)b->N, b->sz);
    if (dst != st->y)
        free(dst);
    RB_CL_CHECK(c, err);
    return sammon_verify(c, out);
}

void sammon_opencl_teardown(struct rb_case *c)
{
    struct sammon_state *st = c->state;
    struct sammon_opencl *b = st ? st->backend : NULL;
    if (b) {
        if (b->cl && b->cl->queue)
            clFinish(b->cl->queue);
        if (b->first)
            clReleaseEvent(b->first);
        if (b->last)
            clReleaseEvent(b->last);
        for (int k = 0; k < SAMMON_CL_NKERNELS; k++)
            if (b->k[k])
                clReleaseKernel(b->k[k]);
        const cl_mem bufs[] = { b->x, b->y0, b->y[0], b->y[1], b->g };
        for (size_t k = 0; k < sizeof bufs / sizeof bufs[0]; k++)
            if (bufs[k])
                clReleaseMemObject(bufs[k]);
        free(b);
        st->backend = NULL;
    }
    sammon_teardown(c);
}
