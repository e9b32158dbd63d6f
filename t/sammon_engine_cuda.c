/* SPDX-License-Identifier: MIT */
/* The CUDA embedding engine against the fp64 one on a CUDA device
 * (t/sammon_engine_test.h); without one, only the refusal of inputs that
 * float cannot tell apart, which comes before any device work. */
#include "impl/sammon/sammon_engine.h"
#include "t/sammon_engine_test.h"

int main(void)
{
    engine_test(sammon_engine_cuda_ops());
    return tap_done();
}
