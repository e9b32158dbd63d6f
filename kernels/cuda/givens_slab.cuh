// SPDX-License-Identifier: MIT
// The fused Givens engine (Hamze, arXiv:2106.00003, Algorithm 2 and 3 in
// one launch): every step of the circle-method schedule applied to a slab of
// columns that stays in registers for the whole sweep.
//
// Columns evolve independently, so a block owns WG column groups of WT
// columns each (NM matrices side by side: 1 for the forward, M and V for the
// backward) and every thread holds B consecutive slots of one group: the top
// and bottom rows of each slot, for its WT columns of each matrix.  Rows are
// held by circle *position*; between steps each value moves one position
// (tops to the next slot, bottoms to the previous; notes/givens.md section 3),
// so a thread passes out one top and one bottom row per step and takes in
// two.  Inside the thread the move costs nothing: the register arrays are
// addressed through a rotating offset that the unrolled step loop makes a
// compile-time constant.  Between threads the rows go through shared memory,
// with one barrier per step; the same barrier publishes the step's rotation
// coefficients, staged once per block for all its column groups (so the
// rotation table is read from L2 once per WT * WG columns).
//
// Each rotation is three shears (givens_lift_table.cuh: t = tan(theta'/2),
// s = sin(theta'), |t| <= 1): three fused multiply-adds per column instead
// of two multiplies and two fused multiply-adds.
//
// The same source builds for HIP (RB_GPU_HIP): no cp.async there, so each
// step's coefficients are loaded into registers one step early and stored to
// shared memory before the barrier that publishes them.
#ifndef GIVENS_SLAB_CUH
#define GIVENS_SLAB_CUH

#ifndef RB_GPU_HIP
#include <cuda_pipeline.h>
#endif
#include <type_traits>
#include <utility>
#include "kernels/cuda/givens_table.cuh"

// The register state of one thread: for each of its B slots, the top and the
// bottom row over W = NM * WT columns.
template <typename T, int B, int W>
struct givens_slab_regs {
    T top[B][W], bot[B][W];
};

// Registers of logical top / bottom slot q after R moves (R < B): tops move
// up one slot per step, bottoms down, so the registers rotate the other way.
template <int B>
__host__ __device__ constexpr int givens_slab_pt(int q, int R)
{
    return (q - R % B + B) % B;
}

template <int B>
__host__ __device__ constexpr int givens_slab_pb(int q, int R)
{
    return (q + R) % B;
}

// Copy W values between registers and shared memory in 16-byte pieces where
// W values make whole pieces (the buffers are 16-byte aligned), else singly.
template <typename T, int W>
__device__ __forceinline__ void givens_slab_put(T *dst, const T (&v)[W])
{
    if constexpr (sizeof(T) * W % 16 == 0 && sizeof(T) == 4) {
#pragma unroll
        for (int w = 0; w < W; w += 4)
            *reinterpret_cast<float4 *>(dst + w) = make_float4(v[w], v[w + 1], v[w + 2], v[w + 3]);
    } else if constexpr (sizeof(T) * W % 16 == 0 && sizeof(T) == 8) {
#pragma unroll
        for (int w = 0; w < W; w += 2)
            *reinterpret_cast<double2 *>(dst + w) = make_double2(v[w], v[w + 1]);
    } else {
#pragma unroll
        for (int w = 0; w < W; w++)
            dst[w] = v[w];
    }
}

template <typename T, int W>
__device__ __forceinline__ void givens_slab_get(const T *src, T (&v)[W])
{
    if constexpr (sizeof(T) * W % 16 == 0 && sizeof(T) == 4) {
#pragma unroll
        for (int w = 0; w < W; w += 4) {
            const float4 f = *reinterpret_cast<const float4 *>(src + w);
            v[w] = f.x;
            v[w + 1] = f.y;
            v[w + 2] = f.z;
            v[w + 3] = f.w;
        }
    } else if constexpr (sizeof(T) * W % 16 == 0 && sizeof(T) == 8) {
#pragma unroll
        for (int w = 0; w < W; w += 2) {
            const double2 f = *reinterpret_cast<const double2 *>(src + w);
            v[w] = f.x;
            v[w + 1] = f.y;
        }
    } else {
#pragma unroll
        for (int w = 0; w < W; w++)
            v[w] = src[w];
    }
}

// The coefficients of one step for one thread's B slots, in chunks of 16
// bytes (8 for a single f32 slot): CH chunks per slot group, each group's
// row padded by one chunk so that consecutive groups start in different
// banks.  Four stages: a step is staged three steps ahead.
template <typename T, int B>
struct givens_slab_cs {
    typedef typename givens_vec2<T>::type vec2;
    typedef typename std::conditional<B * sizeof(vec2) >= 16, float4, float2>::type chunk;
    static constexpr int PER = sizeof(chunk) / sizeof(vec2);      // slots per chunk
    static constexpr int CH = B / PER;
    static constexpr int ROW = CH + 1;
    static constexpr int STAGES = 4;
};

// Where a block's threads are and what they share.
struct givens_slab_ctx {
    int t, g, w, NG, nthr;
    int S;                      // slots per step
    int tout, bout;             // offsets (in values) of this thread's outgoing rows
    int tin, bin;               // ... and of its incoming ones, in parity buffer 0
    int xsize;                  // values per parity buffer of the exchange
};

// Shared memory of the engine: the coefficient stages, then the exchange
// buffers (2 parities x [top in | bottom in] x nthr x W values).
template <typename T, int B, int W>
__host__ __device__ inline size_t givens_slab_smem(int NG, int nthr)
{
    typedef givens_slab_cs<T, B> C;
    return (size_t)C::STAGES * NG * C::ROW * sizeof(typename C::chunk)
           + 2 * 2 * (size_t)nthr * W * sizeof(T);
}

// Stage `step`'s coefficients (a row of S (c, s) pairs of the table): the
// block's threads copy its chunks in order, so that a warp reads whole
// sectors, each into its slot group's padded row.  CUDA copies
// asynchronously (one commit group per step); HIP loads into `held` now and
// stores in finish().
template <typename T, int B, int WG>
struct givens_slab_stager {
    typedef givens_slab_cs<T, B> C;
    typedef typename C::chunk chunk;
    static constexpr int MINE = (C::CH + WG - 1) / WG;     // chunks per thread, at most
    chunk held[MINE];
    int held_stage;

    __device__ __forceinline__ void start(const givens_slab_ctx &x, const chunk *table,
                                          chunk *stages, int step)
    {
        const chunk *src = table + (size_t)step * (x.S / C::PER);
        const int st = step & (C::STAGES - 1), total = x.NG * C::CH;
#ifndef RB_GPU_HIP
#pragma unroll
        for (int k = 0; k < MINE; k++) {
            const int p = x.t + k * x.nthr;
            if (p < total)
                __pipeline_memcpy_async(stages + ((size_t)st * x.NG + p / C::CH) * C::ROW
                                            + p % C::CH,
                                        src + p, sizeof(chunk));
        }
        __pipeline_commit();
        (void)held_stage;
#else
        (void)stages;
#pragma unroll
        for (int k = 0; k < MINE; k++) {
            const int p = x.t + k * x.nthr;
            if (p < total)
                held[k] = src[p];
        }
        held_stage = st;
#endif
    }

    // No step to stage: keep CUDA's commit groups one per step.
    __device__ __forceinline__ void none()
    {
#ifndef RB_GPU_HIP
        __pipeline_commit();
#else
        held_stage = -1;
#endif
    }

    // Before the barrier that publishes the step staged `ahead` steps ago:
    // CUDA waits for this thread's copies of all but the newest `ahead`
    // groups; HIP stores what it holds.
    template <int KEEP>
    __device__ __forceinline__ void finish(const givens_slab_ctx &x, chunk *stages)
    {
#ifndef RB_GPU_HIP
        (void)x;
        (void)stages;
        __pipeline_wait_prior(KEEP);
#else
        if (held_stage >= 0) {
            const int total = x.NG * C::CH;
#pragma unroll
            for (int k = 0; k < MINE; k++) {
                const int p = x.t + k * x.nthr;
                if (p < total)
                    stages[((size_t)held_stage * x.NG + p / C::CH) * C::ROW + p % C::CH] = held[k];
            }
        }
#endif
    }
};

// The three shears of one rotation on every column: (top, bottom) <-
// (c top - s bot, s top + c bot) with t = tan(theta / 2).
template <typename T, int B, int W, int R>
__device__ __forceinline__ void givens_slab_rotate(givens_slab_regs<T, B, W> &x,
                                                   const typename givens_slab_cs<T, B>::chunk *row)
{
    typedef givens_slab_cs<T, B> C;
    typedef typename givens_vec2<T>::type vec2;
#pragma unroll
    for (int h = 0; h < C::CH; h++) {
        const typename C::chunk chunk = row[h];
        const vec2 *pair = reinterpret_cast<const vec2 *>(&chunk);
#pragma unroll
        for (int e = 0; e < C::PER; e++) {
            const int q = h * C::PER + e;
            const T t = pair[e].x, s = pair[e].y;
            const int pt = givens_slab_pt<B>(q, R), pb = givens_slab_pb<B>(q, R);
#pragma unroll
            for (int w = 0; w < W; w++) {
                const T a = x.top[pt][w] - t * x.bot[pb][w];
                const T b = x.bot[pb][w] + s * a;
                x.top[pt][w] = a - t * b;
                x.bot[pb][w] = b;
            }
        }
    }
}

// One step, R moves done so far (R < B): rotate with the published
// coefficients, let the epilogue see the rotated rows, pass the boundary
// rows on, stage a later step, barrier, take the incoming rows.
template <typename T, int B, int W, int WG, int R, class E>
__device__ __forceinline__ void givens_slab_step(givens_slab_regs<T, B, W> &x,
                                                 const givens_slab_ctx &c, E &epi,
                                                 givens_slab_stager<T, B, WG> &stager,
                                                 const typename givens_slab_cs<T, B>::chunk *table,
                                                 typename givens_slab_cs<T, B>::chunk *stages,
                                                 T *xbuf, int step)
{
    typedef givens_slab_cs<T, B> C;
    givens_slab_rotate<T, B, W, R>(
        x, stages + ((size_t)(step & (C::STAGES - 1)) * c.NG + c.g) * C::ROW);
    epi.template rotated<R>(x, step);
    T *buf = xbuf + (step & 1) * c.xsize;
    constexpr int ot = givens_slab_pt<B>(B - 1, R), ob = givens_slab_pb<B>(0, R);
    givens_slab_put<T, W>(buf + c.tout, x.top[ot]);
    givens_slab_put<T, W>(buf + c.bout, x.bot[ob]);
    stager.template finish<1>(c, stages);      // step - 1's coefficients have landed
    __syncthreads();
    // After the move the register of the old logical top B-1 is logical top
    // 0, that of the old logical bottom 0 is logical bottom B-1.
    givens_slab_get<T, W>(buf + c.tin, x.top[ot]);
    givens_slab_get<T, W>(buf + c.bin, x.bot[ob]);
    if (B > 1 && c.g == 0) {
        // Position 0 never moves: logical top 0 keeps its value (now in the
        // register of logical top 1), which takes the old bottom 0 instead.
        constexpr int p0 = ot, p1 = givens_slab_pt<B>(1, R + 1);
#pragma unroll
        for (int w = 0; w < W; w++) {
            const T v = x.top[p0][w];
            x.top[p0][w] = x.top[p1][w];
            x.top[p1][w] = v;
        }
    }
    epi.after_barrier(step);
    if (step - 3 >= 0)
        stager.start(c, table, stages, step - 3);
    else
        stager.none();
}

template <typename T, int B, int W, int WG, class E, int... R>
__device__ __forceinline__ void givens_slab_steps(givens_slab_regs<T, B, W> &x,
                                                  const givens_slab_ctx &c, E &epi,
                                                  givens_slab_stager<T, B, WG> &stager,
                                                  const typename givens_slab_cs<T, B>::chunk *table,
                                                  typename givens_slab_cs<T, B>::chunk *stages,
                                                  T *xbuf, int step, std::integer_sequence<int, R...>)
{
    (givens_slab_step<T, B, W, WG, R>(x, c, epi, stager, table, stages, xbuf, step - R), ...);
}

// The thread's place in the block: NG = S / B slot groups, WG column groups
// (threads t = w * NG + g), W values per row.
template <int B, int W>
__device__ __forceinline__ givens_slab_ctx givens_slab_here(int S)
{
    givens_slab_ctx c;
    c.S = S;
    c.NG = S / B;
    c.nthr = blockDim.x;
    c.t = threadIdx.x;
    c.g = c.t % c.NG;
    c.w = c.t / c.NG;
    c.xsize = 2 * c.nthr * W;
    // Exchange buffer: [top in | bottom in] by destination thread, routed by
    // position (tops move up a position, bottoms down; position nt-1 goes to
    // 1, position 0 stays).  The top of slot S-1 turns into its own bottom;
    // the bottom of slot 0 becomes the top of slot 1: with B > 1 a slot of
    // thread g = 0, which takes it in as its logical top 0 and swaps it into
    // slot 1 (givens_slab_step); with B = 1 it goes to thread 1, and thread
    // 0's top, position 0 itself, comes back to it unchanged.
    const int base = c.w * c.NG, bins = c.nthr * W, last = c.NG - 1;
    if (B == 1 && c.g == 0)
        c.tout = base * W;
    else
        c.tout = c.g < last ? (base + c.g + 1) * W : bins + (base + c.g) * W;
    if (c.g > 0)
        c.bout = bins + (base + c.g - 1) * W;
    else if (B == 1 && last > 0)
        c.bout = (base + 1) * W;
    else if (B == 1)
        c.bout = bins + base * W;           // S = 1: the one pair never moves
    else
        c.bout = base * W;
    c.tin = c.t * W;
    c.bin = bins + c.t * W;
    return c;
}

// Every step of the padded table, nsteps (a multiple of B) of them from
// nsteps - 1 down to 0, on slab x loaded with the rows at step nsteps - 1.
// The rows then sit at the positions of step -1 (= nt - 2), B moves later.
template <typename T, int B, int W, int WG, class E>
__device__ __forceinline__ void givens_slab_sweep(givens_slab_regs<T, B, W> &x,
                                                  const givens_slab_ctx &c, E &epi,
                                                  int nsteps,
                                                  const typename givens_slab_cs<T, B>::chunk *table,
                                                  unsigned char *smem)
{
    typedef givens_slab_cs<T, B> C;
    typename C::chunk *stages = reinterpret_cast<typename C::chunk *>(smem);
    T *xbuf = reinterpret_cast<T *>(stages + (size_t)C::STAGES * c.NG * C::ROW);
    givens_slab_stager<T, B, WG> stager;
    // Three steps in flight before the first: the first is published by
    // the barrier below, the others by the first steps' barriers.
    stager.start(c, table, stages, nsteps - 1);
    stager.template finish<0>(c, stages);
    for (int k = 2; k <= 3; k++) {
        if (nsteps - k >= 0)
            stager.start(c, table, stages, nsteps - k);
        else
            stager.none();
        if (k == 2)
            stager.template finish<0>(c, stages);
    }
    __syncthreads();
    for (int step = nsteps - 1; step >= 0; step -= B)
        givens_slab_steps<T, B, W, WG>(x, c, epi, stager, table, stages, xbuf, step,
                                       std::make_integer_sequence<int, B>());
}

#endif
