/* SPDX-License-Identifier: MIT */
/* reprobench history: the runs of the store that hold the selected series,
 * each run's median and spread in time order, and their figure. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/cli/cli.h"
#include "harness/cli/cli_opts.h"
#include "harness/store/db.h"
#include "harness/error.h"
#include "harness/store/history.h"
#include "harness/report/plot.h"
#include "harness/registry.h"
#include "harness/records/results.h"

#define HISTORY_PANELS 12

enum {
    HIST_PAPER, HIST_ALGO, HIST_VARIANT, HIST_BACKEND, HIST_PREC, HIST_STATUS, HIST_MACHINE,
    HIST_SINCE, HIST_UNTIL, HIST_WHERE, HIST_BEST, HIST_DB, HIST_FORMAT, HIST_PLOT,
    HIST_NO_PLOT, HIST_QUIET
};

/* The store's field of each selection option, by id. */
static const char *const fields[] = { "paper", "algo", "variant", "backend", "prec",
                                      "status", "machine", "since", "until" };

static const struct rb_opt history_table[] = {
    { RB_OPT_HEADING, .help = "Select (as for run; each takes a list):" },
    { RB_OPT_LIST, "--paper", "P", .id = HIST_PAPER, .help = "givens, sammon, sbo" },
    { RB_OPT_LIST, "--algo", "A", .id = HIST_ALGO, .help = "e.g. forward, backward" },
    { RB_OPT_LIST, "--variant", "V", .id = HIST_VARIANT, .help = "e.g. paper, fused" },
    { RB_OPT_LIST, "--backend", "B", .id = HIST_BACKEND,
      .help = "serial, omp, opencl, cuda, hip" },
    { RB_OPT_LIST, "--prec", "P", .id = HIST_PREC, .help = "f32, f64" },
    { RB_OPT_LIST, "--status", "S", .id = HIST_STATUS, .help = "ok, failed, skipped" },
    { RB_OPT_TEXT, .help = "  --NAME LIST        an axis, e.g. --n 256,512 or --block 64:1024:pow2" },
    { RB_OPT_STRING, "--machine", "M", .id = HIST_MACHINE,
      .help = "a machine's number or fingerprint (db info lists them), its\n"
              "name, or a host that ran on it" },
    { RB_OPT_STRING, "--since", "T", .id = HIST_SINCE,
      .help = "runs started from T: YYYY-MM-DD[THH:MM[:SS]] (UTC) or an\n"
              "age: 12h, 3d, 2w" },
    { RB_OPT_STRING, "--until", "T", .id = HIST_UNTIL, .help = "runs started before T" },
    { RB_OPT_STRING, "--where", "QUERY", .id = HIST_WHERE,
      .help = "more terms, as compare --a takes them (git=..., run=...)" },
    { RB_OPT_FLAG, "--best", .id = HIST_BEST,
      .help = "one series per size: each run's fastest tunable setting" },
    { RB_OPT_HEADING, .help = "Output:" },
    { RB_OPT_STRING, "--db", "FILE", .id = HIST_DB,
      .help = "the store (default " RB_DB_DEFAULT ")" },
    { RB_OPT_CHOICE, "--format", "F", .choices = "text,tsv", .id = HIST_FORMAT,
      .help = "text (default) or tsv" },
    { RB_OPT_STRING, "--plot", "FILE", .id = HIST_PLOT,
      .help = "the figure (a .png; its table beside it as .tsv); by default\n"
              "history.png beside the store when gnuplot is installed;\n"
              "at most 12 series are drawn" },
    { RB_OPT_FLAG, "--no-plot", .id = HIST_NO_PLOT, .help = "draw nothing" },
    { RB_OPT_FLAG, "--quiet", .id = HIST_QUIET, .help = "no notes on stderr" },
    { RB_OPT_TEXT,
      .help = "\nEach option is given at most once (a list is one value: --n 64,128).\n"
              "Exit status: 0, 1 when the store cannot be read, 2 for bad input (an unknown\n"
              "option or field, no store, nothing selected)." },
    { RB_OPT_END }
};

struct history_opts {
    const char *db, *plot;
    struct rb_db_query q;
    int tsv, no_plot, quiet, best;
};

static int set_option(void *self, const struct rb_opt *opt, const struct rb_opt_value *v)
{
    struct history_opts *o = self;
    char err[512];

    switch (opt->id) {
    case HIST_WHERE:
        return rb_db_query_parse(v->str, &o->q, err, sizeof err)
               ? rb_cli_usage_error("history: %s", err) : 0;
    case HIST_BEST: o->best = 1; return 0;
    case HIST_DB: o->db = v->str; return 0;
    case HIST_FORMAT: o->tsv = v->i == 1; return 0;
    case HIST_PLOT: o->plot = v->str; return 0;
    case HIST_NO_PLOT: o->no_plot = 1; return 0;
    case HIST_QUIET: o->quiet = 1; return 0;
    default:
        return rb_db_query_add(&o->q, fields[opt->id], RB_DBQ_EQ, v->str, err, sizeof err)
               ? rb_cli_usage_error("history: --%s", err) : 0;
    }
}

/* Any other --NAME is an axis of some variant. */
static int is_axis(void *self, const char *name)
{
    (void)self;
    return rb_registry_axis(name) != NULL;
}

static int set_axis(void *self, const char *name, const char *val)
{
    struct history_opts *o = self;
    char err[512];

    return rb_db_query_add(&o->q, name, RB_DBQ_EQ, val, err, sizeof err)
           ? rb_cli_usage_error("history: --%s", err) : 0;
}

static const struct rb_cli history_cli = {
    .command = "history",
    .synopsis =
    "usage: reprobench history [options]\n"
    "\n"
    "For each selected series (a case: paper, algorithm, variant, backend, precision,\n"
    "sizes and tunables), one row per run of the store that has it, oldest first:\n"
    "the run's start, name, git describe and machine, and its median, p10 and p90\n"
    "time and spread ((p90 - p10) / median).  The figure draws each series in a\n"
    "panel: the median of each machine against time, in its p10-p90 band.\n"
    "\n",
    .opts = history_table,
    .set = set_option,
    .is_extra = is_axis,
    .set_extra = set_axis,
};

/* 0, -1 after --help, 2 on bad input. */
static int parse_args(int argc, char **argv, struct history_opts *o)
{
    int rc = rb_cli_parse(&history_cli, argc, argv, o, NULL);

    if (rc)
        return rc;
    if (o->plot && o->no_plot)
        return rb_cli_usage_error("history: --plot and --no-plot exclude each other");
    return 0;
}

/* --plot FILE, or history.png beside the store when gnuplot is there. */
static void draw(const struct history_opts *o, const struct rb_history *h)
{
    char file[PATH_MAX + 16], gnuplot[PATH_MAX], err[PATH_MAX + 128];
    const char *slash = strrchr(o->db, '/');
    size_t drawable = 0;
    int rc;

    if (o->no_plot)
        return;
    if (!o->plot && rb_plot_find_gnuplot(gnuplot, sizeof gnuplot) < 0) {
        if (!o->quiet)
            fprintf(stderr, "reprobench: no history figure: gnuplot not found (install "
                    "gnuplot-nox)\n");
        return;
    }
    if (o->plot)
        snprintf(file, sizeof file, "%s", o->plot);
    else if (slash)
        snprintf(file, sizeof file, "%.*s/history.png", (int)(slash - o->db), o->db);
    else
        snprintf(file, sizeof file, "history.png");
    for (size_t i = 0; i < h->n; i++)
        drawable++;
    rc = rb_history_plot(h, file, "", HISTORY_PANELS, err, sizeof err);
    if (o->quiet)
        return;
    if (rc)
        fprintf(stderr, "reprobench: no history figure: %s\n", err);
    else
        fprintf(stderr, "reprobench: wrote %s%s\n", file,
                drawable > HISTORY_PANELS ? " (the first 12 series: narrow the selection "
                "to draw the others)" : "");
}

int rb_cli_history(int argc, char **argv)
{
    struct history_opts o = { .db = RB_DB_DEFAULT };
    struct rb_history h;
    struct rb_db *db;
    json_t *records;
    char err[PATH_MAX + 512];
    int rc;

    if ((rc = parse_args(argc, argv, &o)))
        return rc < 0 ? 0 : rc;
    if ((rc = rb_db_open(o.db, RB_DB_READ, &db, err, sizeof err))
        || (rc = rb_db_select(db, &o.q, &records, err, sizeof err))) {
        rb_db_close(db);
        fprintf(stderr, "reprobench: history: %s\n", err);
        return rc == RB_EINVAL || rc == RB_ENODEV ? 2 : 1;
    }
    rb_db_close(db);
    if (json_array_size(records) == 0) {
        json_decref(records);
        return rb_cli_usage_error("history: no record in %s matches the selection", o.db);
    }
    if (rb_history_build(records, o.best, &h)) {
        json_decref(records);
        fprintf(stderr, "reprobench: history: out of memory\n");
        return 1;
    }
    rc = rb_history_print(&h, stdout, o.tsv) ? 1 : 0;
    if (rc)
        fprintf(stderr, "reprobench: history: could not write the table\n");
    else
        draw(&o, &h);
    rb_history_free(&h);
    json_decref(records);
    return rc;
}
