/* SPDX-License-Identifier: MIT */
/* sbo-learn's CUDA trainer: the CUDA "train" variants' device training
 * (sbo_learn_gpu.c), its GEMMs through cuBLAS with --cublas. */
#include <config.h>
#include "harness/backend/cuda.h"
#include "impl/sbo/sbo_gpu.h"
#include "impl/sbo/sbo_learn.h"

static const struct sbo_learn_gpu learn_cuda = {
    .name = "cuda", .backend = RB_BACKEND_CUDA, .engine = sbo_cuda_engine, .release = rb_cuda_release,
};

int sbo_learn_cuda_prepare(struct sbo_learn_run *r)
{
    return sbo_learn_gpu_prepare(&learn_cuda, r);
}
