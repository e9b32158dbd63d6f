// SPDX-License-Identifier: MIT
// The paper's backward (Hamze, arXiv:2106.00003, Algorithm 3, section 4.2):
// per round-robin block, rotate the rows of M and of V = (U^fwd)^T by G_b,
// fill A (n/2 x n) with A[k, l] = M_il V_jl - M_jl V_il for the block's pairs,
// and sum A's rows into the block's angles (the O(log n) reduction).
#ifndef GIVENS_PAPER_BACKWARD_CUH
#define GIVENS_PAPER_BACKWARD_CUH

#include "kernels/cuda/givens_table.cuh"

// out = in^T for n x n row-major matrices, through a shared-memory tile.
template <typename T>
__global__ void givens_transpose(int n, const T *__restrict__ in, T *__restrict__ out)
{
    __shared__ T tile[32][33];
    const int bx = blockIdx.x * 32, by = blockIdx.y * 32;
    for (int y = threadIdx.y; y < 32; y += blockDim.y)
        if (by + y < n && bx + (int)threadIdx.x < n)
            tile[y][threadIdx.x] = in[(size_t)(by + y) * n + bx + threadIdx.x];
    __syncthreads();
    for (int y = threadIdx.y; y < 32; y += blockDim.y)
        if (bx + y < n && by + (int)threadIdx.x < n)
            out[(size_t)(bx + y) * n + by + threadIdx.x] = tile[threadIdx.x][y];
}

// Rows i and j of M and of V rotated by the pair of slot blockIdx.y in
// `step`: r_i <- c r_i - s r_j, r_j <- s r_i + c r_j.  Threads over columns.
template <typename T>
__global__ void givens_paper_backward_rotate(int n, int m, int nt, int step,
                                             const T *__restrict__ theta, T *__restrict__ M,
                                             T *__restrict__ V)
{
    const int col = blockIdx.x * blockDim.x + threadIdx.x;
    int i, j;
    rb_rr_pair(nt, step, blockIdx.y, &i, &j);
    if (col >= n || !rb_rr_keep(n, m, i, j))
        return;
    T s, c;
    givens_sincos(theta[(size_t)i * n - (size_t)i * (i + 1) / 2 + j - i - 1], &s, &c);
    T a = M[(size_t)i * n + col], b = M[(size_t)j * n + col];
    M[(size_t)i * n + col] = c * a - s * b;
    M[(size_t)j * n + col] = s * a + c * b;
    a = V[(size_t)i * n + col];
    b = V[(size_t)j * n + col];
    V[(size_t)i * n + col] = c * a - s * b;
    V[(size_t)j * n + col] = s * a + c * b;
}

// A[slot, l] = M_il V_jl - M_jl V_il for the pairs of `step` (0 for dropped
// pairs).  Grid (ceil(n / blockDim.x), nt / 2).
template <typename T>
__global__ void givens_paper_backward_set_a(int n, int m, int nt, int step,
                                            const T *__restrict__ M, const T *__restrict__ V,
                                            T *__restrict__ A)
{
    const int l = blockIdx.x * blockDim.x + threadIdx.x;
    if (l >= n)
        return;
    int i, j;
    rb_rr_pair(nt, step, blockIdx.y, &i, &j);
    T a = 0;
    if (rb_rr_keep(n, m, i, j))
        a = M[(size_t)i * n + l] * V[(size_t)j * n + l]
            - M[(size_t)j * n + l] * V[(size_t)i * n + l];
    A[(size_t)blockIdx.y * n + l] = a;
}

// dtheta of the pair of slot blockIdx.x in `step` = the sum of A's row:
// a block-wide tree reduction.  blockDim.x a power of two <= 1024.
template <typename T>
__global__ void givens_paper_backward_row_sum(int n, int m, int nt, int step,
                                              const T *__restrict__ A, T *__restrict__ dtheta)
{
    __shared__ T part[1024];
    int i, j;
    rb_rr_pair(nt, step, blockIdx.x, &i, &j);
    if (!rb_rr_keep(n, m, i, j))
        return;                                     // the whole block leaves together
    T sum = 0;
    for (int l = threadIdx.x; l < n; l += blockDim.x)
        sum += A[(size_t)blockIdx.x * n + l];
    part[threadIdx.x] = sum;
    __syncthreads();
    for (int h = blockDim.x / 2; h > 0; h /= 2) {
        if ((int)threadIdx.x < h)
            part[threadIdx.x] += part[threadIdx.x + h];
        __syncthreads();
    }
    if (threadIdx.x == 0)
        dtheta[(size_t)i * n - (size_t)i * (i + 1) / 2 + j - i - 1] = part[0];
}

#endif
