// SPDX-License-Identifier: MIT
// Every launch of the CUDA Givens variants: the timed regions (the paper's
// per-step forward and backward, the fused forward), the untimed forms of U
// and Gamma for the backward's setup, and the occupancy of what run launches.
#include <config.h>
#include <stdio.h>
#include <string.h>
#include <cuda_runtime.h>
#include "harness/backend/cuda.h"
#include "harness/backend/cuda_check.h"
#include "impl/givens/givens_case.h"
#include "impl/givens/givens_cuda.h"
#include "impl/givens/givens_cuda_state.h"
#include "kernels/cuda/givens_fused_backward.cuh"
#include "kernels/cuda/givens_fused_forward.cuh"
#include "kernels/cuda/givens_paper_backward.cuh"
#include "kernels/cuda/givens_paper_forward.cuh"

// Threads of the table, identity-in-setup and Gamma kernels; rows of a
// transpose block (32 x 8); the dynamic shared memory allowed without opt-in;
// the most blocks a grid-stride kernel gets.
enum { AUX_BLOCK = 256, TILE_ROWS = 8, SMEM_DEFAULT = 48 * 1024, GRID_CAP = 65535 };

typedef struct givens_cuda_state state;
template <typename T> using vec2 = typename givens_vec2<T>::type;

static int cdiv(long long a, long long b)
{
    return (int)((a + b - 1) / b);
}

static int grid_stride_blocks(long long total, int block)
{
    return cdiv(total, block) < GRID_CAP ? cdiv(total, block) : GRID_CAP;
}

// The row sums need a power of two: the largest not above the block.
static int pow2_floor(int x)
{
    int p = 1;
    while (p * 2 <= x && p < 1024)
        p *= 2;
    return p;
}

template <typename T> struct fused_cfg {
    void (*kernel)(int, int, const vec2<T> *, T *);
    size_t (*smem)(int);
};

template <typename T, int B, int W> static fused_cfg<T> fused_make()
{
    return { givens_fused_forward<T, B, W, GIVENS_CUDA_FUSED_MAXT>, givens_fused_smem<T, B> };
}

template <typename T, int W> static fused_cfg<T> fused_by_slots(int slots)
{
    switch (slots) {
    case 1: return fused_make<T, 1, W>();
    case 2: return fused_make<T, 2, W>();
    case 4: return fused_make<T, 4, W>();
    case 8: return fused_make<T, 8, W>();
    }
    return { NULL, NULL };
}

// Only the instantiations the variants admit: 8 columns in fp64 would hold
// 2 * slots * 8 doubles per thread, more than the register file gives.
template <typename T> static fused_cfg<T> fused_find(int slots, int cols)
{
    if (cols == 4)
        return fused_by_slots<T, 4>(slots);
    if constexpr (sizeof(T) == sizeof(float)) {
        if (cols == 8)
            return fused_by_slots<T, 8>(slots);
    }
    return { NULL, NULL };
}

// The fused backward: cols columns of both M and V per block, so the slab is
// 2 cols wide; f32 takes 2 or 4 columns, f64 2.
template <typename T> struct fused_bwd_cfg {
    void (*kernel)(int, int, const vec2<T> *, const T *, const T *, T *);
    size_t (*smem)(int);
};

template <typename T, int B, int W> static fused_bwd_cfg<T> fused_bwd_make()
{
    return { givens_fused_backward<T, B, W, GIVENS_CUDA_FUSED_MAXT>, givens_fused_smem<T, B> };
}

template <typename T, int W> static fused_bwd_cfg<T> fused_bwd_by_slots(int slots)
{
    switch (slots) {
    case 1: return fused_bwd_make<T, 1, W>();
    case 2: return fused_bwd_make<T, 2, W>();
    case 4: return fused_bwd_make<T, 4, W>();
    case 8: return fused_bwd_make<T, 8, W>();
    }
    return { NULL, NULL };
}

template <typename T> static fused_bwd_cfg<T> fused_bwd_find(int slots, int cols)
{
    if (cols == 2)
        return fused_bwd_by_slots<T, 2>(slots);
    if constexpr (sizeof(T) == sizeof(float)) {
        if (cols == 4)
            return fused_bwd_by_slots<T, 4>(slots);
    }
    return { NULL, NULL };
}

template <typename T> static int fused_bwd_prepare(struct rb_case *c, int S, int slots, int cols)
{
    fused_bwd_cfg<T> f = fused_bwd_find<T>(slots, cols);
    if (!f.kernel)
        return rb_fail(c, RB_EINVAL, "no fused backward kernel for slots=%d cols=%d", slots,
                       cols);
    size_t smem = f.smem(givens_fused_threads(S, slots));
    if (smem > SMEM_DEFAULT)
        RB_CUDA_CHECK(c, cudaFuncSetAttribute((const void *)f.kernel,
                                              cudaFuncAttributeMaxDynamicSharedMemorySize,
                                              (int)smem));
    return 0;
}

int givens_cuda_fused_backward_prepare(struct rb_case *c, int S, int slots, int cols)
{
    return c->prec == RB_PREC_F64 ? fused_bwd_prepare<double>(c, S, slots, cols)
                                  : fused_bwd_prepare<float>(c, S, slots, cols);
}

template <typename T> static int fused_prepare(struct rb_case *c, int S, int slots, int cols)
{
    fused_cfg<T> f = fused_find<T>(slots, cols);
    if (!f.kernel)
        return rb_fail(c, RB_EINVAL, "no fused kernel for slots=%d cols=%d", slots, cols);
    size_t smem = f.smem(givens_fused_threads(S, slots));
    if (smem > SMEM_DEFAULT)
        RB_CUDA_CHECK(c, cudaFuncSetAttribute((const void *)f.kernel,
                                              cudaFuncAttributeMaxDynamicSharedMemorySize,
                                              (int)smem));
    return 0;
}

int givens_cuda_fused_prepare(struct rb_case *c, int S, int slots, int cols)
{
    return c->prec == RB_PREC_F64 ? fused_prepare<double>(c, S, slots, cols)
                                  : fused_prepare<float>(c, S, slots, cols);
}

template <typename T> static int table_launch(struct rb_case *c, state *s)
{
    int grid = cdiv((long long)(s->nt - 1) * s->S, AUX_BLOCK);
    givens_rotation_table<T><<<grid, AUX_BLOCK, 0, s->stream>>>(
        s->n, s->m, s->nt, (const T *)s->theta, (vec2<T> *)s->cs);
    RB_CUDA_CHECK_LAUNCH(c);
    return 0;
}

template <typename T> static int fused_launch(struct rb_case *c, state *s, int slots, int cols)
{
    fused_cfg<T> f = fused_find<T>(slots, cols);
    int threads = givens_fused_threads(s->S, slots);
    f.kernel<<<cdiv(s->n, cols), threads, f.smem(threads), s->stream>>>(
        s->n, s->nt, (const vec2<T> *)s->cs, (T *)s->U);
    RB_CUDA_CHECK_LAUNCH(c);
    return 0;
}

// The paper's forward: U <- I, then one launch per step, steps nt-2 ... 0.
template <typename T> static int paper_forward(struct rb_case *c, state *s, int block)
{
    givens_identity<T><<<grid_stride_blocks((long long)s->n * s->n, block), block, 0,
                         s->stream>>>(s->n, (T *)s->U);
    RB_CUDA_CHECK_LAUNCH(c);
    dim3 grid(cdiv(s->n, block), s->S);
    for (int step = s->nt - 2; step >= 0; step--) {
        givens_paper_forward_step<T><<<grid, block, 0, s->stream>>>(
            s->n, s->m, s->nt, step, (const T *)s->theta, (T *)s->U);
        RB_CUDA_CHECK_LAUNCH(c);
    }
    return 0;
}

template <typename T> static int region_forward_paper(struct rb_case *c, state *s)
{
    return paper_forward<T>(c, s, s->block);
}

template <typename T> static int region_forward_fused(struct rb_case *c, state *s)
{
    int rc = table_launch<T>(c, s);
    return rc ? rc : fused_launch<T>(c, s, s->slots, s->cols);
}

// Algorithm 3: V = U^T, M = Gamma^T; per step nt-2 ... 0 rotate the rows of
// M and V, fill A and sum its rows into the step's angles.
template <typename T> static int region_backward_paper(struct rb_case *c, state *s)
{
    const int n = s->n, block = s->block, rs = pow2_floor(block);
    T *M = (T *)s->M, *V = (T *)s->V, *A = (T *)s->A;
    const T *theta = (const T *)s->theta;
    dim3 tgrid(cdiv(n, 32), cdiv(n, 32)), tblock(32, TILE_ROWS), grid(cdiv(n, block), s->S);
    givens_transpose<T><<<tgrid, tblock, 0, s->stream>>>(n, (const T *)s->U, V);
    RB_CUDA_CHECK_LAUNCH(c);
    givens_transpose<T><<<tgrid, tblock, 0, s->stream>>>(n, (const T *)s->gamma, M);
    RB_CUDA_CHECK_LAUNCH(c);
    for (int step = s->nt - 2; step >= 0; step--) {
        givens_paper_backward_rotate<T><<<grid, block, 0, s->stream>>>(n, s->m, s->nt, step,
                                                                       theta, M, V);
        RB_CUDA_CHECK_LAUNCH(c);
        givens_paper_backward_set_a<T><<<grid, block, 0, s->stream>>>(n, s->m, s->nt, step,
                                                                      M, V, A);
        RB_CUDA_CHECK_LAUNCH(c);
        givens_paper_backward_row_sum<T><<<s->S, rs, 0, s->stream>>>(n, s->m, s->nt, step, A,
                                                                     (T *)s->dtheta);
        RB_CUDA_CHECK_LAUNCH(c);
    }
    return 0;
}

// The fused backward: dP <- 0, the table, one sweep over all steps adding
// every slab's partial dot products into dP, then dP into dtheta's order.
template <typename T> static int region_backward_fused(struct rb_case *c, state *s)
{
    fused_bwd_cfg<T> f = fused_bwd_find<T>(s->slots, s->cols);
    const int threads = givens_fused_threads(s->S, s->slots);
    RB_CUDA_CHECK(c, cudaMemsetAsync(s->dP, 0, (size_t)(s->nt - 1) * s->S * sizeof(T),
                                     s->stream));
    int rc = table_launch<T>(c, s);
    if (rc)
        return rc;
    f.kernel<<<cdiv(s->n, s->cols), threads, f.smem(threads), s->stream>>>(
        s->n, s->nt, (const vec2<T> *)s->cs, (const T *)s->U, (const T *)s->gamma, (T *)s->dP);
    RB_CUDA_CHECK_LAUNCH(c);
    int grid = grid_stride_blocks((long long)(s->nt - 1) * s->S, AUX_BLOCK);
    givens_fused_backward_finish<T><<<grid, AUX_BLOCK, 0, s->stream>>>(
        s->n, s->m, s->nt, (const T *)s->dP, (T *)s->dtheta);
    RB_CUDA_CHECK_LAUNCH(c);
    return 0;
}

typedef int (*region_fn)(struct rb_case *, state *);

static int timed(struct rb_case *c, region_fn f32, region_fn f64)
{
    state *s = (state *)c->state;
    int rc = rb_cuda_timer_start(c, &s->timer, s->stream);
    if (rc == 0)
        rc = (c->prec == RB_PREC_F64 ? f64 : f32)(c, s);
    if (rc == 0)
        rc = rb_cuda_timer_stop(c, &s->timer, s->stream, &c->device_ms);
    return rc;
}

int givens_cuda_run_forward_paper(struct rb_case *c)
{
    return timed(c, region_forward_paper<float>, region_forward_paper<double>);
}

int givens_cuda_run_forward_fused(struct rb_case *c)
{
    return timed(c, region_forward_fused<float>, region_forward_fused<double>);
}

int givens_cuda_run_backward_paper(struct rb_case *c)
{
    return timed(c, region_backward_paper<float>, region_backward_paper<double>);
}

int givens_cuda_run_backward_fused(struct rb_case *c)
{
    return timed(c, region_backward_fused<float>, region_backward_fused<double>);
}

template <typename T> static int form_u(struct rb_case *c, state *s, int slots)
{
    int rc;
    if (slots == 0)
        return paper_forward<T>(c, s, AUX_BLOCK);
    const int own = s->cs == NULL;      // the fused backward keeps its own table
    if (own)
        RB_CUDA_CHECK(c, cudaMalloc(&s->cs, (size_t)(s->nt - 1) * s->S * sizeof(vec2<T>)));
    if ((rc = fused_prepare<T>(c, s->S, slots, 4)) || (rc = table_launch<T>(c, s))
        || (rc = fused_launch<T>(c, s, slots, 4)))
        return rc;
    RB_CUDA_CHECK(c, cudaStreamSynchronize(s->stream));
    if (own) {
        RB_CUDA_CHECK(c, cudaFree(s->cs));
        s->cs = NULL;
    }
    return 0;
}

int givens_cuda_form_u(struct rb_case *c, state *s, int slots)
{
    return c->prec == RB_PREC_F64 ? form_u<double>(c, s, slots) : form_u<float>(c, s, slots);
}

// Gamma = G X^T (n x n) in T from the fp64 factors (n x r, row-major),
// summed in fp64 as givens_case.c does on the host.
template <typename T>
static __global__ void form_gamma(int n, int r, const double *__restrict__ G,
                                  const double *__restrict__ X, T *__restrict__ Gamma)
{
    const size_t total = (size_t)n * n;
    for (size_t idx = blockIdx.x * (size_t)blockDim.x + threadIdx.x; idx < total;
         idx += (size_t)gridDim.x * blockDim.x) {
        const size_t a = idx / n, b = idx % n;
        double v = 0.0;
        for (int k = 0; k < r; k++)
            v += G[a * r + k] * X[b * r + k];
        Gamma[idx] = (T)v;
    }
}

int givens_cuda_form_gamma(struct rb_case *c, state *s)
{
    int grid = grid_stride_blocks((long long)s->n * s->n, AUX_BLOCK);
    if (c->prec == RB_PREC_F64)
        form_gamma<double><<<grid, AUX_BLOCK, 0, s->stream>>>(s->n, GIVENS_COTANGENT_RANK,
                                                              s->Gd, s->Xd, (double *)s->gamma);
    else
        form_gamma<float><<<grid, AUX_BLOCK, 0, s->stream>>>(s->n, GIVENS_COTANGENT_RANK,
                                                             s->Gd, s->Xd, (float *)s->gamma);
    RB_CUDA_CHECK_LAUNCH(c);
    return 0;
}

static void occ_add(struct rb_occ *occ, const void *fn, int block, size_t smem,
                    const char *name)
{
    if (occ->count >= RB_OCC_MAX_KERNELS)
        return;
    struct rb_occ_kernel *k = &occ->k[occ->count++];
    if (rb_cuda_occupancy(fn, block, smem, name, k) && occ->available) {
        occ->available = 0;
        snprintf(occ->why, sizeof occ->why, "%s: %s failed: %s", name, k->source, k->limiter);
    }
}

template <typename T> static void occupancy_of(const state *s, struct rb_occ *occ)
{
    if (s->backward && s->fused) {
        fused_bwd_cfg<T> f = fused_bwd_find<T>(s->slots, s->cols);
        char name[64];
        snprintf(name, sizeof name, "givens_fused_backward<B=%d,W=%d>", s->slots, s->cols);
        occ_add(occ, (const void *)givens_rotation_table<T>, AUX_BLOCK, 0,
                "givens_rotation_table");
        if (f.kernel)
            occ_add(occ, (const void *)f.kernel, givens_fused_threads(s->S, s->slots),
                    f.smem(givens_fused_threads(s->S, s->slots)), name);
        occ_add(occ, (const void *)givens_fused_backward_finish<T>, AUX_BLOCK, 0,
                "givens_fused_backward_finish");
    } else if (s->backward) {
        occ_add(occ, (const void *)givens_transpose<T>, 32 * TILE_ROWS, 0, "givens_transpose");
        occ_add(occ, (const void *)givens_paper_backward_rotate<T>, s->block, 0,
                "givens_paper_backward_rotate");
        occ_add(occ, (const void *)givens_paper_backward_set_a<T>, s->block, 0,
                "givens_paper_backward_set_a");
        occ_add(occ, (const void *)givens_paper_backward_row_sum<T>, pow2_floor(s->block), 0,
                "givens_paper_backward_row_sum");
    } else if (s->fused) {
        fused_cfg<T> f = fused_find<T>(s->slots, s->cols);
        char name[64];
        snprintf(name, sizeof name, "givens_fused_forward<B=%d,W=%d>", s->slots, s->cols);
        occ_add(occ, (const void *)givens_rotation_table<T>, AUX_BLOCK, 0,
                "givens_rotation_table");
        if (f.kernel)
            occ_add(occ, (const void *)f.kernel, givens_fused_threads(s->S, s->slots),
                    f.smem(givens_fused_threads(s->S, s->slots)), name);
    } else {
        occ_add(occ, (const void *)givens_identity<T>, s->block, 0, "givens_identity");
        occ_add(occ, (const void *)givens_paper_forward_step<T>, s->block, 0,
                "givens_paper_forward_step");
    }
}

void givens_cuda_occupancy(struct rb_case *c, struct rb_occ *occ)
{
    memset(occ, 0, sizeof *occ);
    occ->available = 1;
    if (c->prec == RB_PREC_F64)
        occupancy_of<double>((const state *)c->state, occ);
    else
        occupancy_of<float>((const state *)c->state, occ);
}
