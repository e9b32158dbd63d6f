/* SPDX-License-Identifier: MIT */
/* The NVML observer: the SM and memory clocks, temperature, power and
 * energy of the case's GPU around its timed samples, and a throttle mark on
 * each sample whose SM clock fell below the threshold or during which the
 * driver reported a throttle reason.  The GPU is found by the PCI bus id of
 * the case's device, so the one that ran the case is the one watched. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "harness/backend/backend.h"
#include "harness/backend/nvml.h"
#include "harness/error.h"
#include "harness/run/observe.h"

struct nvml_watch {
    struct rb_nvml nvml;
    int tried;                  /* the library was looked for */
    char why[200];              /* why it could not be loaded */
    double threshold;
    /* The case being watched. */
    int active, broken;         /* broken: a read failed; no more reads */
    rb_nvml_device dev;
    int counter;                /* the total energy counter was read at the start */
    unsigned long long e0_mj, last_mj;
    int steps;                  /* times it moved between two reads */
    double power_sum_w;
    size_t power_n;
};

static void power_sample(struct nvml_watch *w)
{
    unsigned mw;

    if (w->nvml.power_usage && w->nvml.power_usage(w->dev, &mw) == RB_NVML_SUCCESS) {
        w->power_sum_w += mw / 1e3;
        w->power_n++;
    }
}

/* The bus id of the case's device: RB_NVML_BUS_ID when set, else the
 * backend's.  0, or -1 with the reason in g->why. */
static int case_bus_id(const struct rb_case *c, struct rb_gpu_watch *g)
{
    const char *forced = getenv("RB_NVML_BUS_ID");
    char why[200] = "";
    enum rb_backend b = c->v->backend;

    if (forced && *forced) {
        snprintf(g->pci_bus_id, sizeof g->pci_bus_id, "%s", forced);
        return 0;
    }
    if (b == RB_BACKEND_SERIAL || b == RB_BACKEND_OMP) {
        snprintf(g->why, sizeof g->why, "not a GPU case (%s backend)", rb_backend_name(b));
        return -1;
    }
    if (rb_backend_pci_bus_id(c->ctx, b, g->pci_bus_id, sizeof g->pci_bus_id, why,
                              sizeof why) != 0) {
        snprintf(g->why, sizeof g->why, "no PCI bus id for the %s device: %s",
                 rb_backend_name(b), why);
        return -1;
    }
    return 0;
}

static void watch_start(void *self, const struct rb_case *c, struct rb_observation *o)
{
    struct nvml_watch *w = self;
    struct rb_gpu_watch *g = &o->gpu;
    rb_nvml_return r;
    unsigned v;

    w->active = w->broken = w->counter = 0;
    g->threshold = w->threshold;
    w->power_sum_w = 0;
    w->power_n = 0;
    if (case_bus_id(c, g) < 0)
        return;
    if (!w->tried) {
        w->tried = 1;
        rb_nvml_load(&w->nvml, w->why, sizeof w->why);
    }
    if (!w->nvml.lib) {
        snprintf(g->why, sizeof g->why, "NVML not available: %s", w->why);
        return;
    }
    if ((r = w->nvml.handle_by_bus_id(g->pci_bus_id, &w->dev)) != RB_NVML_SUCCESS) {
        snprintf(g->why, sizeof g->why, "nvmlDeviceGetHandleByPciBusId_v2(%s): %s",
                 g->pci_bus_id, rb_nvml_strerror(&w->nvml, r));
        return;
    }
    /* The SM clock first: every later read belongs to the same moment. */
    if ((r = w->nvml.clock_info(w->dev, RB_NVML_CLOCK_SM, &g->sm_start)) != RB_NVML_SUCCESS) {
        snprintf(g->why, sizeof g->why, "nvmlDeviceGetClockInfo(SM): %s",
                 rb_nvml_strerror(&w->nvml, r));
        return;
    }
    g->available = w->active = 1;
    g->sm_min = g->sm_start;
    snprintf(g->source, sizeof g->source, "nvml");
    if (w->nvml.name && w->nvml.name(w->dev, g->name, sizeof g->name) != RB_NVML_SUCCESS)
        g->name[0] = '\0';
    if (w->nvml.clock_info(w->dev, RB_NVML_CLOCK_MEM, &v) == RB_NVML_SUCCESS)
        g->mem_start = v;
    if (w->nvml.temperature
        && w->nvml.temperature(w->dev, RB_NVML_TEMPERATURE_GPU, &v) == RB_NVML_SUCCESS)
        g->temp_start = (int)v;
    w->counter = w->nvml.total_energy
                 && w->nvml.total_energy(w->dev, &w->e0_mj) == RB_NVML_SUCCESS;
    w->last_mj = w->e0_mj;
    w->steps = 0;
    power_sample(w);
}

/* The driver updates the energy counter at intervals of its own (about
 * 0.1 s on an H200): a window it moved in only once or twice is mostly
 * rounding, so the steps are counted and recorded. */
static void counter_read(struct nvml_watch *w, unsigned long long *mj)
{
    unsigned long long e;

    if (w->nvml.total_energy(w->dev, &e) != RB_NVML_SUCCESS) {
        w->counter = 0;
        return;
    }
    w->steps += e != w->last_mj;
    w->last_mj = e;
    if (mj)
        *mj = e;
}

/* Mark sample i when its SM clock or the driver says it was throttled;
 * the first such sample's reason is kept. */
static int watch_sample(void *self, size_t i, struct rb_observation *o)
{
    struct nvml_watch *w = self;
    struct rb_gpu_watch *g = &o->gpu;
    unsigned long long bits = 0;
    rb_nvml_return r;
    unsigned mhz;
    int marked = 0;

    if (!w->active || w->broken)
        return 0;
    if ((r = w->nvml.clock_info(w->dev, RB_NVML_CLOCK_SM, &mhz)) != RB_NVML_SUCCESS) {
        w->broken = 1;
        snprintf(g->error, sizeof g->error, "nvmlDeviceGetClockInfo(SM) after sample %zu: %s",
                 i, rb_nvml_strerror(&w->nvml, r));
        return 0;
    }
    if (mhz < g->sm_min)
        g->sm_min = mhz;
    if (mhz < g->threshold * g->sm_start) {
        marked = 1;
        if (!g->throttle_reason[0])
            snprintf(g->throttle_reason, sizeof g->throttle_reason,
                     "sample %zu: SM clock %u MHz, below %g%% of the %u MHz at the start", i,
                     mhz, 100 * g->threshold, g->sm_start);
    }
    if (w->nvml.reasons && w->nvml.reasons(w->dev, &bits) == RB_NVML_SUCCESS
        && (bits & RB_NVML_THROTTLE_MASK)) {
        char names[128];
        g->reasons |= bits & RB_NVML_THROTTLE_MASK;
        rb_nvml_reason_names(bits & RB_NVML_THROTTLE_MASK, names, sizeof names);
        if (!marked && !g->throttle_reason[0])
            snprintf(g->throttle_reason, sizeof g->throttle_reason,
                     "sample %zu: the driver reports %s (SM clock %u MHz)", i, names, mhz);
        marked = 1;
    }
    if (w->counter)
        counter_read(w, NULL);
    if (!w->counter)
        power_sample(w);
    return marked;
}

static void watch_stop(void *self, struct rb_observation *o)
{
    struct nvml_watch *w = self;
    struct rb_gpu_watch *g = &o->gpu;
    unsigned long long e1 = 0;
    rb_nvml_return r;
    unsigned v;

    if (!w->active)
        return;
    w->active = 0;
    if (w->broken)
        return;
    if ((r = w->nvml.clock_info(w->dev, RB_NVML_CLOCK_SM, &g->sm_end)) != RB_NVML_SUCCESS) {
        snprintf(g->error, sizeof g->error, "nvmlDeviceGetClockInfo(SM) at the end: %s",
                 rb_nvml_strerror(&w->nvml, r));
        g->sm_end = 0;
        return;
    }
    if (w->nvml.clock_info(w->dev, RB_NVML_CLOCK_MEM, &v) == RB_NVML_SUCCESS)
        g->mem_end = v;
    if (w->nvml.temperature
        && w->nvml.temperature(w->dev, RB_NVML_TEMPERATURE_GPU, &v) == RB_NVML_SUCCESS)
        g->temp_end = (int)v;
    /* The counter, where it moved over the window; else the mean of the
     * power readings (NVML averages each over its own short interval). */
    if (w->counter)
        counter_read(w, &e1);
    if (w->counter)
        g->energy_steps = w->steps;
    if (w->counter && e1 > w->e0_mj) {
        g->energy_j = (double)(e1 - w->e0_mj) / 1e3;
        g->energy_method = "energy-counter";
        return;
    }
    power_sample(w);
    if (w->power_n && isfinite(o->window_s)) {
        g->energy_j = w->power_sum_w / (double)w->power_n * o->window_s;
        g->energy_method = "power-samples";
    }
}

static void watch_release(void *self)
{
    struct nvml_watch *w = self;

    rb_nvml_unload(&w->nvml);
    free(w);
}

int rb_nvml_observer(struct rb_observer *obs, double threshold)
{
    struct nvml_watch *w = calloc(1, sizeof *w);

    if (!w)
        return RB_ENOMEM;
    w->threshold = threshold;
    *obs = (struct rb_observer){
        .name = "nvml", .self = w, .start = watch_start, .sample = watch_sample,
        .stop = watch_stop, .release = watch_release,
    };
    return 0;
}
