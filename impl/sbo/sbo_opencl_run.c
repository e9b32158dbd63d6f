/* SPDX-License-Identifier: MIT */
/* The OpenCL SBO variants' program and timed region: the build of
 * kernels/opencl/sbo_represent.cl with the case's defines, the kernels'
 * arguments, the launches timed by profiling events, and their occupancy. */
#include <stdio.h>
#include <string.h>
#include "harness/run/fault.h"
#include "impl/sbo/sbo_case.h"
#include "impl/sbo/sbo_opencl.h"

extern const char rb_cl_sbo_represent[];

static const char *const kernel_names[2][SBO_CL_NKERNELS] = {
    { "sbo_energy", "sbo_argmax" },
    { "sbo_fused", NULL },
};

static size_t round_up(size_t x, size_t to)
{
    return (x + to - 1) / to * to;
}

static int build(struct rb_case *c, struct sbo_opencl *b)
{
    char opts[160];
    int f64 = c->prec == RB_PREC_F64;
    snprintf(opts, sizeof opts, "-D REAL=%s -D SBO_FP64=%d -D SBO_P=%d -D SBO_S=%d -D SBO_SIG=%d",
             f64 ? "double" : "float", f64, b->p, b->s, b->shape.sig);
    cl_program prog;
    int rc = rb_opencl_program(c, "sbo_represent", rb_cl_sbo_represent, opts, &prog);
    if (rc)
        return rc;
    for (int k = 0; k < SBO_CL_NKERNELS; k++) {
        const char *name = kernel_names[b->fused][k];
        cl_int err;
        if (!name)
            continue;
        b->k[k] = clCreateKernel(prog, name, &err);
        RB_CL_CHECK(c, err);
    }
    return 0;
}

static cl_int set_mem(cl_kernel k, cl_uint arg, cl_mem mem)
{
    return clSetKernelArg(k, arg, sizeof mem, &mem);
}

static int set_args(struct rb_case *c, struct sbo_opencl *b)
{
    cl_kernel k0 = b->k[SBO_CL_MAIN], k1 = b->k[SBO_CL_AFTER];
    RB_CL_CHECK(c, clSetKernelArg(k0, 0, sizeof b->m, &b->m));
    if (b->fused) {                     /* m, L, rows, D, Y, best, energy, Qt */
        RB_CL_CHECK(c, clSetKernelArg(k0, 1, sizeof b->L, &b->L));
        RB_CL_CHECK(c, clSetKernelArg(k0, 2, sizeof b->shape.rows, &b->shape.rows));
        RB_CL_CHECK(c, set_mem(k0, 3, b->D));
        RB_CL_CHECK(c, set_mem(k0, 4, b->Y));
        RB_CL_CHECK(c, set_mem(k0, 5, b->best));
        RB_CL_CHECK(c, set_mem(k0, 6, b->energy));
        RB_CL_CHECK(c, clSetKernelArg(k0, 7, (size_t)b->shape.rows * b->shape.pp * b->sz,
                                      NULL));
        return 0;
    }
    RB_CL_CHECK(c, set_mem(k0, 1, b->D));       /* m, D, Y, E; m, L, E, best, energy */
    RB_CL_CHECK(c, set_mem(k0, 2, b->Y));
    RB_CL_CHECK(c, set_mem(k0, 3, b->E));
    RB_CL_CHECK(c, clSetKernelArg(k1, 0, sizeof b->m, &b->m));
    RB_CL_CHECK(c, clSetKernelArg(k1, 1, sizeof b->L, &b->L));
    RB_CL_CHECK(c, set_mem(k1, 2, b->E));
    RB_CL_CHECK(c, set_mem(k1, 3, b->best));
    RB_CL_CHECK(c, set_mem(k1, 4, b->energy));
    return 0;
}

/* RB_ESKIP when a kernel cannot take wg work-items per group, or its local
 * memory exceeds the device's (with the arguments set). */
static int check_fit(struct rb_case *c, struct sbo_opencl *b)
{
    const cl_ulong local = rb_opencl_local_mem(b->cl);
    for (int k = 0; k < SBO_CL_NKERNELS; k++) {
        struct rb_opencl_kernel_info info;
        if (!b->k[k])
            continue;
        if (rb_opencl_kernel_info(b->cl, b->k[k], &info))
            return rb_fail(c, RB_EDEVICE, "kernel info of %s on %s",
                           kernel_names[b->fused][k], b->cl->name);
        if (info.max_wg < (size_t)b->wg)
            return rb_fail(c, RB_ESKIP, "wg=%d > %s's %zu on %s", b->wg,
                           kernel_names[b->fused][k], info.max_wg, b->cl->name);
        if (local && info.local_mem > local)
            return rb_fail(c, RB_ESKIP, "%llu bytes of local memory > %llu on %s",
                           (unsigned long long)info.local_mem, (unsigned long long)local,
                           b->cl->name);
    }
    return 0;
}

int sbo_opencl_prepare(struct rb_case *c, struct sbo_opencl *b)
{
    int rc = build(c, b);
    if (!rc)
        rc = set_args(c, b);
    return rc ? rc : check_fit(c, b);
}

/* Kernel k over one work-item per `per` signals (rounded up to wg) by
 * `rows` rows of groups. */
static int launch(struct rb_case *c, struct sbo_opencl *b, int k, size_t per, size_t rows,
                  cl_event *ev)
{
    const size_t local[2] = { (size_t)b->wg, 1 };
    const size_t global[2] = { round_up(((size_t)b->m + per - 1) / per, (size_t)b->wg), rows };
    RB_CL_CHECK(c, clEnqueueNDRangeKernel(b->cl->queue, b->k[k], rows > 1 ? 2 : 1, NULL, global,
                                          RB_FAULT_POINT(c, launch, local), 0, NULL, ev));
    return 0;
}

static void events_release(struct sbo_opencl *b)
{
    if (b->first)
        clReleaseEvent(b->first);
    if (b->last)
        clReleaseEvent(b->last);
    b->first = b->last = NULL;
}

/* The paper's map over (signal, block) as a grid of m by L, then its
 * reduce; or the fused kernel alone.  device_ms from the start of the first
 * command to the end of the last (an in-order queue). */
int sbo_opencl_run(struct rb_case *c)
{
    struct sbo_state *s = c->state;
    struct sbo_opencl *b = s->backend;
    events_release(b);
    int rc = launch(c, b, SBO_CL_MAIN, b->fused ? (size_t)b->shape.sig : 1,
                    b->fused ? 1 : (size_t)b->L, &b->first);
    if (!rc && !b->fused)
        rc = launch(c, b, SBO_CL_AFTER, 1, 1, &b->last);
    if (rc)
        return rc;
    if (b->fused) {
        RB_CL_CHECK(c, clRetainEvent(b->first));
        b->last = b->first;
    }
    cl_ulong start = 0, end = 0;
    RB_CL_CHECK(c, clWaitForEvents(1, &b->last));
    RB_CL_CHECK(c, clGetEventProfilingInfo(b->first, CL_PROFILING_COMMAND_START, sizeof start,
                                           &start, NULL));
    RB_CL_CHECK(c, clGetEventProfilingInfo(b->last, CL_PROFILING_COMMAND_END, sizeof end, &end,
                                           NULL));
    c->device_ms = end > start ? (double)(end - start) * 1e-6 : 0.0;
    return 0;
}

void sbo_opencl_occupancy(struct rb_case *c, struct rb_occ *occ)
{
    struct sbo_state *s = c->state;
    struct sbo_opencl *b = s ? s->backend : NULL;
    memset(occ, 0, sizeof *occ);
    if (!b) {
        snprintf(occ->why, sizeof occ->why, "no OpenCL state (setup failed)");
        return;
    }
    for (int k = 0; k < SBO_CL_NKERNELS && occ->count < RB_OCC_MAX_KERNELS; k++) {
        if (!b->k[k])
            continue;
        if (rb_opencl_occupancy(b->cl, b->k[k], (size_t)b->wg, &occ->k[occ->count])) {
            snprintf(occ->why, sizeof occ->why, "kernel info of %s failed",
                     kernel_names[b->fused][k]);
            return;
        }
        occ->count++;
    }
    occ->available = 1;
}
