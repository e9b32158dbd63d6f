/* SPDX-License-Identifier: MIT */
/* sammon-embed: the fp64 Sammon mapping of a shipped data set or a CSV file
 * to 2 or 3 dimensions, with the peers' update rules, written as a TSV. */
#include <errno.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "datasets/dataset.h"
#include "harness/error.h"
#include "harness/prog.h"
#include "impl/sammon/sammon.h"

static const char usage[] =
    "usage: sammon-embed --data iris|digits|FILE.csv [options]\n"
    "Map the data to 2 (or 3) dimensions by Sammon's mapping in double precision and\n"
    "write one row per point: x y [z] label.\n"
    "  --data NAME     iris or digits (shipped; RB_DATA_DIR overrides where), or a CSV\n"
    "                  of numeric rows whose last column is an integer label; a first\n"
    "                  line that is not all numbers is a header\n"
    "  --dedup         keep the first of each set of equal rows (Sammon's stress\n"
    "                  divides by the distance, so duplicates are an error otherwise)\n"
    "  --init R        pca (uncentred, as Cawley's sammon.m), cmdscale (centred\n"
    "                  classical MDS, as R MASS) or random (uniform in [0, mean\n"
    "                  distance)); default cmdscale for --rule mass, else pca\n"
    "  --rule R        newton (Sammon's pseudo-Newton, factor 0.3), gd (plain\n"
    "                  gradient descent, step 0.3 of the mean distance at most),\n"
    "                  mass (R MASS: adaptive factor) or cawley (sammon.m: step\n"
    "                  halving); default cawley\n"
    "  --iters N       at most N iterations (default 100 for mass, else 500); newton\n"
    "                  and gd also stop when the stress changes by < 1e-9 relative\n"
    "  --outdim M      2 (default) or 3\n"
    "  --seed S        seed of --init random (default 1)\n"
    "  --out FILE      write the TSV to FILE (through FILE.tmp); default stdout\n"
    "  --help          this text\n"
    "Progress (the stress every 10 iterations) and the final stress go to stderr.\n"
    "Exit status: 0 done, 1 failure, 2 bad input.\n";

enum rule { RULE_NEWTON, RULE_GD, RULE_MASS, RULE_CAWLEY };
enum init { INIT_DEFAULT, INIT_PCA, INIT_CMDSCALE, INIT_RANDOM };

struct options {
    const char *data, *out;
    int dedup, iters, outdim;
    enum rule rule;
    enum init init;
    unsigned long long seed;
};

#define complain(...) rb_prog_complain("sammon-embed", __VA_ARGS__)

static int pick(const char *opt, const char *val, const char *const *names, int *out)
{
    for (int k = 0; names[k]; k++)
        if (strcmp(val, names[k]) == 0) {
            *out = k;
            return 0;
        }
    return complain(2, "%s: '%s' is not one of the choices (see --help)", opt, val);
}

#define parse_int(...) rb_prog_parse_int("sammon-embed", __VA_ARGS__)

static int parse_options(int argc, char **argv, struct options *o)
{
    static const char *const rules[] = { "newton", "gd", "mass", "cawley", NULL };
    static const char *const inits[] = { "default", "pca", "cmdscale", "random", NULL };
    long long v;
    int k, rc;
    *o = (struct options){ .outdim = 2, .rule = RULE_CAWLEY, .seed = 1, .iters = -1 };
    for (int a = 1; a < argc; a++) {
        const char *opt = argv[a];
        if (strcmp(opt, "--help") == 0) {
            fputs(usage, stdout);
            return -1;
        }
        if (strcmp(opt, "--dedup") == 0) {
            o->dedup = 1;
            continue;
        }
        static const char *const valued[] = { "--data", "--init", "--rule", "--iters",
                                              "--outdim", "--seed", "--out", NULL };
        int known = 0;
        for (k = 0; valued[k]; k++)
            known |= strcmp(opt, valued[k]) == 0;
        if (!known)
            return complain(2, "unknown option '%s' (see --help)", opt);
        if (a + 1 >= argc)
            return complain(2, "%s needs a value", opt);
        const char *val = argv[++a];
        rc = 0;
        if (strcmp(opt, "--data") == 0)
            o->data = val;
        else if (strcmp(opt, "--out") == 0)
            o->out = val;
        else if (strcmp(opt, "--rule") == 0 && !(rc = pick(opt, val, rules, &k)))
            o->rule = (enum rule)k;
        else if (strcmp(opt, "--init") == 0 && !(rc = pick(opt, val, inits + 1, &k)))
            o->init = (enum init)(k + 1);
        else if (strcmp(opt, "--iters") == 0 && !(rc = parse_int(opt, val, 1, INT_MAX, &v)))
            o->iters = (int)v;
        else if (strcmp(opt, "--outdim") == 0 && !(rc = parse_int(opt, val, 2, 3, &v)))
            o->outdim = (int)v;
        else if (strcmp(opt, "--seed") == 0 && !(rc = parse_int(opt, val, 0, LLONG_MAX, &v)))
            o->seed = (unsigned long long)v;
        if (rc)
            return rc;
    }
    if (!o->data)
        return complain(2, "--data is required (iris, digits or FILE.csv; see --help)");
    if (o->iters < 0)
        o->iters = o->rule == RULE_MASS ? 100 : 500;
    if (o->init == INIT_DEFAULT)
        o->init = o->rule == RULE_MASS ? INIT_CMDSCALE : INIT_PCA;
    return 0;
}

static void print_row(FILE *f, const double *r, int n)
{
    for (int q = 0; q < n; q++)
        fprintf(f, "%s%.15g", q ? " " : "", r[q]);
}

static int check_duplicates(const struct rb_dataset *d)
{
    int i, j;
    if (!sammon_find_duplicate(d->N, d->n, d->x, &i, &j))
        return 0;
    fprintf(stderr, "sammon-embed: %s: rows %d and %d are the same point (", d->name, i + 1,
            j + 1);
    print_row(stderr, d->x + (size_t)i * d->n, d->n > 8 ? 8 : d->n);
    fprintf(stderr, "%s); --dedup keeps the first\n", d->n > 8 ? " ..." : "");
    return 2;
}

/* The largest distance the data can have: the diagonal of their bounding
 * box, computed scaled so that it overflows only when it is not finite. */
static double data_extent(const struct rb_dataset *d)
{
    double top = 0.0, sum = 0.0;
    double *span = malloc((size_t)d->n * sizeof *span);
    if (!span)
        return NAN;
    for (int q = 0; q < d->n; q++) {
        double lo = d->x[q], hi = d->x[q];
        for (int p = 1; p < d->N; p++) {
            lo = fmin(lo, d->x[(size_t)p * d->n + q]);
            hi = fmax(hi, d->x[(size_t)p * d->n + q]);
        }
        span[q] = hi - lo;              /* inf when the column spans more than DBL_MAX */
        top = fmax(top, span[q]);
    }
    for (int q = 0; q < d->n && top > 0.0 && isfinite(top); q++)
        sum += (span[q] / top) * (span[q] / top);
    free(span);
    return top > 0.0 && isfinite(top) ? top * sqrt(sum) : top;
}

/* 2 with the reason when the distance sums could overflow double precision:
 * every d*^2 and each of the N (N - 1) / 2 stress terms (d* - d)^2 / d* is
 * at most about D^2 for outputs on the data's scale, so P D^2 with a
 * factor 4 of headroom must stay finite. */
static int check_extent(const struct rb_dataset *d)
{
    double pairs = 0.5 * d->N * (d->N - 1.0), extent = data_extent(d);
    double limit = sqrt(DBL_MAX / (4.0 * fmax(pairs, 1.0)));
    if (extent <= limit)
        return 0;
    if (isnan(extent))
        return complain(1, "out of memory");
    return complain(2, "%s: the data span %.3g (the diagonal of their bounding box), so "
                    "their distance sums would overflow double precision; for %d points the "
                    "span must stay below %.3g (rescale the columns)", d->name, extent, d->N,
                    limit);
}

/* 2 with the reason when the uncentred PCA start's X^T X could overflow:
 * its entries are sums of N products of coordinates. */
static int check_pca_scale(const struct rb_dataset *d)
{
    double top = 0.0;
    for (size_t k = 0; k < (size_t)d->N * d->n; k++)
        top = fmax(top, fabs(d->x[k]));
    if (top <= sqrt(DBL_MAX / (4.0 * d->N * (double)d->n)))
        return 0;
    return complain(2, "%s: coordinates as large as %.3g make the pca start's X^T X overflow "
                    "double precision (try --init cmdscale, which centres the data, or "
                    "--init random)", d->name, top);
}

static void trace(int iter, double stress, void *arg)
{
    (void)arg;
    if (iter % 10 == 0)
        fprintf(stderr, "iteration %4d: stress %.7f\n", iter, stress);
}

/* Sammon's pseudo-Newton or plain GD, Jacobi, until `iters` or a relative
 * change below 1e-9; the iterations taken. */
static int run_fixed(int N, int n, int m, const double *x, double *y, const struct options *o,
                     double *stress)
{
    double *next = malloc((size_t)N * m * sizeof *next);
    if (!next)
        return RB_ENOMEM;
    double c = sammon_input_scale(N, n, x), alpha = sammon_gd_alpha(N, c, SAMMON_GD_LAMBDA);
    double e = sammon_stress(N, n, m, x, y, c);
    int it = 0;
    while (it < o->iters) {
        if (o->rule == RULE_NEWTON)
            sammon_step_newton(N, n, m, x, y, c, SAMMON_MAGIC, next);
        else
            sammon_step_gd(N, n, m, x, y, c, alpha, next);
        memcpy(y, next, (size_t)N * m * sizeof *y);
        double e_new = sammon_stress(N, n, m, x, y, c), change = (e - e_new) / e;
        trace(++it, e_new, NULL);
        e = e_new;
        if (!isfinite(e) || (change < 1e-9 && change > -1e-9))
            break;
    }
    free(next);
    *stress = e;
    return it;
}

static int start(const struct rb_dataset *d, const struct options *o, double *y)
{
    int N = d->N, n = d->n, m = o->outdim, rc = 0;
    if (o->init == INIT_RANDOM) {
        double c = sammon_input_scale(N, n, d->x);
        sammon_init_random(o->seed, N, m, c / (0.5 * N * (N - 1.0)), y);
        return 0;
    }
    if (o->init == INIT_PCA && (rc = check_pca_scale(d)) != 0)
        return rc;
    double *xc = malloc((size_t)N * n * sizeof *xc);
    if (!xc)
        return complain(1, "out of memory");
    memcpy(xc, d->x, (size_t)N * n * sizeof *xc);
    /* cmdscale on Euclidean distances is the PCA of the centred data. */
    for (int q = 0; o->init == INIT_CMDSCALE && q < n; q++) {
        double mean = 0.0;
        for (int p = 0; p < N; p++)
            mean += xc[(size_t)p * n + q];
        mean /= N;
        for (int p = 0; p < N; p++)
            xc[(size_t)p * n + q] -= mean;
    }
    if (sammon_init_pca(N, n, m, xc, y) != 0)
        rc = complain(2, "%s: the data have fewer than %d independent directions, so %s "
                      "cannot start in %d dimensions (try --init random)", d->name, m,
                      o->init == INIT_PCA ? "pca" : "cmdscale", m);
    free(xc);
    return rc;
}

/* 1 with the reason when the stress or a coordinate is not finite: such a
 * map is never written. */
static int check_finite(const struct rb_dataset *d, const double *y, int len, double e,
                        int it, const struct options *o)
{
    int k = 0;
    while (k < len && isfinite(y[k]))
        k++;
    if (isfinite(e) && k == len)
        return 0;
    double v = isfinite(e) ? y[k] : e;
    return complain(1, "%s: %s is %s after %d iterations: points too close together or too "
                    "far apart for double precision; nothing written%s%s", d->name,
                    isfinite(e) ? "a coordinate" : "the stress",
                    isnan(v) ? "NaN" : v > 0 ? "+inf" : "-inf", it, o->out ? " to " : "",
                    o->out ? o->out : "");
}

static int write_tsv(const struct options *o, const struct rb_dataset *d, const double *y,
                     const int *keep, int N)
{
    char tmp[4200];
    FILE *f = stdout;
    if (o->out) {
        if (snprintf(tmp, sizeof tmp, "%s.tmp", o->out) >= (int)sizeof tmp)
            return complain(2, "--out: path too long");
        if (!(f = fopen(tmp, "w")))
            return complain(1, "%s: %s", tmp, strerror(errno));
    }
    fprintf(f, o->outdim == 3 ? "x\ty\tz\tlabel\n" : "x\ty\tlabel\n");
    for (int p = 0; p < N; p++) {
        for (int q = 0; q < o->outdim; q++)
            fprintf(f, "%.10g\t", y[(size_t)p * o->outdim + q]);
        fprintf(f, "%d\n", d->label[keep[p]]);
    }
    int bad = ferror(f);
    if (o->out) {
        bad |= fclose(f) != 0;
        if (bad || rename(tmp, o->out) != 0) {
            int e = errno;
            remove(tmp);
            return complain(1, "%s: %s", o->out, strerror(e));
        }
    } else {
        bad |= fflush(f) != 0;
    }
    return bad ? complain(1, "writing the TSV failed") : 0;
}

static int embed(const struct options *o, struct rb_dataset *d)
{
    static const char *const names[] = { "newton", "gd", "mass", "cawley" };
    int N = d->N, *keep = malloc((size_t)N * sizeof *keep), rc;
    double *y = NULL, e = 0.0;
    if (!keep)
        return complain(1, "out of memory");
    for (int p = 0; p < N; p++)
        keep[p] = p;
    if (o->dedup) {
        N = sammon_dedup(d->N, d->n, d->x, keep);
        fprintf(stderr, "%s: %d rows, %d after removing duplicates\n", d->name, d->N, N);
    } else if ((rc = check_duplicates(d)) != 0) {
        goto out_free_keep;
    }
    d->N = N;
    rc = N < 2 ? complain(2, "%s: Sammon's mapping needs at least 2 points", d->name) : 0;
    if (!rc)
        rc = check_extent(d);
    if (rc || !(y = malloc((size_t)N * o->outdim * sizeof *y))) {
        rc = rc ? rc : complain(1, "out of memory");
        goto out_free_keep;
    }
    if ((rc = start(d, o, y)) != 0)
        goto out_free_y;
    int it, m = o->outdim;
    fprintf(stderr, "%s: %d points, %d dimensions -> %d, rule %s\n", d->name, N, d->n, m,
            names[o->rule]);
    if (o->rule == RULE_MASS) {
        struct sammon_mass_opts mo = { .niter = o->iters, .magic = 0.2, .tol = 1e-4,
                                       .trace = trace };
        it = sammon_run_mass(N, d->n, m, d->x, y, &mo, &e);
    } else if (o->rule == RULE_CAWLEY) {
        struct sammon_cawley_opts co = { .maxiter = o->iters, .maxhalves = 20,
                                         .tolfun = 1e-9, .trace = trace };
        it = sammon_run_cawley(N, d->n, m, d->x, y, &co, &e);
    } else {
        it = run_fixed(N, d->n, m, d->x, y, o, &e);
    }
    if (it < 0) {
        rc = complain(1, "out of memory");
        goto out_free_y;
    }
    if ((rc = check_finite(d, y, N * m, e, it, o)) != 0)
        goto out_free_y;
    if ((rc = write_tsv(o, d, y, keep, N)) != 0)
        goto out_free_y;
    fprintf(stderr, "stress %.7f after %d iterations (textbook E = (1/c) sum (d*-d)^2/d*; "
            "Cawley's sammon.m reports E/2 = %.7f)\n", e, it, e / 2);
out_free_y:
    free(y);
out_free_keep:
    free(keep);
    return rc;
}

/* 2 with the reason when --out cannot be written, found before the work:
 * a directory, or a place where its temporary file cannot be created. */
static int probe_out(const char *out)
{
    char tmp[4200];
    struct stat st;
    if (!out)
        return 0;
    if (snprintf(tmp, sizeof tmp, "%s.tmp", out) >= (int)sizeof tmp)
        return complain(2, "--out: path too long");
    if (stat(out, &st) == 0 && S_ISDIR(st.st_mode))
        return complain(2, "--out %s: is a directory (give a file name)", out);
    FILE *f = fopen(tmp, "w");
    if (!f)
        return complain(2, "--out %s: cannot create %s: %s", out, tmp, strerror(errno));
    fclose(f);
    remove(tmp);
    return 0;
}

int main(int argc, char **argv)
{
    struct options o;
    struct rb_dataset d;
    char err[512];
    int rc = parse_options(argc, argv, &o);
    if (rc)
        return rc < 0 ? 0 : rc;
    if ((rc = probe_out(o.out)) != 0)
        return rc;
    if ((rc = rb_dataset_load(o.data, &d, err, sizeof err)) != 0)
        return complain(rc == RB_EINVAL || rc == RB_EIO ? 2 : 1, "%s", err);
    rc = embed(&o, &d);
    rb_dataset_free(&d);
    return rc;
}
