/* SPDX-License-Identifier: MIT */
/* sbo-learn's HIP trainer: the HIP "train" variants' device training
 * (sbo_learn_gpu.inc); its GEMMs are the own batched kernel. */
#include <config.h>
#include "harness/backend/hip.h"

#define LEARN_GPU(name) sbo_learn_hip_##name
#define LEARN_TRAIN(name) sbo_hip_train_##name
#define LEARN_DEV struct sbo_hip_train_dev
#define LEARN_BACKEND RB_BACKEND_HIP
#define LEARN_DEVICE hip_device
#define LEARN_NAME "hip"
#define LEARN_RELEASE rb_hip_release
#include "impl/sbo/sbo_learn_gpu.inc"
