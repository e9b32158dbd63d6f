/* SPDX-License-Identifier: MIT */
/* The backends seen from the harness: devices, availability, versions,
 * ceilings and release, dispatched through the descriptors the registry
 * lists; a backend it does not list was not built. */
#include <config.h>
#include <stdio.h>
#include "harness/backend/backend.h"
#include "harness/run/ceiling.h"
#include "harness/error.h"
#include "harness/registry.h"

const char rb_backend_not_built[] = "not built (see configure summary)";

static void note(json_t *notes, const char *backend, const char *why)
{
    char line[512];
    snprintf(line, sizeof line, "%s: %s", backend, why);
    json_array_append_new(notes, json_string(line));
}

void rb_backend_devices(struct rb_ctx *ctx, json_t *devices, json_t *notes)
{
    char why[400];
    (void)ctx;
    for (int b = 0; b < RB_BACKEND_COUNT; b++) {
        const struct rb_backend_ops *ops = rb_registry_backend((enum rb_backend)b);
        if (!ops)
            note(notes, rb_backend_name((enum rb_backend)b), rb_backend_not_built);
        else if (ops->devices && ops->devices(devices, why, sizeof why) == 0)
            note(notes, ops->name, why);
    }
}

int rb_backend_in_default_sweep(struct rb_ctx *ctx, enum rb_backend b, char *why, size_t len)
{
    const struct rb_backend_ops *ops = rb_registry_backend(b);
    if (ops && ops->in_default_sweep)
        return ops->in_default_sweep(ctx, why, len);
    return 1;
}

int rb_backend_available(struct rb_ctx *ctx, enum rb_backend b, char *why, size_t len)
{
    const struct rb_backend_ops *ops;

    if ((int)b < 0 || b >= RB_BACKEND_COUNT) {
        snprintf(why, len, "unknown backend %d", (int)b);
        return 0;
    }
    if (!(ops = rb_registry_backend(b))) {
        snprintf(why, len, "%s %s", rb_backend_name(b), rb_backend_not_built);
        return 0;
    }
    return ops->available(ctx, why, len);
}

json_t *rb_backend_versions(struct rb_ctx *ctx)
{
    json_t *v = json_object();
    (void)ctx;
    for (int b = 0; b < RB_BACKEND_COUNT; b++) {
        const struct rb_backend_ops *ops = rb_registry_backend((enum rb_backend)b);
        if (!ops)
            json_object_set_new(v, rb_backend_name((enum rb_backend)b),
                                json_string(rb_backend_not_built));
        else if (ops->describe)
            ops->describe(v);
    }
    return v;
}

void rb_backend_ceiling(struct rb_ctx *ctx, enum rb_backend b, struct rb_ceiling *out)
{
    const struct rb_backend_ops *ops;
    char why[256];

    rb_ceiling_clear(out);
    if (!rb_backend_available(ctx, b, why, sizeof why)) {
        rb_ceiling_fail(out, "%s", why);
        return;
    }
    ops = rb_registry_backend(b);
    if (ops->ceiling)
        ops->ceiling(ctx, out);
    else
        rb_ceiling_fail(out, "%s: no ceiling probe", rb_backend_name(b));
}

int rb_backend_pci_bus_id(struct rb_ctx *ctx, enum rb_backend b, char *bus, size_t len,
                          char *why, size_t whylen)
{
    const struct rb_backend_ops *ops = rb_registry_backend(b);
    if (ops && ops->pci_bus_id)
        return ops->pci_bus_id(ctx, bus, len, why, whylen);
    snprintf(why, whylen, "%s has no PCI device", rb_backend_name(b));
    return RB_ENODEV;
}

void rb_backend_release(struct rb_ctx *ctx)
{
    for (int b = 0; b < RB_BACKEND_COUNT; b++) {
        const struct rb_backend_ops *ops = rb_registry_backend((enum rb_backend)b);
        if (ops && ops->release)
            ops->release(ctx);
    }
}
