/* SPDX-License-Identifier: MIT */
/* reprobench history: the runs of the store that hold the selected series,
 * each run's median and spread in time order, and their figure. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/cli.h"
#include "harness/db.h"
#include "harness/error.h"
#include "harness/history.h"
#include "harness/plot.h"
#include "harness/results.h"

#define HISTORY_PANELS 12

static const char usage[] =
    "usage: reprobench history [options]\n"
    "\n"
    "For each selected series (a case: paper, algorithm, variant, backend, precision,\n"
    "sizes and tunables), one row per run of the store that has it, oldest first:\n"
    "the run's start, name, git describe and machine, and its median, p10 and p90\n"
    "time and spread ((p90 - p10) / median).  The figure draws each series in a\n"
    "panel: the median of each machine against time, in its p10-p90 band.\n"
    "\n"
    "Select (as for run; each takes a list):\n"
    "  --paper P --algo A --variant V --backend B --prec P --status S\n"
    "  --NAME LIST        an axis, e.g. --n 256,512 or --block 64:1024:pow2\n"
    "  --machine M        a machine's number or fingerprint (db info lists them), its\n"
    "                     name, or a host that ran on it\n"
    "  --since T --until T  runs started from / before T: YYYY-MM-DD[THH:MM[:SS]] (UTC)\n"
    "                     or an age: 12h, 3d, 2w\n"
    "  --where QUERY      more terms, as compare --a takes them (git=..., run=...)\n"
    "  --best             one series per size: each run's fastest tunable setting\n"
    "Output:\n"
    "  --db FILE          the store (default " RB_DB_DEFAULT ")\n"
    "  --format F         text (default) or tsv\n"
    "  --plot FILE        the figure (a .png; its table beside it as .tsv); by default\n"
    "                     history.png beside the store when gnuplot is installed;\n"
    "                     at most 12 series are drawn\n"
    "  --no-plot          draw nothing\n"
    "  --quiet            no notes on stderr\n"
    "\n"
    "Exit status: 0, 1 when the store cannot be read, 2 for bad input (an unknown\n"
    "option or field, no store, nothing selected).\n";

struct history_opts {
    const char *db, *plot;
    struct rb_db_query q;
    int tsv, no_plot, quiet, best;
};

static int parse_option(struct history_opts *o, const char *opt, const char *val)
{
    static const char *const fields[] = { "paper", "algo", "variant", "backend", "prec",
                                          "status", "machine", "since", "until" };
    char err[512];

    if (strcmp(opt, "--db") == 0 || strcmp(opt, "--plot") == 0) {
        if (!*val)
            return rb_cli_usage_error("history: %s needs a file name", opt);
        *(opt[2] == 'd' ? &o->db : &o->plot) = val;
        return 0;
    }
    if (strcmp(opt, "--format") == 0) {
        if (strcmp(val, "text") != 0 && strcmp(val, "tsv") != 0)
            return rb_cli_usage_error("history: unknown format '%s' (text, tsv)", val);
        o->tsv = strcmp(val, "tsv") == 0;
        return 0;
    }
    if (strcmp(opt, "--where") == 0)
        return rb_db_query_parse(val, &o->q, err, sizeof err)
               ? rb_cli_usage_error("history: %s", err) : 0;
    for (size_t i = 0; i < sizeof fields / sizeof *fields; i++)
        if (strcmp(opt + 2, fields[i]) == 0)
            return rb_db_query_add(&o->q, fields[i], RB_DBQ_EQ, val, err, sizeof err)
                   ? rb_cli_usage_error("history: --%s", err) : 0;
    /* Any other --NAME must be an axis. */
    if (rb_db_query_add(&o->q, opt + 2, RB_DBQ_EQ, val, err, sizeof err)) {
        if (strncmp(err, "unknown field", 13) == 0)
            return rb_cli_usage_error("history: unknown option '%s' (see 'reprobench history "
                                      "--help')", opt);
        return rb_cli_usage_error("history: --%s", err);
    }
    return 0;
}

/* 0, -1 after --help, 2 on bad input. */
static int parse_args(int argc, char **argv, struct history_opts *o)
{
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *val;
        char name[64];

        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            fputs(usage, stdout);
            return -1;
        }
        if (strcmp(a, "--no-plot") == 0) { o->no_plot = 1; continue; }
        if (strcmp(a, "--quiet") == 0) { o->quiet = 1; continue; }
        if (strcmp(a, "--best") == 0) { o->best = 1; continue; }
        if (strncmp(a, "--", 2) != 0 || !a[2])
            return rb_cli_usage_error("history: unexpected argument '%s'", a);
        if ((val = strchr(a, '='))) {
            snprintf(name, sizeof name, "%.*s", (int)(val - a), a);
            val++;
        } else {
            snprintf(name, sizeof name, "%s", a);
            if (i + 1 >= argc)
                return rb_cli_usage_error("history: option '%s' needs a value", a);
            val = argv[++i];
        }
        if (parse_option(o, name, val))
            return 2;
    }
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
