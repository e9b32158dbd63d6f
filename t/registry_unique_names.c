/* SPDX-License-Identifier: MIT */
/* Every registered variant is complete and its (paper, algo, name, backend)
 * unique; every axis is well formed. */
#include <string.h>
#include "harness/registry.h"
#include "t/tap.h"

static int axes_ok(const struct rb_axis *a)
{
    for (; a && a->name; a++) {
        if (!a->help || a->min > a->max || !a->deflt)
            return 0;
        const long long *lists[3] = { a->deflt, a->quick, a->paper };
        for (int l = 0; l < 3; l++)
            for (const long long *x = lists[l]; x && *x != RB_AXIS_END; x++)
                if (*x < a->min || *x > a->max)
                    return 0;
    }
    return 1;
}

int main(void)
{
    size_t n = rb_registry_count();
    tap_plan(3);
    tap_ok(n > 0, "%zu variants registered", n);
    int complete = 1, unique = 1, axes = 1;
    for (size_t i = 0; i < n; i++) {
        const struct rb_variant *v = rb_registry_get(i);
        complete &= v->paper && v->algo && v->name && v->doc && v->precs && v->sizes
            && v->available && v->setup && v->run && v->verify && v->teardown;
        axes &= axes_ok(v->sizes) && axes_ok(v->tunables);
        for (size_t j = 0; j < i; j++) {
            const struct rb_variant *w = rb_registry_get(j);
            if (!strcmp(v->paper, w->paper) && !strcmp(v->algo, w->algo)
                && !strcmp(v->name, w->name) && v->backend == w->backend) {
                tap_diag("duplicate: %s/%s/%s", v->paper, v->algo, v->name);
                unique = 0;
            }
        }
    }
    tap_ok(complete, "every variant has names, doc, axes and all entry points");
    tap_ok(unique && axes, "names unique, axis lists inside their ranges");
    return tap_done();
}
