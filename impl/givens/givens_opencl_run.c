/* SPDX-License-Identifier: MIT */
/* The timed regions of the OpenCL Givens variants: the launch sequences of
 * the paper's per-block kernels and of the fused kernels, timed by the
 * profiling events of their first and last commands. */
#include <stdlib.h>
#include "harness/run/fault.h"
#include "impl/givens/givens_opencl_run.h"

static size_t round_up(size_t x, size_t to)
{
    return (x + to - 1) / to * to;
}

static void events_release(struct givens_opencl *s)
{
    if (s->first)
        clReleaseEvent(s->first);
    if (s->last)
        clReleaseEvent(s->last);
    s->first = s->last = NULL;
}

/* c->device_ms from the start of the first command to the end of the last:
 * an in-order queue, so this is the whole region, gaps between launches
 * included, as a CUDA event pair around the same launches would measure. */
static int time_span(struct rb_case *c, struct givens_opencl *s)
{
    cl_ulong start = 0, end = 0;
    RB_CL_CHECK(c, clWaitForEvents(1, &s->last));
    RB_CL_CHECK(c, clGetEventProfilingInfo(s->first, CL_PROFILING_COMMAND_START, sizeof start,
                                           &start, NULL));
    RB_CL_CHECK(c, clGetEventProfilingInfo(s->last, CL_PROFILING_COMMAND_END, sizeof end, &end,
                                           NULL));
    c->device_ms = end > start ? (double)(end - start) * 1e-6 : 0.0;
    return 0;
}

static int set_step(struct rb_case *c, struct givens_opencl *s, int k, int step)
{
    RB_CL_CHECK(c, clSetKernelArg(s->k[k], 3, sizeof step, &step));
    return 0;
}

/* Kernel k over (cols rounded up to its group size) x rows work-items, in
 * groups of (s->local[k], 1). */
static int launch(struct rb_case *c, struct givens_opencl *s, int k, size_t cols, size_t rows,
                  cl_event *ev)
{
    const size_t local[2] = { s->local[k], 1 };
    const size_t global[2] = { round_up(cols, s->local[k]), rows };
    RB_CL_CHECK(c, clEnqueueNDRangeKernel(s->cl->queue, s->k[k], 2, NULL, global,
                                          RB_FAULT_POINT(c, launch, local), 0, NULL, ev));
    return 0;
}

int givens_opencl_run_paper_forward(struct rb_case *c)
{
    struct givens_opencl *s = c->state;
    int rc;
    events_release(s);
    if ((rc = launch(c, s, GIVENS_CL_IDENTITY, (size_t)s->n, (size_t)s->n, &s->first)))
        return rc;
    for (int step = s->steps - 1; step >= 0; step--)
        if ((rc = set_step(c, s, GIVENS_CL_STEP, step))
            || (rc = launch(c, s, GIVENS_CL_STEP, (size_t)s->n, (size_t)s->S,
                            step == 0 ? &s->last : NULL)))
            return rc;
    return time_span(c, s);
}

size_t givens_opencl_slabs(int ncols, int width)
{
    return (size_t)((ncols + width - 1) / width);
}

int givens_opencl_enqueue_sweep(struct rb_case *c, struct givens_opencl *s, int k,
                                size_t groups, cl_event *first, cl_event *last)
{
    const size_t tl = s->local[GIVENS_CL_TABLE], T = s->local[k];
    const size_t tg = round_up((size_t)s->nsteps * (size_t)s->S, tl), fg = groups * T;
    RB_CL_CHECK(c, clEnqueueNDRangeKernel(s->cl->queue, s->k[GIVENS_CL_TABLE], 1, NULL, &tg,
                                          RB_FAULT_POINT(c, launch, &tl), 0, NULL, first));
    RB_CL_CHECK(c, clEnqueueNDRangeKernel(s->cl->queue, s->k[k], 1, NULL, &fg,
                                          RB_FAULT_POINT(c, launch, &T), 0, NULL, last));
    return 0;
}

/* The table, one sweep and, for the backwards, the finish kernel that sums
 * the groups' parts into dtheta. */
int givens_opencl_run_fused(struct rb_case *c)
{
    struct givens_opencl *s = c->state;
    static const int sweep[] = {
        [GIVENS_CL_FUSED_FORWARD] = GIVENS_CL_FUSED,
        [GIVENS_CL_APPLY_FORWARD] = GIVENS_CL_APPLY,
        [GIVENS_CL_FUSED_BACKWARD] = GIVENS_CL_BACKWARD,
        [GIVENS_CL_APPLY_BACKWARD] = GIVENS_CL_APPLY_JVP,
    };
    const int two = givens_cl_two_matrices(s->kind);
    const size_t groups = two ? (size_t)s->groups
                              : givens_opencl_slabs(givens_cl_apply(s->kind) ? s->nb : s->n,
                                                    s->width * s->cgroups);
    events_release(s);
    int rc = givens_opencl_enqueue_sweep(c, s, sweep[s->kind], groups, &s->first,
                                         two ? NULL : &s->last);
    if (rc == 0 && two)
        rc = launch(c, s, GIVENS_CL_FINISH, (size_t)s->steps * (size_t)s->S, 1, &s->last);
    return rc ? rc : time_span(c, s);
}

/* out = in^T through the tiled transpose. */
static int transpose(struct rb_case *c, struct givens_opencl *s, cl_mem in, cl_mem out,
                     cl_event *ev)
{
    cl_kernel k = s->k[GIVENS_CL_TRANSPOSE];
    const size_t t = (size_t)s->tile, local[2] = { t, t };
    const size_t global[2] = { round_up((size_t)s->n, t), round_up((size_t)s->n, t) };
    RB_CL_CHECK(c, clSetKernelArg(k, 1, sizeof in, &in));
    RB_CL_CHECK(c, clSetKernelArg(k, 2, sizeof out, &out));
    RB_CL_CHECK(c, clEnqueueNDRangeKernel(s->cl->queue, k, 2, NULL, global,
                                          RB_FAULT_POINT(c, launch, local), 0, NULL, ev));
    return 0;
}

/* Algorithm 3: M <- Gamma^T, V <- U^T, then per block (last first) rotate,
 * fill A and sum its rows into the block's angles. */
int givens_opencl_run_paper_backward(struct rb_case *c)
{
    struct givens_opencl *s = c->state;
    const size_t n = (size_t)s->n, S = (size_t)s->S;
    int rc;
    events_release(s);
    if ((rc = transpose(c, s, s->gamma, s->M, &s->first))
        || (rc = transpose(c, s, s->U, s->V, NULL)))
        return rc;
    for (int step = s->steps - 1; step >= 0; step--)
        if ((rc = set_step(c, s, GIVENS_CL_ROTATE, step))
            || (rc = launch(c, s, GIVENS_CL_ROTATE, n, S, NULL))
            || (rc = set_step(c, s, GIVENS_CL_SET_A, step))
            || (rc = launch(c, s, GIVENS_CL_SET_A, n, S, NULL))
            || (rc = set_step(c, s, GIVENS_CL_ROW_SUM, step))
            || (rc = launch(c, s, GIVENS_CL_ROW_SUM, S * s->local[GIVENS_CL_ROW_SUM], 1,
                            step == 0 ? &s->last : NULL)))
            return rc;
    return time_span(c, s);
}

int givens_opencl_form_u_rotate(struct rb_case *c, struct givens_opencl *s)
{
    const size_t nn = (size_t)s->n * s->n, bytes = nn * s->sz;
    char *eye = calloc(nn, s->sz);
    if (!eye)
        return rb_fail(c, RB_ENOMEM, "identity for n=%d", s->n);
    for (size_t r = 0; r < (size_t)s->n; r++) {
        if (s->sz == sizeof(double))
            ((double *)eye)[r * s->n + r] = 1.0;
        else
            ((float *)eye)[r * s->n + r] = 1.0f;
    }
    cl_command_queue q = s->cl->queue;
    cl_int err = clEnqueueWriteBuffer(q, s->M, CL_TRUE, 0, bytes, eye, 0, NULL, NULL);
    if (err == CL_SUCCESS)
        err = clEnqueueWriteBuffer(q, s->V, CL_TRUE, 0, bytes, eye, 0, NULL, NULL);
    free(eye);
    RB_CL_CHECK(c, err);
    int rc;
    for (int step = s->steps - 1; step >= 0; step--)
        if ((rc = set_step(c, s, GIVENS_CL_ROTATE, step))
            || (rc = launch(c, s, GIVENS_CL_ROTATE, (size_t)s->n, (size_t)s->S, NULL)))
            return rc;
    RB_CL_CHECK(c, clEnqueueCopyBuffer(q, s->M, s->U, 0, 0, bytes, 0, NULL, NULL));
    RB_CL_CHECK(c, clFinish(q));
    return 0;
}
