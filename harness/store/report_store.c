/* SPDX-License-Identifier: MIT */
/* report --db: the cross-machine report of the results store.  Its
 * machines; for each paper the best configuration of every variant on
 * every machine, the paper's claims on each machine and the history of
 * each variant across runs. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "harness/store/db.h"
#include "harness/error.h"
#include "harness/store/history.h"
#include "harness/run/lock.h"
#include "harness/report/report.h"
#include "harness/store/report_store.h"
#include "harness/records/results.h"

/* The newest record of each case on each machine, in the order of first
 * appearance: what the machine's columns and claims read. */
static json_t *newest_per_machine_case(const json_t *records)
{
    json_t *last = json_object(), *out = json_array(), *rec;
    char k[1200];
    size_t i;

    if (!last || !out)
        goto out_free;
    json_array_foreach(records, i, rec) {
        snprintf(k, sizeof k, "%lld %s",
                 (long long)json_integer_value(json_object_get(json_object_get(rec, "store"),
                                                               "machine")),
                 rb_rec_str(rec, "key"));
        if (json_object_set_new(last, k, json_integer((json_int_t)i)) < 0)
            goto out_free;
    }
    json_array_foreach(records, i, rec) {
        snprintf(k, sizeof k, "%lld %s",
                 (long long)json_integer_value(json_object_get(json_object_get(rec, "store"),
                                                               "machine")),
                 rb_rec_str(rec, "key"));
        if (json_integer_value(json_object_get(last, k)) == (json_int_t)i
            && json_array_append(out, rec) < 0)
            goto out_free;
    }
    json_decref(last);
    return out;
out_free:
    json_decref(last);
    json_decref(out);
    return NULL;
}

static long long machine_of(const json_t *rec)
{
    return json_integer_value(json_object_get(json_object_get(rec, "store"), "machine"));
}

/* The records of one paper (and one machine, unless machine < 0), borrowed
 * into a new array. */
static json_t *subset(const json_t *records, const char *paper, long long machine)
{
    json_t *out = json_array(), *rec;
    size_t i;

    json_array_foreach(records, i, rec)
        if (out && strcmp(rb_rec_str(rec, "paper"), paper) == 0
            && (machine < 0 || machine_of(rec) == machine))
            json_array_append(out, rec);
    return out;
}

static void machines_section(struct rb_doc *d, const json_t *machines)
{
    static const char *const head[] = { "machine", "name", "fingerprint", "runs", "hosts" };
    json_t *table = rb_doc_table(d, head, 5), *m;
    size_t i;

    json_array_foreach(machines, i, m) {
        char id[24], runs[24];
        snprintf(id, sizeof id, "%lld", (long long)json_integer_value(json_object_get(m, "id")));
        snprintf(runs, sizeof runs, "%lld",
                 (long long)json_integer_value(json_object_get(m, "runs")));
        rb_doc_row(d, table, (const char *const[]){ id, rb_rec_str(m, "name"),
                   rb_rec_str(m, "fingerprint"), runs, rb_rec_str(m, "hosts") });
    }
}

/* The series of a row: a case without its tunables. */
static void series_key(const json_t *rec, char *buf, size_t len)
{
    char sizes[256];

    rb_axes_label(json_object_get(rec, "sizes"), sizes, sizeof sizes);
    snprintf(buf, len, "%s|%s|%s|%s|%s", rb_rec_str(rec, "algo"), rb_rec_str(rec, "variant"),
             rb_rec_str(rec, "backend"), rb_rec_str(rec, "prec"), sizes);
}

/* The fastest verified record of a series on a machine, or NULL. */
static const json_t *best_of(const json_t *records, const char *series, long long machine)
{
    const json_t *best = NULL, *rec;
    char key[600];
    size_t i;

    json_array_foreach(records, i, rec) {
        if (machine_of(rec) != machine || !rb_rec_ok(rec))
            continue;
        series_key(rec, key, sizeof key);
        if (strcmp(key, series) == 0 && (!best || rb_rec_median(rec) < rb_rec_median(best)))
            best = rec;
    }
    return best;
}

/* One row per series, one column per machine: the best median and its
 * tunables. */
static void best_table(struct rb_doc *d, const json_t *records, const json_t *machines)
{
    size_t nm = json_array_size(machines), ncol = 5 + nm, i, j;
    const char **head = calloc(ncol, sizeof *head), **cells = calloc(ncol, sizeof *cells);
    char (*bufs)[200] = calloc(ncol, sizeof *bufs);
    json_t *seen = json_object(), *table, *rec;

    if (!head || !cells || !bufs || !seen) {
        d->bad = 1;
        goto out_free;
    }
    head[0] = "algo", head[1] = "variant", head[2] = "backend", head[3] = "prec";
    head[4] = "sizes";
    for (j = 0; j < nm; j++) {
        snprintf(bufs[5 + j], sizeof bufs[0], "machine %lld: median ms (tunables)",
                 (long long)json_integer_value(json_object_get(json_array_get(machines, j),
                                                               "id")));
        head[5 + j] = bufs[5 + j];
    }
    table = rb_doc_table(d, head, ncol);
    json_array_foreach(records, i, rec) {
        char key[600], sizes[256], med[32], tun[160];

        series_key(rec, key, sizeof key);
        if (json_object_get(seen, key))
            continue;
        json_object_set_new(seen, key, json_true());
        rb_axes_label(json_object_get(rec, "sizes"), sizes, sizeof sizes);
        cells[0] = rb_rec_str(rec, "algo"), cells[1] = rb_rec_str(rec, "variant");
        cells[2] = rb_rec_str(rec, "backend"), cells[3] = rb_rec_str(rec, "prec");
        cells[4] = sizes;
        for (j = 0; j < nm; j++) {
            long long m = json_integer_value(json_object_get(json_array_get(machines, j), "id"));
            const json_t *b = best_of(records, key, m);

            if (!b) {
                snprintf(bufs[5 + j], sizeof bufs[0], "-");
            } else {
                rb_ms_label(rb_rec_median(b), med, sizeof med);
                rb_axes_label(json_object_get(b, "tunables"), tun, sizeof tun);
                snprintf(bufs[5 + j], sizeof bufs[0], "%s (%s)", med, tun);
            }
            cells[5 + j] = bufs[5 + j];
        }
        rb_doc_row(d, table, cells);
    }
out_free:
    json_decref(seen);
    free(bufs);
    free(cells);
    free(head);
}

/* Of each variant, backend and precision, the size most runs have (the
 * later one of a tie): one panel each. */
static void one_size_each(const struct rb_history *all, struct rb_history *some)
{
    some->n = 0;
    for (size_t i = 0; i < all->n; i++) {
        int keep = 1;
        for (size_t j = 0; j < all->n && keep; j++)
            if (j != i && strcmp(all->s[j].group, all->s[i].group) == 0
                && (all->s[j].n > all->s[i].n || (all->s[j].n == all->s[i].n && j > i)))
                keep = 0;
        if (keep)
            some->s[some->n++] = all->s[i];
    }
}

static void history_figure(struct rb_doc *d, const char *out, const char *paper,
                           const json_t *records, int quiet)
{
    struct rb_history all, some;
    char png[PATH_MAX + 64], name[64], err[PATH_MAX + 128];
    int rc;

    if (rb_history_build(records, 1, &all)) {
        d->bad = 1;
        return;
    }
    if (!(some.s = malloc((all.n + 1) * sizeof *some.s))) {
        rb_history_free(&all);
        d->bad = 1;
        return;
    }
    one_size_each(&all, &some);
    snprintf(name, sizeof name, "%s-history.png", paper);
    snprintf(png, sizeof png, "%s/%s", out, name);
    rc = rb_history_plot(&some, png, paper, 12, err, sizeof err);
    if (rc == 0) {
        rb_doc_image(d, name, "Each variant across runs at the size most runs have, at its "
                     "best tunables: the median of each machine in its p10-p90 band.");
    } else {
        rb_doc_para(d, "No history figure: %s.", err);
        if (!quiet && rc != RB_ESKIP)
            fprintf(stderr, "reprobench: no history figure for %s: %s\n", paper, err);
    }
    free(some.s);
    rb_history_free(&all);
}

/* records: the newest of each case on each machine; all: every record,
 * for the history. */
static void paper_section(struct rb_doc *d, const char *out, const char *paper,
                          const json_t *records, const json_t *all, const json_t *machines,
                          int quiet)
{
    json_t *recs = subset(records, paper, -1), *m;
    char heading[512];
    size_t i;

    snprintf(heading, sizeof heading, "%s: %s", paper, rb_report_paper_title(paper));
    rb_doc_heading(d, 2, heading);
    if (!recs || json_array_size(recs) == 0) {
        rb_doc_para(d, "No record of this paper in the store.");
        json_decref(recs);
        return;
    }
    rb_doc_heading(d, 3, "Best configuration of every variant on every machine");
    best_table(d, recs, machines);
    json_array_foreach(machines, i, m) {
        long long id = json_integer_value(json_object_get(m, "id"));
        json_t *mine = subset(records, paper, id);

        if (mine && json_array_size(mine) > 0) {
            snprintf(heading, sizeof heading, "Machine %lld: %s", id, rb_rec_str(m, "name"));
            rb_doc_heading(d, 3, heading);
            rb_report_claims(d, paper, mine, json_object_get(m, "hardware"));
        }
        json_decref(mine);
    }
    json_decref(recs);
    rb_doc_heading(d, 3, "History");
    recs = subset(all, paper, -1);
    if (recs)
        history_figure(d, out, paper, recs, quiet);
    json_decref(recs);
}

/* The papers to report: those with claims, then any other in the records. */
static json_t *papers_of(const json_t *records)
{
    json_t *papers = json_array(), *rec;
    size_t i;

    for (const char *const *c = rb_report_claim_papers(); papers && *c; c++)
        json_array_append_new(papers, json_string(*c));
    json_array_foreach(records, i, rec) {
        const char *p = rb_rec_str(rec, "paper");
        json_t *q;
        size_t j;
        int seen = !*p;
        json_array_foreach(papers, j, q)
            seen |= strcmp(json_string_value(q), p) == 0;
        if (!seen && papers)
            json_array_append_new(papers, json_string(p));
    }
    return papers;
}

static int write_doc(const struct rb_doc *d, const char *title, const char *path, int html,
                     char *err, size_t errlen)
{
    char *text = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&text, &len);
    int status;

    if (!mem) {
        snprintf(err, errlen, "%s: out of memory", path);
        return RB_ENOMEM;
    }
    status = html ? rb_doc_write_html(d, title, mem) : rb_doc_write_md(d, title, mem);
    if (fclose(mem) != 0 || status) {
        free(text);
        snprintf(err, errlen, "%s: out of memory", path);
        return RB_ENOMEM;
    }
    status = rb_write_file_atomic(path, text, err, errlen);
    free(text);
    return status;
}

static int build(struct rb_doc *d, const char *store, const char *out, const json_t *all,
                 const json_t *machines, const json_t *runs, int quiet)
{
    json_t *newest = newest_per_machine_case(all), *papers = papers_of(all), *p;
    size_t i;

    if (!newest || !papers) {
        json_decref(newest);
        json_decref(papers);
        return RB_ENOMEM;
    }
    rb_doc_para(d, "Store %s: %zu run%s, %zu records, %zu machine%s (one per distinct "
                "hardware). Every number below is read from the store; where a machine ran "
                "a case more than once, its newest record counts, and each machine's claims "
                "table reads those records.", store, json_array_size(runs),
                json_array_size(runs) == 1 ? "" : "s", json_array_size(all),
                json_array_size(machines), json_array_size(machines) == 1 ? "" : "s");
    rb_doc_heading(d, 2, "Machines");
    machines_section(d, machines);
    json_array_foreach(papers, i, p)
        paper_section(d, out, json_string_value(p), newest, all, machines, quiet);
    json_decref(newest);
    json_decref(papers);
    return d->bad ? RB_ENOMEM : 0;
}

int rb_report_store_write(const char *store, const char *out, int quiet, char *index,
                          size_t indexlen, char *err, size_t errlen)
{
    struct rb_db_query q = { 0 };
    json_t *all = NULL, *machines = NULL, *runs = NULL;
    char path[PATH_MAX + 32], title[PATH_MAX + 64];
    struct rb_doc doc;
    struct rb_db *db;
    int status, lock = -1;

    if ((status = rb_db_open(store, RB_DB_READ, &db, err, errlen)))
        return status;
    /* Records, machines and runs as the store was at one moment. */
    if ((status = rb_db_read_begin(db, err, errlen))
        || (status = rb_db_select(db, &q, &all, err, errlen))
        || (status = rb_db_machines(db, &machines, err, errlen))
        || (status = rb_db_runs(db, &runs, err, errlen)))
        goto out_close;
    rb_db_read_end(db);
    if (mkdir(out, 0777) != 0 && errno != EEXIST) {
        snprintf(err, errlen, "%s: %s", out, strerror(errno));
        status = RB_EIO;
        goto out_close;
    }
    /* One writer of the folder at a time, as of a run directory: two
     * reports into it, or one into a run being written, would mix. */
    if ((status = rb_lock_take(out, &lock, err, errlen)))
        goto out_close;
    if ((status = rb_doc_init(&doc))) {
        snprintf(err, errlen, "report: out of memory");
        goto out_close;
    }
    snprintf(title, sizeof title, "reprobench across machines: %s", store);
    if ((status = build(&doc, store, out, all, machines, runs, quiet))) {
        snprintf(err, errlen, "report: out of memory");
        goto out_free_doc;
    }
    snprintf(path, sizeof path, "%s/README.md", out);
    if ((status = write_doc(&doc, title, path, 0, err, errlen)))
        goto out_free_doc;
    snprintf(path, sizeof path, "%s/index.html", out);
    if ((status = write_doc(&doc, title, path, 1, err, errlen)))
        goto out_free_doc;
    if (index)
        snprintf(index, indexlen, "%s", path);
out_free_doc:
    rb_doc_free(&doc);
out_close:
    rb_lock_release(lock);
    rb_db_read_end(db);
    rb_db_close(db);
    json_decref(all);
    json_decref(machines);
    json_decref(runs);
    return status;
}
