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
// rotation table is read from L2 once per WT * WG columns).  On sm_90 the
// barrier is split (givens_slab_xbar): a thread arrives once its outgoing
// rows are written, rotates its interior slots, and only then waits for the
// others, so that warps running behind do not hold the others up.
//
// Each rotation is three shears (givens_lift_table.cuh: t = tan(theta'/2),
// s = sin(theta'), |t| <= 1): three fused multiply-adds per column instead
// of two multiplies and two fused multiply-adds.
//
// The same source builds for HIP (RB_GPU_HIP): no cp.async there, so each
// step's coefficients are loaded into registers one step early and stored to
// shared memory before the barrier that publishes them.
//
// The table's row of a step puts its chunks in the order the block reads
// them (givens_lift_coeffs), so a stage in shared memory is the row copied
// verbatim: by one bulk copy (the tensor memory accelerator of sm_90,
// completion counted on an mbarrier per stage), else by every thread's share
// of 16-byte copies.
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

// Values per piece when W values move between registers and shared memory:
// 16-byte pieces where W values make whole ones, else single values.
template <typename T, int W>
__host__ __device__ constexpr int givens_slab_piece()
{
    return sizeof(T) * W % 16 == 0 && (sizeof(T) == 4 || sizeof(T) == 8) ? 16 / (int)sizeof(T) : 1;
}

// Copy W values between registers and shared memory by pieces
// (givens_slab_piece), piece k at k * stride values from dst (the buffers
// are 16-byte aligned); by default the pieces are side by side.
template <typename T, int W>
__device__ __forceinline__ void givens_slab_put(T *dst, const T (&v)[W],
                                                int stride = givens_slab_piece<T, W>())
{
    constexpr int P = givens_slab_piece<T, W>();
    if constexpr (P == 4) {
#pragma unroll
        for (int w = 0; w < W; w += 4)
            *reinterpret_cast<float4 *>(dst + w / 4 * stride) =
                make_float4(v[w], v[w + 1], v[w + 2], v[w + 3]);
    } else if constexpr (P == 2) {
#pragma unroll
        for (int w = 0; w < W; w += 2)
            *reinterpret_cast<double2 *>(dst + w / 2 * stride) = make_double2(v[w], v[w + 1]);
    } else {
#pragma unroll
        for (int w = 0; w < W; w++)
            dst[w * stride] = v[w];
    }
}

template <typename T, int W>
__device__ __forceinline__ void givens_slab_get(const T *src, T (&v)[W],
                                                int stride = givens_slab_piece<T, W>())
{
    constexpr int P = givens_slab_piece<T, W>();
    if constexpr (P == 4) {
#pragma unroll
        for (int w = 0; w < W; w += 4) {
            const float4 f = *reinterpret_cast<const float4 *>(src + w / 4 * stride);
            v[w] = f.x;
            v[w + 1] = f.y;
            v[w + 2] = f.z;
            v[w + 3] = f.w;
        }
    } else if constexpr (P == 2) {
#pragma unroll
        for (int w = 0; w < W; w += 2) {
            const double2 f = *reinterpret_cast<const double2 *>(src + w / 2 * stride);
            v[w] = f.x;
            v[w + 1] = f.y;
        }
    } else {
#pragma unroll
        for (int w = 0; w < W; w++)
            v[w] = src[w * stride];
    }
}

// The coefficients of one step for one thread's B slots, in chunks of 16
// bytes (8 for a single f32 slot): CH chunks per slot group, chunk h of
// group g at h * NG + g of the step's row, so that the threads of a warp
// read consecutive chunks.  Four stages: a step is staged three steps ahead.
// Slots per chunk for B slots per thread, on the host (the table's layout)
// and in givens_slab_cs.
__host__ __device__ constexpr int givens_slab_per(int B, int vec2_bytes)
{
    return B * vec2_bytes >= 16 ? 16 / vec2_bytes : 1;
}

template <typename T, int B>
struct givens_slab_cs {
    typedef typename givens_vec2<T>::type vec2;
    static constexpr int PER = givens_slab_per(B, sizeof(vec2));  // slots per chunk
    typedef typename std::conditional<PER * sizeof(vec2) == 16, float4, float2>::type chunk;
    static constexpr int CH = B / PER;
    static constexpr int STAGES = 4;
};

// Shared memory before the stages: one mbarrier per stage for the bulk
// copies, then two (by parity) for the split barrier of the exchange; 128
// bytes, because bulk copies into shared memory that is not 128-byte aligned
// made the kernels up to 14% slower on the H200.
#define GIVENS_SLAB_MBAR_BYTES 128
#define GIVENS_SLAB_XBAR 4          // index of the exchange's first mbarrier

// sm_90 and later under CUDA: bulk copies of whole rows, and mbarriers with
// transaction counts and arrivals that release.
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900 && !defined(RB_GPU_HIP)
#define GIVENS_SLAB_HAS_BULK 1

__device__ __forceinline__ unsigned givens_slab_saddr(const void *p)
{
    return (unsigned)__cvta_generic_to_shared(p);
}

__device__ __forceinline__ void givens_slab_mbar_init(unsigned long long *m, unsigned count)
{
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;"
                 ::"r"(givens_slab_saddr(m)), "r"(count) : "memory");
}

// One arrival on m, releasing this thread's writes to the threads that wait
// on the phase; the phase's state.
__device__ __forceinline__ unsigned long long givens_slab_mbar_arrive(unsigned long long *m)
{
    unsigned long long state;
    asm volatile("mbarrier.arrive.release.cta.shared::cta.b64 %0, [%1];"
                 : "=l"(state) : "r"(givens_slab_saddr(m)) : "memory");
    return state;
}

// `bytes` from global src to shared dst, counted on mbarrier m.
__device__ __forceinline__ void givens_slab_bulk_copy(void *dst, const void *src, unsigned bytes,
                                                      unsigned long long *m)
{
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;"
                 ::"r"(givens_slab_saddr(m)), "r"(bytes) : "memory");
    asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes"
                 " [%0], [%1], %2, [%3];"
                 ::"r"(givens_slab_saddr(dst)), "l"(src), "r"(bytes), "r"(givens_slab_saddr(m))
                 : "memory");
}

// Until the phase of m with the given parity has completed (acquiring what
// the arrivals released).
__device__ __forceinline__ void givens_slab_mbar_wait(unsigned long long *m, unsigned parity)
{
    asm volatile("{\n\t.reg .pred done;\n"
                 "GIVENS_SLAB_WAIT_%=:\n\t"
                 "mbarrier.try_wait.parity.shared::cta.b64 done, [%0], %1;\n\t"
                 "@!done bra GIVENS_SLAB_WAIT_%=;\n}"
                 ::"r"(givens_slab_saddr(m)), "r"(parity) : "memory");
}
#else
#define GIVENS_SLAB_HAS_BULK 0
#endif

// Where a block's threads are and what they share.
struct givens_slab_ctx {
    int t, g, w, NG, nthr;
    int S;                      // slots per step
    int tout, bout;             // offsets (in values) of this thread's outgoing rows
    int tin, bin;               // ... and of its incoming ones, in parity buffer 0
    int xstride;                // values between the pieces of a row there
    int xsize;                  // values per parity buffer of the exchange
};

// Shared memory of the engine: the mbarriers, the coefficient stages, then
// the exchange buffers (2 parities x [top in | bottom in] x nthr x W values).
template <typename T, int B, int W>
__host__ __device__ inline size_t givens_slab_smem(int NG, int nthr)
{
    typedef givens_slab_cs<T, B> C;
    return GIVENS_SLAB_MBAR_BYTES + (size_t)C::STAGES * NG * C::CH * sizeof(typename C::chunk)
           + 2 * 2 * (size_t)nthr * W * sizeof(T);
}

// Stage `step`'s coefficients (a row of S (c, s) pairs of the table) into
// its stage.  On sm_90, thread 0 copies the row in one bulk copy
// and every thread waits on the stage's mbarrier before reading it (ready);
// else the block's threads copy its chunks in order, so that a warp reads
// whole sectors: CUDA asynchronously (one commit group per step), HIP into
// `held` now and to shared memory in finish().
template <typename T, int B, int WG>
struct givens_slab_stager {
    typedef givens_slab_cs<T, B> C;
    typedef typename C::chunk chunk;
    static constexpr int MINE = (C::CH + WG - 1) / WG;     // chunks per thread, at most
    // Bulk copies move multiples of 16 bytes: not a row of single f32 slots.
    static constexpr bool bulk = GIVENS_SLAB_HAS_BULK && sizeof(chunk) == 16;
    chunk held[MINE];
    int held_stage;
    unsigned long long *mbar;   // STAGES mbarriers (bulk)
    unsigned phase;             // bit st: the parity of stage st's next phase (bulk)

    // Before the first start(), and the fence and barrier of
    // givens_slab_sweep after it.
    __device__ __forceinline__ void init(const givens_slab_ctx &x, unsigned char *smem)
    {
        mbar = reinterpret_cast<unsigned long long *>(smem);
        phase = 0;
#if GIVENS_SLAB_HAS_BULK
        if (bulk && x.t == 0) {
#pragma unroll
            for (int k = 0; k < C::STAGES; k++)
                givens_slab_mbar_init(mbar + k, 1);
        }
#else
        (void)x;
#endif
    }

    __device__ __forceinline__ void start(const givens_slab_ctx &x, const chunk *table,
                                          chunk *stages, int step)
    {
        const int st = step & (C::STAGES - 1), total = x.NG * C::CH;
        const chunk *src = table + (size_t)step * total;
        chunk *dst = stages + (size_t)st * total;
#if GIVENS_SLAB_HAS_BULK
        if constexpr (bulk) {
            if (x.t == 0)
                givens_slab_bulk_copy(dst, src, total * sizeof(chunk), mbar + st);
        } else
#endif
        {
            (void)dst;
#ifndef RB_GPU_HIP
#pragma unroll
            for (int k = 0; k < MINE; k++) {
                const int p = x.t + k * x.nthr;
                if (p < total)
                    __pipeline_memcpy_async(dst + p, src + p, sizeof(chunk));
            }
            __pipeline_commit();
            (void)held_stage;
#else
#pragma unroll
            for (int k = 0; k < MINE; k++) {
                const int p = x.t + k * x.nthr;
                if (p < total)
                    held[k] = src[p];
            }
            held_stage = st;
#endif
        }
    }

    // No step to stage: keep CUDA's commit groups one per step.
    __device__ __forceinline__ void none()
    {
        if constexpr (!bulk) {
#ifndef RB_GPU_HIP
            __pipeline_commit();
#else
            held_stage = -1;
#endif
        }
    }

    // Before the barrier that publishes the step staged `ahead` steps ago:
    // CUDA waits for this thread's copies of all but the newest `ahead`
    // groups; HIP stores what it holds.
    template <int KEEP>
    __device__ __forceinline__ void finish(const givens_slab_ctx &x, chunk *stages)
    {
        (void)x;
        (void)stages;
        if constexpr (!bulk) {
#ifndef RB_GPU_HIP
            __pipeline_wait_prior(KEEP);
#else
            if (held_stage >= 0) {
                const int total = x.NG * C::CH;
#pragma unroll
                for (int k = 0; k < MINE; k++) {
                    const int p = x.t + k * x.nthr;
                    if (p < total)
                        stages[(size_t)held_stage * total + p] = held[k];
                }
            }
#endif
        }
    }

    // Before reading `step`'s stage: with bulk copies, until it has landed.
    __device__ __forceinline__ void ready(int step)
    {
#if GIVENS_SLAB_HAS_BULK
        if constexpr (bulk) {
            const int st = step & (C::STAGES - 1);
            givens_slab_mbar_wait(mbar + st, (phase >> st) & 1u);
            phase ^= 1u << st;
        }
#else
        (void)step;
#endif
    }
};

// The barrier of each step's exchange.  On sm_90 under CUDA, split: one
// mbarrier per parity of the step, one arrival per thread; arrive() once the
// outgoing rows (and what else others read after the barrier) are written,
// wait() before reading the incoming ones.  Elsewhere arrive() does nothing
// and wait() is __syncthreads().
struct givens_slab_xbar {
    unsigned long long *mbar;   // two mbarriers, by the parity of the step
    unsigned phase;             // bit p: the parity of mbarrier p's next phase

    // As the stager's init(), the same fence and barrier after it.
    __device__ __forceinline__ void init(const givens_slab_ctx &x, unsigned char *smem)
    {
        mbar = reinterpret_cast<unsigned long long *>(smem) + GIVENS_SLAB_XBAR;
        phase = 0;
#if GIVENS_SLAB_HAS_BULK
        if (x.t == 0) {
            givens_slab_mbar_init(mbar, x.nthr);
            givens_slab_mbar_init(mbar + 1, x.nthr);
        }
#else
        (void)x;
#endif
    }

    __device__ __forceinline__ void arrive(const givens_slab_ctx &x, int step)
    {
#if GIVENS_SLAB_HAS_BULK
        // Every thread arrives, releasing its own writes.  One arrival per
        // warp after __syncwarp was up to 2.5% faster, but compute-sanitizer's
        // racecheck does not count the other lanes' writes as released by it
        // and reported hazards on the exchange of every block of several
        // warps.
        givens_slab_mbar_arrive(mbar + (step & 1));
#else
        (void)x;
        (void)step;
#endif
    }

    __device__ __forceinline__ void wait(int step)
    {
#if GIVENS_SLAB_HAS_BULK
        const int p = step & 1;
        givens_slab_mbar_wait(mbar + p, (phase >> p) & 1u);
        phase ^= 1u << p;
#else
        (void)step;
        __syncthreads();
#endif
    }
};

// Which of a thread's slots a rotation pass covers: all, the two whose rows
// cross to other threads (logical 0 and B - 1), the others, or the others in
// two parts: EARLY (logical 2 ... 2 + (B - 2) / 2 - 1, none of which takes
// an incoming row, not even through the position-0 swap into logical 1) and
// LATE (the rest of them).
enum givens_slab_part {
    GIVENS_SLAB_ALL,
    GIVENS_SLAB_EDGES,
    GIVENS_SLAB_INTERIOR,
    GIVENS_SLAB_EARLY,
    GIVENS_SLAB_LATE
};

template <int B, givens_slab_part PART>
__host__ __device__ constexpr bool givens_slab_covers(int q)
{
    const bool edge = q == 0 || q == B - 1, early = q >= 2 && q < 2 + (B - 2) / 2;
    return PART == GIVENS_SLAB_ALL || (PART == GIVENS_SLAB_EDGES && edge)
           || (PART == GIVENS_SLAB_INTERIOR && !edge) || (PART == GIVENS_SLAB_EARLY && early)
           || (PART == GIVENS_SLAB_LATE && !edge && !early);
}

// The three shears of one rotation on every column: (top, bottom) <-
// (c top - s bot, s top + c bot) with t = tan(theta / 2); the thread's
// chunks at mine[h * NG].
template <typename T, int B, int W, int R, givens_slab_part PART>
__device__ __forceinline__ void givens_slab_rotate(givens_slab_regs<T, B, W> &x,
                                                   const typename givens_slab_cs<T, B>::chunk *mine,
                                                   int NG)
{
    typedef givens_slab_cs<T, B> C;
    typedef typename givens_vec2<T>::type vec2;
#pragma unroll
    for (int h = 0; h < C::CH; h++) {
        const typename C::chunk chunk = mine[h * NG];
        const vec2 *pair = reinterpret_cast<const vec2 *>(&chunk);
#pragma unroll
        for (int e = 0; e < C::PER; e++) {
            const int q = h * C::PER + e;
            if (!givens_slab_covers<B, PART>(q))
                continue;
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
// coefficients, pass the boundary rows on, let the epilogue see the rotated
// rows, barrier, take the incoming rows, stage a later step.  The barrier's
// arrival comes after the edge slots when the epilogue's rotated() writes
// nothing other threads read (E::shares_rotated false), else after all.
// With E::split_interior the EARLY slots rotate before the edges, while the
// incoming rows' loads of the step before are in flight, and only the LATE
// ones (and the epilogue) between the arrival and the wait: worth it where
// the epilogue has work of its own to cover the barrier (the backward's dot
// products: 0.6-2% faster), not in the forward (4% slower at n = 2048).
template <typename T, int B, int W, int WG, int R, class E>
__device__ __forceinline__ void givens_slab_step(givens_slab_regs<T, B, W> &x,
                                                 const givens_slab_ctx &c, E &epi,
                                                 givens_slab_stager<T, B, WG> &stager,
                                                 givens_slab_xbar &xbar,
                                                 const typename givens_slab_cs<T, B>::chunk *table,
                                                 typename givens_slab_cs<T, B>::chunk *stages,
                                                 T *xbuf, int step)
{
    typedef givens_slab_cs<T, B> C;
    stager.ready(step);
    const typename C::chunk *mine = stages + (size_t)(step & (C::STAGES - 1)) * c.NG * C::CH + c.g;
    T *buf = xbuf + (step & 1) * c.xsize;
    constexpr int ot = givens_slab_pt<B>(B - 1, R), ob = givens_slab_pb<B>(0, R);
    constexpr bool split = E::split_interior && !E::shares_rotated;
    constexpr givens_slab_part after = split ? GIVENS_SLAB_LATE : GIVENS_SLAB_INTERIOR;
    if constexpr (E::shares_rotated) {
        givens_slab_rotate<T, B, W, R, GIVENS_SLAB_ALL>(x, mine, c.NG);
        epi.template rotated<R>(x, step);
    } else {
        if constexpr (split)
            givens_slab_rotate<T, B, W, R, GIVENS_SLAB_EARLY>(x, mine, c.NG);
        givens_slab_rotate<T, B, W, R, GIVENS_SLAB_EDGES>(x, mine, c.NG);
    }
    givens_slab_put<T, W>(buf + c.tout, x.top[ot], c.xstride);
    givens_slab_put<T, W>(buf + c.bout, x.bot[ob], c.xstride);
    stager.template finish<1>(c, stages);      // step - 1's coefficients have landed
    xbar.arrive(c, step);
    if constexpr (!E::shares_rotated) {
        givens_slab_rotate<T, B, W, R, after>(x, mine, c.NG);
        epi.template rotated<R>(x, step);
    }
    xbar.wait(step);
    // After the move the register of the old logical top B-1 is logical top
    // 0, that of the old logical bottom 0 is logical bottom B-1.
    givens_slab_get<T, W>(buf + c.tin, x.top[ot], c.xstride);
    givens_slab_get<T, W>(buf + c.bin, x.bot[ob], c.xstride);
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
                                                  givens_slab_xbar &xbar,
                                                  const typename givens_slab_cs<T, B>::chunk *table,
                                                  typename givens_slab_cs<T, B>::chunk *stages,
                                                  T *xbuf, int step, std::integer_sequence<int, R...>)
{
    (givens_slab_step<T, B, W, WG, R>(x, c, epi, stager, xbar, table, stages, xbuf,
                                            step - R),
     ...);
}

// The thread's place in the block: NG = S / B slot groups, WG column groups
// (threads t = w * NG + g), W values of type T per row.
template <typename T, int B, int W>
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
    // Exchange buffer: [top in | bottom in] by destination thread, a row of
    // an odd number of 16-byte pieces (givens_slab_piece) stored whole, a row
    // of an even number as planes (piece k of every thread's row in plane
    // k): whole rows of 2 or 4 pieces put the 16-byte accesses of a warp's
    // 8-thread phases in the same banks twice or four times (the backward
    // at cols 4, 8 values a row, 2-9% slower), and odd rows do not conflict
    // (the backward at cols 6, 12 values, 7% slower as planes).  Routed by
    // position (tops move up a position, bottoms down; position nt-1 goes
    // to 1, position 0 stays).  The top of slot S-1 turns into its own
    // bottom; the bottom of slot 0 becomes the top of slot 1: with B > 1 a
    // slot of thread g = 0, which takes it in as its logical top 0 and swaps
    // it into slot 1 (givens_slab_step); with B = 1 it goes to thread 1, and
    // thread 0's top, position 0 itself, comes back to it unchanged.
    constexpr int P = givens_slab_piece<T, W>();
    constexpr bool planes = P > 1 && W / P % 2 == 0;
    constexpr int U = planes ? P : W;       // values between two threads' rows
    const int base = c.w * c.NG, bins = c.nthr * W, last = c.NG - 1;
    c.xstride = planes ? c.nthr * P : P;
    if (B == 1 && c.g == 0)
        c.tout = base * U;
    else
        c.tout = c.g < last ? (base + c.g + 1) * U : bins + (base + c.g) * U;
    if (c.g > 0)
        c.bout = bins + (base + c.g - 1) * U;
    else if (B == 1 && last > 0)
        c.bout = (base + 1) * U;
    else if (B == 1)
        c.bout = bins + base * U;           // S = 1: the one pair never moves
    else
        c.bout = base * U;
    c.tin = c.t * U;
    c.bin = bins + c.t * U;
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
    typename C::chunk *stages =
        reinterpret_cast<typename C::chunk *>(smem + GIVENS_SLAB_MBAR_BYTES);
    T *xbuf = reinterpret_cast<T *>(stages + (size_t)C::STAGES * c.NG * C::CH);
    givens_slab_stager<T, B, WG> stager;
    givens_slab_xbar xbar;
    stager.init(c, smem);
    xbar.init(c, smem);
#if GIVENS_SLAB_HAS_BULK
    // One fence for all the mbarriers thread 0 initialised (visible to the
    // bulk copies), and a barrier before anyone waits on them.
    if (c.t == 0)
        asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    __syncthreads();
#endif
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
        givens_slab_steps<T, B, W, WG>(x, c, epi, stager, xbar, table, stages, xbuf, step,
                                       std::make_integer_sequence<int, B>());
}

#endif
