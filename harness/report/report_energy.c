/* SPDX-License-Identifier: MIT */
/* The report's energy section: the CPU's governor and package energy, how
 * the GPUs were watched, a roofline-like table of each case's power, joules
 * per run and GFLOP per joule, and the cases taken throttled. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/run/observe.h"
#include "harness/records/record.h"
#include "harness/report/report.h"

static int is_cpu_backend(const char *b)
{
    return !strcmp(b, "serial") || !strcmp(b, "omp");
}

/* The CPU side, from the first record that carries it. */
static void cpu_para(struct rb_doc *d, const json_t *records)
{
    const json_t *rec, *cpu = NULL, *e;
    size_t i;

    json_array_foreach(records, i, rec)
        if (json_is_object(cpu = json_object_get(rec, "cpu")))
            break;
    if (!json_is_object(cpu)) {
        rb_doc_para(d, "CPU: no governor or package energy in these records (none was "
                    "measured, or they are of schema 1).");
        return;
    }
    e = json_object_get(cpu, "energy");
    rb_doc_para(d, "CPU frequency governor: %s. CPU package energy (RAPL): %s%s.",
                json_is_string(json_object_get(cpu, "governor"))
                ? rb_rec_str(cpu, "governor") : rb_rec_str(cpu, "governor_reason"),
                json_is_true(json_object_get(e, "available")) ? "read from "
                : rb_rec_str(e, "reason"),
                json_is_true(json_object_get(e, "available")) ? rb_rec_str(e, "zones") : "");
}

/* How many GPU records were watched, and why the first one that was not. */
static void gpu_para(struct rb_doc *d, const json_t *records)
{
    size_t i, gpu = 0, watched = 0;
    const char *why = NULL;
    const json_t *rec;

    json_array_foreach(records, i, rec) {
        const json_t *g = json_object_get(rec, "gpu");
        if (is_cpu_backend(rb_rec_str(rec, "backend")) || !json_is_object(g))
            continue;
        gpu++;
        if (json_is_true(json_object_get(g, "available")))
            watched++;
        else if (!why)
            why = rb_rec_str(g, "reason");
    }
    if (gpu == 0)
        return;
    rb_doc_para(d, "GPU records watched through NVML: %zu of %zu%s%s.", watched, gpu,
                why ? "; not watched: " : "", why ? why : "");
}

struct energy_row {
    const json_t *rec;
    struct rb_rec_energy e;
    double gflops_per_j;
};

/* By backend, then the most GFLOP per joule first, those without last. */
static int row_order(const void *pa, const void *pb)
{
    const struct energy_row *a = pa, *b = pb;
    int c = strcmp(rb_rec_str(a->rec, "backend"), rb_rec_str(b->rec, "backend"));

    if (c)
        return c;
    if (isfinite(a->gflops_per_j) != isfinite(b->gflops_per_j))
        return isfinite(a->gflops_per_j) ? -1 : 1;
    return a->gflops_per_j > b->gflops_per_j ? -1 : a->gflops_per_j < b->gflops_per_j;
}

static void number_label(double x, const char *fmt, char *buf, size_t len)
{
    if (isfinite(x))
        snprintf(buf, len, fmt, x);
    else
        snprintf(buf, len, "-");
}

static void table_row(struct rb_doc *d, json_t *table, const struct energy_row *r)
{
    const json_t *work = json_object_get(r->rec, "work");
    char name[200], sizes[160], tun[160], med[32], gf[32], in[32], w[32], j[32], gj[32];
    char clocks[48];
    const json_t *v;

    snprintf(name, sizeof name, "%s/%s/%s %s", rb_rec_str(r->rec, "paper"),
             rb_rec_str(r->rec, "algo"), rb_rec_str(r->rec, "variant"),
             rb_rec_str(r->rec, "prec"));
    rb_axes_label(json_object_get(r->rec, "sizes"), sizes, sizeof sizes);
    rb_axes_label(json_object_get(r->rec, "tunables"), tun, sizeof tun);
    rb_ms_label(rb_rec_median(r->rec), med, sizeof med);
    v = json_object_get(work, "gflops");
    number_label(json_is_number(v) ? json_number_value(v) : NAN, "%.4g", gf, sizeof gf);
    v = json_object_get(work, "intensity");
    number_label(json_is_number(v) ? json_number_value(v) : NAN, "%.3g", in, sizeof in);
    number_label(r->e.coarse ? NAN : r->e.watts, "%.4g", w, sizeof w);
    number_label(r->e.coarse ? NAN : r->e.joules, "%.4g", j, sizeof j);
    number_label(r->gflops_per_j, "%.4g", gj, sizeof gj);
    if (isfinite(r->e.sm_start) && isfinite(r->e.sm_end))
        snprintf(clocks, sizeof clocks, "%.0f -> %.0f", r->e.sm_start, r->e.sm_end);
    else
        snprintf(clocks, sizeof clocks, "-");
    const char *cells[] = {
        name, rb_rec_str(r->rec, "backend"), sizes, tun, med, gf, in, w, j, gj, clocks,
        r->e.throttled == 1 ? "yes" : r->e.throttled == 0 ? "no" : "-",
    };
    rb_doc_row(d, table, cells);
}

static void energy_table(struct rb_doc *d, const json_t *records)
{
    static const char *const head[] = {
        "case", "backend", "sizes", "tunables", "median ms", "GFLOP/s", "FLOP/byte",
        "power W", "J per sample", "GFLOP/J", "SM MHz", "throttled",
    };
    struct energy_row *rows = calloc(json_array_size(records) + 1, sizeof *rows);
    const json_t *rec;
    size_t i, n = 0, coarse = 0;

    if (!rows) {
        d->bad = 1;
        return;
    }
    json_array_foreach(records, i, rec) {
        const json_t *flops = json_object_get(json_object_get(rec, "work"), "flops");
        struct energy_row *r = &rows[n];
        if (!rb_rec_ok(rec))
            continue;
        rb_record_energy(rec, &r->e);
        if (!isfinite(r->e.joules) && r->e.throttled < 0)
            continue;
        r->rec = rec;
        r->gflops_per_j = json_is_number(flops) && r->e.joules > 0 && !r->e.coarse
                          ? json_number_value(flops) * 1e-9 / r->e.joules : NAN;
        coarse += r->e.coarse;
        n++;
    }
    if (n == 0) {
        rb_doc_para(d, "No successful record has an energy reading.");
        free(rows);
        return;
    }
    qsort(rows, n, sizeof *rows, row_order);
    rb_doc_para(d, "Each successful record with a reading: its mean power over the timed "
                "samples, the energy of one sample (the window's over the samples, the "
                "short gaps between them included), and GFLOP per joule from its work "
                "count, the most efficient first within each backend; the SM clock at the "
                "start and end of the samples.");
    if (coarse)
        rb_doc_para(d, "%zu of these %zu records show no energy: the GPU's energy counter "
                    "moved fewer than %d times over their timed samples (it is updated at "
                    "intervals of the driver's, about 0.1 s on an H200), so their joules "
                    "would be mostly its rounding. A longer window (--min-time 1) gives them "
                    "one; the records keep what was read (energy_steps, energy_coarse).",
                    coarse, n, RB_ENERGY_MIN_STEPS);
    json_t *table = rb_doc_table(d, head, sizeof head / sizeof *head);
    for (i = 0; i < n; i++)
        table_row(d, table, &rows[i]);
    free(rows);
}

static void throttled_list(struct rb_doc *d, const json_t *records)
{
    struct rb_rec_energy e;
    const json_t *rec;
    json_t *list = NULL;
    size_t i, watched = 0, throttled = 0;
    char item[700], sizes[160];

    json_array_foreach(records, i, rec) {
        rb_record_energy(rec, &e);
        watched += e.throttled >= 0;
        if (e.throttled != 1)
            continue;
        if (!list) {
            rb_doc_para(d, "Cases taken throttled (their samples are kept and marked in "
                        "throttled_samples; their times may be those of lowered clocks):");
            list = rb_doc_list(d);
        }
        rb_axes_label(json_object_get(rec, "sizes"), sizes, sizeof sizes);
        snprintf(item, sizeof item, "%s/%s/%s %s %s %s: %lld of %zu samples; %s",
                 rb_rec_str(rec, "paper"), rb_rec_str(rec, "algo"), rb_rec_str(rec, "variant"),
                 rb_rec_str(rec, "backend"), rb_rec_str(rec, "prec"), sizes,
                 (long long)json_integer_value(json_object_get(json_object_get(rec, "stats"),
                                                               "throttled")),
                 json_array_size(json_object_get(rec, "samples_ms")),
                 e.reason ? e.reason : "throttled");
        rb_doc_item(d, list, item);
        throttled++;
    }
    if (watched && !throttled)
        rb_doc_para(d, "No case was throttled (%zu watched).", watched);
}

void rb_report_energy(struct rb_doc *d, const json_t *records)
{
    rb_doc_heading(d, 2, "Energy");
    rb_doc_para(d, "Energy per case: the GPU's through NVML (its total energy counter, or "
                "power x time where it has none), found by the PCI bus id of the case's "
                "device; a CPU case's packages through RAPL. docs/energy.md describes the "
                "fields.");
    cpu_para(d, records);
    gpu_para(d, records);
    energy_table(d, records);
    throttled_list(d, records);
}
