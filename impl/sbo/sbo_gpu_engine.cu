// SPDX-License-Identifier: MIT
// The GPU SBO engine C sees (sbo_gpu.h), compiled once for CUDA and once
// for HIP: its entry points are this backend's namespace's
// (sbo_gpu_state.h, sbo_gpu_train_state.h).  A function, not an object: the
// device compiler leaves host functions alone.
#include <config.h>
#include "impl/sbo/sbo_gpu_state.h"
#include "impl/sbo/sbo_gpu_train_state.h"

#ifdef RB_GPU_HIP
extern "C" const struct sbo_gpu_engine *sbo_hip_engine(void)
#else
extern "C" const struct sbo_gpu_engine *sbo_cuda_engine(void)
#endif
{
    using namespace sbo_gpu;
    static const struct sbo_gpu_engine engine = {
        admit, footprint, setup, upload, run, verify, occupancy, teardown,
        train_admit, train_footprint, train_setup, train_run, train_verify, train_teardown,
        train_occupancy, have_cublas,
        svd_host, select_host, threshold_host, gemm_host,
        direct_open, direct_fit, direct_code, direct_close,
    };
    return &engine;
}
