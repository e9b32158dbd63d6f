/* SPDX-License-Identifier: MIT */
/* reprobench compare RUN_A RUN_B (or two selections of the results store,
 * --db --a --b): each case's time in B against A, with a bootstrap interval
 * and a verdict; exit 1 on a regression past a bound. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "harness/cli/cli.h"
#include "harness/cli/cli_opts.h"
#include "harness/report/compare.h"
#include "harness/store/db.h"
#include "harness/store/db_compare.h"
#include "harness/error.h"
#include "harness/report/plot.h"
#include "harness/records/results.h"

#define SYNOPSIS \
    "usage: reprobench compare [options] RUN_A RUN_B\n" \
    "       reprobench compare [options] [--db FILE] --a QUERY --b QUERY\n" \
    "\n" \
    "Match the records of two run directories by case and print, for each case of\n" \
    "both, A's and B's median time, the ratio B/A, its 95% confidence interval (a\n" \
    "bootstrap of the ratio of medians over the raw samples, 2000 resamples, fixed\n" \
    "seed) and a verdict: 'slower' or 'faster' when the interval excludes 1 and the\n" \
    "ratio is off 1 by more than the noise floor, 'non-finite' when the ratio or its\n" \
    "interval is not a finite number, else 'same'.  Failed and skipped\n" \
    "records are shown, not compared; cases of one run only are listed at the end.\n" \
    "An interval over one run's samples cannot see what changes between two runs\n" \
    "(clocks, memory layout, neighbours), which move all cases of a run together\n" \
    "and scatter them.  With 8 or more cases, each case is judged against the\n" \
    "others: its B/A over the median B/A of all cases, against a floor raised to\n" \
    "their spread (3 robust standard deviations of log B/A).  The median itself is\n" \
    "printed above the table, and --fail-above also fails when it exceeds R.\n" \
    "\n"

struct compare_opts {
    const char *run[2], *plot, *db, *query[2];
    int nrun;
    enum rb_compare_format format;
    struct rb_ratio_opts ratio;
    double fail_above;          /* <= 0: not asked */
    int no_plot, quiet;
};

/* A positive number, or a fraction as "2%". */
static int parse_fraction(const char *opt, const char *s, int percent_ok, double *out)
{
    char *end;

    errno = 0;
    *out = strtod(s, &end);
    if (percent_ok && end != s && strcmp(end, "%") == 0) {
        *out /= 100;
        end++;
    }
    if (!*s || end == s || *end || errno || !isfinite(*out) || *out < 0
        || (!percent_ok && *out == 0))
        return rb_cli_usage_error("compare: %s: '%s' is not a %s", opt, s,
                                  percent_ok ? "fraction (0.02 or 2%)" : "positive number");
    return 0;
}

enum { CMP_FORMAT, CMP_METRIC, CMP_NOISE, CMP_FAIL_ABOVE, CMP_PLOT, CMP_NO_PLOT, CMP_QUIET,
       CMP_DB, CMP_A, CMP_B };

static const struct rb_opt compare_table[] = {
    { RB_OPT_CHOICE, "--format", "F", .choices = "text,tsv,md,json", .id = CMP_FORMAT,
      .help = "text (default, an aligned table), tsv, md or json" },
    { RB_OPT_CHOICE, "--metric", "M", .choices = "median,min", .id = CMP_METRIC,
      .help = "median (default) or min of the samples" },
    { RB_OPT_STRING, "--noise", "X", .id = CMP_NOISE,
      .help = "a fixed noise floor as a fraction ('2%' also reads), instead\n"
              "of the larger of 2% and the between-run spread" },
    { RB_OPT_STRING, "--fail-above", "R", .id = CMP_FAIL_ABOVE,
      .help = "exit 1 when a case is slower and its interval of B/A lies\n"
              "above R, when the median B/A of all cases exceeds R, or when\n"
              "a case's B/A is not a finite number" },
    { RB_OPT_STRING, "--plot", "FILE", .id = CMP_PLOT,
      .help = "draw B's speedup over A against size (PNG, or PDF for a .pdf\n"
              "name) with its table in FILE's name with .tsv; by default\n"
              "RUN_B/compare-vs-<RUN_A's name>.png when gnuplot is installed" },
    { RB_OPT_FLAG, "--no-plot", .id = CMP_NO_PLOT, .help = "draw nothing" },
    { RB_OPT_FLAG, "--quiet", .id = CMP_QUIET, .help = "no notes on stderr about the plot" },
    { RB_OPT_STRING, "--db", "FILE", .id = CMP_DB,
      .help = "with --a and --b: compare two selections of the results store\n"
              "(default " RB_DB_DEFAULT "), the newest record of each case" },
    { RB_OPT_STRING, "--a", "QUERY", .id = CMP_A,
      .help = "terms FIELD=V1,V2 or FIELD~TEXT, such as 'machine=1', 'git=v0.2'" },
    { RB_OPT_STRING, "--b", "QUERY", .id = CMP_B,
      .help = "or 'backend=omp n=256'; a bare word is a git describe or a run" },
    { RB_OPT_TEXT, .help = "\nExit status: 0, 1 for a regression beyond --fail-above, 2 for bad "
                           "input." },
    { RB_OPT_END }
};

static int set_option(void *self, const struct rb_opt *opt, const struct rb_opt_value *v)
{
    static const enum rb_compare_format formats[] = { RB_FORMAT_TEXT, RB_FORMAT_TSV,
                                                      RB_FORMAT_MD, RB_FORMAT_JSON };
    struct compare_opts *o = self;

    switch (opt->id) {
    case CMP_FORMAT: o->format = formats[v->i]; return 0;
    case CMP_METRIC: o->ratio.metric = v->i ? RB_METRIC_MIN : RB_METRIC_MEDIAN; return 0;
    case CMP_NOISE:
        o->ratio.noise_auto = 0;
        return parse_fraction(opt->name, v->str, 1, &o->ratio.noise) ? 2 : 0;
    case CMP_FAIL_ABOVE: return parse_fraction(opt->name, v->str, 0, &o->fail_above) ? 2 : 0;
    case CMP_PLOT: o->plot = v->str; return 0;
    case CMP_NO_PLOT: o->no_plot = 1; return 0;
    case CMP_DB: o->db = v->str; return 0;
    case CMP_A: o->query[0] = v->str; return 0;
    case CMP_B: o->query[1] = v->str; return 0;
    default: o->quiet = 1; return 0;
    }
}

static int positional(void *self, const char *arg)
{
    struct compare_opts *o = self;

    if (o->nrun == 2)
        return rb_cli_usage_error("compare: two runs only ('%s' is a third)", arg);
    o->run[o->nrun++] = arg;
    return 0;
}

static const struct rb_cli compare_cli = {
    .command = "compare",
    .synopsis = SYNOPSIS,
    .opts = compare_table,
    .set = set_option,
    .positional = positional,
};

/* Returns 0, -1 after --help, 2 on bad input. */
static int parse_args(int argc, char **argv, struct compare_opts *o)
{
    int rc = rb_cli_parse(&compare_cli, argc, argv, o, NULL);

    if (rc)
        return rc;
    if (o->db || o->query[0] || o->query[1]) {
        if (o->nrun > 0)
            return rb_cli_usage_error("compare: run directories or --a and --b, not both");
        if (!o->query[0] || !o->query[1])
            return rb_cli_usage_error("compare: --db needs both --a QUERY and --b QUERY");
        if (!o->db)
            o->db = RB_DB_DEFAULT;
    } else if (o->nrun < 2) {
        return rb_cli_usage_error("compare: give two run directories (see 'reprobench "
                                  "compare --help')");
    }
    if (o->plot && o->no_plot)
        return rb_cli_usage_error("compare: --plot and --no-plot exclude each other");
    return 0;
}

/* The run directory of a run given as a directory or as its records file. */
static void run_dir_of(const char *given, char *buf, size_t len)
{
    struct stat st;
    char *slash;

    snprintf(buf, len, "%s", given);
    if (stat(given, &st) == 0 && S_ISREG(st.st_mode)) {
        if ((slash = strrchr(buf, '/')))
            *slash = '\0';
        else
            snprintf(buf, len, ".");
    }
}

/* --plot FILE, or the default when gnuplot is there. */
static void draw_plot(const struct compare_opts *o, const struct rb_comparison *cmp)
{
    char file[2 * PATH_MAX + 32], adir[PATH_MAX], bdir[PATH_MAX], gnuplot[PATH_MAX], err[PATH_MAX];
    const char *plot = o->plot, *aname;
    int rc;

    if (o->no_plot || (o->db && !plot))
        return;
    if (!plot) {
        if (rb_plot_find_gnuplot(gnuplot, sizeof gnuplot) < 0) {
            if (!o->quiet)
                fprintf(stderr, "reprobench: no comparison plot: gnuplot not found "
                        "(install gnuplot-nox)\n");
            return;
        }
        run_dir_of(cmp->a_dir, adir, sizeof adir);
        run_dir_of(cmp->b_dir, bdir, sizeof bdir);
        aname = strrchr(adir, '/') ? strrchr(adir, '/') + 1 : adir;
        snprintf(file, sizeof file, "%s/compare-vs-%s.png", bdir, aname);
        plot = file;
    }
    rc = rb_comparison_plot(cmp, plot, err, sizeof err);
    if (rc && !o->quiet)
        fprintf(stderr, "reprobench: no comparison plot: %s\n", err);
    else if (!rc && !o->quiet)
        fprintf(stderr, "reprobench: wrote %s\n", plot);
}

/* Slower and the interval's lower bound above the bound.  With the default
 * floor that is the bound alone; a floor set wider says how far this
 * machine's runs spread, and a bound inside it would flag that spread. */
static int regressed(const struct compare_opts *o, const struct rb_compare_row *r)
{
    /* A ratio that is not a number cannot be shown to be within the bound. */
    return r->compared && (r->r.verdict == RB_VERDICT_NONFINITE
                           || (r->r.verdict == RB_VERDICT_SLOWER && r->r.lo > o->fail_above));
}

/* One line naming every regressed case; 1 if any. */
static int report_regressions(const struct compare_opts *o, const struct rb_comparison *cmp)
{
    size_t n = 0, nonfinite = 0;

    for (size_t i = 0; i < cmp->n; i++) {
        n += regressed(o, &cmp->rows[i]);
        nonfinite += cmp->rows[i].compared && cmp->rows[i].r.verdict == RB_VERDICT_NONFINITE;
    }
    if (cmp->centred && cmp->shift > o->fail_above) {
        fprintf(stderr, "reprobench: the whole run is slower than %gx: median B/A %.3g over "
                "all cases\n", o->fail_above, cmp->shift);
        return 1;
    }
    if (n == 0)
        return 0;
    fprintf(stderr, "reprobench: %zu case%s slower than %gx beyond the %g%% interval%s:", n,
            n == 1 ? "" : "s", o->fail_above, 100 * o->ratio.level,
            nonfinite ? " or with a B/A that is not a finite number" : "");
    for (size_t i = 0, k = 0; i < cmp->n; i++) {
        const struct rb_compare_row *r = &cmp->rows[i];
        if (regressed(o, r))
            fprintf(stderr, "%s %s (B/A %.3g, interval %.3g..%.3g)", k++ ? ";" : "", r->label,
                    r->r.ratio, r->r.lo, r->r.hi);
    }
    fputc('\n', stderr);
    return 1;
}

int rb_cli_compare(int argc, char **argv)
{
    struct compare_opts o = { .format = RB_FORMAT_TEXT };
    struct rb_comparison cmp;
    char err[PATH_MAX + 256];
    int rc;

    rb_ratio_opts_default(&o.ratio);
    if ((rc = parse_args(argc, argv, &o)))
        return rc < 0 ? 0 : rc;
    if (o.db)
        rc = rb_compare_store(o.db, o.query[0], o.query[1], &o.ratio, &cmp, err, sizeof err);
    else
        rc = rb_compare_runs(o.run[0], o.run[1], &o.ratio, &cmp, err, sizeof err);
    /* A store that cannot be read or written is I/O (1); a run directory's
     * failures stay bad input, as they were. */
    if (rc && (!o.db || rc == RB_EINVAL || rc == RB_ENODEV))
        return rb_cli_usage_error("%s", err);
    if (rc) {
        fprintf(stderr, "reprobench: %s\n", err);
        return 1;
    }
    errno = 0;
    if ((rc = rb_comparison_print(&cmp, o.format, stdout)) < 0) {
        int why = errno ? errno : EIO;
        fprintf(stderr, "reprobench: could not write the comparison: %s\n",
                rc == RB_ENOMEM ? "out of memory" : strerror(why));
        rb_comparison_free(&cmp);
        return 1;
    }
    draw_plot(&o, &cmp);
    rc = o.fail_above > 0 ? report_regressions(&o, &cmp) : 0;
    rb_comparison_free(&cmp);
    return rc;
}
