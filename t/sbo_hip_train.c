/* SPDX-License-Identifier: MIT */
/* The HIP SBO training: its steps against the CPU and whole trainings
 * against sbo_train (t/sbo_gpu_train_test.h).  Skips without a HIP
 * device. */
#include "harness/backend/hip.h"
#define SBO_TEST_BACKEND RB_BACKEND_HIP
#define SBO_TEST_ENGINE sbo_hip_engine
#include "t/sbo_gpu_train_test.h"

int main(void)
{
    return test_train(rb_hip_available);
}
