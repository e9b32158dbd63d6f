/* SPDX-License-Identifier: MIT */
/* Admission, setup, verification and teardown of the OpenCL Givens variants:
 * device buffers holding the same seeded data as the CPU variants
 * (impl/givens/givens_case.c), poisoned outputs, and the shared checks. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "harness/run/fault.h"
#include "harness/run/timer.h"
#include "impl/common/rng.h"
#include "impl/common/roundrobin.h"
#include "impl/givens/givens.h"
#include "impl/givens/givens_case.h"
#include "impl/givens/givens_opencl_setup.h"
#include "impl/givens/givens_opencl_kernels.h"
#include "impl/givens/givens_opencl_run.h"

static int case_m(const struct rb_case *c)
{
    long long m = rb_case_param(c, "m", 0);
    return m < 0 ? 0 : (int)m;
}

static enum givens_cl_kind case_kind(const struct rb_case *c)
{
    int backward = strcmp(c->v->algo, "backward") == 0;
    if (c->v->kind == GIVENS_KIND_APPLY)
        return backward ? GIVENS_CL_APPLY_BACKWARD : GIVENS_CL_APPLY_FORWARD;
    if (c->v->kind == GIVENS_KIND_FUSED)
        return backward ? GIVENS_CL_FUSED_BACKWARD : GIVENS_CL_FUSED_FORWARD;
    return backward ? GIVENS_CL_PAPER_BACKWARD : GIVENS_CL_PAPER_FORWARD;
}

/* Work-groups of a backward sweep: one per slab of cols columns, at most
 * GROUPS_PER_CU per compute unit, and as many as one buffer of the device
 * holds their partial sums ((nt - 1) nt/2 values each; givens_fused.cl). */
enum { GROUPS_PER_CU = 4, GROUPS_FOOTPRINT = 128 };

static int backward_groups(int ncols, int cols, cl_uint units, size_t max_alloc,
                           size_t per_group)
{
    size_t g = givens_opencl_slabs(ncols, cols), cap = (size_t)units * GROUPS_PER_CU;
    if (cap < 1)
        cap = 1;
    if (per_group && max_alloc / per_group < cap)
        cap = max_alloc / per_group > 0 ? max_alloc / per_group : 1;
    return (int)(g < cap ? g : cap);
}

void givens_cl_fused_shape(enum givens_cl_kind kind, size_t sz, int cols, int *groups,
                           int *width)
{
    const int most = sz == sizeof(double) ? 2 : 4;
    *groups = 0;
    *width = 0;
    if (kind == GIVENS_CL_FUSED_BACKWARD) {
        if (cols >= 1 && cols <= 4) {
            *groups = 1;
            *width = 2 * cols;
        }
        return;
    }
    const int w = cols < most ? cols : most;
    if (w >= 1 && cols % w == 0 && (cols / w == 1 || cols / w == 2 || cols / w == 4)) {
        *groups = cols / w;
        *width = w;
    }
}

/* Algorithm 3, paper or fused: dtheta from U and Gamma = G X^T. */
static int algorithm3(enum givens_cl_kind kind)
{
    return kind == GIVENS_CL_PAPER_BACKWARD || kind == GIVENS_CL_FUSED_BACKWARD;
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
    if (c->prec == RB_PREC_F64 && !rb_opencl_fp64(cl))
        return rb_fail(c, RB_ESKIP, "%s has no fp64 (cl_khr_fp64)", cl->name);
    size_t maxwg = rb_opencl_max_wg(cl);
    if (!givens_cl_engine(case_kind(c))) {
        long long wg = rb_case_param(c, "wg", 64);
        if (wg < 1 || (size_t)wg > maxwg)
            return rb_fail(c, RB_ESKIP, "wg=%lld outside 1..%zu of %s", wg, maxwg, cl->name);
        return 0;
    }
    long long S = rb_rr_slots((int)n), slots = rb_case_param(c, "slots", 1);
    long long cols = rb_case_param(c, "cols", 1), nb = rb_case_param(c, "batch", 1);
    if (cols < 1 || nb < 1)
        return rb_fail(c, RB_ESKIP, "cols=%lld batch=%lld: both must be >= 1", cols, nb);
    if (slots < 1 || S % slots)
        return rb_fail(c, RB_ESKIP, "slots=%lld does not divide the %lld slots of n=%lld",
                       slots, S, n);
    enum givens_cl_kind kind = case_kind(c);
    int groups = 1, width = 0;
    if (!givens_cl_apply(kind)) {
        givens_cl_fused_shape(kind, rb_prec_size(c->prec), (int)cols, &groups, &width);
        if (!groups)
            return rb_fail(c, RB_ESKIP, "cols=%lld is no 1, 2 or 4 groups of the fused %s's "
                           "columns (%s)", cols, kind == GIVENS_CL_FUSED_BACKWARD
                           ? "backward" : "forward", rb_prec_name(c->prec));
        if (slots > GIVENS_CL_SLOTS_MAX)
            return rb_fail(c, RB_ESKIP, "slots=%lld > %d", slots, GIVENS_CL_SLOTS_MAX);
        if (groups > slots)
            return rb_fail(c, RB_ESKIP, "cols=%lld: %d column groups need slots >= %d", cols,
                           groups, groups);
        long long exchange = rb_case_param(c, "exchange", 1);
        if (exchange != 1 && exchange != 2)
            return rb_fail(c, RB_ESKIP, "exchange=%lld: steps per exchange are 1 or 2", exchange);
        if (exchange == 2 && slots < 4)
            return rb_fail(c, RB_ESKIP, "exchange=2 needs slots >= 4 (slots=%lld)", slots);
        /* PoCL 3.1 aborts (a failed assertion in its parallel-region
         * formation) building the sweep for groups of one or two work-items:
         * at slots 2 (such groups are of no use on any device), and on PoCL
         * in the backward at every slots from 2 (n = 8 to 64; other devices
         * keep these cases, the only ones that test slots 16 there). */
        const int bwd = kind == GIVENS_CL_FUSED_BACKWARD;
        const int pocl = strstr(cl->platform_name, "Portable Computing Language") != NULL;
        if (slots >= 2 && (slots == 2 || (bwd && pocl)) && S / slots * groups <= 2)
            return rb_fail(c, RB_ESKIP, "slots=%lld leaves %lld work-item%s per group: the "
                           "fused %s needs 3 or more%s", slots, S / slots * groups,
                           S / slots * groups == 1 ? "" : "s", bwd ? "backward" : "forward",
                           slots == 2 ? " at slots 2" : " on PoCL");
    } else if (slots > 8) {
        return rb_fail(c, RB_ESKIP, "slots=%lld > 8 of the apply kernels", slots);
    }
    if ((size_t)(S / slots * groups) > maxwg)
        return rb_fail(c, RB_ESKIP, "%lld work-items per group (n=%lld, slots=%lld, %d column "
                       "groups) > %zu of %s", S / slots * groups, n, slots, groups, maxwg,
                       cl->name);
    return 0;
}

/* The backwards' P at GROUPS_FOOTPRINT groups, the most at 32 compute
 * units: an estimate. */
size_t givens_opencl_footprint(const struct rb_case *c)
{
    size_t n = (size_t)rb_case_param(c, "n", 0), sz = rb_prec_size(c->prec);
    size_t nb = (size_t)rb_case_param(c, "batch", 1);
    size_t count = givens_theta_count((int)n, case_m(c)), S = (size_t)rb_rr_slots((int)n);
    size_t steps = (size_t)rb_rr_steps((int)n), rows = (size_t)givens_cl_table_rows((int)steps);
    size_t table = rows * S * 2 * sz, P = rows * S * sz * GROUPS_FOOTPRINT;
    size_t bytes = count * sz;
    switch (case_kind(c)) {
    case GIVENS_CL_PAPER_FORWARD:
        return bytes + n * n * sz;
    case GIVENS_CL_FUSED_FORWARD:
        return bytes + n * n * sz + table;
    case GIVENS_CL_PAPER_BACKWARD:
        return bytes + 4 * n * n * sz + S * n * sz + count * sz + table;
    case GIVENS_CL_FUSED_BACKWARD:
        return bytes + 2 * n * n * sz + table + P + count * sz;
    case GIVENS_CL_APPLY_FORWARD:
        return bytes + table + 2 * n * nb * sz;
    default:
        return bytes + table + 4 * n * nb * sz + P + count * sz;
    }
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

/* Buffers, uploads and kernels; Algorithm 3 also Gamma and U; apply mode
 * goes on in givens_opencl_apply_setup. */
static int setup_device(struct rb_case *c, struct givens_opencl *s, const void *theta)
{
    size_t nn = (size_t)s->n * s->n;
    size_t table = (size_t)givens_cl_table_rows(s->steps) * s->S * 2 * s->sz;
    int rc = rb_opencl_buffer(c, s->cl, s->count * s->sz, &s->theta);
    if (!rc && !givens_cl_apply(s->kind))
        rc = rb_opencl_buffer(c, s->cl, nn * s->sz, &s->U);
    if (!rc && s->kind != GIVENS_CL_PAPER_FORWARD)
        rc = rb_opencl_buffer(c, s->cl, table, &s->cs);
    if (!rc)
        rc = rb_opencl_upload(c, s->cl, s->theta, 0, theta, s->count * s->sz);
    if (rc)
        return rc;
    if (givens_cl_apply(s->kind))
        return givens_opencl_apply_setup(c, s);
    if (!algorithm3(s->kind))
        return givens_opencl_prepare(c, s);
    void *gamma = malloc(nn * s->sz);
    if (!gamma)
        return rb_fail(c, RB_ENOMEM, "Gamma for n=%d", s->n);
    givens_cotangent_draw(c->seed, s->n, s->G, s->X);
    form_gamma(s, c->prec, gamma);
    rc = rb_opencl_buffer(c, s->cl, nn * s->sz, &s->gamma);
    if (!rc)
        rc = rb_opencl_upload(c, s->cl, s->gamma, 0, gamma, nn * s->sz);
    free(gamma);
    if (s->kind == GIVENS_CL_PAPER_BACKWARD) {
        if (!rc)
            rc = rb_opencl_buffer(c, s->cl, nn * s->sz, &s->M);
        if (!rc)
            rc = rb_opencl_buffer(c, s->cl, nn * s->sz, &s->V);
        if (!rc)
            rc = rb_opencl_buffer(c, s->cl, (size_t)s->S * s->n * s->sz, &s->A);
    } else if (!rc) {
        /* The sweep writes its padding steps' sums too (givens_slab.cl). */
        rc = rb_opencl_buffer(c, s->cl, (size_t)givens_cl_table_rows(s->steps) * s->S * s->sz
                                            * (size_t)s->groups, &s->P);
    }
    if (!rc)
        rc = rb_opencl_buffer(c, s->cl, s->count * s->sz, &s->dtheta);
    if (rc)
        return rc;
    if (s->kind == GIVENS_CL_PAPER_BACKWARD) {      /* its fallback needs its kernels */
        rc = givens_opencl_prepare(c, s);
        return rc ? rc : givens_opencl_form_input(c, s);
    }
    rc = givens_opencl_form_input(c, s);
    return rc ? rc : givens_opencl_prepare(c, s);
}

/* The case's parameters and fp64 draws, and the host arrays of the kinds
 * that form U or Gamma; the apply kinds' are givens_opencl_apply_setup's. */
static int setup_host(struct rb_case *c, struct givens_opencl *s)
{
    cl_uint units = 0;
    clGetDeviceInfo(s->cl->device, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof units, &units, NULL);
    s->kind = case_kind(c);
    s->n = (int)rb_case_param(c, "n", 0);
    s->m = case_m(c);
    s->nb = (int)rb_case_param(c, "batch", 1);
    if (s->n < 2 || s->m > s->n || s->nb < 1)
        return rb_fail(c, RB_EINVAL, "n=%d m=%d batch=%d do not combine", s->n, s->m, s->nb);
    if (c->prec == RB_PREC_F64 && !rb_opencl_fp64(s->cl))
        return rb_fail(c, RB_ESKIP, "%s has no fp64 (cl_khr_fp64)", s->cl->name);
    s->nt = rb_rr_padded(s->n);
    s->S = rb_rr_slots(s->n);
    s->steps = rb_rr_steps(s->n);
    s->wg = (int)rb_case_param(c, "wg", 64);
    s->slots = (int)rb_case_param(c, "slots", 1);
    s->cols = (int)rb_case_param(c, "cols", 1);
    s->exchange = (int)rb_case_param(c, "exchange", 1);
    s->count = givens_theta_count(s->n, s->m);
    s->sz = rb_prec_size(c->prec);
    s->width = givens_cl_two_matrices(s->kind) ? 2 * s->cols : s->cols;
    s->cgroups = 1;
    if (s->kind == GIVENS_CL_FUSED_FORWARD || s->kind == GIVENS_CL_FUSED_BACKWARD) {
        givens_cl_fused_shape(s->kind, s->sz, s->cols, &s->cgroups, &s->width);
        if (!s->cgroups)
            return rb_fail(c, RB_EINVAL, "cols=%d does not split into column groups", s->cols);
    }
    cl_ulong max_alloc = 0;
    clGetDeviceInfo(s->cl->device, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof max_alloc, &max_alloc,
                    NULL);
    s->groups = backward_groups(givens_cl_apply(s->kind) ? s->nb : s->n, s->cols, units,
                                (size_t)max_alloc,
                                (size_t)givens_cl_table_rows(s->steps) * s->S * s->sz);
    s->theta_d = malloc(s->count * sizeof *s->theta_d);
    if (!s->theta_d)
        return rb_fail(c, RB_ENOMEM, "angles for n=%d", s->n);
    if (givens_cl_apply(s->kind))
        return 0;
    size_t nn = (size_t)s->n * s->n, lr = (size_t)s->n * GIVENS_COTANGENT_RANK;
    int backward = algorithm3(s->kind);
    s->out = malloc((backward ? s->count : nn) * s->sz);
    if (backward) {
        s->G = malloc(lr * sizeof *s->G);
        s->X = malloc(lr * sizeof *s->X);
    }
    if (!s->out || (backward && (!s->G || !s->X)))
        return rb_fail(c, RB_ENOMEM, "host arrays for n=%d", s->n);
    return 0;
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
    if ((rc = setup_host(c, s)))
        return rc;
    void *theta = malloc(s->count * s->sz);
    if (!theta)
        return rb_fail(c, RB_ENOMEM, "angles for n=%d", s->n);
    givens_theta_draw(c->seed, c->prec, s->count, s->theta_d, theta);
    rc = setup_device(c, s, theta);
    free(theta);
    if (rc || givens_cl_apply(s->kind))
        return rc;
    if (algorithm3(s->kind))
        return rb_opencl_poison(c, s->cl, s->dtheta, s->sz, s->count);
    return rb_opencl_poison(c, s->cl, s->U, s->sz, (size_t)s->n * s->n);
}

int givens_opencl_verify(struct rb_case *c, struct rb_check *out)
{
    struct givens_opencl *s = c->state;
    if (givens_cl_apply(s->kind))
        return givens_opencl_apply_verify(c, s, out);
    int backward = algorithm3(s->kind);
    int rc = rb_opencl_download(c, s->cl, backward ? s->dtheta : s->U, 0, s->out,
                                (backward ? s->count : (size_t)s->n * s->n) * s->sz);
    if (rc)
        return rc;
    return givens_verify_output(c, backward, s->n, s->m, s->theta_d, s->out, s->G, s->X, out);
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
    cl_mem *const bufs[] = { &s->theta, &s->U, &s->gamma, &s->M, &s->V, &s->A, &s->dtheta,
                             &s->cs, &s->P, &s->Xd, &s->Y, &s->GY, &s->dX };
    rb_opencl_mems_release(bufs, sizeof bufs / sizeof bufs[0]);
    free(s->out);
    free(s->out2);
    free(s->X);
    free(s->G);
    free(s->theta_d);
    free(s);
    c->state = NULL;
}

