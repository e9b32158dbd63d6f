/* SPDX-License-Identifier: MIT */
/* The HIP embedding engine against the fp64 one on a HIP device
 * (t/sammon_engine_test.h); skipped without one. */
#include "impl/sammon/sammon_engine.h"
#include "t/sammon_engine_test.h"

static const struct sammon_engine_ops hip_ops = {
    .name = "hip", .gpu = 1, .available = sammon_engine_hip_available,
    .open = sammon_engine_hip_open, .eval = sammon_engine_hip_eval,
    .close = sammon_engine_hip_close,
};

int main(void)
{
    engine_test(&hip_ops);
    return tap_done();
}
