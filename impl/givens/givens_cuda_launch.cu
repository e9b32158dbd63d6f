// SPDX-License-Identifier: MIT
// Every launch of the CUDA Givens variants: the paper's, shared with HIP
// (givens_gpu_launch.inc), and the fused kernels': their timed regions, the
// fused forming of the backward's U in setup, and their occupancy.
#include <config.h>
#include <stdio.h>
#include "impl/givens/givens_cuda_pick.h"
#include "impl/givens/givens_cuda_state.h"
#include "impl/givens/givens_gpu_launch.inc"
#include "kernels/cuda/givens_fused_backward.cuh"
#include "kernels/cuda/givens_fused_forward.cuh"

// The dynamic shared memory allowed without opt-in.
enum { SMEM_DEFAULT = 48 * 1024 };

template <typename T> using vec2 = typename givens_vec2<T>::type;

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
    return givens_pick_slots(slots, [](auto b) { return fused_make<T, decltype(b)::value, W>(); });
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
    return givens_pick_slots(slots,
                             [](auto b) { return fused_bwd_make<T, decltype(b)::value, W>(); });
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

// Opt a fused kernel in to the dynamic shared memory it needs for S slots
// where that exceeds the default.
template <class Cfg>
static int smem_opt_in(struct rb_case *c, Cfg f, const char *what, int S, int slots, int cols)
{
    if (!f.kernel)
        return rb_fail(c, RB_EINVAL, "no %s kernel for slots=%d cols=%d", what, slots, cols);
    size_t smem = f.smem(givens_fused_threads(S, slots));
    if (smem > SMEM_DEFAULT)
        RB_CUDA_CHECK(c, cudaFuncSetAttribute((const void *)f.kernel,
                                              cudaFuncAttributeMaxDynamicSharedMemorySize,
                                              (int)smem));
    return 0;
}

template <typename T> static int fused_bwd_prepare(struct rb_case *c, int S, int slots, int cols)
{
    return smem_opt_in(c, fused_bwd_find<T>(slots, cols), "fused backward", S, slots, cols);
}

int givens_cuda_fused_backward_prepare(struct rb_case *c, int S, int slots, int cols)
{
    return c->prec == RB_PREC_F64 ? fused_bwd_prepare<double>(c, S, slots, cols)
                                  : fused_bwd_prepare<float>(c, S, slots, cols);
}

template <typename T> static int fused_prepare(struct rb_case *c, int S, int slots, int cols)
{
    return smem_opt_in(c, fused_find<T>(slots, cols), "fused", S, slots, cols);
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

template <typename T> static int region_forward_fused(struct rb_case *c, state *s)
{
    int rc = table_launch<T>(c, s);
    return rc ? rc : fused_launch<T>(c, s, s->slots, s->cols);
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

int givens_cuda_run_forward_fused(struct rb_case *c)
{
    return timed(c, region_forward_fused<float>, region_forward_fused<double>);
}

int givens_cuda_run_backward_fused(struct rb_case *c)
{
    return timed(c, region_backward_fused<float>, region_backward_fused<double>);
}

template <typename T> static int fused_form_u(struct rb_case *c, state *s, int slots)
{
    int rc;
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

template <typename T> static void fused_occupancy(const state *s, struct rb_occ *occ)
{
    if (s->backward) {
        fused_bwd_cfg<T> f = fused_bwd_find<T>(s->slots, s->cols);
        char name[64];
        snprintf(name, sizeof name, "givens_fused_backward<B=%d,W=%d>", s->slots, s->cols);
        rb_gpu_occ_add(occ, (const void *)givens_rotation_table<T>, AUX_BLOCK, 0,
                       "givens_rotation_table");
        if (f.kernel)
            rb_gpu_occ_add(occ, (const void *)f.kernel, givens_fused_threads(s->S, s->slots),
                           f.smem(givens_fused_threads(s->S, s->slots)), name);
        rb_gpu_occ_add(occ, (const void *)givens_fused_backward_finish<T>, AUX_BLOCK, 0,
                       "givens_fused_backward_finish");
    } else {
        fused_cfg<T> f = fused_find<T>(s->slots, s->cols);
        char name[64];
        snprintf(name, sizeof name, "givens_fused_forward<B=%d,W=%d>", s->slots, s->cols);
        rb_gpu_occ_add(occ, (const void *)givens_rotation_table<T>, AUX_BLOCK, 0,
                       "givens_rotation_table");
        if (f.kernel)
            rb_gpu_occ_add(occ, (const void *)f.kernel, givens_fused_threads(s->S, s->slots),
                           f.smem(givens_fused_threads(s->S, s->slots)), name);
    }
}
