/* SPDX-License-Identifier: MIT */
/* The timed region of the OpenCL Sammon variants: y0 copied to the first
 * iterate, then `iters` Jacobi steps as each kind launches them, timed by the
 * profiling events of the first and last commands. */
#include "harness/run/fault.h"
#include "impl/sammon/sammon_case.h"
#include "impl/sammon/sammon_opencl.h"

static size_t round_up(size_t x, size_t to)
{
    return (x + to - 1) / to * to;
}

static void events_release(struct sammon_opencl *b)
{
    if (b->first)
        clReleaseEvent(b->first);
    if (b->last)
        clReleaseEvent(b->last);
    b->first = b->last = NULL;
}

/* c->device_ms from the start of the first command to the end of the last:
 * an in-order queue, so the whole region with the gaps between launches, as
 * a CUDA event pair around the same launches would measure. */
static int time_span(struct rb_case *c, struct sammon_opencl *b)
{
    cl_ulong start = 0, end = 0;
    RB_CL_CHECK(c, clWaitForEvents(1, &b->last));
    RB_CL_CHECK(c, clGetEventProfilingInfo(b->first, CL_PROFILING_COMMAND_START, sizeof start,
                                           &start, NULL));
    RB_CL_CHECK(c, clGetEventProfilingInfo(b->last, CL_PROFILING_COMMAND_END, sizeof end, &end,
                                           NULL));
    c->device_ms = end > start ? (double)(end - start) * 1e-6 : 0.0;
    return 0;
}

/* Kernel k over `items` work-items (rounded up to its group size) by `rows`
 * rows of groups; the event of the last iteration's last launch. */
static int launch(struct rb_case *c, struct sammon_opencl *b, int k, size_t items, size_t rows,
                  cl_event *ev)
{
    const size_t local[2] = { b->local[k], 1 };
    const size_t global[2] = { round_up(items, b->local[k]), rows };
    RB_CL_CHECK(c, clEnqueueNDRangeKernel(b->cl->queue, b->k[k], rows > 1 ? 2 : 1, NULL, global,
                                          RB_FAULT_POINT(c, launch, local), 0, NULL, ev));
    return 0;
}

/* One step y[from] -> y[1 - from]; the event of its last launch if ev. */
static int step(struct rb_case *c, struct sammon_opencl *b, int from, cl_event *ev)
{
    const cl_mem in = b->y[from], out = b->y[1 - from];
    cl_kernel k0 = b->k[SAMMON_CL_MAIN], k1 = b->k[SAMMON_CL_AFTER];
    const size_t N = (size_t)b->N;
    switch (b->kind) {
    case SAMMON_CL_STANDARD:
        RB_CL_CHECK(c, clSetKernelArg(k0, 2, sizeof in, &in));
        RB_CL_CHECK(c, clSetKernelArg(k0, 3, sizeof out, &out));
        return launch(c, b, SAMMON_CL_MAIN, N, 1, ev);
    case SAMMON_CL_MODIFIED: {          /* in place: the update follows the pairs */
        int rc = launch(c, b, SAMMON_CL_MAIN, b->pair_items, 1, NULL);
        return rc ? rc : launch(c, b, SAMMON_CL_AFTER, N * (size_t)b->m, 1, ev);
    }
    case SAMMON_CL_TILED: {
        const size_t rows = (N + (size_t)b->wg * b->ppi - 1) / ((size_t)b->wg * b->ppi);
        RB_CL_CHECK(c, clSetKernelArg(k0, 4, sizeof in, &in));
        RB_CL_CHECK(c, clSetKernelArg(k1, 2, sizeof in, &in));
        RB_CL_CHECK(c, clSetKernelArg(k1, 4, sizeof out, &out));
        int rc = launch(c, b, SAMMON_CL_MAIN, rows * (size_t)b->wg, (size_t)b->slices, NULL);
        return rc ? rc : launch(c, b, SAMMON_CL_AFTER, N, 1, ev);
    }
    }
    return 0;
}

int sammon_opencl_run(struct rb_case *c)
{
    struct sammon_state *st = c->state;
    struct sammon_opencl *b = st->backend;
    const size_t bytes = (size_t)b->N * (size_t)b->m * b->sz;
    cl_command_queue q = b->cl->queue;
    int from = 0, rc;
    events_release(b);
    RB_CL_CHECK(c, clEnqueueCopyBuffer(q, b->y0, b->y[0], 0, 0, bytes, 0, NULL, &b->first));
    if (b->kind == SAMMON_CL_MODIFIED) {   /* the update clears g; a failed run may not have */
        const float zero_f = 0;
        const double zero_d = 0;
        const void *zero = b->sz == sizeof zero_d ? (const void *)&zero_d
                                                  : (const void *)&zero_f;
        if ((rc = rb_opencl_fill(c, b->cl, b->g, zero, b->sz, bytes)))
            return rc;
    }
    for (int it = 0; it < b->iters; it++) {
        if ((rc = step(c, b, from, it == b->iters - 1 ? &b->last : NULL)))
            return rc;
        if (b->kind != SAMMON_CL_MODIFIED)
            from = 1 - from;
    }
    b->result = from;
    if (!b->last) {                     /* no iteration: the copy is the region */
        RB_CL_CHECK(c, clRetainEvent(b->first));
        b->last = b->first;
    }
    return time_span(c, b);
}
