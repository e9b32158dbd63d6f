/* SPDX-License-Identifier: MIT */
/* A stand-in for libnvidia-ml.so.1 with the calls the harness makes, built as
 * t/libfake_nvml.so and loaded through RB_NVML_LIBRARY.  It plays back the
 * script in RB_FAKE_NVML, read at nvmlInit_v2: steps separated by ';', each
 * a list of KEY=VALUE separated by ','; a key keeps its value into later
 * steps until set again, and the last step repeats.
 *
 *   sm, mem     clocks in MHz (sm=lost: that read fails, GPU is lost)
 *   temp        degrees C
 *   power       watts
 *   energy      the total energy counter in joules (default 0: it never moves)
 *   denergy     or joules added to the counter at each step
 *   reasons     throttle reason bits (0x4: software power cap)
 *   name        the device's name (default "Fake GPU at BUS")
 *   init=fail, handle=none, energy=na, reasons=na: those calls fail
 *
 * Each SM clock read starts the next step, so a case reads step 0 at its
 * start, step i + 1 after sample i, and the step after its last sample at
 * its end. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef int nvml_return;
typedef struct fake_device *nvml_device;

enum {
    FAKE_SUCCESS = 0, FAKE_INVALID_ARGUMENT = 2, FAKE_NOT_SUPPORTED = 3, FAKE_NOT_FOUND = 6,
    FAKE_DRIVER_NOT_LOADED = 9, FAKE_GPU_IS_LOST = 15, FAKE_UNINITIALIZED = 1
};

/* The library's calls, declared as NVML declares them. */
nvml_return nvmlInit_v2(void);
nvml_return nvmlShutdown(void);
const char *nvmlErrorString(nvml_return r);
nvml_return nvmlDeviceGetHandleByPciBusId_v2(const char *bus, nvml_device *dev);
nvml_return nvmlDeviceGetName(nvml_device dev, char *name, unsigned len);
nvml_return nvmlDeviceGetClockInfo(nvml_device dev, int type, unsigned *mhz);
nvml_return nvmlDeviceGetTemperature(nvml_device dev, int sensor, unsigned *c);
nvml_return nvmlDeviceGetPowerUsage(nvml_device dev, unsigned *mw);
nvml_return nvmlDeviceGetTotalEnergyConsumption(nvml_device dev, unsigned long long *mj);
nvml_return nvmlDeviceGetCurrentClocksEventReasons(nvml_device dev, unsigned long long *r);

#define MAX_STEPS 256

struct step {
    unsigned sm, mem, temp;
    int sm_lost;
    double power_w, energy_j, denergy_j;
    unsigned long long reasons;
};

struct fake_device {
    char bus[64];
};

static struct {
    int inited, init_fail, handle_none, energy_na, reasons_na;
    int nsteps, at;             /* at: the step being read, -1 before the first */
    double counter_j;           /* the energy counter at step `at` */
    struct step steps[MAX_STEPS];
    struct fake_device dev;
    char name[96];
} fake;

static void parse_pair(struct step *s, const char *key, const char *val)
{
    int na = strcmp(val, "na") == 0;

    if (!strcmp(key, "name")) {
        snprintf(fake.name, sizeof fake.name, "%s", val);
    } else if (!strcmp(key, "init")) {
        fake.init_fail = !strcmp(val, "fail");
    } else if (!strcmp(key, "handle")) {
        fake.handle_none = !strcmp(val, "none");
    } else if (!strcmp(key, "sm")) {
        s->sm_lost = !strcmp(val, "lost");
        s->sm = (unsigned)strtoul(val, NULL, 10);
    } else if (!strcmp(key, "mem")) {
        s->mem = (unsigned)strtoul(val, NULL, 10);
    } else if (!strcmp(key, "temp")) {
        s->temp = (unsigned)strtoul(val, NULL, 10);
    } else if (!strcmp(key, "power")) {
        s->power_w = strtod(val, NULL);
    } else if (!strcmp(key, "energy")) {
        fake.energy_na |= na;
        s->energy_j = na ? 0 : strtod(val, NULL);
        s->denergy_j = 0;
    } else if (!strcmp(key, "denergy")) {
        s->denergy_j = strtod(val, NULL);
        s->energy_j = -1;       /* the counter moves by steps */
    } else if (!strcmp(key, "reasons")) {
        fake.reasons_na |= na;
        s->reasons = na ? 0 : strtoull(val, NULL, 0);
    } else {
        fprintf(stderr, "fake NVML: unknown key '%s'\n", key);
    }
}

static void parse_script(const char *text)
{
    char buf[8192];
    struct step cur = { .sm = 1980, .mem = 2619, .temp = 40, .power_w = 100, .energy_j = 0 };

    snprintf(buf, sizeof buf, "%s", text ? text : "");
    fake.nsteps = 0;
    for (char *s1 = NULL, *st = strtok_r(buf, ";", &s1); st && fake.nsteps < MAX_STEPS;
         st = strtok_r(NULL, ";", &s1)) {
        for (char *s2 = NULL, *kv = strtok_r(st, ",", &s2); kv; kv = strtok_r(NULL, ",", &s2)) {
            char *eq = strchr(kv, '=');
            if (eq) {
                *eq = '\0';
                parse_pair(&cur, kv, eq + 1);
            }
        }
        fake.steps[fake.nsteps++] = cur;
        cur.sm_lost = 0;
    }
    if (fake.nsteps == 0)
        fake.steps[fake.nsteps++] = cur;
}

static const struct step *now(void)
{
    int i = fake.at < 0 ? 0 : fake.at;
    return &fake.steps[i < fake.nsteps ? i : fake.nsteps - 1];
}

/* The next step: the counter moves to its energy, or by its increment. */
static void advance(void)
{
    fake.at++;
    const struct step *s = now();
    fake.counter_j = s->energy_j >= 0 ? s->energy_j : fake.counter_j + s->denergy_j;
}

nvml_return nvmlInit_v2(void)
{
    memset(&fake, 0, sizeof fake);
    parse_script(getenv("RB_FAKE_NVML"));
    fake.at = -1;
    if (fake.init_fail)
        return FAKE_DRIVER_NOT_LOADED;
    fake.inited = 1;
    return FAKE_SUCCESS;
}

nvml_return nvmlShutdown(void)
{
    fake.inited = 0;
    return FAKE_SUCCESS;
}

const char *nvmlErrorString(nvml_return r)
{
    switch (r) {
    case FAKE_SUCCESS: return "Success";
    case FAKE_UNINITIALIZED: return "Uninitialized";
    case FAKE_INVALID_ARGUMENT: return "Invalid Argument";
    case FAKE_NOT_SUPPORTED: return "Not Supported";
    case FAKE_NOT_FOUND: return "Not Found";
    case FAKE_DRIVER_NOT_LOADED: return "Driver Not Loaded";
    case FAKE_GPU_IS_LOST: return "GPU is lost";
    default: return "Unknown Error";
    }
}

nvml_return nvmlDeviceGetHandleByPciBusId_v2(const char *bus, nvml_device *dev)
{
    if (!fake.inited)
        return FAKE_UNINITIALIZED;
    if (!bus || !dev)
        return FAKE_INVALID_ARGUMENT;
    if (fake.handle_none)
        return FAKE_NOT_FOUND;
    snprintf(fake.dev.bus, sizeof fake.dev.bus, "%s", bus);
    *dev = &fake.dev;
    return FAKE_SUCCESS;
}

nvml_return nvmlDeviceGetName(nvml_device dev, char *name, unsigned len)
{
    if (!fake.inited || dev != &fake.dev)
        return FAKE_INVALID_ARGUMENT;
    if (fake.name[0])
        snprintf(name, len, "%s", fake.name);
    else
        snprintf(name, len, "Fake GPU at %s", dev->bus);
    return FAKE_SUCCESS;
}

nvml_return nvmlDeviceGetClockInfo(nvml_device dev, int type, unsigned *mhz)
{
    if (!fake.inited || dev != &fake.dev)
        return FAKE_INVALID_ARGUMENT;
    if (type == 1) {            /* NVML_CLOCK_SM */
        advance();
        if (now()->sm_lost)
            return FAKE_GPU_IS_LOST;
        *mhz = now()->sm;
        return FAKE_SUCCESS;
    }
    if (type == 2) {            /* NVML_CLOCK_MEM */
        *mhz = now()->mem;
        return FAKE_SUCCESS;
    }
    return FAKE_NOT_SUPPORTED;
}

nvml_return nvmlDeviceGetTemperature(nvml_device dev, int sensor, unsigned *c)
{
    if (!fake.inited || dev != &fake.dev || sensor != 0)
        return FAKE_INVALID_ARGUMENT;
    *c = now()->temp;
    return FAKE_SUCCESS;
}

nvml_return nvmlDeviceGetPowerUsage(nvml_device dev, unsigned *mw)
{
    if (!fake.inited || dev != &fake.dev)
        return FAKE_INVALID_ARGUMENT;
    *mw = (unsigned)(now()->power_w * 1e3 + 0.5);
    return FAKE_SUCCESS;
}

nvml_return nvmlDeviceGetTotalEnergyConsumption(nvml_device dev, unsigned long long *mj)
{
    if (!fake.inited || dev != &fake.dev)
        return FAKE_INVALID_ARGUMENT;
    if (fake.energy_na)
        return FAKE_NOT_SUPPORTED;
    *mj = (unsigned long long)(fake.counter_j * 1e3 + 0.5);
    return FAKE_SUCCESS;
}

nvml_return nvmlDeviceGetCurrentClocksEventReasons(nvml_device dev, unsigned long long *r)
{
    if (!fake.inited || dev != &fake.dev)
        return FAKE_INVALID_ARGUMENT;
    if (fake.reasons_na)
        return FAKE_NOT_SUPPORTED;
    *r = now()->reasons;
    return FAKE_SUCCESS;
}
