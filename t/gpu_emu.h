/* SPDX-License-Identifier: MIT */
/* Host C++ stand-ins for the CUDA subset some kernels of kernels/cuda use,
 * so that a test can run them on the CPU where no GPU is: one std::thread
 * per GPU thread of a block, which runs that thread of every block, the
 * blocks one after another; a std::barrier for __syncthreads, __shared__
 * arrays as statics (one block at a time uses them).  What it checks is the
 * kernels' arithmetic, indexing and barrier placement (a missing barrier
 * shows under -fsanitize=thread); of warps only the lanes a ballot or a
 * shuffle gathers, nothing of timing or the memory model.  C++20; include
 * before the kernels. */
#ifndef RB_T_GPU_EMU_H
#define RB_T_GPU_EMU_H

#include <algorithm>
#include <atomic>
#include <barrier>
#include <cmath>
#include <cstddef>
#include <deque>
#include <thread>
#include <vector>

#define __global__
#define __device__
#define __host__
#define __forceinline__ inline
#define __launch_bounds__(...)
#define __shared__ static
#define __align__(x) __attribute__((aligned(x)))

struct gpu_emu_dim3 {
    unsigned x = 1, y = 1, z = 1;
};

static thread_local gpu_emu_dim3 threadIdx, blockIdx;
/* The thread's index in its block, x fastest: the order warps are cut in. */
static thread_local unsigned gpu_emu_tid;
static gpu_emu_dim3 blockDim, gridDim;
static thread_local std::barrier<> *gpu_emu_barrier;
static thread_local std::barrier<> *gpu_emu_warp_barrier;

static inline void __syncthreads()
{
    gpu_emu_barrier->arrive_and_wait();
}

/* v of lane `src` of the caller's warp (32 lanes, as on NVIDIA), or the
 * caller's own v where no such lane is, with a barrier of that warp alone.
 * Write, wait, read: successive shuffles alternate between two halves of
 * the buffer, so a lane writes a half again only after the next shuffle's
 * barrier, which every lane of its warp reaches having read it. */
static thread_local double *gpu_emu_shfl_buf;
static thread_local unsigned gpu_emu_shfl_count;

template <typename T> static inline T gpu_emu_shfl_lane(T v, int src)
{
    const unsigned nthreads = blockDim.x * blockDim.y, lane0 = gpu_emu_tid & ~31u;
    double *buf = gpu_emu_shfl_buf + (gpu_emu_shfl_count++ & 1u) * nthreads;
    buf[gpu_emu_tid] = (double)v;
    gpu_emu_warp_barrier->arrive_and_wait();
    const bool in = src >= 0 && src < 32 && lane0 + (unsigned)src < nthreads;
    return in ? (T)buf[lane0 + (unsigned)src] : v;
}

template <typename T> static inline T __shfl_xor_sync(unsigned, T v, int lane_mask)
{
    return gpu_emu_shfl_lane(v, (int)((gpu_emu_tid & 31u) ^ (unsigned)lane_mask));
}

template <typename T> static inline T __shfl_up_sync(unsigned, T v, unsigned delta)
{
    return gpu_emu_shfl_lane(v, (int)(gpu_emu_tid & 31u) - (int)delta);
}

template <typename T> static inline T __shfl_down_sync(unsigned, T v, unsigned delta)
{
    return gpu_emu_shfl_lane(v, (int)(gpu_emu_tid & 31u) + (int)delta);
}

/* A ballot over the 32 lanes of the caller's warp, with a barrier of that
 * warp alone: a kernel may let whole warps return while the others vote. */
static thread_local unsigned char *gpu_emu_votes;

static inline unsigned __ballot_sync(unsigned, int pred)
{
    const unsigned lane0 = gpu_emu_tid & ~31u;
    gpu_emu_votes[gpu_emu_tid] = pred != 0;
    gpu_emu_warp_barrier->arrive_and_wait();
    unsigned r = 0;
    for (unsigned l = 0; l < 32 && lane0 + l < blockDim.x * blockDim.y; l++)
        r |= (unsigned)gpu_emu_votes[lane0 + l] << l;
    gpu_emu_warp_barrier->arrive_and_wait();
    return r;
}

static inline int __popc(unsigned v)
{
    return __builtin_popcount(v);
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
 * before it has ended (and thread creation, which dominates under the
 * sanitizers, is paid once per launch). */
template <class F>
static void gpu_emu_launch(unsigned gx, unsigned gy, gpu_emu_dim3 block, F kernel)
{
    const unsigned nthreads = block.x * block.y;
    gridDim.x = gx;
    gridDim.y = gy;
    blockDim = block;
    std::barrier<> bar((std::ptrdiff_t)nthreads);
    std::deque<std::barrier<>> warps;
    for (unsigned w = 0; w < nthreads; w += 32)
        warps.emplace_back((std::ptrdiff_t)std::min(32u, nthreads - w));
    std::vector<double> shfl(2 * (size_t)nthreads);
    std::vector<unsigned char> votes(nthreads);
    std::vector<std::thread> threads;
    for (unsigned t = 0; t < nthreads; t++)
        threads.emplace_back([&, t] {
            threadIdx = { t % block.x, t / block.x, 0 };
            blockIdx.z = 0;
            gpu_emu_tid = t;
            gpu_emu_barrier = &bar;
            gpu_emu_warp_barrier = &warps[t / 32];
            gpu_emu_shfl_buf = shfl.data();
            gpu_emu_shfl_count = 0;
            gpu_emu_votes = votes.data();
            for (unsigned by = 0; by < gy; by++)
                for (unsigned b = 0; b < gx; b++) {
                    blockIdx.x = b;
                    blockIdx.y = by;
                    kernel();
                    bar.arrive_and_wait();
                }
        });
    for (std::thread &th : threads)
        th.join();
}

/* Blocks of bx threads. */
template <class F> static void gpu_emu_launch(unsigned gx, unsigned gy, unsigned bx, F kernel)
{
    gpu_emu_launch(gx, gy, gpu_emu_dim3{ bx, 1, 1 }, kernel);
}

#endif
