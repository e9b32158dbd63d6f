/* SPDX-License-Identifier: MIT */
/* Test-only fault injection: RB_FAULT="KIND@paper/algo/variant[,...]" makes
 * the matching cases fail as a real fault would (README, "Fault injection"). */
#ifndef RB_FAULT_H
#define RB_FAULT_H

#include <stddef.h>
#include "harness/variant.h"

#ifdef __cplusplus
extern "C" {
#endif

enum rb_fault_kind {
    RB_FAULT_OOM,           /* the backend's allocation in setup fails */
    RB_FAULT_LAUNCH,        /* the run stage's kernel enqueue fails */
    RB_FAULT_VERIFY,        /* the output check is made to fail */
    RB_FAULT_NODEVICE,      /* available() reports no device */
    RB_FAULT_NOSPACE,       /* the case's record write fails with ENOSPC halfway */
    RB_FAULT_KINDS
};

/* Read RB_FAULT; called once when a sweep starts.  0, or RB_EINVAL with a
 * message in err when the value is malformed. */
int rb_fault_init(char *err, size_t errlen);

/* 1 when RB_FAULT injects `kind` into cases of paper/algo/name. */
int rb_fault_hit(const char *paper, const char *algo, const char *name,
                 enum rb_fault_kind kind);
int rb_fault_case(const struct rb_case *c, enum rb_fault_kind kind);

/* The injections a variant's backend makes on its real path (OpenCL): the
 * size a buffer of `bytes` is created with (one no device can hold when
 * oom is injected), and the local work size of a launch (one above any
 * device's work-group limit when launch is injected). */
size_t rb_fault_buffer_bytes(const struct rb_case *c, size_t bytes);
const size_t *rb_fault_local_size(const struct rb_case *c, const size_t *local);

/* 1 when the harness itself stands in for `kind` in case c: the backends
 * without a real-path injection (every one but OpenCL for oom and launch;
 * every backend for verify and nodevice). */
int rb_fault_by_harness(const struct rb_case *c, enum rb_fault_kind kind);

/* Put "fault injected: KIND[,KIND]: " in front of c->msg when any fault
 * matches c (unless the harness's own message already says so), so that its
 * record can never pass for a real one. */
void rb_fault_label(struct rb_case *c);

#ifdef __cplusplus
}
#endif

#endif
