/* SPDX-License-Identifier: MIT */
/* The warp-level intrinsics of t/gpu_emu.h, which includes this file
 * after the block state they use: shuffles and ballots over the lanes of
 * the caller's warp, in CUDA's forms for GPU_EMU_WAVE 32 and HIP's for 64
 * (t/gpu_emu.h says what differs). */
#ifndef RB_T_GPU_EMU_WARP_H
#define RB_T_GPU_EMU_WARP_H

/* v of lane `src` (0 .. lanes - 1) of the caller's warp, with a barrier of
 * that warp alone.  Write, wait, read: successive shuffles alternate
 * between two halves of the slots, so a lane writes a half again only
 * after the next shuffle's barrier, which every lane of its warp reaches
 * having read it; a slot whose number is not this shuffle's belongs to a
 * lane that has returned. */
template <typename T> static inline T gpu_emu_shfl_lane(T v, unsigned src)
{
    static_assert(std::is_trivially_copyable_v<T> && sizeof(T) <= sizeof(uint64_t),
                  "a shuffle moves one value of up to 64 bits");
    gpu_emu_block &b = *gpu_emu_blk;
    const unsigned seq = ++gpu_emu_shfl_count, half = (seq & 1u) * b.nthreads;
    uint64_t bits = 0;
    std::memcpy(&bits, &v, sizeof v);
    b.shfl_bits[half + gpu_emu_tid] = bits;
    b.shfl_seq[half + gpu_emu_tid] = seq;
    gpu_emu_warp().arrive_and_wait();
    const unsigned at = gpu_emu_tid - gpu_emu_lane() + src;
    if (src >= gpu_emu_lanes || at >= b.nthreads || b.shfl_seq[half + at] != seq)
        return GPU_EMU_WAVE == 64 ? T(0) : v;
    T r;
    bits = b.shfl_bits[half + at];
    std::memcpy(&r, &bits, sizeof r);
    return r;
}

/* The source lanes of the shuffles over segments of `width` lanes, as CUDA
 * documents them and hipcc's amd_warp_functions.h computes them: a lane
 * without a source in its segment (up, down) or past it (xor) gets its own
 * value. */
static inline unsigned gpu_emu_src_up(unsigned delta, int width)
{
    const int l = (int)gpu_emu_lane(), s = l - (int)delta;
    return (unsigned)(s < (l & ~(width - 1)) ? l : s);
}

static inline unsigned gpu_emu_src_down(unsigned delta, int width)
{
    const int l = (int)gpu_emu_lane();
    return (unsigned)((l & (width - 1)) + (int)delta >= width ? l : l + (int)delta);
}

static inline unsigned gpu_emu_src_xor(int mask, int width)
{
    const int l = (int)gpu_emu_lane(), s = l ^ mask;
    return (unsigned)(s >= ((l + width) & ~(width - 1)) ? l : s);
}

/* One ballot: every present lane writes its vote, waits, reads its warp's,
 * waits again; bit l set where lane l voted yes.  *all gets whether every
 * lane still running voted yes.  Lanes that have returned vote 0. */
static inline uint64_t gpu_emu_ballot(int pred, bool *all = nullptr)
{
    gpu_emu_block &b = *gpu_emu_blk;
    const unsigned lane0 = gpu_emu_tid - gpu_emu_lane();
    b.votes[gpu_emu_tid] = pred != 0;
    gpu_emu_warp().arrive_and_wait();
    uint64_t r = 0;
    bool every = true;
    for (unsigned l = 0; l < gpu_emu_lanes && lane0 + l < b.nthreads; l++) {
        const unsigned char v = b.votes[lane0 + l];
        r |= (uint64_t)(v == 1) << l;
        every = every && v != 0;
    }
    gpu_emu_warp().arrive_and_wait();
    if (all)
        *all = every;
    return r;
}

static inline int __popc(unsigned v)
{
    return __builtin_popcount(v);
}

static inline int __popcll(unsigned long long v)
{
    return __builtin_popcountll(v);
}

#if GPU_EMU_WAVE == 32
template <typename T> static inline T __shfl_sync(unsigned, T v, int src, int width = warpSize)
{
    return gpu_emu_shfl_lane(v, (gpu_emu_lane() & ~(unsigned)(width - 1))
                                    + (unsigned)(src & (width - 1)));
}

template <typename T>
static inline T __shfl_xor_sync(unsigned, T v, int lane_mask, int width = warpSize)
{
    return gpu_emu_shfl_lane(v, gpu_emu_src_xor(lane_mask, width));
}

template <typename T>
static inline T __shfl_up_sync(unsigned, T v, unsigned delta, int width = warpSize)
{
    return gpu_emu_shfl_lane(v, gpu_emu_src_up(delta, width));
}

template <typename T>
static inline T __shfl_down_sync(unsigned, T v, unsigned delta, int width = warpSize)
{
    return gpu_emu_shfl_lane(v, gpu_emu_src_down(delta, width));
}

/* A ballot over the 32 lanes of the caller's warp: a kernel may let
 * warps, or lanes, return while the others vote. */
static inline unsigned __ballot_sync(unsigned, int pred)
{
    return (unsigned)gpu_emu_ballot(pred);
}

static inline int __any_sync(unsigned, int pred)
{
    return gpu_emu_ballot(pred) != 0;
}

static inline int __all_sync(unsigned, int pred)
{
    bool all;
    gpu_emu_ballot(pred, &all);
    return all;
}

static inline void __syncwarp(unsigned = 0xffffffffu)
{
    gpu_emu_warp().arrive_and_wait();
}
#else
/* HIP's __shfl reads lane src of the segment, past it when src >= width:
 * ds_bpermute takes the lane modulo 64, not the width. */
template <typename T> static inline T __shfl(T v, int src, int width = warpSize)
{
    return gpu_emu_shfl_lane(v, ((unsigned)src + (gpu_emu_lane() & ~(unsigned)(width - 1)))
                                    % gpu_emu_lanes);
}

template <typename T> static inline T __shfl_xor(T v, int lane_mask, int width = warpSize)
{
    return gpu_emu_shfl_lane(v, gpu_emu_src_xor(lane_mask, width));
}

template <typename T> static inline T __shfl_up(T v, unsigned delta, int width = warpSize)
{
    return gpu_emu_shfl_lane(v, gpu_emu_src_up(delta, width));
}

template <typename T> static inline T __shfl_down(T v, unsigned delta, int width = warpSize)
{
    return gpu_emu_shfl_lane(v, gpu_emu_src_down(delta, width));
}

static inline unsigned long long __ballot(int pred)
{
    return gpu_emu_ballot(pred);
}

static inline unsigned long long __ballot64(int pred)
{
    return gpu_emu_ballot(pred);
}

static inline int __any(int pred)
{
    return gpu_emu_ballot(pred) != 0;
}

static inline int __all(int pred)
{
    bool all;
    gpu_emu_ballot(pred, &all);
    return all;
}

static inline unsigned __lane_id()
{
    return gpu_emu_lane();
}

/* The lanes below and above the caller's that are running (a ballot of
 * them all, as hipcc's __lanemask_lt and __lanemask_gt take). */
static inline uint64_t __lanemask_lt()
{
    return __ballot64(1) & ((uint64_t(1) << __lane_id()) - 1);
}

static inline uint64_t __lanemask_gt()
{
    const uint64_t all = __ballot64(1);
    return __lane_id() == 63 ? 0 : all & (~uint64_t(0) << (__lane_id() + 1));
}

static inline uint64_t __lanemask_eq()
{
    return uint64_t(1) << __lane_id();
}
#endif

#endif
