/* SPDX-License-Identifier: MIT */
/* Every HIP Sammon variant through the harness's life cycle on a device
 * (t/sammon_gpu_test.h).  Skips without a HIP device. */
#include "harness/backend/hip.h"
#define SAMMON_TEST_BACKEND RB_BACKEND_HIP
#include "t/sammon_gpu_test.h"

int main(void)
{
    struct rb_ctx ctx;
    uint64_t seed = test_start(&ctx, rb_hip_available);
    test_all(&ctx, seed, "HIP");
    rb_ctx_release(&ctx);
    return tap_done();
}
