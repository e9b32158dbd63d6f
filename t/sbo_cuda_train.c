/* SPDX-License-Identifier: MIT */
/* The CUDA SBO training: its steps against the CPU and whole trainings
 * against sbo_train (t/sbo_gpu_train_test.h).  Skips without a CUDA
 * device. */
#include "harness/backend/cuda.h"
#define SBO_TEST_BACKEND RB_BACKEND_CUDA
#define SBO_TEST_ENGINE sbo_cuda_engine
#include "t/sbo_gpu_train_test.h"

int main(void)
{
    return test_train(rb_cuda_available);
}
