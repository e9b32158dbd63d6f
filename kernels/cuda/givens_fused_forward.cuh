// SPDX-License-Identifier: MIT
// The apply-mode engine of the round-robin Givens rotations (Hamze,
// arXiv:2106.00003, Algorithm 2): every step applied to a slab of columns in
// one launch (givens_fused_apply.cuh; U itself is formed by the engine of
// givens_slab.cuh).
//
// Columns evolve independently, so each block owns a slab of W columns
// and runs every step itself with one block barrier per step.  The block's
// data never leave registers: rows are held by circle *position*, not by
// coordinate.  Slot k of the schedule always pairs positions k (top) and
// nt-1-k (bottom); between steps the coordinates move one position along the
// circle (notes/givens.md section 3, section 11 item 2), so each thread, owning
// B consecutive slots, passes one top value right and one bottom value left
// per column and step: warp shuffles, and shared memory across warps.  The
// register arrays are addressed through a rotating offset that the unrolled
// step loop makes a compile-time constant, so the shift costs no moves.
// The same source builds for HIP (a .hip file defines RB_GPU_HIP first):
// warps are RB_WARP lanes (kernels/cuda/rb_warp.cuh), and with no cp.async
// each step's rotations are plain loads into registers.
#ifndef GIVENS_FUSED_FORWARD_CUH
#define GIVENS_FUSED_FORWARD_CUH

#ifndef RB_GPU_HIP
#include <cuda_pipeline.h>
#endif
#include "kernels/cuda/givens_table.cuh"
#include "kernels/cuda/rb_warp.cuh"

// The state of one thread: its slots' rows for the block's W columns.
// Logical slot q of thread t is t*B + q.  Values move one slot per step
// (tops one way, bottoms the other); the arrays are addressed through a
// rotating offset instead of being moved (givens_pt, givens_pb).
template <typename T, int B, int W>
struct givens_slab {
    T top[B][W], bot[B][W];
};

// Where logical slot q of the top and bottom arrays lives after R shifts.
// DIR = +1 sweeps the steps downwards (the forward: tops move to higher
// slots, bottoms to lower ones); DIR = -1 upwards with transposed rotations
// (the apply-form backward: tops move down, bottoms up).
template <int B, int DIR>
__device__ __forceinline__ constexpr int givens_pt(int q, int R)
{
    return DIR > 0 ? (q - R % B + B) % B : (q + R) % B;
}

template <int B, int DIR>
__device__ __forceinline__ constexpr int givens_pb(int q, int R)
{
    return DIR > 0 ? (q + R) % B : (q - R % B + B) % B;
}

// Shared context of a block's threads.  Blocks are whole warps, so every
// shuffle has all lanes; the first nreal threads own slots, the rest (up to
// the next multiple of RB_WARP_BLOCK) carry zeros through the same steps.
struct givens_lanes {
    int t, lane, warp, nwarps, nthreads, nreal;
};

// Copy this thread's B rotations of one step from the table into its column
// of a shared-memory buffer laid out [B][nthreads] (conflict-free reads),
// asynchronously: the copy of step s-1 overlaps the rotations of step s.
// CUDA only: HIP has no cp.async (givens_fused_steps loads from the table).
#ifndef RB_GPU_HIP
template <typename T, int B>
__device__ __forceinline__ void givens_cs_prefetch(typename givens_vec2<T>::type *buf,
                                                   const typename givens_vec2<T>::type *src,
                                                   int t, int nthreads)
{
#pragma unroll
    for (int q = 0; q < B; q++)
        __pipeline_memcpy_async(buf + q * nthreads + t, src + q, sizeof *src);
    __pipeline_commit();
}
#endif

// Rotate the pairs of this thread for the current step, R shifts done so
// far: PART 0 the two whose values leave the thread (slots 0 and B-1), PART 1
// the others, so the exchange can start before the interior is done.  DIR < 0
// applies the transposed rotations.
template <typename T, int B, int W, int R, int PART, int DIR>
__device__ __forceinline__ void givens_slab_rotate(givens_slab<T, B, W> &x,
                                                   const typename givens_vec2<T>::type (&r)[B])
{
#pragma unroll
    for (int q = 0; q < B; q++) {
        if ((q == 0 || q == B - 1) != (PART == 0))
            continue;
        const int pt = givens_pt<B, DIR>(q, R), pb = givens_pb<B, DIR>(q, R);
        const T c = r[q].x, sn = DIR > 0 ? r[q].y : -r[q].y;
#pragma unroll
        for (int w = 0; w < W; w++) {
            const T a = x.top[pt][w], b = x.bot[pb][w];
            x.top[pt][w] = c * a - sn * b;
            x.bot[pb][w] = sn * a + c * b;
        }
    }
}

// Values crossing thread boundaries in one move along the circle.
template <typename T, int W>
struct givens_exchange {
    T tout[W], bout[W], tin[W], bin[W], fixed[W];
};

// Start moving every value one position along the circle (R shifts done so
// far).  DIR > 0: logical top B-1 goes to the next thread and logical bottom 0
// to the previous one; DIR < 0: top 0 to the previous, bottom B-1 to the
// next.  Shuffles within a warp, shared memory across warps.
template <typename T, int B, int W, int R, int DIR>
__device__ __forceinline__ void givens_shift_begin(const givens_slab<T, B, W> &x,
                                                   const givens_lanes &l, givens_exchange<T, W> &e,
                                                   T (*xtop)[W], T (*xbot)[W])
{
    const int ot = givens_pt<B, DIR>(DIR > 0 ? B - 1 : 0, R);
    const int ob = givens_pb<B, DIR>(DIR > 0 ? 0 : B - 1, R);
    const int up = DIR > 0 ? RB_WARP - 1 : 0, down = RB_WARP - 1 - up;  // write tout / bout
#pragma unroll
    for (int w = 0; w < W; w++) {
        e.tout[w] = x.top[ot][w];
        e.bout[w] = x.bot[ob][w];
        e.fixed[w] = x.top[givens_pt<B, DIR>(0, R)][w];
        // With one slot per thread going down, thread 0's top is position 0,
        // which never moves; position 1 (thread 1) takes thread 0's bottom.
        if (DIR > 0 && B == 1 && l.t == 0)
            e.tout[w] = e.bout[w];
        if (DIR > 0) {
            e.tin[w] = rb_shfl_up(e.tout[w], 1);
            e.bin[w] = rb_shfl_down(e.bout[w], 1);
        } else {
            e.tin[w] = rb_shfl_down(e.tout[w], 1);
            e.bin[w] = rb_shfl_up(e.bout[w], 1);
        }
        if (l.nwarps > 1 && l.lane == up)
            xtop[l.warp][w] = e.tout[w];
        if (l.nwarps > 1 && l.lane == down)
            xbot[l.warp][w] = e.bout[w];
    }
}

// Finish the move: wait for the other warps' boundary values, then shift.
template <typename T, int B, int W, int R, int DIR>
__device__ __forceinline__ void givens_shift_end(givens_slab<T, B, W> &x, const givens_lanes &l,
                                                 givens_exchange<T, W> &e, T (*xtop)[W],
                                                 T (*xbot)[W])
{
    const int ot = givens_pt<B, DIR>(DIR > 0 ? B - 1 : 0, R);
    const int ob = givens_pb<B, DIR>(DIR > 0 ? 0 : B - 1, R);
    const int first = DIR > 0 ? 0 : RB_WARP - 1, last = RB_WARP - 1 - first;
    if (l.nwarps > 1) {
        __syncthreads();
#pragma unroll
        for (int w = 0; w < W; w++) {
            if (l.lane == first && (DIR > 0 ? l.warp > 0 : l.warp < l.nwarps - 1))
                e.tin[w] = xtop[l.warp - DIR][w];
            if (l.lane == last && (DIR > 0 ? l.warp < l.nwarps - 1 : l.warp > 0))
                e.bin[w] = xbot[l.warp + DIR][w];
        }
    }
    // The circle turns at slot S-1 and at slot 0; only the warps holding
    // those threads branch here.  Going down, slot S-1's bottom takes its top
    // and slot 1's top takes slot 0's bottom; going up, slot S-1's top takes
    // its bottom and slot 0's bottom takes slot 1's top.
    if (l.warp == (l.nreal - 1) >> RB_WARP_SHIFT && l.t == l.nreal - 1) {
#pragma unroll
        for (int w = 0; w < W; w++) {
            if (DIR > 0)
                e.bin[w] = e.tout[w];
            else
                e.tin[w] = e.bout[w];
        }
    }
    if (l.warp == 0 && l.t == 0) {
        // Going up, slot 1's top is read only now: with B > 2 it is an interior
        // slot, rotated after givens_shift_begin.
        const int p1 = givens_pt<B, DIR>(1, R);
#pragma unroll
        for (int w = 0; w < W; w++) {
            if (DIR > 0)
                e.tin[w] = e.bout[w];
            else
                e.bin[w] = B == 1 ? e.tin[w] : x.top[p1][w];
        }
    }
#pragma unroll
    for (int w = 0; w < W; w++) {
        x.top[ot][w] = e.tin[w];
        x.bot[ob][w] = e.bin[w];
    }
    // Now R + 1 shifts are done.  Thread 0 keeps position 0 in logical top 0.
    if (l.warp == 0 && l.t == 0) {
        const int p0 = givens_pt<B, DIR>(0, R + 1), p1 = givens_pt<B, DIR>(1, R + 1);
#pragma unroll
        for (int w = 0; w < W; w++) {
            if (DIR < 0) {
                x.top[p0][w] = e.tout[w];           // the top that would have left
            } else if (B == 1) {
                x.top[p0][w] = e.fixed[w];
            } else {
                const T v = x.top[p0][w];
                x.top[p0][w] = x.top[p1][w];
                x.top[p1][w] = v;
            }
        }
    }
}

// Run B steps, the rotating offset a compile-time constant in each; true
// once the last step is done.  DIR > 0 runs the steps from nt-2 down to 0,
// DIR < 0 from 0 up to nt-2.  After each step's rotations the epilogue's
// `rotated<R>(x, step)` sees the rotated rows (before the move along the
// circle); after the last its `last<R>(x)` ends the kernel.  cs points at this
// thread's entries of the table's current step; csbuf holds two
// shared-memory step buffers (CUDA's cp.async; unused on HIP).
template <typename T, int B, int W, int R, int DIR, class E>
struct givens_fused_steps {
    typedef typename givens_vec2<T>::type vec2;
    static __device__ __forceinline__ bool run(givens_slab<T, B, W> &x, const givens_lanes &l,
                                               E &epi, int &step, int final_step,
                                               const vec2 *&cs, vec2 *csbuf, int S,
                                               T (*xtop)[RB_WARP_MAX_PER_BLOCK][W],
                                               T (*xbot)[RB_WARP_MAX_PER_BLOCK][W])
    {
        vec2 r[B];
#ifdef RB_GPU_HIP
        (void)csbuf;
#pragma unroll
        for (int q = 0; q < B; q++)
            r[q] = cs[q];
#else
        const int bufsize = B * l.nthreads;
        if (step != final_step)
            givens_cs_prefetch<T, B>(csbuf + ((step - DIR) & 1) * bufsize, cs - DIR * S, l.t,
                                     l.nthreads);
        else
            __pipeline_commit();
        __pipeline_wait_prior(1);                // this step's copy has landed
        const vec2 *buf = csbuf + (step & 1) * bufsize;
#pragma unroll
        for (int q = 0; q < B; q++)
            r[q] = buf[q * l.nthreads + l.t];
#endif
        givens_slab_rotate<T, B, W, R, 0, DIR>(x, r);
        if (step == final_step) {
            givens_slab_rotate<T, B, W, R, 1, DIR>(x, r);
            epi.template rotated<R>(x, step);
            epi.template last<R>(x);
            return true;
        }
        givens_exchange<T, W> e;
        givens_shift_begin<T, B, W, R, DIR>(x, l, e, xtop[step & 1], xbot[step & 1]);
        givens_slab_rotate<T, B, W, R, 1, DIR>(x, r);
        epi.template rotated<R>(x, step);
        givens_shift_end<T, B, W, R, DIR>(x, l, e, xtop[step & 1], xbot[step & 1]);
        step -= DIR;
        cs -= DIR * S;
        return givens_fused_steps<T, B, W, R + 1, DIR, E>::run(x, l, epi, step, final_step, cs,
                                                                csbuf, S, xtop, xbot);
    }
};

template <typename T, int B, int W, int DIR, class E>
struct givens_fused_steps<T, B, W, B, DIR, E> {
    typedef typename givens_vec2<T>::type vec2;
    static __device__ __forceinline__ bool run(givens_slab<T, B, W> &, const givens_lanes &, E &,
                                               int &, int, const vec2 *&, vec2 *, int,
                                               T (*)[RB_WARP_MAX_PER_BLOCK][W],
                                               T (*)[RB_WARP_MAX_PER_BLOCK][W])
    {
        return false;
    }
};

// The lanes of this block's threads, nreal of which own slots.
__device__ __forceinline__ givens_lanes givens_lanes_here(int nreal)
{
    givens_lanes l;
    l.t = threadIdx.x;
    l.lane = l.t & (RB_WARP - 1);
    l.warp = l.t >> RB_WARP_SHIFT;
    l.nthreads = blockDim.x;
    l.nwarps = l.nthreads >> RB_WARP_SHIFT;
    l.nreal = nreal;
    return l;
}

// Threads per block of a fused kernel for S slots, B per thread: whole warps.
__host__ __device__ inline int givens_fused_threads(int S, int B)
{
    return (S / B + RB_WARP_BLOCK - 1) / RB_WARP_BLOCK * RB_WARP_BLOCK;
}

// Every step on slab x, already loaded with the rows held at the first
// step: nt-2 for DIR > 0, 0 for DIR < 0 (position p of slot k: top p = k,
// bottom p = nt-1-k).
template <typename T, int B, int W, int DIR = 1, class E>
__device__ __forceinline__ void givens_fused_sweep(givens_slab<T, B, W> &x, const givens_lanes &l,
                                                   E &epi, int nt,
                                                   const typename givens_vec2<T>::type *cs)
{
    typedef typename givens_vec2<T>::type vec2;
    // Double-buffered by step parity.
    __shared__ T xtop[2][RB_WARP_MAX_PER_BLOCK][W], xbot[2][RB_WARP_MAX_PER_BLOCK][W];
    const int S = nt >> 1;
    int step = DIR > 0 ? nt - 2 : 0;
    const int final_step = DIR > 0 ? 0 : nt - 2;
    // Threads past nreal read thread 0's entries: any valid address will do.
    const vec2 *row = cs + (size_t)step * S + (size_t)(l.t < l.nreal ? l.t : 0) * B;
#ifdef RB_GPU_HIP
    vec2 *csbuf = NULL;
#else
    extern __shared__ __align__(16) unsigned char givens_dyn_smem[];
    vec2 *csbuf = reinterpret_cast<vec2 *>(givens_dyn_smem);
    givens_cs_prefetch<T, B>(csbuf + (step & 1) * B * l.nthreads, row, l.t, l.nthreads);
#endif
    while (!givens_fused_steps<T, B, W, 0, DIR, E>::run(x, l, epi, step, final_step, row, csbuf,
                                                        S, xtop, xbot))
        ;
}

// Dynamic shared memory of a fused sweep: two steps of rotations (none on
// HIP, which reads them from the table).
template <typename T, int B>
inline size_t givens_fused_smem(int nthreads)
{
#ifdef RB_GPU_HIP
    (void)nthreads;
    return 0;
#else
    return 2 * (size_t)B * nthreads * sizeof(typename givens_vec2<T>::type);
#endif
}

// The apply forward's epilogue: nothing per step; step 0 leaves position p
// holding coordinate p, so rows are positions and the slab is written out to
// Y (n rows of ld, columns below ncols).
template <typename T, int B, int W>
struct givens_forward_store {
    int t, n, nt, c0, ld, ncols;
    T *Y;
    template <int R>
    __device__ __forceinline__ void rotated(const givens_slab<T, B, W> &, int) {}
    template <int R>
    __device__ __forceinline__ void last(const givens_slab<T, B, W> &x)
    {
        if (t * B >= nt / 2)
            return;                                     // a thread without slots
#pragma unroll
        for (int q = 0; q < B; q++) {
            const int k = t * B + q, rbot = nt - 1 - k;
            const int pt = givens_pt<B, 1>(q, R), pb = givens_pb<B, 1>(q, R);
#pragma unroll
            for (int w = 0; w < W; w++) {
                if (c0 + w >= ncols)
                    continue;
                Y[(size_t)k * ld + c0 + w] = x.top[pt][w];     // k < nt/2 <= n
                if (rbot < n)
                    Y[(size_t)rbot * ld + c0 + w] = x.bot[pb][w];
            }
        }
    }
};

#endif
