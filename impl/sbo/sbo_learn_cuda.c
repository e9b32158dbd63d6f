/* SPDX-License-Identifier: MIT */
/* sbo-learn's CUDA trainer: the CUDA "train" variants' device training
 * (sbo_learn_gpu.inc), its GEMMs through cuBLAS with --cublas. */
#include <config.h>
#include "harness/backend/cuda.h"

#define LEARN_GPU(name) sbo_learn_cuda_##name
#define LEARN_TRAIN(name) sbo_cuda_train_##name
#define LEARN_DEV struct sbo_cuda_train_dev
#define LEARN_BACKEND RB_BACKEND_CUDA
#define LEARN_DEVICE cuda_device
#define LEARN_NAME "cuda"
#define LEARN_RELEASE rb_cuda_release
#include "impl/sbo/sbo_learn_gpu.inc"
