/* SPDX-License-Identifier: MIT */
/* The fp64 Sammon reference: input scale, duplicates, stress, gradient and
 * the Jacobi steps of sammon.h.  Every sum over pairs runs in a fixed order
 * per point (or per row), so the results do not depend on the thread count
 * when OpenMP spreads the points over threads. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif
#include "impl/sammon/sammon.h"
#include "impl/sammon/sammon_dist.h"

/* Sum of an array in index order, so row sums add up the same way always. */
static double sum_in_order(const double *v, int len)
{
    double s = 0.0;
    for (int i = 0; i < len; i++)
        s += v[i];
    return s;
}

/* sum_{j<i} f(i, j) per row i into rows[i]: the input distances (y NULL) or
 * the stress terms. */
static void row_sums(int N, int n, int m, const double *x, const double *y, double *rows)
{
    SAMMON_PARALLEL_FOR
    for (int i = 0; i < N; i++) {
        double s = 0.0;
        for (int j = 0; j < i; j++) {
            double ds = sammon_dist(n, x + (size_t)i * n, x + (size_t)j * n);
            if (!y) {
                s += ds;
                continue;
            }
            double e = ds - sammon_dist(m, y + (size_t)i * m, y + (size_t)j * m);
            s += e * e / ds;
        }
        rows[i] = s;
    }
}

/* Row sums without a work array when malloc fails: same order, one thread. */
static double rows_total(int N, int n, int m, const double *x, const double *y)
{
    double *rows = malloc((size_t)(N > 0 ? N : 1) * sizeof *rows);
    double total = 0.0;
    if (rows) {
        row_sums(N, n, m, x, y, rows);
        total = sum_in_order(rows, N);
        free(rows);
        return total;
    }
    for (int i = 0; i < N; i++) {
        double s = 0.0;
        for (int j = 0; j < i; j++) {
            double ds = sammon_dist(n, x + (size_t)i * n, x + (size_t)j * n);
            double e = y ? ds - sammon_dist(m, y + (size_t)i * m, y + (size_t)j * m) : 0.0;
            s += y ? e * e / ds : ds;
        }
        total += s;
    }
    return total;
}

/* max - min of column q (inf when it spans more than DBL_MAX). */
static double column_span(int N, int n, const double *x, int q)
{
    double lo = x[q], hi = x[q];
    for (int p = 1; p < N; p++) {
        lo = fmin(lo, x[(size_t)p * n + q]);
        hi = fmax(hi, x[(size_t)p * n + q]);
    }
    return hi - lo;
}

/* Every column's span into span (n values) in one pass over the rows:
 * column_span a column at a time strides through the whole matrix once
 * per column.  Over the host's cores in bands of rows where that pays,
 * each band's extremes into scratch of its own (min and max are exact, so
 * the bands' order does not matter); -1 when that scratch cannot be had. */
static int column_spans(int N, int n, const double *x, double *span)
{
    int bands = 1;
#ifdef _OPENMP
    if ((size_t)N * n >= 65536)
        bands = omp_get_max_threads();
#endif
    bands = bands < N ? bands : N;
    double *part = malloc((size_t)bands * 2 * n * sizeof *part);
    if (!part)
        return -1;
#ifdef _OPENMP
#pragma omp parallel for schedule(static) num_threads(bands)
#endif
    for (int b = 0; b < bands; b++) {
        const int p0 = (int)((long long)N * b / bands), p1 = (int)((long long)N * (b + 1) / bands);
        double *hi = part + (size_t)b * 2 * n, *lo = hi + n;
        for (int q = 0; q < n; q++)
            lo[q] = hi[q] = x[(size_t)p0 * n + q];
        for (int p = p0 + 1; p < p1; p++) {
            const double *row = x + (size_t)p * n;
            for (int q = 0; q < n; q++) {
                lo[q] = fmin(lo[q], row[q]);
                hi[q] = fmax(hi[q], row[q]);
            }
        }
    }
    for (int q = 0; q < n; q++) {
        double lo = part[n + q], hi = part[q];
        for (int b = 1; b < bands; b++) {
            hi = fmax(hi, part[(size_t)b * 2 * n + q]);
            lo = fmin(lo, part[(size_t)b * 2 * n + n + q]);
        }
        span[q] = hi - lo;
    }
    free(part);
    return 0;
}

double sammon_extent(int N, int n, const double *x)
{
    double top = 0.0, sum = 0.0;
    if (N < 1 || n < 1)
        return 0.0;
    double *span = malloc((size_t)n * sizeof *span);
    if (span && column_spans(N, n, x, span) != 0) {
        free(span);
        span = NULL;
    }
    for (int q = 0; q < n; q++)
        top = fmax(top, span ? span[q] : column_span(N, n, x, q));
    /* Scaled by the largest span, so that only an extent beyond DBL_MAX
     * overflows. */
    for (int q = 0; top > 0.0 && isfinite(top) && q < n; q++) {
        const double r = (span ? span[q] : column_span(N, n, x, q)) / top;
        sum += r * r;
    }
    free(span);
    return top > 0.0 && isfinite(top) ? top * sqrt(sum) : top;
}

double sammon_input_scale(int N, int n, const double *x)
{
    return rows_total(N, n, 0, x, NULL);
}

double sammon_stress(int N, int n, int m, const double *x, const double *y, double c)
{
    return rows_total(N, n, m, x, y) / c;
}

/* Rows in lexicographic order, ties by index: equal rows end up adjacent
 * with the first occurrence first. */
struct row_ref {
    const double *row;
    int n, idx;
};

static int row_cmp(const void *pa, const void *pb)
{
    const struct row_ref *a = pa, *b = pb;
    for (int q = 0; q < a->n; q++) {
        if (a->row[q] < b->row[q])
            return -1;
        if (a->row[q] > b->row[q])
            return 1;
    }
    return (a->idx > b->idx) - (a->idx < b->idx);
}

static int rows_equal(int n, const double *a, const double *b)
{
    for (int q = 0; q < n; q++)
        if (a[q] != b[q])
            return 0;
    return 1;
}

/* The sorted rows, or NULL when there is no memory (callers then compare
 * all pairs, O(N^2 n) but with no allocation to fail). */
static struct row_ref *sort_rows(int N, int n, const double *x)
{
    struct row_ref *r = malloc((size_t)(N > 0 ? N : 1) * sizeof *r);
    if (!r)
        return NULL;
    for (int i = 0; i < N; i++)
        r[i] = (struct row_ref){ x + (size_t)i * n, n, i };
    qsort(r, (size_t)N, sizeof *r, row_cmp);
    return r;
}

int sammon_find_duplicate(int N, int n, const double *x, int *i, int *j)
{
    struct row_ref *r = sort_rows(N, n, x);
    int bi = -1, bj = -1;
    if (!r) {
        for (int a = 0; a < N; a++)
            for (int b = a + 1; b < N; b++)
                if (rows_equal(n, x + (size_t)a * n, x + (size_t)b * n)) {
                    *i = a;
                    *j = b;
                    return 1;
                }
        return 0;
    }
    /* In each run of equal rows the first two entries are the run's pair
     * (i, j) earliest in i-major order; the smallest i wins. */
    for (int k = 0; k + 1 < N; k++) {
        if (!rows_equal(n, r[k].row, r[k + 1].row))
            continue;
        if (bi < 0 || r[k].idx < bi) {
            bi = r[k].idx;
            bj = r[k + 1].idx;
        }
        while (k + 1 < N && rows_equal(n, r[k].row, r[k + 1].row))
            k++;
    }
    free(r);
    if (bi < 0)
        return 0;
    *i = bi;
    *j = bj;
    return 1;
}

int sammon_dedup(int N, int n, double *x, int *keep)
{
    struct row_ref *r = sort_rows(N, n, x);
    char *dup = calloc((size_t)(N > 0 ? N : 1), 1);
    int out = 0;
    if (r && dup) {
        for (int k = 1; k < N; k++)
            if (rows_equal(n, r[k - 1].row, r[k].row))
                dup[r[k].idx] = 1;
    } else if (dup) {
        for (int b = 1; b < N; b++)
            for (int a = 0; a < b && !dup[b]; a++)
                dup[b] = !dup[a] && rows_equal(n, x + (size_t)a * n, x + (size_t)b * n);
    }
    free(r);
    for (int i = 0; i < N; i++) {
        /* Without even the flags, compare with the rows kept so far. */
        int drop = dup ? dup[i] : 0;
        for (int a = 0; !dup && a < out && !drop; a++)
            drop = rows_equal(n, x + (size_t)a * n, x + (size_t)i * n);
        if (drop)
            continue;
        if (out != i)
            memmove(x + (size_t)out * n, x + (size_t)i * n, (size_t)n * sizeof *x);
        if (keep)
            keep[out] = i;
        out++;
    }
    free(dup);
    return out;
}

/* Point p's gradient (and second derivative) over all j != p, notes
 * section 2: w = (d* - d) / (d* d); g -= w dy;
 * h -= ((d* - d) - dy^2/d (1 + (d* - d)/d)) / (d* d); both times 2/c.
 * Coordinates q0 .. q0 + len - 1 only (len <= CHUNK), into g[0 .. len-1],
 * so no caller needs scratch beyond the stack whatever m is. */
enum { CHUNK = 16 };

static void point_gradient(int N, int n, int m, const double *x, const double *y, double c,
                           int p, int q0, int len, double *g, double *h)
{
    const double *xp = x + (size_t)p * n, *yp = y + (size_t)p * m;
    for (int q = 0; q < len; q++) {
        g[q] = 0.0;
        if (h)
            h[q] = 0.0;
    }
    for (int j = 0; j < N; j++) {
        if (j == p)
            continue;
        const double *yj = y + (size_t)j * m;
        double ds = sammon_dist(n, xp, x + (size_t)j * n), d = sammon_dist(m, yp, yj);
        if (d == 0.0)
            continue;               /* coincident outputs: no direction */
        double diff = ds - d, dr = ds * d;
        for (int q = 0; q < len; q++) {
            double dy = yp[q0 + q] - yj[q0 + q];
            g[q] -= diff / dr * dy;
            if (h)
                h[q] -= (diff - dy * dy / d * (1.0 + diff / d)) / dr;
        }
    }
    for (int q = 0; q < len; q++) {
        g[q] *= 2.0 / c;
        if (h)
            h[q] *= 2.0 / c;
    }
}

static int chunk_len(int m, int q0)
{
    return m - q0 < CHUNK ? m - q0 : CHUNK;
}

void sammon_gradient(int N, int n, int m, const double *x, const double *y, double c,
                     double *g, double *h)
{
    SAMMON_PARALLEL_FOR
    for (int p = 0; p < N; p++)
        for (int q0 = 0; q0 < m; q0 += CHUNK)
            point_gradient(N, n, m, x, y, c, p, q0, chunk_len(m, q0), g + (size_t)p * m + q0,
                           h ? h + (size_t)p * m + q0 : NULL);
}

double sammon_gd_alpha(int N, double c, double lambda)
{
    double dbar = c / (0.5 * N * (N - 1.0));
    return lambda * dbar * c / (2.0 * (N - 1.0));
}

void sammon_step_gd(int N, int n, int m, const double *x, const double *y_in, double c,
                    double alpha, double *y_out)
{
    SAMMON_PARALLEL_FOR
    for (int p = 0; p < N; p++)
        for (int q0 = 0; q0 < m; q0 += CHUNK) {
            double g[CHUNK];
            size_t at = (size_t)p * m + q0;
            int len = chunk_len(m, q0);
            point_gradient(N, n, m, x, y_in, c, p, q0, len, g, NULL);
            for (int q = 0; q < len; q++)
                y_out[at + q] = y_in[at + q] - alpha * g[q];
        }
}

void sammon_step_newton(int N, int n, int m, const double *x, const double *y_in, double c,
                        double mf, double *y_out)
{
    SAMMON_PARALLEL_FOR
    for (int p = 0; p < N; p++)
        for (int q0 = 0; q0 < m; q0 += CHUNK) {
            double g[CHUNK], h[CHUNK];
            size_t at = (size_t)p * m + q0;
            int len = chunk_len(m, q0);
            point_gradient(N, n, m, x, y_in, c, p, q0, len, g, h);
            /* A zero curvature leaves the coordinate where it is. */
            for (int q = 0; q < len; q++)
                y_out[at + q] = y_in[at + q] - (h[q] != 0.0 ? mf * g[q] / fabs(h[q]) : 0.0);
        }
}
