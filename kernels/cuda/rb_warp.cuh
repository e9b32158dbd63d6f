/* SPDX-License-Identifier: MIT */
/* The warp as CUDA and HIP kernels see it: its width as a compile-time
 * constant (32 lanes on NVIDIA, AMD's wavefront of 64, or 32 where the
 * target runs wave32), the multiple block sizes are rounded to, and the
 * one-lane shuffles.  HIP on NVIDIA (nvcc through harness/backend/hipcuda)
 * is CUDA here. */
#ifndef RB_WARP_CUH
#define RB_WARP_CUH

#ifdef __HIP_PLATFORM_AMD__
/* Host and device agree on whole wavefronts of 64, which are also whole
 * wavefronts on a wave32 target; the device pass knows its own width. */
#define RB_WARP_BLOCK 64
#if defined(__AMDGCN_WAVEFRONT_SIZE) && __AMDGCN_WAVEFRONT_SIZE == 32
#define RB_WARP 32
#define RB_WARP_SHIFT 5
#else
#define RB_WARP 64
#define RB_WARP_SHIFT 6
#endif
#else
#define RB_WARP_BLOCK 32
#define RB_WARP 32
#define RB_WARP_SHIFT 5
#endif

/* The most warps a block of 1024 threads has. */
#define RB_WARP_MAX_PER_BLOCK (1024 / RB_WARP)

/* v of the lane delta below (up) or above (down); a lane without one keeps
 * its own v.  Every lane of the warp must take part. */
template <typename T> __device__ __forceinline__ T rb_shfl_up(T v, unsigned delta)
{
#ifdef __HIP_PLATFORM_AMD__
    return __shfl_up(v, delta);
#else
    return __shfl_up_sync(0xffffffffu, v, delta);
#endif
}

template <typename T> __device__ __forceinline__ T rb_shfl_down(T v, unsigned delta)
{
#ifdef __HIP_PLATFORM_AMD__
    return __shfl_down(v, delta);
#else
    return __shfl_down_sync(0xffffffffu, v, delta);
#endif
}

/* v of the lane whose index differs from this one's by lane_mask (xor).
 * Every lane of the warp must take part. */
template <typename T> __device__ __forceinline__ T rb_shfl_xor(T v, int lane_mask)
{
#ifdef __HIP_PLATFORM_AMD__
    return __shfl_xor(v, lane_mask);
#else
    return __shfl_xor_sync(0xffffffffu, v, lane_mask);
#endif
}

#endif
