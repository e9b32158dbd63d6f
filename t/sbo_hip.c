/* SPDX-License-Identifier: MIT */
/* The HIP SBO representation variants through the harness's life cycle on
 * a device (t/sbo_gpu_test.h).  Skips without a HIP device. */
#include "harness/backend/hip.h"
#include "impl/sbo/sbo_gpu.h"
#define SBO_TEST_BACKEND RB_BACKEND_HIP
#include "t/sbo_gpu_test.h"

int main(void)
{
    struct rb_ctx ctx;
    uint64_t seed = test_start(&ctx, rb_hip_available);
    test_all(&ctx, seed, sbo_hip_engine()->upload, "HIP");
    rb_ctx_release(&ctx);
    return tap_done();
}
