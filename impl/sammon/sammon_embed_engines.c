/* SPDX-License-Identifier: MIT */
/* sammon-embed's backends: the fp64 engines always, and each device engine
 * this build has (the program's table, as the registry lists variants). */
#include <config.h>
#include <stdio.h>
#include <string.h>
#include "impl/sammon/sammon_embed.h"

#if RB_HAVE_OPENCL
static const struct sammon_engine_ops opencl_ops = {
    .name = "opencl", .gpu = 1, .available = sammon_engine_opencl_available,
    .open = sammon_engine_opencl_open, .eval = sammon_engine_opencl_eval,
    .close = sammon_engine_opencl_close,
};
#endif
#if RB_HAVE_CUDA
static const struct sammon_engine_ops cuda_ops = {
    .name = "cuda", .gpu = 1, .available = sammon_engine_cuda_available,
    .open = sammon_engine_cuda_open, .eval = sammon_engine_cuda_eval,
    .close = sammon_engine_cuda_close,
};
#endif
#if RB_HAVE_HIP
static const struct sammon_engine_ops hip_ops = {
    .name = "hip", .gpu = 1, .available = sammon_engine_hip_available,
    .open = sammon_engine_hip_open, .eval = sammon_engine_hip_eval,
    .close = sammon_engine_hip_close,
};
#endif

/* In the order the default tries them. */
static const struct sammon_engine_ops *const engines[] = {
#if RB_HAVE_CUDA
    &cuda_ops,
#endif
#if RB_HAVE_HIP
    &hip_ops,
#endif
#if RB_HAVE_OPENCL
    &opencl_ops,
#endif
    &sammon_engine_omp,
    &sammon_engine_serial,
    NULL
};

static const char *const all_names[] = { "cuda", "hip", "opencl", "omp", "serial", NULL };

const char *embed_engine_names(void)
{
    static char buf[64];
    size_t at = 0;
    for (int k = 0; engines[k]; k++)
        at += (size_t)snprintf(buf + at, sizeof buf - at, "%s%s", k ? "|" : "",
                               engines[k]->name);
    return buf;
}

int embed_engine_known(const char *name)
{
    for (int k = 0; engines[k]; k++)
        if (strcmp(name, engines[k]->name) == 0)
            return 0;
    for (int k = 0; all_names[k]; k++)
        if (strcmp(name, all_names[k]) == 0)
            return complain(2, "--backend %s: this sammon-embed was built without it", name);
    return complain(2, "--backend: '%s' is not one of %s", name, embed_engine_names());
}

int embed_pick_engine(const char *name, struct rb_ctx *ctx,
                      const struct sammon_engine_ops **out)
{
    char why[512] = "";
    for (int k = 0; engines[k]; k++) {
        const struct sammon_engine_ops *e = engines[k];
        if (name && strcmp(name, e->name) != 0)
            continue;
        if (!name && e->gpu && !e->available(ctx, 1, why, sizeof why))
            continue;                   /* the default looks for a GPU, else the host */
        if (name && !e->available(ctx, 0, why, sizeof why))
            return complain(2, "--backend %s: %s", name, why);
        *out = e;
        return 0;
    }
    return name ? embed_engine_known(name) : complain(2, "no backend can run here");
}
