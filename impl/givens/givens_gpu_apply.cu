// SPDX-License-Identifier: MIT
// The apply-mode Givens variants, compiled once for CUDA and once for HIP
// (givens_gpu_state.h): Y = U X without forming U (forward) and
// the batched JVP giving dtheta and dX = U^T GY (backward), both on the
// fused engine.  Setup draws theta, X and GY from the case's seed, uploads
// them and, for the backward, forms Y = U X on the device (untimed).
#include <config.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "impl/common/rng.h"
#include "impl/common/roundrobin.h"
#include "impl/givens/givens.h"
#include "impl/givens/givens_case.h"
#include "impl/givens/givens_gpu_pick.h"
#include "impl/givens/givens_gpu_state.h"
#include "kernels/cuda/givens_fused_apply.cuh"

namespace givens_gpu {
inline namespace RB_GPU_NS {

// AUX_BLOCK and cdiv: givens_gpu_state.h.
enum { SMEM_DEFAULT = 48 * 1024, MAXT = GIVENS_GPU_FUSED_MAXT };

struct apply_state {
    int n, m, nt, S, nb, backward, slots, cols;
    size_t count;
    double *theta_d, *X, *GY;           // host, fp64: the draws the checks use
    void *theta_h, *out, *out2;         // host: angles in prec; outputs read back
    void *theta, *cs, *Xd, *Y, *GYd, *dP, *dtheta, *dX;     // device
    gpuStream_t stream;
    struct gpu_timer timer;
};

template <typename T> using vec2 = typename givens_vec2<T>::type;

// The kernels of one (precision, slots, cols), as plain function pointers,
// and their dynamic shared memory (givens_fused_smem) at a block size.
template <typename T> struct apply_kernels {
    void (*fwd)(int, int, int, const vec2<T> *, const T *, T *);
    void (*bwd)(int, int, int, const vec2<T> *, const T *, const T *, T *, T *);
    size_t (*smem)(int);
};

template <typename T, int B, int W> static apply_kernels<T> kernels_make()
{
    return { givens_fused_apply<T, B, W, MAXT>, givens_fused_apply_backward<T, B, W, MAXT>,
             givens_fused_smem<T, B> };
}

// Built: slots 1, 2, 4, 8 with cols 2, and 4 in f32 (the backward holds 2 cols
// of Y and of GY, a slab as wide as the fused forward's).
template <typename T, int W> static apply_kernels<T> kernels_by_slots(int slots)
{
    return givens_pick_slots(slots,
                             [](auto b) { return kernels_make<T, decltype(b)::value, W>(); });
}

template <typename T> static apply_kernels<T> kernels_find(int slots, int cols)
{
    if (cols == 2)
        return kernels_by_slots<T, 2>(slots);
    if constexpr (sizeof(T) == sizeof(float)) {
        if (cols == 4)
            return kernels_by_slots<T, 4>(slots);
    }
    return { NULL, NULL, NULL };
}

template <typename T> static int prepare_kernels(struct rb_case *c, apply_state *s)
{
    apply_kernels<T> k = kernels_find<T>(s->slots, s->cols);
    if (!k.fwd)
        return rb_fail(c, RB_EINVAL, "no apply kernel for slots=%d cols=%d", s->slots, s->cols);
    size_t smem = k.smem(givens_fused_threads(s->S, s->slots));
    if (smem > SMEM_DEFAULT) {
        GPU_CHECK(c, gpuFuncSetAttribute((const void *)k.fwd,
                                         gpuFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
        GPU_CHECK(c, gpuFuncSetAttribute((const void *)k.bwd,
                                         gpuFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
    }
    return 0;
}

template <typename T> static int launch_table(struct rb_case *c, apply_state *s)
{
    givens_rotation_table<T><<<cdiv((long long)(s->nt - 1) * s->S, AUX_BLOCK), AUX_BLOCK, 0,
                               s->stream>>>(s->n, s->m, s->nt, (const T *)s->theta,
                                            (vec2<T> *)s->cs);
    GPU_CHECK_LAUNCH(c);
    return 0;
}

// Y = U X: the table, then one sweep.
template <typename T> static int region_forward(struct rb_case *c, apply_state *s)
{
    apply_kernels<T> k = kernels_find<T>(s->slots, s->cols);
    const int threads = givens_fused_threads(s->S, s->slots);
    int rc = launch_table<T>(c, s);
    if (rc)
        return rc;
    k.fwd<<<cdiv(s->nb, s->cols), threads, k.smem(threads), s->stream>>>(
        s->n, s->nt, s->nb, (const vec2<T> *)s->cs, (const T *)s->Xd, (T *)s->Y);
    GPU_CHECK_LAUNCH(c);
    return 0;
}

// dtheta and dX from Y and GY: dP <- 0, the table, one upward sweep, then the
// angles' order and signs.
template <typename T> static int region_backward(struct rb_case *c, apply_state *s)
{
    apply_kernels<T> k = kernels_find<T>(s->slots, s->cols);
    const int threads = givens_fused_threads(s->S, s->slots);
    GPU_CHECK(c, gpuMemsetAsync(s->dP, 0, (size_t)(s->nt - 1) * s->S * sizeof(T), s->stream));
    int rc = launch_table<T>(c, s);
    if (rc)
        return rc;
    k.bwd<<<cdiv(s->nb, s->cols), threads, k.smem(threads), s->stream>>>(
        s->n, s->nt, s->nb, (const vec2<T> *)s->cs, (const T *)s->Y, (const T *)s->GYd,
        (T *)s->dP, (T *)s->dX);
    GPU_CHECK_LAUNCH(c);
    givens_fused_backward_finish<T><<<cdiv((long long)(s->nt - 1) * s->S, AUX_BLOCK),
                                      AUX_BLOCK, 0, s->stream>>>(
        s->n, s->m, s->nt, (const T *)s->dP, (T *)s->dtheta);
    GPU_CHECK_LAUNCH(c);
    return 0;
}

// n x nb doubles into prec on the host.
static void *to_prec(const double *a, size_t len, enum rb_prec prec)
{
    void *p = malloc(len * rb_prec_size(prec));
    for (size_t k = 0; p && k < len; k++) {
        if (prec == RB_PREC_F64)
            ((double *)p)[k] = a[k];
        else
            ((float *)p)[k] = (float)a[k];
    }
    return p;
}

static int upload(struct rb_case *c, apply_state *s, void **dst, const double *src, size_t len)
{
    size_t bytes = len * rb_prec_size(c->prec);
    void *h = to_prec(src, len, c->prec);
    if (!h)
        return rb_fail(c, RB_ENOMEM, "host copy of %zu values", len);
    GPU_CHECK(c, gpuMalloc(dst, bytes));
    gpuError_t e = gpuMemcpyAsync(*dst, h, bytes, gpuMemcpyHostToDevice, s->stream);
    if (e == gpuSuccess)
        e = gpuStreamSynchronize(s->stream);
    free(h);
    GPU_CHECK(c, e);
    return 0;
}

static int host_init(struct rb_case *c, apply_state *s)
{
    s->n = (int)rb_case_param(c, "n", 0);
    long long m = rb_case_param(c, "m", 0);
    s->m = m < 0 ? 0 : (int)m;
    s->nb = (int)rb_case_param(c, "batch", 64);
    s->slots = (int)rb_case_param(c, "slots", 8);
    s->cols = (int)rb_case_param(c, "cols", 4);
    s->backward = strcmp(c->v->algo, "backward") == 0;
    s->nt = rb_rr_padded(s->n);
    s->S = s->nt / 2;
    s->count = givens_theta_count(s->n, s->m);
    size_t len = (size_t)s->n * s->nb, sz = rb_prec_size(c->prec);
    s->theta_d = (double *)malloc(s->count * sizeof(double));
    s->theta_h = malloc(s->count * sz);
    s->X = (double *)malloc(len * sizeof(double));
    s->GY = (double *)malloc(len * sizeof(double));
    s->out = malloc((s->backward ? s->count : len) * sz);
    s->out2 = malloc(len * sz);
    if (!s->theta_d || !s->theta_h || !s->X || !s->GY || !s->out || !s->out2)
        return rb_fail(c, RB_ENOMEM, "host arrays for n=%d batch=%d", s->n, s->nb);
    givens_theta_draw(c->seed, c->prec, s->count, s->theta_d, s->theta_h);
    struct rb_rng r;
    rb_rng_seed(&r, rb_seed_derive(c->seed, "givens/apply"));
    for (size_t k = 0; k < len; k++)
        s->X[k] = rb_rng_normal(&r);
    for (size_t k = 0; k < len; k++)
        s->GY[k] = rb_rng_normal(&r);
    return 0;
}

template <typename T> static int device_init(struct rb_case *c, apply_state *s)
{
    size_t len = (size_t)s->n * s->nb, sz = sizeof(T);
    GPU_CHECK(c, gpuMalloc(&s->theta, s->count * sz));
    GPU_CHECK(c, gpuMalloc(&s->cs, (size_t)(s->nt - 1) * s->S * sizeof(vec2<T>)));
    GPU_CHECK(c, gpuMalloc(&s->Y, len * sz));
    int rc = gpu_timer_start(c, &s->timer, s->stream);
    if (rc)
        return rc;
    GPU_CHECK(c, gpuMemcpyAsync(s->theta, s->theta_h, s->count * sz, gpuMemcpyHostToDevice,
                                s->stream));
    if ((rc = gpu_timer_stop(c, &s->timer, s->stream, &c->transfer_ms))
        || (rc = upload(c, s, &s->Xd, s->X, len)) || (rc = prepare_kernels<T>(c, s)))
        return rc;
    if (!s->backward) {
        GPU_CHECK(c, gpuMemsetAsync(s->Y, 0xff, len * sz, s->stream));   // NaN poison
        GPU_CHECK(c, gpuStreamSynchronize(s->stream));
        return 0;
    }
    if ((rc = region_forward<T>(c, s)) || (rc = upload(c, s, &s->GYd, s->GY, len)))
        return rc;
    GPU_CHECK(c, gpuMalloc(&s->dP, (size_t)(s->nt - 1) * s->S * sz));
    GPU_CHECK(c, gpuMalloc(&s->dtheta, s->count * sz));
    GPU_CHECK(c, gpuMalloc(&s->dX, len * sz));
    GPU_CHECK(c, gpuMemsetAsync(s->dtheta, 0xff, s->count * sz, s->stream));
    GPU_CHECK(c, gpuMemsetAsync(s->dX, 0xff, len * sz, s->stream));
    GPU_CHECK(c, gpuStreamSynchronize(s->stream));
    return 0;
}

int apply_setup(struct rb_case *c)
{
    apply_state *s = (apply_state *)calloc(1, sizeof *s);
    if (!s)
        return rb_fail(c, RB_ENOMEM, "GPU apply state");
    c->state = s;
    int rc = gpu_select(c);
    if (rc || (rc = host_init(c, s)))
        return rc;
    GPU_CHECK(c, gpuStreamCreateWithFlags(&s->stream, gpuStreamNonBlocking));
    if ((rc = gpu_timer_create(c, &s->timer)))
        return rc;
    return c->prec == RB_PREC_F64 ? device_init<double>(c, s) : device_init<float>(c, s);
}

static int apply_timed(struct rb_case *c, int (*f32)(struct rb_case *, apply_state *),
                       int (*f64)(struct rb_case *, apply_state *))
{
    apply_state *s = (apply_state *)c->state;
    int rc = gpu_timer_start(c, &s->timer, s->stream);
    if (rc == 0)
        rc = (c->prec == RB_PREC_F64 ? f64 : f32)(c, s);
    if (rc == 0)
        rc = gpu_timer_stop(c, &s->timer, s->stream, &c->device_ms);
    return rc;
}

int apply_run_forward(struct rb_case *c)
{
    return apply_timed(c, region_forward<float>, region_forward<double>);
}

int apply_run_backward(struct rb_case *c)
{
    return apply_timed(c, region_backward<float>, region_backward<double>);
}

int apply_verify(struct rb_case *c, struct rb_check *out)
{
    apply_state *s = (apply_state *)c->state;
    size_t len = (size_t)s->n * s->nb, sz = rb_prec_size(c->prec);
    if (s->backward) {
        GPU_CHECK(c, gpuMemcpy(s->out, s->dtheta, s->count * sz, gpuMemcpyDeviceToHost));
        GPU_CHECK(c, gpuMemcpy(s->out2, s->dX, len * sz, gpuMemcpyDeviceToHost));
        if (givens_check_apply_backward(s->n, s->m, s->theta_d, s->X, s->GY, s->out, s->out2,
                                        s->nb, c->prec, out))
            return rb_fail(c, RB_ENOMEM, "verification buffers");
        return 0;
    }
    GPU_CHECK(c, gpuMemcpy(s->out, s->Y, len * sz, gpuMemcpyDeviceToHost));
    if (givens_check_apply(s->n, s->m, s->theta_d, s->X, s->out, s->nb, c->prec, out))
        return rb_fail(c, RB_ENOMEM, "verification buffers");
    return 0;
}

void apply_teardown(struct rb_case *c)
{
    apply_state *s = (apply_state *)c->state;
    if (!s)
        return;
    if (s->stream)
        (void)gpuStreamSynchronize(s->stream);
    void *dev[] = { s->theta, s->cs, s->Xd, s->Y, s->GYd, s->dP, s->dtheta, s->dX };
    for (size_t k = 0; k < sizeof dev / sizeof *dev; k++)
        if (dev[k])
            (void)gpuFree(dev[k]);
    gpu_timer_destroy(&s->timer);
    if (s->stream)
        (void)gpuStreamDestroy(s->stream);
    (void)gpuGetLastError();
    free(s->theta_d);
    free(s->theta_h);
    free(s->X);
    free(s->GY);
    free(s->out);
    free(s->out2);
    free(s);
    c->state = NULL;
}

int apply_admit(struct rb_case *c)
{
    long long n = rb_case_param(c, "n", 0), m = rb_case_param(c, "m", 0);
    long long slots = rb_case_param(c, "slots", 8), cols = rb_case_param(c, "cols", 4);
    int S = rb_rr_slots((int)n);
    if (m > n)
        return rb_fail(c, RB_ESKIP, "m=%lld > n=%lld", m, n);
    if (slots != 1 && slots != 2 && slots != 4 && slots != 8)
        return rb_fail(c, RB_ESKIP, "slots=%lld: built for 1, 2, 4, 8", slots);
    if (cols != 2 && cols != 4)
        return rb_fail(c, RB_ESKIP, "cols=%lld: built for 2 and 4", cols);
    if (cols == 4 && c->prec == RB_PREC_F64)
        return rb_fail(c, RB_ESKIP, "cols=4 is built for f32 only");
    if (S % slots || S / slots > MAXT)
        return rb_fail(c, RB_ESKIP, "slots=%lld does not fit the %d slots of n=%lld", slots, S,
                       n);
    return 0;
}

size_t apply_footprint(const struct rb_case *c)
{
    size_t n = (size_t)rb_case_param(c, "n", 0), nb = (size_t)rb_case_param(c, "batch", 64);
    size_t sz = rb_prec_size(c->prec), pairs = n * (n + 1) / 2;
    // theta and dP about n^2/2 each, the (c, s) table n^2, X Y GY dX.
    return sz * (2 * pairs + 2 * pairs + 4 * n * nb);
}

template <typename T> static void occupancy_of(const apply_state *s, struct rb_occ *occ)
{
    apply_kernels<T> k = kernels_find<T>(s->slots, s->cols);
    const int threads = givens_fused_threads(s->S, s->slots);
    if (!k.fwd) {
        occ->available = 0;
        snprintf(occ->why, sizeof occ->why, "no apply kernel for slots=%d cols=%d", s->slots,
                 s->cols);
        return;
    }
    rb_gpu_occ_add(occ, (const void *)givens_rotation_table<T>, AUX_BLOCK, 0,
                   "givens_rotation_table");
    if (s->backward) {
        rb_gpu_occ_add(occ, (const void *)k.bwd, threads, k.smem(threads),
                       "givens_fused_apply_backward");
        rb_gpu_occ_add(occ, (const void *)givens_fused_backward_finish<T>, AUX_BLOCK, 0,
                       "givens_fused_backward_finish");
    } else {
        rb_gpu_occ_add(occ, (const void *)k.fwd, threads, k.smem(threads), "givens_fused_apply");
    }
}

void apply_occupancy(struct rb_case *c, struct rb_occ *occ)
{
    memset(occ, 0, sizeof *occ);
    occ->available = 1;
    if (c->prec == RB_PREC_F64)
        occupancy_of<double>((const apply_state *)c->state, occ);
    else
        occupancy_of<float>((const apply_state *)c->state, occ);
}

} // namespace RB_GPU_NS
} // namespace givens_gpu
