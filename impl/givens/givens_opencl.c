/* SPDX-License-Identifier: MIT */
/* Admission, setup, verification and teardown of the OpenCL Givens variants:
 * device buffers holding the same seeded data as the CPU variants
 * (impl/givens/givens_case.c), poisoned outputs, and the shared checks. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "harness/timer.h"
#include "impl/common/rng.h"
#include "impl/common/roundrobin.h"
#include "impl/givens/givens.h"
#include "impl/givens/givens_case.h"
#include "impl/givens/givens_opencl.h"

static int case_m(const struct rb_case *c)
{
    long long m = rb_case_param(c, "m", 0);
    return m < 0 ? 0 : (int)m;
}

static enum givens_cl_kind case_kind(const struct rb_case *c)
{
    if (strcmp(c->v->algo, "backward") == 0)
        return GIVENS_CL_PAPER_BACKWARD;
    return strcmp(c->v->name, "fused") == 0 ? GIVENS_CL_FUSED_FORWARD : GIVENS_CL_PAPER_FORWARD;
}

static int device_fp64(const struct rb_opencl *cl)
{
    cl_device_fp_config fp = 0;
    return clGetDeviceInfo(cl->device, CL_DEVICE_DOUBLE_FP_CONFIG, sizeof fp, &fp, NULL)
           == CL_SUCCESS && fp != 0;
}

int givens_opencl_admit(struct rb_case *c)
{
    long long n = rb_case_param(c, "n", 0), m = case_m(c);
    if (n < 2)
        return rb_fail(c, RB_ESKIP, "n=%lld: Givens needs n >= 2", n);
    if (m > n)
        return rb_fail(c, RB_ESKIP, "m=%lld > n=%lld", m, n);
    struct rb_opencl *cl;
    char why[256];
    if (rb_opencl_get(c->ctx, &cl, why, sizeof why))
        return 0;                       /* setup reports it */
    if (c->prec == RB_PREC_F64 && !device_fp64(cl))
        return rb_fail(c, RB_ESKIP, "%s has no fp64 (cl_khr_fp64)", cl->name);
    size_t maxwg = givens_opencl_max_wg(cl);
    if (case_kind(c) != GIVENS_CL_FUSED_FORWARD) {
        long long wg = rb_case_param(c, "wg", 64);
        if (wg < 1 || (size_t)wg > maxwg)
            return rb_fail(c, RB_ESKIP, "wg=%lld outside 1..%zu of %s", wg, maxwg, cl->name);
        return 0;
    }
    long long S = rb_rr_slots((int)n), slots = rb_case_param(c, "slots", 1);
    if (slots < 1 || S % slots)
        return rb_fail(c, RB_ESKIP, "slots=%lld does not divide the %lld slots of n=%lld",
                       slots, S, n);
    if ((size_t)(S / slots) > maxwg)
        return rb_fail(c, RB_ESKIP, "%lld work-items per group (n=%lld, slots=%lld) > %zu of %s",
                       S / slots, n, slots, maxwg, cl->name);
    return 0;
}

size_t givens_opencl_footprint(const struct rb_case *c)
{
    size_t n = (size_t)rb_case_param(c, "n", 0), sz = rb_prec_size(c->prec);
    size_t count = givens_theta_count((int)n, case_m(c)), S = (size_t)rb_rr_slots((int)n);
    size_t table = (size_t)rb_rr_steps((int)n) * S * 2 * sz;
    size_t bytes = count * sz + n * n * sz;
    if (case_kind(c) == GIVENS_CL_FUSED_FORWARD)
        bytes += table;
    else if (case_kind(c) == GIVENS_CL_PAPER_BACKWARD)
        bytes += 3 * n * n * sz + S * n * sz + count * sz + table;
    return bytes;
}

/* Gamma = G X^T in the case's precision, G and X from givens_cotangent_draw. */
static void form_gamma(const struct givens_opencl *s, enum rb_prec prec, void *gamma)
{
    int n = s->n, r = GIVENS_COTANGENT_RANK;
    for (int a = 0; a < n; a++)
        for (int b = 0; b < n; b++) {
            double v = 0.0;
            for (int k = 0; k < r; k++)
                v += s->G[(size_t)a * r + k] * s->X[(size_t)b * r + k];
            if (prec == RB_PREC_F64)
                ((double *)gamma)[(size_t)a * n + b] = v;
            else
                ((float *)gamma)[(size_t)a * n + b] = (float)v;
        }
}


static int buffer(struct rb_case *c, struct givens_opencl *s, size_t bytes, cl_mem *out)
{
    cl_int err;
    *out = clCreateBuffer(s->cl->context, CL_MEM_READ_WRITE, bytes, NULL, &err);
    if (err == CL_MEM_OBJECT_ALLOCATION_FAILURE || err == CL_OUT_OF_HOST_MEMORY
        || err == CL_INVALID_BUFFER_SIZE)
        return rb_fail(c, RB_ENOMEM, "%zu bytes on %s: %s", bytes, s->cl->name,
                       rb_cl_strerror(err));
    RB_CL_CHECK(c, err);
    return 0;
}

/* Blocking copy to the device, its time added to c->transfer_ms. */
static int upload(struct rb_case *c, struct givens_opencl *s, cl_mem dst, const void *src,
                  size_t bytes)
{
    uint64_t t0 = rb_now_ns();
    RB_CL_CHECK(c, clEnqueueWriteBuffer(s->cl->queue, dst, CL_TRUE, 0, bytes, src, 0, NULL,
                                        NULL));
    c->transfer_ms = (c->transfer_ms > 0 ? c->transfer_ms : 0) + rb_ms_since(t0);
    return 0;
}

/* NaN over `count` elements, so that an output never written fails verify. */
static int poison(struct rb_case *c, struct givens_opencl *s, cl_mem buf, size_t count)
{
    float nan_f = NAN;
    double nan_d = NAN;
    const void *pattern = s->sz == sizeof nan_d ? (const void *)&nan_d : (const void *)&nan_f;
    RB_CL_CHECK(c, clEnqueueFillBuffer(s->cl->queue, buf, pattern, s->sz, 0, count * s->sz, 0,
                                       NULL, NULL));
    RB_CL_CHECK(c, clFinish(s->cl->queue));
    return 0;
}

/* Buffers, uploads and kernels; the backward also Gamma and U. */
static int setup_device(struct rb_case *c, struct givens_opencl *s, const void *theta)
{
    size_t nn = (size_t)s->n * s->n, table = (size_t)s->steps * s->S * 2 * s->sz;
    int rc = buffer(c, s, s->count * s->sz, &s->theta);
    if (!rc)
        rc = buffer(c, s, nn * s->sz, &s->U);
    if (!rc && s->kind != GIVENS_CL_PAPER_FORWARD)
        rc = buffer(c, s, table, &s->cs);
    if (!rc)
        rc = upload(c, s, s->theta, theta, s->count * s->sz);
    if (rc)
        return rc;
    if (s->kind != GIVENS_CL_PAPER_BACKWARD)
        return givens_opencl_prepare(c, s);
    void *gamma = malloc(nn * s->sz);
    if (!gamma)
        return rb_fail(c, RB_ENOMEM, "Gamma for n=%d", s->n);
    givens_cotangent_draw(c->seed, s->n, s->G, s->X);
    form_gamma(s, c->prec, gamma);
    rc = buffer(c, s, nn * s->sz, &s->gamma);
    if (!rc)
        rc = upload(c, s, s->gamma, gamma, nn * s->sz);
    free(gamma);
    if (!rc)
        rc = buffer(c, s, nn * s->sz, &s->M);
    if (!rc)
        rc = buffer(c, s, nn * s->sz, &s->V);
    if (!rc)
        rc = buffer(c, s, (size_t)s->S * s->n * s->sz, &s->A);
    if (!rc)
        rc = buffer(c, s, s->count * s->sz, &s->dtheta);
    if (!rc)
        rc = givens_opencl_prepare(c, s);
    if (!rc)
        rc = givens_opencl_form_u(c, s);
    return rc;
}

int givens_opencl_setup(struct rb_case *c)
{
    struct givens_opencl *s = calloc(1, sizeof *s);
    if (!s)
        return rb_fail(c, RB_ENOMEM, "givens state");
    c->state = s;
    c->device_ms = -1;
    int rc = rb_opencl_get(c->ctx, &s->cl, c->msg, sizeof c->msg);
    if (rc)
        return rc;
    snprintf(c->device, sizeof c->device, "%s", s->cl->name);
    s->kind = case_kind(c);
    s->n = (int)rb_case_param(c, "n", 0);
    s->m = case_m(c);
    if (s->n < 2 || s->m > s->n)
        return rb_fail(c, RB_EINVAL, "n=%d m=%d do not combine", s->n, s->m);
    if (c->prec == RB_PREC_F64 && !device_fp64(s->cl))
        return rb_fail(c, RB_ESKIP, "%s has no fp64 (cl_khr_fp64)", s->cl->name);
    s->nt = rb_rr_padded(s->n);
    s->S = rb_rr_slots(s->n);
    s->steps = rb_rr_steps(s->n);
    s->wg = (int)rb_case_param(c, "wg", 64);
    s->slots = (int)rb_case_param(c, "slots", 1);
    s->cols = (int)rb_case_param(c, "cols", 1);
    s->count = givens_theta_count(s->n, s->m);
    s->sz = rb_prec_size(c->prec);
    size_t nn = (size_t)s->n * s->n, lr = (size_t)s->n * GIVENS_COTANGENT_RANK;
    int backward = s->kind == GIVENS_CL_PAPER_BACKWARD;
    s->theta_d = malloc(s->count * sizeof *s->theta_d);
    s->out = malloc((backward ? s->count : nn) * s->sz);
    void *theta = malloc(s->count * s->sz);
    if (backward) {
        s->G = malloc(lr * sizeof *s->G);
        s->X = malloc(lr * sizeof *s->X);
    }
    if (!s->theta_d || !s->out || !theta || (backward && (!s->G || !s->X))) {
        free(theta);
        return rb_fail(c, RB_ENOMEM, "host arrays for n=%d", s->n);
    }
    givens_theta_draw(c->seed, c->prec, s->count, s->theta_d, theta);
    rc = setup_device(c, s, theta);
    free(theta);
    if (rc)
        return rc;
    return backward ? poison(c, s, s->dtheta, s->count) : poison(c, s, s->U, nn);
}

int givens_opencl_verify(struct rb_case *c, struct rb_check *out)
{
    struct givens_opencl *s = c->state;
    int rc;
    if (s->kind == GIVENS_CL_PAPER_BACKWARD) {
        RB_CL_CHECK(c, clEnqueueReadBuffer(s->cl->queue, s->dtheta, CL_TRUE, 0,
                                           s->count * s->sz, s->out, 0, NULL, NULL));
        rc = givens_check_backward(s->n, s->m, s->theta_d, s->out, c->prec, s->G, s->X,
                                   GIVENS_COTANGENT_RANK, out);
    } else {
        RB_CL_CHECK(c, clEnqueueReadBuffer(s->cl->queue, s->U, CL_TRUE, 0,
                                           (size_t)s->n * s->n * s->sz, s->out, 0, NULL, NULL));
        rc = givens_check_forward(s->n, s->m, s->theta_d, s->out, c->prec,
                                  rb_seed_derive(c->seed, "givens/probe"), out);
    }
    return rc ? rb_fail(c, rc, "verification buffers for n=%d", s->n) : 0;
}

void givens_opencl_teardown(struct rb_case *c)
{
    struct givens_opencl *s = c->state;
    if (!s)
        return;
    if (s->cl && s->cl->queue)
        clFinish(s->cl->queue);
    if (s->first)
        clReleaseEvent(s->first);
    if (s->last)
        clReleaseEvent(s->last);
    for (int k = 0; k < GIVENS_CL_NKERNELS; k++)
        if (s->k[k])
            clReleaseKernel(s->k[k]);
    cl_mem bufs[] = { s->theta, s->U, s->gamma, s->M, s->V, s->A, s->dtheta, s->cs };
    for (size_t b = 0; b < sizeof bufs / sizeof bufs[0]; b++)
        if (bufs[b])
            clReleaseMemObject(bufs[b]);
    free(s->out);
    free(s->X);
    free(s->G);
    free(s->theta_d);
    free(s);
    c->state = NULL;
}

