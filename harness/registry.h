/* SPDX-License-Identifier: MIT */
/* Every variant and backend that was built, in a fixed order. */
#ifndef RB_REGISTRY_H
#define RB_REGISTRY_H

#include "harness/variant.h"

/* The i-th variant, or NULL past the end. */
const struct rb_variant *rb_registry_get(size_t i);
size_t rb_registry_count(void);
/* The axis named `name` in any variant (sizes or tunables), or NULL. */
const struct rb_axis *rb_registry_axis(const char *name);
/* The union of the ranges of every axis called `name`: 0, or -1 if none. */
int rb_registry_axis_range(const char *name, long long *min, long long *max);
struct rb_backend_ops;             /* harness/backend/backend.h */
/* The descriptor of backend b, or NULL if it was not built. */
const struct rb_backend_ops *rb_registry_backend(enum rb_backend b);
/* 1 if `backend`'s variants were built into this binary. */
int rb_registry_backend_built(enum rb_backend backend);

#endif
