/* SPDX-License-Identifier: MIT */
/* Every CUDA Givens variant through the harness's life cycle on a device
 * (t/givens_gpu_test.h); also the fused U against the paper's U, and the
 * fused kernels' refusals.  Skips without a CUDA device. */
#include "harness/backend/cuda.h"
#include "impl/givens/givens_gpu.h"
#define GIVENS_TEST_BACKEND RB_BACKEND_CUDA
#include "t/givens_gpu_test.h"

int main(void)
{
    return givens_gpu_test_main(rb_cuda_available, givens_cuda_engine()->fetch, "CUDA");
}
