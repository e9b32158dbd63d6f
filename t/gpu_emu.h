/* SPDX-License-Identifier: MIT */
/* Host C++ stand-ins for the CUDA and HIP subset the kernels of
 * kernels/cuda use, so that a test can run them on the CPU where no GPU is:
 * one fiber per GPU thread of a block (a std::thread under ThreadSanitizer:
 * t/gpu_emu_run.h), which runs that thread of every block, the blocks one
 * after another; a barrier for __syncthreads, __shared__ arrays as statics
 * (one block at a time uses them).  What it checks is the kernels'
 * arithmetic, indexing and barrier placement (a missing barrier shows
 * under -fsanitize=thread); of warps only the lanes a ballot or a shuffle
 * gathers, nothing of timing or the memory model.  C++20; include before
 * the kernels.
 *
 * GPU_EMU_WAVE picks the warp: 32 (the default) is NVIDIA's, with CUDA's
 * intrinsics (__shfl_*_sync, a 32-bit __ballot_sync, __syncwarp); 64 is a
 * wavefront of AMD's gfx9 (Vega, CDNA) as Debian's hipcc 5.2 compiles for
 * it, with HIP's intrinsics as its amd_warp_functions.h and
 * amd_device_functions.h define them: warpSize 64, __shfl, __shfl_up,
 * __shfl_down and __shfl_xor over 64 lanes, a 64-bit __ballot, __any,
 * __all, __lane_id() up to 63, __popc of 32 bits beside __popcll, and no
 * __syncwarp or _sync variant (HIP 5.2 has none); the kernels see
 * __HIP_PLATFORM_AMD__, __AMDGCN_WAVEFRONT_SIZE and RB_GPU_HIP, as in a
 * .hip file's device pass.  A lane that has returned, or that the last
 * wave of a block does not have, votes 0 and shuffles nothing: a shuffle
 * from it gives 0 on AMD (what ds_bpermute reads from a disabled lane) and
 * the caller's own value on NVIDIA (where it is undefined). */
#ifndef RB_T_GPU_EMU_H
#define RB_T_GPU_EMU_H

#ifndef GPU_EMU_WAVE
#define GPU_EMU_WAVE 32
#endif
#if GPU_EMU_WAVE == 64
#define __HIP_PLATFORM_AMD__ 1
#define __AMDGCN_WAVEFRONT_SIZE 64
#ifndef RB_GPU_HIP
#define RB_GPU_HIP 1
#endif
#elif GPU_EMU_WAVE != 32
#error "GPU_EMU_WAVE is 32 (NVIDIA's warps) or 64 (AMD's gfx9 wavefronts)"
#endif

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <vector>

#define __global__
#define __device__
#define __host__
#define __forceinline__ inline
#define __launch_bounds__(...)
#define __shared__ static
#define __align__(x) __attribute__((aligned(x)))

/* CUDA's dim3: a grid or block of 1 to 3 dimensions, each 1 unless given. */
struct gpu_emu_dim3 {
    unsigned x, y, z;
    constexpr gpu_emu_dim3(unsigned a = 1, unsigned b = 1, unsigned c = 1) : x(a), y(b), z(c) {}
};

static constexpr int warpSize = GPU_EMU_WAVE;
static constexpr unsigned gpu_emu_lanes = GPU_EMU_WAVE;

/* GPU threads as OS threads under ThreadSanitizer, else as fibers
 * (t/gpu_emu_run.h); fiber switches told to AddressSanitizer. */
#if defined(__SANITIZE_THREAD__)
#define GPU_EMU_THREADS 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define GPU_EMU_THREADS 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define GPU_EMU_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define GPU_EMU_ASAN 1
#endif
#endif

/* A GPU thread's own state: an OS thread's, or a fiber's, which the
 * scheduler keeps while others run. */
#ifdef GPU_EMU_THREADS
#define GPU_EMU_OWN thread_local
#else
#define GPU_EMU_OWN
#endif
static GPU_EMU_OWN gpu_emu_dim3 threadIdx, blockIdx;
/* The thread's index in its block, x fastest: the order warps are cut in. */
static GPU_EMU_OWN unsigned gpu_emu_tid;
static gpu_emu_dim3 blockDim, gridDim;
/* Shuffles this thread has made in its block, which every lane of a warp
 * makes in the same order. */
static GPU_EMU_OWN unsigned gpu_emu_shfl_count;

#include "t/gpu_emu_run.h"

/* What the threads of the block being run share: its barrier, one barrier
 * per warp, and the slots through which shuffles and ballots pass values.
 * A thread that returns leaves both barriers (arrive_and_drop), as a warp
 * that exits stops counting at a GPU's barriers; between two blocks
 * reset() restores them. */
struct gpu_emu_block {
    unsigned nthreads = 0;
    gpu_emu_barrier bar;
    std::vector<gpu_emu_barrier> warps;
    /* Two halves of a shuffle slot per thread: the value's bytes and the
     * number of the shuffle that wrote it. */
    std::vector<uint64_t> shfl_bits;
    std::vector<unsigned> shfl_seq;
    /* Per thread: 0 or 1 the vote of the current ballot, 2 gone. */
    std::vector<unsigned char> votes;

    explicit gpu_emu_block(unsigned n)
        : nthreads(n), warps((n + gpu_emu_lanes - 1) / gpu_emu_lanes), shfl_bits(2 * (size_t)n),
          shfl_seq(2 * (size_t)n), votes(n)
    {
        reset();
    }
    void reset()
    {
        bar.reset(nthreads);
        for (size_t w = 0; w < warps.size(); w++)
            warps[w].reset(std::min(gpu_emu_lanes, nthreads - (unsigned)w * gpu_emu_lanes));
        std::fill(shfl_seq.begin(), shfl_seq.end(), 0u);
        std::fill(votes.begin(), votes.end(), (unsigned char)0);
    }
};

/* The block being run: the same for every thread, each thread's own under TSan. */
static GPU_EMU_OWN gpu_emu_block *gpu_emu_blk;

static inline void __syncthreads()
{
    gpu_emu_blk->bar.arrive_and_wait();
}

static inline gpu_emu_barrier &gpu_emu_warp()
{
    return gpu_emu_blk->warps[gpu_emu_tid / gpu_emu_lanes];
}

/* The caller's lane in its warp. */
static inline unsigned gpu_emu_lane()
{
    return gpu_emu_tid % gpu_emu_lanes;
}

#include "t/gpu_emu_warp.h"

/* A thread's kernel call has returned: it votes no more and leaves the
 * barriers.  Its shuffle slots keep their old numbers, so it shuffles
 * nothing either. */
static inline void gpu_emu_thread_exit()
{
    gpu_emu_blk->votes[gpu_emu_tid] = 2;
    gpu_emu_blk->bar.arrive_and_drop();
    gpu_emu_warp().arrive_and_drop();
}

/* The vector types, which kernels also read as other types (a float4 of the
 * shear table as two float2): may_alias keeps g++'s strict aliasing from
 * dropping such loads, a pun the device compilers allow. */
struct __attribute__((may_alias)) float2 {
    float x, y;
};
struct __attribute__((may_alias)) float4 {
    float x, y, z, w;
};
struct __attribute__((may_alias)) double2 {
    double x, y;
};

static inline float4 make_float4(float x, float y, float z, float w)
{
    return { x, y, z, w };
}

static inline double2 make_double2(double x, double y)
{
    return { x, y };
}

using std::fabs;
using std::fma;
using std::fmax;
using std::fmin;
using std::hypot;
using std::isfinite;
using std::max;
using std::min;
using std::sqrt;

/* atomicAdd on shared or global memory. */
template <typename T> static inline T atomicAdd(T *a, T v)
{
    return std::atomic_ref<T>(*a).fetch_add(v);
}

static inline int atomicOr(int *a, int v)
{
    return std::atomic_ref<int>(*a).fetch_or(v);
}

/* The reciprocal square roots, here correctly rounded square roots and a
 * rounded division: within the device's 2 ulp (float) and its IEEE-close
 * double. */
static inline float rsqrtf(float v)
{
    return 1.0f / std::sqrt(v);
}

static inline double rsqrt(double v)
{
    return 1.0 / std::sqrt(v);
}

/* The dynamic shared buffer of a launch: gpu_emu_dyn_shared sizes it
 * before the launch; the kernel's RB_DYN_SHARED(name) names it. */
static std::vector<unsigned char> gpu_emu_dyn_smem;
static inline void gpu_emu_dyn_shared(size_t bytes)
{
    gpu_emu_dyn_smem.assign(bytes ? bytes : 1, 0);
}
#define RB_DYN_SHARED(name) unsigned char *name = gpu_emu_dyn_smem.data()

/* Run `kernel` (a callable making the kernel call) over a grid gx x gy of
 * blocks of block.x x block.y threads.  The threads go through the blocks
 * together, a barrier after each, so that no block starts before the one
 * before it has ended (and a thread's start, which dominates under the
 * sanitizers, is paid once per launch); that barrier's completion readies
 * the block's state for the next. */
template <class F>
static void gpu_emu_launch(unsigned gx, unsigned gy, gpu_emu_dim3 block, F kernel)
{
    const unsigned nthreads = block.x * block.y;
    gridDim.x = gx;
    gridDim.y = gy;
    blockDim = block;
    gpu_emu_block blk(nthreads);
    gpu_emu_barrier end;
    end.done = { [](void *b) { static_cast<gpu_emu_block *>(b)->reset(); }, &blk };
    end.reset(nthreads);
    auto body = [&](unsigned t) {
        threadIdx = { t % block.x, t / block.x, 0 };
        blockIdx.z = 0;
        gpu_emu_tid = t;
        gpu_emu_blk = &blk;
        for (unsigned by = 0; by < gy; by++)
            for (unsigned b = 0; b < gx; b++) {
                blockIdx.x = b;
                blockIdx.y = by;
                gpu_emu_shfl_count = 0;
                kernel();
                gpu_emu_thread_exit();
                end.arrive_and_wait();
            }
    };
    gpu_emu_run(nthreads, [](void *a, unsigned t) { (*static_cast<decltype(body) *>(a))(t); },
                &body);
}

/* Blocks of bx threads. */
template <class F> static void gpu_emu_launch(unsigned gx, unsigned gy, unsigned bx, F kernel)
{
    gpu_emu_launch(gx, gy, gpu_emu_dim3{ bx, 1, 1 }, kernel);
}

#endif
