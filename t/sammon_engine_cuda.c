/* SPDX-License-Identifier: MIT */
/* The CUDA embedding engine against the fp64 one on a CUDA device
 * (t/sammon_engine_test.h); skipped without one. */
#include "impl/sammon/sammon_engine.h"
#include "t/sammon_engine_test.h"

static const struct sammon_engine_ops cuda_ops = {
    .name = "cuda", .gpu = 1, .available = sammon_engine_cuda_available,
    .open = sammon_engine_cuda_open, .eval = sammon_engine_cuda_eval,
    .close = sammon_engine_cuda_close,
};

int main(void)
{
    engine_test(&cuda_ops);
    return tap_done();
}
