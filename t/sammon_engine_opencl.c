/* SPDX-License-Identifier: MIT */
/* The OpenCL embedding engine against the fp64 one on whatever OpenCL
 * device is there (PoCL in CI): t/sammon_engine_test.h. */
#include "impl/sammon/sammon_engine.h"
#include "t/sammon_engine_test.h"

int main(void)
{
    engine_test(&sammon_engine_opencl);
    return tap_done();
}
