/* SPDX-License-Identifier: MIT */
/* Every HIP Givens variant (paper, fused and apply; forward and backward)
 * through the harness's life cycle on a device (t/givens_gpu_test.h), as
 * t/givens_cuda.c tests CUDA's: odd n, restricted m, fresh angles, poisoned
 * outputs; the fused kernels' refusals and the fused U against the paper's
 * on blocks of several wavefronts.  Skips without a HIP device. */
#include "harness/backend/hip.h"
#include "impl/givens/givens_gpu.h"
#define GIVENS_TEST_BACKEND RB_BACKEND_HIP
#include "t/givens_gpu_test.h"

int main(void)
{
    return givens_gpu_test_main(rb_hip_available, givens_hip_engine()->fetch, "HIP");
}
