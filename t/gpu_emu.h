/* SPDX-License-Identifier: MIT */
/* Host C++ stand-ins for the CUDA subset some kernels of kernels/cuda use,
 * so that a test can run them on the CPU where no GPU is: one std::thread
 * per GPU thread of a block, the blocks one after another, a std::barrier
 * for __syncthreads, __shared__ arrays as statics (one block at a time uses
 * them).  What it checks is the kernels' arithmetic, indexing and barrier
 * placement (a missing barrier shows under -fsanitize=thread); nothing of
 * warps, timing or the memory model.  C++20; include before the kernels. */
#ifndef RB_T_GPU_EMU_H
#define RB_T_GPU_EMU_H

#include <algorithm>
#include <atomic>
#include <barrier>
#include <cmath>
#include <cstddef>
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
static gpu_emu_dim3 blockDim, gridDim;
static thread_local std::barrier<> *gpu_emu_barrier;

static inline void __syncthreads()
{
    gpu_emu_barrier->arrive_and_wait();
}

/* A shuffle, emulated over the whole block: the kernels that use it call it
 * from every thread at the same point.  Write, wait, read the partner's,
 * wait (so that the next shuffle does not overwrite it early). */
static thread_local double *gpu_emu_xchg;

template <typename T> static inline T __shfl_xor_sync(unsigned, T v, int lane_mask)
{
    gpu_emu_xchg[threadIdx.x] = (double)v;
    gpu_emu_barrier->arrive_and_wait();
    const T r = (T)gpu_emu_xchg[threadIdx.x ^ (unsigned)lane_mask];
    gpu_emu_barrier->arrive_and_wait();
    return r;
}

struct float4 {
    float x, y, z, w;
};
struct double2 {
    double x, y;
};
using std::fabs;
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

/* The dynamic shared buffer of a launch: gpu_emu_dyn_shared sizes it
 * before the launch; the kernel's RB_DYN_SHARED(name) names it. */
static std::vector<unsigned char> gpu_emu_dyn_smem;
static inline void gpu_emu_dyn_shared(size_t bytes)
{
    gpu_emu_dyn_smem.assign(bytes ? bytes : 1, 0);
}
#define RB_DYN_SHARED(name) unsigned char *name = gpu_emu_dyn_smem.data()

/* Run `kernel` (a callable making the kernel call) over a grid gx x gy of
 * blocks of bx threads. */
template <class F> static void gpu_emu_launch(unsigned gx, unsigned gy, unsigned bx, F kernel)
{
    gridDim.x = gx;
    gridDim.y = gy;
    blockDim.x = bx;
    for (unsigned by = 0; by < gy; by++)
        for (unsigned b = 0; b < gx; b++) {
            std::barrier<> bar((std::ptrdiff_t)bx);
            std::vector<double> xchg(bx);
            std::vector<std::thread> threads;
            for (unsigned t = 0; t < bx; t++)
                threads.emplace_back([&, t] {
                    threadIdx.x = t;
                    blockIdx.x = b;
                    blockIdx.y = by;
                    gpu_emu_barrier = &bar;
                    gpu_emu_xchg = xchg.data();
                    kernel();
                });
            for (std::thread &th : threads)
                th.join();
        }
}

#endif
