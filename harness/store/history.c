/* SPDX-License-Identifier: MIT */
/* Gathering store records into series across runs, and printing them. */
#define _GNU_SOURCE             /* strptime, timegm */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "harness/error.h"
#include "harness/store/history.h"
#include "harness/report/report.h"

static double stat_of(const json_t *rec, const char *name)
{
    const json_t *v = json_object_get(json_object_get(rec, "stats"), name);

    return json_is_number(v) ? json_number_value(v) : NAN;
}

static time_t time_of(const char *iso)
{
    struct tm tm;

    memset(&tm, 0, sizeof tm);
    return iso && strptime(iso, "%Y-%m-%dT%H:%M:%S", &tm) ? timegm(&tm) : 0;
}

/* The series label of a record: its key as compare labels it, or with
 * best its case without tunables. */
static void series_of(const json_t *rec, int best, char *label, size_t len, char *group,
                      size_t glen)
{
    char sizes[200];
    int slashes = 0;

    snprintf(group, glen, "%s/%s/%s/%s/%s", rb_rec_str(rec, "paper"), rb_rec_str(rec, "algo"),
             rb_rec_str(rec, "variant"), rb_rec_str(rec, "backend"), rb_rec_str(rec, "prec"));
    if (best) {
        rb_axes_label(json_object_get(rec, "sizes"), sizes, sizeof sizes);
        snprintf(label, len, "%s/%s/%s %s %s %s (best tunables)", rb_rec_str(rec, "paper"),
                 rb_rec_str(rec, "algo"), rb_rec_str(rec, "variant"),
                 rb_rec_str(rec, "backend"), rb_rec_str(rec, "prec"), sizes);
        return;
    }
    snprintf(label, len, "%s", rb_rec_str(rec, "key"));
    for (char *p = label; *p; p++)
        if (*p == '/' && ++slashes > 2)
            *p = ' ';
}

static struct rb_history_series *find_series(struct rb_history *h, const char *label,
                                             const char *group, size_t *cap)
{
    struct rb_history_series *s;

    for (size_t i = 0; i < h->n; i++)
        if (strcmp(h->s[i].label, label) == 0)
            return &h->s[i];
    if (h->n == *cap) {
        size_t grown = *cap ? 2 * *cap : 16;
        if (!(s = realloc(h->s, grown * sizeof *s)))
            return NULL;
        h->s = s;
        *cap = grown;
    }
    s = &h->s[h->n++];
    memset(s, 0, sizeof *s);
    snprintf(s->label, sizeof s->label, "%s", label);
    snprintf(s->group, sizeof s->group, "%s", group);
    return s;
}

static void point_of(struct rb_history_point *p, const json_t *rec)
{
    const json_t *where = json_object_get(rec, "store");
    int ok = rb_rec_ok(rec);

    p->rec = rec;
    p->run = rb_rec_str(where, "run");
    p->start = rb_rec_str(where, "start");
    p->git = rb_rec_str(where, "git");
    p->machine_name = rb_rec_str(where, "machine_name");
    p->machine = json_integer_value(json_object_get(where, "machine"));
    p->t = time_of(p->start);
    p->median = ok ? rb_rec_median(rec) : NAN;
    p->p10 = ok ? stat_of(rec, "p10") : NAN;
    p->p90 = ok ? stat_of(rec, "p90") : NAN;
}

/* Runs of one second on one host share a name; their ids differ. */
static json_t *run_id(const json_t *rec)
{
    return json_object_get(json_object_get(rec, "store"), "run_id");
}

/* Add rec to its series: a point of its run, or with best the run's point
 * replaced when rec is faster. */
static int add(struct rb_history *h, size_t *cap, const json_t *rec, int best)
{
    char label[320], group[160];
    struct rb_history_series *s;
    struct rb_history_point pt;

    series_of(rec, best, label, sizeof label, group, sizeof group);
    if (!(s = find_series(h, label, group, cap)))
        return RB_ENOMEM;
    point_of(&pt, rec);
    if (best && s->n > 0 && json_equal(run_id(s->p[s->n - 1].rec), run_id(rec))) {
        struct rb_history_point *last = &s->p[s->n - 1];
        if (isnan(last->median) || pt.median < last->median)
            *last = pt;
        return 0;
    }
    if (s->n == s->cap) {
        size_t grown = s->cap ? 2 * s->cap : 8;
        struct rb_history_point *p = realloc(s->p, grown * sizeof *p);
        if (!p)
            return RB_ENOMEM;
        s->p = p;
        s->cap = grown;
    }
    s->p[s->n++] = pt;
    return 0;
}

int rb_history_build(const json_t *records, int best, struct rb_history *h)
{
    const json_t *rec;
    size_t i, cap = 0;

    memset(h, 0, sizeof *h);
    json_array_foreach(records, i, rec) {
        if (add(h, &cap, rec, best) < 0) {
            rb_history_free(h);
            return RB_ENOMEM;
        }
    }
    return 0;
}

void rb_history_free(struct rb_history *h)
{
    for (size_t i = 0; i < h->n; i++)
        free(h->s[i].p);
    free(h->s);
    h->s = NULL;
    h->n = 0;
}

static void ms(char *buf, size_t len, double x)
{
    if (isfinite(x))
        snprintf(buf, len, "%.4g", x);
    else
        snprintf(buf, len, "-");
}

/* The spread of a point: (p90 - p10) / median, in percent. */
static void spread(char *buf, size_t len, const struct rb_history_point *p)
{
    if (isfinite(p->p10) && isfinite(p->p90) && p->median > 0)
        snprintf(buf, len, "%.1f%%", 100 * (p->p90 - p->p10) / p->median);
    else
        snprintf(buf, len, "-");
}

static void print_row(FILE *f, const struct rb_history_series *s,
                      const struct rb_history_point *p, int tsv)
{
    char med[24], lo[24], hi[24], spr[24], mach[24];

    ms(med, sizeof med, p->median);
    ms(lo, sizeof lo, p->p10);
    ms(hi, sizeof hi, p->p90);
    spread(spr, sizeof spr, p);
    snprintf(mach, sizeof mach, p->machine ? "%lld" : "-", p->machine);
    if (tsv)
        fprintf(f, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", s->label, p->start, p->run,
                p->git[0] ? p->git : "-", mach, med, lo, hi, spr, rb_rec_str(p->rec, "status"));
    else
        fprintf(f, "  %-20s  %-26s  %-20s  %7s  %10s  %10s  %10s  %7s  %s\n", p->start, p->run,
                p->git, mach, med, lo, hi, spr,
                isnan(p->median) ? rb_rec_str(p->rec, "status") : "");
}

int rb_history_print(const struct rb_history *h, FILE *f, int tsv)
{
    if (tsv)
        fprintf(f, "series\tstart\trun\tgit\tmachine\tmedian_ms\tp10_ms\tp90_ms\tspread\t"
                "status\n");
    for (size_t i = 0; i < h->n; i++) {
        const struct rb_history_series *s = &h->s[i];

        if (!tsv)
            fprintf(f, "%s%s\n  %-20s  %-26s  %-20s  %7s  %10s  %10s  %10s  %7s\n", i ? "\n" : "",
                    s->label, "start", "run", "git", "machine", "median ms", "p10 ms",
                    "p90 ms", "spread");
        for (size_t j = 0; j < s->n; j++)
            print_row(f, s, &s->p[j], tsv);
    }
    return ferror(f) ? RB_EIO : 0;
}
