// SPDX-License-Identifier: MIT
// The paper's launches, compiled once for CUDA and once for HIP
// (givens_gpu_state.h): the timed regions of the per-step forward and
// backward, the untimed forms of U and Gamma for the backward's setup, and
// the occupancy of what run launches.  The fused kernels' launches are in
// givens_gpu_fused.cu.
#include <config.h>
#include <stdio.h>
#include <string.h>
#include "impl/givens/givens_case.h"
#include "impl/givens/givens_gpu_state.h"
#include "kernels/cuda/givens_paper_backward.cuh"
#include "kernels/cuda/givens_paper_forward.cuh"

// Gamma = G X^T (n x n) in T from the fp64 factors (n x r, row-major),
// summed in fp64 as givens_case.c does on the host.  Outside the namespace,
// as the kernels of kernels/cuda/ are.
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

namespace givens_gpu {
inline namespace RB_GPU_NS {

// Rows of a transpose block (32 x 8).
enum { TILE_ROWS = 8 };

// The row sums need a power of two: the largest not above the block.
static int pow2_floor(int x)
{
    int p = 1;
    while (p * 2 <= x && p < 1024)
        p *= 2;
    return p;
}

// The paper's forward: U <- I, then one launch per step, steps nt-2 ... 0.
template <typename T> static int paper_forward(struct rb_case *c, state *s, int block)
{
    givens_identity<T><<<grid_stride_blocks((long long)s->n * s->n, block), block, 0,
                         s->stream>>>(s->n, (T *)s->U);
    GPU_CHECK_LAUNCH(c);
    dim3 grid(cdiv(s->n, block), s->S);
    for (int step = s->nt - 2; step >= 0; step--) {
        givens_paper_forward_step<T><<<grid, block, 0, s->stream>>>(
            s->n, s->m, s->nt, step, (const T *)s->theta, (T *)s->U);
        GPU_CHECK_LAUNCH(c);
    }
    return 0;
}

template <typename T> static int region_forward_paper(struct rb_case *c, state *s)
{
    return paper_forward<T>(c, s, s->block);
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
    GPU_CHECK_LAUNCH(c);
    givens_transpose<T><<<tgrid, tblock, 0, s->stream>>>(n, (const T *)s->gamma, M);
    GPU_CHECK_LAUNCH(c);
    for (int step = s->nt - 2; step >= 0; step--) {
        givens_paper_backward_rotate<T><<<grid, block, 0, s->stream>>>(n, s->m, s->nt, step,
                                                                       theta, M, V);
        GPU_CHECK_LAUNCH(c);
        givens_paper_backward_set_a<T><<<grid, block, 0, s->stream>>>(n, s->m, s->nt, step,
                                                                      M, V, A);
        GPU_CHECK_LAUNCH(c);
        givens_paper_backward_row_sum<T><<<s->S, rs, 0, s->stream>>>(n, s->m, s->nt, step, A,
                                                                     (T *)s->dtheta);
        GPU_CHECK_LAUNCH(c);
    }
    return 0;
}

int timed(struct rb_case *c, region_fn f32, region_fn f64)
{
    state *s = (state *)c->state;
    int rc = gpu_timer_start(c, &s->timer, s->stream);
    if (rc == 0)
        rc = (c->prec == RB_PREC_F64 ? f64 : f32)(c, s);
    if (rc == 0)
        rc = gpu_timer_stop(c, &s->timer, s->stream, &c->device_ms);
    return rc;
}

int run_forward_paper(struct rb_case *c)
{
    return timed(c, region_forward_paper<float>, region_forward_paper<double>);
}

int run_backward_paper(struct rb_case *c)
{
    return timed(c, region_backward_paper<float>, region_backward_paper<double>);
}

int form_u(struct rb_case *c, state *s, int slots)
{
    if (slots)
        return fused_form_u(c, s, slots);
    return c->prec == RB_PREC_F64 ? paper_forward<double>(c, s, AUX_BLOCK)
                                  : paper_forward<float>(c, s, AUX_BLOCK);
}

int form_gamma(struct rb_case *c, state *s)
{
    int grid = grid_stride_blocks((long long)s->n * s->n, AUX_BLOCK);
    if (c->prec == RB_PREC_F64)
        ::form_gamma<double><<<grid, AUX_BLOCK, 0, s->stream>>>(
            s->n, GIVENS_COTANGENT_RANK, s->Gd, s->Xd, (double *)s->gamma);
    else
        ::form_gamma<float><<<grid, AUX_BLOCK, 0, s->stream>>>(
            s->n, GIVENS_COTANGENT_RANK, s->Gd, s->Xd, (float *)s->gamma);
    GPU_CHECK_LAUNCH(c);
    return 0;
}

template <typename T> static void occupancy_of(const state *s, struct rb_occ *occ)
{
    if (s->backward) {
        rb_gpu_occ_add(occ, (const void *)givens_transpose<T>, 32 * TILE_ROWS, 0,
                       "givens_transpose");
        rb_gpu_occ_add(occ, (const void *)givens_paper_backward_rotate<T>, s->block, 0,
                       "givens_paper_backward_rotate");
        rb_gpu_occ_add(occ, (const void *)givens_paper_backward_set_a<T>, s->block, 0,
                       "givens_paper_backward_set_a");
        rb_gpu_occ_add(occ, (const void *)givens_paper_backward_row_sum<T>,
                       pow2_floor(s->block), 0, "givens_paper_backward_row_sum");
    } else {
        rb_gpu_occ_add(occ, (const void *)givens_identity<T>, s->block, 0, "givens_identity");
        rb_gpu_occ_add(occ, (const void *)givens_paper_forward_step<T>, s->block, 0,
                       "givens_paper_forward_step");
    }
}

void occupancy(struct rb_case *c, struct rb_occ *occ)
{
    memset(occ, 0, sizeof *occ);
    occ->available = 1;
    if (((const state *)c->state)->fused)
        fused_occupancy(c, (const state *)c->state, occ);
    else if (c->prec == RB_PREC_F64)
        occupancy_of<double>((const state *)c->state, occ);
    else
        occupancy_of<float>((const state *)c->state, occ);
}

} // namespace RB_GPU_NS
} // namespace givens_gpu
