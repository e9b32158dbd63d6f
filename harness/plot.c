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
#include <sys/wait.h>
#include <unistd.h>

#include "harness/error.h"
#include "harness/plot.h"
#include "harness/record.h"
#include "harness/results.h"

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

/* gnuplot's single-quoted strings take everything literally but a quote,
 * which is doubled. */
int rb_plot_quote(char *buf, size_t len, size_t *at, const char *s)
{
    for (; *s; s++) {
        if (*s == '\n' || *at + 3 >= len)
            return RB_EINVAL;
        if (*s == '\'')
            buf[(*at)++] = '\'';
        buf[(*at)++] = *s;
    }
    buf[*at] = '\0';
    return 0;
}

/* in='<run>/records.tsv'; outdir='<run>/plots' */
static int gnuplot_args(char *buf, size_t len, const char *tsv, const char *outdir)
{
    size_t at = 0;

    if (len < 8)
        return RB_EINVAL;
    at = (size_t)snprintf(buf, len, "in='");
    if (rb_plot_quote(buf, len, &at, tsv) < 0 || at + 12 >= len)
        return RB_EINVAL;
    at += (size_t)snprintf(buf + at, len - at, "'; outdir='");
    if (rb_plot_quote(buf, len, &at, outdir) < 0 || at + 2 >= len)
        return RB_EINVAL;
    snprintf(buf + at, len - at, "'");
    return 0;
}

/* name -> modification time of every file in dir, to tell which a script wrote. */
static json_t *dir_snapshot(const char *dir)
{
    json_t *snap = json_object();
    char path[PATH_MAX + 256];
    struct dirent *e;
    struct stat st;
    DIR *d = opendir(dir);

    if (!d || !snap) {
        if (d)
            closedir(d);
        return snap;
    }
    while ((e = readdir(d))) {
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        if (stat(path, &st) == 0 && S_ISREG(st.st_mode))
            json_object_set_new(snap, e->d_name,
                                json_sprintf("%lld.%09ld", (long long)st.st_mtim.tv_sec,
                                             (long)st.st_mtim.tv_nsec));
    }
    closedir(d);
    return snap;
}

static void report_written(const char *dir, const json_t *before, int quiet)
{
    json_t *after = dir_snapshot(dir), *t;
    const char *name;

    json_object_foreach(after, name, t) {
        const char *dot = strrchr(name, '.');
        if (quiet || !dot || (strcmp(dot, ".png") != 0 && strcmp(dot, ".pdf") != 0))
            continue;
        if (!json_equal(json_object_get(before, name), t))
            printf("wrote %s/%s\n", dir, name);
    }
    json_decref(after);
}

int rb_plot_run_script(const char *gnuplot, const char *expr, const char *script)
{
    char *const argv[] = { (char *)"gnuplot", (char *)"-e", (char *)expr,
                           (char *)script, NULL };
    int wstatus;
    pid_t pid;

    fflush(stdout);
    fflush(stderr);
    if ((pid = fork()) < 0)
        return RB_EIO;
    if (pid == 0) {
        execv(gnuplot, argv);
        fprintf(stderr, "reprobench: %s: %s\n", gnuplot, strerror(errno));
        _exit(127);
    }
    while (waitpid(pid, &wstatus, 0) < 0)
        if (errno != EINTR)
            return RB_EIO;
    return WIFEXITED(wstatus) && WEXITSTATUS(wstatus) == 0 ? 0 : RB_EIO;
}

static int is_script_of(const char *name, const char *paper)
{
    size_t p = strlen(paper), n = strlen(name);

    return n > p + 4 && strncmp(name, paper, p) == 0 && name[p] == '_'
           && strcmp(name + n - 3, ".gp") == 0;
}

/* Every <paper>_*.gp in the scripts folder, in name order; a failing script
 * is named in err and the others still run. */
static int plot_paper(const char *paper, const char *gnuplot, const char *expr,
                      const char *outdir, int quiet, char *err, size_t errlen)
{
    const char *scripts = rb_plot_scripts_dir();
    char path[PATH_MAX + 256];
    struct dirent **names;
    int n, found = 0, status = 0;

    if ((n = scandir(scripts, &names, NULL, alphasort)) < 0) {
        snprintf(err, errlen, "%s: %s", scripts, strerror(errno));
        return RB_EIO;
    }
    for (int i = 0; i < n; i++) {
        if (is_script_of(names[i]->d_name, paper)) {
            json_t *before = dir_snapshot(outdir);

            found = 1;
            snprintf(path, sizeof path, "%s/%s", scripts, names[i]->d_name);
            if (rb_plot_run_script(gnuplot, expr, path) < 0 && status == 0) {
                snprintf(err, errlen, "gnuplot failed on %s", names[i]->d_name);
                status = RB_EIO;
            }
            report_written(outdir, before, quiet);
            json_decref(before);
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

int rb_plot_run(const char *run_dir, int quiet, char *err, size_t errlen)
{
    char tsv[PATH_MAX + 16], outdir[PATH_MAX + 16], records_path[PATH_MAX + 16];
    char gnuplot[PATH_MAX], expr[3 * PATH_MAX + 64], dir[PATH_MAX];
    size_t len = strlen(run_dir);
    json_t *records, *papers, *v;
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
    if (!papers) {
        snprintf(err, errlen, "out of memory");
        return RB_ENOMEM;
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
    if (gnuplot_args(expr, sizeof expr, tsv, outdir) < 0) {
        snprintf(err, errlen, "%s: a run directory name gnuplot cannot take", run_dir);
        status = RB_EINVAL;
        goto out_free_papers;
    }
    json_object_foreach(papers, paper, v) {
        char why[PATH_MAX + 64];
        int s = plot_paper(paper, gnuplot, expr, outdir, quiet, why, sizeof why);

        if (s < 0 && status == 0) {
            snprintf(err, errlen, "%s", why);
            status = s;
        }
    }
out_free_papers:
    json_decref(papers);
    return status;
}
