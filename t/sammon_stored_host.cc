/* SPDX-License-Identifier: MIT */
/* The stored form's CUDA and HIP kernels (kernels/cuda/sammon_stored.cuh)
 * run on the CPU through t/gpu_emu.h, launched as
 * impl/sammon/sammon_gpu_stored.cu and the embedding engine launch them.
 *  - The benchmark's step (fill once, then the GD pass and sammon_update
 *    per iteration), at each tile (32, 64, 128), with one split of the
 *    tiles j and with the most, on the cases sammon_setup draws from a
 *    fresh seed: the iterate against the fp64 reference through
 *    sammon_verify, the GPU cases' check and tolerance.
 *  - The embedding's pass, stored and recomputing, in EMBED and STRESS
 *    modes: every per-point sum (G, H) and the stress against fp64
 *    sums over the same pairs, within a rounding bound derived below; the
 *    EMBED pass without the test for coinciding outputs against the one
 *    with it (a stress not finite where they coincide, else the same G and
 *    stress, and H formed from its sums within their bound); the fill's
 *    per-point sums of 1/d* against fp64; the
 *    fill's sum of input distances against c; the fill's count of pairs
 *    it cannot separate on a set with two equal rows.
 * The store, the sums and the partials start as NaN where the kernels must
 * overwrite them, so a value never written fails. */
#include "t/gpu_emu.h"
#include "kernels/cuda/sammon_modified.cuh"
#include "kernels/cuda/sammon_stored.cuh"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>
#include "harness/variant.h"
#include "impl/sammon/sammon.h"
#include "impl/sammon/sammon_case.h"
#include "impl/sammon/sammon_sums.h"
#include "t/tap.h"

#define UPDATE_BLOCK 256

static unsigned cdiv(long long a, long long b)
{
    return (unsigned)((a + b - 1) / b);
}

struct size {
    int N, n, m, iters;
};

/* N off every tile, two KC stages at n = 17, three tiles of 128 at 300;
 * at 400, rows of up to 11, 5 and 2 full tiles at tiles of 32, 64 and 128,
 * so that the pass's walk takes its tiles in pairs and leaves an odd one. */
static const size sizes[] = {
    { 37, 5, 2, 2 },
    { 100, 8, 3, 1 },
    { 130, 17, 2, 1 },
    { 300, 3, 2, 1 },
    { 400, 4, 2, 1 },
};
#define NSIZES ((int)(sizeof sizes / sizeof *sizes))
static const int Rs[] = { 2, 4, 8 };

/* The stored triangle of x (N x n, flat float), as the host's setup fills
 * it; *lost the fill's count, *c its fp64 sum of d* and rsum, if not NULL,
 * its per-point sums of 1/d*. */
template <int R>
static std::vector<float4> fill(int N, int n, const float *x, unsigned *lost, double *c,
                                std::vector<float> *rsum = nullptr)
{
    const int64_t tiles = cdiv(N, sammon_tiled_tile(R));
    const int64_t blocks = sammon_stored_block(tiles - 1, tiles - 1) + 1;
    std::vector<float4> store((size_t)blocks * sammon_tiled_tile(R) * sammon_tiled_tile(R) / 4,
                              float4{ NAN, NAN, NAN, NAN });
    std::vector<double> part((size_t)blocks, NAN);
    *lost = 0;
    if (rsum)
        rsum->assign((size_t)N, 0.0f);
    float *rs = rsum ? rsum->data() : nullptr;
    gpu_emu_launch((unsigned)blocks, 1, SAMMON_TILED_THREADS,
                   [&] { sammon_stored_fill<R>(N, n, x, store.data(), lost, part.data(), rs); });
    *c = 0.0;
    for (double p : part)
        *c += p;
    return store;
}

/* The grid of a pass: `split` splits of each tile row (0: one a tile). */
template <int R> static gpu_emu_dim3 pass_grid(int N, int split)
{
    const unsigned tiles = cdiv(N, sammon_tiled_tile(R));
    return gpu_emu_dim3{ split ? (unsigned)split : tiles, tiles, 1 };
}

template <int M, int R>
static void gd_run(struct sammon_state *s, int split)
{
    const int N = s->N;
    const float coef = (float)(2.0 * s->alpha / s->c);
    const float *x = (const float *)s->x;
    std::vector<float> y((const float *)s->y0, (const float *)s->y0 + (size_t)N * M);
    std::vector<float> g((size_t)N * M, 0.0f);
    unsigned lost;
    double c;
    std::vector<float4> store = fill<R>(N, s->n, x, &lost, &c);
    const gpu_emu_dim3 grid = pass_grid<R>(N, split);
    const int64_t count = (int64_t)N * M;
    for (int it = 0; it < s->iters; it++) {
        gpu_emu_launch(grid.x, grid.y, SAMMON_TILED_THREADS, [&] {
            sammon_stored_pass<M, R, SAMMON_PASS_GD, true>(N, s->n, nullptr, store.data(),
                                                           y.data(), g.data(), nullptr);
        });
        gpu_emu_launch(cdiv(count, UPDATE_BLOCK), 1, UPDATE_BLOCK,
                       [&] { sammon_update<float>(count, coef, y.data(), g.data()); });
    }
    memcpy(s->y, y.data(), y.size() * sizeof(float));
}

template <int M> static void gd_any(struct sammon_state *s, int R, int split)
{
    if (R == 2)
        gd_run<M, 2>(s, split);
    else if (R == 4)
        gd_run<M, 4>(s, split);
    else
        gd_run<M, 8>(s, split);
}

static void gd_case(const size &z, uint64_t seed)
{
    struct rb_case c;
    memset(&c, 0, sizeof c);
    c.prec = RB_PREC_F32;
    c.seed = seed;
    c.params[c.nparams++] = (struct rb_param){ "points", z.N };
    c.params[c.nparams++] = (struct rb_param){ "dim", z.n };
    c.params[c.nparams++] = (struct rb_param){ "outdim", z.m };
    c.params[c.nparams++] = (struct rb_param){ "iters", z.iters };
    if (sammon_setup(&c) != 0) {
        for (int k = 0; k < 6; k++)
            tap_ok(0, "stored N=%d: sammon_setup: %s", z.N, c.msg);
        sammon_teardown(&c);
        return;
    }
    struct sammon_state *s = (struct sammon_state *)c.state;
    for (int R : Rs)
        for (int split : { 1, 0 }) {
            for (size_t k = 0; k < (size_t)s->N * s->m; k++)
                ((float *)s->y)[k] = NAN;
            if (s->m == 2)
                gd_any<2>(s, R, split);
            else
                gd_any<3>(s, R, split);
            struct rb_check chk;
            int rc = sammon_verify(&c, &chk);
            tap_ok(rc == 0 && chk.pass, "stored tile=%d %s N=%d n=%d m=%d iters=%d: vs the fp64 "
                   "reference, %.3g <= %.3g", sammon_tiled_tile(R),
                   split ? "one split" : "most splits", z.N, z.n, z.m, z.iters, chk.error,
                   chk.tolerance);
        }
    sammon_teardown(&c);
}

/* The fp64 sums of one pass over the same float inputs, with the rounding
 * bound of each.  A float pair term has inputs of relative error at most
 * (n/2 + 3) u (r, through the distance and its reciprocal square root) and
 * (m/2 + 3) u (1/d), so w = 1/d - r has absolute error at most
 * (n/2 + m/2 + 7) u (1/d + r) and w dy one u more; a term dy_q^2 / d^3
 * has 3 (m/2 + 3) + 1 u of its own, and H_q's terms w - dy_q^2 / d^3 (the
 * last the others' dy_q^2 / d^3 - r, which is that since the dy_q^2 / d^2
 * of a pair add up to 1 within (m/2 + 3) u) have at most w's error and
 * that of terms adding up to 1/d.  The N - 1 terms of a point are summed
 * in float: lambda sqrt(N) u times the sum of their magnitudes
 * (sammon_check.c, lambda = 4).  The
 * stress term s^2 d*, s = 1 - d r, loses s's absolute error (n + m + 12) u d r
 * to cancellation, so (n + m + 12) u |d* - d| d / d* besides (n/2 + 6) u of
 * the term; its sums are fp64.  The EMBED pass's expanded form, the terms
 * d^2 r - 2 d with the fill's c = sum 1/r added, is the same function of
 * the same r and d, so it propagates their errors as above, and adds its
 * own roundings: those of a thread's two float sums over the R^2 pairs of
 * a tile (d^2 r and d) and of their combination, at most (R^2 + 2) u
 * (d^2 / d* + 2 d) a pair,
 * and c's, u d* a pair (1/r rounded once, fp64 sums).  The fill's sums
 * R_i of 1/d* have r's error and their float sum's: (n/2 + 3 + lambda
 * sqrt(N)) u R_i; the pass without the coinciding test forms H_q from R_i
 * and its own sums of terms whose magnitudes H_q's bound counts already
 * (1/d and dy_q^2 / d^3), so R_i's error adds to it.  Each bound is
 * doubled. */
struct pass_ref {
    int K;
    std::vector<double> sum, tol;               /* N x K */
    std::vector<double> rsum, rsum_tol;         /* N: sum_j 1/d*_ij */
    double stress, stress_tol;
    double expand;                              /* sum of d^2 / d* + 2 d */
};

static pass_ref reference(int N, int n, int M, const float *x, const float *y)
{
    const double u = 0x1.0p-24, lam = 4.0 * std::sqrt((double)N);
    const double pw = n / 2.0 + M / 2.0 + 7.0, pc = 3.0 * (M / 2.0 + 3.0) + 1.0;
    pass_ref ref;
    ref.K = 2 * M;
    ref.sum.assign((size_t)N * ref.K, 0.0);
    ref.tol.assign((size_t)N * ref.K, 0.0);
    ref.rsum.assign((size_t)N, 0.0);
    ref.rsum_tol.assign((size_t)N, 0.0);
    std::vector<double> mag((size_t)N * ref.K, 0.0);
    ref.stress = ref.stress_tol = ref.expand = 0.0;
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
            if (i == j)
                continue;
            double ds2 = 0.0, d2 = 0.0, dy[3];
            for (int k = 0; k < n; k++) {
                double t = (double)x[(size_t)i * n + k] - x[(size_t)j * n + k];
                ds2 += t * t;
            }
            for (int q = 0; q < M; q++) {
                dy[q] = (double)y[(size_t)i * M + q] - y[(size_t)j * M + q];
                d2 += dy[q] * dy[q];
            }
            const double ds = std::sqrt(ds2), d = std::sqrt(d2), r = 1.0 / ds;
            ref.rsum[(size_t)i] += r;
            if (j > i) {
                const double term = (ds - d) * (ds - d) / ds;
                ref.stress += term;
                ref.stress_tol += 2.0 * u * ((n + M + 12.0) * std::fabs(ds - d) * d / ds
                                             + (n / 2.0 + 6.0) * term);
                ref.expand += d * d / ds + 2.0 * d;
            }
            if (d2 == 0.0)
                continue;
            const double rd = 1.0 / d, w = rd - r;
            double *s = &ref.sum[(size_t)i * ref.K], *t = &ref.tol[(size_t)i * ref.K];
            double *mg = &mag[(size_t)i * ref.K];
            for (int q = 0; q < M; q++) {
                s[q] += w * dy[q];
                t[q] += (pw + 1.0) * (rd + r) * std::fabs(dy[q]);
                mg[q] += std::fabs(w * dy[q]);
            }
            for (int q = 0; q < M; q++) {
                const double cq = dy[q] * dy[q] * rd * rd * rd;
                s[M + q] += w - cq;
                t[M + q] += pw * (rd + r) + (pc + M / 2.0 + 3.0) * rd;
                mg[M + q] += std::fabs(w) + cq + rd;
            }
        }
    for (size_t k = 0; k < ref.tol.size(); k++)
        ref.tol[k] = 2.0 * u * (ref.tol[k] + lam * mag[k]);
    for (size_t p = 0; p < ref.rsum.size(); p++)
        ref.rsum_tol[p] = 2.0 * u * (n / 2.0 + 3.0 + lam) * ref.rsum[p];
    return ref;
}

/* The largest error of got against ref over its bound; NaN fails. */
static double worst_ratio(const std::vector<float> &got, const pass_ref &ref, int K)
{
    double worst = 0.0;
    for (size_t k = 0; k < got.size(); k++) {
        const double e = std::fabs((double)got[k] - ref.sum[(size_t)(k / K) * ref.K + k % K]);
        const double tol = ref.tol[(size_t)(k / K) * ref.K + k % K];
        worst = std::isnan(e) ? NAN : std::fmax(worst, e / (tol > 0 ? tol : 1e-300));
        if (std::isnan(worst))
            break;
    }
    return worst;
}

template <int M, int R, int MODE, bool STORED, bool TESTED = true>
static void pass_run(int N, int n, const float *x, const float *y, const float4 *store,
                     int split, std::vector<float> &g, double *stress)
{
    const gpu_emu_dim3 grid = pass_grid<R>(N, split);
    std::vector<double> part((size_t)grid.x * grid.y, NAN);
    g.assign((size_t)N * sammon_pass_sums<M, MODE>(), 0.0f);
    gpu_emu_launch(grid.x, grid.y, SAMMON_TILED_THREADS, [&] {
        sammon_stored_pass<M, R, MODE, STORED, TESTED>(N, n, x, store, y, g.data(),
                                                       part.data());
    });
    *stress = 0.0;
    for (double p : part)
        *stress += p;
}

/* The untested EMBED pass of both forms: its stress not finite on y,
 * where outputs coincide; on `apart`, where none do, its G and stress bit
 * for bit the tested pass's, and its H_q, formed from C_q, D and the fill's
 * rsum (impl/sammon/sammon_sums.h), against fp64 (ref) within their bound
 * and rsum's error. */
template <int M, int R>
static void untested_checks(const size &z, const float *x, const float *y, const float *apart,
                            const float4 *store, const std::vector<float> &rsum,
                            const pass_ref &ref, int split, const char *what)
{
    const int K = 2 * M;
    double st[2], st_t[2], st_u[2], worst = 0.0;
    std::vector<float> g, g_t[2], g_u[2];
    pass_run<M, R, SAMMON_PASS_EMBED, true, false>(z.N, z.n, nullptr, y, store, split, g,
                                                   &st[0]);
    pass_run<M, R, SAMMON_PASS_EMBED, false, false>(z.N, z.n, x, y, nullptr, split, g, &st[1]);
    pass_run<M, R, SAMMON_PASS_EMBED, true>(z.N, z.n, nullptr, apart, store, split, g_t[0],
                                            &st_t[0]);
    pass_run<M, R, SAMMON_PASS_EMBED, true, false>(z.N, z.n, nullptr, apart, store, split,
                                                   g_u[0], &st_u[0]);
    pass_run<M, R, SAMMON_PASS_EMBED, false>(z.N, z.n, x, apart, nullptr, split, g_t[1],
                                             &st_t[1]);
    pass_run<M, R, SAMMON_PASS_EMBED, false, false>(z.N, z.n, x, apart, nullptr, split, g_u[1],
                                                    &st_u[1]);
    int same = 1;
    for (int f = 0; f < 2; f++) {
        same = same && st_u[f] == st_t[f];
        for (int p = 0; p < z.N; p++)
            for (int q = 0; q < K; q++) {
                const size_t k = (size_t)p * K + q;
                if (q < M) {
                    same = same && g_u[f][k] == g_t[f][k];
                    continue;
                }
                const double h = sammon_sums_h(&g_u[f][(size_t)p * K], M, q - M, rsum.data(), p);
                const double e = std::fabs(h - ref.sum[k]);
                worst = std::isnan(e) ? NAN
                                      : std::fmax(worst, e / (ref.tol[k] + ref.rsum_tol[p]));
            }
    }
    tap_ok(!std::isfinite(st[0]) && !std::isfinite(st[1]) && same && worst <= 1.0,
           "untested embed pass %s: stress %g, %g where outputs coincide; apart, G and stress "
           "bit for bit the tested pass's: %s, H from C and D within %.3g of their bounds",
           what, st[0], st[1], same ? "yes" : "no", worst);
}

/* EMBED and STRESS passes of both forms at tile R, split `split`. */
template <int M, int R>
static void embed_checks(const size &z, const float *x, const float *y, const float *apart,
                         const pass_ref &ref, const pass_ref &ref_apart, double c_ref,
                         int split)
{
    unsigned lost;
    double c, st_e, st_s, st_r, wrs = 0.0;
    std::vector<float> ge, gs, gr, rsum;
    std::vector<float4> store = fill<R>(z.N, z.n, x, &lost, &c, &rsum);
    for (int p = 0; p < z.N; p++)
        wrs = tap_worst(wrs, std::fabs(rsum[p] - ref.rsum[p]) / ref.rsum_tol[p]);
    pass_run<M, R, SAMMON_PASS_EMBED, true>(z.N, z.n, nullptr, y, store.data(), split, ge,
                                            &st_e);
    pass_run<M, R, SAMMON_PASS_STRESS, true>(z.N, z.n, nullptr, y, store.data(), split, gs,
                                             &st_s);
    pass_run<M, R, SAMMON_PASS_EMBED, false>(z.N, z.n, x, y, nullptr, split, gr, &st_r);
    const int K = 2 * M;
    const double u = 0x1.0p-24, c_tol = 2.0 * u * (z.n / 2.0 + 5.0) * c_ref;
    const double e_tol = ref.stress_tol + 2.0 * u * ((R * R + 2.0) * ref.expand + c_ref);
    const double ws = worst_ratio(ge, ref, K), wr = worst_ratio(gr, ref, K);
    char what[96];
    snprintf(what, sizeof what, "tile=%d %s N=%d n=%d m=%d", sammon_tiled_tile(R),
             split ? "one split" : "most splits", z.N, z.n, M);
    tap_ok(lost == 0 && std::fabs(c - c_ref) <= c_tol && wrs <= 1.0, "fill %s: no pair lost, "
           "sum of d* %.9g vs %.9g (<= %.2g), sums of 1/d* within %.3g of their bounds", what, c,
           c_ref, c_tol, wrs);
    tap_ok(ws <= 1.0, "embed pass, stored, %s: sums within %.3g of their bounds", what, ws);
    tap_ok(wr <= 1.0, "embed pass, recomputed, %s: sums within %.3g of their bounds", what, wr);
    /* The EMBED passes' partials leave out c (the expanded form). */
    st_e += c;
    st_r += c;
    tap_ok(std::fabs(st_e - ref.stress) <= e_tol && std::fabs(st_r - ref.stress) <= e_tol
               && std::fabs(st_s - ref.stress) <= ref.stress_tol,
           "stress %s: embed %.12g, recomputed %.12g (<= %.2g), stress-only %.12g (<= %.2g) "
           "vs %.12g", what, st_e, st_r, e_tol, st_s, ref.stress_tol, ref.stress);
    untested_checks<M, R>(z, x, y, apart, store.data(), rsum, ref_apart, split, what);
}

template <int M>
static void embed_case(const size &z, uint64_t seed)
{
    struct rb_case c;
    memset(&c, 0, sizeof c);
    c.prec = RB_PREC_F32;
    c.seed = seed;
    c.params[c.nparams++] = (struct rb_param){ "points", z.N };
    c.params[c.nparams++] = (struct rb_param){ "dim", z.n };
    c.params[c.nparams++] = (struct rb_param){ "outdim", z.m };
    c.params[c.nparams++] = (struct rb_param){ "iters", 1 };
    if (sammon_setup(&c) != 0) {
        for (int k = 0; k < 3 * 2 * 4; k++)
            tap_ok(0, "embed N=%d: sammon_setup: %s", z.N, c.msg);
        sammon_teardown(&c);
        return;
    }
    struct sammon_state *s = (struct sammon_state *)c.state;
    /* The engine's scaling: a power of two takes the data to about unit
     * size, exactly.  Some outputs coincide, which must add nothing: y is
     * `apart` with point 1 moved onto point 0. */
    std::vector<float> x((size_t)z.N * z.n), y((size_t)z.N * M), apart;
    for (size_t k = 0; k < x.size(); k++)
        x[k] = ((const float *)s->x)[k] / 256.0f;
    for (size_t k = 0; k < y.size(); k++)
        y[k] = ((const float *)s->y0)[k] / 256.0f;
    apart = y;
    for (int q = 0; q < M; q++)
        y[(size_t)1 * M + q] = y[q];
    const pass_ref ref = reference(z.N, z.n, M, x.data(), y.data());
    const pass_ref ref_apart = reference(z.N, z.n, M, x.data(), apart.data());
    double c_ref = 0.0;
    for (int i = 0; i < z.N; i++)
        for (int j = 0; j < i; j++) {
            double ds2 = 0.0;
            for (int k = 0; k < z.n; k++) {
                double t = (double)x[(size_t)i * z.n + k] - x[(size_t)j * z.n + k];
                ds2 += t * t;
            }
            c_ref += std::sqrt(ds2);
        }
    for (int split : { 1, 0 }) {
        embed_checks<M, 2>(z, x.data(), y.data(), apart.data(), ref, ref_apart, c_ref,
                             split);
        embed_checks<M, 4>(z, x.data(), y.data(), apart.data(), ref, ref_apart, c_ref,
                             split);
        embed_checks<M, 8>(z, x.data(), y.data(), apart.data(), ref, ref_apart, c_ref,
                             split);
    }
    sammon_teardown(&c);
}

/* Rows 0 and 2 equal in float: the one pair of distinct points the fill
 * cannot separate, counted once whichever tile holds it. */
static void lost_pair(void)
{
    const int N = 40, n = 3;
    std::vector<float> x((size_t)N * n);
    for (int i = 0; i < N; i++)
        for (int k = 0; k < n; k++)
            x[(size_t)i * n + k] = (float)(i * 3 + k * 7 % 5);
    for (int k = 0; k < n; k++)
        x[(size_t)2 * n + k] = x[k];
    unsigned l2, l8;
    double c;
    fill<2>(N, n, x.data(), &l2, &c);
    fill<8>(N, n, x.data(), &l8, &c);
    tap_ok(l2 == 1 && l8 == 1, "fill counts the one pair it cannot separate (tile 32: %u, "
           "128: %u)", l2, l8);
}

int main(void)
{
    const uint64_t seed = tap_seed();
    tap_plan(NSIZES * 6 + NSIZES * 2 * 3 * 5 + 1);
    tap_diag("seed %llu (RB_TEST_SEED=%llu repeats it)", (unsigned long long)seed,
             (unsigned long long)seed);
    for (int k = 0; k < NSIZES; k++)
        gd_case(sizes[k], seed + (uint64_t)k);
    for (int k = 0; k < NSIZES; k++) {
        if (sizes[k].m == 2)
            embed_case<2>(sizes[k], seed + 50 + (uint64_t)k);
        else
            embed_case<3>(sizes[k], seed + 50 + (uint64_t)k);
    }
    lost_pair();
    return tap_done();
}
