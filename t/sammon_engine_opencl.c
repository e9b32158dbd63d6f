/* SPDX-License-Identifier: MIT */
/* The OpenCL embedding engine against the fp64 one on whatever OpenCL
 * device is there (PoCL in CI): t/sammon_engine_test.h. */
#include "impl/sammon/sammon_engine.h"
#include "t/sammon_engine_test.h"

static const struct sammon_engine_ops opencl_ops = {
    .name = "opencl", .gpu = 1, .available = sammon_engine_opencl_available,
    .open = sammon_engine_opencl_open, .eval = sammon_engine_opencl_eval,
    .close = sammon_engine_opencl_close,
};

int main(void)
{
    engine_test(&opencl_ops);
    return tap_done();
}
