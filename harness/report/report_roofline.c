/* SPDX-License-Identifier: MIT */
/* The report's roofline section: one figure per backend that has both
 * probed ceilings (meta.json) and records with a work count, drawn by
 * plots/roofline.gp into the report folder. */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "harness/report/plot.h"
#include "harness/report/report.h"

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

/* backend='B', the script's own variable beside in and outdir. */
static int backend_arg(char *buf, size_t len, const char *backend)
{
    size_t at = (size_t)snprintf(buf, len, "backend='");

    if (rb_plot_quote(buf, len, &at, backend) < 0 || at + 2 >= len)
        return -1;
    snprintf(buf + at, len - at, "'");
    return 0;
}

void rb_report_roofline(struct rb_doc *d, const char *run, const char *report,
                        const json_t *records, const json_t *meta)
{
    const json_t *ceilings = json_object_get(meta, "ceilings"), *c;
    char gnuplot[PATH_MAX], script[PATH_MAX + 32], tsv[PATH_MAX + 16], extra[256];
    char png[PATH_MAX + 64], caption[160], why[PATH_MAX + 256];
    const char *backend;
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
        if (backend_arg(extra, sizeof extra, backend) < 0) {
            rb_doc_para(d, "No figure for %s: a backend name gnuplot cannot take.", backend);
            continue;
        }
        snprintf(tsv, sizeof tsv, "%s/records.tsv", run);
        if (rb_plot_script_into(gnuplot, script, tsv, report, extra, 1, NULL, why,
                                sizeof why) < 0) {
            rb_doc_para(d, "No figure for %s: %s.", backend, why);
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
