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

/* The harness's stages of a case, in the order rb_case_execute runs them. */
enum rb_fault_stage {
    RB_FAULT_AT_AVAILABLE,
    RB_FAULT_AT_SETUP,
    RB_FAULT_AT_RUN,
    RB_FAULT_AT_VERIFY
};

/* The one place the harness injects: before a stage, the stand-ins for
 * faults the backend has no real path for (nodevice; oom and launch on
 * backends other than OpenCL), 0 or the fault's RB_E* with c->msg set;
 * after verify ran on the real output, the verify fault, which overturns
 * check->pass and keeps the real result in the message. */
int rb_fault_enter(struct rb_case *c, enum rb_fault_stage stage);
int rb_fault_leave(struct rb_case *c, enum rb_fault_stage stage, struct rb_check *check);

/* A point in a backend where a device call can be made to fail for real:
 * RB_FAULT_POINT(c, oom, bytes) is the size a buffer of `bytes` is created
 * with (one no device can hold when oom is injected); RB_FAULT_POINT(c,
 * launch, local) the local work size of a launch (one above any device's
 * work-group limit when launch is injected). */
#define RB_FAULT_POINT(c, kind, value) rb_fault_point_##kind((c), (value))
size_t rb_fault_point_oom(const struct rb_case *c, size_t bytes);
const size_t *rb_fault_point_launch(const struct rb_case *c, const size_t *local);

/* Put "fault injected: KIND[,KIND]: " in front of c->msg when any fault
 * matches c (unless the harness's own message already says so), so that its
 * record can never pass for a real one. */
void rb_fault_label(struct rb_case *c);

#ifdef __cplusplus
}
#endif

#endif
