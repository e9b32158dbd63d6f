/* SPDX-License-Identifier: MIT */
/* The report's roofline section: one figure per backend that has both
 * probed ceilings (meta.json) and records with a work count, drawn by
 * plots/roofline.gp into the report folder. */
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "harness/plot.h"
#include "harness/report.h"

/* 1 if some successful record of `backend` carries a work count. */
static int has_work(const json_t *records, const char *backend)
{
    const json_t *rec;
    size_t i;

    json_array_foreach(records, i, rec)
        if (rb_rec_ok(rec) && strcmp(rb_rec_str(rec, "backend"), backend) == 0
            && json_is_object(json_object_get(rec, "work")))
            return 1;
    return 0;
}

/* in='RUN/records.tsv'; outdir='REPORT'; backend='B' */
static int roofline_args(char *buf, size_t len, const char *run, const char *report,
                         const char *backend)
{
    char tsv[PATH_MAX + 16];
    size_t at = 0;

    snprintf(tsv, sizeof tsv, "%s/records.tsv", run);
    at = (size_t)snprintf(buf, len, "in='");
    if (rb_plot_quote(buf, len, &at, tsv) < 0 || at + 16 >= len)
        return -1;
    at += (size_t)snprintf(buf + at, len - at, "'; outdir='");
    if (rb_plot_quote(buf, len, &at, report) < 0 || at + 16 >= len)
        return -1;
    at += (size_t)snprintf(buf + at, len - at, "'; backend='");
    if (rb_plot_quote(buf, len, &at, backend) < 0 || at + 2 >= len)
        return -1;
    snprintf(buf + at, len - at, "'");
    return 0;
}

void rb_report_roofline(struct rb_doc *d, const char *run, const char *report,
                        const json_t *records, const json_t *meta)
{
    const json_t *ceilings = json_object_get(meta, "ceilings"), *c;
    char gnuplot[PATH_MAX], script[PATH_MAX + 32], expr[3 * PATH_MAX], png[PATH_MAX + 64];
    char caption[160];
    const char *backend;
    struct stat st;
    int drawn = 0, have_gnuplot = rb_plot_find_gnuplot(gnuplot, sizeof gnuplot) == 0;

    rb_doc_heading(d, 2, "Roofline");
    rb_doc_para(d, "Each record's arithmetic intensity (its FLOPs over the fewest bytes it "
                "must move) against the FLOP/s it reached at its median time, under its "
                "backend's ceilings probed at the start of the run: a device-to-device "
                "copy and an FMA-bound kernel (meta.json, ceilings.tsv).");
    snprintf(script, sizeof script, "%s/roofline.gp", rb_plot_scripts_dir());
    json_object_foreach((json_t *)ceilings, backend, c) {
        if (!has_work(records, backend))
            continue;
        if (!have_gnuplot) {
            rb_doc_para(d, "No figure for %s: gnuplot is not installed.", backend);
            continue;
        }
        snprintf(png, sizeof png, "%s/roofline-%s.png", report, backend);
        if (roofline_args(expr, sizeof expr, run, report, backend) < 0
            || rb_plot_run_script(gnuplot, expr, script) < 0 || stat(png, &st) != 0) {
            rb_doc_para(d, "No figure for %s: gnuplot failed on %s.", backend, script);
            continue;
        }
        snprintf(png, sizeof png, "roofline-%s.png", backend);
        snprintf(caption, sizeof caption, "Roofline of %s (%s)", backend,
                 rb_rec_str(c, "device"));
        rb_doc_image(d, png, caption);
        drawn++;
    }
    if (!drawn && json_object_size(ceilings) == 0)
        rb_doc_para(d, "No ceilings in this run (run without --no-ceilings to probe them).");
}
