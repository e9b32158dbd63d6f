/* SPDX-License-Identifier: MIT */
/* A comparison's energy: each case's joules per run in both runs (the GPU's
 * through NVML, a CPU case's packages through RAPL) and the cases either run
 * took throttled, as a section of the text and Markdown tables, columns of
 * the TSV and fields of the JSON. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "harness/report/compare.h"
#include "harness/records/json_build.h"
#include "harness/records/record.h"

static void format_joules(char *buf, size_t len, double j)
{
    if (isfinite(j))
        snprintf(buf, len, "%.4g", j);
    else
        snprintf(buf, len, "-");
}

/* "A: REASON; B: REASON", "-" when neither run was throttled. */
static void format_throttled(char *buf, size_t len, const struct rb_rec_energy *a,
                             const struct rb_rec_energy *b)
{
    size_t at = 0;

    buf[0] = '\0';
    if (a->throttled == 1)
        at = (size_t)snprintf(buf, len, "A: %s", a->reason ? a->reason : "throttled");
    if (b->throttled == 1 && at < len)
        snprintf(buf + at, len - at, "%sB: %s", at ? "; " : "", b->reason ? b->reason
                                                                : "throttled");
    if (!buf[0])
        snprintf(buf, len, "-");
}

struct energy_counts {
    size_t with_energy, throttled_a, throttled_b;
    const char *why_a, *why_b;      /* a reason records have no energy */
};

static struct energy_counts count_energy(const struct rb_comparison *cmp)
{
    struct energy_counts k = { 0, 0, 0, NULL, NULL };
    struct rb_rec_energy a, b;

    for (size_t i = 0; i < cmp->n; i++) {
        const struct rb_compare_row *r = &cmp->rows[i];
        if (!r->a || !r->b)
            continue;
        rb_record_energy(r->a, &a);
        rb_record_energy(r->b, &b);
        k.with_energy += isfinite(a.joules) || isfinite(b.joules);
        k.throttled_a += a.throttled == 1;
        k.throttled_b += b.throttled == 1;
        if (!k.why_a && a.why)
            k.why_a = a.why;
        if (!k.why_b && b.why)
            k.why_b = b.why;
    }
    return k;
}

static void print_rows(const struct rb_comparison *cmp, FILE *f, int md, int width)
{
    struct rb_rec_energy a, b;
    char ja[32], jb[32], ratio[32], thr[600];

    for (size_t i = 0; i < cmp->n; i++) {
        const struct rb_compare_row *r = &cmp->rows[i];
        if (!r->a || !r->b)
            continue;
        rb_record_energy(r->a, &a);
        rb_record_energy(r->b, &b);
        /* A coarse reading (harness/run/observe.h) is named, not compared. */
        format_joules(ja, sizeof ja, a.joules);
        format_joules(jb, sizeof jb, b.joules);
        if (a.coarse)
            snprintf(ja, sizeof ja, "coarse");
        if (b.coarse)
            snprintf(jb, sizeof jb, "coarse");
        if (a.joules > 0 && isfinite(b.joules) && !a.coarse && !b.coarse)
            snprintf(ratio, sizeof ratio, "%.3f", b.joules / a.joules);
        else
            snprintf(ratio, sizeof ratio, "-");
        format_throttled(thr, sizeof thr, &a, &b);
        if (md)
            fprintf(f, "| %s | %s | %s | %s | %s |\n", r->label, ja, jb, ratio, thr);
        else
            fprintf(f, "%-*s  %10s  %10s  %6s  %s\n", width, r->label, ja, jb, ratio, thr);
    }
}

void rb_comparison_print_energy(const struct rb_comparison *cmp, FILE *f, int md)
{
    struct energy_counts k = count_energy(cmp);
    int width = 4;

    fputc('\n', f);
    if (!k.with_energy && !k.throttled_a && !k.throttled_b) {
        fprintf(f, "%senergy: none in these records (A: %s; B: %s)\n", md ? "- " : "",
                k.why_a ? k.why_a : "-", k.why_b ? k.why_b : "-");
        return;
    }
    for (size_t i = 0; i < cmp->n; i++)
        if (cmp->rows[i].a && cmp->rows[i].b && (int)strlen(cmp->rows[i].label) > width)
            width = (int)strlen(cmp->rows[i].label);
    fprintf(f, "energy per timed sample (J; the GPU's through NVML, a CPU case's packages "
            "through RAPL):\n%s", md ? "\n" : "");
    if (md)
        fputs("| case | A J | B J | B/A | throttled |\n|---|---:|---:|---:|---|\n", f);
    else
        fprintf(f, "%-*s  %10s  %10s  %6s  %s\n", width, "case", "A J", "B J", "B/A",
                "throttled");
    print_rows(cmp, f, md, width);
    if (k.throttled_a || k.throttled_b)
        fprintf(f, "%sthrottled: %zu cases in A, %zu in B (their samples are kept and marked; "
                "their times may be those of lowered clocks)\n", md ? "\n" : "",
                k.throttled_a, k.throttled_b);
}

void rb_comparison_energy_tsv(const struct rb_compare_row *r, FILE *f)
{
    struct rb_rec_energy e;

    for (int side = 0; side < 2; side++) {
        const json_t *rec = side ? r->b : r->a;
        rb_record_energy(rec, &e);
        if (rec && isfinite(e.joules))
            fprintf(f, "\t%.10g", e.joules);
        else
            fputs("\tNaN", f);
    }
    for (int side = 0; side < 2; side++) {
        const json_t *rec = side ? r->b : r->a;
        rb_record_energy(rec, &e);
        if (rec && e.throttled >= 0)
            fprintf(f, "\t%d", e.throttled);
        else
            fputs("\tNaN", f);
    }
}

json_t *rb_comparison_energy_json(const json_t *rec)
{
    struct rb_rec_energy e;
    json_t *o = json_object();
    int bad = 0;

    if (!o)
        return NULL;
    rb_record_energy(rec, &e);
    rb_json_put(o, "energy_per_run_j", isfinite(e.joules) ? json_real(e.joules) : json_null(),
                &bad);
    rb_json_put(o, "power_w", isfinite(e.watts) ? json_real(e.watts) : json_null(), &bad);
    rb_json_put(o, "source", e.source ? json_string(e.source) : json_null(), &bad);
    rb_json_put(o, "throttled", e.throttled < 0 ? json_null() : json_boolean(e.throttled),
                &bad);
    rb_json_put(o, "throttle_reason", e.reason ? json_string(e.reason) : json_null(), &bad);
    if (!isfinite(e.joules))
        rb_json_put(o, "why", json_string(e.why ? e.why : "no energy reading"), &bad);
    return rb_json_finish(o, bad);
}
