/* SPDX-License-Identifier: MIT */
/* The Sammon case every backend shares: its axes, the seeded data
 * (sammon_setup), the verification against the fp64 reference
 * (sammon_verify, tolerance derived in sammon_check.c) and teardown. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "harness/backend/cpu.h"
#include "harness/error.h"
#include "impl/common/rng.h"
#include "impl/sammon/sammon.h"
#include "impl/sammon/sammon_case.h"
#include "impl/sammon/sammon_check.h"

/* points: the paper's sizes are unknown; notes section 5 suggests 1k to 32k,
 * and 64k on H200 (past 65 536 the pair count needs 64-bit k).  dim: n is
 * unknown too; 64 makes the distance work dominate, as in the paper. */
/* The default: three sizes for each figure within a few seconds a case on
 * a CPU (a serial iteration at 4096 points took 1.1 s). */
static const long long points_deflt[] = { 512, 1024, 2048, RB_AXIS_END };
static const long long points_quick[] = { 256, 512, RB_AXIS_END };
static const long long points_paper[] = { 1024, 2048, 4096, 8192, 16384, 32768, 65536,
                                          RB_AXIS_END };
static const long long dim_deflt[] = { 64, RB_AXIS_END };
static const long long dim_quick[] = { 16, RB_AXIS_END };
static const long long outdim_all[] = { 2, RB_AXIS_END };
static const long long iters_all[] = { 1, RB_AXIS_END };

/* The CPU's paper sizes stop at 8192: one serial run at 65 536 takes
 * minutes, and the paper preset takes 50 of them. */
static const long long points_cpu_paper[] = { 1024, 2048, 4096, 8192, RB_AXIS_END };

#define SAMMON_SIZES(paper_points) \
    { .name = "points", .help = "points N, uniform in [0, 255]^dim (the paper's set-up)", \
      .min = 2, .max = 2000000, .deflt = points_deflt, .quick = points_quick, \
      .paper = paper_points }, \
    { .name = "dim", .help = "input dimension n", \
      .min = 1, .max = 4096, .deflt = dim_deflt, .quick = dim_quick, .paper = dim_deflt }, \
    { .name = "outdim", .help = "output dimension m (the paper maps to 2 or 3)", \
      .min = 1, .max = 3, .deflt = outdim_all, .quick = outdim_all, .paper = outdim_all }, \
    { .name = "iters", .help = "Jacobi gradient-descent iterations per run", \
      .min = 1, .max = 100000, .deflt = iters_all, .quick = iters_all, .paper = iters_all }, \
    { 0 }

const struct rb_axis sammon_sizes[] = { SAMMON_SIZES(points_paper) };
const struct rb_axis sammon_cpu_sizes[] = { SAMMON_SIZES(points_cpu_paper) };

/* threads: as the Givens CPU variants, powers of two, those above the
 * cores skipped; the paper timed 1 and 16 threads on 8 cores. */
static const long long threads_deflt[] = { 1, 2, 4, 8, 16, RB_AXIS_END };
static const long long threads_quick[] = { 1, 2, RB_AXIS_END };
static const long long threads_paper[] = { 1, 2, 4, 8, 16, 32, 64, 128, RB_AXIS_END };

const struct rb_axis sammon_threads_axis[] = {
    { .name = "threads", .help = "OpenMP threads",
      .min = 1, .max = 1024, .deflt = threads_deflt, .quick = threads_quick,
      .paper = threads_paper },
    { 0 }
};

/* block / wg: the paper swept the block size and found 16 best on Vega
 * (notes section 4.4); 128 to 512 is expected to win on H200. */
static const long long block_deflt[] = { 64, 256, RB_AXIS_END };
static const long long block_quick[] = { 64, RB_AXIS_END };
static const long long block_paper[] = { 16, 32, 64, 128, 256, 512, 1024, RB_AXIS_END };

const struct rb_axis sammon_block_axis[] = {
    { .name = "block", .help = "threads per block",
      .min = 16, .max = 1024, .deflt = block_deflt, .quick = block_quick,
      .paper = block_paper },
    { 0 }
};

const struct rb_axis sammon_wg_axis[] = {
    { .name = "wg", .help = "work-items per work-group",
      .min = 16, .max = 1024, .deflt = block_deflt, .quick = block_quick,
      .paper = block_paper },
    { 0 }
};

/* tile: points a CUDA/HIP tiled block holds on each side, 16 x 16 threads
 * with tile / 16 points each way a thread; 128 is f32 only. */
static const long long tile_deflt[] = { 64, RB_AXIS_END };
static const long long tile_all[] = { 32, 64, 128, RB_AXIS_END };

const struct rb_axis sammon_tile_axis[] = {
    { .name = "tile", .help = "points per side of the tiled kernel's block tile "
                              "(32, 64, 128; 128 f32 only)",
      .min = 32, .max = 128, .deflt = tile_deflt, .quick = tile_deflt, .paper = tile_all },
    { 0 }
};

/* The stored variant: the tile of its stored triangle (as `tile`; every
 * value f32), and whether the timed region includes computing it. */
static const long long stored_tile_deflt[] = { 128, RB_AXIS_END };
static const long long precompute_deflt[] = { 0, RB_AXIS_END };
static const long long precompute_all[] = { 0, 1, RB_AXIS_END };

const struct rb_axis sammon_stored_axes[] = {
    { .name = "tile", .help = "points per side of a tile of the stored triangle "
                              "(32, 64, 128)",
      .min = 32, .max = 128, .deflt = stored_tile_deflt, .quick = stored_tile_deflt,
      .paper = tile_all },
    { .name = "precompute", .help = "1: the stored variant's timed region includes computing "
                                    "the input distances (0: setup computes them)",
      .min = 0, .max = 1, .deflt = precompute_deflt, .quick = precompute_deflt,
      .paper = precompute_all },
    { 0 }
};

size_t sammon_stored_bytes(long long N, long long tile)
{
    long long tiles = (N + tile - 1) / tile;
    return (size_t)(tiles * (tiles + 1) / 2) * (size_t)(tile * tile) * sizeof(float);
}

int sammon_admit(struct rb_case *c)
{
    long long threads = rb_case_param(c, "threads", 1);
    if (threads > rb_omp_max_threads())
        return rb_fail(c, RB_ESKIP, "threads=%lld > the %d cores OpenMP may use here",
                       threads, rb_omp_max_threads());
    return 0;
}

size_t sammon_footprint(const struct rb_case *c)
{
    size_t N = (size_t)rb_case_param(c, "points", 2), n = (size_t)rb_case_param(c, "dim", 1);
    size_t m = (size_t)rb_case_param(c, "outdim", 2), sz = rb_prec_size(c->prec);
    /* x and y0 twice (prec and fp64), y, and verify's three fp64 iterates;
     * the iterate before the last step where the check takes it. */
    const size_t prev = sammon_last_step_checked((long long)N, (long long)n,
                                                 rb_case_param(c, "iters", 1)) ? N * m * sz : 0;
    return N * n * (sz + sizeof(double)) + N * m * (3 * sz + 5 * sizeof(double)) + prev;
}

/* The count behind every Sammon record's roofline numbers, per iteration
 * (notes section 3; the README's floor counts the same terms in FP32
 * instructions).  One evaluated pair (p, j):
 *  - input distance |x_p - x_j|^2: a subtract and a fused multiply-add per
 *    coordinate, 3 n flops;
 *  - output side: the m differences and |y_p - y_j|^2 (3 m), the two square
 *    roots (1 each), the weight (d* - d) / (d* d) (a subtract, a multiply and
 *    a divide, 1 each), and one fused multiply-add per coordinate into each
 *    point's sum the pair feeds (2 m per point, negated for the second);
 *  - then every point's step y_p + coef g_p, one fused multiply-add per
 *    coordinate (2 m N).
 * Bytes: x and y read and y written once per iteration; the recomputed
 * input distances are the point of the paper's design and cost no bytes. */
static void work_count(const struct rb_case *c, int symmetric, double *flops, double *bytes)
{
    double N = (double)rb_case_param(c, "points", 2), n = (double)rb_case_param(c, "dim", 1);
    double m = (double)rb_case_param(c, "outdim", 2);
    double iters = (double)rb_case_param(c, "iters", 1);
    double pairs = symmetric ? N * (N - 1.0) / 2.0 : N * (N - 1.0);
    double per_pair = 3.0 * n + 3.0 * m + 5.0 + (symmetric ? 4.0 : 2.0) * m;

    *flops = iters * (pairs * per_pair + 2.0 * m * N);
    *bytes = iters * (double)rb_prec_size(c->prec) * N * (n + 2.0 * m);
}

/* The stored variant reads r = 1 / d* for each unordered pair (4 bytes)
 * instead of computing the input distance: a pair costs the output side
 * of work_count with one square root (of d^2) and, for the weight
 * 1/d - 1/d*, a reciprocal and a subtract.  With precompute 1 the timed
 * region also computes the triangle once: 3 n flops, a square root and a
 * reciprocal a pair, x read and the triangle written. */
void sammon_work_stored(const struct rb_case *c, double *flops, double *bytes)
{
    double N = (double)rb_case_param(c, "points", 2), n = (double)rb_case_param(c, "dim", 1);
    double m = (double)rb_case_param(c, "outdim", 2);
    double iters = (double)rb_case_param(c, "iters", 1);
    double pre = (double)rb_case_param(c, "precompute", 0), sz = rb_prec_size(c->prec);
    double pairs = N * (N - 1.0) / 2.0;

    *flops = iters * (pairs * (3.0 * m + 1.0 + 2.0 + 4.0 * m) + 2.0 * m * N)
             + pre * pairs * (3.0 * n + 2.0);
    *bytes = iters * (4.0 * pairs + sz * N * 2.0 * m) + pre * (sz * N * n + 4.0 * pairs);
}

void sammon_work_all_pairs(const struct rb_case *c, double *flops, double *bytes)
{
    work_count(c, 0, flops, bytes);
}

void sammon_work_half_pairs(const struct rb_case *c, double *flops, double *bytes)
{
    work_count(c, 1, flops, bytes);
}

/* Store v in prec at k and return the value stored, as a double. */
static double put(void *a, size_t k, enum rb_prec prec, double v)
{
    if (prec == RB_PREC_F64) {
        ((double *)a)[k] = v;
        return v;
    }
    ((float *)a)[k] = (float)v;
    return (float)v;
}

static double get(const void *a, size_t k, enum rb_prec prec)
{
    return prec == RB_PREC_F64 ? ((const double *)a)[k] : ((const float *)a)[k];
}

/* One step of more than SAMMON_CHECK_FULL pair-coordinate terms (N^2 n:
 * N = 65536 at n = 64, some seconds of the host's cores) is checked on
 * SAMMON_CHECK_ROWS rows spread evenly over the points, exactly, and the
 * stresses (as costly as the step) are not computed; so is the last step
 * of a run of several whose reference would take more than that. */
#define SAMMON_CHECK_FULL 2.75e11
#define SAMMON_CHECK_ROWS 4096

int sammon_last_step_checked(long long N, long long n, long long iters)
{
    return iters > 1 && N > SAMMON_CHECK_ROWS && (double)iters * N * N * n > SAMMON_CHECK_FULL;
}

static int setup_case(struct rb_case *c, int keeping)
{
    struct sammon_state *s = calloc(1, sizeof *s);
    if (!s)
        return rb_fail(c, RB_ENOMEM, "sammon state");
    c->state = s;
    c->device_ms = -1;
    snprintf(c->device, sizeof c->device, "%s", rb_cpu_name());
    s->N = (int)rb_case_param(c, "points", 0);
    s->n = (int)rb_case_param(c, "dim", 0);
    s->m = (int)rb_case_param(c, "outdim", 2);
    s->iters = (int)rb_case_param(c, "iters", 1);
    if (s->N < 2 || s->n < 1 || s->m < 1 || s->m > 3 || s->iters < 1)
        return rb_fail(c, RB_EINVAL, "points=%d dim=%d outdim=%d iters=%d do not combine",
                       s->N, s->n, s->m, s->iters);
    const int last_step = sammon_last_step_checked(s->N, s->n, s->iters);
    if (last_step && !keeping)
        return rb_fail(c, RB_ESKIP, "iters=%d at points=%d dim=%d is checked by its last step "
                       "from the iterate before it, which this variant does not keep (iters=1 "
                       "checks every variant)", s->iters, s->N, s->n);
    size_t nx = (size_t)s->N * s->n, ny = (size_t)s->N * s->m, sz = rb_prec_size(c->prec);
    s->x_d = malloc(nx * sizeof *s->x_d);
    s->y0_d = malloc(ny * sizeof *s->y0_d);
    s->x = malloc(nx * sz);
    s->y0 = malloc(ny * sz);
    s->y = malloc(ny * sz);
    s->y_prev = last_step ? malloc(ny * sz) : NULL;
    if (!s->x_d || !s->y0_d || !s->x || !s->y0 || !s->y || (last_step && !s->y_prev))
        return rb_fail(c, RB_ENOMEM, "arrays for points=%d dim=%d", s->N, s->n);

    struct rb_rng r;
    rb_rng_seed(&r, rb_seed_derive(c->seed, "sammon/x"));
    for (size_t k = 0; k < nx; k++)
        s->x_d[k] = put(s->x, k, c->prec, rb_rng_uniform(&r) * SAMMON_DATA_MAX);
    int di, dj;
    if (sammon_find_duplicate(s->N, s->n, s->x_d, &di, &dj))
        return rb_fail(c, RB_EINVAL, "points %d and %d coincide (seed %llu): Sammon's "
                       "stress divides by their distance", di, dj,
                       (unsigned long long)c->seed);
    s->c = sammon_input_scale(s->N, s->n, s->x_d);
    s->alpha = sammon_gd_alpha(s->N, s->c, SAMMON_GD_LAMBDA);
    /* The start has the data's scale: uniform in [0, dbar) per coordinate. */
    double dbar = s->c / (0.5 * s->N * (s->N - 1.0));
    sammon_init_random(rb_seed_derive(c->seed, "sammon/y0"), s->N, s->m, dbar, s->y0_d);
    for (size_t k = 0; k < ny; k++) {
        s->y0_d[k] = put(s->y0, k, c->prec, s->y0_d[k]);
        put(s->y, k, c->prec, NAN);
        if (s->y_prev)
            put(s->y_prev, k, c->prec, NAN);
    }
    return 0;
}

int sammon_setup(struct rb_case *c)
{
    return setup_case(c, 0);
}

int sammon_setup_keeping(struct rb_case *c)
{
    return setup_case(c, 1);
}

static void set_verdict(struct rb_check *out, double err, double tol)
{
    out->error = err;
    out->tolerance = tol;
    out->pass = err <= tol;             /* NaN fails */
    snprintf(out->method, sizeof out->method, "%s",
             "max|y-yref|/max|yref-y0| vs fp64 Jacobi GD");
}

/* The last reference computed on this thread.  A sweep runs the tunables
 * (block, wg, threads) innermost, so consecutive cases share their data and
 * the O(N^2 n) reference is computed once per size instead of once per
 * case.  The key is the data itself (sizes, c, alpha and a checksum of x
 * and y0), so a hit always means the same reference. */
struct reference {
    int N, n, m, iters;
    double c, alpha, sum, budget, stress;
    double *y;                  /* the reference rows: all, or rows[0 .. nrows - 1] */
    int *rows, nrows;           /* NULL: every row */
};

static int sampled(const struct sammon_state *s)
{
    return s->iters == 1 && s->N > SAMMON_CHECK_ROWS
           && (double)s->N * s->N * s->n > SAMMON_CHECK_FULL;
}

static _Thread_local struct reference last;

static double checksum(const struct sammon_state *s)
{
    double sum = 0.0;
    for (size_t k = 0; k < (size_t)s->N * s->n; k++)
        sum += s->x_d[k] * (double)(k % 61 + 1);
    for (size_t k = 0; k < (size_t)s->N * s->m; k++)
        sum += s->y0_d[k] * (double)(k % 53 + 1);
    return sum;
}

/* The rows a sampled check takes: k spread evenly over the N points. */
static int *sample_rows(int N, int k)
{
    int *rows = malloc((size_t)k * sizeof *rows);
    for (int i = 0; rows && i < k; i++)
        rows[i] = (int)((2LL * i + 1) * N / (2LL * k));
    return rows;
}

static const struct reference *reference_of(const struct sammon_state *s)
{
    double sum = checksum(s);
    if (last.y && last.N == s->N && last.n == s->n && last.m == s->m && last.iters == s->iters
        && last.c == s->c && last.alpha == s->alpha && last.sum == sum)
        return &last;
    free(last.y);
    free(last.rows);
    memset(&last, 0, sizeof last);
    const int k = sampled(s) ? SAMMON_CHECK_ROWS : s->N;
    double *y = malloc((size_t)k * s->m * sizeof *y), budget = 0.0;
    int *rows = k < s->N ? sample_rows(s->N, k) : NULL;
    int rc = !y || (k < s->N && !rows) ? RB_ENOMEM
             : rows ? sammon_check_rows(s->N, s->n, s->m, s->x_d, s->y0_d, s->c, s->alpha, rows,
                                        k, y, &budget)
                    : sammon_check_reference(s->N, s->n, s->m, s->iters, s->x_d, s->y0_d, s->c,
                                             s->alpha, y, &budget);
    if (rc) {
        free(rows);
        free(y);
        return NULL;
    }
    last = (struct reference){ .N = s->N, .n = s->n, .m = s->m, .iters = s->iters, .c = s->c,
                               .alpha = s->alpha, .sum = sum, .budget = budget, .y = y,
                               .rows = rows, .nrows = k };
    last.stress = rows ? NAN : sammon_stress(s->N, s->n, s->m, s->x_d, y, s->c);
    return &last;
}

/* The last of several steps, from the run's own iterate before it
 * (s->y_prev), against the fp64 step from that iterate on
 * SAMMON_CHECK_ROWS rows, with the one step's tolerance.  What it shows:
 * that the run's last step is the Jacobi GD step of the iterate it started
 * from (so the distances, the sums and their clearing between steps are
 * right at the end of the run), not that the earlier steps led there. */
static int verify_last_step(struct rb_case *c, struct sammon_state *s, struct rb_check *out)
{
    const size_t ny = (size_t)s->N * s->m;
    const int k = SAMMON_CHECK_ROWS;
    double *y = malloc(ny * sizeof *y), *yp = malloc(ny * sizeof *yp);
    double *ref = malloc((size_t)k * s->m * sizeof *ref), budget = 0.0;
    int *rows = sample_rows(s->N, k), finite = 1, kept = 1, rc = RB_ENOMEM;
    if (y && yp && ref && rows) {
        for (size_t q = 0; q < ny; q++) {
            y[q] = get(s->y, q, c->prec);
            yp[q] = get(s->y_prev, q, c->prec);
            finite &= isfinite(y[q]);
            kept &= !isnan(yp[q]);
        }
        rc = kept ? sammon_check_rows(s->N, s->n, s->m, s->x_d, yp, s->c, s->alpha, rows, k,
                                      ref, &budget)
                  : 0;
    }
    if (rc == 0) {
        double worst = 0.0, moved = 0.0;
        for (int i = 0; kept && i < k; i++)
            for (int q = 0; q < s->m; q++) {
                const size_t at = (size_t)rows[i] * s->m + q;
                worst = fmax(worst, fabs(y[at] - ref[(size_t)i * s->m + q]));
                moved = fmax(moved, fabs(ref[(size_t)i * s->m + q] - yp[at]));
            }
        const double u = c->prec == RB_PREC_F64 ? 0x1.0p-53 : 0x1.0p-24;
        if (moved == 0.0)
            moved = 1.0;
        out->error = finite && kept ? worst / moved : NAN;
        out->tolerance = SAMMON_CHECK_K * u * budget / moved;
        out->pass = out->error <= out->tolerance;
        if (kept)
            snprintf(out->method, sizeof out->method, "max|y-yref|/max|yref-yprev|: step %d of "
                     "%d from its own y, %d of %d rows", s->iters, s->iters, k, s->N);
        else
            snprintf(out->method, sizeof out->method, "max|y-yref|/max|yref-yprev|: no y before "
                     "step %d kept", s->iters);
        rb_case_metric(c, "verified_rows", k);
    }
    free(rows);
    free(ref);
    free(yp);
    free(y);
    return rc ? rb_fail(c, rc, "verification of points=%d outdim=%d", s->N, s->m) : 0;
}

int sammon_verify(struct rb_case *c, struct rb_check *out)
{
    struct sammon_state *s = c->state;
    if (s->y_prev)
        return verify_last_step(c, s, out);
    size_t ny = (size_t)s->N * s->m;
    double *y = malloc(ny * sizeof *y);
    const struct reference *ref = y ? reference_of(s) : NULL;
    if (!ref) {
        free(y);
        return rb_fail(c, RB_ENOMEM, "verification of points=%d outdim=%d", s->N, s->m);
    }
    double worst = 0.0, moved = 0.0;
    int finite = 1;
    for (size_t k = 0; k < ny; k++) {
        y[k] = get(s->y, k, c->prec);
        finite &= isfinite(y[k]);
    }
    for (size_t i = 0; i < (size_t)ref->nrows; i++)
        for (int q = 0; q < s->m; q++) {
            const size_t k = (ref->rows ? (size_t)ref->rows[i] : i) * s->m + q;
            const double r = ref->y[i * s->m + q];
            worst = fmax(worst, fabs(y[k] - r));
            moved = fmax(moved, fabs(r - s->y0_d[k]));
        }
    double u = c->prec == RB_PREC_F64 ? 0x1.0p-53 : 0x1.0p-24;
    if (moved == 0.0)
        moved = 1.0;                    /* nothing moved: compare absolutely */
    set_verdict(out, finite ? worst / moved : NAN, SAMMON_CHECK_K * u * ref->budget / moved);
    if (ref->rows) {
        snprintf(out->method + strlen(out->method), sizeof out->method - strlen(out->method),
                 ", on %d of %d rows", ref->nrows, s->N);
        rb_case_metric(c, "verified_rows", ref->nrows);
    } else {
        /* A non-finite output has no stress; do not spend the pass on it. */
        rb_case_metric(c, "stress",
                       finite ? sammon_stress(s->N, s->n, s->m, s->x_d, y, s->c) : NAN);
        rb_case_metric(c, "stress_ref", ref->stress);
    }
    free(y);
    return 0;
}

void sammon_teardown(struct rb_case *c)
{
    struct sammon_state *s = c->state;
    if (!s)
        return;
    free(s->y_prev);
    free(s->y);
    free(s->y0);
    free(s->x);
    free(s->y0_d);
    free(s->x_d);
    free(s);
    c->state = NULL;
}
