/* SPDX-License-Identifier: MIT */
/* The OpenCL plumbing on whatever device is there (PoCL in CI): embedded
 * source, -D tunables, program cache, --cl-dir override, events, kernel
 * info, and a failed build's log. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "harness/backend/opencl.h"
#include "harness/ctx.h"
#include "impl/common/rng.h"
#include "t/tap.h"

extern const char rb_cl_rb_selftest[];

/* The embedded string is the file, byte for byte. */
static void check_embedded(void)
{
    const char *top = getenv("RB_TOP_SRCDIR");
    char path[1024];
    snprintf(path, sizeof path, "%s/kernels/opencl/rb_selftest.cl", top ? top : ".");
    FILE *f = fopen(path, "rb");
    if (!f) {
        tap_skip("%s not readable (run through make check)", path);
        return;
    }
    static char text[65536];
    size_t n = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[n] = '\0';
    tap_ok(strcmp(text, rb_cl_rb_selftest) == 0, "embedded source equals %s", path);
}

/* out[0] from rb_selftest_items: the value the program was built with. */
static int items_of(struct rb_case *c, struct rb_opencl *cl, cl_program p)
{
    cl_int err;
    int v = -1;
    cl_kernel k = clCreateKernel(p, "rb_selftest_items", &err);
    RB_CL_CHECK(c, err);
    cl_mem out = clCreateBuffer(cl->context, CL_MEM_WRITE_ONLY, sizeof v, NULL, &err);
    if (err == CL_SUCCESS) {
        size_t one = 1;
        clSetKernelArg(k, 0, sizeof out, &out);
        if (clEnqueueNDRangeKernel(cl->queue, k, 1, NULL, &one, &one, 0, NULL, NULL)
            == CL_SUCCESS)
            clEnqueueReadBuffer(cl->queue, out, CL_TRUE, 0, sizeof v, &v, 0, NULL, NULL);
        clReleaseMemObject(out);
    }
    clReleaseKernel(k);
    return v;
}

/* y = a*x + y on the device with 4 elements per work-item; compares with
 * the host and checks the event time and the kernel's occupancy record. */
static void check_saxpy(struct rb_case *c, struct rb_opencl *cl, cl_program p, uint64_t seed)
{
    enum { N = 100003, ITEMS = 4, WG = 64 };
    static float x[N], y[N], got[N];
    struct rb_rng r;
    rb_rng_seed(&r, seed);
    for (int i = 0; i < N; i++) {
        x[i] = (float)rb_rng_range(&r, -1, 1);
        y[i] = (float)rb_rng_range(&r, -1, 1);
        got[i] = NAN;
    }
    const float a = (float)rb_rng_range(&r, 0.5, 2);
    const int n = N;
    cl_int err;
    cl_kernel k = clCreateKernel(p, "rb_selftest_saxpy", &err);
    cl_mem dx = clCreateBuffer(cl->context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof x,
                               x, &err);
    cl_mem dy = clCreateBuffer(cl->context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof y,
                               y, &err);
    clSetKernelArg(k, 0, sizeof n, &n);
    clSetKernelArg(k, 1, sizeof a, &a);
    clSetKernelArg(k, 2, sizeof dx, &dx);
    clSetKernelArg(k, 3, sizeof dy, &dy);
    size_t local = WG, global = ((N + ITEMS - 1) / ITEMS + WG - 1) / WG * WG;
    cl_event ev = NULL;
    err = clEnqueueNDRangeKernel(cl->queue, k, 1, NULL, &global, &local, 0, NULL, &ev);
    tap_ok(err == CL_SUCCESS, "saxpy enqueued: %s", rb_cl_strerror(err));
    double ms = ev ? rb_opencl_event_ms(ev) : -1;
    clEnqueueReadBuffer(cl->queue, dy, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL);
    double worst = 0;
    int bad = -1;
    for (int i = 0; i < N; i++) {
        double want = (double)a * x[i] + y[i];
        /* fp32 with or without a fused multiply-add: a few ulp of the terms. */
        double tol = 4 * 1.2e-7 * (fabs((double)a * x[i]) + fabs(y[i]));
        double e = fabs(got[i] - want);
        if (!(e <= tol) && bad < 0)
            bad = i;
        if (e > worst || e != e)
            worst = e;
    }
    tap_ok(bad < 0, "saxpy matches the host for all %d elements (worst error %.3g)", N, worst);
    if (bad >= 0)
        tap_diag("first mismatch at %d: got %.9g", bad, got[bad]);
    tap_ok(ms > 0, "event time %.4f ms", ms);

    struct rb_occ_kernel occ;
    struct rb_opencl_kernel_info info;
    int rc = rb_opencl_kernel_info(cl, k, &info);
    tap_ok(rc == 0 && info.max_wg >= 1 && info.preferred_multiple >= 1,
           "kernel info: max wg %zu, multiple %zu, local %llu B, private %llu B", info.max_wg,
           info.preferred_multiple, (unsigned long long)info.local_mem,
           (unsigned long long)info.private_mem);
    rc = rb_opencl_occupancy(cl, k, local, &occ);
    if (cl->nv_cc_major > 0)
        tap_ok(rc == 0 && strcmp(occ.source, "opencl-nv-estimate") == 0 && occ.occupancy > 0
               && occ.occupancy <= 1 && occ.regs == -1,
               "NVIDIA estimate: %.2f, %s", occ.occupancy, occ.limiter);
    else
        tap_ok(rc == 0 && strcmp(occ.source, "opencl-kernel-info") == 0 && occ.occupancy == -1
               && occ.active_blocks == -1 && occ.regs == -1 && occ.block == WG
               && occ.smem_static == (long long)info.local_mem
               && occ.local_bytes == (long long)info.private_mem
               && strcmp(occ.kernel, "rb_selftest_saxpy") == 0,
               "occupancy from kernel info only, none invented (%s)", occ.source);
    if (ev)
        clReleaseEvent(ev);
    clReleaseMemObject(dx);
    clReleaseMemObject(dy);
    clReleaseKernel(k);
    (void)c;
}

/* A broken source: RB_EBUILD, the log's head in the message, the whole log
 * in the run directory. */
static void check_broken(struct rb_ctx *ctx, const char *dir)
{
    struct rb_case c = { .ctx = ctx, .build_ms = -1 };
    cl_program p = NULL;
    ctx->run_dir = dir;
    int rc = rb_opencl_program(&c, "rb_selftest_broken",
                               "__kernel void f(__global float *y) { y[0] = no_such_name; }\n",
                               "", &p);
    ctx->run_dir = NULL;
    tap_ok(rc == RB_EBUILD && strstr(c.msg, "no_such_name") && p == NULL,
           "broken source: RB_EBUILD, log head in the message");
    tap_diag("%s", c.msg);
    char path[256], log[4096] = "";
    snprintf(path, sizeof path, "%s/build-rb_selftest_broken.log", dir);
    FILE *f = fopen(path, "r");
    if (f) {
        log[fread(log, 1, sizeof log - 1, f)] = '\0';
        fclose(f);
        unlink(path);
    }
    tap_ok(strstr(log, "no_such_name") != NULL, "whole build log written to %s", path);
}

/* A copy of the kernel file in --cl-dir wins over the embedded text. */
static void check_cl_dir(struct rb_ctx *ctx, const char *dir)
{
    char path[256];
    snprintf(path, sizeof path, "%s/rb_selftest.cl", dir);
    FILE *f = fopen(path, "w");
    if (f) {
        fputs("__kernel void rb_selftest_items(__global int *out)\n"
              "{ out[0] = RB_SELFTEST_ITEMS + 100; }\n", f);
        fclose(f);
    }
    struct rb_case c = { .ctx = ctx, .build_ms = -1 };
    cl_program p = NULL;
    struct rb_opencl *cl = NULL;
    ctx->cl_dir = dir;
    int rc = rb_opencl_program(&c, "rb_selftest", rb_cl_rb_selftest, "-DRB_SELFTEST_ITEMS=4", &p);
    ctx->cl_dir = NULL;
    rb_opencl_get(ctx, &cl, c.msg, sizeof c.msg);
    const char *id = rc == 0 ? rb_opencl_source_id(ctx, p) : NULL;
    tap_ok(rc == 0 && id && strncmp(id, path, strlen(path)) == 0 && items_of(&c, cl, p) == 104,
           "--cl-dir copy used: %s", id ? id : c.msg);
    unlink(path);
}

/* The buffer helpers: limits, upload and download at an offset, NaN
 * poison in both precisions, a size no device holds, release. */
static void check_buffers(struct rb_case *c, struct rb_opencl *cl, uint64_t seed)
{
    size_t wg = rb_opencl_max_wg(cl), dwg = rb_opencl_device_wg(cl);
    tap_ok(wg >= 1 && dwg >= wg && rb_opencl_local_mem(cl) > 0,
           "limits: work-group %zu (device %zu), local %llu bytes", wg, dwg,
           (unsigned long long)rb_opencl_local_mem(cl));
    static const struct rb_variant v = { .paper = "test", .algo = "buffers", .name = "opencl" };
    const struct rb_variant *was = c->v;
    c->v = &v;                          /* RB_FAULT_POINT asks whose case it is */
    enum { N = 1000 };
    static float in[N], out[N];
    static double dout[N];
    struct rb_rng r;
    rb_rng_seed(&r, seed);
    for (int i = 0; i < N; i++)
        in[i] = (float)rb_rng_uniform(&r);
    cl_mem a = NULL, d = NULL, huge = NULL;
    int rc = rb_opencl_buffer(c, cl, N * sizeof(double), &a);
    if (!rc)
        rc = rb_opencl_buffer(c, cl, N * sizeof(double), &d);
    c->transfer_ms = -1;
    if (!rc)
        rc = rb_opencl_poison(c, cl, a, sizeof(float), N);
    if (!rc)
        rc = rb_opencl_upload(c, cl, a, 100 * sizeof(float), in + 100, 200 * sizeof(float));
    memset(out, 0, sizeof out);
    if (!rc)
        rc = rb_opencl_download(c, cl, a, 0, out, sizeof out);
    int good = !rc && c->transfer_ms >= 0;
    for (int i = 0; i < N; i++)
        good &= (i >= 100 && i < 300) ? out[i] == in[i] : isnan(out[i]);
    tap_ok(good, "float poison, upload at an offset, download (%s)", rc ? c->msg : "ok");
    if (!rc)
        rc = rb_opencl_poison(c, cl, d, sizeof(double), N);
    if (!rc)
        rc = rb_opencl_download(c, cl, d, 0, dout, sizeof dout);
    good = !rc;
    for (int i = 0; i < N; i++)
        good &= isnan(dout[i]);
    tap_ok(good, "double poison (%s)", rc ? c->msg : "ok");
    rc = rb_opencl_buffer(c, cl, (size_t)-1 / 2, &huge);
    tap_ok(rc == RB_ENOMEM && strstr(c->msg, "CL_"), "a size no device holds: %s", c->msg);
    cl_mem *const mems[] = { &a, &d, &huge };
    rb_opencl_mems_release(mems, 3);
    rb_opencl_mems_release(mems, 3);
    tap_ok(!a && !d && !huge, "released, and safe twice");
    c->v = was;
}

int main(void)
{
    struct rb_ctx ctx;
    char why[512];
    rb_ctx_init(&ctx);
    ctx.cl_dir = NULL;
    if (!rb_opencl_available(&ctx, why, sizeof why))
        tap_skip_all("no OpenCL device: %s", why);
    tap_plan(21);
    uint64_t seed = tap_seed();
    tap_diag("seed %llu (set RB_TEST_SEED to repeat)", (unsigned long long)seed);
    struct rb_opencl *cl = NULL;
    int got = rb_opencl_get(&ctx, &cl, why, sizeof why);
    tap_ok(got == 0 && cl->queue && ctx.backend[RB_BACKEND_OPENCL] == cl,
           "device %d.%d: %s (%s)", cl ? cl->platform_index : -1, cl ? cl->device_index : -1,
           cl ? cl->name : why, cl ? cl->platform_name : "");
    check_embedded();

    struct rb_case c = { .ctx = &ctx, .build_ms = -1 };
    cl_program p4 = NULL, again = NULL, p1 = NULL;
    int rc = rb_opencl_program(&c, "rb_selftest", rb_cl_rb_selftest, "-DRB_SELFTEST_ITEMS=4",
                               &p4);
    tap_ok(rc == 0 && p4 && c.build_ms >= 0, "built with -DRB_SELFTEST_ITEMS=4 in %.1f ms (%s)",
           c.build_ms, rc ? c.msg : "ok");
    if (rc)
        return tap_done();
    const char *id = rb_opencl_source_id(&ctx, p4);
    tap_ok(id && strstr(id, "rb_selftest.cl (embedded) fnv1a64:"), "source id: %s",
           id ? id : "(none)");
    tap_is(items_of(&c, cl, p4), 4, "the -D option reached the kernel");
    double before = c.build_ms;
    rc = rb_opencl_program(&c, "rb_selftest", rb_cl_rb_selftest, "-DRB_SELFTEST_ITEMS=4", &again);
    tap_ok(rc == 0 && again == p4 && c.build_ms == before, "same source and options: cached");
    rc = rb_opencl_program(&c, "rb_selftest", rb_cl_rb_selftest, "", &p1);
    tap_ok(rc == 0 && p1 != p4 && items_of(&c, cl, p1) == 1,
           "other options: another program, the #ifndef default 1");

    check_saxpy(&c, cl, p4, seed);
    check_buffers(&c, cl, seed);

    char dir[] = "/tmp/rb-cl-XXXXXX";
    if (mkdtemp(dir)) {
        check_broken(&ctx, dir);
        check_cl_dir(&ctx, dir);
        rmdir(dir);
    } else {
        for (int i = 0; i < 3; i++)
            tap_skip("no temporary directory");
    }
    rb_ctx_release(&ctx);
    tap_ok(ctx.backend[RB_BACKEND_OPENCL] == NULL, "released");
    return tap_done();
}
