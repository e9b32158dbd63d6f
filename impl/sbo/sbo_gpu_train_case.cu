// SPDX-License-Identifier: MIT
// The CUDA and HIP SBO training variants' device side and entry points,
// compiled once for CUDA and once for HIP (sbo_gpu_train_state.h says how
// the two link side by side): buffers, admission, setup, the timed run, the
// profile, verification by sbo_train_verify, occupancy, teardown.
#include <config.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "harness/run/fault.h"
#include "impl/sbo/sbo_case.h"
#include "impl/sbo/sbo_gpu_train_state.h"
extern "C" {                    // a C header without C++ guards
#include "harness/run/timer.h"
}

namespace sbo_gpu {
inline namespace RB_GPU_NS {

// Prepare's own failures before the device is known to hold the case.
static int gt_alloc(struct rb_case *c, void **p, size_t bytes)
{
    bytes = RB_FAULT_POINT(c, oom, bytes ? bytes : 1);
    gpuError_t err = gpuMalloc(p, bytes);
    if (err != gpuSuccess) {
        (void)gpuGetLastError();
        *p = NULL;
        return rb_fail(c, RB_ENOMEM, "%zu device bytes", bytes);
    }
    return 0;
}

// Newton-Schulz's shared bytes where the device lends them, else 0 (global
// scratch).  3 p (p + 1) values: 49 KB for p 64 in float, past the static
// 48 KB, so the kernel opts in.
template <typename T> static int ns_shared(struct rb_case *c, gtrain *t)
{
    const size_t want = 3 * (size_t)t->p * (t->p + 1) * sizeof(T);
    int dev = 0, most = 0;
    GPU_CHECK(c, gpuGetDevice(&dev));
    GPU_CHECK(c, gpuDeviceGetAttribute(&most, gpuDevAttrSharedOptin, dev));
    t->ns_smem = 0;
    if (want + SBO_NS_THREADS * sizeof(T) > (size_t)most)
        return 0;
    if (want > 48 * 1024 && polar_allow<T>(want))
        return 0;
    t->ns_smem = want;
    return 0;
}

// Buffers and the stream; Y and D uploaded from host arrays in the
// precision (NULL: zero); Ysub zeroed (the padding's tail), best -1.
int gt_prepare(struct rb_case *c, gtrain *t, const void *Y, const void *D)
{
    const size_t p = (size_t)t->p, m = (size_t)t->m, L = (size_t)t->L, sz = t->sz;
    const size_t I = sizeof(int);
    const int blocks = (int)cdiv(t->m, t->block);
    t->npart = blocks < 256 ? blocks : 256;
    t->ntiles = sbo_sort_chunks(t->m, t->block, &t->chunk);
    t->gpart_cap = sbo_gemm_scratch(t->p, t->L);
    GPU_CHECK(c, gpuStreamCreateWithFlags(&t->stream, gpuStreamNonBlocking));
    GPU_CHECK(c, gpuEventCreate(&t->run_start));
    GPU_CHECK(c, gpuEventCreate(&t->run_stop));
    GPU_CHECK(c, gpuEventCreate(&t->offs_ev[0]));
    GPU_CHECK(c, gpuEventCreate(&t->offs_ev[1]));
    GPU_CHECK(c, gpuMallocHost((void **)&t->offs_h, 9 * L * sizeof *t->offs_h));
    GPU_CHECK(c, gpuMallocHost((void **)&t->cnt_h, 2 * L * I));
    GPU_CHECK(c, gpuMallocHost(&t->part_h, SBO_GPU_PASSES * (size_t)t->npart * sz));
    struct { void **mem; size_t bytes; } list[] = {
        { &t->Y, p * m * sz }, { &t->D, L * p * p * sz }, { &t->E, L * m * sz },
        { (void **)&t->best, m * I }, { &t->energy, m * sz }, { &t->ynorm, m * sz },
        { &t->r, m * sz }, { &t->part, SBO_GPU_PASSES * (size_t)t->npart * sz },
        { (void **)&t->idx, m * I }, { (void **)&t->order, m * I }, { (void **)&t->seq, m * I },
        { (void **)&t->tiles, SBO_SORT_BUCKETS * (size_t)t->ntiles * I },
        { (void **)&t->cnt, L * I },
        { (void **)&t->flag, L * I }, { (void **)&t->offs, 6 * L * sizeof *t->offs },
        { &t->Ysub, 2 * p * m * sz }, { &t->C, L * p * m * sz }, { &t->M, L * p * p * sz },
        { &t->U, L * p * p * sz }, { &t->V, L * p * p * sz }, { &t->W, L * p * p * sz },
        { &t->sig, L * p * sz }, { &t->gpart, t->gpart_cap * sz },
    };
    for (size_t k = 0; k < sizeof list / sizeof list[0]; k++) {
        int rc = gt_alloc(c, list[k].mem, list[k].bytes);
        if (rc)
            return rc;
    }
    const size_t ny = p * m * sz, nd = L * p * p * sz;
    if (Y)
        GPU_CHECK(c, gpuMemcpyAsync(t->Y, Y, ny, gpuMemcpyHostToDevice, t->stream));
    else
        GPU_CHECK(c, gpuMemsetAsync(t->Y, 0, ny, t->stream));
    if (D)
        GPU_CHECK(c, gpuMemcpyAsync(t->D, D, nd, gpuMemcpyHostToDevice, t->stream));
    else
        GPU_CHECK(c, gpuMemsetAsync(t->D, 0, nd, t->stream));
    GPU_CHECK(c, gpuMemsetAsync(t->Ysub, 0, 2 * ny, t->stream));
    GPU_CHECK(c, gpuMemsetAsync(t->best, 0xff, m * I, t->stream));
    GPU_CHECK(c, gpuStreamSynchronize(t->stream));
#if SBO_GPU_CUBLAS
    if (t->cublas) {
        char why[512];
        if (sbo_cublas_open(why, sizeof why) != 0)
            return rb_fail(c, RB_EDEVICE, "%s", why);
        if (sbo_cublas_create(&t->blas) != CUBLAS_STATUS_SUCCESS) {
            t->blas = NULL;
            return rb_fail(c, RB_EDEVICE, "cublasCreate failed");
        }
        if (sbo_cublas_set_stream(t->blas, t->stream) != CUBLAS_STATUS_SUCCESS)
            return rb_fail(c, RB_EDEVICE, "cublasSetStream failed");
    }
#endif
    return t->f64 ? ns_shared<double>(c, t) : ns_shared<float>(c, t);
}

// Release what prepare made; safe on a partial prepare and twice.
void gt_release(gtrain *t)
{
    if (t->stream)
        (void)gpuStreamSynchronize(t->stream);
#if SBO_GPU_CUBLAS
    if (t->blas)
        sbo_cublas_destroy(t->blas);
    t->blas = NULL;
#endif
    void **mems[] = { &t->Y, &t->D, &t->E, (void **)&t->best, &t->energy, &t->ynorm, &t->r,
                      &t->part, (void **)&t->idx, (void **)&t->order, (void **)&t->seq,
                      (void **)&t->tiles, (void **)&t->cnt, (void **)&t->flag,
                      (void **)&t->offs, &t->Ysub, &t->C, &t->M, &t->U, &t->V, &t->W, &t->sig,
                      &t->gpart };
    for (size_t k = 0; k < sizeof mems / sizeof mems[0]; k++) {
        if (*mems[k])
            (void)gpuFree(*mems[k]);
        *mems[k] = NULL;
    }
    void **host[] = { (void **)&t->offs_h, (void **)&t->cnt_h, &t->part_h };
    for (size_t k = 0; k < sizeof host / sizeof host[0]; k++) {
        if (*host[k])
            (void)gpuFreeHost(*host[k]);
        *host[k] = NULL;
    }
    for (size_t k = 0; k < t->ev_made; k++)
        (void)gpuEventDestroy(t->ev[k]);
    free(t->ev);
    free(t->ev_kind);
    t->ev = NULL;
    t->ev_kind = NULL;
    t->ev_made = t->ev_cap = t->nev = 0;
    gpuEvent_t *one[] = { &t->run_start, &t->run_stop, &t->offs_ev[0], &t->offs_ev[1] };
    for (size_t k = 0; k < sizeof one / sizeof one[0]; k++) {
        if (*one[k])
            (void)gpuEventDestroy(*one[k]);
        *one[k] = NULL;
    }
    t->offs_pending[0] = t->offs_pending[1] = 0;
    t->offs_n[0] = t->offs_n[1] = 0;
    if (t->stream)
        (void)gpuStreamDestroy(t->stream);
    t->stream = NULL;
    (void)gpuGetLastError();
}

int have_cublas(void)
{
    return SBO_GPU_CUBLAS;
}

// RB_ESKIP for what the kernels or the build cannot do.
int gt_admits(struct rb_case *c)
{
    long long p = rb_case_param(c, "p", 64), block = rb_case_param(c, "block", 128);
    long long s = rb_case_param(c, "s", 8);
    if (p > SBO_SVD_MAX_P)
        return rb_fail(c, RB_ESKIP, "p=%lld > the kernels' %d", p, SBO_SVD_MAX_P);
    if (s > SBO_TRAIN_MAX_S)
        return rb_fail(c, RB_ESKIP, "s=%lld > the thresholding's %d", s, SBO_TRAIN_MAX_S);
    if (block < 32 || block > SBO_TRAIN_MAX_BLOCK)
        return rb_fail(c, RB_ESKIP, "block=%lld outside the kernels' 32..%d", block,
                       SBO_TRAIN_MAX_BLOCK);
    if (rb_case_param(c, "cublas", 0) && !SBO_GPU_CUBLAS)
        return rb_fail(c, RB_ESKIP, "cublas=1: built without cuBLAS");
    return 0;
}

int train_admit(struct rb_case *c)
{
    int rc = sbo_admit(c);
    return rc ? rc : gt_admits(c);
}

size_t train_footprint(const struct rb_case *c)
{
    size_t p = (size_t)rb_case_param(c, "p", 1), m = (size_t)rb_case_param(c, "signals", 1);
    size_t L = (size_t)rb_case_param(c, "blocks", 1), sz = rb_prec_size(c->prec);
    size_t dev = (3 * p * m + L * p * m + L * m + 5 * m + 6 * L * p * p
                  + sbo_gemm_scratch((int)p, (int)L)) * sz + 4 * m * 4;
    return sbo_footprint(c) + dev;
}

int train_setup(struct rb_case *c)
{
    int rc = sbo_setup(c);
    if (rc)
        return rc;
    struct sbo_state *s = (struct sbo_state *)c->state;
    gtrain *t = (gtrain *)calloc(1, sizeof *t);
    if (!t)
        return rb_fail(c, RB_ENOMEM, "SBO GPU training state");
    s->backend = t;
    c->device_ms = -1;
    if ((rc = gt_admits(c)) || (rc = gpu_select(c)))    // for callers that skip admit
        return rc;
    t->p = s->p;
    t->s = s->s;
    t->L = s->L;
    t->m = s->m;
    t->block = (int)rb_case_param(c, "block", 128);
    t->cublas = rb_case_param(c, "cublas", 0) != 0;
    t->polar = c->v->kind == SBO_KIND_POLAR;
    t->f64 = c->prec == RB_PREC_F64;
    t->sz = rb_prec_size(c->prec);
    t->prof = 1;
    t->defer_trace = 1;             // the case's trace only keeps the RMSEs
    uint64_t t0 = rb_now_ns();
    rc = gt_prepare(c, t, s->Y, s->D);
    c->transfer_ms = rb_ms_since(t0);
    return rc;
}

int train_run(struct rb_case *c)
{
    struct sbo_state *s = (struct sbo_state *)c->state;
    gtrain *t = (gtrain *)s->backend;
    s->ntrace = 0;
    t->nev = 0;
    t->launches = t->syncs = 0;
    uint64_t t0 = rb_now_ns();
    GPU_CHECK(c, gpuEventRecord(t->run_start, t->stream));
    int rc = t->f64 ? train_loop<double>(c, t, &s->opts, &s->nb, &s->rmse)
                    : train_loop<float>(c, t, &s->opts, &s->nb, &s->rmse);
    if (rc)
        return rc;
    GPU_CHECK(c, gpuEventRecord(t->run_stop, t->stream));
    GPU_CHECK(c, gpuEventSynchronize(t->run_stop));
    t->wall_ms = rb_ms_since(t0);
    float ms = 0;
    GPU_CHECK(c, gpuEventElapsedTime(&ms, t->run_start, t->run_stop));
    c->device_ms = ms;
    return 0;
}

struct span {
    double start, end;
};

static int by_start(const void *a, const void *b)
{
    const struct span *x = (const struct span *)a, *y = (const struct span *)b;
    return (x->start > y->start) - (x->start < y->start);
}

// The last run's metrics: ms_<kernel> (event time per kernel kind that
// ran), launches, host_syncs, ms_gaps (the run's device span less the
// union of launch intervals), ms_wall (its host time).
int gt_metrics(struct rb_case *c, gtrain *t)
{
    if (!t->prof || c->device_ms < 0)
        return 0;
    struct span *sp = (struct span *)malloc((t->nev ? t->nev : 1) * sizeof *sp);
    if (!sp)
        return rb_fail(c, RB_ENOMEM, "profile of %zu launches", t->nev);
    double ms[SBO_GK_N] = { 0 };
    int ran[SBO_GK_N] = { 0 };
    for (size_t k = 0; k < t->nev; k++) {
        float a = 0, b = 0;
        if (gpuEventElapsedTime(&a, t->run_start, t->ev[2 * k]) != gpuSuccess
            || gpuEventElapsedTime(&b, t->run_start, t->ev[2 * k + 1]) != gpuSuccess) {
            (void)gpuGetLastError();
            free(sp);
            return rb_fail(c, RB_EDEVICE, "event times of launch %zu", k);
        }
        sp[k].start = a;
        sp[k].end = b > a ? b : a;
        ms[t->ev_kind[k]] += sp[k].end - sp[k].start;
        ran[t->ev_kind[k]] = 1;
    }
    char name[40];
    for (int k = 0; k < SBO_GK_N; k++)
        if (ran[k]) {
            snprintf(name, sizeof name, "ms_%s", gk_names[k]);
            rb_case_metric(c, name, ms[k]);
        }
    qsort(sp, t->nev, sizeof *sp, by_start);
    double covered = 0, from = 0, to = 0;
    for (size_t k = 0; k < t->nev; k++) {
        if (k == 0 || sp[k].start > to) {
            covered += to - from;
            from = sp[k].start;
            to = sp[k].end;
        } else if (sp[k].end > to) {
            to = sp[k].end;
        }
    }
    covered += to - from;
    rb_case_metric(c, "launches", (double)t->launches);
    rb_case_metric(c, "host_syncs", (double)t->syncs);
    rb_case_metric(c, "ms_gaps", c->device_ms > covered ? c->device_ms - covered : 0.0);
    rb_case_metric(c, "ms_wall", t->wall_ms);
    free(sp);
    return 0;
}

int train_verify(struct rb_case *c, struct rb_check *out)
{
    struct sbo_state *s = (struct sbo_state *)c->state;
    gtrain *t = (gtrain *)s->backend;
    int nb = s->nb >= 1 && s->nb <= s->L ? s->nb : s->L;
    GPU_CHECK(c, gpuMemcpyAsync(s->D, t->D, (size_t)nb * t->p * t->p * t->sz,
                                gpuMemcpyDeviceToHost, t->stream));
    GPU_CHECK(c, gpuMemcpyAsync(s->best, t->best, (size_t)t->m * sizeof(int),
                                gpuMemcpyDeviceToHost, t->stream));
    GPU_CHECK(c, gpuStreamSynchronize(t->stream));
    int rc = gt_metrics(c, t);
    return rc ? rc : sbo_train_verify(c, out);
}

void train_teardown(struct rb_case *c)
{
    struct sbo_state *s = (struct sbo_state *)c->state;
    gtrain *t = s ? (gtrain *)s->backend : NULL;
    if (t) {
        gt_release(t);
        free(t);
        s->backend = NULL;
    }
    sbo_teardown(c);
}

template <typename T> static void occupancy_of(const gtrain *t, struct rb_occ *occ)
{
    const int b = t->block;
    int sig = 1;
    const fused_fn<T> fused = fused_rep<T>(t, &sig);
    if (fused) {
        rb_gpu_occ_add(occ, (const void *)fused, b, 0, gk_names[SBO_GK_FUSED]);
    } else {
        rb_gpu_occ_add(occ, energy_map<T>(t), b, 0, gk_names[SBO_GK_ENERGY]);
        rb_gpu_occ_add(occ, (const void *)sbo_argmax<T>, b, 0, gk_names[SBO_GK_ARGMAX]);
    }
    rb_gpu_occ_add(occ, (const void *)sbo_threshold<T>, b, 0, gk_names[SBO_GK_THRESHOLD]);
    if (!t->cublas)
        rb_gpu_occ_add(occ, (const void *)sbo_gemm_batched<T>, SBO_GEMM_THREADS, 0,
                       gk_names[SBO_GK_GEMM]);
    rb_gpu_occ_add(occ, (const void *)sbo_jacobi<T>, b, 0, gk_names[SBO_GK_JACOBI]);
    rb_gpu_occ_add(occ, (const void *)sbo_product<T>, b, 0, gk_names[SBO_GK_PRODUCT]);
    rb_gpu_occ_add(occ, (const void *)sbo_energy_update<T>, b, 0, gk_names[SBO_GK_UPDATE]);
    if (t->polar)
        rb_gpu_occ_add(occ, polar_map<T>(t->ns_smem != 0),
                       SBO_NS_THREADS, t->ns_smem, gk_names[SBO_GK_POLAR]);
    rb_gpu_occ_add(occ, (const void *)sbo_ynorm<T>, b, 0, gk_names[SBO_GK_YNORM]);
    rb_gpu_occ_add(occ, (const void *)sbo_radix_count<T>, b, 0, gk_names[SBO_GK_COUNT]);
    rb_gpu_occ_add(occ, (const void *)sbo_radix_scatter<T>, b, 0, gk_names[SBO_GK_SCATTER]);
    rb_gpu_occ_add(occ, (const void *)sbo_gather<T>, b, 0, gk_names[SBO_GK_GATHER]);
    if (!t->cublas)
        rb_gpu_occ_add(occ, (const void *)sbo_gemm_sum<T>, SBO_GEMM_THREADS, 0,
                       gk_names[SBO_GK_GEMM_SUM]);
}

void train_occupancy(struct rb_case *c, struct rb_occ *occ)
{
    const struct sbo_state *s = (const struct sbo_state *)c->state;
    memset(occ, 0, sizeof *occ);
    occ->available = 1;
    if (!s || !s->backend) {
        occ->available = 0;
        snprintf(occ->why, sizeof occ->why, "the case was not set up");
        return;
    }
    if (c->prec == RB_PREC_F64)
        occupancy_of<double>((const gtrain *)s->backend, occ);
    else
        occupancy_of<float>((const gtrain *)s->backend, occ);
}

} // namespace RB_GPU_NS
} // namespace sbo_gpu
