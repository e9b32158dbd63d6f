/* SPDX-License-Identifier: MIT */
/* The CPU's ceiling probe: finite positive rates within its time budget, one
 * thread's FP32 rate at least its FP64 rate (twice the lanes per vector),
 * and the JSON meta.json keeps. */
#include <math.h>
#include <string.h>
#include "harness/backend/cpu.h"
#include "harness/run/ceiling.h"
#include "harness/run/timer.h"
#include "t/tap.h"

static int positive(double x)
{
    return isfinite(x) && x > 0;
}

static void probe(int threads)
{
    struct rb_ceiling c;
    uint64_t t0 = rb_now_ns();
    int rc = rb_ceiling_cpu(threads, &c);
    double s = rb_ms_since(t0) * 1e-3;

    tap_ok(rc == 0 && c.error[0] == '\0', "%d thread(s): probe succeeds%s%s", threads,
           c.error[0] ? ": " : "", c.error);
    tap_diag("%d thread(s): copy %.3g GB/s, fp32 %.4g GFLOP/s, fp64 %.4g GFLOP/s, %.2f s (%s)",
             threads, c.copy_gbytes_per_s, c.fp32_gflops, c.fp64_gflops, s, c.method);
    tap_ok(positive(c.copy_gbytes_per_s) && c.copy_gbytes_per_s < 1e4,
           "%d thread(s): copy rate finite, positive, below 10 TB/s", threads);
    tap_ok(positive(c.fp32_gflops) && positive(c.fp64_gflops),
           "%d thread(s): FP32 and FP64 rates finite and positive", threads);
    /* The same loop on vectors of the same width: FP32 has twice the lanes,
     * so a probe that mixed up its rates shows as FP32 below FP64.  That is
     * asserted on one thread, the same code as any count: "roughly", since a
     * busy machine may slow one of the timings, so a low ratio is probed
     * again, up to twice, and the best ratio counts.  With as many threads as
     * cores the ratio says nothing about the probe: tests run side by side,
     * a thread loses its core for whole timings, and on a 16-core machine
     * running make -j16 check three probes in a row have given 0.27 x. */
    double ratio = c.fp64_gflops > 0 ? c.fp32_gflops / c.fp64_gflops : 0;
    if (threads == 1) {
        int tries = 1;
        for (; ratio < 0.8 && tries < 3; tries++) {
            struct rb_ceiling again;
            if (rb_ceiling_cpu(threads, &again) == 0 && again.fp64_gflops > 0
                && again.fp32_gflops / again.fp64_gflops > ratio)
                ratio = again.fp32_gflops / again.fp64_gflops;
        }
        tap_ok(ratio >= 0.8, "1 thread: fp32 >= 0.8 x fp64 (%.2f x, best of %d probe(s))",
               ratio, tries);
    } else {
        tap_diag("%d threads: fp32 / fp64 = %.2f (not asserted: threads share the cores "
                 "with other tests)", threads, ratio);
    }
    /* Bounded: about a second on an idle machine; a loaded one stretches
     * it, a runaway loop would not stop. */
    tap_ok(s < 10.0, "%d thread(s): probe takes %.2f s < 10 s", threads, s);
    tap_ok(c.device[0] && c.method[0], "%d thread(s): device and method named", threads);

    json_t *j = rb_ceiling_json(&c);
    tap_ok(j && json_is_real(json_object_get(j, "copy_gbytes_per_s"))
           && json_is_real(json_object_get(j, "fp32_gflops"))
           && json_is_real(json_object_get(j, "fp64_gflops"))
           && json_is_null(json_object_get(j, "error")),
           "%d thread(s): JSON has the three rates and a null error", threads);
    json_decref(j);
}

int main(void)
{
    struct rb_ceiling c;

    /* The ratio is asserted for one thread only (probe). */
    tap_plan(rb_omp_max_threads() == 1 ? 16 : 15);
    probe(1);
    probe(rb_omp_max_threads());
    /* An unmeasured rate is null in the JSON, never a number. */
    rb_ceiling_clear(&c);
    rb_ceiling_fail(&c, "first reason");
    rb_ceiling_fail(&c, "second reason");
    json_t *j = rb_ceiling_json(&c);
    tap_ok(j && json_is_null(json_object_get(j, "fp32_gflops"))
           && json_is_null(json_object_get(j, "copy_gbytes_per_s")),
           "unmeasured rates are null");
    tap_ok(strcmp(json_string_value(json_object_get(j, "error")), "first reason") == 0,
           "the first failure's reason is kept");
    json_decref(j);
    return tap_done();
}
