/* SPDX-License-Identifier: MIT */
/* Hardware tagging: the hwloc topology summarised as JSON and text, plus the
 * devices each GPU backend finds (notes/harness.md §4). */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <hwloc.h>
#include "harness/records/atomic_file.h"
#include "harness/backend/backend.h"
#include "harness/error.h"
#include "harness/records/hw.h"
#include "harness/registry.h"

/* hwloc 3.0 moved the root object's infos to the topology and made the info
 * arrays a struct; only these two lookups depend on the version. */
static const char *root_info(hwloc_topology_t t, const char *name)
{
#if HWLOC_API_VERSION >= 0x00030000
    return hwloc_get_info_by_name(hwloc_topology_get_infos(t), name);
#else
    return hwloc_obj_get_info_by_name(hwloc_get_root_obj(t), name);
#endif
}

/* CPU infos sit on the first package, or on the root without package info. */
static const char *cpu_info(hwloc_topology_t t, const char *name)
{
    hwloc_obj_t pkg = hwloc_get_obj_by_type(t, HWLOC_OBJ_PACKAGE, 0);
    const char *v = pkg ? hwloc_obj_get_info_by_name(pkg, name) : NULL;
    return v ? v : root_info(t, name);
}

static int topology_load(hwloc_topology_t *t, int io, char *err, size_t errlen)
{
    if (hwloc_topology_init(t) != 0) {
        snprintf(err, errlen, "hwloc_topology_init failed");
        return RB_EDEVICE;
    }
    /* I/O objects (PCI, OS devices such as GPUs) and instruction caches are
     * filtered out by default. */
    if (io) {
        hwloc_topology_set_io_types_filter(*t, HWLOC_TYPE_FILTER_KEEP_IMPORTANT);
        hwloc_topology_set_icache_types_filter(*t, HWLOC_TYPE_FILTER_KEEP_ALL);
    }
    if (hwloc_topology_load(*t) != 0) {
        snprintf(err, errlen, "hwloc_topology_load failed");
        hwloc_topology_destroy(*t);
        return RB_EDEVICE;
    }
    return 0;
}

static void set_str(json_t *o, const char *key, const char *v)
{
    json_object_set_new(o, key, v ? json_string(v) : json_null());
}

/* Integers from info strings ("6"), null when absent. */
static void set_int_info(json_t *o, const char *key, const char *v)
{
    char *end;
    long long n = v ? strtoll(v, &end, 10) : 0;
    json_object_set_new(o, key, v && end != v ? json_integer(n) : json_null());
}

static const char *cache_kind(hwloc_obj_cache_type_t type)
{
    switch (type) {
    case HWLOC_OBJ_CACHE_DATA: return "data";
    case HWLOC_OBJ_CACHE_INSTRUCTION: return "instruction";
    default: return "unified";
    }
}

/* One entry per distinct (level, kind, size, line, ways), with a count. */
static json_t *caches_summary(hwloc_topology_t t)
{
    static const hwloc_obj_type_t types[] = {
        HWLOC_OBJ_L1CACHE, HWLOC_OBJ_L1ICACHE, HWLOC_OBJ_L2CACHE, HWLOC_OBJ_L2ICACHE,
        HWLOC_OBJ_L3CACHE, HWLOC_OBJ_L3ICACHE, HWLOC_OBJ_L4CACHE, HWLOC_OBJ_L5CACHE,
    };
    json_t *list = json_array();
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++) {
        hwloc_obj_t o = NULL;
        while ((o = hwloc_get_next_obj_by_type(t, types[i], o)) != NULL) {
            const struct hwloc_cache_attr_s *a = &o->attr->cache;
            const char *kind = cache_kind(a->type);
            json_t *hit = NULL;
            size_t j;
            json_t *e;
            json_array_foreach(list, j, e) {
                if (json_integer_value(json_object_get(e, "level")) == (json_int_t)a->depth
                    && strcmp(json_string_value(json_object_get(e, "type")), kind) == 0
                    && json_integer_value(json_object_get(e, "size")) == (json_int_t)a->size
                    && json_integer_value(json_object_get(e, "line")) == a->linesize
                    && json_integer_value(json_object_get(e, "ways")) == a->associativity) {
                    hit = e;
                    break;
                }
            }
            if (hit) {
                json_int_t n = json_integer_value(json_object_get(hit, "count"));
                json_object_set_new(hit, "count", json_integer(n + 1));
                continue;
            }
            /* ways: 0 unknown, -1 fully associative (hwloc's convention). */
            json_array_append_new(list, json_pack("{s:I, s:s, s:I, s:i, s:i, s:i}",
                "level", (json_int_t)a->depth, "type", kind, "size", (json_int_t)a->size,
                "line", (int)a->linesize, "ways", a->associativity, "count", 1));
        }
    }
    return list;
}

/* The memory the kernel reports (MemTotal, through sysconf), beside
 * hwloc's count of its NUMA nodes: on virtual machines whose memory is
 * added while they run the two differ (hwloc saw 5.46 GiB of 24). */
static json_t *system_memory(void)
{
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);

    if (pages <= 0 || page <= 0)
        return json_null();
    return json_integer((json_int_t)pages * page);
}

static json_t *cpu_summary(hwloc_topology_t t)
{
    json_t *cpu = json_object();
    set_str(cpu, "model", cpu_info(t, "CPUModel"));
    set_str(cpu, "vendor", cpu_info(t, "CPUVendor"));
    /* VMs may report generic model strings: the numbers still tell. */
    set_int_info(cpu, "family", cpu_info(t, "CPUFamilyNumber"));
    set_int_info(cpu, "model_number", cpu_info(t, "CPUModelNumber"));
    set_int_info(cpu, "stepping", cpu_info(t, "CPUStepping"));
    json_object_set_new(cpu, "packages",
                        json_integer(hwloc_get_nbobjs_by_type(t, HWLOC_OBJ_PACKAGE)));
    json_object_set_new(cpu, "cores", json_integer(hwloc_get_nbobjs_by_type(t, HWLOC_OBJ_CORE)));
    json_object_set_new(cpu, "pus", json_integer(hwloc_get_nbobjs_by_type(t, HWLOC_OBJ_PU)));
    json_object_set_new(cpu, "numa_nodes",
                        json_integer(hwloc_get_nbobjs_by_type(t, HWLOC_OBJ_NUMANODE)));
    json_object_set_new(cpu, "memory_bytes",
                        json_integer((json_int_t)hwloc_get_root_obj(t)->total_memory));
    json_object_set_new(cpu, "system_memory_bytes", system_memory());
    json_object_set_new(cpu, "caches", caches_summary(t));
    return cpu;
}

json_t *rb_hw_summary(struct rb_ctx *ctx, char *err, size_t errlen)
{
    hwloc_topology_t t;
    if (topology_load(&t, 1, err, errlen))
        return NULL;
    json_t *s = json_object();
    set_str(s, "host", root_info(t, "HostName"));
    json_t *os = json_object();
    set_str(os, "name", root_info(t, "OSName"));
    set_str(os, "release", root_info(t, "OSRelease"));
    set_str(os, "version", root_info(t, "OSVersion"));
    set_str(os, "arch", root_info(t, "Architecture"));
    json_object_set_new(s, "os", os);
    /* The library's release; the API version (2.8.0 for hwloc 2.9) if absent. */
    const char *release = root_info(t, "hwlocVersion");
    unsigned api = hwloc_get_api_version();
    char version[32];
    snprintf(version, sizeof version, "%u.%u.%u", api >> 16, (api >> 8) & 0xff, api & 0xff);
    json_object_set_new(s, "hwloc", json_string(release ? release : version));
    json_object_set_new(s, "cpu", cpu_summary(t));
    hwloc_topology_destroy(t);

    json_t *devices = json_array();
    json_t *notes = json_array();
    rb_backend_devices(ctx, devices, notes);
    json_object_set_new(s, "devices", devices);
    json_object_set_new(s, "backends", notes);
    return s;
}

/* Exported to memory and written atomically: hwloc's own file export
 * neither checks its writes nor leaves a whole file on failure. */
int rb_hw_export_xml(const char *path, char *err, size_t errlen)
{
    hwloc_topology_t t;
    char *xml = NULL;
    int len = 0, rc;

    if (topology_load(&t, 1, err, errlen))
        return RB_EIO;
    if (hwloc_topology_export_xmlbuffer(t, &xml, &len, 0) != 0 || !xml || len < 1) {
        snprintf(err, errlen, "cannot export the hwloc topology for %s", path);
        hwloc_topology_destroy(t);
        return RB_EIO;
    }
    /* The length counts the terminating NUL. */
    rc = rb_atomic_write(path, xml, (size_t)len - (xml[len - 1] == '\0'), err, errlen);
    hwloc_free_xmlbuffer(t, xml);
    hwloc_topology_destroy(t);
    return rc;
}

unsigned long long rb_hw_host_memory(void)
{
    hwloc_topology_t t;
    char err[64];
    unsigned long long bytes = 0;
    if (topology_load(&t, 0, err, sizeof err) == 0) {
        bytes = hwloc_get_root_obj(t)->total_memory;
        hwloc_topology_destroy(t);
    }
    /* On virtual machines whose memory is added while they run, the NUMA
     * nodes hwloc reads can hold less than the kernel's total: take the
     * larger. */
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
    if (pages > 0 && page > 0 && (unsigned long long)pages * (unsigned long long)page > bytes)
        bytes = (unsigned long long)pages * (unsigned long long)page;
    return bytes;
}

/* "32 KiB", "1 MiB", "7.8 GiB": exact for powers of two, one decimal else. */
static const char *fmt_bytes(char *buf, size_t len, long long n)
{
    static const char *const units[] = { "B", "KiB", "MiB", "GiB", "TiB" };
    double v = (double)n;
    int u = 0;
    while (v >= 1024 && u < 4) {
        v /= 1024;
        u++;
    }
    if (v == (long long)v)
        snprintf(buf, len, "%lld %s", (long long)v, units[u]);
    else
        snprintf(buf, len, "%.1f %s", v, units[u]);
    return buf;
}

static const char *jstr(const json_t *o, const char *key, const char *dflt)
{
    const char *s = json_string_value(json_object_get(o, key));
    return s ? s : dflt;
}

static long long jint(const json_t *o, const char *key)
{
    const json_t *v = json_object_get(o, key);
    return json_is_integer(v) ? (long long)json_integer_value(v) : -1;
}

static void print_cpu(FILE *f, const json_t *cpu)
{
    char b[32];
    fprintf(f, "cpu      %s (%s", jstr(cpu, "model", "unknown model"),
            jstr(cpu, "vendor", "unknown vendor"));
    if (jint(cpu, "family") >= 0)
        fprintf(f, ", family %lld, model %lld, stepping %lld", jint(cpu, "family"),
                jint(cpu, "model_number"), jint(cpu, "stepping"));
    fprintf(f, ")\n         %lld package%s, %lld cores, %lld PUs, %lld NUMA node%s, %s memory",
            jint(cpu, "packages"), jint(cpu, "packages") == 1 ? "" : "s", jint(cpu, "cores"),
            jint(cpu, "pus"), jint(cpu, "numa_nodes"), jint(cpu, "numa_nodes") == 1 ? "" : "s",
            fmt_bytes(b, sizeof b, jint(cpu, "memory_bytes")));
    if (jint(cpu, "system_memory_bytes") > 0)
        fprintf(f, " (hwloc; the system reports %s)",
                fmt_bytes(b, sizeof b, jint(cpu, "system_memory_bytes")));
    fputc('\n', f);
    const char *lead = "caches   ";
    size_t i;
    const json_t *c;
    json_array_foreach(json_object_get(cpu, "caches"), i, c) {
        const char *type = jstr(c, "type", "unified");
        long long ways = jint(c, "ways");
        fprintf(f, "%sL%lld%s %s, %lld B lines, ", lead, jint(c, "level"),
                strcmp(type, "data") == 0 ? "d" : strcmp(type, "instruction") == 0 ? "i" : "",
                fmt_bytes(b, sizeof b, jint(c, "size")), jint(c, "line"));
        if (ways > 0)
            fprintf(f, "%lld-way", ways);
        else
            fprintf(f, "%s", ways < 0 ? "fully associative" : "ways unknown");
        fprintf(f, " x%lld\n", jint(c, "count"));
        lead = "         ";
    }
}

/* backend, index, name, then CC or version, SMs/CUs, memory, clocks. */
/* What the device's backend calls its compute units ("SMs"); "CUs" when it
 * does not say, or was not built in this binary. */
static const char *units_name(const char *backend)
{
    const struct rb_backend_ops *ops = NULL;
    enum rb_backend b;

    if (rb_backend_parse(backend, &b) == 0)
        ops = rb_registry_backend(b);
    return ops && ops->units_name ? ops->units_name : "CUs";
}

static void print_device(FILE *f, const char *lead, const json_t *d)
{
    char b[32];
    const char *backend = jstr(d, "backend", "?");
    fprintf(f, "%s%s ", lead, backend);
    if (json_object_get(d, "platform"))
        fprintf(f, "%lld.%lld", jint(d, "platform"), jint(d, "device"));
    else
        fprintf(f, "%lld", jint(d, "index"));
    fprintf(f, "  %s  ", jstr(d, "name", "unnamed"));
    if (json_object_get(d, "cc"))
        fprintf(f, "CC %s", jstr(d, "cc", "?"));
    else if (json_object_get(d, "arch"))
        fprintf(f, "%s", jstr(d, "arch", "?"));
    else
        fprintf(f, "%s", jstr(d, "version", "version unknown"));
    if (jint(d, "compute_units") >= 0)
        fprintf(f, ", %lld %s", jint(d, "compute_units"), units_name(backend));
    if (jint(d, "memory_bytes") >= 0)
        fprintf(f, ", %s", fmt_bytes(b, sizeof b, jint(d, "memory_bytes")));
    if (jint(d, "clock_mhz") > 0)
        fprintf(f, ", %lld MHz", jint(d, "clock_mhz"));
    if (jint(d, "memory_clock_mhz") > 0)
        fprintf(f, " (memory %lld MHz)", jint(d, "memory_clock_mhz"));
    fputc('\n', f);
}

void rb_hw_print(FILE *f, const json_t *summary)
{
    const json_t *os = json_object_get(summary, "os");
    fprintf(f, "host     %s (%s %s, %s), hwloc %s\n", jstr(summary, "host", "unknown"),
            jstr(os, "name", "?"), jstr(os, "release", "?"), jstr(os, "arch", "?"),
            jstr(summary, "hwloc", "?"));
    print_cpu(f, json_object_get(summary, "cpu"));
    const json_t *devices = json_object_get(summary, "devices");
    const char *lead = "devices  ";
    size_t i;
    const json_t *e;
    if (json_array_size(devices) == 0)
        fprintf(f, "%snone\n", lead);
    json_array_foreach(devices, i, e) {
        print_device(f, lead, e);
        lead = "         ";
    }
    lead = "notes    ";
    json_array_foreach(json_object_get(summary, "backends"), i, e) {
        fprintf(f, "%s%s\n", lead, json_string_value(e));
        lead = "         ";
    }
}
