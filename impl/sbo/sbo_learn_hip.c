/* SPDX-License-Identifier: MIT */
/* sbo-learn's HIP trainer: the HIP "train" variants' device training
 * (sbo_learn_gpu.c); its GEMMs are the own batched kernel. */
#include <config.h>
#include "harness/backend/hip.h"
#include "impl/sbo/sbo_gpu.h"
#include "impl/sbo/sbo_learn.h"

static const struct sbo_learn_gpu learn_hip = {
    .name = "hip", .backend = RB_BACKEND_HIP, .engine = sbo_hip_engine, .release = rb_hip_release,
};

int sbo_learn_hip_prepare(struct sbo_learn_run *r)
{
    return sbo_learn_gpu_prepare(&learn_hip, r);
}
