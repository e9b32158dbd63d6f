/* SPDX-License-Identifier: MIT */
/* The report's machine and build sections, from hardware.json (hwloc and
 * the backends' device queries) and meta.json. */
#include <stdio.h>
#include <string.h>

#include "harness/report/report.h"

static const char *str_or(const json_t *o, const char *key, const char *dflt)
{
    const char *s = json_string_value(json_object_get(o, key));

    return s && *s ? s : dflt;
}

/* An integer field as text, "-" when absent or negative. */
static void int_label(const json_t *o, const char *key, const char *unit, char *buf, size_t len)
{
    const json_t *v = json_object_get(o, key);

    if (json_is_integer(v) && json_integer_value(v) >= 0)
        snprintf(buf, len, "%lld%s", (long long)json_integer_value(v), unit);
    else
        snprintf(buf, len, "-");
}

static void bytes_label(const json_t *v, char *buf, size_t len)
{
    static const char *const units[] = { "B", "KiB", "MiB", "GiB", "TiB" };
    double x = json_is_integer(v) ? (double)json_integer_value(v) : -1;
    size_t u = 0;

    if (x < 0) {
        snprintf(buf, len, "-");
        return;
    }
    while (x >= 1024 && u + 1 < sizeof units / sizeof *units) {
        x /= 1024;
        u++;
    }
    snprintf(buf, len, "%.4g %s", x, units[u]);
}

/* Both counts of the host's memory: they differ on virtual machines whose
 * memory grows as it is used, where hwloc sees only what is plugged in. */
static void memory_label(const json_t *cpu, char *buf, size_t len)
{
    char hw[32], os[32];

    bytes_label(json_object_get(cpu, "memory_bytes"), hw, sizeof hw);
    bytes_label(json_object_get(cpu, "system_memory_bytes"), os, sizeof os);
    if (strcmp(os, "-") == 0)
        snprintf(buf, len, "%s (hwloc)", hw);
    else
        snprintf(buf, len, "%s as the system reports it; %s as hwloc counts it", os, hw);
}

static void caches_label(const json_t *cpu, char *buf, size_t len)
{
    const json_t *c;
    size_t i, at = 0;

    snprintf(buf, len, "-");
    json_array_foreach(json_object_get(cpu, "caches"), i, c) {
        char size[32];
        int n;

        bytes_label(json_object_get(c, "size"), size, sizeof size);
        n = snprintf(buf + at, len - at, "%sL%lld %s %s x%lld", at ? ", " : "",
                     (long long)json_integer_value(json_object_get(c, "level")),
                     str_or(c, "type", "?"), size,
                     (long long)json_integer_value(json_object_get(c, "count")));
        if (n < 0 || (size_t)n >= len - at)
            break;
        at += (size_t)n;
    }
}

static void devices_table(struct rb_doc *d, const json_t *hw)
{
    static const char *const head[] = {
        "backend", "device", "name", "type", "architecture", "compute units", "memory",
        "clock", "driver",
    };
    const json_t *dev, *note;
    json_t *table, *list;
    size_t i;

    if (json_array_size(json_object_get(hw, "devices")) == 0) {
        rb_doc_para(d, "No OpenCL, CUDA or HIP device was found.");
    } else {
        table = rb_doc_table(d, head, sizeof head / sizeof *head);
        json_array_foreach(json_object_get(hw, "devices"), i, dev) {
            char id[48], cu[32], mem[32], clock[32], arch[160];

            if (json_object_get(dev, "platform"))
                snprintf(id, sizeof id, "platform %lld, device %lld",
                         (long long)json_integer_value(json_object_get(dev, "platform")),
                         (long long)json_integer_value(json_object_get(dev, "device")));
            else
                int_label(dev, "index", "", id, sizeof id);
            int_label(dev, "compute_units", "", cu, sizeof cu);
            bytes_label(json_object_get(dev, "memory_bytes"), mem, sizeof mem);
            int_label(dev, "clock_mhz", " MHz", clock, sizeof clock);
            if (str_or(dev, "cc", NULL))
                snprintf(arch, sizeof arch, "compute capability %s", str_or(dev, "cc", ""));
            else
                snprintf(arch, sizeof arch, "%s",
                         str_or(dev, "arch", str_or(dev, "version", "-")));
            rb_doc_row(d, table, (const char *const[]){ str_or(dev, "backend", "?"), id,
                       str_or(dev, "name", "?"), str_or(dev, "type", "GPU"), arch, cu, mem,
                       clock, str_or(dev, "driver", "-") });
        }
    }
    if (json_array_size(json_object_get(hw, "backends")) == 0)
        return;
    rb_doc_para(d, "Backends without a device:");
    list = rb_doc_list(d);
    json_array_foreach(json_object_get(hw, "backends"), i, note)
        rb_doc_item(d, list, json_string_value(note));
}

void rb_report_hardware(struct rb_doc *d, const json_t *hw)
{
    static const char *const head[] = { "field", "value" };
    const json_t *cpu = json_object_get(hw, "cpu"), *os = json_object_get(hw, "os");
    char buf[4][512];
    json_t *table;

    rb_doc_heading(d, 2, "Hardware");
    if (!json_is_object(hw)) {
        rb_doc_para(d, "hardware.json is missing or unreadable.");
        return;
    }
    rb_doc_para(d, "From hardware.json (hwloc %s; the whole topology is hw.xml in the run "
                "directory: HWLOC_XMLFILE=hw.xml lstopo).", str_or(hw, "hwloc", "?"));
    table = rb_doc_table(d, head, 2);
    rb_doc_row(d, table, (const char *const[]){ "host", str_or(hw, "host", "?") });
    snprintf(buf[0], sizeof buf[0], "%s %s, %s", str_or(os, "name", "?"),
             str_or(os, "release", "?"), str_or(os, "arch", "?"));
    rb_doc_row(d, table, (const char *const[]){ "system", buf[0] });
    snprintf(buf[1], sizeof buf[1], "%s (%s)", str_or(cpu, "model", "?"),
             str_or(cpu, "vendor", "?"));
    rb_doc_row(d, table, (const char *const[]){ "CPU", buf[1] });
    snprintf(buf[2], sizeof buf[2], "%lld packages, %lld cores, %lld PUs, %lld NUMA nodes",
             (long long)json_integer_value(json_object_get(cpu, "packages")),
             (long long)json_integer_value(json_object_get(cpu, "cores")),
             (long long)json_integer_value(json_object_get(cpu, "pus")),
             (long long)json_integer_value(json_object_get(cpu, "numa_nodes")));
    rb_doc_row(d, table, (const char *const[]){ "topology", buf[2] });
    memory_label(cpu, buf[3], sizeof buf[3]);
    rb_doc_row(d, table, (const char *const[]){ "memory", buf[3] });
    caches_label(cpu, buf[0], sizeof buf[0]);
    rb_doc_row(d, table, (const char *const[]){ "caches", buf[0] });
    rb_doc_heading(d, 3, "Devices");
    devices_table(d, hw);
}

/* Every string of an object, flattened to "path: value" rows. */
static void flatten(struct rb_doc *d, json_t *table, const char *prefix, const json_t *v)
{
    char name[256], text[64];
    const char *key;
    const json_t *e;
    size_t i;

    if (json_is_object(v)) {
        json_object_foreach((json_t *)v, key, e) {
            snprintf(name, sizeof name, "%s%s%s", prefix, *prefix ? " " : "", key);
            flatten(d, table, name, e);
        }
    } else if (json_is_array(v)) {
        json_array_foreach(v, i, e) {
            snprintf(name, sizeof name, "%s %zu", prefix, i);
            flatten(d, table, name, e);
        }
    } else if (json_is_string(v)) {
        rb_doc_row(d, table, (const char *const[]){ prefix, json_string_value(v) });
    } else if (json_is_integer(v)) {
        snprintf(text, sizeof text, "%lld", (long long)json_integer_value(v));
        rb_doc_row(d, table, (const char *const[]){ prefix, text });
    } else if (json_is_number(v)) {
        snprintf(text, sizeof text, "%g", json_number_value(v));
        rb_doc_row(d, table, (const char *const[]){ prefix, text });
    }
}

void rb_report_build(struct rb_doc *d, const json_t *meta)
{
    static const char *const head[] = { "field", "value" };
    static const char *const fields[][2] = {
        { "git", "git describe" }, { "version", "version" }, { "configure", "configure" },
        { "host", "run on host" }, { "start", "started (UTC)" },
    };
    const json_t *cmd = json_object_get(meta, "command"), *e;
    char line[1024];
    size_t i, at = 0;
    json_t *table;

    rb_doc_heading(d, 2, "Build and run");
    if (!json_is_object(meta)) {
        rb_doc_para(d, "meta.json is missing or unreadable.");
        return;
    }
    table = rb_doc_table(d, head, 2);
    for (i = 0; i < sizeof fields / sizeof *fields; i++)
        rb_doc_row(d, table, (const char *const[]){ fields[i][1],
                   str_or(meta, fields[i][0], "-") });
    line[0] = '\0';
    json_array_foreach(cmd, i, e) {
        int n = snprintf(line + at, sizeof line - at, "%s%s", i ? " " : "reprobench ",
                         json_string_value(e) ? json_string_value(e) : "");
        if (n < 0 || (size_t)n >= sizeof line - at)
            break;
        at += (size_t)n;
    }
    rb_doc_row(d, table, (const char *const[]){ "command", line });
    if (json_object_get(meta, "flags"))
        flatten(d, table, "flags", json_object_get(meta, "flags"));
    else
        rb_doc_row(d, table, (const char *const[]){ "flags", "not recorded by this run" });
    flatten(d, table, "compiler", json_object_get(meta, "compilers"));
    flatten(d, table, "environment", json_object_get(meta, "environment"));
    flatten(d, table, "seed", json_object_get(meta, "seed"));
}
