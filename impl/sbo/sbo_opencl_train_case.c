/* SPDX-License-Identifier: MIT */
/* The OpenCL SBO training variants' device side and entry points: buffers,
 * the program (sbo_represent.cl and the sbo_train_*.cl parts), admission,
 * setup, the timed run, verification by sbo_train_verify, occupancy. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "harness/run/timer.h"
#include "impl/sbo/sbo_case.h"
#include "impl/sbo/sbo_gemm_split.h"
#include "impl/sbo/sbo_sort.h"
#include "impl/sbo/sbo_opencl_train.h"

extern const char rb_cl_sbo_represent[], rb_cl_sbo_train_select[], rb_cl_sbo_train_gemm[];
extern const char rb_cl_sbo_train_svd[], rb_cl_sbo_train_polar[];

const char *const sbo_tk_names[SBO_TK_N] = {
    "sbo_energy", "sbo_argmax", "sbo_threshold", "sbo_gemm_batched", "sbo_jacobi",
    "sbo_product", "sbo_energy_update", "sbo_newton_schulz",
    "sbo_ynorm", "sbo_radix_count", "sbo_radix_scatter",
    "sbo_gather", "sbo_gemm_sum",
};

/* The representation kernels' private arrays and the SVD's local ones. */
#define SBO_CL_MAX_P 256
/* sbo_gemm_batched's and sbo_gemm_sum's group. */
#define GEMM_GROUP SBO_GEMM_THREADS

/* Zero bytes (an array of an empty dimension) still gets a buffer to bind. */
static int buffer(struct rb_case *c, struct sbo_cl_train *t, size_t bytes, cl_mem *out)
{
    return rb_opencl_buffer(c, t->cl, bytes ? bytes : 1, out);
}

static int buffers(struct rb_case *c, struct sbo_cl_train *t)
{
    const size_t p = (size_t)t->p, m = (size_t)t->m, L = (size_t)t->L, sz = t->sz;
    const size_t I = sizeof(cl_int);
    t->gpart_cap = sbo_gemm_scratch(t->p, t->L);
    struct { cl_mem *mem; size_t bytes; } list[] = {
        { &t->Y, p * m * sz }, { &t->D, L * p * p * sz }, { &t->E, L * m * sz },
        { &t->best, m * I }, { &t->energy, m * sz }, { &t->ynorm, m * sz },
        { &t->r, m * sz }, { &t->part, SBO_CL_PASSES * (size_t)t->npart * sz },
        { &t->idx, m * I }, { &t->order, m * I }, { &t->seq, m * I },
        { &t->tiles, SBO_SORT_BUCKETS * (size_t)t->ntiles * I }, { &t->cnt, L * I },
        { &t->flag, L * I }, { &t->offs, 6 * L * sizeof(cl_ulong) },
        { &t->Ysub, 2 * p * m * sz }, { &t->C, L * p * m * sz }, { &t->M, L * p * p * sz },
        { &t->U, L * p * p * sz }, { &t->V, L * p * p * sz }, { &t->W, L * p * p * sz },
        { &t->sig, L * p * sz }, { &t->gpart, t->gpart_cap * sz },
    };
    for (size_t k = 0; k < sizeof list / sizeof list[0]; k++) {
        int rc = buffer(c, t, list[k].bytes, list[k].mem);
        if (rc)
            return rc;
    }
    return 0;
}

/* sbo_newton_schulz's build options for groups of wg: X, then T, in
 * local memory where they fit (each p x (p | 1) elements) beside the
 * reduction arrays, X only with a 4 x 4 tile per work-item. */
static void ns_options(const struct sbo_cl_train *t, size_t wg, char *opts, size_t len)
{
    cl_ulong have = rb_opencl_local_mem(t->cl);
    if (t->ns_local_max && t->ns_local_max < have)
        have = t->ns_local_max;
    const size_t p = (size_t)t->p, nt = (p + 3) / 4, mat = p * (p | 1) * t->sz;
    const size_t red = (wg + 3 * 32) * t->sz + 64;
    int xlocal = nt * nt <= wg && mat + red <= have;
    int tlocal = xlocal && 2 * mat + red <= have;
    snprintf(opts, len, " -D SBO_NS_WG=%zu -D SBO_NS_XLOCAL=%d -D SBO_NS_TLOCAL=%d", wg,
             xlocal, tlocal);
}

/* The group of sbo_newton_schulz: a work-item per 4 x 4 tile of a p x p
 * product (at least 32, at most 1024), within the device's limit (and
 * t->ns_wg_max, as t->ns_local_max caps the local memory: for tests). */
static size_t ns_group(const struct sbo_cl_train *t)
{
    size_t most = rb_opencl_device_wg(t->cl), nt = ((size_t)t->p + 3) / 4, wg = 32;
    if (t->ns_wg_max && t->ns_wg_max < most)
        most = t->ns_wg_max;
    while (wg < nt * nt && wg < 1024)
        wg *= 2;
    while (wg > most && wg > 1)
        wg /= 2;
    return wg;
}

static int build(struct rb_case *c, struct sbo_cl_train *t)
{
    static const char *const names[] = { "sbo_represent", "sbo_train_select",
                                         "sbo_train_gemm", "sbo_train_svd", "sbo_train_polar" };
    const char *const srcs[] = { rb_cl_sbo_represent, rb_cl_sbo_train_select,
                                 rb_cl_sbo_train_gemm, rb_cl_sbo_train_svd,
                                 rb_cl_sbo_train_polar };
    /* A kernel's limit is known only once built: Newton-Schulz's group
     * halves until the compiled kernel takes it. */
    for (size_t wg = ns_group(t);; wg /= 2) {
        char opts[300];
        int n = snprintf(opts, sizeof opts, "-D REAL=%s -D SBO_FP64=%d -D SBO_P=%d -D SBO_S=%d "
                         "-D SBO_GEMM_TM=%d -D SBO_GEMM_KT=%d -D SBO_SORT_BITS=%d",
                         t->f64 ? "double" : "float", t->f64, t->p, t->s, SBO_GEMM_TM,
                         SBO_GEMM_KT, SBO_SORT_BITS);
        ns_options(t, wg, opts + n, sizeof opts - (size_t)n);
        cl_program prog;
        int rc = rb_opencl_program_parts(c, 5, names, srcs, opts, &prog);
        if (rc)
            return rc;
        for (int k = 0; k < SBO_TK_N; k++) {
            cl_int err;
            if (t->k[k])
                clReleaseKernel(t->k[k]);
            t->k[k] = clCreateKernel(prog, sbo_tk_names[k], &err);
            RB_CL_CHECK(c, err);
        }
        struct rb_opencl_kernel_info info;
        if (rb_opencl_kernel_info(t->cl, t->k[SBO_TK_POLAR], &info))
            return rb_fail(c, RB_EDEVICE, "kernel info of %s on %s",
                           sbo_tk_names[SBO_TK_POLAR], t->cl->name);
        t->ns_wg = (int)wg;
        if (info.max_wg >= wg || wg == 1)
            return 0;
    }
}

/* RB_ESKIP when a kernel cannot take its group on this device. */
static int check_fit(struct rb_case *c, struct sbo_cl_train *t)
{
    for (int k = 0; k < SBO_TK_N; k++) {
        struct rb_opencl_kernel_info info;
        size_t want = k == SBO_TK_GEMM || k == SBO_TK_GEMM_SUM ? GEMM_GROUP
                      : k == SBO_TK_POLAR                      ? (size_t)t->ns_wg
                                                               : (size_t)t->wg;
        if (rb_opencl_kernel_info(t->cl, t->k[k], &info))
            return rb_fail(c, RB_EDEVICE, "kernel info of %s on %s", sbo_tk_names[k],
                           t->cl->name);
        if (info.max_wg < want)
            return rb_fail(c, RB_ESKIP, "%s takes at most %zu work-items per group on %s, "
                           "not %zu", sbo_tk_names[k], info.max_wg, t->cl->name, want);
    }
    return 0;
}

int sbo_cl_train_prepare(struct rb_case *c, struct sbo_cl_train *t, const void *Y,
                         const void *D)
{
    t->sz = t->f64 ? sizeof(double) : sizeof(float);
    const int groups = (t->m + t->wg - 1) / t->wg;
    t->npart = groups < 256 ? groups : 256;
    t->ntiles = sbo_sort_chunks(t->m, t->wg, &t->chunk);
    t->cnt_h = calloc(2 * (size_t)t->L, sizeof *t->cnt_h);
    t->offs_h = calloc(9 * (size_t)t->L, sizeof *t->offs_h);
    t->part_h = malloc(SBO_CL_PASSES * (size_t)t->npart * t->sz);
    t->npend = 0;
    if (!t->cnt_h || !t->offs_h || !t->part_h)
        return rb_fail(c, RB_ENOMEM, "host arrays of %d blocks", t->L);
    int rc = buffers(c, t);
    if (rc)
        return rc;
    const size_t ny = (size_t)t->p * t->m * t->sz, nd = (size_t)t->L * t->p * t->p * t->sz;
    const cl_int none = -1;
    const double zero = 0.0;
    if ((rc = rb_opencl_upload(c, t->cl, t->Y, 0, Y, ny))
        || (rc = rb_opencl_upload(c, t->cl, t->D, 0, D, nd))
        || (rc = rb_opencl_fill(c, t->cl, t->Ysub, &zero, t->sz, 2 * ny))
        || (rc = rb_opencl_fill(c, t->cl, t->best, &none, sizeof none,
                                (size_t)t->m * sizeof none)))
        return rc;
    RB_CL_CHECK(c, clFinish(t->cl->queue));
    rc = build(c, t);
    return rc ? rc : check_fit(c, t);
}

void sbo_cl_train_release(struct sbo_cl_train *t)
{
    if (t->cl && t->cl->queue)
        clFinish(t->cl->queue);
    if (t->first)
        clReleaseEvent(t->first);
    if (t->last)
        clReleaseEvent(t->last);
    t->first = t->last = NULL;
    sbo_cl_prof_reset(t);
    free(t->ev);
    free(t->ev_kind);
    t->ev = NULL;
    t->ev_kind = NULL;
    t->ev_cap = 0;
    for (int h = 0; h < 2; h++)
        if (t->offs_ev[h])
            clReleaseEvent(t->offs_ev[h]);
    t->offs_ev[0] = t->offs_ev[1] = NULL;
    for (int k = 0; k < SBO_TK_N; k++)
        if (t->k[k])
            clReleaseKernel(t->k[k]);
    memset(t->k, 0, sizeof t->k);
    cl_mem *const mems[] = { &t->Y, &t->D, &t->E, &t->best, &t->energy, &t->ynorm, &t->r, &t->part,
                       &t->idx, &t->order, &t->seq, &t->tiles, &t->cnt, &t->flag, &t->offs,
                       &t->Ysub, &t->C, &t->M, &t->U, &t->V, &t->W, &t->sig, &t->gpart };
    rb_opencl_mems_release(mems, sizeof mems / sizeof mems[0]);
    free(t->cnt_h);
    free(t->offs_h);
    free(t->part_h);
    t->part_h = NULL;
    t->cnt_h = NULL;
    t->offs_h = NULL;
}

/* RB_ESKIP for what the device, the build or the kernels cannot do. */
static int device_admits(struct rb_case *c, const struct rb_opencl *cl)
{
    long long p = rb_case_param(c, "p", 64), wg = rb_case_param(c, "wg", 64);
    size_t most = rb_opencl_device_wg(cl);
    if (p > SBO_CL_MAX_P)
        return rb_fail(c, RB_ESKIP, "p=%lld > the kernels' %d", p, SBO_CL_MAX_P);
    if (c->prec == RB_PREC_F64 && !rb_opencl_fp64(cl))
        return rb_fail(c, RB_ESKIP, "%s has no fp64 (cl_khr_fp64)", cl->name);
    if (wg < 1 || (size_t)wg > most || most < GEMM_GROUP)
        return rb_fail(c, RB_ESKIP, "wg=%lld (and the GEMM's %d) outside 1..%zu of %s", wg,
                       GEMM_GROUP, most, cl->name);
    if (rb_case_param(c, "clblast", 0) && !sbo_cl_have_clblast())
        return rb_fail(c, RB_ESKIP, "clblast=1: built without CLBlast");
    return 0;
}

int sbo_opencl_train_admit(struct rb_case *c)
{
    struct rb_opencl *cl;
    char why[256];
    int rc = sbo_admit(c);
    if (rc || rb_opencl_get(c->ctx, &cl, why, sizeof why))
        return rc;                      /* setup reports a missing device */
    return device_admits(c, cl);
}

size_t sbo_opencl_train_footprint(const struct rb_case *c)
{
    size_t p = (size_t)rb_case_param(c, "p", 1), m = (size_t)rb_case_param(c, "signals", 1);
    size_t L = (size_t)rb_case_param(c, "blocks", 1), sz = rb_prec_size(c->prec);
    size_t dev = (3 * p * m + L * p * m + L * m + 5 * m + 6 * L * p * p
                  + sbo_gemm_scratch((int)p, (int)L)) * sz + 4 * m * 4;
    return sbo_footprint(c) + dev;
}

int sbo_opencl_train_setup(struct rb_case *c)
{
    int rc = sbo_setup(c);
    if (rc)
        return rc;
    struct sbo_state *s = c->state;
    struct sbo_cl_train *t = calloc(1, sizeof *t);
    if (!t)
        return rb_fail(c, RB_ENOMEM, "SBO OpenCL training state");
    s->backend = t;
    c->device_ms = -1;
    if ((rc = rb_opencl_get(c->ctx, &t->cl, c->msg, sizeof c->msg)))
        return rc;
    snprintf(c->device, sizeof c->device, "%s", t->cl->name);
    if ((rc = device_admits(c, t->cl)))    /* for callers that skip admit */
        return rc;
    t->p = s->p;
    t->s = s->s;
    t->L = s->L;
    t->m = s->m;
    t->wg = (int)rb_case_param(c, "wg", 64);
    t->clblast = rb_case_param(c, "clblast", 0) != 0;
    t->polar = c->v->kind == SBO_KIND_POLAR;
    t->f64 = c->prec == RB_PREC_F64;
    t->prof = 1;
    t->defer_trace = 1;             /* the case's trace only keeps the RMSEs */
    uint64_t t0 = rb_now_ns();
    rc = sbo_cl_train_prepare(c, t, s->Y, s->D);
    c->transfer_ms = rb_ms_since(t0) - (c->build_ms > 0 ? c->build_ms : 0);
    return rc;
}

int sbo_opencl_train_run(struct rb_case *c)
{
    struct sbo_state *s = c->state;
    struct sbo_cl_train *t = s->backend;
    if (t->first)
        clReleaseEvent(t->first);
    t->first = NULL;
    s->ntrace = 0;
    sbo_cl_prof_reset(t);
    uint64_t t0 = rb_now_ns();
    int rc = sbo_cl_train_run(c, t, &s->opts, &s->nb, &s->rmse);
    t->wall_ms = rb_ms_since(t0);
    if (rc)
        return rc;
    cl_ulong start = 0, end = 0;
    RB_CL_CHECK(c, clGetEventProfilingInfo(t->first, CL_PROFILING_COMMAND_START, sizeof start,
                                           &start, NULL));
    RB_CL_CHECK(c, clGetEventProfilingInfo(t->last, CL_PROFILING_COMMAND_END, sizeof end, &end,
                                           NULL));
    c->device_ms = end > start ? (double)(end - start) * 1e-6 : 0.0;
    return 0;
}

int sbo_opencl_train_verify(struct rb_case *c, struct rb_check *out)
{
    struct sbo_state *s = c->state;
    struct sbo_cl_train *t = s->backend;
    int nb = s->nb >= 1 && s->nb <= s->L ? s->nb : s->L;
    int rc = rb_opencl_download(c, t->cl, t->D, 0, s->D, (size_t)nb * t->p * t->p * t->sz);
    if (!rc)
        rc = rb_opencl_download(c, t->cl, t->best, 0, s->best, (size_t)t->m * sizeof(cl_int));
    if (!rc)
        rc = sbo_cl_prof_metrics(c, t);
    return rc ? rc : sbo_train_verify(c, out);
}

void sbo_opencl_train_teardown(struct rb_case *c)
{
    struct sbo_state *s = c->state;
    struct sbo_cl_train *t = s ? s->backend : NULL;
    if (t) {
        sbo_cl_train_release(t);
        free(t);
        s->backend = NULL;
    }
    sbo_teardown(c);
}

void sbo_opencl_train_occupancy(struct rb_case *c, struct rb_occ *occ)
{
    struct sbo_state *s = c->state;
    struct sbo_cl_train *t = s ? s->backend : NULL;
    memset(occ, 0, sizeof *occ);
    if (!t || !t->k[0]) {
        snprintf(occ->why, sizeof occ->why, "no OpenCL state (setup failed)");
        return;
    }
    /* Every kernel the training launches: Newton-Schulz only in `polar`,
     * our GEMMs only where CLBlast does not stand in for them. */
    for (int k = 0; k < SBO_TK_N && occ->count < RB_OCC_MAX_KERNELS; k++) {
        if ((k == SBO_TK_POLAR && !t->polar)
            || ((k == SBO_TK_GEMM || k == SBO_TK_GEMM_SUM) && t->clblast))
            continue;
        size_t local = k == SBO_TK_GEMM || k == SBO_TK_GEMM_SUM ? GEMM_GROUP
                       : k == SBO_TK_POLAR                      ? (size_t)t->ns_wg
                                                                : (size_t)t->wg;
        if (rb_opencl_occupancy(t->cl, t->k[k], local, &occ->k[occ->count])) {
            snprintf(occ->why, sizeof occ->why, "kernel info of %s failed", sbo_tk_names[k]);
            return;
        }
        occ->count++;
    }
    occ->available = 1;
}
