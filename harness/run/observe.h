/* SPDX-License-Identifier: MIT */
/* Observers around a case's timed samples: GPU clocks, power, energy and
 * throttling (NVML), the CPU's governor and package energy (sysfs).  What
 * they see goes into the case's record (docs/energy.md). */
#ifndef RB_OBSERVE_H
#define RB_OBSERVE_H

#include <stddef.h>
#include "harness/ctx.h"
#include "harness/variant.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A sample is throttled when the SM clock read after it is below this
 * fraction of the clock at the start of the timed samples (or the driver
 * names a throttle reason).  RB_THROTTLE_THRESHOLD overrides it. */
#define RB_THROTTLE_THRESHOLD_DEFAULT 0.9

/* What the GPU observer saw over one case.  available 0: nothing was
 * watched, and why says why ("not a GPU case", "NVML not available: ..."). */
/* A window in which the energy counter moved fewer times than this is
 * coarse: its energy is mostly the counter's rounding (and the driver's power
 * readings average over as long an interval), so reports do not show it. */
#define RB_ENERGY_MIN_STEPS 3

struct rb_gpu_watch {
    int available;
    char why[256];
    char source[16];                /* "nvml" */
    char pci_bus_id[32];            /* the device watched */
    char name[96];
    unsigned sm_start, sm_end, sm_min;      /* MHz; 0 unknown */
    unsigned mem_start, mem_end;
    int temp_start, temp_end;               /* degrees C; -1 unknown */
    double energy_j;                /* over the window; NaN unknown */
    const char *energy_method;      /* "energy-counter", "power-samples" or NULL */
    int energy_steps;               /* times the counter moved over the window; -1 no counter */
    double threshold;               /* the fraction the SM clock was held to */
    unsigned long long reasons;     /* throttle reasons reported during sampling */
    char throttle_reason[256];      /* the first throttled sample's reason, or "" */
    char error[256];                /* a read that failed midway (the rest stays), or "" */
};

/* The CPU side of a case: the frequency governor and, where the powercap
 * interface is readable, the packages' energy over the window. */
struct rb_cpu_watch {
    char governor[96];              /* "" when unknown, then governor_why says why */
    char governor_why[256];
    int energy_available;           /* 0: energy_why says why */
    char energy_why[256];
    char zones[128];                /* "package-0,package-1" */
    double energy_j;
};

struct rb_observation {
    double window_s;                /* from the first timed sample to the last */
    size_t nsamples;                /* samples seen */
    unsigned char *throttled;       /* per sample, 1 when taken throttled; malloc'd */
    size_t cap;
    size_t nthrottled;
    struct rb_gpu_watch gpu;
    struct rb_cpu_watch cpu;
};

/* One observer.  start runs before the first timed sample (after the
 * warm-up), sample after each one (outside the timed region), stop after
 * the last; each writes what it sees into the observation.  sample returns 1
 * when the sample was taken throttled. */
struct rb_observer {
    const char *name;
    void *self;
    void (*start)(void *self, const struct rb_case *c, struct rb_observation *o);
    int (*sample)(void *self, size_t i, struct rb_observation *o);
    void (*stop)(void *self, struct rb_observation *o);
    void (*release)(void *self);
};

#define RB_MAX_OBSERVERS 4

struct rb_observers {
    int n;
    struct rb_observer obs[RB_MAX_OBSERVERS];
    double threshold;
    uint64_t t0_ns;                 /* the window's start */
};

/* The run's observers in ctx->observers: the NVML one (its library loaded
 * at the first GPU case) and the CPU one.  RB_THROTTLE_THRESHOLD, if set,
 * must be a number in (0, 1].  0, or RB_EINVAL / RB_ENOMEM with one line in
 * err. */
int rb_observers_init(struct rb_ctx *ctx, char *err, size_t errlen);
void rb_observers_release(struct rb_ctx *ctx);

/* Around a case's timed samples; the observers are made on first use when
 * rb_observers_init was not called (an error then lands in o->gpu.why). */
void rb_observe_start(const struct rb_case *c, struct rb_observation *o);
void rb_observe_sample(const struct rb_case *c, struct rb_observation *o, size_t i);
void rb_observe_stop(const struct rb_case *c, struct rb_observation *o);
void rb_observation_free(struct rb_observation *o);

/* The observers themselves (harness/backend/nvml.c, cpu_power.c).  0, or
 * RB_ENOMEM. */
int rb_nvml_observer(struct rb_observer *obs, double threshold);
int rb_cpu_power_observer(struct rb_observer *obs);

#ifdef __cplusplus
}
#endif

#endif
