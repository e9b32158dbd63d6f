/* SPDX-License-Identifier: MIT */
/* Every HIP Givens variant (the paper's forward and backward) through the
 * harness's life cycle on a device (t/givens_gpu_test.h).  Skips without a
 * HIP device. */
#include "harness/backend/hip.h"
#define GIVENS_TEST_BACKEND RB_BACKEND_HIP
#include "t/givens_gpu_test.h"

int main(void)
{
    struct rb_ctx ctx;
    uint64_t seed = test_start(&ctx, rb_hip_available);
    int nv, planned = 1 + plan_variants(&ctx, seed, &nv);
    plan_print(planned, seed);
    tap_ok(nv == 2 && find("forward", "paper") && find("backward", "paper"),
           "%d HIP Givens variants registered", nv);
    test_variants(&ctx, seed);
    rb_ctx_release(&ctx);
    return tap_done();
}
