/* SPDX-License-Identifier: MIT */
/* A comparison printed as an aligned text table, TSV, Markdown or JSON. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "harness/report/compare.h"
#include "harness/error.h"
#include "harness/records/json_build.h"

enum { COL_CASE, COL_A, COL_B, COL_RATIO, COL_CI, COL_VERDICT, NCOLS };

struct counts {
    size_t verdicts[RB_VERDICT_COUNT], not_compared, only_a, only_b;
};

static struct counts count_rows(const struct rb_comparison *cmp)
{
    struct counts k = { { 0 }, 0, 0, 0 };

    for (size_t i = 0; i < cmp->n; i++) {
        const struct rb_compare_row *r = &cmp->rows[i];
        if (!r->b)
            k.only_a++;
        else if (!r->a)
            k.only_b++;
        else if (!r->compared)
            k.not_compared++;
        else
            k.verdicts[r->r.verdict]++;
    }
    return k;
}

static const char *status_of(const json_t *rec)
{
    const char *s = json_string_value(json_object_get(rec, "status"));
    return s ? s : "no status";
}

static const char *metric_name(enum rb_compare_metric m)
{
    return m == RB_METRIC_MIN ? "min" : "median";
}

/* Times keep four significant digits, without an exponent below 10 s. */
static void format_ms(char *buf, size_t len, double ms)
{
    snprintf(buf, len, ms >= 1000 && ms < 1e9 ? "%.0f" : "%.4g", ms);
}

/* Non-finite values as C prints them ("inf", "nan"): they must show. */
static void format_ratio(char *buf, size_t len, double x)
{
    if (!isfinite(x))
        snprintf(buf, len, "%g", x);
    else
        snprintf(buf, len, x < 10 ? "%.3f" : x < 100 ? "%.2f" : x < 1e6 ? "%.1f" : "%.4g", x);
}

/* The statistic of a record for the table: the one compared when the row
 * was compared, else the record's own, "-" without one. */
static void format_side(char *buf, size_t len, const struct rb_compare_row *r, int b,
                        enum rb_compare_metric m)
{
    const json_t *rec = b ? r->b : r->a;
    const json_t *v = json_object_get(json_object_get(rec, "stats"), metric_name(m));

    if (r->compared)
        format_ms(buf, len, b ? r->r.b : r->r.a);
    else if (json_is_number(v))
        format_ms(buf, len, json_number_value(v));
    else
        snprintf(buf, len, "-");
}

/* The cells of a row of both runs, as text. */
static void row_cells(const struct rb_comparison *cmp, const struct rb_compare_row *r,
                      char cells[NCOLS][64])
{
    char lo[24], hi[24];

    cells[COL_CASE][0] = '\0';                  /* the label is printed from the row */
    format_side(cells[COL_A], 64, r, 0, cmp->opts.metric);
    format_side(cells[COL_B], 64, r, 1, cmp->opts.metric);
    if (!r->compared) {
        snprintf(cells[COL_RATIO], 64, "-");
        snprintf(cells[COL_CI], 64, "-");
        snprintf(cells[COL_VERDICT], 64, "%s", r->why);
        return;
    }
    format_ratio(cells[COL_RATIO], 64, r->r.ratio);
    format_ratio(lo, sizeof lo, r->r.lo);
    format_ratio(hi, sizeof hi, r->r.hi);
    snprintf(cells[COL_CI], 64, "[%s, %s]", lo, hi);
    snprintf(cells[COL_VERDICT], 64, "%s", rb_verdict_name(r->r.verdict));
}

static void print_header_lines(const struct rb_comparison *cmp, FILE *f, const char *prefix)
{
    fprintf(f, "%sA: %s (%zu records)\n", prefix, cmp->a_dir, json_array_size(cmp->a_records));
    fprintf(f, "%sB: %s (%zu records)\n", prefix, cmp->b_dir, json_array_size(cmp->b_records));
    fprintf(f, "%sB/A of the %s of samples_ms; %g%% interval: bootstrap, %d resamples; "
            "noise floor %.3g%%", prefix, metric_name(cmp->opts.metric), 100 * cmp->opts.level,
            cmp->opts.resamples, 100 * cmp->noise);
    if (!cmp->opts.noise_auto)
        fputs(" (--noise)\n", f);
    else if (!cmp->centred)
        fprintf(f, " (too few cases to measure the between-run spread)\n");
    else
        fprintf(f, " (the larger of %g%% and the between-run spread: %g x 1.4826 x the MAD "
                "of the cases' log B/A)\n", 100 * cmp->opts.noise, RB_COMPARE_SPREAD_Z);
    if (cmp->centred)
        fprintf(f, "%smedian B/A over the compared cases: %.3f; each verdict judges a case's "
                "B/A over it (a shift of the whole run is machine state or a change to "
                "every case: rerun to tell)\n", prefix, cmp->shift);
    else if (!isnan(cmp->shift))
        fprintf(f, "%smedian B/A over the compared cases: %.3f\n", prefix, cmp->shift);
}

static void print_summary(const struct rb_comparison *cmp, FILE *f, int md)
{
    struct counts k = count_rows(cmp);
    size_t compared = 0;
    char nonfinite[48] = "";

    for (int v = 0; v < RB_VERDICT_COUNT; v++)
        compared += k.verdicts[v];
    if (k.verdicts[RB_VERDICT_NONFINITE])
        snprintf(nonfinite, sizeof nonfinite, ", %zu non-finite",
                 k.verdicts[RB_VERDICT_NONFINITE]);
    fprintf(f, "\n%zu compared: %zu slower, %zu faster, %zu same%s; %zu not compared\n",
            compared, k.verdicts[RB_VERDICT_SLOWER], k.verdicts[RB_VERDICT_FASTER],
            k.verdicts[RB_VERDICT_SAME], nonfinite, k.not_compared);
    for (int side = 0; side < 2; side++) {
        if (side ? !k.only_b : !k.only_a)
            continue;
        fprintf(f, "%sonly in %c:\n", md ? "\n" : "", side ? 'B' : 'A');
        for (size_t i = 0; i < cmp->n; i++) {
            const struct rb_compare_row *r = &cmp->rows[i];
            const json_t *rec = side ? r->b : r->a;
            if (side ? r->a || !r->b : r->b || !r->a)
                continue;
            fprintf(f, "%s%s (%s)\n", md ? "- " : "  ", r->label, status_of(rec));
        }
    }
}

static int print_text(const struct rb_comparison *cmp, FILE *f)
{
    const char *head[NCOLS] = { "case", "A median ms", "B median ms", "B/A", "", "verdict" };
    char ci_head[32], (*cells)[NCOLS][64] = calloc(cmp->n + 1, sizeof *cells);
    size_t width[NCOLS] = { 0 };

    if (!cells)
        return RB_ENOMEM;
    if (cmp->opts.metric == RB_METRIC_MIN) {
        head[COL_A] = "A min ms";
        head[COL_B] = "B min ms";
    }
    snprintf(ci_head, sizeof ci_head, "%g%% CI", 100 * cmp->opts.level);
    head[COL_CI] = ci_head;
    for (int c = 0; c < NCOLS; c++)
        width[c] = strlen(head[c]);
    for (size_t i = 0; i < cmp->n; i++) {
        if (!cmp->rows[i].a || !cmp->rows[i].b)
            continue;
        row_cells(cmp, &cmp->rows[i], cells[i]);
        width[COL_CASE] = strlen(cmp->rows[i].label) > width[COL_CASE]
                          ? strlen(cmp->rows[i].label) : width[COL_CASE];
        for (int c = 1; c < NCOLS; c++)
            width[c] = strlen(cells[i][c]) > width[c] ? strlen(cells[i][c]) : width[c];
    }
    print_header_lines(cmp, f, "");
    fputc('\n', f);
    fprintf(f, "%-*s  %*s  %*s  %*s  %-*s  %s\n", (int)width[0], head[0], (int)width[1], head[1],
            (int)width[2], head[2], (int)width[3], head[3], (int)width[4], head[4], head[5]);
    for (size_t i = 0; i < cmp->n; i++) {
        if (!cmp->rows[i].a || !cmp->rows[i].b)
            continue;
        fprintf(f, "%-*s  %*s  %*s  %*s  %-*s  %s\n", (int)width[0], cmp->rows[i].label,
                (int)width[1], cells[i][1], (int)width[2], cells[i][2], (int)width[3],
                cells[i][3], (int)width[4], cells[i][4], cells[i][5]);
    }
    rb_comparison_print_energy(cmp, f, 0);
    print_summary(cmp, f, 0);
    free(cells);
    return 0;
}

static void print_md(const struct rb_comparison *cmp, FILE *f)
{
    const char *m = metric_name(cmp->opts.metric);
    char cells[NCOLS][64];

    print_header_lines(cmp, f, "- ");
    fprintf(f, "\n| case | A %s ms | B %s ms | B/A | %g%% CI | verdict |\n", m, m,
            100 * cmp->opts.level);
    fprintf(f, "|---|---:|---:|---:|---|---|\n");
    for (size_t i = 0; i < cmp->n; i++) {
        if (!cmp->rows[i].a || !cmp->rows[i].b)
            continue;
        row_cells(cmp, &cmp->rows[i], cells);
        fprintf(f, "| %s | %s | %s | %s | %s | %s |\n", cmp->rows[i].label, cells[COL_A],
                cells[COL_B], cells[COL_RATIO], cells[COL_CI], cells[COL_VERDICT]);
    }
    rb_comparison_print_energy(cmp, f, 1);
    print_summary(cmp, f, 1);
}

/* gnuplot and most TSV readers take "inf" and "NaN". */
static void put_number(FILE *f, double x, int have)
{
    if (have && isfinite(x))
        fprintf(f, "\t%.10g", x);
    else if (have && isinf(x))
        fputs(x > 0 ? "\tinf" : "\t-inf", f);
    else
        fputs("\tNaN", f);
}

static void print_tsv(const struct rb_comparison *cmp, FILE *f)
{
    fputs("key\tlabel\ta_status\tb_status\ta_ms\tb_ms\tratio\tci_lo\tci_hi\tverdict"
          "\ta_energy_j\tb_energy_j\ta_throttled\tb_throttled\n", f);
    for (size_t i = 0; i < cmp->n; i++) {
        const struct rb_compare_row *r = &cmp->rows[i];
        fprintf(f, "%s\t%s\t%s\t%s", r->key, r->label, r->a ? status_of(r->a) : "-",
                r->b ? status_of(r->b) : "-");
        put_number(f, r->r.a, r->compared);
        put_number(f, r->r.b, r->compared);
        put_number(f, r->r.ratio, r->compared);
        put_number(f, r->r.lo, r->compared);
        put_number(f, r->r.hi, r->compared);
        fprintf(f, "\t%s", r->compared ? rb_verdict_name(r->r.verdict)
                : !r->b ? "only_a" : !r->a ? "only_b" : "not_compared");
        rb_comparison_energy_tsv(r, f);
        fputc('\n', f);
    }
}

static json_t *side_json(const struct rb_compare_row *r, int b)
{
    const json_t *rec = b ? r->b : r->a;
    json_t *o = json_object();
    int bad = 0;

    if (!o)
        return NULL;
    rb_json_put(o, "status", json_string(status_of(rec)), &bad);
    rb_json_put(o, "ms", r->compared ? json_real(b ? r->r.b : r->r.a) : json_null(), &bad);
    rb_json_put(o, "samples", json_integer((json_int_t)json_array_size(
                                              json_object_get(rec, "samples_ms"))), &bad);
    rb_json_put(o, "energy", rb_comparison_energy_json(rec), &bad);
    return rb_json_finish(o, bad);
}

/* JSON has no infinity or NaN: such a number is written as its text
 * ("inf", "nan"), which a reader cannot mistake for a ratio. */
static json_t *finite_or_text(int have, double x)
{
    char text[16];

    if (!have)
        return json_null();
    if (isfinite(x))
        return json_real(x);
    snprintf(text, sizeof text, "%g", x);
    return json_string(text);
}

static json_t *row_json(const struct rb_compare_row *r)
{
    json_t *o = json_object();
    int bad = 0;

    if (!o)
        return NULL;
    rb_json_put(o, "key", json_string(r->key), &bad);
    rb_json_put(o, "label", json_string(r->label), &bad);
    if (!r->a || !r->b) {
        rb_json_put(o, "status", json_string(status_of(r->a ? r->a : r->b)), &bad);
        return rb_json_finish(o, bad);
    }
    rb_json_put(o, "a", side_json(r, 0), &bad);
    rb_json_put(o, "b", side_json(r, 1), &bad);
    rb_json_put(o, "ratio", finite_or_text(r->compared, r->r.ratio), &bad);
    rb_json_put(o, "ci", r->compared ? json_pack("[oo]", finite_or_text(1, r->r.lo),
                                                finite_or_text(1, r->r.hi)) : json_null(), &bad);
    rb_json_put(o, "verdict", json_string(r->compared ? rb_verdict_name(r->r.verdict)
                                          : "not compared"), &bad);
    if (!r->compared)
        rb_json_put(o, "why", json_string(r->why), &bad);
    return rb_json_finish(o, bad);
}

static json_t *comparison_json(const struct rb_comparison *cmp)
{
    json_t *o = json_object(), *cases = json_array(), *only_a = json_array(),
           *only_b = json_array();
    struct counts k = count_rows(cmp);
    int bad = 0;

    for (size_t i = 0; o && cases && only_a && only_b && i < cmp->n; i++) {
        const struct rb_compare_row *r = &cmp->rows[i];
        json_t *into = !r->b ? only_a : !r->a ? only_b : cases;
        if (json_array_append_new(into, row_json(r)) < 0)
            bad = 1;
    }
    if (!o) {
        json_decref(cases);
        json_decref(only_a);
        json_decref(only_b);
        return NULL;
    }
    rb_json_put(o, "a", json_pack("{sssI}", "run", cmp->a_dir, "records",
                                  (json_int_t)json_array_size(cmp->a_records)), &bad);
    rb_json_put(o, "b", json_pack("{sssI}", "run", cmp->b_dir, "records",
                                  (json_int_t)json_array_size(cmp->b_records)), &bad);
    rb_json_put(o, "metric", json_string(metric_name(cmp->opts.metric)), &bad);
    rb_json_put(o, "level", json_real(cmp->opts.level), &bad);
    rb_json_put(o, "resamples", json_integer(cmp->opts.resamples), &bad);
    rb_json_put(o, "seed", rb_json_seed(cmp->opts.seed), &bad);
    rb_json_put(o, "noise", json_real(cmp->noise), &bad);
    rb_json_put(o, "noise_min", json_real(cmp->opts.noise), &bad);
    rb_json_put(o, "noise_auto", json_boolean(cmp->opts.noise_auto), &bad);
    rb_json_put(o, "spread", isnan(cmp->spread) ? json_null() : json_real(cmp->spread), &bad);
    rb_json_put(o, "shift", isnan(cmp->shift) ? json_null() : json_real(cmp->shift), &bad);
    rb_json_put(o, "centred", json_boolean(cmp->centred), &bad);
    rb_json_put(o, "cases", cases, &bad);
    rb_json_put(o, "only_in_a", only_a, &bad);
    rb_json_put(o, "only_in_b", only_b, &bad);
    rb_json_put(o, "summary", json_pack("{sIsIsIsIsI}",
                                        "slower", (json_int_t)k.verdicts[RB_VERDICT_SLOWER],
                                        "faster", (json_int_t)k.verdicts[RB_VERDICT_FASTER],
                                        "same", (json_int_t)k.verdicts[RB_VERDICT_SAME],
                                        "non_finite",
                                        (json_int_t)k.verdicts[RB_VERDICT_NONFINITE],
                                        "not_compared", (json_int_t)k.not_compared), &bad);
    return rb_json_finish(o, bad);
}

int rb_comparison_print(const struct rb_comparison *cmp, enum rb_compare_format fmt, FILE *f)
{
    json_t *j;

    switch (fmt) {
    case RB_FORMAT_TEXT:
        if (print_text(cmp, f) < 0)
            return RB_ENOMEM;
        break;
    case RB_FORMAT_MD:
        print_md(cmp, f);
        break;
    case RB_FORMAT_TSV:
        print_tsv(cmp, f);
        break;
    case RB_FORMAT_JSON:
        if (!(j = comparison_json(cmp)))
            return RB_ENOMEM;
        if (json_dumpf(j, f, JSON_INDENT(2) | JSON_PRESERVE_ORDER) < 0) {
            json_decref(j);
            return RB_EIO;
        }
        fputc('\n', f);
        json_decref(j);
        break;
    }
    return fflush(f) == 0 && !ferror(f) ? 0 : RB_EIO;
}
