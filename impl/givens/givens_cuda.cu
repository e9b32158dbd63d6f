// SPDX-License-Identifier: MIT
// The CUDA Givens variants' cases: admission, device footprint, setup (the
// CPU variants' data, uploaded), the checks against the CPU reference and
// teardown.  The launches are in givens_cuda_launch.cu.
#include <config.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cuda_runtime.h>
#include "harness/backend/cuda.h"
#include "harness/backend/cuda_check.h"
#include "impl/common/rng.h"
#include "impl/common/roundrobin.h"
#include "impl/givens/givens.h"
#include "impl/givens/givens_case.h"
#include "impl/givens/givens_cuda.h"
#include "impl/givens/givens_cuda_state.h"

typedef struct givens_cuda_state state;

static int is_backward(const struct rb_case *c)
{
    return strcmp(c->v->algo, "backward") == 0;
}

static int is_fused(const struct rb_case *c)
{
    return strcmp(c->v->name, "fused") == 0;
}

static int case_m(const struct rb_case *c)
{
    long long m = rb_case_param(c, "m", 0);
    return m < 0 ? 0 : (int)m;
}

// Untimed: Gamma, and U with the fused forward where a slab configuration
// fits (the paper's kernels otherwise); dtheta poisoned.
static int prepare_backward(struct rb_case *c, state *s)
{
    int rc = givens_cuda_form_gamma(c, s);
    if (rc || (rc = givens_cuda_form_u(c, s, givens_cuda_fused_setup_slots(s->S))))
        return rc;
    if (s->fused && (rc = givens_cuda_fused_backward_prepare(c, s->S, s->slots, s->cols)))
        return rc;
    RB_CUDA_CHECK(c, cudaMemsetAsync(s->dtheta, 0xff, s->count * rb_prec_size(c->prec),
                                     s->stream));
    RB_CUDA_CHECK(c, cudaStreamSynchronize(s->stream));
    RB_CUDA_CHECK(c, cudaFree(s->Gd));
    RB_CUDA_CHECK(c, cudaFree(s->Xd));
    s->Gd = s->Xd = NULL;
    return 0;
}

// The forward's output poisoned with NaN (all bits set), the fused kernel's
// shared memory opted in.
static int prepare(struct rb_case *c, state *s)
{
    if (s->backward)
        return prepare_backward(c, s);
    if (s->fused) {
        int rc = givens_cuda_fused_prepare(c, s->S, s->slots, s->cols);
        if (rc)
            return rc;
    }
    RB_CUDA_CHECK(c, cudaMemsetAsync(s->U, 0xff, (size_t)s->n * s->n * rb_prec_size(c->prec),
                                     s->stream));
    return 0;
}

// Sizes, host arrays and the draws: the same angles and cotangent as the CPU
// variants from the same seed.
static int host_init(struct rb_case *c, state *s)
{
    s->n = (int)rb_case_param(c, "n", 0);
    s->m = case_m(c);
    s->backward = is_backward(c);
    s->fused = is_fused(c);
    s->block = (int)rb_case_param(c, "block", 256);
    s->slots = (int)rb_case_param(c, "slots", 8);
    s->cols = (int)rb_case_param(c, "cols", 4);
    if (s->n < 2 || s->m > s->n)
        return rb_fail(c, RB_EINVAL, "n=%d m=%d do not combine", s->n, s->m);
    s->nt = rb_rr_padded(s->n);
    s->S = s->nt / 2;
    s->count = givens_theta_count(s->n, s->m);
    if (s->fused && !givens_cuda_fused_fits(s->S, s->slots))
        return rb_fail(c, RB_EINVAL, "slots=%d does not fit the %d slots of n=%d", s->slots,
                       s->S, s->n);
    size_t sz = rb_prec_size(c->prec), lr = (size_t)s->n * GIVENS_COTANGENT_RANK;
    s->theta_d = (double *)malloc(s->count * sizeof *s->theta_d);
    s->theta_h = malloc(s->count * sz);
    s->out = malloc((s->backward ? s->count : (size_t)s->n * s->n) * sz);
    if (!s->theta_d || !s->theta_h || !s->out)
        return rb_fail(c, RB_ENOMEM, "host arrays for n=%d", s->n);
    givens_theta_draw(c->seed, c->prec, s->count, s->theta_d, s->theta_h);
    if (!s->backward)
        return 0;
    s->G = (double *)malloc(lr * sizeof *s->G);
    s->X = (double *)malloc(lr * sizeof *s->X);
    if (!s->G || !s->X)
        return rb_fail(c, RB_ENOMEM, "cotangent factors for n=%d", s->n);
    givens_cotangent_draw(c->seed, s->n, s->G, s->X);
    return 0;
}

static int device_alloc(struct rb_case *c, state *s)
{
    size_t sz = rb_prec_size(c->prec), nn = (size_t)s->n * s->n;
    size_t lr = (size_t)s->n * GIVENS_COTANGENT_RANK;
    RB_CUDA_CHECK(c, cudaStreamCreateWithFlags(&s->stream, cudaStreamNonBlocking));
    int rc = rb_cuda_timer_create(c, &s->timer);
    if (rc)
        return rc;
    RB_CUDA_CHECK(c, cudaMalloc(&s->theta, s->count * sz));
    RB_CUDA_CHECK(c, cudaMalloc(&s->U, nn * sz));
    if (s->fused)
        RB_CUDA_CHECK(c, cudaMalloc(&s->cs, (size_t)(s->nt - 1) * s->S * 2 * sz));
    if (!s->backward)
        return 0;
    RB_CUDA_CHECK(c, cudaMalloc(&s->gamma, nn * sz));
    if (s->fused) {
        RB_CUDA_CHECK(c, cudaMalloc(&s->dP, (size_t)(s->nt - 1) * s->S * sz));
    } else {
        RB_CUDA_CHECK(c, cudaMalloc(&s->M, nn * sz));
        RB_CUDA_CHECK(c, cudaMalloc(&s->V, nn * sz));
        RB_CUDA_CHECK(c, cudaMalloc(&s->A, (size_t)s->S * s->n * sz));
    }
    RB_CUDA_CHECK(c, cudaMalloc(&s->dtheta, s->count * sz));
    RB_CUDA_CHECK(c, cudaMalloc((void **)&s->Gd, lr * sizeof(double)));
    RB_CUDA_CHECK(c, cudaMalloc((void **)&s->Xd, lr * sizeof(double)));
    return 0;
}

// The inputs' host-to-device copies, timed apart from run().
static int upload(struct rb_case *c, state *s)
{
    size_t lr = (size_t)s->n * GIVENS_COTANGENT_RANK * sizeof(double);
    int rc = rb_cuda_timer_start(c, &s->timer, s->stream);
    if (rc)
        return rc;
    RB_CUDA_CHECK(c, cudaMemcpyAsync(s->theta, s->theta_h, s->count * rb_prec_size(c->prec),
                                     cudaMemcpyHostToDevice, s->stream));
    if (s->backward) {
        RB_CUDA_CHECK(c, cudaMemcpyAsync(s->Gd, s->G, lr, cudaMemcpyHostToDevice, s->stream));
        RB_CUDA_CHECK(c, cudaMemcpyAsync(s->Xd, s->X, lr, cudaMemcpyHostToDevice, s->stream));
    }
    if ((rc = rb_cuda_timer_stop(c, &s->timer, s->stream, &c->transfer_ms)))
        return rc;
    free(s->theta_h);
    s->theta_h = NULL;
    return 0;
}

int givens_cuda_setup(struct rb_case *c)
{
    state *s = (state *)calloc(1, sizeof *s);
    if (!s)
        return rb_fail(c, RB_ENOMEM, "CUDA Givens state");
    c->state = s;
    c->device_ms = -1;
    int rc = rb_cuda_select(c);
    if (rc || (rc = host_init(c, s)) || (rc = device_alloc(c, s)) || (rc = upload(c, s)))
        return rc;
    if ((rc = prepare(c, s)))
        return rc;
    RB_CUDA_CHECK(c, cudaStreamSynchronize(s->stream));
    return 0;
}

int givens_cuda_fetch(struct rb_case *c, const void **out)
{
    state *s = (state *)c->state;
    size_t len = s->backward ? s->count : (size_t)s->n * s->n;
    RB_CUDA_CHECK(c, cudaMemcpyAsync(s->out, s->backward ? s->dtheta : s->U,
                                     len * rb_prec_size(c->prec), cudaMemcpyDeviceToHost,
                                     s->stream));
    RB_CUDA_CHECK(c, cudaStreamSynchronize(s->stream));
    *out = s->out;
    return 0;
}

int givens_cuda_verify(struct rb_case *c, struct rb_check *out)
{
    state *s = (state *)c->state;
    const void *y;
    int rc = givens_cuda_fetch(c, &y);
    if (rc)
        return rc;
    if (s->backward)
        rc = givens_check_backward(s->n, s->m, s->theta_d, y, c->prec, s->G, s->X,
                                   GIVENS_COTANGENT_RANK, out);
    else
        rc = givens_check_forward(s->n, s->m, s->theta_d, y, c->prec,
                                  rb_seed_derive(c->seed, "givens/probe"), out);
    return rc ? rb_fail(c, rc, "verification buffers for n=%d", s->n) : 0;
}

void givens_cuda_teardown(struct rb_case *c)
{
    state *s = (state *)c->state;
    if (!s)
        return;
    if (s->stream)
        (void)cudaStreamSynchronize(s->stream);
    void *dev[] = { s->theta, s->U, s->cs, s->gamma, s->M, s->V, s->A, s->dtheta, s->dP,
                    s->Gd, s->Xd };
    for (size_t k = 0; k < sizeof dev / sizeof *dev; k++)
        if (dev[k])
            (void)cudaFree(dev[k]);
    rb_cuda_timer_destroy(&s->timer);
    if (s->stream)
        (void)cudaStreamDestroy(s->stream);
    (void)cudaGetLastError();
    free(s->X);
    free(s->G);
    free(s->out);
    free(s->theta_h);
    free(s->theta_d);
    free(s);
    c->state = NULL;
}

int givens_cuda_admit(struct rb_case *c)
{
    long long n = rb_case_param(c, "n", 0), m = case_m(c);
    if (n < 2)
        return rb_fail(c, RB_ESKIP, "n=%lld: Givens needs n >= 2", n);
    if (m > n)
        return rb_fail(c, RB_ESKIP, "m=%lld > n=%lld", m, n);
    if (!is_fused(c))
        return 0;
    long long slots = rb_case_param(c, "slots", 8), cols = rb_case_param(c, "cols", 4);
    int S = rb_rr_slots((int)n);
    if (slots != 1 && slots != 2 && slots != 4 && slots != 8)
        return rb_fail(c, RB_ESKIP, "slots=%lld: the fused kernel is built for 1, 2, 4, 8",
                       slots);
    if (is_backward(c)) {
        // The backward holds cols columns of two matrices.
        if (cols != 2 && cols != 4)
            return rb_fail(c, RB_ESKIP, "cols=%lld: the fused backward is built for 2 and 4",
                           cols);
        if (cols == 4 && c->prec == RB_PREC_F64)
            return rb_fail(c, RB_ESKIP, "cols=4 is built for f32 only (two f64 slabs of 4 "
                                        "columns outgrow the registers)");
    } else {
        if (cols != 4 && cols != 8)
            return rb_fail(c, RB_ESKIP, "cols=%lld: the fused kernel is built for 4 and 8",
                           cols);
        if (cols == 8 && c->prec == RB_PREC_F64)
            return rb_fail(c, RB_ESKIP, "cols=8 is built for f32 only (an f64 slab of 8 "
                                        "columns outgrows the registers)");
    }
    if (S % slots)
        return rb_fail(c, RB_ESKIP, "slots=%lld does not divide the %d slots of n=%lld",
                       slots, S, n);
    if (S / slots > GIVENS_CUDA_FUSED_MAXT)
        return rb_fail(c, RB_ESKIP, "n=%lld slots=%lld: %lld threads per block > %d", n,
                       slots, S / slots, GIVENS_CUDA_FUSED_MAXT);
    return 0;
}

size_t givens_cuda_footprint(const struct rb_case *c)
{
    int n = (int)rb_case_param(c, "n", 0), S = rb_rr_slots(n);
    size_t sz = rb_prec_size(c->prec), nn = (size_t)n * n;
    size_t count = givens_theta_count(n, case_m(c));
    size_t table = (size_t)(2 * S - 1) * S * 2 * sz;
    size_t bytes = count * sz + nn * sz;
    if (!is_backward(c))
        return bytes + (is_fused(c) ? table : 0);
    // Gamma, dtheta, and M, V, A (paper) or the table and dP (fused); during
    // setup also Gamma's factors and the table of the fused forward forming U.
    bytes += nn * sz + count * sz;
    bytes += is_fused(c) ? table + (size_t)(2 * S - 1) * S * sz
                         : 2 * nn * sz + (size_t)S * n * sz;
    bytes += 2 * (size_t)n * GIVENS_COTANGENT_RANK * sizeof(double);
    return bytes + (givens_cuda_fused_setup_slots(S) ? table : 0);
}
