// SPDX-License-Identifier: MIT
// The fused representation pass for float signals of p <= 64, two lanes a
// pair of signals.  sbo_fused keeps two whole signals a thread (128
// registers of them) and so runs 8 warps an SM, too few to hide the
// latency of its shared loads and dependent FMAs.  Here the two lanes of a
// pair split the 64 dimensions: each holds its half of both signals (64
// registers), computes the partial codes over its half, and one shuffle
// swaps the partials so that lane h finishes signal h's codes and keeps
// its top-s list.  A 16-byte coefficient load still feeds 8 FMAs, each
// lane inserts half the squares, and twice the warps fit.
// Lane h keeps the signals in the order h, 1 - h (y[0] is its own), so
// that every lane gives its partials of y[1] and keeps those of y[0]: no
// select on the lane, which cost 8% of the pass (4.14 against 3.81 ms in
// a kernel benchmark at p 64, s 8, L 16, m 2^20 on an H200).
// The staged rows hold their two halves 36 floats apart (4 of padding), so
// the pair's two loads fall in different banks; every pair of a warp reads
// the same two addresses (broadcasts).  A block is staged whole as 16-byte
// copies when p = 64 (Q_j is 16 KB contiguous), element by element with
// zero padding otherwise, into the buffer not being read.
// CUDA and HIP alike (rb_shfl_xor: a pair is two neighbouring lanes of any
// warp width).
#ifndef SBO_FUSED_PAIR_CUH
#define SBO_FUSED_PAIR_CUH

#include "kernels/cuda/rb_warp.cuh"
#include "kernels/cuda/sbo_common.cuh"

#define SBO_PAIR_HALF 32                        // dimensions a lane holds
#define SBO_PAIR_ROW (2 * SBO_PAIR_HALF + 4)    // staged row stride, floats
#define SBO_PAIR_MAX_BLOCK 256

// Where element k of a staged row lives: the second half 4 floats on.
__device__ __forceinline__ int sbo_pair_col(int k)
{
    return k < SBO_PAIR_HALF ? k : k + 4;
}

// Block j of D (p x p, column-major) as staged rows: row r is column r of
// Q_j, zero past p, 64 rows.
__device__ __forceinline__ void sbo_pair_stage(float *buf, const float *__restrict__ D, int p,
                                               int j)
{
    const int nt = blockDim.x;
    if (p == 2 * SBO_PAIR_HALF) {
        const float *src = D + (size_t)j * p * p;
        for (int e = threadIdx.x; e < p * p / 4; e += nt) {
            const int r = e / (p / 4), k = 4 * (e % (p / 4));
            const sbo_quad<float> v = sbo_quad_load(src + 4 * e);
            float *dst = buf + r * SBO_PAIR_ROW + sbo_pair_col(k);
            dst[0] = v.x;
            dst[1] = v.y;
            dst[2] = v.z;
            dst[3] = v.w;
        }
        return;
    }
    const int n = 2 * SBO_PAIR_HALF;
    for (int e = threadIdx.x; e < n * n; e += nt) {
        const int r = e / n, k = e % n;
        buf[r * SBO_PAIR_ROW + sbo_pair_col(k)] =
            r < p && k < p ? D[(size_t)j * p * p + (size_t)r * p + k] : 0.0f;
    }
}

// Grid ceil(m / block) x block threads, block even and at most
// SBO_PAIR_MAX_BLOCK: block b's pair q (threads 2q, 2q + 1) holds signals
// b block + q and b block + block / 2 + q, and lane h selects for the
// h-th of them, which it holds as y[0].  Lanes past m work on signal
// m - 1 (they take part in the barriers and shuffles) and write nothing.
// p <= 64, 1 <= L.
template <int S>
__global__ void __launch_bounds__(SBO_PAIR_MAX_BLOCK, 2)
sbo_fused_pair(int p, int L, int m, const float *__restrict__ D, const float *__restrict__ Y,
               int *__restrict__ best, float *__restrict__ energy)
{
    __shared__ __align__(16) float qs[2][2 * SBO_PAIR_HALF * SBO_PAIR_ROW];
    const int nt = blockDim.x, h = threadIdx.x & 1, q = threadIdx.x >> 1;
    const int base = blockIdx.x * nt, mine = base + h * (nt / 2) + q;
    float y[2][SBO_PAIR_HALF], top[S], eb = 0.0f;
    int jb = 0;
#pragma unroll
    for (int a = 0; a < 2; a++) {
        const int i = base + (a ^ h) * (nt / 2) + q;
        // This lane's half: dimensions 32 h .. 32 h + 31, zero past p.
        sbo_signal_load<float, SBO_PAIR_HALF>(y[a], Y, p, i < m ? i : m - 1,
                                              SBO_PAIR_HALF * h);
    }
    sbo_pair_stage(qs[0], D, p, 0);
    for (int j = 0; j < L; j++) {
        // Block j is whole in its buffer; block j - 1's is no longer read.
        __syncthreads();
        if (j + 1 < L)
            sbo_pair_stage(qs[(j + 1) & 1], D, p, j + 1);
        const float *cur = qs[j & 1] + sbo_pair_col(SBO_PAIR_HALF * h);
        sbo_top_clear<float, S>(top);
#pragma unroll 1
        for (int r = 0; r < p; r += 4) {
            float acc[2][4];
#pragma unroll
            for (int a = 0; a < 2; a++)
#pragma unroll
                for (int c = 0; c < 4; c++)
                    acc[a][c] = 0.0f;
#pragma unroll
            for (int k = 0; k < SBO_PAIR_HALF; k += 4) {
                sbo_quad<float> w[4];
#pragma unroll
                for (int c = 0; c < 4; c++)
                    w[c] = sbo_quad_load(cur + (r + c) * SBO_PAIR_ROW + k);
#pragma unroll
                for (int a = 0; a < 2; a++)
#pragma unroll
                    for (int c = 0; c < 4; c++) {
                        acc[a][c] += w[c].x * y[a][k];
                        acc[a][c] += w[c].y * y[a][k + 1];
                        acc[a][c] += w[c].z * y[a][k + 2];
                        acc[a][c] += w[c].w * y[a][k + 3];
                    }
            }
            // Rows past p are zero: their codes are 0 and change no list.
            float sq[4];
#pragma unroll
            for (int c = 0; c < 4; c++) {
                const float code = acc[0][c] + rb_shfl_xor(acc[1][c], 1);
                sq[c] = code * code;
            }
            sbo_top_insert4<float, S>(top, sq);
        }
        const float e = sbo_top_sum<float, S>(top);
        if (j == 0 || e > eb) {
            eb = e;
            jb = j;
        }
    }
    if (mine < m) {
        best[mine] = jb;
        energy[mine] = eb;
    }
}

#endif
