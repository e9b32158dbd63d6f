/* SPDX-License-Identifier: MIT */
/* records.tsv: one row per record, columns by name for gnuplot, with each
 * record's speedup over its paper's baseline computed here once. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "harness/error.h"
#include "harness/records/record.h"

/* The per-record number columns after the axes, in order. */
static const char *const stat_columns[] = {
    "median_ms", "min_ms", "mean_ms", "stddev_ms", "p10_ms", "p90_ms",
};
static const char *const stat_keys[] = {
    "median", "min", "mean", "stddev", "p10", "p90",
};

/* The roofline's columns at the end of a row, from the record's "work". */
static const char *const work_columns[] = { "gflops", "gbps", "intensity" };
static const char *const work_keys[] = { "gflops", "gbytes_per_s", "intensity" };

void rb_tsv_put_text(FILE *f, const char *s)
{
    if (!s || !*s) {
        fputs("-", f);
        return;
    }
    for (; *s; s++)
        fputc(*s == '\t' || *s == '\n' || *s == '\r' ? ' ' : *s, f);
}

static void put_number(FILE *f, const json_t *v)
{
    if (json_is_integer(v))
        fprintf(f, "%lld", (long long)json_integer_value(v));
    else if (json_is_real(v) && isfinite(json_real_value(v)))
        fprintf(f, "%.10g", json_real_value(v));
    else
        fputs("NaN", f);
}

static void put_double(FILE *f, double x)
{
    if (isfinite(x))
        fprintf(f, "%.10g", x);
    else
        fputs("NaN", f);
}

static const char *field(const json_t *rec, const char *key)
{
    return json_string_value(json_object_get(rec, key));
}

static double median_of(const json_t *rec)
{
    const json_t *m = json_object_get(json_object_get(rec, "stats"), "median");

    return json_is_number(m) ? json_number_value(m) : NAN;
}

static int is_ok(const json_t *rec)
{
    const char *s = field(rec, "status");

    return s && strcmp(s, "ok") == 0;
}

/* Records compare with a baseline of the same paper, algo, precision and
 * sizes; tunables are what the speedup is about, so they do not count. */
static char *group_key(const json_t *rec)
{
    /* A record without sizes (edited by hand) groups as "null", so that NULL
     * below means out of memory only. */
    const json_t *size_obj = json_object_get(rec, "sizes");
    char *sizes = json_dumps(size_obj ? size_obj : json_null(),
                             JSON_COMPACT | JSON_SORT_KEYS | JSON_ENCODE_ANY);
    const char *paper = field(rec, "paper"), *algo = field(rec, "algo");
    const char *prec = field(rec, "prec");
    size_t len;
    char *key;

    if (!sizes)
        return NULL;
    len = strlen(paper ? paper : "") + strlen(algo ? algo : "") + strlen(prec ? prec : "")
          + strlen(sizes) + 8;
    if ((key = malloc(len)))
        snprintf(key, len, "%s\x1f%s\x1f%s\x1f%s", paper ? paper : "", algo ? algo : "",
                 prec ? prec : "", sizes);
    free(sizes);
    return key;
}

/* group key -> the smallest median among that group's successful baselines. */
static json_t *baseline_medians(const json_t *records)
{
    json_t *best = json_object(), *rec, *cur;
    size_t i;

    if (!best)
        return NULL;
    json_array_foreach(records, i, rec) {
        double med = median_of(rec);
        char *key;

        if (!json_is_true(json_object_get(rec, "baseline")) || !is_ok(rec) || !isfinite(med))
            continue;
        if (!(key = group_key(rec)))
            goto out_free_best;
        cur = json_object_get(best, key);
        if ((!cur || med < json_real_value(cur))
            && json_object_set_new(best, key, json_real(med)) < 0) {
            free(key);
            goto out_free_best;
        }
        free(key);
    }
    return best;
out_free_best:
    json_decref(best);
    return NULL;
}

/* The named columns in order of first appearance: every size, every
 * tunable, then every metric. */
static const char *const named_groups[] = { "sizes", "tunables", "metrics" };
#define NAMED_GROUPS (sizeof named_groups / sizeof *named_groups)

static json_t *axis_names(const json_t *records)
{
    json_t *names = json_array(), *seen = json_object(), *rec, *val;
    const char *name;
    size_t i;

    if (!names || !seen)
        goto out_free_both;
    for (size_t g = 0; g < NAMED_GROUPS; g++) {
        json_array_foreach(records, i, rec) {
            json_object_foreach(json_object_get(rec, named_groups[g]), name, val) {
                if (json_object_get(seen, name))
                    continue;
                if (json_object_set_new(seen, name, json_true()) < 0
                    || json_array_append_new(names, json_string(name)) < 0)
                    goto out_free_both;
            }
        }
    }
    json_decref(seen);
    return names;
out_free_both:
    json_decref(names);
    json_decref(seen);
    return NULL;
}

static const json_t *axis_value(const json_t *rec, const char *name)
{
    const json_t *v = NULL;

    for (size_t g = 0; g < NAMED_GROUPS && !v; g++)
        v = json_object_get(json_object_get(rec, named_groups[g]), name);
    return v;
}

static double speedup_of(const json_t *rec, const json_t *best)
{
    char *key;
    const json_t *base;
    double med = median_of(rec), s = NAN;

    if (!is_ok(rec) || !isfinite(med) || med <= 0 || !(key = group_key(rec)))
        return NAN;
    if ((base = json_object_get(best, key)))
        s = json_real_value(base) / med;
    free(key);
    return s;
}

/* The energy columns after the roofline's: joules and mean watts of one run
 * (rb_record_energy), GFLOP per joule from the work count, and 1/0 for a
 * throttled case (NaN when no GPU was watched). */
static void put_energy(FILE *f, const json_t *rec)
{
    const json_t *flops = json_object_get(json_object_get(rec, "work"), "flops");
    struct rb_rec_energy e;

    rb_record_energy(rec, &e);
    fputc('\t', f);
    put_double(f, e.joules);
    fputc('\t', f);
    put_double(f, e.watts);
    fputc('\t', f);
    put_double(f, json_is_number(flops) && e.joules > 0
               ? json_number_value(flops) * 1e-9 / e.joules : NAN);
    fputc('\t', f);
    put_double(f, e.throttled >= 0 ? e.throttled : NAN);
}

static void put_row(FILE *f, const json_t *rec, const json_t *names, const json_t *best)
{
    static const char *const text_columns[] = {
        "key", "paper", "algo", "variant", "backend", "prec", "device",
    };
    const json_t *stats = json_object_get(rec, "stats");
    const json_t *verify = json_object_get(rec, "verify");
    const json_t *occ = json_object_get(rec, "occupancy"), *name;
    const json_t *kernel0 = json_array_get(json_object_get(occ, "kernels"), 0);
    size_t i;

    for (i = 0; i < sizeof text_columns / sizeof *text_columns; i++) {
        rb_tsv_put_text(f, field(rec, text_columns[i]));
        fputc('\t', f);
    }
    fprintf(f, "%d\t", json_is_true(json_object_get(rec, "baseline")));
    rb_tsv_put_text(f, field(rec, "status"));
    json_array_foreach(names, i, name) {
        fputc('\t', f);
        put_number(f, axis_value(rec, json_string_value(name)));
    }
    for (i = 0; i < sizeof stat_keys / sizeof *stat_keys; i++) {
        fputc('\t', f);
        put_number(f, json_object_get(stats, stat_keys[i]));
    }
    fprintf(f, "\t%zu\t", json_array_size(json_object_get(rec, "samples_ms")));
    if (json_is_object(verify))
        fprintf(f, "%d", json_is_true(json_object_get(verify, "pass")));
    else
        fputs("NaN", f);
    fputc('\t', f);
    put_number(f, json_object_get(verify, "error"));
    fputc('\t', f);
    put_number(f, json_object_get(kernel0, "occupancy"));
    fputc('\t', f);
    put_double(f, speedup_of(rec, best));
    for (i = 0; i < sizeof work_keys / sizeof *work_keys; i++) {
        fputc('\t', f);
        put_number(f, json_object_get(json_object_get(rec, "work"), work_keys[i]));
    }
    put_energy(f, rec);
    fputc('\n', f);
}

/* A series at one size: everything of the key but the tunables. */
static char *series_key(const json_t *rec)
{
    char *group = group_key(rec), *key = NULL;
    const char *variant = field(rec, "variant"), *backend = field(rec, "backend");
    size_t len;

    if (!group)
        return NULL;
    len = strlen(group) + strlen(variant ? variant : "") + strlen(backend ? backend : "") + 4;
    if ((key = malloc(len)))
        snprintf(key, len, "%s\x1f%s\x1f%s", group, variant ? variant : "",
                 backend ? backend : "");
    free(group);
    return key;
}

/* series key -> index of the successful record with the smallest median. */
static json_t *fastest_settings(const json_t *records)
{
    json_t *fastest = json_object(), *rec;
    size_t i;

    if (!fastest)
        return NULL;
    json_array_foreach(records, i, rec) {
        double med = median_of(rec);
        const json_t *cur;
        char *key;

        if (!is_ok(rec) || !isfinite(med))
            continue;
        if (!(key = series_key(rec)))
            goto out_free_fastest;
        cur = json_object_get(fastest, key);
        if ((!cur || med < median_of(json_array_get(records, json_integer_value(cur))))
            && json_object_set_new(fastest, key, json_integer((json_int_t)i)) < 0) {
            free(key);
            goto out_free_fastest;
        }
        free(key);
    }
    return fastest;
out_free_fastest:
    json_decref(fastest);
    return NULL;
}

static int write_tsv(const json_t *records, FILE *f, int fastest_only)
{
    json_t *names = axis_names(records), *best = baseline_medians(records), *name;
    json_t *fastest = fastest_only ? fastest_settings(records) : NULL;
    const json_t *rec;
    size_t i;
    int status = 0;

    if (!names || !best || (fastest_only && !fastest)) {
        status = RB_ENOMEM;
        goto out_free;
    }
    fputs("key\tpaper\talgo\tvariant\tbackend\tprec\tdevice\tbaseline\tstatus", f);
    /* Names come from the file: one with a tab or newline must not split
     * the header. */
    json_array_foreach(names, i, name) {
        fputc('\t', f);
        rb_tsv_put_text(f, json_string_value(name));
    }
    for (i = 0; i < sizeof stat_columns / sizeof *stat_columns; i++)
        fprintf(f, "\t%s", stat_columns[i]);
    fputs("\tsamples\tverify_pass\tverify_error\toccupancy\tspeedup", f);
    for (i = 0; i < sizeof work_columns / sizeof *work_columns; i++)
        fprintf(f, "\t%s", work_columns[i]);
    fputs("\tenergy_j\tpower_w\tgflops_per_j\tthrottled", f);
    fputc('\n', f);
    json_array_foreach(records, i, rec) {
        if (fastest_only) {
            char *key = series_key(rec);
            const json_t *at = key ? json_object_get(fastest, key) : NULL;

            free(key);
            if (!at || (size_t)json_integer_value(at) != i)
                continue;
        }
        put_row(f, rec, names, best);
    }
    if (fflush(f) != 0 || ferror(f))
        status = RB_EIO;
out_free:
    json_decref(names);
    json_decref(best);
    json_decref(fastest);
    return status;
}

int rb_records_write_tsv(const json_t *records, FILE *f)
{
    return write_tsv(records, f, 0);
}

int rb_records_write_best_tsv(const json_t *records, FILE *f)
{
    return write_tsv(records, f, 1);
}
