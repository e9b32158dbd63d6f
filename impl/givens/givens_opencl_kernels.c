/* SPDX-License-Identifier: MIT */
/* The OpenCL Givens variants' programs: build kernels/opencl/givens_*.cl
 * with the case's defines, create the kernels a variant launches, set their
 * arguments, and report their occupancy. */
#include <stdio.h>
#include <string.h>
#include "impl/givens/givens_opencl_kernels.h"
#include "impl/givens/givens_opencl_run.h"

/* The kernel files, joined in this order into a program: each needs those
 * before it that it names. */
enum source {
    SRC_COMMON,
    SRC_PAPER_FORWARD,
    SRC_PAPER_BACKWARD,
    SRC_TABLE,
    SRC_SLAB,
    SRC_FUSED,
    SRC_APPLY_ENGINE,
    SRC_APPLY,
    NSOURCES
};

extern const char rb_cl_givens_common[];
extern const char rb_cl_givens_paper_forward[];
extern const char rb_cl_givens_paper_backward[];
extern const char rb_cl_givens_table[];
extern const char rb_cl_givens_slab[];
extern const char rb_cl_givens_fused[];
extern const char rb_cl_givens_apply_engine[];
extern const char rb_cl_givens_apply[];

static const char *const source_names[NSOURCES] = {
    "givens_common", "givens_paper_forward", "givens_paper_backward", "givens_table",
    "givens_slab", "givens_fused", "givens_apply_engine", "givens_apply"
};
static const char *const sources[NSOURCES] = {
    rb_cl_givens_common, rb_cl_givens_paper_forward, rb_cl_givens_paper_backward,
    rb_cl_givens_table, rb_cl_givens_slab, rb_cl_givens_fused, rb_cl_givens_apply_engine,
    rb_cl_givens_apply
};

/* Work-items per group of the table and finish kernels (any size works). */
#define AUX_WG 64

#define BIT(k) (1u << (k))

static const char *const kernel_names[GIVENS_CL_NKERNELS] = {
    [GIVENS_CL_IDENTITY] = "givens_identity",
    [GIVENS_CL_STEP] = "givens_paper_forward_step",
    [GIVENS_CL_TABLE] = "givens_rotation_table",
    [GIVENS_CL_FUSED] = "givens_fused_forward",
    [GIVENS_CL_APPLY] = "givens_fused_apply",
    [GIVENS_CL_BACKWARD] = "givens_fused_backward",
    [GIVENS_CL_APPLY_JVP] = "givens_fused_apply_backward",
    [GIVENS_CL_FINISH] = "givens_fused_backward_finish",
    [GIVENS_CL_TRANSPOSE] = "givens_transpose",
    [GIVENS_CL_ROTATE] = "givens_paper_backward_rotate",
    [GIVENS_CL_SET_A] = "givens_paper_backward_set_a",
    [GIVENS_CL_ROW_SUM] = "givens_paper_backward_row_sum",
};

/* Build the sources of the mask `srcs` (in enum order) with the precision's
 * and `extra` defines, and create the kernels of the mask `kernels`. */
static int build(struct rb_case *c, struct givens_opencl *s, unsigned srcs, const char *extra,
                 unsigned kernels)
{
    char opts[256];
    int f64 = c->prec == RB_PREC_F64, nparts = 0;
    snprintf(opts, sizeof opts, "-D REAL=%s -D GIVENS_FP64=%d %s", f64 ? "double" : "float",
             f64, extra);
    const char *names[NSOURCES], *texts[NSOURCES];
    for (int k = 0; k < NSOURCES; k++)
        if (srcs & BIT(k)) {
            names[nparts] = source_names[k];
            texts[nparts++] = sources[k];
        }
    cl_program prog;
    int rc = rb_opencl_program_parts(c, nparts, names, texts, opts, &prog);
    if (rc)
        return rc;
    for (int k = 0; k < GIVENS_CL_NKERNELS; k++) {
        if (!(kernels & BIT(k)))
            continue;
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
    int rc = build(c, s, BIT(SRC_COMMON) | BIT(SRC_PAPER_FORWARD), extra,
                   BIT(GIVENS_CL_IDENTITY) | BIT(GIVENS_CL_STEP));
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

/* The local memory of a sweep kernel's group of T work-items: the apply
 * engine's two exchange buffers (2 T width values each), or the slab
 * engine's staged steps (2 (S / slots) rows of slots + 1 pairs, 1 pair at
 * one slot; one pair unstaged) and its exchange (4 T width values), both
 * twice that with two steps per exchange (four staged steps, two rows each
 * way). */
static void sweep_local(const struct givens_opencl *s, int slab, int staged, size_t T,
                        size_t bytes[2])
{
    const size_t ng = (size_t)(s->S / s->slots), row = s->slots == 1 ? 1 : s->slots + 1;
    const size_t rx = s->exchange == 2 ? 2 : 1;
    bytes[0] = bytes[1] = 2 * T * (size_t)s->width * s->sz;
    if (slab) {
        bytes[0] = (staged ? 2 * rx * ng * row : 1) * 2 * s->sz;
        bytes[1] = 4 * rx * T * (size_t)s->width * s->sz;
    }
}

/* Whether the slab engine's group fits with its steps staged, with a
 * kilobyte to spare for what the compiler adds (alignment of the buffers):
 * a group just over the device's local memory would be skipped, where the
 * unstaged sweep runs. */
static int slab_staged(const struct givens_opencl *s)
{
    size_t bytes[2];
    sweep_local(s, 1, 1, (size_t)(s->S / s->slots) * (size_t)s->cgroups, bytes);
    return bytes[0] + bytes[1] + 1024 <= rb_opencl_local_mem(s->cl);
}

/* The arguments of sweep kernel k: `nints` ints, `nmems` buffers, then the
 * two local buffers of its group.  RB_ESKIP when the kernel or the local
 * memory cannot hold a group: S / slots work-items per column group. */
static int sweep_args(struct rb_case *c, struct givens_opencl *s, int k, int nints,
                      const int *ints, int nmems, const cl_mem *mems)
{
    const int slab = k == GIVENS_CL_FUSED || k == GIVENS_CL_BACKWARD;
    size_t T = (size_t)(s->S / s->slots) * (size_t)s->cgroups, bytes[2];
    sweep_local(s, slab, s->staged, T, bytes);
    cl_kernel kern = s->k[k];
    for (int a = 0; a < nints; a++)
        RB_CL_CHECK(c, clSetKernelArg(kern, (cl_uint)a, sizeof ints[a], &ints[a]));
    RB_CL_CHECK(c, set_args(kern, (cl_uint)nints, nmems, mems));
    RB_CL_CHECK(c, clSetKernelArg(kern, (cl_uint)(nints + nmems), bytes[0], NULL));
    RB_CL_CHECK(c, clSetKernelArg(kern, (cl_uint)(nints + nmems + 1), bytes[1], NULL));
    struct rb_opencl_kernel_info info;
    const cl_ulong local_mem = rb_opencl_local_mem(s->cl);
    if (rb_opencl_kernel_info(s->cl, kern, &info))
        return rb_fail(c, RB_EDEVICE, "kernel info of %s on %s", kernel_names[k], s->cl->name);
    if (info.max_wg < T)
        return rb_fail(c, RB_ESKIP, "%zu work-items per group > %s's %zu on %s", T,
                       kernel_names[k], info.max_wg, s->cl->name);
    if (info.local_mem > local_mem)
        return rb_fail(c, RB_ESKIP, "%llu bytes of local memory > %llu on %s",
                       (unsigned long long)info.local_mem, (unsigned long long)local_mem,
                       s->cl->name);
    s->local[k] = T;
    return 0;
}

/* The group size of the table or finish kernel: AUX_WG or less. */
static int aux_local(struct rb_case *c, struct givens_opencl *s, int k)
{
    struct rb_opencl_kernel_info info;
    if (rb_opencl_kernel_info(s->cl, s->k[k], &info))
        return rb_fail(c, RB_EDEVICE, "kernel info of %s on %s", kernel_names[k], s->cl->name);
    s->local[k] = info.max_wg < AUX_WG ? info.max_wg : AUX_WG;
    return 0;
}

/* The rotation table and the sweep kernels of the mask `kernels` (and the
 * finish kernel if named) for s->slots, s->width and s->cgroups: the fused
 * kernels on the slab engine, whose sweeps run s->nsteps (the steps padded
 * to a multiple of slots), or the apply kernels; the buffers they name must
 * exist. */
static int prepare_sweeps(struct rb_case *c, struct givens_opencl *s, unsigned kernels)
{
    const int slab = (kernels & (BIT(GIVENS_CL_FUSED) | BIT(GIVENS_CL_BACKWARD))) != 0;
    s->staged = slab && slab_staged(s);
    char extra[192];
    snprintf(extra, sizeof extra,
             "-D GIVENS_SLOTS=%d -D GIVENS_WIDTH=%d -D GIVENS_GROUPS=%d -D GIVENS_STAGED=%d "
             "-D GIVENS_PAIRS=%d", s->slots, s->width, s->cgroups, s->staged,
             slab && s->exchange == 2);
    unsigned srcs = BIT(SRC_COMMON) | BIT(SRC_TABLE);
    srcs |= slab ? BIT(SRC_SLAB) | BIT(SRC_FUSED) : BIT(SRC_APPLY_ENGINE) | BIT(SRC_APPLY);
    s->nsteps = slab ? (s->steps + s->slots - 1) / s->slots * s->slots : s->steps;
    int rc = build(c, s, srcs, extra, kernels | BIT(GIVENS_CL_TABLE));
    if (rc)
        return rc;
    const cl_mem table[2] = { s->theta, s->cs }, finish[2] = { s->P, s->dtheta };
    RB_CL_CHECK(c, set_schedule(s->k[GIVENS_CL_TABLE], s, 0));
    RB_CL_CHECK(c, clSetKernelArg(s->k[GIVENS_CL_TABLE], 3, sizeof s->nsteps, &s->nsteps));
    RB_CL_CHECK(c, set_args(s->k[GIVENS_CL_TABLE], 4, 2, table));
    if ((rc = aux_local(c, s, GIVENS_CL_TABLE)))
        return rc;
    /* Each sweep kernel takes n, nt, then nsteps (fused) or nb (apply), then
     * buffers. */
    const int ints[3] = { s->n, s->nt, slab ? s->nsteps : s->nb };
    const cl_mem fused[2] = { s->cs, s->U }, applied[3] = { s->cs, s->Xd, s->Y };
    const cl_mem bwd[4] = { s->cs, s->U, s->gamma, s->P };
    const cl_mem jvp[5] = { s->cs, s->Y, s->GY, s->P, s->dX };
    const struct {
        int k, nints, nmems;
        const cl_mem *mems;
    } sweeps[] = {
        { GIVENS_CL_FUSED, 3, 2, fused }, { GIVENS_CL_APPLY, 3, 3, applied },
        { GIVENS_CL_BACKWARD, 3, 4, bwd }, { GIVENS_CL_APPLY_JVP, 3, 5, jvp },
    };
    for (size_t j = 0; j < sizeof sweeps / sizeof sweeps[0]; j++)
        if ((kernels & BIT(sweeps[j].k))
            && (rc = sweep_args(c, s, sweeps[j].k, sweeps[j].nints, ints, sweeps[j].nmems,
                                sweeps[j].mems)))
            return rc;
    if (!(kernels & BIT(GIVENS_CL_FINISH)))
        return 0;
    RB_CL_CHECK(c, set_schedule(s->k[GIVENS_CL_FINISH], s, 0));
    RB_CL_CHECK(c, clSetKernelArg(s->k[GIVENS_CL_FINISH], 3, sizeof s->groups, &s->groups));
    RB_CL_CHECK(c, set_args(s->k[GIVENS_CL_FINISH], 4, 2, finish));
    return aux_local(c, s, GIVENS_CL_FINISH);
}

static int prepare_paper_backward(struct rb_case *c, struct givens_opencl *s)
{
    char extra[96];
    size_t maxwg = rb_opencl_max_wg(s->cl);
    for (s->tile = 16; s->tile > 1 && (size_t)(s->tile * s->tile) > maxwg; s->tile /= 2)
        ;
    snprintf(extra, sizeof extra, "-D GIVENS_WG=%d -D GIVENS_TILE=%d", s->wg, s->tile);
    int rc = build(c, s, BIT(SRC_COMMON) | BIT(SRC_PAPER_BACKWARD), extra,
                   BIT(GIVENS_CL_TRANSPOSE) | BIT(GIVENS_CL_ROTATE) | BIT(GIVENS_CL_SET_A)
                       | BIT(GIVENS_CL_ROW_SUM));
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

/* The kernels of each fused kind's timed region. */
static const unsigned engine_kernels[] = {
    [GIVENS_CL_FUSED_FORWARD] = BIT(GIVENS_CL_FUSED),
    [GIVENS_CL_APPLY_FORWARD] = BIT(GIVENS_CL_APPLY),
    [GIVENS_CL_FUSED_BACKWARD] = BIT(GIVENS_CL_BACKWARD) | BIT(GIVENS_CL_FINISH),
    [GIVENS_CL_APPLY_BACKWARD] = BIT(GIVENS_CL_APPLY_JVP) | BIT(GIVENS_CL_FINISH),
};

int givens_opencl_prepare(struct rb_case *c, struct givens_opencl *s)
{
    switch (s->kind) {
    case GIVENS_CL_PAPER_FORWARD:
        return prepare_paper_forward(c, s);
    case GIVENS_CL_PAPER_BACKWARD:
        return prepare_paper_backward(c, s);
    default:
        return prepare_sweeps(c, s, engine_kernels[s->kind]);
    }
}

static void kernel_release(struct givens_opencl *s, int k)
{
    if (s->k[k])
        clReleaseKernel(s->k[k]);
    s->k[k] = NULL;
}

/* The fused forward (U) or apply (Y = U X) with one column per group and the
 * fewest slots per work-item that fits: one program for every case of a
 * precision, and the group sizes the forward cases compile too.  Its kernels
 * are released after; the case's tunables are kept.  RB_ESKIP when no slots
 * value fits. */
static int form_with_forward(struct rb_case *c, struct givens_opencl *s)
{
    const int k = s->kind == GIVENS_CL_APPLY_BACKWARD ? GIVENS_CL_APPLY : GIVENS_CL_FUSED;
    const int slots = s->slots, cols = s->cols, width = s->width, cgroups = s->cgroups;
    const int exchange = s->exchange;
    size_t maxwg = rb_opencl_max_wg(s->cl);
    int rc = RB_ESKIP;
    s->cols = s->width = s->cgroups = s->exchange = 1;
    for (s->slots = 1; s->slots <= 8 && rc == RB_ESKIP; s->slots *= 2)
        if (s->S % s->slots == 0 && (size_t)(s->S / s->slots) <= maxwg) {
            rc = prepare_sweeps(c, s, BIT(k));
            if (rc == 0)
                rc = givens_opencl_enqueue_sweep(c, s, k, (size_t)(k == GIVENS_CL_APPLY
                                                                   ? s->nb : s->n), NULL, NULL);
            if (rc == 0)
                RB_CL_CHECK(c, clFinish(s->cl->queue));
            kernel_release(s, GIVENS_CL_TABLE);
            kernel_release(s, k);
        }
    s->slots = slots;
    s->cols = cols;
    s->width = width;
    s->cgroups = cgroups;
    s->exchange = exchange;
    return rc;
}

/* form_with_forward; the paper backward falls back to its rotate kernels
 * when no slots value fits, and frees the table its timed region does not
 * use. */
int givens_opencl_form_input(struct rb_case *c, struct givens_opencl *s)
{
    int rc = form_with_forward(c, s);
    if (s->kind != GIVENS_CL_PAPER_BACKWARD)
        return rc;
    clReleaseMemObject(s->cs);
    s->cs = NULL;
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
