/* SPDX-License-Identifier: MIT */
/* --device: which device each backend's cases run on, named as `reprobench
 * info` and `run --devices` name them (B:N, or B:P:D for a backend whose
 * devices sit on platforms), checked against the descriptors the registry
 * lists. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "harness/backend/backend.h"
#include "harness/error.h"
#include "harness/registry.h"

/* A device index: digits only, 0 to 63. */
static int index_of(const char *s, int *out)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (end == s || *end || errno || v < 0 || v > 63 || *s == '+' || *s == '-')
        return -1;
    *out = (int)v;
    return 0;
}

static int one(char *spec, struct rb_device_pick pick[RB_BACKEND_COUNT], unsigned *seen,
               char *err, size_t errlen)
{
    char whole[128], *first = strchr(spec, ':'), *second;
    enum rb_backend b;
    int p = -1, d = -1;

    snprintf(whole, sizeof whole, "%s", spec);  /* the messages name it as given */
    if (!first || first == spec) {
        snprintf(err, errlen, "--device %s: give B:N (or B:P:D), as 'reprobench info' lists "
                 "devices", whole);
        return RB_EINVAL;
    }
    *first++ = '\0';
    if (rb_backend_parse(spec, &b)) {
        snprintf(err, errlen, "--device: unknown backend '%s'", spec);
        return RB_EINVAL;
    }
    const struct rb_backend_ops *ops = rb_registry_backend(b);
    if (!ops) {
        snprintf(err, errlen, "--device %s: this reprobench was built without %s", whole, spec);
        return RB_EINVAL;
    }
    if (!ops->devices) {
        snprintf(err, errlen, "--device %s: %s runs on the host, which has no devices to pick",
                 whole, spec);
        return RB_EINVAL;
    }
    if ((second = strchr(first, ':')) != NULL)
        *second++ = '\0';
    if (second && !ops->platforms) {
        snprintf(err, errlen, "--device %s: %s has no platforms (give %s:N)", whole, spec,
                 spec);
        return RB_EINVAL;
    }
    if (second ? index_of(first, &p) || index_of(second, &d) : index_of(first, &d)) {
        snprintf(err, errlen, "--device %s: the %s must be a number from 0 to 63", whole,
                 second ? "platform and device" : "device");
        return RB_EINVAL;
    }
    if (*seen & (1u << b)) {
        snprintf(err, errlen, "--device %s: %s is named twice", whole, spec);
        return RB_EINVAL;
    }
    *seen |= 1u << b;
    pick[b] = (struct rb_device_pick){ p, d };
    return 0;
}

int rb_device_parse(const char *list, struct rb_device_pick pick[RB_BACKEND_COUNT], char *err,
                    size_t errlen)
{
    char buf[512], *save = NULL;
    unsigned seen = 0;
    int rc = 0;

    if (snprintf(buf, sizeof buf, "%s", list) >= (int)sizeof buf || !*buf) {
        snprintf(err, errlen, "--device: %s", *buf ? "the list is too long" : "empty list");
        return RB_EINVAL;
    }
    for (char *t = strtok_r(buf, ",", &save); t && !rc; t = strtok_r(NULL, ",", &save))
        rc = one(t, pick, &seen, err, errlen);
    return rc;
}

void rb_device_format(const struct rb_device_pick pick[RB_BACKEND_COUNT], char *buf,
                      size_t len)
{
    size_t at = 0;
    buf[0] = '\0';
    for (int b = 0; b < RB_BACKEND_COUNT && at < len; b++) {
        const struct rb_device_pick *k = &pick[b];
        if (k->index < 0 && k->platform < 0)
            continue;
        const char *name = rb_backend_name((enum rb_backend)b);
        if (k->platform >= 0)
            at += (size_t)snprintf(buf + at, len - at, "%s%s:%d:%d", at ? "," : "", name,
                                   k->platform, k->index);
        else
            at += (size_t)snprintf(buf + at, len - at, "%s%s:%d", at ? "," : "", name, k->index);
    }
}
