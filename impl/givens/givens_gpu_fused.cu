// SPDX-License-Identifier: MIT
// The fused kernels' launches, compiled once for CUDA and once for HIP
// (givens_gpu_state.h): their timed regions (the shear table, then one
// sweep), the fused forming of the backward's U in setup, the shared-memory
// opt-in and their occupancy.  A case's `slots` is the engine's B and its
// `cols` the columns per block, WT per column group (givens_gpu_fused_wt)
// times the groups.
#include <config.h>
#include <stdio.h>
#include "impl/givens/givens_case.h"
#include "impl/givens/givens_gpu_pick.h"
#include "impl/givens/givens_gpu_state.h"
#include "kernels/cuda/givens_slab_kernels.cuh"

namespace givens_gpu {
inline namespace RB_GPU_NS {

// The dynamic shared memory allowed without opt-in.
enum { SMEM_DEFAULT = 48 * 1024 };

template <typename T> using vec2 = typename givens_vec2<T>::type;

// One fused kernel: the forward or the backward, its columns per group
// and the groups.
template <typename T> struct fused_cfg {
    void (*fwd)(int, int, int, const vec2<T> *, const T *, T *);
    void (*bwd)(int, int, int, const vec2<T> *, const T *, const T *, T *);
    int wt, wg;
    size_t (*smem)(int S);
};

template <typename T, int B, int WT, int WG> static size_t fwd_smem(int S)
{
    return givens_slab_smem<T, B, WT>(S / B, givens_slab_threads(S, B, WG));
}

template <typename T, int B, int WT, int WG> static size_t bwd_smem(int S)
{
    return givens_slab_backward_smem<T, B, WT, WG>(S);
}

template <typename T, bool BWD, int B, int WG> static fused_cfg<T> fused_make()
{
    constexpr int WT = GIVENS_GPU_FUSED_WT(sizeof(T), BWD, B);
    if constexpr (BWD)
        return { NULL, givens_slab_backward<T, B, WT, WG>, WT, WG, bwd_smem<T, B, WT, WG> };
    else
        return { givens_slab_forward<T, B, WT, WG>, NULL, WT, WG, fwd_smem<T, B, WT, WG> };
}

// The kernel for (slots, cols); null kernels where none is built
// (givens_gpu_fused_fits says which).
template <typename T, bool BWD> static fused_cfg<T> fused_find(int slots, int cols)
{
    if constexpr (BWD && sizeof(T) == 4) {
        if (givens_gpu_fused_wide(sizeof(T), BWD, slots, cols))
            return { NULL, givens_slab_backward<T, 8, GIVENS_GPU_FUSED_WIDE, 1>,
                     GIVENS_GPU_FUSED_WIDE, 1, bwd_smem<T, 8, GIVENS_GPU_FUSED_WIDE, 1> };
    }
    const int wt = givens_gpu_fused_wt(sizeof(T), BWD, slots);
    if (cols % wt)
        return {};
    const int wg = cols / wt;
    return givens_pick_slots<true>(slots, [wg](auto b) -> fused_cfg<T> {
        constexpr int B = decltype(b)::value;
        if constexpr (B >= 8) {
            switch (wg) {
            case 1: return fused_make<T, BWD, B, 1>();
            case 2: return fused_make<T, BWD, B, 2>();
            case 4: return fused_make<T, BWD, B, 4>();
            }
        } else if (wg == 1) {
            return fused_make<T, BWD, B, 1>();
        }
        return {};
    });
}

// Opt a fused kernel in to the dynamic shared memory it needs for S slots
// where that exceeds the default.
template <typename T, bool BWD>
static int smem_opt_in(struct rb_case *c, int S, int slots, int cols)
{
    fused_cfg<T> f = fused_find<T, BWD>(slots, cols);
    const void *kernel = BWD ? (const void *)f.bwd : (const void *)f.fwd;
    if (!kernel)
        return rb_fail(c, RB_EINVAL, "no fused %s kernel for slots=%d cols=%d",
                       BWD ? "backward" : "forward", slots, cols);
    size_t smem = f.smem(S);
    if (smem > SMEM_DEFAULT)
        GPU_CHECK(c, gpuFuncSetAttribute(kernel, gpuFuncAttributeMaxDynamicSharedMemorySize,
                                         (int)smem));
    return 0;
}

int fused_prepare(struct rb_case *c, int S, int slots, int cols)
{
    return c->prec == RB_PREC_F64 ? smem_opt_in<double, false>(c, S, slots, cols)
                                  : smem_opt_in<float, false>(c, S, slots, cols);
}

int fused_backward_prepare(struct rb_case *c, int S, int slots, int cols)
{
    return c->prec == RB_PREC_F64 ? smem_opt_in<double, true>(c, S, slots, cols)
                                  : smem_opt_in<float, true>(c, S, slots, cols);
}

// The shear table for `slots` (its padding depends on them): the signs'
// parities, then the coefficients.
template <typename T> static int lift_launch(struct rb_case *c, state *s, int slots)
{
    const int nsteps = givens_slab_nsteps(s->nt, slots);
    givens_lift_parity<T><<<cdiv(s->nt, GIVENS_LIFT_PARITY_WARPS),
                            GIVENS_LIFT_PARITY_WARPS * 32, 0, s->stream>>>(
        s->n, s->m, s->nt, (const T *)s->theta, (unsigned *)s->pbits, (T *)s->sign);
    GPU_CHECK_LAUNCH(c);
    givens_lift_coeffs<T><<<grid_stride_blocks((long long)nsteps * s->S, AUX_BLOCK), AUX_BLOCK,
                            0, s->stream>>>(s->n, s->m, s->nt, nsteps, slots,
                                            givens_slab_per(slots, sizeof(vec2<T>)),
                                            (const T *)s->theta, (const unsigned *)s->pbits,
                                            (vec2<T> *)s->lift);
    GPU_CHECK_LAUNCH(c);
    return 0;
}

template <typename T> static int fused_launch(struct rb_case *c, state *s, int slots, int cols)
{
    fused_cfg<T> f = fused_find<T, false>(slots, cols);
    const int threads = givens_slab_threads(s->S, slots, f.wg);
    f.fwd<<<cdiv(s->n, cols), threads, f.smem(s->S), s->stream>>>(
        s->n, s->nt, givens_slab_nsteps(s->nt, slots), (const vec2<T> *)s->lift,
        (const T *)s->sign, (T *)s->U);
    GPU_CHECK_LAUNCH(c);
    return 0;
}

template <typename T> static int region_forward_fused(struct rb_case *c, state *s)
{
    int rc = lift_launch<T>(c, s, s->slots);
    return rc ? rc : fused_launch<T>(c, s, s->slots, s->cols);
}

// The fused backward: dP <- 0, the table, one sweep over all steps adding
// every block's partial dot products into dP, then dP into dtheta's order.
template <typename T> static int region_backward_fused(struct rb_case *c, state *s)
{
    fused_cfg<T> f = fused_find<T, true>(s->slots, s->cols);
    const int threads = givens_slab_threads(s->S, s->slots, f.wg);
    GPU_CHECK(c, gpuMemsetAsync(s->dP, 0, (size_t)(s->nt - 1) * s->S * sizeof(T), s->stream));
    int rc = lift_launch<T>(c, s, s->slots);
    if (rc)
        return rc;
    f.bwd<<<cdiv(s->n, s->cols), threads, f.smem(s->S), s->stream>>>(
        s->n, s->nt, givens_slab_nsteps(s->nt, s->slots), (const vec2<T> *)s->lift,
        (const T *)s->U, (const T *)s->gamma, (T *)s->dP);
    GPU_CHECK_LAUNCH(c);
    int grid = grid_stride_blocks((long long)(s->nt - 1) * s->S, AUX_BLOCK);
    givens_slab_backward_finish<T><<<grid, AUX_BLOCK, 0, s->stream>>>(
        s->n, s->m, s->nt, (const unsigned *)s->pbits, (const T *)s->dP, (T *)s->dtheta);
    GPU_CHECK_LAUNCH(c);
    return 0;
}

int run_forward_fused(struct rb_case *c)
{
    return timed(c, region_forward_fused<float>, region_forward_fused<double>);
}

int run_backward_fused(struct rb_case *c)
{
    return timed(c, region_backward_fused<float>, region_backward_fused<double>);
}

// The fused kernels' tables: the shear table padded for any slots, the
// parity words and the signs.
template <typename T> static int fused_tables_alloc(struct rb_case *c, state *s)
{
    GPU_CHECK(c, gpuMalloc(&s->lift, (size_t)(s->nt - 1 + GIVENS_GPU_FUSED_PAD) * s->S
                                         * sizeof(vec2<T>)));
    GPU_CHECK(c, gpuMalloc(&s->pbits, givens_lift_parity_words(s->nt) * sizeof(unsigned)));
    GPU_CHECK(c, gpuMalloc(&s->sign, (size_t)s->nt * sizeof(T)));
    return 0;
}

int fused_tables(struct rb_case *c, state *s)
{
    return c->prec == RB_PREC_F64 ? fused_tables_alloc<double>(c, s)
                                  : fused_tables_alloc<float>(c, s);
}

static void fused_tables_free(state *s)
{
    void *dev[] = { s->lift, s->pbits, s->sign };
    for (size_t k = 0; k < sizeof dev / sizeof *dev; k++)
        if (dev[k])
            (void)gpuFree(dev[k]);
    s->lift = s->pbits = s->sign = NULL;
}

// U by the fused forward with one column group; the backward of a paper
// variant has no tables, so they live only as long as this call.
template <typename T> static int fused_form_u_of(struct rb_case *c, state *s, int slots)
{
    const int own = s->lift == NULL;
    const int cols = givens_gpu_fused_wt(sizeof(T), 0, slots);
    int rc = own ? fused_tables_alloc<T>(c, s) : 0;
    if (rc || (rc = smem_opt_in<T, false>(c, s->S, slots, cols))
        || (rc = lift_launch<T>(c, s, slots)) || (rc = fused_launch<T>(c, s, slots, cols)))
        return rc;
    GPU_CHECK(c, gpuStreamSynchronize(s->stream));
    if (own)
        fused_tables_free(s);
    return 0;
}

template <typename T> static void fused_occupancy_of(const state *s, struct rb_occ *occ)
{
    fused_cfg<T> f = s->backward ? fused_find<T, true>(s->slots, s->cols)
                                 : fused_find<T, false>(s->slots, s->cols);
    const void *kernel = s->backward ? (const void *)f.bwd : (const void *)f.fwd;
    char name[64];
    snprintf(name, sizeof name, "givens_slab_%s<B=%d,WT=%d,WG=%d>",
             s->backward ? "backward" : "forward", s->slots, f.wt, f.wg);
    rb_gpu_occ_add(occ, (const void *)givens_lift_parity<T>, GIVENS_LIFT_PARITY_WARPS * 32, 0,
                   "givens_lift_parity");
    rb_gpu_occ_add(occ, (const void *)givens_lift_coeffs<T>, AUX_BLOCK, 0, "givens_lift_coeffs");
    if (kernel)
        rb_gpu_occ_add(occ, kernel, givens_slab_threads(s->S, s->slots, f.wg), f.smem(s->S),
                       name);
    if (s->backward)
        rb_gpu_occ_add(occ, (const void *)givens_slab_backward_finish<T>, AUX_BLOCK, 0,
                       "givens_slab_backward_finish");
}

int fused_form_u(struct rb_case *c, state *s, int slots)
{
    return c->prec == RB_PREC_F64 ? fused_form_u_of<double>(c, s, slots)
                                  : fused_form_u_of<float>(c, s, slots);
}

void fused_occupancy(struct rb_case *c, const state *s, struct rb_occ *occ)
{
    if (c->prec == RB_PREC_F64)
        fused_occupancy_of<double>(s, occ);
    else
        fused_occupancy_of<float>(s, occ);
}

} // namespace RB_GPU_NS
} // namespace givens_gpu
