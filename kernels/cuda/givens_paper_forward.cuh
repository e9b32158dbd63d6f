// SPDX-License-Identifier: MIT
// The paper's CUDA forward (Hamze, arXiv:2106.00003, sections 3 and 6): one
// launch per round-robin block, (i, j) computed from the step index so that
// nothing but theta is uploaded; each thread rotates one column of one pair.
#ifndef GIVENS_PAPER_FORWARD_CUH
#define GIVENS_PAPER_FORWARD_CUH

#include "kernels/cuda/givens_table.cuh"

// U <- I (n x n, row-major).  Grid-stride.
template <typename T>
__global__ void givens_identity(int n, T *__restrict__ U)
{
    const size_t total = (size_t)n * n;
    for (size_t idx = blockIdx.x * (size_t)blockDim.x + threadIdx.x; idx < total;
         idx += (size_t)gridDim.x * blockDim.x)
        U[idx] = idx / n == idx % n ? T(1) : T(0);
}

// One block of rotations: grid (ceil(n / blockDim.x), nt / 2), blockIdx.y the
// slot, threads over columns.  Rows i and j of U: u_i <- c u_i - s u_j,
// u_j <- s u_i + c u_j.
template <typename T>
__global__ void givens_paper_forward_step(int n, int m, int nt, int step,
                                          const T *__restrict__ theta, T *__restrict__ U)
{
    const int col = blockIdx.x * blockDim.x + threadIdx.x;
    int i, j;
    rb_rr_pair(nt, step, blockIdx.y, &i, &j);
    if (col >= n || !rb_rr_keep(n, m, i, j))
        return;
    T s, c;
    givens_sincos(theta[(size_t)i * n - (size_t)i * (i + 1) / 2 + j - i - 1], &s, &c);
    const T a = U[(size_t)i * n + col], b = U[(size_t)j * n + col];
    U[(size_t)i * n + col] = c * a - s * b;
    U[(size_t)j * n + col] = s * a + c * b;
}

#endif
