/* SPDX-License-Identifier: MIT */
/* A machine, as the store knows it: the fingerprint of a run's hardware
 * summary (hardware.json, from hwloc and the device queries) and a short
 * name for people.  Two runs on the same hardware share one, whatever their
 * host names, drivers or software versions. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/store/db.h"
#include "harness/error.h"

/* Device fields that are not hardware: indices change with the order the
 * drivers list devices in, versions and bus ids with the software and the
 * slot. */
static const char *const device_software[] = {
    "index", "platform", "device", "driver", "runtime", "version", "platform_version",
    "opencl_c", "pci_bus_id", "uuid", "timer_resolution_ns", NULL,
};

static int is_software(const char *key)
{
    for (const char *const *k = device_software; *k; k++)
        if (strcmp(*k, key) == 0)
            return 1;
    return 0;
}

/* The host memory hwloc reports moves on virtual machines with memory
 * ballooning (8.01 and 8.28 GB a minute apart here), and PoCL derives its
 * CPU device's from it: neither is part of the fingerprint.  A GPU's is. */
static int is_host_memory(const json_t *dev, const char *key)
{
    const char *type = json_string_value(json_object_get(dev, "type"));

    return strcmp(key, "memory_bytes") == 0 && (!dev || (type && strcmp(type, "CPU") == 0));
}

/* The hardware facts of a summary as a new object: the CPU (model, counts,
 * caches) and every device without its software fields. */
static json_t *hardware_facts(const json_t *hw)
{
    json_t *facts = json_object(), *devs = json_array(), *dev;
    const json_t *cpu = json_object_get(hw, "cpu"), *d, *v;
    const char *key;
    size_t i;

    if (!facts || !devs)
        goto out_free;
    if (!(dev = json_object()) || json_object_set_new(facts, "cpu", dev) < 0
        || json_object_set_new(facts, "devices", json_incref(devs)) < 0)
        goto out_free;
    json_object_foreach((json_t *)cpu, key, v)
        if (!is_host_memory(NULL, key) && json_object_set(dev, key, (json_t *)v) < 0)
            goto out_free;
    json_array_foreach(json_object_get(hw, "devices"), i, d) {
        if (!(dev = json_object()) || json_array_append_new(devs, dev) < 0)
            goto out_free;
        json_object_foreach((json_t *)d, key, v)
            if (!is_software(key) && !is_host_memory(d, key)
                && json_object_set(dev, key, (json_t *)v) < 0)
                goto out_free;
    }
    json_decref(devs);
    return facts;
out_free:
    json_decref(devs);
    json_decref(facts);
    return NULL;
}

/* 64-bit FNV-1a: enough to tell a handful of machines apart, and stable
 * across builds and platforms. */
static uint64_t fnv1a(const char *s, uint64_t h)
{
    for (; *s; s++) {
        h ^= (unsigned char)*s;
        h *= 0x100000001b3ULL;
    }
    return h;
}

/* "NAME" or "2x NAME" for each distinct non-CPU device, in order. */
static void device_names(const json_t *hw, char *buf, size_t len, size_t at)
{
    const json_t *devs = json_object_get(hw, "devices"), *d, *e;
    size_t i, j;

    json_array_foreach(devs, i, d) {
        const char *name = json_string_value(json_object_get(d, "name"));
        const char *type = json_string_value(json_object_get(d, "type"));
        int count = 0, earlier = 0, n;

        if (!name || (type && strcmp(type, "CPU") == 0))
            continue;
        json_array_foreach(devs, j, e) {
            const char *other = json_string_value(json_object_get(e, "name"));
            if (other && strcmp(other, name) == 0) {
                count++;
                earlier |= j < i;
            }
        }
        if (earlier)
            continue;
        n = count > 1 ? snprintf(buf + at, len - at, " + %dx %s", count, name)
                      : snprintf(buf + at, len - at, " + %s", name);
        if (n < 0 || (size_t)n >= len - at)
            return;
        at += (size_t)n;
    }
}

int rb_db_machine_of(const json_t *hw, char *fingerprint, size_t fplen, char *name,
                     size_t namelen)
{
    const json_t *cpu = json_object_get(hw, "cpu");
    const char *model = json_string_value(json_object_get(cpu, "model"));
    json_t *facts = hardware_facts(hw);
    json_int_t cores = json_integer_value(json_object_get(cpu, "cores"));
    char *text;
    int n;

    if (!facts || !(text = json_dumps(facts, JSON_COMPACT | JSON_SORT_KEYS))) {
        json_decref(facts);
        return RB_ENOMEM;
    }
    snprintf(fingerprint, fplen, "%016llx",
             (unsigned long long)fnv1a(text, 0xcbf29ce484222325ULL));
    free(text);
    json_decref(facts);
    n = snprintf(name, namelen, "%s, %lld core%s", model && *model ? model : "unknown CPU",
                 (long long)cores, cores == 1 ? "" : "s");
    if (n > 0 && (size_t)n < namelen)
        device_names(hw, name, namelen, (size_t)n);
    return 0;
}
