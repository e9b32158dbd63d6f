/* SPDX-License-Identifier: MIT */
/* Loading NVML at run time: the library named by RB_NVML_LIBRARY (a test's
 * fake, or another path) or the driver's libnvidia-ml.so.1. */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "harness/backend/nvml.h"
#include "harness/error.h"

/* Store symbol `name` into the function pointer at dst (POSIX guarantees
 * the conversion; memcpy keeps the compiler's aliasing rules out of it).
 * 1 if found. */
static int find_symbol(void *lib, const char *name, void *dst, size_t size)
{
    void *p = dlsym(lib, name);

    memcpy(dst, &p, size < sizeof p ? size : sizeof p);
    return p != NULL;
}

#define FIND(field, sym) find_symbol(n->lib, sym, (void *)&n->field, sizeof n->field)

static const char *reason_name[] = {
    "gpu_idle", "applications_clocks", "sw_power_cap", "hw_slowdown", "sync_boost",
    "sw_thermal_slowdown", "hw_thermal_slowdown", "hw_power_brake_slowdown",
    "display_clocks",
};

void rb_nvml_reason_names(unsigned long long reasons, char *buf, size_t len)
{
    size_t at = 0;

    if (len)
        buf[0] = '\0';
    for (size_t b = 0; b < 64; b++) {
        if (!(reasons & (1ULL << b)))
            continue;
        char name[32];
        if (b < sizeof reason_name / sizeof *reason_name)
            snprintf(name, sizeof name, "%s", reason_name[b]);
        else
            snprintf(name, sizeof name, "reason_0x%llx", 1ULL << b);
        int w = snprintf(buf + at, len > at ? len - at : 0, "%s%s", at ? "," : "", name);
        if (w < 0 || (size_t)w >= (len > at ? len - at : 0))
            return;
        at += (size_t)w;
    }
}

const char *rb_nvml_strerror(const struct rb_nvml *n, rb_nvml_return r)
{
    const char *s = n->error_string ? n->error_string(r) : NULL;
    return s ? s : "unknown NVML error";
}

int rb_nvml_load(struct rb_nvml *n, char *why, size_t len)
{
    const char *path = getenv("RB_NVML_LIBRARY");
    rb_nvml_return r;

    memset(n, 0, sizeof *n);
    if (!path || !*path)
        path = "libnvidia-ml.so.1";
    snprintf(n->path, sizeof n->path, "%s", path);
    if (!(n->lib = dlopen(path, RTLD_NOW | RTLD_LOCAL))) {
        const char *e = dlerror();
        snprintf(why, len, "%s", e ? e : path);
        return RB_ENODEV;
    }
    const char *missing = !FIND(init, "nvmlInit_v2") ? "nvmlInit_v2"
                          : !FIND(shutdown, "nvmlShutdown") ? "nvmlShutdown"
                          : !FIND(error_string, "nvmlErrorString") ? "nvmlErrorString"
                          : !FIND(handle_by_bus_id, "nvmlDeviceGetHandleByPciBusId_v2")
                          ? "nvmlDeviceGetHandleByPciBusId_v2"
                          : !FIND(clock_info, "nvmlDeviceGetClockInfo")
                          ? "nvmlDeviceGetClockInfo" : NULL;
    if (missing) {
        snprintf(why, len, "%s has no %s", path, missing);
        goto out_close;
    }
    FIND(name, "nvmlDeviceGetName");
    FIND(temperature, "nvmlDeviceGetTemperature");
    FIND(power_usage, "nvmlDeviceGetPowerUsage");
    FIND(total_energy, "nvmlDeviceGetTotalEnergyConsumption");
    /* Renamed in recent drivers; the old name may be gone from the newest. */
    if (!FIND(reasons, "nvmlDeviceGetCurrentClocksEventReasons"))
        FIND(reasons, "nvmlDeviceGetCurrentClocksThrottleReasons");
    if ((r = n->init()) != RB_NVML_SUCCESS) {
        snprintf(why, len, "nvmlInit_v2: %s", rb_nvml_strerror(n, r));
        goto out_close;
    }
    return 0;
out_close:
    dlclose(n->lib);
    n->lib = NULL;
    return RB_ENODEV;
}

void rb_nvml_unload(struct rb_nvml *n)
{
    if (!n->lib)
        return;
    n->shutdown();
    dlclose(n->lib);
    n->lib = NULL;
}
