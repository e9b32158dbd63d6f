/* SPDX-License-Identifier: MIT */
/* embed's backends, picked by build (embed_engines.c). */
#ifndef RB_EMBED_ENGINES_H
#define RB_EMBED_ENGINES_H

#include "harness/ctx.h"
#include "impl/sammon/sammon_engine.h"

/* The engine named `name`, or for NULL the best available: the first GPU
 * engine with a device (cuda, hip, then opencl on a GPU), else omp.  0, or
 * 2 after one line naming why (unknown, not built, no device). */
int embed_pick_engine(const char *name, struct rb_ctx *ctx,
                      const struct sammon_engine_ops **out);
/* 0 when `name` is a backend built in; else 2 after one line. */
int embed_engine_known(const char *name);
/* The names built in, "serial|omp|..." for --help. */
const char *embed_engine_names(void);

#endif
