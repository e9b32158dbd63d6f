/* SPDX-License-Identifier: MIT */
/* The speedup of run B over run A per case, written as a TSV beside the plot
 * and drawn by plots/compare_speedup.gp. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness/records/atomic_file.h"
#include "harness/report/compare.h"
#include "harness/error.h"
#include "harness/report/plot.h"

#ifndef PATH_MAX
#define PATH_MAX 4096
#endif

struct point {
    char series[256];           /* the label without the x axis, '|' for spaces */
    char axis[32];
    long long x;
    double speedup, lo, hi;
    const char *verdict;
};

/* The first size axis of the record: its name and value.  -1 when it has
 * none, as a paper without sizes would. */
static int first_size(const json_t *rec, char *name, size_t len, long long *x)
{
    const char *k;
    json_t *v;

    json_object_foreach(json_object_get(rec, "sizes"), k, v) {
        if (!json_is_integer(v))
            return -1;
        snprintf(name, len, "%s", k);
        *x = (long long)json_integer_value(v);
        return 0;
    }
    return -1;
}

/* The row's label less its " axis=x" part; spaces become '|' so gnuplot
 * can hold the series names as one word list. */
static void series_of(const struct rb_compare_row *r, const char *axis, long long x,
                      char *buf, size_t len)
{
    char token[64];
    const char *at;
    size_t tl;

    snprintf(token, sizeof token, " %s=%lld", axis, x);
    tl = strlen(token);
    snprintf(buf, len, "%s", r->label);
    for (at = strstr(buf, token); at; at = strstr(at + 1, token))
        if (at[tl] == ' ' || at[tl] == '\0') {
            memmove((char *)at, at + tl, strlen(at + tl) + 1);
            break;
        }
    for (char *p = buf; *p; p++)
        if (*p == ' ' || *p == '\t')
            *p = '|';
}

static int cmp_point(const void *p, const void *q)
{
    const struct point *a = p, *b = q;
    int c = strcmp(a->series, b->series);
    return c ? c : (a->x > b->x) - (a->x < b->x);
}

/* The compared rows with a size, sorted by series then size. */
static struct point *points_of(const struct rb_comparison *cmp, size_t *n)
{
    struct point *pts = calloc(cmp->n + 1, sizeof *pts);

    *n = 0;
    for (size_t i = 0; pts && i < cmp->n; i++) {
        const struct rb_compare_row *r = &cmp->rows[i];
        struct point *p = &pts[*n];

        if (!r->compared || r->r.verdict == RB_VERDICT_NONFINITE
            || first_size(r->a, p->axis, sizeof p->axis, &p->x) < 0)
            continue;
        series_of(r, p->axis, p->x, p->series, sizeof p->series);
        p->speedup = 1 / r->r.ratio;
        p->lo = 1 / r->r.hi;
        p->hi = 1 / r->r.lo;
        p->verdict = rb_verdict_name(r->r.verdict);
        (*n)++;
    }
    if (pts)
        qsort(pts, *n, sizeof *pts, cmp_point);
    return pts;
}

struct points {
    const struct point *pts;
    size_t n;
};

static int render_tsv(void *arg, FILE *f)
{
    const struct points *p = arg;

    fputs("series\taxis\tx\tspeedup\tlo\thi\tverdict\n", f);
    for (size_t i = 0; i < p->n; i++)
        fprintf(f, "%s\t%s\t%lld\t%.6g\t%.6g\t%.6g\t%s\n", p->pts[i].series, p->pts[i].axis,
                p->pts[i].x, p->pts[i].speedup, p->pts[i].lo, p->pts[i].hi, p->pts[i].verdict);
    return 0;
}

static const char *base_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

/* in='<tsv>'; out='<plot>'; aname='<A>'; bname='<B>'; metric='median' */
static int gnuplot_expr(char *buf, size_t len, const char *tsv, const char *plot,
                        const struct rb_comparison *cmp)
{
    const char *names[] = { "in", "out", "aname", "bname", "metric" };
    const char *values[] = { tsv, plot, base_name(cmp->a_dir), base_name(cmp->b_dir),
                             cmp->opts.metric == RB_METRIC_MIN ? "min" : "median" };
    size_t at = 0;

    buf[0] = '\0';
    for (int i = 0; i < 5; i++) {
        int n = snprintf(buf + at, len - at, "%s%s='", i ? "; " : "", names[i]);
        if (n < 0 || (size_t)n >= len - at)
            return RB_EINVAL;
        at += (size_t)n;
        if (rb_plot_quote(buf, len, &at, values[i]) < 0 || at + 2 >= len)
            return RB_EINVAL;
        buf[at++] = '\'';
        buf[at] = '\0';
    }
    return 0;
}

int rb_comparison_plot(const struct rb_comparison *cmp, const char *plot,
                       char *err, size_t errlen)
{
    char tsv[PATH_MAX], gnuplot[PATH_MAX], script[PATH_MAX], expr[4 * PATH_MAX + 64];
    char tmp[PATH_MAX + 64];
    const char *dot = strrchr(base_name(plot), '.');
    size_t stem = dot ? (size_t)(dot - plot) : strlen(plot), n;
    struct point *pts;
    int status;

    if (stem + 5 > sizeof tsv) {
        snprintf(err, errlen, "%s: path too long", plot);
        return RB_EINVAL;
    }
    memcpy(tsv, plot, stem);
    strcpy(tsv + stem, ".tsv");
    if (strcmp(tsv, plot) == 0) {
        snprintf(err, errlen, "%s: the plot needs another name than its table's", plot);
        return RB_EINVAL;
    }
    if (!(pts = points_of(cmp, &n))) {
        snprintf(err, errlen, "out of memory");
        return RB_ENOMEM;
    }
    if (n == 0) {
        snprintf(err, errlen, "no case compared in both runs, nothing to plot");
        status = RB_ESKIP;
        goto out_free_points;
    }
    struct points table = { pts, n };
    if ((status = rb_atomic_print(tsv, render_tsv, &table, err, errlen)) < 0)
        goto out_free_points;
    if (rb_plot_find_gnuplot(gnuplot, sizeof gnuplot) < 0) {
        snprintf(err, errlen, "gnuplot not found (install gnuplot-nox); the table is in %s",
                 tsv);
        status = RB_ENODEV;
        goto out_free_points;
    }
    snprintf(script, sizeof script, "%s/compare_speedup.gp", rb_plot_scripts_dir());
    /* Drawn beside its place under a name of its own, and moved there whole. */
    if (snprintf(tmp, sizeof tmp, "%.*s.%ld.tmp%s", (int)stem, plot, (long)getpid(),
                 dot ? dot : "") >= (int)sizeof tmp
        || gnuplot_expr(expr, sizeof expr, tsv, tmp, cmp) < 0) {
        snprintf(err, errlen, "%s: a file name gnuplot cannot take", plot);
        status = RB_EINVAL;
        goto out_free_points;
    }
    if (rb_plot_run_script(gnuplot, expr, script) < 0) {
        snprintf(err, errlen, "gnuplot failed on %s", script);
        status = RB_EIO;
    } else {
        status = rb_plot_figure_move(tmp, plot, err, errlen);
    }
    unlink(tmp);
out_free_points:
    free(pts);
    return status;
}
