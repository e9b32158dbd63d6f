// SPDX-License-Identifier: MIT
// The paper's representation pass (Irofti, the representation kernel;
// shared/notes/sbo.md, 5.1), as kernels/opencl/sbo_represent.cl has it for
// OpenCL: a map over (signal, block) pairs, one thread each, the codes
// Q_j^T y and their top-s list in registers, each pair's energy written to
// an L x m buffer; then a reduce, one thread per signal, taking the block
// of largest energy.  The block's coefficients are read from global memory
// by every thread of a warp at once (a broadcast), as the paper's kernel
// reads them; nothing is staged.  CUDA and HIP alike.
#ifndef SBO_PAPER_CUH
#define SBO_PAPER_CUH

#include "kernels/cuda/sbo_common.cuh"

// The most threads a block of sbo_energy: its signal and list sit in
// registers, which 1024 threads would not leave room for.
#define SBO_ENERGY_MAX_BLOCK 256

// Grid (ceil(m / block), L): thread (i, j) writes E[j m + i], the sum of
// the S largest (Q_j^T y_i)^2; p <= PMAX.
template <typename T, int PMAX, int S>
__global__ void __launch_bounds__(SBO_ENERGY_MAX_BLOCK)
sbo_energy(int p, int m, const T *__restrict__ D, const T *__restrict__ Y, T *__restrict__ E)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x, j = blockIdx.y;
    if (i >= m)
        return;
    T y[PMAX], top[S];
    sbo_signal_load<T, PMAX>(y, Y, p, i);
    sbo_top_clear<T, S>(top);
    const T *Q = D + (size_t)j * p * p;
    for (int r = 0; r < p; r++) {
        const T *col = Q + (size_t)r * p;
        T acc = T(0);
#pragma unroll
        for (int k = 0; k < PMAX; k++)
            if (k < p)
                acc += col[k] * y[k];
        sbo_top_insert<T, S>(top, acc * acc);
    }
    E[(size_t)j * m + i] = sbo_top_sum<T, S>(top);
}

// One thread per signal: best[i] the block of largest E among L, ties to
// the lower index (only a strictly larger energy moves it), energy[i] its
// energy; a NaN energy of block 0 stays NaN.
template <typename T>
__global__ void __launch_bounds__(1024)
sbo_argmax(int m, int L, const T *__restrict__ E, int *__restrict__ best,
           T *__restrict__ energy)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= m)
        return;
    T eb = E[i];
    int jb = 0;
    for (int j = 1; j < L; j++) {
        const T e = E[(size_t)j * m + i];
        if (e > eb) {
            eb = e;
            jb = j;
        }
    }
    best[i] = jb;
    energy[i] = eb;
}

#endif
