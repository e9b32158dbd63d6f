/* SPDX-License-Identifier: MIT */
/* reprobench report: gather a run directory's records, meta.json,
 * hardware.json and figures, and write report/index.html and README.md. */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "harness/records/atomic_file.h"
#include "harness/error.h"
#include "harness/report/plot.h"
#include "harness/records/record.h"
#include "harness/report/report.h"
#include "harness/records/results.h"

/* A JSON file of the run, or NULL when it is missing or unreadable: the
 * report says so rather than failing. */
static json_t *load_optional(const char *dir, const char *name)
{
    char path[PATH_MAX + 32];

    snprintf(path, sizeof path, "%s/%s", dir, name);
    return json_load_file(path, 0, NULL);
}

/* Names we write into HTML attributes and Markdown links unescaped. */
static int plain_name(const char *s)
{
    for (; *s; s++)
        if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.", *s))
            return 0;
    return 1;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(json_string_value(*(json_t *const *)a), json_string_value(*(json_t *const *)b));
}

/* Copy plots/<paper>_*.png into the report folder; their names, sorted, in
 * a new array (NULL on failure, with err). */
static json_t *copy_figures(const char *run, const char *report, const char *paper,
                            char *err, size_t errlen)
{
    char from[PATH_MAX + 300], to[PATH_MAX + 300], dir[PATH_MAX + 16];
    json_t *names = json_array(), **sorted = NULL;
    size_t plen = strlen(paper), n, i;
    struct dirent *e;
    DIR *dp;

    snprintf(dir, sizeof dir, "%s/plots", run);
    if (!names || !(dp = opendir(dir)))
        return names;           /* no plots folder: no figures */
    while ((e = readdir(dp))) {
        size_t len = strlen(e->d_name);
        if (strncmp(e->d_name, paper, plen) != 0 || e->d_name[plen] != '_' || len < 5
            || strcmp(e->d_name + len - 4, ".png") != 0 || !plain_name(e->d_name))
            continue;
        snprintf(from, sizeof from, "%s/%s", dir, e->d_name);
        snprintf(to, sizeof to, "%s/%s", report, e->d_name);
        if (rb_atomic_copy(from, to, err, errlen) < 0
            || json_array_append_new(names, json_string(e->d_name)) < 0)
            goto out_close_dir;
    }
    closedir(dp);
    n = json_array_size(names);
    if (n > 1 && (sorted = malloc(n * sizeof *sorted))) {
        for (i = 0; i < n; i++)
            sorted[i] = json_incref(json_array_get(names, i));
        qsort(sorted, n, sizeof *sorted, by_name);
        json_array_clear(names);
        for (i = 0; i < n; i++)
            json_array_append_new(names, sorted[i]);
        free(sorted);
    }
    return names;
out_close_dir:
    closedir(dp);
    json_decref(names);
    return NULL;
}

/* The paper's figures that `plot` found nothing to draw for, each once with
 * its script's reason (plots/not-drawn.tsv: figure, reason). */
static void report_not_drawn(struct rb_doc *d, const char *run, const char *paper)
{
    char path[PATH_MAX + 64], line[1024];
    size_t plen = strlen(paper);
    json_t *list = NULL;
    FILE *f;

    snprintf(path, sizeof path, "%s/plots/%s", run, RB_PLOT_NOT_DRAWN);
    if (!(f = fopen(path, "r")))
        return;
    while (fgets(line, sizeof line, f)) {
        char *tab = strchr(line, '\t'), item[1100];

        line[strcspn(line, "\n")] = '\0';
        if (!tab || strncmp(line, paper, plen) != 0 || line[plen] != '_')
            continue;
        *tab = '\0';
        if (!list) {
            rb_doc_para(d, "Figures these records cannot draw:");
            list = rb_doc_list(d);
        }
        snprintf(item, sizeof item, "%s: %s", line, tab + 1);
        rb_doc_item(d, list, item);
    }
    fclose(f);
}

/* The papers to report: those with claims, then any other in the records. */
static json_t *papers_of(const json_t *records)
{
    json_t *papers = json_array(), *rec, *p;
    size_t i, j;

    for (const char *const *c = rb_report_claim_papers(); papers && *c; c++)
        json_array_append_new(papers, json_string(*c));
    json_array_foreach(records, i, rec) {
        int seen = 0;
        json_array_foreach(papers, j, p)
            seen |= strcmp(json_string_value(p), rb_rec_str(rec, "paper")) == 0;
        if (!seen && papers && *rb_rec_str(rec, "paper"))
            json_array_append_new(papers, json_string(rb_rec_str(rec, "paper")));
    }
    return papers;
}

static int has_paper(const json_t *records, const char *paper)
{
    const json_t *rec;
    size_t i;

    json_array_foreach(records, i, rec)
        if (strcmp(rb_rec_str(rec, "paper"), paper) == 0)
            return 1;
    return 0;
}

static int build(struct rb_doc *d, const char *run, const char *report, const json_t *records,
                 const json_t *meta, const json_t *hw, char *err, size_t errlen)
{
    json_t *papers = papers_of(records), *p, *figs;
    char heading[512];
    size_t i;

    if (!papers)
        return RB_ENOMEM;
    rb_doc_para(d, "Run directory %s: %zu records. Every number below is read from its "
                "records.jsonl, meta.json and hardware.json.", run, json_array_size(records));
    rb_report_hardware(d, hw);
    rb_report_build(d, meta);
    json_array_foreach(papers, i, p) {
        const char *paper = json_string_value(p);

        snprintf(heading, sizeof heading, "%s: %s", paper, rb_report_paper_title(paper));
        rb_doc_heading(d, 2, heading);
        if (!has_paper(records, paper)) {
            rb_doc_para(d, "Not in this run: no record of this paper.");
            rb_report_claims(d, paper, records, hw);
            continue;
        }
        if (!(figs = copy_figures(run, report, paper, err, errlen))) {
            json_decref(papers);
            return RB_EIO;
        }
        rb_report_paper(d, paper, records, figs, meta);
        report_not_drawn(d, run, paper);
        rb_report_claims(d, paper, records, hw);
        json_decref(figs);
    }
    rb_report_roofline(d, run, report, records, meta);
    rb_report_energy(d, records);
    json_decref(papers);
    return d->bad ? RB_ENOMEM : 0;
}

struct rendering {
    const struct rb_doc *doc;
    const char *title;
    int html;
};

static int render(void *arg, FILE *f)
{
    const struct rendering *r = arg;
    return r->html ? rb_doc_write_html(r->doc, r->title, f)
                   : rb_doc_write_md(r->doc, r->title, f);
}

/* Render through a memory stream and write atomically. */
static int write_doc(const struct rb_doc *d, const char *title, const char *path, int html,
                     char *err, size_t errlen)
{
    struct rendering r = { d, title, html };
    return rb_atomic_print(path, render, &r, err, errlen);
}

int rb_report_write(const char *run_dir, char *index, size_t indexlen,
                    char *err, size_t errlen)
{
    char path[PATH_MAX + 64], report[PATH_MAX + 16], title[PATH_MAX + 32];
    json_t *records = NULL, *meta, *hw;
    struct rb_doc doc;
    struct stat st;
    const char *base;
    int status;

    if (stat(run_dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
        snprintf(err, errlen, "report: %s is not a directory", run_dir);
        return RB_EINVAL;
    }
    snprintf(path, sizeof path, "%s/records.jsonl", run_dir);
    if ((status = rb_records_load(path, &records, err, errlen)))
        return status;
    meta = load_optional(run_dir, "meta.json");
    hw = load_optional(run_dir, "hardware.json");
    snprintf(report, sizeof report, "%s/report", run_dir);
    if (mkdir(report, 0777) != 0 && errno != EEXIST) {
        snprintf(err, errlen, "%s: %s", report, strerror(errno));
        status = RB_EIO;
        goto out_free_json;
    }
    if ((status = rb_doc_init(&doc))) {
        snprintf(err, errlen, "report: out of memory");
        goto out_free_json;
    }
    if ((status = build(&doc, run_dir, report, records, meta, hw, err, errlen))) {
        if (status == RB_ENOMEM)
            snprintf(err, errlen, "report: out of memory");
        goto out_free_doc;
    }
    base = strrchr(run_dir, '/') && strrchr(run_dir, '/')[1] ? strrchr(run_dir, '/') + 1
           : run_dir;
    snprintf(title, sizeof title, "reprobench report: %s", base);
    snprintf(path, sizeof path, "%s/README.md", report);
    if ((status = write_doc(&doc, title, path, 0, err, errlen)))
        goto out_free_doc;
    snprintf(path, sizeof path, "%s/index.html", report);
    if ((status = write_doc(&doc, title, path, 1, err, errlen)))
        goto out_free_doc;
    if (index)
        snprintf(index, indexlen, "%s", path);
out_free_doc:
    rb_doc_free(&doc);
out_free_json:
    json_decref(records);
    json_decref(meta);
    json_decref(hw);
    return status;
}
