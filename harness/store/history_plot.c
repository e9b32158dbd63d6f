/* SPDX-License-Identifier: MIT */
/* A history's figure: its table (one row per run, series by series and
 * machine by machine within one) and plots/history.gp drawn on it. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness/error.h"
#include "harness/store/history.h"
#include "harness/report/plot.h"
#include "harness/records/results.h"

static int has_point(const struct rb_history_series *s)
{
    for (size_t j = 0; j < s->n; j++)
        if (isfinite(s->p[j].median))
            return 1;
    return 0;
}

/* gnuplot reads words: a name's spaces and tabs become '|' (the script
 * turns them back). */
static void put_word(FILE *f, const char *s)
{
    for (; *s; s++)
        fputc(*s == ' ' || *s == '\t' || *s == '\n' ? '|' : *s, f);
    fputc('\t', f);
}

/* The rows of a series, machine by machine, each in time order. */
static void write_series(FILE *f, const struct rb_history_series *s, size_t panel)
{
    for (size_t j = 0; j < s->n; j++) {
        int first = 1;

        for (size_t k = 0; k < j; k++)
            first &= s->p[k].machine != s->p[j].machine;
        if (!first)
            continue;
        for (size_t k = j; k < s->n; k++) {
            const struct rb_history_point *p = &s->p[k];
            char mach[24];

            if (p->machine != s->p[j].machine || !isfinite(p->median))
                continue;
            snprintf(mach, sizeof mach, "m%lld", p->machine);
            fprintf(f, "%zu\t", panel);
            put_word(f, s->label);
            put_word(f, mach);
            put_word(f, p->machine_name);
            fprintf(f, "%lld\t%.9g\t%.9g\t%.9g\n", (long long)p->t, p->median,
                    isfinite(p->p10) ? p->p10 : p->median, isfinite(p->p90) ? p->p90 : p->median);
        }
    }
}

static int write_table(const struct rb_history *h, const char *path, size_t max_panels,
                       size_t *panels, char *err, size_t errlen)
{
    char *text = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&text, &len);
    int status;

    *panels = 0;
    if (!mem) {
        snprintf(err, errlen, "out of memory");
        return RB_ENOMEM;
    }
    fprintf(mem, "panel\tseries\tmachine\tmname\tt\tmedian\tp10\tp90\n");
    for (size_t i = 0; i < h->n && *panels < max_panels; i++)
        if (has_point(&h->s[i]))
            write_series(mem, &h->s[i], ++*panels);
    if (fclose(mem) != 0) {
        free(text);
        snprintf(err, errlen, "out of memory");
        return RB_ENOMEM;
    }
    status = rb_write_file_atomic(path, text, err, errlen);
    free(text);
    return status;
}

int rb_history_plot(const struct rb_history *h, const char *png, const char *title,
                    size_t max_panels, char *err, size_t errlen)
{
    char tsv[PATH_MAX + 8], tmp[PATH_MAX + 40], script[PATH_MAX + 32], gnuplot[PATH_MAX];
    char expr[3 * PATH_MAX + 600];
    size_t len = strlen(png), at, panels;
    int status;

    if (len < 5 || strcmp(png + len - 4, ".png") != 0 || len >= PATH_MAX) {
        snprintf(err, errlen, "%s: the figure's name must end in .png", png);
        return RB_EINVAL;
    }
    snprintf(tsv, sizeof tsv, "%.*s.tsv", (int)(len - 4), png);
    if ((status = write_table(h, tsv, max_panels, &panels, err, errlen)))
        return status;
    if (panels == 0) {
        snprintf(err, errlen, "no series has a successful record to draw");
        return RB_ESKIP;
    }
    if (rb_plot_find_gnuplot(gnuplot, sizeof gnuplot) < 0) {
        snprintf(err, errlen, "gnuplot not found (install gnuplot-nox); the table is in %s",
                 tsv);
        return RB_ENODEV;
    }
    /* Drawn beside its place under a name of its own, and moved there whole. */
    snprintf(tmp, sizeof tmp, "%.*s.%ld.tmp.png", (int)(len - 4), png, (long)getpid());
    at = (size_t)snprintf(expr, sizeof expr, "in='");
    if (rb_plot_quote(expr, sizeof expr, &at, tsv)
        || (at += (size_t)snprintf(expr + at, sizeof expr - at, "'; out='")) >= sizeof expr
        || rb_plot_quote(expr, sizeof expr, &at, tmp)
        || (at += (size_t)snprintf(expr + at, sizeof expr - at, "'; name='")) >= sizeof expr
        || rb_plot_quote(expr, sizeof expr, &at, title ? title : "")
        || (at += (size_t)snprintf(expr + at, sizeof expr - at, "'")) >= sizeof expr) {
        snprintf(err, errlen, "%s: a name gnuplot cannot take", png);
        return RB_EINVAL;
    }
    snprintf(script, sizeof script, "%s/history.gp", rb_plot_scripts_dir());
    if (rb_plot_run_script(gnuplot, expr, script) < 0) {
        snprintf(err, errlen, "gnuplot failed on %s", script);
        status = RB_EIO;
    } else {
        status = rb_plot_figure_move(tmp, png, err, errlen);
    }
    unlink(tmp);
    return status;
}
