/* SPDX-License-Identifier: MIT */
/* A paper's part of the report: its figures, the best configuration of
 * every variant at every size, and the cases that did not succeed. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/paper.h"
#include "harness/report/report.h"

/* What a row of the best-configuration table is made from. */
struct best_row {
    const json_t *rec;
    double base_median;         /* the group's fastest baseline, NAN if none */
    const json_t *ceiling;      /* meta.json's ceilings of its backend, or NULL */
};

typedef void cell_fn(const struct best_row *r, char *buf, size_t len);

static void cell_algo(const struct best_row *r, char *buf, size_t len)
{
    snprintf(buf, len, "%s", rb_rec_str(r->rec, "algo"));
}

static void cell_variant(const struct best_row *r, char *buf, size_t len)
{
    snprintf(buf, len, "%s%s", rb_rec_str(r->rec, "variant"),
             json_is_true(json_object_get(r->rec, "baseline")) ? " (baseline)" : "");
}

static void cell_backend(const struct best_row *r, char *buf, size_t len)
{
    snprintf(buf, len, "%s", rb_rec_str(r->rec, "backend"));
}

static void cell_prec(const struct best_row *r, char *buf, size_t len)
{
    snprintf(buf, len, "%s", rb_rec_str(r->rec, "prec"));
}

static void cell_sizes(const struct best_row *r, char *buf, size_t len)
{
    rb_axes_label(json_object_get(r->rec, "sizes"), buf, len);
}

static void cell_tunables(const struct best_row *r, char *buf, size_t len)
{
    rb_axes_label(json_object_get(r->rec, "tunables"), buf, len);
}

static void cell_median(const struct best_row *r, char *buf, size_t len)
{
    rb_ms_label(rb_rec_median(r->rec), buf, len);
}

static double stat(const json_t *rec, const char *name)
{
    const json_t *v = json_object_get(json_object_get(rec, "stats"), name);

    return json_is_number(v) ? json_number_value(v) : NAN;
}

static void cell_spread(const struct best_row *r, char *buf, size_t len)
{
    char lo[32], hi[32];

    rb_ms_label(stat(r->rec, "p10"), lo, sizeof lo);
    rb_ms_label(stat(r->rec, "p90"), hi, sizeof hi);
    snprintf(buf, len, "%s - %s", lo, hi);
}

static void cell_samples(const struct best_row *r, char *buf, size_t len)
{
    snprintf(buf, len, "%zu", json_array_size(json_object_get(r->rec, "samples_ms")));
}

static void cell_speedup(const struct best_row *r, char *buf, size_t len)
{
    double s = r->base_median / rb_rec_median(r->rec);

    if (isfinite(s))
        snprintf(buf, len, "%.3gx", s);
    else
        snprintf(buf, len, "-");
}

/* Each kernel's occupancy, as the backend reported it. */
static void cell_occupancy(const struct best_row *r, char *buf, size_t len)
{
    const json_t *occ = json_object_get(r->rec, "occupancy"), *k;
    size_t i, at = 0;

    buf[0] = '\0';
    if (!json_is_true(json_object_get(occ, "available"))) {
        snprintf(buf, len, "-");
        return;
    }
    json_array_foreach(json_object_get(occ, "kernels"), i, k) {
        const json_t *o = json_object_get(k, "occupancy");
        int n = snprintf(buf + at, len - at, "%s%s ", at ? ", " : "", rb_rec_str(k, "kernel"));
        if (n < 0 || (size_t)n >= len - at)
            return;
        at += (size_t)n;
        if (!json_is_number(o))
            n = snprintf(buf + at, len - at, "n/a");
        else if (*rb_rec_str(k, "limiter"))
            n = snprintf(buf + at, len - at, "%.0f%% (%s)", 100 * json_number_value(o),
                         rb_rec_str(k, "limiter"));
        else
            n = snprintf(buf + at, len - at, "%.0f%%", 100 * json_number_value(o));
        if (n < 0 || (size_t)n >= len - at)
            return;
        at += (size_t)n;
    }
}

/* The achieved rate against the roofline of the record's backend: the
 * attainable rate at its intensity is min(peak of its precision, intensity
 * x copy bandwidth), both probed at the start of the run. */
static void cell_roofline(const struct best_row *r, char *buf, size_t len)
{
    const json_t *work = json_object_get(r->rec, "work");
    const char *prec = rb_rec_str(r->rec, "prec");
    double gflops = json_number_value(json_object_get(work, "gflops"));
    double ai = json_number_value(json_object_get(work, "intensity"));
    double bw = json_number_value(json_object_get(r->ceiling, "copy_gbytes_per_s"));
    double peak = json_number_value(json_object_get(
        r->ceiling, strcmp(prec, "f64") == 0 ? "fp64_gflops" : "fp32_gflops"));
    double roof = ai * bw < peak ? ai * bw : peak;

    if (!json_is_object(work) || !(gflops > 0))
        snprintf(buf, len, "-");
    else if (!(roof > 0))
        snprintf(buf, len, "%.3g GFLOP/s (no ceiling probed)", gflops);
    else
        snprintf(buf, len, "%.3g GFLOP/s, %.0f%% of %.3g (%s)", gflops, 100 * gflops / roof,
                 roof, ai * bw < peak ? "memory" : "arithmetic");
}

static void cell_verified(const struct best_row *r, char *buf, size_t len)
{
    const json_t *v = json_object_get(r->rec, "verify");

    if (!json_is_object(v))
        snprintf(buf, len, "not checked");
    else
        snprintf(buf, len, "%s (error %.2g, tolerance %.2g)",
                 json_is_true(json_object_get(v, "pass")) ? "yes" : "NO",
                 json_number_value(json_object_get(v, "error")),
                 json_number_value(json_object_get(v, "tolerance")));
}

/* The columns of the best-configuration table, in order: a new column is
 * one line here. */
static const struct {
    const char *head;
    cell_fn *cell;
} best_columns[] = {
    { "algo",               cell_algo },
    { "variant",            cell_variant },
    { "backend",            cell_backend },
    { "prec",               cell_prec },
    { "size",               cell_sizes },
    { "best setting",       cell_tunables },
    { "median ms",          cell_median },
    { "p10 - p90 ms",       cell_spread },
    { "samples",            cell_samples },
    { "over baseline",      cell_speedup },
    { "occupancy",          cell_occupancy },
    { "of the roofline",    cell_roofline },
    { "verified",           cell_verified },
};
#define BEST_COLUMNS (sizeof best_columns / sizeof *best_columns)

/* Records of one series at one size share everything but their tunables. */
static int same_series(const json_t *a, const json_t *b)
{
    static const char *const keys[] = { "algo", "variant", "backend", "prec" };

    for (size_t i = 0; i < sizeof keys / sizeof *keys; i++)
        if (strcmp(rb_rec_str(a, keys[i]), rb_rec_str(b, keys[i])) != 0)
            return 0;
    return json_equal(json_object_get(a, "sizes"), json_object_get(b, "sizes"));
}

/* rec is the first of the fastest successful records of its series. */
static int is_fastest(const json_t *records, size_t at)
{
    const json_t *rec = json_array_get(records, at), *o;
    size_t i;

    if (!rb_rec_ok(rec))
        return 0;
    json_array_foreach(records, i, o) {
        if (i == at || !rb_rec_ok(o) || !same_series(rec, o))
            continue;
        if (rb_rec_median(o) < rb_rec_median(rec)
            || (rb_rec_median(o) == rb_rec_median(rec) && i < at))
            return 0;
    }
    return 1;
}

/* The smallest median among the baselines of rec's algo, prec and sizes:
 * as records.tsv's speedup column. */
static double baseline_median(const json_t *records, const json_t *rec)
{
    const json_t *o;
    double best = NAN;
    size_t i;

    json_array_foreach(records, i, o) {
        if (!json_is_true(json_object_get(o, "baseline")) || !rb_rec_ok(o)
            || strcmp(rb_rec_str(o, "algo"), rb_rec_str(rec, "algo"))
            || strcmp(rb_rec_str(o, "prec"), rb_rec_str(rec, "prec"))
            || !json_equal(json_object_get(o, "sizes"), json_object_get(rec, "sizes")))
            continue;
        if (!(rb_rec_median(o) >= best))
            best = rb_rec_median(o);
    }
    return best;
}

static void best_table(struct rb_doc *d, const json_t *records, const json_t *ceilings)
{
    const char *head[BEST_COLUMNS], *cells[BEST_COLUMNS];
    char text[BEST_COLUMNS][256];
    json_t *table;
    size_t i, c, rows = 0;

    for (c = 0; c < BEST_COLUMNS; c++) {
        head[c] = best_columns[c].head;
        cells[c] = text[c];
    }
    rb_doc_heading(d, 3, "Best configuration of each variant and size");
    rb_doc_para(d, "Of each variant, backend, precision and size, the record with the "
                "smallest median over its tunable settings (best.tsv holds the same rows). "
                "Spread: the 10th to 90th percentile of its samples. Over baseline: the "
                "baseline's median over this median at the same sizes. Occupancy: per "
                "kernel, as the backend computed it. Of the roofline: the achieved FP "
                "rate over the attainable min(peak, intensity x copy bandwidth) of the "
                "backend's ceilings probed at the start of the run (meta.json), and which "
                "of the two bounds it.");
    table = rb_doc_table(d, head, BEST_COLUMNS);
    for (i = 0; i < json_array_size(records); i++) {
        struct best_row r = { json_array_get(records, i), NAN, NULL };

        if (!is_fastest(records, i))
            continue;
        r.base_median = baseline_median(records, r.rec);
        r.ceiling = json_object_get(ceilings, rb_rec_str(r.rec, "backend"));
        for (c = 0; c < BEST_COLUMNS; c++)
            best_columns[c].cell(&r, text[c], sizeof text[c]);
        rb_doc_row(d, table, cells);
        rows++;
    }
    if (rows == 0)
        rb_doc_para(d, "No case of this paper succeeded in this run.");
}

/* Cases not ok, grouped by series, status and message: a backend with no
 * device skips every case for one reason. */
static void not_ok_table(struct rb_doc *d, const json_t *records)
{
    static const char *const head[] = {
        "algo", "variant", "backend", "prec", "status", "stage", "cases", "message",
    };
    static const char *const keys[] = { "algo", "variant", "backend", "prec", "status",
                                        "stage", "message" };
    json_t *groups = json_array(), *rec, *g, *table;
    size_t i, j;

    json_array_foreach(records, i, rec) {
        int found = 0;
        if (rb_rec_ok(rec))
            continue;
        json_array_foreach(groups, j, g) {
            const json_t *first = json_array_get(g, 0);
            size_t k = 0;
            while (k < 7 && strcmp(rb_rec_str(first, keys[k]), rb_rec_str(rec, keys[k])) == 0)
                k++;
            if (k == 7 && json_array_append((json_t *)g, rec) == 0) {
                found = 1;
                break;
            }
        }
        if (!found && json_array_append_new(groups, json_pack("[O]", rec)) < 0)
            d->bad = 1;
    }
    if (json_array_size(groups) == 0)
        goto out_free_groups;
    rb_doc_heading(d, 3, "Cases that did not succeed");
    table = rb_doc_table(d, head, sizeof head / sizeof *head);
    json_array_foreach(groups, i, g) {
        const json_t *first = json_array_get(g, 0);
        const char *status = rb_rec_str(first, "status");
        char count[32];

        snprintf(count, sizeof count, "%zu", json_array_size(g));
        if (strcmp(status, "ok") == 0)
            status = "ok, failed verification";
        rb_doc_row(d, table, (const char *const[]){ rb_rec_str(first, "algo"),
                   rb_rec_str(first, "variant"), rb_rec_str(first, "backend"),
                   rb_rec_str(first, "prec"), status, rb_rec_str(first, "stage"), count,
                   rb_rec_str(first, "message") });
    }
out_free_groups:
    json_decref(groups);
}

/* The k-th figure caption over every paper's (each paper's own table, in
 * the papers' order), or NULL past the last. */
static const struct rb_caption *caption_at(size_t k)
{
    const struct rb_paper *p;

    for (size_t i = 0; (p = rb_registry_paper(i)); i++)
        for (const struct rb_caption *c = p->captions; c->figure; c++)
            if (k-- == 0)
                return c;
    return NULL;
}

/* The index of a figure's caption, or that of the end when it has none. */
static size_t caption_of(const char *file)
{
    size_t n = strcspn(file, "."), i;
    const struct rb_caption *c;

    for (i = 0; (c = caption_at(i)); i++)
        if (strlen(c->figure) == n && strncmp(c->figure, file, n) == 0)
            break;
    return i;
}

/* Known figures in the order of the captions (the papers' order), then the
 * others in the order given. */
static void figures(struct rb_doc *d, const json_t *files)
{
    const json_t *f;
    size_t i, last = caption_of("");  /* the end: no caption matches "" */

    for (size_t c = 0; c <= last; c++) {
        json_array_foreach(files, i, f) {
            const char *name = json_string_value(f);
            if (caption_of(name) == c)
                rb_doc_image(d, name, c < last ? caption_at(c)->caption : name);
        }
    }
    if (json_array_size(files) == 0)
        rb_doc_para(d, "No figure: the plots were not drawn (gnuplot missing, or "
                    "--no-plot before any plot was drawn).");
}

void rb_report_paper(struct rb_doc *d, const char *paper, const json_t *records,
                     const json_t *files, const json_t *meta)
{
    json_t *mine = json_array(), *rec;
    size_t i, ok = 0;

    json_array_foreach(records, i, rec) {
        if (strcmp(rb_rec_str(rec, "paper"), paper) == 0) {
            json_array_append(mine, rec);
            ok += rb_rec_ok(rec);
        }
    }
    rb_doc_para(d, "%zu records, %zu of them successful and not failing verification.",
                json_array_size(mine), ok);
    figures(d, files);
    best_table(d, mine, json_object_get(meta, "ceilings"));
    not_ok_table(d, mine);
    json_decref(mine);
}
