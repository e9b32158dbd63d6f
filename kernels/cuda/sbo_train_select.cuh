// SPDX-License-Identifier: MIT
// The per-signal steps of SBO training around the representation pass
// (Irofti; shared/notes/sbo.md 4 and 5.1), as kernels/opencl/
// sbo_train_select.cl has them: squared norms, the paper's energy update
// (residuals and RMSE partial sums), the stable sort that picks the W
// worst-represented signals and groups the signals by block, the gather,
// 1ONB step 4 (hard thresholding), and a representation map for any s (the
// paper's sbo_energy is built for powers of two).  CUDA and HIP alike: no
// warp-size assumption; blocks of at most SBO_TRAIN_MAX_BLOCK threads.
// Conventions of impl/sbo/sbo.h: column-major, signal i at Y + i p.  The
// training's kernels are static: the CUDA and HIP objects of one binary
// each keep their own.
#ifndef SBO_TRAIN_SELECT_CUH
#define SBO_TRAIN_SELECT_CUH

#include "kernels/cuda/sbo_common.cuh"
#include "impl/sbo/sbo_sort.h"

// The most threads a block of the training's kernels: sizes their static
// shared arrays (a double each: 2 KB).
#define SBO_TRAIN_MAX_BLOCK 256
// The largest s the thresholding and the any-s map take (sbo.h's SBO_MAX_S).
#define SBO_TRAIN_MAX_S 64

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

// Sorting signals, for the worst-W selection and for the grouping by
// block: a stable counting sort by an 8-bit digit, run once for the
// grouping (the digit is the block) and as an LSD radix sort of the
// residuals' keys for the selection (4 passes in float, 8 in double), so
// that both cost O(m) a pass; ranking every signal against all m was
// O(m^2).  Each block of the grid owns `chunk` consecutive positions:
// sbo_radix_count counts its digits, sbo_radix_scatter finds from all the
// chunks' counts where its signals of each digit start and moves them
// there in order.

// A key whose ascending order is v's descending order, ties kept equal:
// -0 as +0 (they compare equal), every NaN first (the worst represented).
__device__ __forceinline__ unsigned sbo_radix_key(float v)
{
    unsigned b;
    v = v == 0.0f ? 0.0f : v;
    __builtin_memcpy(&b, &v, sizeof b);
    return v != v ? 0u : b >> 31 ? b : ~b & 0x7fffffffu;
}

__device__ __forceinline__ unsigned long long sbo_radix_key(double v)
{
    unsigned long long b;
    v = v == 0.0 ? 0.0 : v;
    __builtin_memcpy(&b, &v, sizeof b);
    return v != v ? 0ull : b >> 63 ? b : ~b & 0x7fffffffffffffffull;
}

// What a pass sorts: the grouping's signals by block (best[k], best not
// NULL), or the residual sort's by bits shift .. shift + 7 of the key of
// r[seq[k]] (r[k] in the first pass, seq NULL).
template <typename T> struct sbo_radix_src {
    const int *best;
    const T *r;
    const int *seq;
    int shift;
};

template <typename T>
__device__ __forceinline__ int sbo_radix_digit(const sbo_radix_src<T> &src, int k)
{
    if (src.best)
        return src.best[k];
    const T v = src.r[src.seq ? src.seq[k] : k];
    return (int)(sbo_radix_key(v) >> src.shift) & (SBO_SORT_BUCKETS - 1);
}

// Sort, 1 of 2: tiles[g nb + d] the signals of digit d (below nb) among
// chunk g's positions g chunk .. (g + 1) chunk - 1.  Grid: the chunks.
template <typename T>
static __global__ void __launch_bounds__(SBO_TRAIN_MAX_BLOCK)
sbo_radix_count(int m, int chunk, int nb, sbo_radix_src<T> src, int *__restrict__ tiles)
{
    __shared__ int hist[SBO_SORT_BUCKETS];
    const int lid = threadIdx.x, n = blockDim.x, g = blockIdx.x;
    const int end = min(m, (g + 1) * chunk);
    for (int d = lid; d < nb; d += n)
        hist[d] = 0;
    __syncthreads();
    for (int k = g * chunk + lid; k < end; k += n)
        atomicAdd(&hist[sbo_radix_digit(src, k)], 1);
    __syncthreads();
    for (int d = lid; d < nb; d += n)
        tiles[(size_t)g * nb + d] = hist[d];
}

// Sort, 2 of 2: out[pos] = the signal at position k (seq[k], or k), pos =
// the signals of smaller digits, plus those of k's digit in earlier chunks
// (both from every chunk's counts) and earlier in this chunk: a stable
// counting sort.  Positions from len on are not written (the selection
// keeps the first W); block 0 writes counts[d], the signals of digit d,
// when counts is not NULL.  The chunk goes by in pieces of blockDim
// positions, base[] counting each digit's signals written so far.  The same
// grid as the count.
template <typename T>
static __global__ void __launch_bounds__(SBO_TRAIN_MAX_BLOCK)
sbo_radix_scatter(int m, int chunk, int nb, int len, sbo_radix_src<T> src,
                  const int *__restrict__ tiles, int *__restrict__ out, int *__restrict__ counts)
{
    __shared__ int base[SBO_SORT_BUCKETS], start[SBO_SORT_BUCKETS], lb[SBO_TRAIN_MAX_BLOCK];
    const int lid = threadIdx.x, n = blockDim.x, g = blockIdx.x, ntiles = gridDim.x;
    for (int d = lid; d < nb; d += n) {
        int before = 0, total = 0;
        for (int q = 0; q < ntiles; q++) {
            const int c = tiles[(size_t)q * nb + d];
            before += q < g ? c : 0;
            total += c;
        }
        base[d] = before;
        start[d] = total;
        if (counts && g == 0)
            counts[d] = total;
    }
    __syncthreads();
    if (lid == 0)
        for (int d = 0, sum = 0; d < nb; d++) {
            const int c = start[d];
            start[d] = sum;
            sum += c;
        }
    __syncthreads();
    for (int d = lid; d < nb; d += n)
        base[d] += start[d];
    const int end = min(m, (g + 1) * chunk);
    for (int k0 = g * chunk; k0 < end; k0 += n) {
        const int k = k0 + lid;
        const int d = k < end ? sbo_radix_digit(src, k) : -1;
        lb[lid] = d;
        __syncthreads();
        if (d >= 0) {
            int rank = 0;
            for (int q = 0; q < lid; q++)
                rank += lb[q] == d;
            const int pos = base[d] + rank;
            if (pos < len)
                out[pos] = src.seq ? src.seq[k] : k;
        }
        __syncthreads();
        if (d >= 0)
            atomicAdd(&base[d], 1);
    }
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
