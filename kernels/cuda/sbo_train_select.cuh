// SPDX-License-Identifier: MIT
// The per-signal steps of SBO training around the representation pass
// (Irofti; shared/notes/sbo.md 4 and 5.1), as kernels/opencl/
// sbo_train_select.cl has them: squared norms, the paper's energy update
// (residuals and RMSE partial sums), the W worst-represented signals, the
// grouping of signals by block (count, scan, stable scatter), the gather,
// 1ONB step 4 (hard thresholding), and a representation map for any s (the
// paper's sbo_energy is built for powers of two).  CUDA and HIP alike: no
// warp-size assumption; blocks of at most SBO_TRAIN_MAX_BLOCK threads.
// Conventions of impl/sbo/sbo.h: column-major, signal i at Y + i p.  The
// training's kernels are static: the CUDA and HIP objects of one binary
// each keep their own.
#ifndef SBO_TRAIN_SELECT_CUH
#define SBO_TRAIN_SELECT_CUH

#include "kernels/cuda/sbo_common.cuh"

// The most threads a block of the training's kernels: sizes their static
// shared arrays (a double each: 2 KB).
#define SBO_TRAIN_MAX_BLOCK 256
// The largest s the thresholding and the any-s map take (sbo.h's SBO_MAX_S).
#define SBO_TRAIN_MAX_S 64
// The most blocks a grouping takes (the `blocks` axis's maximum).
#define SBO_TRAIN_MAX_NB 256

// red[0 .. n-1] summed into red[0] for any n (a block-size tree, the
// OpenCL order); every thread of the block calls it.
template <typename T> __device__ __forceinline__ void sbo_block_sum(T *red, int lid, int n)
{
    for (int h = 1; h < n; h <<= 1) {
        __syncthreads();
        if (lid % (2 * h) == 0 && lid + h < n)
            red[lid] += red[lid + h];
    }
    __syncthreads();
}

// *a = v, in stream order (a count the next kernels read), one thread.
static __global__ void sbo_set_int(int *a, int v)
{
    *a = v;
}

// ynorm[i] = |y_i|^2: one thread per signal, any block size.
template <typename T>
static __global__ void sbo_ynorm(int p, int m, const T *__restrict__ Y,
                                 T *__restrict__ ynorm)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= m)
        return;
    const T *y = Y + (size_t)i * p;
    T a = T(0);
    for (int k = 0; k < p; k++)
        a += y[k] * y[k];
    ynorm[i] = a;
}

// The paper's energy update: r_i = |y_i|^2 - E_i (unclamped, as sbo_train),
// and per block the sum of max(r_i, 0) at part[at + block]; threads stride
// over the signals (grid npart blocks).  The host adds the blocks' sums.
template <typename T>
static __global__ void __launch_bounds__(SBO_TRAIN_MAX_BLOCK)
sbo_energy_update(int m, const T *__restrict__ ynorm, const T *__restrict__ energy,
                  T *__restrict__ r, T *__restrict__ part, int at)
{
    __shared__ T red[SBO_TRAIN_MAX_BLOCK];
    const int lid = threadIdx.x, n = blockDim.x;
    T acc = T(0);
    for (int i = blockIdx.x * n + lid; i < m; i += gridDim.x * n) {
        const T d = ynorm[i] - energy[i];
        r[i] = d;
        acc += fmax(d, T(0));
    }
    red[lid] = acc;
    sbo_block_sum(red, lid, n);
    if (lid == 0)
        part[at + blockIdx.x] = red[0];
}

// The W worst-represented signals, as sbo_worst: idx[k] the signal of rank
// k by descending r, ties to the lower index.  Each thread ranks its signal
// against all m through tiles of r in shared memory (exact and
// order-independent).
template <typename T>
static __global__ void __launch_bounds__(SBO_TRAIN_MAX_BLOCK)
sbo_worst(int m, int W, const T *__restrict__ r, int *__restrict__ idx)
{
    __shared__ T tile[SBO_TRAIN_MAX_BLOCK];
    const int lid = threadIdx.x, n = blockDim.x, i = blockIdx.x * n + lid;
    const T ri = i < m ? r[i] : T(0);
    int rank = 0;
    for (int t0 = 0; t0 < m; t0 += n) {
        __syncthreads();
        if (t0 + lid < m)
            tile[lid] = r[t0 + lid];
        __syncthreads();
        const int len = min(n, m - t0);
        for (int k = 0; k < len; k++) {
            const T rk = tile[k];
            rank += rk > ri || (rk == ri && t0 + k < i);
        }
    }
    if (i < m && rank < W)
        idx[rank] = i;
}

// Grouping, 1 of 3: per tile of blockDim signals (a block of the grid) the
// count of each of the nb blocks, tiles[j ntiles + tile]; nb <=
// SBO_TRAIN_MAX_NB.
static __global__ void __launch_bounds__(SBO_TRAIN_MAX_BLOCK)
sbo_group_count(int m, int nb, const int *__restrict__ best, int *__restrict__ tiles)
{
    __shared__ int hist[SBO_TRAIN_MAX_NB];
    const int lid = threadIdx.x, n = blockDim.x, g = blockIdx.x, ntiles = gridDim.x;
    const int i = g * n + lid;
    for (int j = lid; j < nb; j += n)
        hist[j] = 0;
    __syncthreads();
    if (i < m)
        atomicAdd(&hist[best[i]], 1);
    __syncthreads();
    for (int j = lid; j < nb; j += n)
        tiles[(size_t)j * ntiles + g] = hist[j];
}

// Grouping, 2 of 3, one block: counts[j] the signals of block j, and
// tiles[j ntiles + t] turned into where tile t's first signal of block j
// goes (block j's signals start at the sum of the counts before it, in
// signal order: a stable counting sort).
static __global__ void __launch_bounds__(SBO_TRAIN_MAX_BLOCK)
sbo_group_scan(int nb, int ntiles, int *__restrict__ tiles, int *__restrict__ counts)
{
    __shared__ int start[SBO_TRAIN_MAX_NB];
    const int lid = threadIdx.x, n = blockDim.x;
    for (int j = lid; j < nb; j += n) {
        int *t = tiles + (size_t)j * ntiles;
        int sum = 0;
        for (int k = 0; k < ntiles; k++) {
            const int c = t[k];
            t[k] = sum;
            sum += c;
        }
        counts[j] = sum;
        start[j] = sum;
    }
    __syncthreads();
    if (lid == 0) {
        int sum = 0;
        for (int j = 0; j < nb; j++) {
            const int c = start[j];
            start[j] = sum;
            sum += c;
        }
    }
    __syncthreads();
    for (int e = lid; e < nb * ntiles; e += n)
        tiles[e] += start[e / ntiles];
}

// Grouping, 3 of 3: order[pos] = i, pos = where tile g's signals of block j
// start plus i's rank among them (the count's tiles and block size).
static __global__ void __launch_bounds__(SBO_TRAIN_MAX_BLOCK)
sbo_group_scatter(int m, const int *__restrict__ best, const int *__restrict__ tiles,
                  int *__restrict__ order)
{
    __shared__ int lb[SBO_TRAIN_MAX_BLOCK];
    const int lid = threadIdx.x, g = blockIdx.x, ntiles = gridDim.x;
    const int i = g * blockDim.x + lid;
    const int j = i < m ? best[i] : -1;
    lb[lid] = j;
    __syncthreads();
    if (i >= m)
        return;
    int rank = 0;
    for (int k = 0; k < lid; k++)
        rank += lb[k] == j;
    order[tiles[(size_t)j * ntiles + g] + rank] = i;
}

// Ysub[:, k] = Y[:, list[k]] for k < n: one thread per element, so that
// consecutive threads copy consecutive rows.
template <typename T>
static __global__ void sbo_gather(int p, int n, const int *__restrict__ list,
                                  const T *__restrict__ Y, T *__restrict__ Ysub)
{
    const size_t e = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (e >= (size_t)n * p)
        return;
    const size_t k = e / p, row = e % p;
    Ysub[e] = Y[(size_t)list[k] * p + row];
}

// 1ONB step 4 for a batch of blocks, the paper's partial selection: block
// g's codes are the p x ncols matrix C + g p ncols; column t keeps its s
// entries of largest magnitude (ties to the lower index, as sbo_code) when
// t < cnt[g], and is zeroed past the block's signals, so that the padded
// columns of the batched GEMMs add nothing.  Grid (ceil(ncols / block),
// nbatch); s <= SBO_TRAIN_MAX_S.
template <typename T>
static __global__ void __launch_bounds__(SBO_TRAIN_MAX_BLOCK)
sbo_threshold(int p, int s, int ncols, const int *__restrict__ cnt, T *__restrict__ C)
{
    const int t = blockIdx.x * blockDim.x + threadIdx.x, g = blockIdx.y;
    if (t >= ncols)
        return;
    T *c = C + ((size_t)g * ncols + t) * p;
    if (t >= cnt[g]) {
        for (int k = 0; k < p; k++)
            c[k] = T(0);
        return;
    }
    // The kept rows by descending magnitude; the column is read twice
    // rather than held (p is not known when this is compiled).
    int idx[SBO_TRAIN_MAX_S], n = 0;
    for (int k = 0; k < p; k++) {
        const T a = fabs(c[k]);
        if (n == s && a <= fabs(c[idx[n - 1]]))
            continue;
        int at = n < s ? n++ : n - 1;
        while (at > 0 && fabs(c[idx[at - 1]]) < a) {
            idx[at] = idx[at - 1];
            at--;
        }
        idx[at] = k;
    }
    T keep[SBO_TRAIN_MAX_S];
    for (int k = 0; k < n; k++)
        keep[k] = c[idx[k]];
    for (int k = 0; k < p; k++)
        c[k] = T(0);
    for (int k = 0; k < n; k++)
        c[idx[k]] = keep[k];
}

// sbo_energy (kernels/cuda/sbo_paper.cuh) for an s known only at run time,
// s <= SBO_TRAIN_MAX_S: the same codes, the same sorted top-s list (in
// local memory here) summed from the largest down.  Grid (ceil(m / block),
// nb).
template <typename T, int PMAX>
static __global__ void __launch_bounds__(SBO_TRAIN_MAX_BLOCK)
sbo_energy_any(int p, int s, int m, const T *__restrict__ D, const T *__restrict__ Y,
               T *__restrict__ E)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x, j = blockIdx.y;
    if (i >= m)
        return;
    T y[PMAX], top[SBO_TRAIN_MAX_S];
    sbo_signal_load<T, PMAX>(y, Y, p, i);
    for (int q = 0; q < s; q++)
        top[q] = T(0);
    const T *Q = D + (size_t)j * p * p;
    for (int r = 0; r < p; r++) {
        const T *col = Q + (size_t)r * p;
        T acc = T(0);
#pragma unroll
        for (int k = 0; k < PMAX; k++)
            if (k < p)
                acc += col[k] * y[k];
        T a = acc * acc;
        if (a > top[s - 1])
            for (int q = 0; q < s; q++) {
                const T hi = fmax(top[q], a);
                a = fmin(top[q], a);
                top[q] = hi;
            }
    }
    T e = T(0);
    for (int q = 0; q < s; q++)
        e += top[q];
    E[(size_t)j * m + i] = e;
}

#endif
