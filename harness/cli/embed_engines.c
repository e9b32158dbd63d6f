/* SPDX-License-Identifier: MIT */
/* embed's backends, the one place that picks them by build: the fp64
 * engines always, and each device engine this build has (the program's
 * table, as the registry lists variants). */
#include <config.h>
#include <stdio.h>
#include <string.h>
#include "harness/cli/embed_engines.h"
#include "impl/sammon/sammon_embed_io.h"

/* In the order the default tries them; the GPU backends' ops come from
 * functions (sammon_engine.h), filled in at first use. */
static const struct sammon_engine_ops *engines[6];

static const struct sammon_engine_ops *const *engine_list(void)
{
    if (!engines[0]) {
        int k = 0;
#if RB_HAVE_CUDA
        engines[k++] = sammon_engine_cuda_ops();
#endif
#if RB_HAVE_HIP
        engines[k++] = sammon_engine_hip_ops();
#endif
#if RB_HAVE_OPENCL
        engines[k++] = &sammon_engine_opencl;
#endif
        engines[k++] = &sammon_engine_omp;
        engines[k] = &sammon_engine_serial;
    }
    return engines;
}

static const char *const all_names[] = { "cuda", "hip", "opencl", "omp", "serial", NULL };

const char *embed_engine_names(void)
{
    const struct sammon_engine_ops *const *list = engine_list();
    static char buf[64];
    size_t at = 0;
    for (int k = 0; list[k]; k++)
        at += (size_t)snprintf(buf + at, sizeof buf - at, "%s%s", k ? "|" : "", list[k]->name);
    return buf;
}

int embed_engine_known(const char *name)
{
    const struct sammon_engine_ops *const *list = engine_list();
    for (int k = 0; list[k]; k++)
        if (strcmp(name, list[k]->name) == 0)
            return 0;
    for (int k = 0; all_names[k]; k++)
        if (strcmp(name, all_names[k]) == 0)
            return complain(2, "--backend %s: this %s was built without it", name,
                            sammon_embed_prog);
    return complain(2, "--backend: '%s' is not one of %s", name, embed_engine_names());
}

int embed_pick_engine(const char *name, struct rb_ctx *ctx,
                      const struct sammon_engine_ops **out)
{
    const struct sammon_engine_ops *const *list = engine_list();
    char why[512] = "";
    for (int k = 0; list[k]; k++) {
        const struct sammon_engine_ops *e = list[k];
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
