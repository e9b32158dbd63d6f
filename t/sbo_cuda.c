/* SPDX-License-Identifier: MIT */
/* The CUDA SBO representation variants through the harness's life cycle on
 * a device (t/sbo_gpu_test.h).  Skips without a CUDA device. */
#include "harness/backend/cuda.h"
#include "impl/sbo/sbo_gpu.h"
#define SBO_TEST_BACKEND RB_BACKEND_CUDA
#include "t/sbo_gpu_test.h"

int main(void)
{
    struct rb_ctx ctx;
    uint64_t seed = test_start(&ctx, rb_cuda_available);
    test_all(&ctx, seed, sbo_cuda_engine()->upload, "CUDA");
    rb_ctx_release(&ctx);
    return tap_done();
}
