/* SPDX-License-Identifier: MIT */
/* A run's plan kept in meta.json and read back: every field is checked as
 * strictly as the command line checks the option it came from, since a
 * resumed run trusts it as if it had been typed. */
#include <stdlib.h>
#include <string.h>

#include "harness/backend/backend.h"
#include "harness/error.h"
#include "harness/records/json_build.h"
#include "harness/run/plan.h"
#include "harness/registry.h"
#include "harness/records/results.h"

static const char *const preset_names[] = {
    [RB_PRESET_DEFAULT] = "default", [RB_PRESET_QUICK] = "quick", [RB_PRESET_PAPER] = "paper",
};

void rb_plan_spec_init(struct rb_plan_spec *p)
{
    memset(p, 0, sizeof *p);
    rb_policy_default(&p->policy);
    rb_device_picks_default(p->device);
}

void rb_plan_spec_free(struct rb_plan_spec *p)
{
    json_decref(p->owner);
    p->owner = NULL;
}

static json_t *str_or_null(const char *s)
{
    return s ? json_string(s) : json_null();
}

/* The set bits of mask as backend or precision names; null for none
 * (everything). */
static json_t *names_json(unsigned mask, int backends)
{
    json_t *a;

    if (!mask)
        return json_null();
    if (!(a = json_array()))
        return NULL;
    for (unsigned b = 0; b < (backends ? RB_BACKEND_COUNT : 2u); b++) {
        const char *name = backends ? rb_backend_name((enum rb_backend)b)
                                    : rb_prec_name((enum rb_prec)(1u << b));
        if (mask & (1u << b) && json_array_append_new(a, json_string(name)) < 0) {
            json_decref(a);
            return NULL;
        }
    }
    return a;
}

static json_t *axes_json(const struct rb_sweep_opts *w)
{
    json_t *o = json_object();
    int bad = !o;

    for (size_t i = 0; o && i < w->noverrides; i++) {
        json_t *vals = json_array();
        for (size_t k = 0; vals && k < w->overrides[i].n; k++)
            if (json_array_append_new(vals, json_integer(w->overrides[i].v[k])) < 0)
                bad = 1;
        rb_json_put(o, w->overrides[i].name, vals, &bad);
    }
    return rb_json_finish(o, bad);
}

json_t *rb_plan_json(const struct rb_plan_spec *p)
{
    const struct rb_sweep_opts *w = &p->sweep;
    json_t *j = json_object();
    int bad = !j;

    if (!j)
        return NULL;
    rb_json_put(j, "version", json_integer(RB_PLAN_VERSION), &bad);
    rb_json_put(j, "paper", str_or_null(w->paper), &bad);
    rb_json_put(j, "algo", str_or_null(w->algo), &bad);
    rb_json_put(j, "variant", str_or_null(w->variant), &bad);
    rb_json_put(j, "backend", names_json(w->backends, 1), &bad);
    rb_json_put(j, "prec", names_json(w->precs, 0), &bad);
    rb_json_put(j, "preset", json_string(preset_names[w->preset]), &bad);
    rb_json_put(j, "axes", axes_json(w), &bad);
    rb_json_put(j, "warmup", json_integer(p->policy.warmup), &bad);
    rb_json_put(j, "min_samples", json_integer((json_int_t)p->policy.min_samples), &bad);
    rb_json_put(j, "max_samples", json_integer((json_int_t)p->policy.max_samples), &bad);
    rb_json_put(j, "min_time_s", json_real(p->policy.min_time_s), &bad);
    rb_json_put(j, "max_time_s", json_real(p->policy.max_time_s), &bad);
    rb_json_put(j, "seed", rb_json_seed(p->seed), &bad);
    char picks[256];
    rb_device_format(p->device, picks, sizeof picks);
    rb_json_put(j, "device", str_or_null(picks[0] ? picks : NULL), &bad);
    rb_json_put(j, "cl_dir", str_or_null(p->cl_dir), &bad);
    if (p->devices)
        rb_json_put(j, "devices", json_string(p->devices), &bad);
    return rb_json_finish(j, bad);
}

/* Readers of one field each: 0, or -1 when it has the wrong type. */
static int get_str(const json_t *j, const char *key, const char **out)
{
    const json_t *v = json_object_get(j, key);

    *out = json_is_string(v) && json_string_length(v) ? json_string_value(v) : NULL;
    return *out || json_is_null(v) ? 0 : -1;
}

static int get_int(const json_t *j, const char *key, long long lo, long long hi, long long *out)
{
    const json_t *v = json_object_get(j, key);

    if (!json_is_integer(v) || json_integer_value(v) < lo || json_integer_value(v) > hi)
        return -1;
    *out = json_integer_value(v);
    return 0;
}

static int get_index(const json_t *j, const char *key, int *out)
{
    long long v = -1;

    if (json_is_null(json_object_get(j, key))) {
        *out = -1;
        return 0;
    }
    if (get_int(j, key, 0, 64, &v) < 0)
        return -1;
    *out = (int)v;
    return 0;
}

/* Plans stored before --device kept one index per backend under these
 * keys; they are read as the picks they were. */
static const struct {
    const char *key;
    enum rb_backend backend;
    int platform;               /* 1: the key is the platform's, 0: the device's */
} legacy_picks[] = {
    { "cl_platform", RB_BACKEND_OPENCL, 1 },
    { "cl_device", RB_BACKEND_OPENCL, 0 },
    { "cuda_device", RB_BACKEND_CUDA, 0 },
    { "hip_device", RB_BACKEND_HIP, 0 },
};

/* The plan's device picks: "device" ("cuda:1,opencl:0:1", as --device
 * takes it) or null, or an older plan's indices. */
static int get_device(const json_t *j, struct rb_device_pick pick[RB_BACKEND_COUNT])
{
    const json_t *d = json_object_get(j, "device");
    char err[256];

    rb_device_picks_default(pick);
    if (json_is_string(d))
        return rb_device_parse(json_string_value(d), pick, err, sizeof err) ? -1 : 0;
    if (d)
        return json_is_null(d) ? 0 : -1;
    for (size_t k = 0; k < sizeof legacy_picks / sizeof *legacy_picks; k++) {
        int v;
        if (get_index(j, legacy_picks[k].key, &v) < 0)
            return -1;
        int *to = legacy_picks[k].platform ? &pick[legacy_picks[k].backend].platform
                                           : &pick[legacy_picks[k].backend].index;
        *to = v;
    }
    return 0;
}

static int get_seconds(const json_t *j, const char *key, double *out)
{
    const json_t *v = json_object_get(j, key);

    if (!json_is_number(v) || !(json_number_value(v) > 0) || json_number_value(v) > 1e6)
        return -1;
    *out = json_number_value(v);
    return 0;
}

static int get_names(const json_t *j, const char *key, int backends, unsigned *mask)
{
    const json_t *a = json_object_get(j, key), *v;
    size_t i;

    *mask = 0;
    if (json_is_null(a))
        return 0;
    if (!json_is_array(a) || json_array_size(a) == 0)
        return -1;
    json_array_foreach(a, i, v) {
        const char *s = json_string_value(v);
        enum rb_backend b;

        if (!s)
            return -1;
        if (backends && rb_backend_parse(s, &b) == 0 && rb_registry_backend_built(b))
            *mask |= 1u << b;
        else if (!backends && (strcmp(s, "f32") == 0 || strcmp(s, "f64") == 0))
            *mask |= strcmp(s, "f32") == 0 ? RB_PREC_F32 : RB_PREC_F64;
        else
            return -1;
    }
    return 0;
}

static int get_axes(const json_t *j, struct rb_sweep_opts *w)
{
    const json_t *axes = json_object_get(j, "axes"), *vals, *v;
    const char *name;
    size_t k;

    if (!json_is_object(axes) || json_object_size(axes) > RB_MAX_OVERRIDES)
        return -1;
    json_object_foreach((json_t *)axes, name, vals) {
        const struct rb_axis *a = rb_registry_axis(name);
        struct rb_axis_values *av = &w->overrides[w->noverrides];
        long long lo, hi;

        if (!a || rb_registry_axis_range(name, &lo, &hi) || !json_is_array(vals)
            || json_array_size(vals) == 0 || json_array_size(vals) > RB_MAX_VALUES)
            return -1;
        json_array_foreach(vals, k, v) {
            if (!json_is_integer(v) || json_integer_value(v) < lo || json_integer_value(v) > hi)
                return -1;
            av->v[k] = json_integer_value(v);
        }
        av->name = a->name;
        av->n = json_array_size(vals);
        w->noverrides++;
    }
    return 0;
}

int rb_plan_from_json(json_t *j, struct rb_plan_spec *p, char *err, size_t errlen)
{
    const char *preset = json_string_value(json_object_get(j, "preset")), *bad = NULL;
    long long warmup = 0, mins = 0, maxs = 0, version = 0;
    json_t *seed = json_object_get(j, "seed");

    rb_plan_spec_init(p);
    if (!json_is_object(j))
        bad = "not an object";
    else if (get_int(j, "version", 1, RB_PLAN_VERSION, &version) < 0)
        bad = "version";
    else if (get_str(j, "paper", &p->sweep.paper) < 0)
        bad = "paper";
    else if (get_str(j, "algo", &p->sweep.algo) < 0)
        bad = "algo";
    else if (get_str(j, "variant", &p->sweep.variant) < 0)
        bad = "variant";
    else if (get_names(j, "backend", 1, &p->sweep.backends) < 0)
        bad = "backend (or one not built into this binary)";
    else if (get_names(j, "prec", 0, &p->sweep.precs) < 0)
        bad = "prec";
    else if (!preset || !(strcmp(preset, "default") == 0 || strcmp(preset, "quick") == 0
                          || strcmp(preset, "paper") == 0))
        bad = "preset";
    else if (get_axes(j, &p->sweep) < 0)
        bad = "axes";
    else if (get_int(j, "warmup", 1, 1000, &warmup) < 0
             || get_int(j, "min_samples", 1, 1000000, &mins) < 0
             || get_int(j, "max_samples", mins, 1000000, &maxs) < 0
             || get_seconds(j, "min_time_s", &p->policy.min_time_s) < 0
             || get_seconds(j, "max_time_s", &p->policy.max_time_s) < 0)
        bad = "the measurement policy";
    else if (!json_is_integer(seed) || json_integer_value(seed) < 0)
        bad = "seed";
    else if (get_device(j, p->device) < 0 || get_str(j, "cl_dir", &p->cl_dir) < 0
             || (json_object_get(j, "devices") && get_str(j, "devices", &p->devices) < 0))
        bad = "the devices";
    if (bad) {
        snprintf(err, errlen, "its stored plan is malformed: %s", bad);
        rb_plan_spec_init(p);
        return RB_EINVAL;
    }
    p->sweep.preset = strcmp(preset, "quick") == 0 ? RB_PRESET_QUICK
                      : strcmp(preset, "paper") == 0 ? RB_PRESET_PAPER : RB_PRESET_DEFAULT;
    p->policy.warmup = (int)warmup;
    p->policy.min_samples = (size_t)mins;
    p->policy.max_samples = (size_t)maxs;
    p->seed = (uint64_t)json_integer_value(seed);
    p->owner = json_incref(j);
    return 0;
}

int rb_plan_store(const char *run_dir, const struct rb_plan_spec *p, char *err, size_t errlen)
{
    json_t *j = rb_plan_json(p);

    if (!j) {
        snprintf(err, errlen, "meta.json: out of memory");
        return RB_ENOMEM;
    }
    return rb_meta_set(run_dir, "plan", j, err, errlen);
}
