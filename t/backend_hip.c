/* SPDX-License-Identifier: MIT */
/* The HIP plumbing on a real device: choice, description, a checked saxpy
 * timed with events, occupancy, and the error macros.  Skips without one.
 * Error names are HIP's on AMD and CUDA's through harness/backend/hipcuda. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "harness/backend/hip.h"
#include "harness/ctx.h"
#include "harness/error.h"
#include "impl/common/rng.h"
#include "t/tap.h"

int rb_test_hip_saxpy(struct rb_case *c, int n, float a, const float *x, float *y, int block,
                       double *ms, struct rb_occ_kernel *occ);
int rb_test_hip_bad_alloc(struct rb_case *c);
int rb_test_hip_bad_launch(struct rb_case *c);
int rb_test_hip_last_error(void);

enum { N = 1 << 20, BLOCK = 256 };
static float x[N], y[N], want[N];

int main(void)
{
    struct rb_ctx ctx;
    char why[512];
    rb_ctx_init(&ctx);
    if (!rb_hip_available(&ctx, why, sizeof why))
        tap_skip_all("%s", why);
    tap_plan(11);
    uint64_t seed = tap_seed();
    tap_diag("seed %llu (set RB_TEST_SEED to repeat)", (unsigned long long)seed);

    json_t *devices = json_array();
    int n = rb_hip_devices(devices, why, sizeof why);
    json_t *d0 = json_array_get(devices, 0);
    /* AMD devices name their gfx architecture, NVIDIA ones (hipcuda) their CC. */
    const char *arch = json_string_value(json_object_get(d0, "arch"));
    if (!arch)
        arch = json_string_value(json_object_get(d0, "cc"));
    tap_ok(n >= 1 && arch, "%d devices, the first %s (%s)", n,
           json_string_value(json_object_get(d0, "name")), arch);
    json_decref(devices);
    json_t *v = rb_hip_versions();
    tap_ok(json_string_value(json_object_get(v, "runtime"))
           && json_string_value(json_object_get(v, "compiler")), "runtime %s, compiler %s",
           json_string_value(json_object_get(v, "runtime")),
           json_string_value(json_object_get(v, "compiler")));
    json_decref(v);

    struct rb_rng r;
    rb_rng_seed(&r, seed);
    const float a = (float)rb_rng_range(&r, 0.5, 2);
    for (int i = 0; i < N; i++) {
        x[i] = (float)rb_rng_range(&r, -1, 1);
        want[i] = (float)rb_rng_range(&r, -1, 1);
        y[i] = want[i];
    }
    struct rb_case c = { .ctx = &ctx };
    struct rb_occ_kernel occ;
    double ms = -1;
    int rc = rb_test_hip_saxpy(&c, N, a, x, y, BLOCK, &ms, &occ);
    tap_ok(rc == 0 && c.device[0], "saxpy on %s (%s)", c.device, rc ? c.msg : "ok");
    int bad = -1;
    for (int i = 0; i < N && bad < 0; i++) {
        double ref = (double)a * x[i] + want[i];
        if (!(fabs(y[i] - ref) <= 4 * 1.2e-7 * (fabs((double)a * x[i]) + fabs(want[i]))))
            bad = i;
    }
    tap_ok(rc == 0 && bad < 0, "saxpy matches the host (first mismatch %d)", bad);
    tap_ok(ms > 0, "event time %.4f ms", ms);
    tap_ok(rc == 0 && strcmp(occ.source, "hip-runtime") == 0 && occ.regs > 0
           && occ.active_blocks >= 1 && occ.occupancy > 0 && occ.occupancy <= 1
           && occ.block == BLOCK && occ.limiter[0],
           "occupancy %.2f (%d blocks/SM, %d regs, limited by %s)", occ.occupancy,
           occ.active_blocks, occ.regs, occ.limiter);

    c.msg[0] = '\0';
    rc = rb_test_hip_bad_alloc(&c);
    tap_ok(rc == RB_EDEVICE && strstr(c.msg, "hipMalloc(&p") && strstr(c.msg, "Error"),
           "failed call: RB_EDEVICE, %s", c.msg);
    tap_is(rb_test_hip_last_error(), 0, "the check cleared the last error");
    c.msg[0] = '\0';
    rc = rb_test_hip_bad_launch(&c);
    tap_ok(rc == RB_ELAUNCH && strstr(c.msg, "kernel launch"), "bad launch: RB_ELAUNCH, %s",
           c.msg);
    tap_is(rb_test_hip_last_error(), 0, "the launch check cleared the last error");
    rb_ctx_release(&ctx);
    tap_ok(ctx.backend[RB_BACKEND_HIP] == NULL, "released");
    return tap_done();
}
