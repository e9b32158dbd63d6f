// SPDX-License-Identifier: MIT
// Which representation kernel is built for a case's element type, p and s:
// the paper's energy map (kernels/cuda/sbo_paper.cuh) and the fused kernels
// (sbo_fused.cuh, sbo_fused_pair.cuh), for the representation variants
// (sbo_gpu_launch.cu) and the trainings (sbo_gpu_train_steps.cu,
// sbo_gpu_train_case.cu), CUDA and HIP alike; each unit that includes it
// has its own copy of these pickers (internal linkage).  C++ for the CUDA
// and HIP compilers only.
#ifndef SBO_GPU_KERNELS_H
#define SBO_GPU_KERNELS_H

#include "impl/common/gpu_api.h"       /* HIP's runtime header before the kernels */
#include "kernels/cuda/sbo_common.cuh"
#include "kernels/cuda/sbo_fused.cuh"
#include "kernels/cuda/sbo_fused_pair.cuh"
#include "kernels/cuda/sbo_paper.cuh"

template <typename T> using energy_fn = void (*)(int, int, const T *, const T *, T *);

template <typename T>
using fused_fn = void (*)(int, int, int, const T *, const T *, int *, T *);

// The kernels keep the top-s list in registers: s is a template argument,
// built for these values.  NULL for any other.
template <typename T, int PMAX> static fused_fn<T> fused_kernel_s(int s)
{
    switch (s) {
    case 1: return sbo_fused<T, PMAX, 1>;
    case 2: return sbo_fused<T, PMAX, 2>;
    case 4: return sbo_fused<T, PMAX, 4>;
    case 8: return sbo_fused<T, PMAX, 8>;
    case 16: return sbo_fused<T, PMAX, 16>;
    case 32: return sbo_fused<T, PMAX, 32>;
    }
    return NULL;
}

static inline fused_fn<float> pair_kernel(int s)
{
    switch (s) {
    case 1: return sbo_fused_pair<1>;
    case 2: return sbo_fused_pair<2>;
    case 4: return sbo_fused_pair<4>;
    case 8: return sbo_fused_pair<8>;
    case 16: return sbo_fused_pair<16>;
    case 32: return sbo_fused_pair<32>;
    }
    return NULL;
}

// A signal is padded to 64 values (registers) or 256 (spilled, but any p).
static inline int pmax_of(int p)
{
    return p <= SBO_GPU_PMAX_SMALL ? SBO_GPU_PMAX_SMALL : SBO_GPU_PMAX_LARGE;
}

template <typename T, int PMAX> static energy_fn<T> energy_kernel_s(int s)
{
    switch (s) {
    case 1: return sbo_energy<T, PMAX, 1>;
    case 2: return sbo_energy<T, PMAX, 2>;
    case 4: return sbo_energy<T, PMAX, 4>;
    case 8: return sbo_energy<T, PMAX, 8>;
    case 16: return sbo_energy<T, PMAX, 16>;
    case 32: return sbo_energy<T, PMAX, 32>;
    }
    return NULL;
}

template <typename T> static energy_fn<T> energy_kernel(int p, int s)
{
    if (pmax_of(p) == SBO_GPU_PMAX_SMALL)
        return energy_kernel_s<T, SBO_GPU_PMAX_SMALL>(s);
    return energy_kernel_s<T, SBO_GPU_PMAX_LARGE>(s);
}

template <typename T> static fused_fn<T> fused_kernel(int p, int s)
{
    if (pmax_of(p) == SBO_GPU_PMAX_SMALL)
        return fused_kernel_s<T, SBO_GPU_PMAX_SMALL>(s);
    return fused_kernel_s<T, SBO_GPU_PMAX_LARGE>(s);
}

// Signals a thread of the fused kernel owns at p.
template <typename T> static int fused_sig(int p)
{
    if (pmax_of(p) == SBO_GPU_PMAX_SMALL)
        return sbo_fused_sig<T, SBO_GPU_PMAX_SMALL>();
    return sbo_fused_sig<T, SBO_GPU_PMAX_LARGE>();
}

#endif
