/* SPDX-License-Identifier: MIT */
/* A series across runs: the records of one case (or of one size, at its
 * best tunables) from the store, ordered by time, with each run's median
 * and spread, printed and drawn with plots/history.gp. */
#ifndef RB_HISTORY_H
#define RB_HISTORY_H

#include <stdio.h>
#include <time.h>
#include <jansson.h>

/* One run's record of a series. */
struct rb_history_point {
    const json_t *rec;          /* borrowed from the records given */
    const char *run, *start, *git, *machine_name;
    long long machine;          /* its id, 0 when unknown */
    time_t t;                   /* the run's start */
    double median, p10, p90;    /* ms; NaN when the record is not ok */
};

struct rb_history_series {
    char label[320];            /* "givens/forward/sequential serial f32 n=16 m=0" */
    char group[160];            /* paper/algo/variant/backend/prec */
    size_t n, cap;
    struct rb_history_point *p;
};

struct rb_history {
    size_t n;
    struct rb_history_series *s;
};

/* Series of records from rb_db_select, each in time order: one per case
 * key, or with best one per paper, algo, variant, backend, precision and
 * sizes, whose point of a run is the run's fastest verified tunable
 * setting.  0 or RB_ENOMEM. */
int rb_history_build(const json_t *records, int best, struct rb_history *h);
void rb_history_free(struct rb_history *h);

/* Print each series as a block of one row per run (text), or every row
 * as TSV.  0 or RB_EIO. */
int rb_history_print(const struct rb_history *h, FILE *f, int tsv);

/* Write the series' table to <png without .png>.tsv and draw it with
 * plots/history.gp into png: one panel per series, the median of each
 * machine with its p10-p90 band, against time.  At most max_panels
 * series are drawn.  0, RB_ESKIP when no series has a point, RB_ENODEV
 * without gnuplot (the table is written), RB_EIO; with err. */
int rb_history_plot(const struct rb_history *h, const char *png, const char *title,
                    size_t max_panels, char *err, size_t errlen);

#endif
