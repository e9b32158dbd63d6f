/* SPDX-License-Identifier: MIT */
/* Every CUDA Sammon variant through the harness's life cycle on a device
 * (t/sammon_gpu_test.h).  Skips without a CUDA device. */
#include "harness/backend/cuda.h"
#define SAMMON_TEST_BACKEND RB_BACKEND_CUDA
#include "t/sammon_gpu_test.h"

int main(void)
{
    struct rb_ctx ctx;
    uint64_t seed = test_start(&ctx, rb_cuda_available);
    test_all(&ctx, seed, "CUDA");
    rb_ctx_release(&ctx);
    return tap_done();
}
