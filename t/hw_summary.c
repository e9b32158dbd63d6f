/* SPDX-License-Identifier: MIT */
/* Hardware tagging: the hwloc summary, its text form, the XML export read
 * back, the CPU name, and the backends' availability answers. */
#include <config.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <hwloc.h>
#include "harness/backend/backend.h"
#include "harness/backend/cpu.h"
#include "harness/ctx.h"
#include "harness/error.h"
#include "harness/records/hw.h"
#include "harness/registry.h"
#include "t/tap.h"

static long long jint(const json_t *o, const char *key)
{
    const json_t *v = json_object_get(o, key);
    return json_is_integer(v) ? (long long)json_integer_value(v) : -1;
}

static void check_caches(const json_t *caches)
{
    size_t i;
    const json_t *c;
    int good = json_is_array(caches);
    json_array_foreach(caches, i, c) {
        long long level = jint(c, "level");
        good = good && level >= 1 && level <= 5 && jint(c, "size") > 0
               && jint(c, "line") >= 0 && jint(c, "count") >= 1;
    }
    tap_ok(good, "caches: %zu kinds, each with level 1-5, a size and a count",
           json_array_size(caches));
}

static void check_devices(const json_t *s)
{
    const json_t *devices = json_object_get(s, "devices");
    const json_t *notes = json_object_get(s, "backends");
    size_t i;
    const json_t *e;
    int good = json_is_array(devices);
    json_array_foreach(devices, i, e)
        good = good && json_string_value(json_object_get(e, "backend"))
               && json_string_value(json_object_get(e, "name")) && jint(e, "index") >= 0;
    tap_ok(good, "%zu devices, each with backend, index and name", json_array_size(devices));
    good = json_is_array(notes);
    json_array_foreach(notes, i, e) {
        good = good && json_is_string(e) && strstr(json_string_value(e), ": ");
        tap_diag("note: %s", json_is_string(e) ? json_string_value(e) : "(not a string)");
    }
    tap_ok(good, "backend notes are \"backend: reason\" lines");
}

/* The export read back through hwloc gives the same PU and core counts. */
static void check_xml(const json_t *cpu)
{
    char dir[] = "/tmp/rb-hw-XXXXXX", path[64], err[256] = "";
    if (!mkdtemp(dir)) {
        for (int i = 0; i < 3; i++)
            tap_skip("no temporary directory");
        return;
    }
    snprintf(path, sizeof path, "%s/hw.xml", dir);
    tap_is(rb_hw_export_xml(path, err, sizeof err), 0, "XML export");
    hwloc_topology_t t;
    int pus = -1, cores = -1;
    if (hwloc_topology_init(&t) == 0) {
        if (hwloc_topology_set_xml(t, path) == 0 && hwloc_topology_load(t) == 0) {
            pus = hwloc_get_nbobjs_by_type(t, HWLOC_OBJ_PU);
            cores = hwloc_get_nbobjs_by_type(t, HWLOC_OBJ_CORE);
        }
        hwloc_topology_destroy(t);
    }
    tap_ok(pus == jint(cpu, "pus") && cores == jint(cpu, "cores"),
           "XML read back: %d PUs, %d cores (summary %lld, %lld)", pus, cores, jint(cpu, "pus"),
           jint(cpu, "cores"));
    tap_ok(rb_hw_export_xml("/nonexistent-dir/hw.xml", err, sizeof err) == RB_EIO && err[0],
           "export to a missing directory: RB_EIO and a message");
    unlink(path);
    rmdir(dir);
}

static void check_print(const json_t *s, const char *model)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    rb_hw_print(f, s);
    fclose(f);
    tap_ok(text && strstr(text, "cpu ") && strstr(text, model) && strstr(text, "cores"),
           "printed summary names the CPU model and cores");
    tap_diag("rb_hw_print:\n%s", text ? text : "");
    free(text);
}

/* A CUDA device's compute units are SMs where CUDA was built (its
 * descriptor says so); an OpenCL device's are CUs. */
static void check_print_units(void)
{
    json_t *s = json_pack("{s:[{s:s,s:i,s:s,s:i},{s:s,s:i,s:i,s:s,s:i}]}", "devices",
                          "backend", "cuda", "index", 0, "name", "gpu", "compute_units", 132,
                          "backend", "opencl", "platform", 0, "device", 0, "name", "cl",
                          "compute_units", 2);
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    rb_hw_print(f, s);
    fclose(f);
#if RB_HAVE_CUDA
    const char *sms = "132 SMs";
#else
    const char *sms = "132 CUs";
#endif
    tap_ok(text && strstr(text, sms) && strstr(text, "2 CUs"),
           "compute units named by the device's backend");
    tap_diag("%s", text ? text : "");
    free(text);
    json_decref(s);
}

/* Every backend built has a descriptor that names it; CPU ones always. */
static void check_descriptors(void)
{
    int good = 1;
    for (int b = 0; b < RB_BACKEND_COUNT; b++) {
        const struct rb_backend_ops *ops = rb_registry_backend((enum rb_backend)b);
        int want = b <= RB_BACKEND_OMP || rb_registry_backend_built((enum rb_backend)b);
        good = good && !ops == !want;
        if (ops)
            good = good && ops->id == (enum rb_backend)b && ops->available
                   && strcmp(ops->name, rb_backend_name((enum rb_backend)b)) == 0;
    }
    tap_ok(good, "a descriptor for each backend built, none for the others");
}

static void check_backends(struct rb_ctx *ctx)
{
    char why[512];
    tap_ok(rb_backend_available(ctx, RB_BACKEND_SERIAL, why, sizeof why) == 1,
           "serial is always available");
    int omp = rb_backend_available(ctx, RB_BACKEND_OMP, why, sizeof why);
#if RB_HAVE_OPENMP
    tap_ok(omp == 1 && rb_omp_max_threads() >= 1, "omp available, %d threads",
           rb_omp_max_threads());
#else
    tap_ok(omp == 0 && strstr(why, "OpenMP"), "omp not built: %s", why);
#endif
    int good = 1;
    for (int b = RB_BACKEND_OPENCL; b <= RB_BACKEND_HIP; b++) {
        why[0] = '\0';
        int yes = rb_backend_available(ctx, (enum rb_backend)b, why, sizeof why);
        tap_diag("%s: %s", rb_backend_name((enum rb_backend)b), yes ? "available" : why);
        good = good && (yes ? why[0] == '\0' : why[0] != '\0');
    }
    tap_ok(good, "each GPU backend is available or says why not");
    json_t *v = rb_backend_versions(ctx);
    tap_ok(json_object_get(v, "opencl") && json_object_get(v, "cuda")
           && json_object_get(v, "hip") && json_object_get(v, "openmp"),
           "versions name every backend");
    json_decref(v);
}

int main(void)
{
    struct rb_ctx ctx;
    char err[256] = "";
    tap_plan(19);
    rb_ctx_init(&ctx);
    json_t *s = rb_hw_summary(&ctx, err, sizeof err);
    if (!tap_ok(s != NULL, "summary (%s)", s ? "ok" : err))
        return tap_done();
    const json_t *cpu = json_object_get(s, "cpu");
    const char *model = json_string_value(json_object_get(cpu, "model"));
    tap_ok(model && *model, "cpu model: %s", model ? model : "(none)");
    tap_ok(jint(cpu, "packages") >= 1 && jint(cpu, "cores") >= 1
           && jint(cpu, "pus") >= jint(cpu, "cores"),
           "%lld packages, %lld cores, %lld PUs", jint(cpu, "packages"), jint(cpu, "cores"),
           jint(cpu, "pus"));
    tap_ok(jint(cpu, "memory_bytes") > 0, "memory %lld bytes", jint(cpu, "memory_bytes"));
    /* Not compared with the summary: on VMs whose memory balloons the two
     * loads can see different totals. */
    tap_ok(rb_hw_host_memory() > 0, "rb_hw_host_memory %llu bytes", rb_hw_host_memory());
    check_caches(json_object_get(cpu, "caches"));
    check_devices(s);
    check_xml(cpu);
    check_print(s, model ? model : "?");
    const char *name = rb_cpu_name();
    tap_ok(strstr(name, model ? model : "?") && strstr(name, "cores") && name == rb_cpu_name(),
           "rb_cpu_name: %s (cached)", name);
    check_backends(&ctx);
    check_print_units();
    check_descriptors();
    json_decref(s);
    rb_ctx_release(&ctx);
    return tap_done();
}
