/* SPDX-License-Identifier: MIT */
/* A run's stored plan: everything `run` needs to plan the same cases again
 * (the selection, the axes and preset, the measurement policy, the seed and
 * the devices), kept as "plan" in meta.json.  --resume continues from it,
 * and so can any later reader of a run directory (a shard of a sweep). */
#ifndef RB_PLAN_H
#define RB_PLAN_H

#include <stddef.h>
#include <stdint.h>
#include <jansson.h>
#include "harness/run/measure.h"
#include "harness/ctx.h"
#include "harness/run/sweep.h"

#define RB_PLAN_VERSION 1

struct rb_plan_spec {
    struct rb_sweep_opts sweep;     /* selection, preset and axis values */
    struct rb_policy policy;        /* warm-up, samples, times (inject_delay not kept) */
    uint64_t seed;                  /* the data seed every case derives its own from */
    struct rb_device_pick device[RB_BACKEND_COUNT];    /* --device; -1: automatic */
    const char *cl_dir;             /* OpenCL sources read from here; NULL: built in */
    const char *devices;            /* --devices list run concurrently; NULL: one device */
    json_t *owner;                  /* holds the strings of a loaded plan; else NULL */
};

/* Defaults: nothing selected, the default preset and policy, seed 0,
 * devices automatic. */
void rb_plan_spec_init(struct rb_plan_spec *p);
/* Release what a loaded plan holds (owner). */
void rb_plan_spec_free(struct rb_plan_spec *p);

/* The plan as a JSON object (a new reference; NULL when out of memory). */
json_t *rb_plan_json(const struct rb_plan_spec *p);
/* The plan of a JSON object from rb_plan_json; p->owner takes a reference
 * to it.  0, or RB_EINVAL with the field at fault in err. */
int rb_plan_from_json(json_t *j, struct rb_plan_spec *p, char *err, size_t errlen);

/* Set meta.json's "plan" in run_dir.  0, or RB_EIO / RB_ENOMEM with err. */
int rb_plan_store(const char *run_dir, const struct rb_plan_spec *p, char *err,
                  size_t errlen);

#endif
