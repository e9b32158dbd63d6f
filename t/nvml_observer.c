/* SPDX-License-Identifier: MIT */
/* The NVML observer driven by a fake NVML (t/libfake_nvml.so, through
 * RB_NVML_LIBRARY) through normal, throttled and failing sequences, with
 * the library absent, and RB_THROTTLE_THRESHOLD's checks. */
#include <config.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "harness/ctx.h"
#include "harness/error.h"
#include "harness/run/observe.h"
#include "t/tap.h"

#ifndef RB_FAKE_NVML_PATH
#error "RB_FAKE_NVML_PATH names t/libfake_nvml.so (t/local.mk)"
#endif

static const struct rb_axis no_axes[] = { { 0 } };
static const struct rb_variant serial_v = {
    .paper = "givens", .algo = "forward", .name = "fake", .backend = RB_BACKEND_SERIAL,
    .precs = RB_PREC_F32, .sizes = no_axes,
};

/* Start, nsamples samples and stop on a fresh context (NVML loaded anew, so
 * the fake reads its script again). */
static void watch_case(const struct rb_variant *v, const char *script, size_t nsamples,
                       struct rb_observation *o)
{
    struct rb_ctx ctx;
    struct rb_case c = { 0 };

    rb_ctx_init(&ctx);
    c.v = v;
    c.ctx = &ctx;
    setenv("RB_FAKE_NVML", script, 1);
    rb_observe_start(&c, o);
    for (size_t i = 0; i < nsamples; i++)
        rb_observe_sample(&c, o, i);
    rb_observe_stop(&c, o);
    rb_ctx_release(&ctx);
}

static void watch(const char *script, size_t nsamples, struct rb_observation *o)
{
    watch_case(&serial_v, script, nsamples, o);
}

static int contains(const char *s, const char *part)
{
    int ok = strstr(s, part) != NULL;
    if (!ok)
        tap_diag("\"%s\" lacks \"%s\"", s, part);
    return ok;
}

static void check_normal(void)
{
    struct rb_observation o;

    /* The counter at 100 J, then 0.5 J a step: start, 3 samples, stop. */
    watch("sm=1980,mem=2619,temp=41,power=300,energy=100;denergy=0.5;temp=47", 3, &o);
    tap_ok(o.gpu.available && !strcmp(o.gpu.source, "nvml"), "normal: watched through NVML");
    tap_ok(!strcmp(o.gpu.pci_bus_id, "0000:01:00.0")
           && contains(o.gpu.name, "Fake GPU at 0000:01:00.0"),
           "the device found by its PCI bus id (%s)", o.gpu.name);
    tap_ok(o.gpu.sm_start == 1980 && o.gpu.sm_end == 1980 && o.gpu.sm_min == 1980
           && o.gpu.mem_start == 2619 && o.gpu.mem_end == 2619, "SM and memory clocks");
    tap_ok(o.gpu.temp_start == 41 && o.gpu.temp_end == 47, "temperature at start and end");
    tap_ok(o.gpu.energy_j == 2.0 && o.gpu.energy_method
           && !strcmp(o.gpu.energy_method, "energy-counter"),
           "energy from the counter: 4 steps of 0.5 J (%g J)", o.gpu.energy_j);
    tap_ok(isfinite(o.window_s) && o.window_s >= 0, "a window (%g s)", o.window_s);
    tap_is((long long)o.nsamples, 3, "three samples seen");
    tap_is((long long)o.nthrottled, 0, "none throttled");
    tap_ok(!o.gpu.throttle_reason[0] && !o.gpu.reasons && !o.gpu.error[0],
           "no throttle reason, no error");
    rb_observation_free(&o);
}

static void check_clock_throttle(void)
{
    struct rb_observation o;

    /* Step 2 is sample 1: 1700 MHz < 0.9 x 1980.  1790 at sample 3 is above. */
    watch("sm=1980;sm=1980;sm=1700;sm=1850;sm=1790;sm=1800", 4, &o);
    tap_is((long long)o.nthrottled, 1, "clock: one sample throttled");
    tap_ok(o.throttled && o.throttled[1] && !o.throttled[0] && !o.throttled[2]
           && !o.throttled[3], "sample 1 is the one marked");
    tap_ok(contains(o.gpu.throttle_reason, "sample 1: SM clock 1700 MHz, below 90% of the "
                    "1980 MHz"), "its reason names the clock and the threshold");
    tap_ok(o.gpu.sm_min == 1700 && o.gpu.sm_end == 1800, "lowest and end clocks (%u, %u)",
           o.gpu.sm_min, o.gpu.sm_end);
    tap_ok(o.gpu.energy_method && !strcmp(o.gpu.energy_method, "power-samples"),
           "a counter that never moves: power x time instead");
    rb_observation_free(&o);

    setenv("RB_THROTTLE_THRESHOLD", "0.8", 1);
    watch("sm=1980;sm=1980;sm=1700;sm=1850", 2, &o);
    tap_is((long long)o.nthrottled, 0, "RB_THROTTLE_THRESHOLD=0.8: 1700 MHz is not throttled");
    tap_ok(o.gpu.threshold == 0.8, "and the record keeps the threshold");
    rb_observation_free(&o);
    unsetenv("RB_THROTTLE_THRESHOLD");
}

static void check_reason_throttle(void)
{
    struct rb_observation o;

    /* Idle at the start is no throttle; the power cap at sample 0 and the
     * thermal slowdown at sample 2 are. */
    watch("sm=1980,reasons=0x1;reasons=0x4;reasons=0x0;reasons=0x21;reasons=0x0", 4, &o);
    tap_is((long long)o.nthrottled, 2, "reasons: two samples throttled");
    tap_ok(o.throttled && o.throttled[0] && !o.throttled[1] && o.throttled[2]
           && !o.throttled[3], "samples 0 and 2 marked");
    tap_ok(o.gpu.reasons == 0x24, "reasons kept: power cap and software thermal (0x%llx)",
           o.gpu.reasons);
    tap_ok(contains(o.gpu.throttle_reason, "sample 0: the driver reports sw_power_cap"),
           "the first reason named");
    rb_observation_free(&o);
    watch("sm=1980,reasons=na;sm=1980", 3, &o);
    tap_ok(o.gpu.available && o.nthrottled == 0, "no reasons call: clocks alone decide");
    rb_observation_free(&o);
}

static void check_failing(void)
{
    struct rb_observation o;

    watch("init=fail", 2, &o);
    tap_ok(!o.gpu.available && contains(o.gpu.why, "NVML not available: nvmlInit_v2: Driver "
                                                    "Not Loaded"), "nvmlInit_v2 fails: why");
    rb_observation_free(&o);
    watch("handle=none", 2, &o);
    tap_ok(!o.gpu.available && contains(o.gpu.why, "nvmlDeviceGetHandleByPciBusId_v2("
                                                    "0000:01:00.0): Not Found"),
           "no device at the bus id: why");
    rb_observation_free(&o);
    watch("sm=1980,denergy=1;sm=1980;sm=lost;sm=1980", 4, &o);
    tap_ok(o.gpu.available && contains(o.gpu.error, "after sample 1: GPU is lost"),
           "the GPU lost midway: the error says after which sample");
    tap_ok(isnan(o.gpu.energy_j) && o.gpu.sm_end == 0 && o.nthrottled == 0,
           "and nothing is made up after it");
    rb_observation_free(&o);
    watch("sm=1980,power=250,energy=na", 5, &o);
    tap_ok(o.gpu.energy_method && !strcmp(o.gpu.energy_method, "power-samples")
           && fabs(o.gpu.energy_j - 250 * o.window_s) <= 1e-9 * 250 * o.window_s + 1e-12,
           "no energy counter: the mean power times the window (%g J)", o.gpu.energy_j);
    rb_observation_free(&o);
}

static void check_absent(void)
{
    struct rb_observation o;

    setenv("RB_NVML_LIBRARY", "/nonexistent/libnvidia-ml.so.1", 1);
    watch("", 2, &o);
    tap_ok(!o.gpu.available && contains(o.gpu.why, "NVML not available: "
                                                    "/nonexistent/libnvidia-ml.so.1"),
           "the library absent: why names it");
    tap_is((long long)o.nsamples, 2, "and the samples go on");
    rb_observation_free(&o);
    setenv("RB_NVML_LIBRARY", RB_FAKE_NVML_PATH, 1);
    unsetenv("RB_NVML_BUS_ID");
    watch("", 2, &o);
    tap_ok(!o.gpu.available && contains(o.gpu.why, "not a GPU case (serial backend)"),
           "a CPU case is not watched");
    rb_observation_free(&o);
#if RB_HAVE_OPENCL
    {
        struct rb_variant cl_v = serial_v;
        cl_v.backend = RB_BACKEND_OPENCL;
        watch_case(&cl_v, "", 1, &o);
        /* PoCL's CPU device has no NVIDIA attributes; an NVIDIA one would. */
        tap_ok(o.gpu.available || contains(o.gpu.why, "no PCI bus id for the opencl device"),
               "an OpenCL case: watched, or why not (%s)", o.gpu.why);
        rb_observation_free(&o);
    }
#else
    tap_skip("OpenCL not built");
#endif
#if RB_HAVE_CUDA
    {
        struct rb_variant cu_v = serial_v;
        cu_v.backend = RB_BACKEND_CUDA;
        watch_case(&cu_v, "", 1, &o);
        tap_ok(o.gpu.available || contains(o.gpu.why, "no PCI bus id for the cuda device"),
               "a CUDA case: watched, or why not (%s)", o.gpu.why);
        rb_observation_free(&o);
    }
#else
    tap_skip("CUDA not built");
#endif
    setenv("RB_NVML_BUS_ID", "0000:01:00.0", 1);
}

static void check_threshold_env(void)
{
    static const char *const bad[] = { "abc", "0", "-0.5", "1.5", "0.9x", "", "nan", "inf" };
    struct rb_ctx ctx;
    char err[256];
    int all = 1;

    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        rb_ctx_init(&ctx);
        setenv("RB_THROTTLE_THRESHOLD", bad[i], 1);
        err[0] = '\0';
        int rc = rb_observers_init(&ctx, err, sizeof err);
        if (rc != RB_EINVAL || !strstr(err, "RB_THROTTLE_THRESHOLD") || ctx.observers) {
            tap_diag("'%s': status %d, \"%s\"", bad[i], rc, err);
            all = 0;
        }
        rb_ctx_release(&ctx);
    }
    tap_ok(all, "malformed RB_THROTTLE_THRESHOLD values refused, naming the variable");
    rb_ctx_init(&ctx);
    setenv("RB_THROTTLE_THRESHOLD", "1", 1);
    tap_ok(rb_observers_init(&ctx, err, sizeof err) == 0 && ctx.observers
           && ctx.observers->threshold == 1.0, "RB_THROTTLE_THRESHOLD=1 accepted");
    rb_ctx_release(&ctx);
    unsetenv("RB_THROTTLE_THRESHOLD");
}

int main(void)
{
    tap_plan(33);
    unsetenv("RB_THROTTLE_THRESHOLD");
    setenv("RB_NVML_LIBRARY", RB_FAKE_NVML_PATH, 1);
    setenv("RB_NVML_BUS_ID", "0000:01:00.0", 1);
    check_normal();
    check_clock_throttle();
    check_reason_throttle();
    check_failing();
    check_absent();
    check_threshold_env();
    return tap_done();
}
