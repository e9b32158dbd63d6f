/* SPDX-License-Identifier: MIT */
/* Comparing two runs case by case: the ratio B/A of a statistic of the raw
 * samples, its bootstrap confidence interval and a verdict; the matched
 * table, its writers and the speedup plot. */
#ifndef RB_COMPARE_H
#define RB_COMPARE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <jansson.h>

#define RB_COMPARE_RESAMPLES 2000
#define RB_COMPARE_SEED 0x6a09e667f3bcc908ULL  /* fixed: the same records give the same CI */
/* The between-run spread: estimated from at least this many compared cases,
 * as this many robust standard deviations of their log ratios. */
#define RB_COMPARE_SPREAD_MIN 8
#define RB_COMPARE_SPREAD_Z 3.0

enum rb_compare_metric { RB_METRIC_MEDIAN, RB_METRIC_MIN };
/* NONFINITE: the ratio or its interval is not a finite positive number (a
 * sample of 1e308 against one of 1 ms), which no floor can judge. */
enum rb_verdict { RB_VERDICT_SAME, RB_VERDICT_FASTER, RB_VERDICT_SLOWER, RB_VERDICT_NONFINITE,
                  RB_VERDICT_COUNT };

struct rb_ratio_opts {
    enum rb_compare_metric metric;
    double noise;               /* noise floor: B/A within [1/(1+noise), 1+noise] is
                                   "same" whatever the interval; default 0.02 */
    int noise_auto;             /* 1 (default): raise the floor to the between-run
                                   spread of the cases (rb_comparison_noise) */
    double level;               /* confidence level, default 0.95 */
    int resamples;              /* default RB_COMPARE_RESAMPLES */
    uint64_t seed;              /* default RB_COMPARE_SEED */
};

struct rb_ratio {
    double a, b;                /* the statistic of each sample set, ms */
    double ratio;               /* b / a */
    double lo, hi;              /* percentile-bootstrap interval of the ratio */
    enum rb_verdict verdict;
};

void rb_ratio_opts_default(struct rb_ratio_opts *o);

/* B/A of the statistic of samples b over that of samples a, with a
 * percentile bootstrap interval (both sets resampled with replacement,
 * o->resamples times, from o->seed).  Returns 0, RB_EINVAL when a set is
 * empty or a statistic is not a positive number, RB_ENOMEM. */
int rb_ratio_bootstrap(const double *a, size_t na, const double *b, size_t nb,
                       const struct rb_ratio_opts *o, struct rb_ratio *out);

/* "non-finite" when the ratio or an end of its interval is not a finite
 * positive number; else "slower" when the interval lies above 1 and the
 * ratio above 1 + noise, "faster" when it lies below 1 and the ratio below
 * 1 / (1 + noise), else "same". */
enum rb_verdict rb_verdict_of(double ratio, double lo, double hi, double noise);
const char *rb_verdict_name(enum rb_verdict v);

/* One line of a comparison: a case of A, of B, or of both. */
struct rb_compare_row {
    const char *key;            /* the records' "key" (owned by the records) */
    char label[256];            /* "givens/forward/sequential serial f32 n=16 m=0" */
    const json_t *a, *b;        /* the records; NULL when the run lacks the case */
    int compared;               /* both ok with samples: r is filled */
    char why[64];               /* when not compared: "B failed", "A has no samples" */
    struct rb_ratio r;
};

struct rb_comparison {
    char a_dir[4096], b_dir[4096];      /* the runs as given, without trailing '/' */
    json_t *a_records, *b_records;
    struct rb_ratio_opts opts;
    size_t n;                   /* rows: the cases of both runs in A's order, then
                                   those only in A, then those only in B */
    struct rb_compare_row *rows;
    double shift;               /* the median B/A over the compared cases; NaN if none */
    double spread;              /* the between-run spread as a fraction; NaN with fewer
                                   than RB_COMPARE_SPREAD_MIN cases */
    double noise;               /* the floor the verdicts used */
    int centred;                /* the verdicts judged each ratio over shift */
};

/* The spread of n log ratios: exp(z * 1.4826 * MAD) - 1, the MAD around their
 * median (*shift gets exp of it), z = RB_COMPARE_SPREAD_Z.  NaN for fewer
 * than RB_COMPARE_SPREAD_MIN values.  x is reordered. */
double rb_compare_spread(double *x, size_t n, double *shift);
/* Set cmp->shift, spread and noise, and every compared row's verdict.  Each
 * interval comes from one run's samples and cannot see what differs between
 * two runs (clocks, memory layout, neighbours), which moves every case of a
 * run together and scatters them too.  With opts.noise_auto and a known
 * spread, each case is judged against the others (ratio and interval over
 * the shift) with the floor raised to the spread: a case that moved apart
 * from the rest is flagged, a shift of the whole run is left to the caller
 * (cli_compare fails --fail-above on it).  Otherwise the floor is
 * opts.noise and ratios are judged against 1.  RB_ENOMEM or 0. */
int rb_comparison_noise(struct rb_comparison *cmp);

/* Load RUN_A/records.jsonl and RUN_B/records.jsonl (a run may also be given
 * as its records.jsonl file; a key recorded twice is refused, as
 * rb_records_load says), match the records by key and compare every case ok
 * in both.  Returns 0,
 * or RB_EINVAL / RB_EIO with one line in err ("file:line: why" for a
 * malformed record), RB_ENOMEM. */
int rb_compare_runs(const char *run_a, const char *run_b, const struct rb_ratio_opts *o,
                    struct rb_comparison *out, char *err, size_t errlen);
/* Match cmp->a_records and b_records (arrays of records the caller put
 * there, with opts, a_dir and b_dir) as rb_compare_runs does.  0, or
 * RB_ENOMEM with cmp freed. */
int rb_compare_records(struct rb_comparison *cmp, char *err, size_t errlen);
void rb_comparison_free(struct rb_comparison *cmp);

enum rb_compare_format { RB_FORMAT_TEXT, RB_FORMAT_TSV, RB_FORMAT_MD, RB_FORMAT_JSON };

/* Print the comparison in a format.  0 or RB_EIO / RB_ENOMEM. */
int rb_comparison_print(const struct rb_comparison *cmp, enum rb_compare_format fmt, FILE *f);

/* The energy of the cases both runs have (harness/report/compare_energy.c): a
 * section of the text (md 0) or Markdown table with each case's joules per
 * run and throttle flags, or one line saying why there is none; the TSV's
 * a_energy_j, b_energy_j, a_throttled and b_throttled columns; the JSON's
 * "energy" of one side. */
void rb_comparison_print_energy(const struct rb_comparison *cmp, FILE *f, int md);
void rb_comparison_energy_tsv(const struct rb_compare_row *r, FILE *f);
json_t *rb_comparison_energy_json(const json_t *rec);

/* Write the speedup table (A over B per case, by series and first size) to
 * <plot without its extension>.tsv and draw it with plots/compare_speedup.gp
 * into plot (PNG, or PDF for a .pdf name).  Returns 0; RB_ESKIP when no case
 * was compared, RB_ENODEV when gnuplot is missing (the table is written),
 * RB_EIO / RB_EINVAL; each with a message in err. */
int rb_comparison_plot(const struct rb_comparison *cmp, const char *plot,
                       char *err, size_t errlen);

#endif
