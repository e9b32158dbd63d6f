/* SPDX-License-Identifier: MIT */
/* The CPU backends' descriptors: serial on one core, OpenMP on all. */
#include <config.h>
#include "harness/backend/backend.h"
#include "harness/backend/cpu.h"
#include "harness/run/ceiling.h"

static int serial_ceiling(struct rb_ctx *ctx, struct rb_ceiling *out)
{
    (void)ctx;
    return rb_ceiling_cpu(1, out);
}

static int omp_ceiling(struct rb_ctx *ctx, struct rb_ceiling *out)
{
    (void)ctx;
    return rb_ceiling_cpu(rb_omp_max_threads(), out);
}

/* meta.json names the OpenMP version _OPENMP gives (e.g. 201511). */
static void omp_describe(json_t *versions)
{
#if defined(_OPENMP)
    json_object_set_new(versions, "openmp", json_integer(_OPENMP));
#else
    json_object_set_new(versions, "openmp", json_string(rb_backend_not_built));
#endif
}

const struct rb_backend_ops rb_serial_backend = {
    .id = RB_BACKEND_SERIAL,
    .name = "serial",
    .available = rb_serial_available,
    .ceiling = serial_ceiling,
};

const struct rb_backend_ops rb_omp_backend = {
    .id = RB_BACKEND_OMP,
    .name = "omp",
    .available = rb_omp_available,
    .describe = omp_describe,
    .ceiling = omp_ceiling,
};
