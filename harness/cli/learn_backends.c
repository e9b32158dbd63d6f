/* SPDX-License-Identifier: MIT */
/* learn's trainers, the one place that picks them by build: the host ones
 * always, each device one where its backend is built (impl/sbo/sbo_learn.h). */
#include <config.h>
#include "impl/sbo/sbo_learn.h"

#if RB_HAVE_OPENCL
static const struct sbo_learner opencl = {
    .name = "opencl", .about = "float, the training on an OpenCL device",
    .prepare = sbo_learn_cl_prepare, .train = sbo_learn_cl_train, .code = sbo_learn_cl_code,
    .release = sbo_learn_cl_release
};
#endif
#if RB_HAVE_CUDA
static const struct sbo_learner cuda = {
    .name = "cuda", .about = "float, the training on a CUDA device",
    .prepare = sbo_learn_cuda_prepare, .train = sbo_learn_gpu_train,
    .code = sbo_learn_gpu_code, .release = sbo_learn_gpu_release
};
#endif
#if RB_HAVE_HIP
static const struct sbo_learner hip = {
    .name = "hip", .about = "float, the training on a HIP device",
    .prepare = sbo_learn_hip_prepare, .train = sbo_learn_gpu_train,
    .code = sbo_learn_gpu_code, .release = sbo_learn_gpu_release
};
#endif

const struct sbo_learner *const sbo_learners[] = {
    &sbo_learner_serial,
    &sbo_learner_omp,
#if RB_HAVE_OPENCL
    &opencl,
#endif
#if RB_HAVE_CUDA
    &cuda,
#endif
#if RB_HAVE_HIP
    &hip,
#endif
    NULL
};
