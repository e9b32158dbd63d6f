/* SPDX-License-Identifier: MIT */
/* run --devices: several devices of one host at once, one worker process
 * per device, the parent the only writer of records.jsonl (docs/devices.md). */
#ifndef RB_WORKERS_H
#define RB_WORKERS_H

#include <signal.h>
#include <stddef.h>
#include "harness/run/execute.h"
#include "harness/records/results.h"
#include "harness/run/sweep.h"

#define RB_WORKERS_MAX 16

/* One device: its backend and, for OpenCL, platform and device. */
struct rb_worker_dev {
    enum rb_backend backend;
    int platform, device;
    char name[32];              /* "opencl:0:1", "cuda:0" */
};

struct rb_worker_devs {
    struct rb_worker_dev dev[RB_WORKERS_MAX];
    size_t n;
};

/* Parse "all" or a list "cuda:0,opencl:0:1,hip:0" and check that every
 * device exists on this host.  0, or RB_EINVAL with one line in err. */
int rb_workers_parse(const char *list, struct rb_worker_devs *d, char *err, size_t errlen);

/* The worker's side: case indices of plan, one a line on stdin; each case
 * run on this process's device and its record written as one line on
 * stdout.  Returns an exit status. */
int rb_workers_serve(struct rb_plan *plan, const struct rb_policy *p);

/* The parent's side: the device cases of plan not yet in run handed out,
 * one at a time, to one worker per device of d (each started as
 * `self run --worker RUN_DIR` with its device), their records appended to
 * run with "device_id"; the other cases run here, one after another.
 * Stops handing out cases once *stop is set.  0, or non-zero with err
 * when a record could not be written. */
int rb_workers_sweep(const struct rb_worker_devs *d, struct rb_plan *plan,
                     const struct rb_policy *p, struct rb_run *run, struct rb_tally *t,
                     int quiet, volatile sig_atomic_t *stop, char *err, size_t errlen);

#endif
