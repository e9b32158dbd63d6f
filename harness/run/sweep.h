/* SPDX-License-Identifier: MIT */
/* The sweep planner: variants x sizes x tunables x precisions, filtered. */
#ifndef RB_SWEEP_H
#define RB_SWEEP_H

#include <stddef.h>
#include "harness/variant.h"

enum rb_preset { RB_PRESET_DEFAULT, RB_PRESET_QUICK, RB_PRESET_PAPER };

#define RB_MAX_VALUES 64
#define RB_MAX_OVERRIDES 16

/* Values given on the command line for one axis; they replace the preset's
 * list for every variant that has the axis. */
struct rb_axis_values {
    const char *name;
    size_t n;
    long long v[RB_MAX_VALUES];
};

struct rb_sweep_opts {
    enum rb_preset preset;
    const char *paper, *algo, *variant;     /* comma-separated names; NULL: any */
    unsigned backends;                      /* bit (1 << backend); 0: any */
    unsigned precs;                         /* RB_PREC_* bits; 0: all the variant has */
    size_t noverrides;
    struct rb_axis_values overrides[RB_MAX_OVERRIDES];
};

struct rb_plan {
    size_t n;
    struct rb_case *cases;
};

/* Expand the options into cases (ctx and seed filled in, state NULL).  A
 * variant matching the filters but unavailable here is not planned; when a
 * filter names a backend or variant that is unavailable, that is an error with
 * the reason.  Returns 0, or RB_EINVAL with a message in err. */
int rb_sweep_plan(const struct rb_sweep_opts *o, struct rb_ctx *ctx,
                  struct rb_plan *out, char *err, size_t errlen);
void rb_plan_free(struct rb_plan *p);

/* Whether case c fits the host memory the run allows (c->ctx->mem_limit;
 * CPU cases with a footprint only).  1, or 0 with the reason in why, which
 * says whose limit it is: RB_MEM_LIMIT_MB's or 90% of the host's.  A plan
 * keeps such cases; rb_case_execute records them as skipped at setup; a
 * plan of nothing else is an error (RB_ENOMEM). */
int rb_case_fits(const struct rb_case *c, char *why, size_t len);

/* A stable key naming the case: "paper/algo/variant/backend/prec/n=256/...".
 * Used by resume and compare. */
void rb_case_key(const struct rb_case *c, char *buf, size_t len);
/* "givens/forward/sequential serial f32 n=256 m=0" for humans. */
void rb_case_label(const struct rb_case *c, char *buf, size_t len);

#endif
