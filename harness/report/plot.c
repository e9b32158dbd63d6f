/* SPDX-License-Identifier: MIT */
/* Plots of a run: regenerate records.tsv, then run each paper's gnuplot
 * scripts on it, writing into <run>/plots/. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include "harness/records/atomic_file.h"
#include "harness/error.h"
#include "harness/report/plot.h"
#include "harness/records/record.h"
#include "harness/records/results.h"

const char *rb_plot_scripts_dir(void)
{
    const char *env = getenv("RB_PLOTS_DIR");
    struct stat st;

    if (env && *env)
        return env;
    if (stat(RB_PKGDATADIR "/plots", &st) == 0 && S_ISDIR(st.st_mode))
        return RB_PKGDATADIR "/plots";
    return RB_SRCDIR "/plots";
}

/* $GNUPLOT, then the one configure found, then any gnuplot on PATH. */
int rb_plot_find_gnuplot(char *buf, size_t len)
{
    const char *tries[] = { getenv("GNUPLOT"), RB_GNUPLOT, "gnuplot" };

    for (size_t i = 0; i < sizeof tries / sizeof *tries; i++) {
        const char *name = tries[i], *path = getenv("PATH");

        if (!name || !*name)
            continue;
        if (strchr(name, '/')) {
            if (access(name, X_OK) == 0 && (size_t)snprintf(buf, len, "%s", name) < len)
                return 0;
            continue;
        }
        while (path && *path) {
            size_t n = strcspn(path, ":");
            if ((size_t)snprintf(buf, len, "%.*s/%s", (int)n, n ? path : ".", name) < len
                && access(buf, X_OK) == 0)
                return 0;
            path += n + (path[n] == ':');
        }
    }
    return RB_ENODEV;
}

static int is_script_of(const char *name, const char *paper)
{
    size_t p = strlen(paper), n = strlen(name);

    return n > p + 4 && strncmp(name, paper, p) == 0 && name[p] == '_'
           && strcmp(name + n - 3, ".gp") == 0;
}

/* The figure a script draws: its name without ".gp". */
static const char *figure_name(const char *script, char *buf, size_t len)
{
    snprintf(buf, len, "%.*s", (int)(strlen(script) - 3), script);
    return buf;
}

/* Every <paper>_*.gp in the scripts folder, in name order; a failing script
 * is named in err and the others still run.  A script with nothing to draw
 * gets its reason in not_drawn (figure name -> reason). */
static int plot_paper(const char *paper, const char *gnuplot, const char *tsv,
                      const char *outdir, int quiet, json_t *not_drawn, char *err, size_t errlen)
{
    const char *scripts = rb_plot_scripts_dir();
    char path[PATH_MAX + 256], why[PATH_MAX + 256];
    struct dirent **names;
    int n, found = 0, status = 0;

    if ((n = scandir(scripts, &names, NULL, alphasort)) < 0) {
        snprintf(err, errlen, "%s: %s", scripts, strerror(errno));
        return RB_EIO;
    }
    for (int i = 0; i < n; i++) {
        const char *name = names[i]->d_name;

        if (is_script_of(name, paper)) {
            int s;

            found = 1;
            snprintf(path, sizeof path, "%s/%s", scripts, name);
            s = rb_plot_script_into(gnuplot, path, tsv, outdir, NULL, quiet, NULL, why,
                                    sizeof why);
            if (s == RB_ESKIP)
                json_object_set_new(not_drawn, figure_name(name, path, sizeof path),
                                    json_string(why));
            else if (s < 0 && status == 0) {
                snprintf(err, errlen, "%s", why);
                status = s;
            }
        }
        free(names[i]);
    }
    free(names);
    if (!found)
        fprintf(stderr, "reprobench: no plot scripts for %s in %s\n", paper, scripts);
    return status;
}

/* The papers present in the records, in order of first appearance. */
static json_t *papers_of(const json_t *records)
{
    json_t *papers = json_object(), *rec;
    size_t i;

    json_array_foreach(records, i, rec) {
        const char *p = json_string_value(json_object_get(rec, "paper"));
        if (papers && p && !json_object_get(papers, p))
            json_object_set_new(papers, p, json_true());
    }
    return papers;
}

static int render_not_drawn(void *arg, FILE *f)
{
    const char *name;
    json_t *why;

    fputs("figure\treason\n", f);
    json_object_foreach((json_t *)arg, name, why) {
        rb_tsv_put_text(f, name);
        fputc('\t', f);
        rb_tsv_put_text(f, json_string_value(why));
        fputc('\n', f);
    }
    return 0;
}

/* plots/not-drawn.tsv, and one line naming them unless quiet. */
static int note_not_drawn(const char *outdir, json_t *not_drawn, int quiet, char *err,
                          size_t errlen)
{
    char path[PATH_MAX + 32], line[1024];
    const char *name;
    json_t *why;
    size_t at = 0;

    snprintf(path, sizeof path, "%s/%s", outdir, RB_PLOT_NOT_DRAWN);
    if (quiet || json_object_size(not_drawn) == 0)
        return rb_atomic_print(path, render_not_drawn, not_drawn, err, errlen);
    json_object_foreach(not_drawn, name, why)
        if (at < sizeof line)
            at += (size_t)snprintf(line + at, sizeof line - at, "%s%s", at ? ", " : "", name);
    printf("not drawn, nothing for them in these records: %s (reasons in %s and the "
           "report)\n", line, path);
    return rb_atomic_print(path, render_not_drawn, not_drawn, err, errlen);
}

int rb_plot_run(const char *run_dir, int quiet, char *err, size_t errlen)
{
    char tsv[PATH_MAX + 16], outdir[PATH_MAX + 16], records_path[PATH_MAX + 16];
    char gnuplot[PATH_MAX], dir[PATH_MAX];
    size_t len = strlen(run_dir);
    json_t *records, *papers, *v, *not_drawn = NULL;
    const char *paper;
    int status;

    /* "results/x/" from shell completion: no "//" in the paths printed. */
    while (len > 1 && run_dir[len - 1] == '/')
        len--;
    if (len >= sizeof dir) {
        snprintf(err, errlen, "%s: path too long", run_dir);
        return RB_EINVAL;
    }
    memcpy(dir, run_dir, len);
    dir[len] = '\0';
    run_dir = dir;
    if ((status = rb_run_write_tsv(run_dir, err, errlen)) < 0)
        return status;
    snprintf(records_path, sizeof records_path, "%s/records.jsonl", run_dir);
    if ((status = rb_records_load(records_path, &records, err, errlen)) < 0)
        return status;
    papers = papers_of(records);
    json_decref(records);
    if (!papers || !(not_drawn = json_object())) {
        snprintf(err, errlen, "out of memory");
        status = RB_ENOMEM;
        goto out_free_papers;
    }
    if (json_object_size(papers) == 0) {
        if (!quiet)
            printf("no records to plot in %s\n", run_dir);
        goto out_free_papers;
    }
    if (rb_plot_find_gnuplot(gnuplot, sizeof gnuplot) < 0) {
        snprintf(err, errlen, "gnuplot not found (install gnuplot-nox)");
        status = RB_ENODEV;
        goto out_free_papers;
    }
    snprintf(tsv, sizeof tsv, "%s/records.tsv", run_dir);
    snprintf(outdir, sizeof outdir, "%s/plots", run_dir);
    if (mkdir(outdir, 0777) != 0 && errno != EEXIST) {
        snprintf(err, errlen, "%s: %s", outdir, strerror(errno));
        status = RB_EIO;
        goto out_free_papers;
    }
    json_object_foreach(papers, paper, v) {
        char why[PATH_MAX + 256];
        int s = plot_paper(paper, gnuplot, tsv, outdir, quiet, not_drawn, why, sizeof why);

        if (s < 0 && status == 0) {
            snprintf(err, errlen, "%s", why);
            status = s;
        }
    }
    if (status == 0)
        status = note_not_drawn(outdir, not_drawn, quiet, err, errlen);
out_free_papers:
    json_decref(not_drawn);
    json_decref(papers);
    return status;
}
