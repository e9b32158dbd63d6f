/* SPDX-License-Identifier: MIT */
/* The OpenCL Givens variants' programs: build kernels/opencl/givens_*.cl
 * with the case's defines, create the kernels a variant launches, set their
 * arguments, and report their occupancy. */
#include <stdio.h>
#include <string.h>
#include "impl/givens/givens_opencl.h"

extern const char rb_cl_givens_common[];
extern const char rb_cl_givens_paper_forward[];
extern const char rb_cl_givens_fused_forward[];
extern const char rb_cl_givens_paper_backward[];

/* Work-items per group of the rotation table kernel (any size works). */
#define TABLE_WG 64

static const char *const kernel_names[GIVENS_CL_NKERNELS] = {
    [GIVENS_CL_IDENTITY] = "givens_identity",
    [GIVENS_CL_STEP] = "givens_paper_forward_step",
    [GIVENS_CL_TABLE] = "givens_rotation_table",
    [GIVENS_CL_FUSED] = "givens_fused_forward",
    [GIVENS_CL_TRANSPOSE] = "givens_transpose",
    [GIVENS_CL_ROTATE] = "givens_paper_backward_rotate",
    [GIVENS_CL_SET_A] = "givens_paper_backward_set_a",
    [GIVENS_CL_ROW_SUM] = "givens_paper_backward_row_sum",
};

size_t givens_opencl_max_wg(const struct rb_opencl *cl)
{
    size_t wg = 0, items[16] = { 0 };
    clGetDeviceInfo(cl->device, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof wg, &wg, NULL);
    if (clGetDeviceInfo(cl->device, CL_DEVICE_MAX_WORK_ITEM_SIZES, sizeof items, items, NULL)
        == CL_SUCCESS && items[0] && items[0] < wg)
        wg = items[0];
    return wg;
}

/* Build givens_common.cl + NAME.cl with the precision's and `extra` defines,
 * and create the kernels first .. last of it. */
static int build(struct rb_case *c, struct givens_opencl *s, const char *name, const char *src,
                 const char *extra, int first, int last)
{
    char opts[256];
    int f64 = c->prec == RB_PREC_F64;
    snprintf(opts, sizeof opts, "-D REAL=%s -D GIVENS_FP64=%d %s", f64 ? "double" : "float",
             f64, extra);
    const char *const names[2] = { "givens_common", name };
    const char *const srcs[2] = { rb_cl_givens_common, src };
    cl_program prog;
    int rc = rb_opencl_program_parts(c, 2, names, srcs, opts, &prog);
    if (rc)
        return rc;
    for (int k = first; k <= last; k++) {
        cl_int err;
        s->k[k] = clCreateKernel(prog, kernel_names[k], &err);
        RB_CL_CHECK(c, err);
    }
    return 0;
}

static cl_int set_args(cl_kernel k, cl_uint first, int count, const cl_mem *mems)
{
    cl_int err = CL_SUCCESS;
    for (int a = 0; a < count && err == CL_SUCCESS; a++)
        err = clSetKernelArg(k, first + (cl_uint)a, sizeof mems[a], &mems[a]);
    return err;
}

/* n, m, nt, and step 0 for the kernels that take a step. */
static cl_int set_schedule(cl_kernel k, const struct givens_opencl *s, int with_step)
{
    const int zero = 0;
    cl_int err = clSetKernelArg(k, 0, sizeof s->n, &s->n);
    if (err == CL_SUCCESS)
        err = clSetKernelArg(k, 1, sizeof s->m, &s->m);
    if (err == CL_SUCCESS)
        err = clSetKernelArg(k, 2, sizeof s->nt, &s->nt);
    if (err == CL_SUCCESS && with_step)
        err = clSetKernelArg(k, 3, sizeof zero, &zero);
    return err;
}

static int prepare_paper_forward(struct rb_case *c, struct givens_opencl *s)
{
    char extra[64];
    snprintf(extra, sizeof extra, "-D GIVENS_WG=%d", s->wg);
    int rc = build(c, s, "givens_paper_forward", rb_cl_givens_paper_forward, extra,
                   GIVENS_CL_IDENTITY, GIVENS_CL_STEP);
    if (rc)
        return rc;
    s->local[GIVENS_CL_IDENTITY] = s->local[GIVENS_CL_STEP] = (size_t)s->wg;
    const cl_mem step_bufs[2] = { s->theta, s->U };
    RB_CL_CHECK(c, clSetKernelArg(s->k[GIVENS_CL_IDENTITY], 0, sizeof s->n, &s->n));
    RB_CL_CHECK(c, clSetKernelArg(s->k[GIVENS_CL_IDENTITY], 1, sizeof s->U, &s->U));
    RB_CL_CHECK(c, set_schedule(s->k[GIVENS_CL_STEP], s, 1));
    RB_CL_CHECK(c, set_args(s->k[GIVENS_CL_STEP], 4, 2, step_bufs));
    return 0;
}

/* The table and fused kernels for s->slots and s->cols, writing s->U.
 * RB_ESKIP when the kernel or the local memory cannot hold the group. */
static int prepare_fused(struct rb_case *c, struct givens_opencl *s)
{
    char extra[96];
    snprintf(extra, sizeof extra, "-D GIVENS_SLOTS=%d -D GIVENS_COLS=%d", s->slots, s->cols);
    int rc = build(c, s, "givens_fused_forward", rb_cl_givens_fused_forward, extra,
                   GIVENS_CL_TABLE, GIVENS_CL_FUSED);
    if (rc)
        return rc;
    size_t T = (size_t)(s->S / s->slots), xbytes = 2 * T * (size_t)s->cols * s->sz;
    cl_kernel table = s->k[GIVENS_CL_TABLE], fused = s->k[GIVENS_CL_FUSED];
    const cl_mem table_bufs[2] = { s->theta, s->cs }, fused_bufs[2] = { s->cs, s->U };
    RB_CL_CHECK(c, set_schedule(table, s, 0));
    RB_CL_CHECK(c, set_args(table, 3, 2, table_bufs));
    RB_CL_CHECK(c, clSetKernelArg(fused, 0, sizeof s->n, &s->n));
    RB_CL_CHECK(c, clSetKernelArg(fused, 1, sizeof s->nt, &s->nt));
    RB_CL_CHECK(c, set_args(fused, 2, 2, fused_bufs));
    RB_CL_CHECK(c, clSetKernelArg(fused, 4, xbytes, NULL));
    RB_CL_CHECK(c, clSetKernelArg(fused, 5, xbytes, NULL));
    struct rb_opencl_kernel_info ti, fi;
    cl_ulong local_mem = 0;
    clGetDeviceInfo(s->cl->device, CL_DEVICE_LOCAL_MEM_SIZE, sizeof local_mem, &local_mem, NULL);
    if (rb_opencl_kernel_info(s->cl, table, &ti) || rb_opencl_kernel_info(s->cl, fused, &fi))
        return rb_fail(c, RB_EDEVICE, "kernel info of the fused forward on %s", s->cl->name);
    if (fi.max_wg < T)
        return rb_fail(c, RB_ESKIP, "%zu work-items per group > the fused kernel's %zu on %s",
                       T, fi.max_wg, s->cl->name);
    if (fi.local_mem > local_mem)
        return rb_fail(c, RB_ESKIP, "%llu bytes of local memory > %llu on %s",
                       (unsigned long long)fi.local_mem, (unsigned long long)local_mem,
                       s->cl->name);
    s->local[GIVENS_CL_TABLE] = ti.max_wg < TABLE_WG ? ti.max_wg : TABLE_WG;
    s->local[GIVENS_CL_FUSED] = T;
    return 0;
}

static int prepare_paper_backward(struct rb_case *c, struct givens_opencl *s)
{
    char extra[96];
    size_t maxwg = givens_opencl_max_wg(s->cl);
    for (s->tile = 16; s->tile > 1 && (size_t)(s->tile * s->tile) > maxwg; s->tile /= 2)
        ;
    snprintf(extra, sizeof extra, "-D GIVENS_WG=%d -D GIVENS_TILE=%d", s->wg, s->tile);
    int rc = build(c, s, "givens_paper_backward", rb_cl_givens_paper_backward, extra,
                   GIVENS_CL_TRANSPOSE, GIVENS_CL_ROW_SUM);
    if (rc)
        return rc;
    s->local[GIVENS_CL_TRANSPOSE] = (size_t)s->tile;
    s->local[GIVENS_CL_ROTATE] = s->local[GIVENS_CL_SET_A] = (size_t)s->wg;
    s->local[GIVENS_CL_ROW_SUM] = (size_t)s->wg;
    const cl_mem rot[3] = { s->theta, s->M, s->V }, seta[3] = { s->M, s->V, s->A };
    const cl_mem rsum[2] = { s->A, s->dtheta };
    RB_CL_CHECK(c, clSetKernelArg(s->k[GIVENS_CL_TRANSPOSE], 0, sizeof s->n, &s->n));
    RB_CL_CHECK(c, set_schedule(s->k[GIVENS_CL_ROTATE], s, 1));
    RB_CL_CHECK(c, set_args(s->k[GIVENS_CL_ROTATE], 4, 3, rot));
    RB_CL_CHECK(c, set_schedule(s->k[GIVENS_CL_SET_A], s, 1));
    RB_CL_CHECK(c, set_args(s->k[GIVENS_CL_SET_A], 4, 3, seta));
    RB_CL_CHECK(c, set_schedule(s->k[GIVENS_CL_ROW_SUM], s, 1));
    RB_CL_CHECK(c, set_args(s->k[GIVENS_CL_ROW_SUM], 4, 2, rsum));
    return 0;
}

int givens_opencl_prepare(struct rb_case *c, struct givens_opencl *s)
{
    switch (s->kind) {
    case GIVENS_CL_PAPER_FORWARD:
        return prepare_paper_forward(c, s);
    case GIVENS_CL_FUSED_FORWARD:
        return prepare_fused(c, s);
    default:
        return prepare_paper_backward(c, s);
    }
}

/* U for the backward: the fused forward with the fewest slots per work-item
 * that fits, else the rotate fallback.  The fused kernels are released after. */
int givens_opencl_form_u(struct rb_case *c, struct givens_opencl *s)
{
    size_t maxwg = givens_opencl_max_wg(s->cl);
    int rc = RB_ESKIP;
    s->cols = 1;
    for (s->slots = 1; s->slots <= 8 && rc == RB_ESKIP; s->slots *= 2)
        if (s->S % s->slots == 0 && (size_t)(s->S / s->slots) <= maxwg) {
            rc = prepare_fused(c, s);
            if (rc == 0)
                rc = givens_opencl_enqueue_fused(c, s, NULL, NULL);
            if (rc == 0)
                RB_CL_CHECK(c, clFinish(s->cl->queue));
            for (int k = GIVENS_CL_TABLE; k <= GIVENS_CL_FUSED; k++)
                if (s->k[k]) {
                    clReleaseKernel(s->k[k]);
                    s->k[k] = NULL;
                }
        }
    if (s->cs) {
        clReleaseMemObject(s->cs);      /* the timed region does not need it */
        s->cs = NULL;
    }
    if (rc == RB_ESKIP) {
        c->msg[0] = '\0';              /* no slots value fits: not a skip of the case */
        rc = givens_opencl_form_u_rotate(c, s);
    }
    return rc;
}

void givens_opencl_occupancy(struct rb_case *c, struct rb_occ *occ)
{
    struct givens_opencl *s = c->state;
    memset(occ, 0, sizeof *occ);
    for (int k = 0; k < GIVENS_CL_NKERNELS && occ->count < RB_OCC_MAX_KERNELS; k++) {
        if (!s->k[k])
            continue;
        size_t local = s->local[k] * (k == GIVENS_CL_TRANSPOSE ? s->local[k] : 1);
        if (rb_opencl_occupancy(s->cl, s->k[k], local, &occ->k[occ->count])) {
            snprintf(occ->why, sizeof occ->why, "kernel info of %s failed", kernel_names[k]);
            return;
        }
        occ->count++;
    }
    occ->available = 1;
}
