/* SPDX-License-Identifier: MIT */
/* A record's clocks, power, energy and throttle fields (schema 2): written
 * from the case's observation, and read back for records.tsv, compare and
 * the report. */
#include <math.h>
#include <string.h>

#include "harness/backend/nvml.h"
#include "harness/records/json_build.h"
#include "harness/records/record.h"

static json_t *real_or_null(double x)
{
    return isfinite(x) ? json_real(x) : json_null();
}

static json_t *mhz_or_null(unsigned mhz)
{
    return mhz ? json_integer(mhz) : json_null();
}

/* Names and reasons come from the driver, dlerror() and paths, which need
 * not be UTF-8: jansson refuses those, so bytes above ASCII become '?'
 * rather than losing the record. */
static json_t *text(const char *s)
{
    char buf[512];
    json_t *j = json_string(s);
    size_t i;

    if (j)
        return j;
    for (i = 0; s[i] && i + 1 < sizeof buf; i++)
        buf[i] = (unsigned char)s[i] < 0x80 ? s[i] : '?';
    buf[i] = '\0';
    return json_string(buf);
}

static json_t *str_or_null(const char *s)
{
    return s && *s ? text(s) : json_null();
}

/* The window's energy, its mean power, and each timed sample's share of
 * the energy: the short gaps between samples (the host's launch and these
 * reads) are part of what running the case repeatedly costs. */
static void put_energy(json_t *o, double joules, double window_s,
                       const struct rb_measurement *m, int *bad)
{
    double watts = window_s > 0 ? joules / window_s : NAN;

    rb_json_put(o, "window_s", real_or_null(window_s), bad);
    rb_json_put(o, "energy_j", real_or_null(joules), bad);
    rb_json_put(o, "power_w", real_or_null(watts), bad);
    rb_json_put(o, "energy_per_run_j", real_or_null(m->n ? joules / (double)m->n : NAN), bad);
}

static json_t *start_end(unsigned start, unsigned end)
{
    return json_pack("{soso}", "start", mhz_or_null(start), "end", mhz_or_null(end));
}

static json_t *reasons_json(unsigned long long reasons)
{
    char names[256];
    json_t *a = json_array();

    rb_nvml_reason_names(reasons, names, sizeof names);
    for (char *save = NULL, *t = strtok_r(names, ",", &save); a && t;
         t = strtok_r(NULL, ",", &save))
        if (json_array_append_new(a, json_string(t)) < 0) {
            json_decref(a);
            return NULL;
        }
    return a;
}

static json_t *gpu_json(const struct rb_measurement *m)
{
    const struct rb_observation *ob = &m->obs;
    const struct rb_gpu_watch *g = &ob->gpu;
    json_t *o = json_object();
    int bad = 0;

    if (!o)
        return NULL;
    rb_json_put(o, "available", json_boolean(g->available), &bad);
    if (!g->available) {
        rb_json_put(o, "reason", text(g->why[0] ? g->why : "not watched"), &bad);
        return rb_json_finish(o, bad);
    }
    rb_json_put(o, "source", text(g->source), &bad);
    rb_json_put(o, "pci_bus_id", str_or_null(g->pci_bus_id), &bad);
    rb_json_put(o, "name", str_or_null(g->name), &bad);
    json_t *sm = start_end(g->sm_start, g->sm_end);
    if (sm)
        rb_json_put(sm, "min", mhz_or_null(g->sm_min), &bad);
    rb_json_put(o, "sm_mhz", sm, &bad);
    rb_json_put(o, "mem_mhz", start_end(g->mem_start, g->mem_end), &bad);
    rb_json_put(o, "temp_c", json_pack("{soso}",
                                       "start", g->temp_start >= 0 ? json_integer(g->temp_start)
                                                                   : json_null(),
                                       "end", g->temp_end >= 0 ? json_integer(g->temp_end)
                                                               : json_null()), &bad);
    put_energy(o, g->energy_j, ob->window_s, m, &bad);
    rb_json_put(o, "energy_method", str_or_null(g->energy_method), &bad);
    rb_json_put(o, "energy_steps", g->energy_steps >= 0 ? json_integer(g->energy_steps)
                                                       : json_null(), &bad);
    rb_json_put(o, "energy_coarse", json_boolean(g->energy_steps >= 0
                                                 && g->energy_steps < RB_ENERGY_MIN_STEPS),
                &bad);
    rb_json_put(o, "threshold", json_real(g->threshold), &bad);
    rb_json_put(o, "throttled", json_boolean(ob->nthrottled > 0), &bad);
    rb_json_put(o, "throttle_reasons", reasons_json(g->reasons), &bad);
    rb_json_put(o, "throttle_reason", str_or_null(g->throttle_reason), &bad);
    rb_json_put(o, "error", str_or_null(g->error), &bad);
    return rb_json_finish(o, bad);
}

static json_t *cpu_json(const struct rb_measurement *m)
{
    const struct rb_cpu_watch *cw = &m->obs.cpu;
    json_t *o = json_object(), *e = json_object();
    int bad = 0;

    if (!o || !e) {
        json_decref(o);
        json_decref(e);
        return NULL;
    }
    rb_json_put(o, "governor", str_or_null(cw->governor), &bad);
    rb_json_put(o, "governor_reason", cw->governor[0] ? json_null()
                : text(cw->governor_why[0] ? cw->governor_why : "not read"), &bad);
    rb_json_put(e, "available", json_boolean(cw->energy_available), &bad);
    if (cw->energy_available) {
        rb_json_put(e, "source", json_string("powercap"), &bad);
        rb_json_put(e, "zones", str_or_null(cw->zones), &bad);
        put_energy(e, cw->energy_j, m->obs.window_s, m, &bad);
    } else {
        rb_json_put(e, "reason", text(cw->energy_why[0] ? cw->energy_why : "not read"), &bad);
    }
    rb_json_put(o, "energy", e, &bad);
    return rb_json_finish(o, bad);
}

json_t *rb_record_gpu_json(const struct rb_measurement *m)
{
    return m && m->n ? gpu_json(m) : json_null();
}

json_t *rb_record_cpu_json(const struct rb_measurement *m)
{
    return m && m->n ? cpu_json(m) : json_null();
}

json_t *rb_record_throttled_samples_json(const struct rb_measurement *m)
{
    json_t *a = json_array();

    for (size_t i = 0; a && m && m->obs.throttled && i < m->n && i < m->obs.cap; i++)
        if (m->obs.throttled[i] && json_array_append_new(a, json_integer((json_int_t)i)) < 0) {
            json_decref(a);
            return NULL;
        }
    return a;
}

static double number(const json_t *v)
{
    return json_is_number(v) ? json_number_value(v) : NAN;
}

void rb_record_energy(const json_t *rec, struct rb_rec_energy *e)
{
    const json_t *gpu = json_object_get(rec, "gpu");
    const json_t *cpu_e = json_object_get(json_object_get(rec, "cpu"), "energy");
    const json_t *sm = json_object_get(gpu, "sm_mhz");
    const char *backend = json_string_value(json_object_get(rec, "backend"));
    int cpu_case = backend && (!strcmp(backend, "serial") || !strcmp(backend, "omp"));

    memset(e, 0, sizeof *e);
    e->joules = e->watts = e->sm_start = e->sm_end = NAN;
    e->throttled = -1;
    if (json_is_true(json_object_get(gpu, "available"))) {
        e->source = "nvml";
        e->method = json_string_value(json_object_get(gpu, "energy_method"));
        e->joules = number(json_object_get(gpu, "energy_per_run_j"));
        e->watts = number(json_object_get(gpu, "power_w"));
        e->sm_start = number(json_object_get(sm, "start"));
        e->sm_end = number(json_object_get(sm, "end"));
        e->throttled = json_is_true(json_object_get(gpu, "throttled"));
        e->reason = json_string_value(json_object_get(gpu, "throttle_reason"));
        e->coarse = json_is_true(json_object_get(gpu, "energy_coarse"));
        if (!isfinite(e->joules))
            e->why = json_string_value(json_object_get(gpu, "error"));
    } else if (cpu_case && json_is_true(json_object_get(cpu_e, "available"))) {
        e->source = "rapl";
        e->method = "powercap";
        e->joules = number(json_object_get(cpu_e, "energy_per_run_j"));
        e->watts = number(json_object_get(cpu_e, "power_w"));
    } else {
        e->why = json_string_value(json_object_get(cpu_case ? cpu_e : gpu, "reason"));
    }
    if (!isfinite(e->joules) && !e->why)
        e->why = json_is_object(gpu) ? "no energy reading"
                 : "no energy fields (not measured, or a schema 1 record)";
}
