/* SPDX-License-Identifier: MIT */
/* Hardware tagging through hwloc, plus every GPU the backends find. */
#ifndef RB_HW_H
#define RB_HW_H

#include <stdio.h>
#include <jansson.h>
#include "harness/ctx.h"

/* A summary object: host, os, cpu (model, vendor, family/model/stepping,
 * packages, cores, pus, numa nodes, memory as hwloc counts it
 * (memory_bytes) and as the system reports it (system_memory_bytes), caches) and "devices" (one entry
 * per OpenCL, CUDA or HIP device found, with "backends" notes on those that
 * found none).  NULL with a message in err if hwloc fails. */
json_t *rb_hw_summary(struct rb_ctx *ctx, char *err, size_t errlen);

/* Export the hwloc topology as XML to path.  0 or RB_EIO. */
int rb_hw_export_xml(const char *path, char *err, size_t errlen);

/* The summary as text, for `reprobench info`. */
void rb_hw_print(FILE *f, const json_t *summary);

/* Host memory in bytes (for refusing cases that would not fit). */
unsigned long long rb_hw_host_memory(void);

#endif
