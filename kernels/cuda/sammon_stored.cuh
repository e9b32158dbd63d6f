// SPDX-License-Identifier: MIT
// The stored form (not in Borisov and Myasnikov, who recompute the input
// distances from x for every pair, notes section 1): d*_ij never changes
// between iterations, so sammon_stored_fill computes r_ij = 1 / d*_ij once
// into device memory and every iteration streams it, 4 bytes a pair
// instead of 2 n instructions.
//
// The stored triangle is cut into tiles of TILE = 16 R points, the tiled
// kernels' tiles (sammon_tiled.cuh): tile pair (I, J), J <= I, is block
// P(I, J) = I (I + 1) / 2 + J of TILE^2 values, so a block walking tiles
// J of one row I reads one contiguous range.  Inside a block each of the
// 256 threads owns the R x R pairs (slot(ty, a), slot(tx, b)) of
// sammon_tiled, and its R^2 values lie R^2 / 4 float4 apart by 256: pair
// (a, b) is value v = a R + b, in float4 (v / 4) 256 + t, lane v % 4.  The
// loads of a tile are therefore 16 bytes a thread, neighbouring threads
// neighbouring, R^2 / 4 of them in flight, and every value is read once per
// iteration.  Diagonal tiles (J = I) hold all TILE^2 values, both orders,
// so that their points sum over the whole tile (the standard form, no pair
// counted twice); 0 marks a pair that is no pair (padding beyond N, a
// point with itself).  float only: the variant is fp32.
//
// sammon_stored_pass is sammon_tiled_sym's symmetric walk over that layout:
// the points i's sums in registers over the row, the points j's added up
// over the block in shared memory and atomically into g once a tile; each
// thread reads its points j's outputs itself (they stay in L1 and L2), so
// a tile of the stored form costs only its sums' two barriers.  Its MODE
// picks what a pair adds (the benchmark's gradient, or the embedding's
// gradient, diagonal second derivative and stress); STORED = false takes
// the distances from x as
// sammon_tiled_sym does, for sizes whose triangle does not fit.  Tiles whose
// every pair is a pair (off the diagonal, inside N) skip the test for one.
// Block-level reductions only: nothing depends on the warp width.  CUDA and
// HIP alike.
#ifndef SAMMON_STORED_CUH
#define SAMMON_STORED_CUH

#include <stdint.h>
#include "impl/sammon/sammon_pair.h"
#include "kernels/cuda/sammon_tiled.cuh"

// What a pass adds up per point, in g (N x sammon_pass_sums values):
//  GD:     G_q = sum_j w (y_iq - y_jq), w = 1/d - 1/d*: the gradient over
//          -2/c, as the other kernels' g;
//  EMBED:  G_q, then the second derivative's sums H_q = sum_j (w -
//          (y_iq - y_jq)^2 / d^3), the last as sum_j (the others' (y_iq -
//          y_jq)^2 / d^3 - 1/d*) (the (y_iq - y_jq)^2 / d^2 of all q add up
//          to 1, so its w and its own term cancel but for -1/d*); and the
//          stress less c: the terms d^2 r - 2 d of its expanded form.
//          Without the test for coinciding outputs (sammon_pass_pair), in
//          place of the H_q: C_q = sum_j (y_iq - y_jq)^2 / d^3 for q < M -
//          1, and D = sum_j 1/d last, from which, with R = sum_j 1/d*
//          (sammon_stored_fill's rsum: every pair counts when none
//          coincides), H_q = D - R - C_q and H_{M-1} = sum_q C_q - R
//          (impl/sammon/sammon_sums.h);
//  STRESS: the stress only, its terms (d* - d)^2 / d* direct.
// Pairs whose outputs coincide (d^2 below the smallest normal float) add
// nothing but their stress term, as in impl/sammon/sammon.h.
enum { SAMMON_PASS_GD, SAMMON_PASS_EMBED, SAMMON_PASS_STRESS };

template <int M, int MODE> __host__ __device__ constexpr int sammon_pass_sums()
{
    return MODE == SAMMON_PASS_GD ? M : MODE == SAMMON_PASS_EMBED ? 2 * M : 0;
}

// Tile pair (I, J), J <= I, in walking order.
__host__ __device__ __forceinline__ int64_t sammon_stored_block(int64_t I, int64_t J)
{
    return I * (I + 1) / 2 + J;
}

// float4 loads per thread and tile pair.
template <int R> __host__ __device__ constexpr int sammon_stored_loads()
{
    return R * R / 4;
}

__device__ __forceinline__ float sammon_f4_lane(const float4 &v, int l)
{
    return l == 0 ? v.x : l == 1 ? v.y : l == 2 ? v.z : v.w;
}

// The thread's R^2 values of tile pair `blk` as float4s (issued together).
template <int R>
__device__ __forceinline__ void sammon_stored_load(float4 (&v)[sammon_stored_loads<R>()],
                                                   const float4 *__restrict__ store,
                                                   int64_t blk)
{
    const float4 *base = store + blk * (int64_t)(sammon_tiled_tile(R) * sammon_tiled_tile(R) / 4);
#pragma unroll
    for (int k = 0; k < sammon_stored_loads<R>(); k++)
        v[k] = base[k * SAMMON_TILED_THREADS + threadIdx.x];
}

template <int R>
__device__ __forceinline__ void sammon_stored_unpack(float (&r)[R][R],
                                                     const float4 (&v)[sammon_stored_loads<R>()])
{
#pragma unroll
    for (int a = 0; a < R; a++)
#pragma unroll
        for (int b = 0; b < R; b++)
            r[a][b] = sammon_f4_lane(v[(a * R + b) / 4], (a * R + b) % 4);
}

// The sum over the block of a double per thread, into thread 0's return.
// Starts with a barrier; buf holds SAMMON_TILED_THREADS doubles.
__device__ __forceinline__ double sammon_block_sum(double *buf, double v)
{
    __syncthreads();
    buf[threadIdx.x] = v;
    for (int half = SAMMON_TILED_THREADS / 2; half > 0; half /= 2) {
        __syncthreads();
        if ((int)threadIdx.x < half)
            buf[threadIdx.x] += buf[threadIdx.x + half];
    }
    __syncthreads();
    return buf[0];
}

// The sums over the 16 threads of a side of the K values each holds for
// its R slots, added atomically into g[(p0 + slot) K + k] (slots from p0 on
// below N): KG of the K at a time through buf (KG x 16 rows of LD), so that
// a tile costs 2 ceil(K / KG) barriers rather than sammon_tiled_sum's 2 K,
// and all 256 threads add up.  c: the thread's row in buf (its index along
// the summed side), s: its index along the slots' side.  Each slot's 16
// values are added in the order of c, as sammon_tiled_sum does.  Starts
// with a barrier, so buf may still be read when it is called.
template <int R, int K> __host__ __device__ constexpr int sammon_stored_group()
{
    constexpr int row = SAMMON_TILED_SIDE * sammon_tiled_ld<float, R>() * (int)sizeof(float);
    return K * row <= 32768 ? K : 32768 / row;
}

// The kn rows of sums staged in buf added up per slot (a row's 16 values,
// in the order of c) into g[(p0 + slot) K + k0 + row], slots from p0 on
// below N, by all 256 threads.
template <int R, int K>
__device__ __forceinline__ void sammon_stored_add(const float *buf, int kn, int k0, float *g,
                                                  int p0, int N)
{
    constexpr int S = SAMMON_TILED_SIDE, LD = sammon_tiled_ld<float, R>(), TILE = S * R;
    for (int o = threadIdx.x; o < kn * TILE; o += SAMMON_TILED_THREADS) {
        const int kk = o / TILE, p = o % TILE;
        float sum = -0.0f;              // sammon_stored_tile's -0: no add
#pragma unroll
        for (int r = 0; r < S; r++)
            sum += buf[(kk * S + r) * LD + p];
        if (p0 + p < N)
            atomicAdd(&g[(size_t)(p0 + p) * K + k0 + kk], sum);
    }
}

template <int R, int K>
__device__ __forceinline__ void sammon_stored_sums(float *buf, const float (&v)[R][K], int c,
                                                   int s, float *g, int p0, int N)
{
    constexpr int S = SAMMON_TILED_SIDE, LD = sammon_tiled_ld<float, R>();
    constexpr int KG = sammon_stored_group<R, K>();
#pragma unroll
    for (int k0 = 0; k0 < K; k0 += KG) {
        constexpr int last = K % KG == 0 ? KG : K % KG;
        const int kn = k0 + KG <= K ? KG : last;
        __syncthreads();
#pragma unroll
        for (int kk = 0; kk < KG; kk++)
            if (kk < kn)
#pragma unroll
                for (int a = 0; a < R; a++)
                    buf[(kk * S + c) * LD + sammon_tiled_slot<float, R>(s, a)] = v[a][k0 + kk];
        __syncthreads();
        sammon_stored_add<R, K>(buf, kn, k0, g, p0, N);
    }
}

// The squared input distances a float pair may have: from the smallest
// normal float, so that r^2 = 1 / d*^2 stays finite, to the largest.
#define SAMMON_STORED_D2_MIN 1.17549435e-38f
#define SAMMON_STORED_D2_MAX 3.40282347e+38f

// r_ij = 1 / d*_ij of the thread's pairs in the layout above, for every
// tile pair: grid of P(tiles - 1, tiles - 1) + 1 blocks, block P takes tile
// pair P, 256 threads.  The distances are sammon_tiled's (through x, which
// also stands in for its y, read and unused: M = 1 reads N values).  *lost
// counts the pairs of distinct points whose squared distance falls outside
// those bounds (they would divide by zero or overflow); c_part, if not
// NULL, gets each block's sum of d* over its unordered pairs (fp64), each
// d* as 1 / r of the r stored (one rounding): the c that the EMBED pass's
// expanded stress adds back, so that the stress is the direct form's of the
// same r, its errors in r cancelling to first order as there.  rsum, if
// not NULL (N floats, zero before), gets each point's sum of the r stored,
// R_i = sum_j r_ij, which the EMBED pass without the coinciding test needs
// (sammon_pass_pair).  With store NULL nothing is stored: the count and the
// sums alone.  n >= 1.
template <int R>
__global__ void __launch_bounds__(SAMMON_TILED_THREADS)
sammon_stored_fill(int N, int n, const float *__restrict__ x, float4 *__restrict__ store,
                   unsigned *lost, double *c_part, float *rsum)
{
    constexpr int S = SAMMON_TILED_SIDE, KC = SAMMON_TILED_KC, TILE = S * R;
    constexpr int LD = sammon_tiled_ld<float, R>();
    __shared__ __align__(16) float xi_s[KC * LD];
    __shared__ __align__(16) float xj_s[KC * LD];
    __shared__ float yj_s[TILE];
    __shared__ double sum_s[SAMMON_TILED_THREADS];

    int64_t i1, J;
    sammon_pair_of((int64_t)blockIdx.x, &i1, &J);       // P(I, J) = pair index of (I + 1, J)
    const int I = (int)i1 - 1, i0 = I * TILE, j0 = (int)J * TILE;
    const int tx = threadIdx.x % S, ty = threadIdx.x / S;
    float acc[R][R];
    sammon_tiled_dist2<float, 1, R>(acc, xi_s, xj_s, yj_s, x, x, N, n, i0, j0);
    float r[R][R];
    double dsum = 0.0;
    unsigned bad = 0;
#pragma unroll
    for (int a = 0; a < R; a++)
#pragma unroll
        for (int b = 0; b < R; b++) {
            const int i = i0 + sammon_tiled_slot<float, R>(ty, a);
            const int j = j0 + sammon_tiled_slot<float, R>(tx, b);
            const bool pair = i < N && j < N && i != j;
            const bool ok = pair && acc[a][b] >= SAMMON_STORED_D2_MIN
                            && acc[a][b] <= SAMMON_STORED_D2_MAX;
            r[a][b] = ok ? sammon_rsqrt(acc[a][b]) : 0.0f;
            dsum += ok ? (double)(1.0f / r[a][b]) : 0.0;
            bad += pair && !ok && i > j;     // a diagonal tile holds both orders
        }
    float4 *out = store ? store + (int64_t)blockIdx.x * (TILE * TILE / 4) : nullptr;
#pragma unroll
    for (int k = 0; out && k < sammon_stored_loads<R>(); k++) {
        const int v = 4 * k;
        out[k * SAMMON_TILED_THREADS + threadIdx.x] =
            make_float4(r[v / R][v % R], r[(v + 1) / R][(v + 1) % R],
                        r[(v + 2) / R][(v + 2) % R], r[(v + 3) / R][(v + 3) % R]);
    }
    if (bad)
        atomicAdd(lost, bad);
    if (rsum) {
        // Both points of a pair: the points i by rows, and the points j by
        // columns but on the diagonal tile, which holds both orders.
        float rows[R][1], cols[R][1];
#pragma unroll
        for (int a = 0; a < R; a++) {
            rows[a][0] = cols[a][0] = 0.0f;
#pragma unroll
            for (int b = 0; b < R; b++) {
                rows[a][0] += r[a][b];
                cols[a][0] += r[b][a];
            }
        }
        sammon_stored_sums<R, 1>(xi_s, rows, tx, ty, rsum, i0, N);
        if (I != (int)J)
            sammon_stored_sums<R, 1>(xi_s, cols, ty, tx, rsum, j0, N);
    }
    if (c_part) {
        // A diagonal tile holds each unordered pair twice.
        const double total = sammon_block_sum(sum_s, dsum * (I == (int)J ? 0.5 : 1.0));
        if (threadIdx.x == 0)
            c_part[blockIdx.x] = total;
    }
}

// 1 / sqrt(v) for a normal float v.  On NVIDIA rsqrtf wraps the hardware's
// approximation in a fix-up for subnormal arguments (four instructions for
// one); arguments known to be normal need only the approximation itself,
// which gives the same value for them.  Elsewhere (AMD, the emulator):
// rsqrtf.
__device__ __forceinline__ float sammon_rsqrt_normal(float v)
{
#if defined(__CUDA_ARCH__)
    float r;
    asm("rsqrt.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(v));
    return r;
#else
    return rsqrtf(v);
#endif
}

// 1 / sqrt(v) for a float v >= 0 that is normal, else +inf (zero and
// subnormal v).  On NVIDIA the flushing approximation gives both at once
// (it takes a subnormal argument for zero); elsewhere the test is written.
__device__ __forceinline__ float sammon_rsqrt_or_inf(float v)
{
#if defined(__CUDA_ARCH__)
    return sammon_rsqrt_normal(v);
#else
    return v >= SAMMON_STORED_D2_MIN ? rsqrtf(v) : INFINITY;
#endif
}

// A compile-time bool as a value, for the pass's generic tile lambda.
template <bool B> struct sammon_bool {
    static constexpr bool value = B;
};

// 1 / v for a normal float v: the hardware's approximation alone, as
// sammon_rsqrt_normal.
__device__ __forceinline__ float sammon_rcp_normal(float v)
{
#if defined(__CUDA_ARCH__)
    float r;
    asm("rcp.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(v));
    return r;
#else
    return 1.0f / v;
#endif
}

// One pair's share of the pass, added to the point i's sums si and the
// point j's sj; st gets its stress term, as the MODE says (in two parts
// for EMBED, below; else in st[0]).
// FULL: r > 0, a pair of distinct points (off the diagonal tiles, inside
// N), so that only coinciding outputs need a test.
// TESTED: coinciding outputs are tested for, and their pair adds nothing
// but its stress term.  Without the test (the EMBED mode only) such a pair
// has 1/d = inf, which makes its terms, and so the pass's stress, NaN:
// the caller, finding the stress not finite, runs the pass again with the
// test (impl/sammon/sammon_engine_gpu.cu).  Elsewhere the two give the
// same G and stress bit for bit, and the second derivative's sums as C_q
// and D (above), since with no pair left out the sum of 1/d* is the
// fill's; the test and the H_q cost six of a full pair's 26 instructions.
template <int M, int MODE, int K, bool FULL, bool TESTED = true>
__device__ __forceinline__ void sammon_pass_pair(const float (&yi)[M], const float (&yj)[M],
                                                 float r, float (&si)[K], float (&sj)[K],
                                                 float (&st)[2])
{
    static_assert(TESTED || MODE == SAMMON_PASS_EMBED, "only the EMBED pass may go untested");
    float dy[M], d2 = 0.0f;
#pragma unroll
    for (int q = 0; q < M; q++) {
        dy[q] = yi[q] - yj[q];
        d2 += dy[q] * dy[q];
    }
    // Outputs closer than the smallest normal float (1e-19 apart, on data
    // the host scaled to about unit size) count as coinciding.
    const bool pair = FULL || r > 0.0f;
    const bool ok = pair && (!TESTED || d2 >= SAMMON_STORED_D2_MIN);
    const float rd = !ok ? 0.0f : TESTED ? sammon_rsqrt_normal(d2) : sammon_rsqrt_or_inf(d2);
    // The embedding's r of the pairs that count (rok) serves w and H_{M-1};
    // untested, every pair counts (a pair that is no pair has r = 0).
    const float rok = MODE != SAMMON_PASS_EMBED ? 0.0f : TESTED && !ok ? 0.0f : r;
    const float w = MODE == SAMMON_PASS_EMBED ? rd - rok : ok ? rd - r : 0.0f;
    // Written as fused multiply-adds: left to itself the compiler shares
    // the product w dy between the two sides, a multiply and two adds.
    if constexpr (MODE != SAMMON_PASS_STRESS) {
#pragma unroll
        for (int q = 0; q < M; q++) {
            si[q] = fmaf(w, dy[q], si[q]);
            sj[q] = fmaf(-w, dy[q], sj[q]);
        }
    }
    if constexpr (MODE == SAMMON_PASS_EMBED && !TESTED) {
        // C_q and D (the sums' comment above): two operations a
        // coordinate and two a pair, where H_q's are three and four.
#pragma unroll
        for (int q = 0; q + 1 < M; q++) {
            const float a = dy[q] * rd, a2 = a * a;
            si[M + q] = fmaf(a2, rd, si[M + q]);
            sj[M + q] = fmaf(a2, rd, sj[M + q]);
        }
        si[2 * M - 1] += rd;
        sj[2 * M - 1] += rd;
    } else if constexpr (MODE == SAMMON_PASS_EMBED) {
        float last = -rok;
#pragma unroll
        for (int q = 0; q + 1 < M; q++) {
            const float a = dy[q] * rd, a2 = a * a, h = fmaf(-a2, rd, w);
            last = fmaf(a2, rd, last);
            si[M + q] += h;
            sj[M + q] += h;
        }
        si[2 * M - 1] += last;
        sj[2 * M - 1] += last;
    }
    if constexpr (MODE == SAMMON_PASS_EMBED) {
        // Expanded: (d* - d)^2 / d* = d* + d^2 r - 2 d, and the d* add up
        // to c, which the caller adds (sammon_stored_fill's c_part: the
        // sum of these r's reciprocals); st[0] sums d^2 r, st[1] d = d^2
        // (1/d).  Two operations a pair where the direct form below takes
        // five and a reciprocal.  A pair that is no pair, or whose outputs
        // coincide, has rok = rd = 0: no term (the coinciding pair's d* is
        // in c).
        st[0] = fmaf(d2, rok, st[0]);
        st[1] = fmaf(d2, rd, st[1]);
    } else if constexpr (MODE == SAMMON_PASS_STRESS) {
        // r is at most 1/d_min of data the host scaled to about unit size,
        // so 1/r = d* is a normal float.
        const float s = fmaf(-(d2 * rd), r, 1.0f);
        if (FULL)
            st[0] = fmaf(s * s, sammon_rcp_normal(r), st[0]);
        else
            st[0] += r > 0.0f ? s * s * sammon_rcp_normal(r) : 0.0f;
    }
}

// The thread's points j's outputs yj[b] of the tile at j0 (zero past N),
// read from global memory: the 16 threads of a column read the same ones.
// A tile inside N is read in vectors: each group of VL consecutive points
// (sammon_tiled_slot) has VL M consecutive outputs from a multiple of VL M
// floats, so 16-byte loads where VL M is a multiple of 4, else 8-byte.
template <int M, int R>
__device__ __forceinline__ void sammon_stored_yj(float (&yj)[R][M], const float *__restrict__ y,
                                                 int N, int j0, int tx)
{
    constexpr int VL = R < sammon_vec_width<float>() ? R : sammon_vec_width<float>();
    constexpr int W = VL * M % 4 == 0 ? 4 : VL * M % 2 == 0 ? 2 : 1;
    if (j0 + sammon_tiled_tile(R) <= N) {
#pragma unroll
        for (int g = 0; g < R / VL; g++) {
            const float *src = y + (size_t)(j0 + sammon_tiled_slot<float, R>(tx, g * VL)) * M;
            float v[VL * M];
#pragma unroll
            for (int k = 0; k < VL * M; k += W) {
                const sammon_vec<float, W> w = *reinterpret_cast<const sammon_vec<float, W> *>(
                    src + k);
#pragma unroll
                for (int l = 0; l < W; l++)
                    v[k + l] = w.v[l];
            }
#pragma unroll
            for (int l = 0; l < VL; l++)
#pragma unroll
                for (int q = 0; q < M; q++)
                    yj[g * VL + l][q] = v[l * M + q];
        }
        return;
    }
#pragma unroll
    for (int b = 0; b < R; b++) {
        const int j = j0 + sammon_tiled_slot<float, R>(tx, b);
#pragma unroll
        for (int q = 0; q < M; q++)
            yj[b][q] = j < N ? y[(size_t)j * M + q] : 0.0f;
    }
}

// A tile pair's R x R pairs of the thread: si (its points i, over the row)
// and sj (its points j, this tile) get their sums, the return value the
// tile's stress terms.
template <int M, int R, int MODE, int K, bool FULL, bool TESTED>
__device__ __forceinline__ float sammon_stored_tile(const float (&yi)[R][M],
                                                    const float (&yj)[R][M],
                                                    const float (&r)[R][R], float (&si)[R][K],
                                                    float (&sj)[R][K])
{
    float st[2] = { 0.0f, 0.0f };
#pragma unroll
    for (int b = 0; b < R; b++) {
        // -0, not 0: x + -0 is x for every x, so the first pair's adds
        // fold away (x + 0 is not x for x = -0, and stays an add).
#pragma unroll
        for (int k = 0; k < K; k++)
            sj[b][k] = -0.0f;
#pragma unroll
        for (int a = 0; a < R; a++)
            sammon_pass_pair<M, MODE, K, FULL, TESTED>(yi[a], yj[b], r[a][b], si[a], sj[b],
                                                       st);
    }
    return MODE == SAMMON_PASS_EMBED ? fmaf(-2.0f, st[1], st[0]) : st[0];
}

// The one-group case of sammon_stored_sums (KG = K) with a barrier less:
// buf is one of two buffers taken in turn, so that the write here cannot
// meet the reads of the call before (they were of the other buffer) nor
// of the call before that (the barrier of the call between them parts
// them).  The caller alternates the buffers and never calls it on data
// staged in buf by anything else.
template <int R, int K>
__device__ __forceinline__ void sammon_stored_sums_alt(float *buf, const float (&v)[R][K], int c,
                                                       int s, float *g, int p0, int N)
{
    constexpr int S = SAMMON_TILED_SIDE, LD = sammon_tiled_ld<float, R>();
#pragma unroll
    for (int k = 0; k < K; k++)
#pragma unroll
        for (int a = 0; a < R; a++)
            buf[(k * S + c) * LD + sammon_tiled_slot<float, R>(s, a)] = v[a][k];
    __syncthreads();
    sammon_stored_add<R, K>(buf, K, 0, g, p0, N);
}

// One pass over the pairs: g (N x sammon_pass_sums, zero or this pass's so
// far) gets the MODE's sums; stress_part[block], if MODE has a stress, the
// block's sum of stress terms over its unordered pairs (fp64; c neither
// added, by EMBED's expanded form, nor divided by).  Grid (splits,
// ceil(N / TILE)), 256 threads: block (s, r) takes tile row I = tiles - 1
// - r (the longest rows first) and its tiles J s (I + 1) / splits .. (s +
// 1) (I + 1) / splits - 1, as sammon_tiled_sym.
// STORED: r from `store` (x unused); else from x (store unused), n >= 1.
// TESTED: as sammon_pass_pair's (false: the EMBED mode only).
// Blocks an SM must hold: two at tiles of 64 (at most 128 registers a
// thread; left alone the embedding's pass takes 146 and runs one block an
// SM, 22% slower on the H200), one at tiles of 128, whose registers two
// blocks cannot hold without spilling.
template <int R> __host__ __device__ constexpr int sammon_stored_min_blocks()
{
    return R <= 4 ? 2 : 1;
}

template <int M, int R, int MODE, bool STORED, bool TESTED = true>
__global__ void __launch_bounds__(SAMMON_TILED_THREADS, sammon_stored_min_blocks<R>())
sammon_stored_pass(int N, int n, const float *__restrict__ x, const float4 *__restrict__ store,
                   const float *__restrict__ y, float *g, double *stress_part)
{
    constexpr int S = SAMMON_TILED_SIDE, KC = SAMMON_TILED_KC, TILE = S * R;
    constexpr int LD = sammon_tiled_ld<float, R>();
    constexpr int K = sammon_pass_sums<M, MODE>() > 0 ? sammon_pass_sums<M, MODE>() : 1;
    constexpr bool SUMS = sammon_pass_sums<M, MODE>() > 0;
    constexpr bool STRESS = MODE != SAMMON_PASS_GD;
    constexpr int KG = sammon_stored_group<R, K>();
    // The embedding pass's stored form, its sums in one group, takes two
    // buffers in turn where both fit the 48 KB of static shared memory
    // (m = 2; not m = 3's seven sums): one barrier a tile less, 1% of that
    // pass on the H200.  The GD pass, at the bandwidth floor already,
    // keeps one buffer.
    constexpr bool ALT = STORED && MODE == SAMMON_PASS_EMBED && KG == K
                         && (2 * K * KC * LD * sizeof(float)
                             + SAMMON_TILED_THREADS * sizeof(double) + 4 * sizeof(float)
                             <= 48 * 1024);
    static_assert(KC == S, "the staging buffer holds the sums' rows");
    __shared__ __align__(16) float xi_s[(ALT ? 2 : 1) * KG * KC * LD];  // staging, then sums
    __shared__ __align__(16) float xj_s[STORED ? 4 : KC * LD];
    __shared__ float yj_s[STORED ? 1 : M * TILE];
    __shared__ double sum_s[STRESS ? SAMMON_TILED_THREADS : 1];

    const int tx = threadIdx.x % S, ty = threadIdx.x / S, t = threadIdx.x;
    const int tiles = (N + TILE - 1) / TILE, I = tiles - 1 - (int)blockIdx.y, i0 = I * TILE;
    const int jt_begin = (int)((long long)blockIdx.x * (I + 1) / gridDim.x);
    const int jt_end = (int)((long long)(blockIdx.x + 1) * (I + 1) / gridDim.x);
    const int part = blockIdx.y * gridDim.x + blockIdx.x;
    if (jt_begin == jt_end) {           // the whole block: no barrier is left waiting
        if (STRESS && t == 0)
            stress_part[part] = 0.0;
        return;
    }
    float yi[R][M], si[R][K];
#pragma unroll
    for (int a = 0; a < R; a++) {
        const int p = i0 + sammon_tiled_slot<float, R>(ty, a);
#pragma unroll
        for (int q = 0; q < M; q++)
            yi[a][q] = p < N ? y[(size_t)p * M + q] : 0.0f;
#pragma unroll
        for (int k = 0; k < K; k++)
            si[a][k] = 0.0f;
    }
    // The stored form's next tile (its values and its points' outputs) is
    // on its way while this one is summed.
    float4 v[sammon_stored_loads<R>()];
    [[maybe_unused]] float yn[R][M];
    if constexpr (STORED) {
        sammon_stored_load<R>(v, store, sammon_stored_block(I, jt_begin));
        sammon_stored_yj<M, R>(yn, y, N, jt_begin * TILE, tx);
    }
    double stress = 0.0;
    int half = 0;                       // ALT: the buffer of the next sums
    // One tile pair: FULL when its every pair is a pair (off the diagonal,
    // inside N), so that the walk below runs those in a loop of their own.
    auto tile = [&](auto full, int jt) {
        const int j0 = jt * TILE;
        float r[R][R], yj[R][M];
        if constexpr (STORED) {
            sammon_stored_unpack<R>(r, v);
#pragma unroll
            for (int b = 0; b < R; b++)
#pragma unroll
                for (int q = 0; q < M; q++)
                    yj[b][q] = yn[b][q];
            if (jt + 1 < jt_end) {
                sammon_stored_load<R>(v, store, sammon_stored_block(I, jt + 1));
                sammon_stored_yj<M, R>(yn, y, N, j0 + TILE, tx);
            }
        } else {
            float acc[R][R];
            sammon_tiled_dist2<float, M, R>(acc, xi_s, xj_s, yj_s, x, y, N, n, i0, j0);
#pragma unroll
            for (int a = 0; a < R; a++)
#pragma unroll
                for (int b = 0; b < R; b++) {
                    const int i = i0 + sammon_tiled_slot<float, R>(ty, a);
                    const int j = j0 + sammon_tiled_slot<float, R>(tx, b);
                    const bool pair = i < N && j < N && acc[a][b] >= SAMMON_STORED_D2_MIN
                                      && acc[a][b] <= SAMMON_STORED_D2_MAX;
                    r[a][b] = pair ? sammon_rsqrt(acc[a][b]) : 0.0f;
                }
#pragma unroll
            for (int b = 0; b < R; b++)
#pragma unroll
                for (int q = 0; q < M; q++)
                    yj[b][q] = yj_s[q * TILE + sammon_tiled_slot<float, R>(tx, b)];
        }
        float sj[R][K];
        const float st = sammon_stored_tile<M, R, MODE, K, decltype(full)::value, TESTED>(
            yi, yj, r, si, sj);
        // A full tile is off the diagonal; the diagonal tile's pairs were
        // summed both ways (half its stress; its points j's sums are its
        // points i's), elsewhere the 16 threads of a column tx hold sums
        // over different points i.
        const bool diagonal = !decltype(full)::value && jt == I;
        stress += diagonal ? 0.5 * (double)st : (double)st;
        if (ALT && !diagonal) {
            sammon_stored_sums_alt<R, K>(xi_s + half * (K * KC * LD), sj, ty, tx, g, j0, N);
            half ^= 1;
        } else if (SUMS && !diagonal) {
            sammon_stored_sums<R, K>(xi_s, sj, ty, tx, g, j0, N);
        }
    };
    // Tiles J < I of a row inside N are full.
    const int full_end = i0 + TILE <= N ? (jt_end < I ? jt_end : I) : jt_begin;
    int jt = jt_begin;
    for (; jt < full_end; jt++)
        tile(sammon_bool<true>(), jt);
    for (; jt < jt_end; jt++)
        tile(sammon_bool<false>(), jt);
    if constexpr (ALT)
        sammon_stored_sums_alt<R, K>(xi_s + half * (K * KC * LD), si, tx, ty, g, i0, N);
    else if constexpr (SUMS)
        sammon_stored_sums<R, K>(xi_s, si, tx, ty, g, i0, N);
    if constexpr (STRESS) {
        const double total = sammon_block_sum(sum_s, stress);
        if (t == 0)
            stress_part[part] = total;
    }
}

#endif
