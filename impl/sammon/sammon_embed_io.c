/* SPDX-License-Identifier: MIT */
/* sammon-embed's data, input checks and outputs (sammon_embed_io.h): shipped
 * sets, CSV files or generated points; duplicates, overflowing distances
 * and non-finite maps refused with the reason; --out and --plot probed
 * before the work, and written through temporary files and renames. */
#include <errno.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "harness/error.h"
#include "harness/report/plot.h"
#include "impl/common/rng.h"
#include "impl/sammon/sammon.h"
#include "impl/sammon/sammon_embed_io.h"

const char *sammon_embed_prog = "sammon-embed";

/* "random:NxD": N points uniform in [0, 255]^D, the paper's set-up. */
static int generate(const char *spec, unsigned long long seed, struct rb_dataset *d)
{
    char *end;
    errno = 0;
    long long N = strtoll(spec, &end, 10), D = 0;
    if (!errno && end != spec && *end == 'x')
        D = strtoll(end + 1, &end, 10);
    if (errno || *end || N < 2 || N > INT_MAX / 2 || D < 1 || D > 4096)
        return complain(2, "--data random:%s: want random:NxD with 2 <= N <= %d and 1 <= D "
                        "<= 4096", spec, INT_MAX / 2);
    memset(d, 0, sizeof *d);
    snprintf(d->name, sizeof d->name, "random:%lldx%lld", N, D);
    snprintf(d->path, sizeof d->path, "(generated, seed %llu)", seed);
    d->N = (int)N;
    d->n = (int)D;
    d->x = malloc((size_t)N * D * sizeof *d->x);
    d->label = calloc((size_t)N, sizeof *d->label);
    if (!d->x || !d->label) {
        rb_dataset_free(d);
        return complain(1, "out of memory for %lld x %lld points", N, D);
    }
    struct rb_rng r;
    rb_rng_seed(&r, rb_seed_derive(seed, "sammon-embed/data"));
    for (size_t k = 0; k < (size_t)N * D; k++)
        d->x[k] = rb_rng_uniform(&r) * 255.0;
    return 0;
}

int embed_load(const char *name, unsigned long long seed, struct rb_dataset *d)
{
    char err[512];
    if (strncmp(name, "random:", 7) == 0)
        return generate(name + 7, seed, d);
    int rc = rb_dataset_load(name, d, err, sizeof err);
    return rc ? complain(rc == RB_EINVAL || rc == RB_EIO ? 2 : 1, "%s", err) : 0;
}

static void print_row(FILE *f, const double *r, int n)
{
    for (int q = 0; q < n; q++)
        fprintf(f, "%s%.15g", q ? " " : "", r[q]);
}

int embed_duplicates(struct rb_dataset *d, int dedup, int *keep)
{
    int i, j;
    for (int p = 0; p < d->N; p++)
        keep[p] = p;
    if (dedup) {
        int N = sammon_dedup(d->N, d->n, d->x, keep);
        fprintf(stderr, "%s: %d rows, %d after removing duplicates\n", d->name, d->N, N);
        d->N = N;
        return 0;
    }
    if (!sammon_find_duplicate(d->N, d->n, d->x, &i, &j))
        return 0;
    fprintf(stderr, "%s: %s: rows %d and %d are the same point (", sammon_embed_prog, d->name,
            i + 1, j + 1);
    print_row(stderr, d->x + (size_t)i * d->n, d->n > 8 ? 8 : d->n);
    fprintf(stderr, "%s); --dedup keeps the first\n", d->n > 8 ? " ..." : "");
    return 2;
}

/* Every d*^2 and each of the N (N - 1) / 2 stress terms (d* - d)^2 / d* is
 * at most about D^2 for outputs on the data's scale, D the diagonal of the
 * bounding box, so P D^2 with a factor 4 of headroom must stay finite. */
int embed_check_extent(const struct rb_dataset *d)
{
    double pairs = 0.5 * d->N * (d->N - 1.0), extent = sammon_extent(d->N, d->n, d->x);
    double limit = sqrt(DBL_MAX / (4.0 * fmax(pairs, 1.0)));
    if (extent <= limit)
        return 0;
    return complain(2, "%s: the data span %.3g (the diagonal of their bounding box), so "
                    "their distance sums would overflow double precision; for %d points the "
                    "span must stay below %.3g (rescale the columns)", d->name, extent, d->N,
                    limit);
}

/* The entries of X^T X are sums of N products of coordinates. */
int embed_check_pca_scale(const struct rb_dataset *d)
{
    const size_t len = (size_t)d->N * d->n;
    double top = 0.0;
#ifdef _OPENMP
#pragma omp parallel for schedule(static) reduction(max : top) if (len >= 65536)
#endif
    for (size_t k = 0; k < len; k++)
        top = fmax(top, fabs(d->x[k]));
    if (top <= sqrt(DBL_MAX / (4.0 * d->N * (double)d->n)))
        return 0;
    return complain(2, "%s: coordinates as large as %.3g make the pca start's X^T X overflow "
                    "double precision (try --init cmdscale, which centres the data, or "
                    "--init random)", d->name, top);
}

double *embed_centred(const struct rb_dataset *d)
{
    const int N = d->N, n = d->n;
    double *xc = malloc((size_t)N * n * sizeof *xc);
    if (!xc)
        return NULL;
    memcpy(xc, d->x, (size_t)N * n * sizeof *xc);
    for (int q = 0; q < n; q++) {
        double mean = 0.0;
        for (int p = 0; p < N; p++)
            mean += xc[(size_t)p * n + q];
        mean /= N;
        for (int p = 0; p < N; p++)
            xc[(size_t)p * n + q] -= mean;
    }
    return xc;
}

int embed_check_finite(const struct rb_dataset *d, const double *y, int len, double e, int it,
                       const char *out)
{
    int k = 0;
    while (k < len && isfinite(y[k]))
        k++;
    if (isfinite(e) && k == len)
        return 0;
    double v = isfinite(e) ? y[k] : e;
    return complain(1, "%s: %s is %s after %d iterations: points too close together or too "
                    "far apart for the precision; nothing written%s%s", d->name,
                    isfinite(e) ? "a coordinate" : "the stress",
                    isnan(v) ? "NaN" : v > 0 ? "+inf" : "-inf", it, out ? " to " : "",
                    out ? out : "");
}

/* 2 with the reason when `path` (option opt) is a folder or its temporary
 * file cannot be created. */
static int probe(const char *opt, const char *path)
{
    char tmp[PATH_MAX + 16];
    struct stat st;
    if (snprintf(tmp, sizeof tmp, "%s.tmp", path) >= (int)sizeof tmp)
        return complain(2, "%s: path too long", opt);
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
        return complain(2, "%s %s: is a directory (give a file name)", opt, path);
    FILE *f = fopen(tmp, "w");
    if (!f)
        return complain(2, "%s %s: cannot create %s: %s", opt, path, tmp, strerror(errno));
    fclose(f);
    remove(tmp);
    return 0;
}

static int script_path(char *buf, size_t len)
{
    return snprintf(buf, len, "%s/sammon-embedding.gp", rb_plot_scripts_dir()) < (int)len
           && access(buf, R_OK) == 0 ? 0 : -1;
}

int embed_probe_outputs(const struct embed_options *o)
{
    char path[PATH_MAX];
    int rc = o->out ? probe("--out", o->out) : 0;
    if (rc || !o->plot)
        return rc;
    if (rb_plot_find_gnuplot(path, sizeof path) < 0)
        return complain(2, "--plot: gnuplot not found (install gnuplot-nox, or set GNUPLOT)");
    if (script_path(path, sizeof path) < 0)
        return complain(2, "--plot: no %s (RB_PLOTS_DIR says where the scripts are)", path);
    return probe("--plot", o->plot);
}

/* One row into buf (at least ROW_MAX bytes); its length. */
enum { ROW_MAX = 3 * (17 + 1) + 11 + 2 };   /* m <= 3 of %.10g, tabs, a label */

static size_t format_row(char *buf, int m, const double *y, int label)
{
    size_t at = 0;
    for (int q = 0; q < m; q++)
        at += (size_t)snprintf(buf + at, ROW_MAX - at, "%.10g\t", y[q]);
    at += (size_t)snprintf(buf + at, ROW_MAX - at, "%d\n", label);
    return at;
}

/* The header and the rows.  The rows are formatted over the host's cores
 * in blocks and written in order: printf's formatting alone takes 50 ms for
 * 65536 rows on one core, a part of a whole GPU run. */
static int write_rows(FILE *f, int m, const struct rb_dataset *d, const double *y,
                      const int *keep, int N)
{
    enum { BLOCK = 4096 };
    const int blocks = (N + BLOCK - 1) / BLOCK;
    char *text = malloc((size_t)N * ROW_MAX + 1);
    size_t *len = calloc((size_t)blocks + 1, sizeof *len);
    fprintf(f, m == 3 ? "x\ty\tz\tlabel\n" : "x\ty\tlabel\n");
    if (!text || !len) {                /* row by row, then */
        char row[ROW_MAX];
        for (int p = 0; p < N; p++)
            fwrite(row, 1, format_row(row, m, y + (size_t)p * m, d->label[keep[p]]), f);
    } else {
#ifdef _OPENMP
#pragma omp parallel for schedule(dynamic) if (N > BLOCK)
#endif
        for (int b = 0; b < blocks; b++) {
            char *at = text + (size_t)b * BLOCK * ROW_MAX;
            for (int p = b * BLOCK; p < N && p < (b + 1) * BLOCK; p++)
                len[b] += format_row(at + len[b], m, y + (size_t)p * m, d->label[keep[p]]);
        }
        for (int b = 0; b < blocks; b++)
            fwrite(text + (size_t)b * BLOCK * ROW_MAX, 1, len[b], f);
    }
    free(len);
    free(text);
    return ferror(f);
}

/* The TSV into `path` through PATH.tmp; 0 or 1 after the line. */
static int write_file(const char *path, int m, const struct rb_dataset *d, const double *y,
                      const int *keep, int N)
{
    char tmp[PATH_MAX + 16];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *f = fopen(tmp, "w");
    if (!f)
        return complain(1, "%s: %s", tmp, strerror(errno));
    int bad = write_rows(f, m, d, y, keep, N);
    bad |= fclose(f) != 0;
    if (bad || rename(tmp, path) != 0) {
        int e = errno;
        remove(tmp);
        return complain(1, "%s: %s", path, strerror(e));
    }
    return 0;
}

int embed_write_tsv(const struct embed_options *o, const struct rb_dataset *d, const double *y,
                    const int *keep, int N)
{
    if (o->out)
        return write_file(o->out, o->outdim, d, y, keep, N);
    int bad = write_rows(stdout, o->outdim, d, y, keep, N);
    bad |= fflush(stdout) != 0;
    return bad ? complain(1, "writing the TSV failed") : 0;
}

int embed_plot(const struct embed_options *o, const struct rb_dataset *d, const double *y,
               const int *keep, int N)
{
    char gnuplot[PATH_MAX], script[PATH_MAX], tsv[PATH_MAX + 64], base[PATH_MAX + 32];
    char made[PATH_MAX + 64], expr[4 * PATH_MAX];
    size_t at = 0;
    int rc = 0;
    if (rb_plot_find_gnuplot(gnuplot, sizeof gnuplot) < 0 || script_path(script, sizeof script))
        return complain(1, "--plot: gnuplot or its script went missing");
    snprintf(base, sizeof base, "%s.tmp-%ld", o->plot, (long)getpid());
    snprintf(made, sizeof made, "%s.png", base);
    if (o->out) {
        snprintf(tsv, sizeof tsv, "%s", o->out);
    } else {
        snprintf(tsv, sizeof tsv, "%s.tsv", base);
        if ((rc = write_file(tsv, o->outdim, d, y, keep, N)) != 0)
            return rc;
    }
    at = (size_t)snprintf(expr, sizeof expr, "fmts='png'; in='");
    if (rb_plot_quote(expr, sizeof expr, &at, tsv) == 0) {
        at += (size_t)snprintf(expr + at, sizeof expr - at, "'; out='");
        if (rb_plot_quote(expr, sizeof expr, &at, base) == 0) {
            at += (size_t)snprintf(expr + at, sizeof expr - at, "'; name='");
            rc = rb_plot_quote(expr, sizeof expr, &at, d->name);
            snprintf(expr + at, sizeof expr - at, "'");
        } else {
            rc = RB_EINVAL;
        }
    } else {
        rc = RB_EINVAL;
    }
    if (rc)
        rc = complain(2, "--plot: a file name gnuplot cannot take");
    else if (rb_plot_run_script(gnuplot, expr, script) != 0)
        rc = complain(1, "--plot: gnuplot failed on %s", script);
    else if (rename(made, o->plot) != 0)
        rc = complain(1, "%s: %s", o->plot, strerror(errno));
    remove(made);
    if (!o->out)
        remove(tsv);
    if (rc == 0)
        fprintf(stderr, "wrote %s\n", o->plot);
    return rc;
}
