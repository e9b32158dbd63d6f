/* SPDX-License-Identifier: MIT */
/* The CUDA and HIP Sammon kernels (kernels/cuda/sammon_standard.cuh,
 * sammon_modified.cuh, sammon_tiled.cuh, sammon_tiled_sym.cuh) run on the
 * CPU through t/gpu_emu.h, where no GPU is, launched in the order and shapes
 * of impl/sammon/sammon_gpu_launch.cu.  Every variant that file runs: the
 * standard and modified kernels in the flat and transposed layouts, the
 * tiled and tiled-symmetric kernels at each tile it builds, with one split
 * of the points j and with the most.  In fp32 and fp64, on the cases
 * sammon_setup draws from a fresh seed, at N 37, 100 and 130 (a multiple of
 * no block and no tile), outdim 2 and 3, rows on and off the vector width,
 * one and two KC stages, one and two steps: the iterate against the fp64
 * reference through sammon_verify, the check and tolerance of the GPU cases
 * (impl/sammon/sammon_check.c).  The standard kernels' next iterate and the
 * tiled partial sums start as NaN, so an element never written fails.  A
 * slip in the pair indexing, the tiles' padding, the staging or a barrier
 * fails here before a GPU sees it. */
#include "t/gpu_emu.h"
#include "kernels/cuda/sammon_modified.cuh"
#include "kernels/cuda/sammon_standard.cuh"
#include "kernels/cuda/sammon_tiled.cuh"
#include "kernels/cuda/sammon_tiled_sym.cuh"

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>
#include "harness/variant.h"
#include "impl/sammon/sammon_case.h"
#include "t/tap.h"

/* Threads of the tiled variants' update, and the most tiled blocks
 * (UPDATE_BLOCK and TILED_BLOCKS_MAX of sammon_gpu_launch.cu). */
#define UPDATE_BLOCK 256
#define TILED_BLOCKS_MAX (1 << 14)

static unsigned cdiv(long long a, long long b)
{
    return (unsigned)((a + b - 1) / b);
}

/* The grid of a grid-stride kernel; far below the host's GRID_CAP here. */
static unsigned grid_stride_blocks(long long total, int block)
{
    const unsigned b = cdiv(total, block);
    return b < 1 ? 1 : b;
}

/* A case: points, dim, outdim and iters, and the paper kernels' block. */
struct size {
    int N, n, m, iters, block;
};

enum family { STANDARD, MODIFIED, TILED, SYMMETRIC };

/* A variant: its family, layout, and its tile with one split (1) or the
 * most (0) for the tiled families. */
struct variant {
    family f;
    bool transposed;
    int R, split;
};

static const char *const family_names[] = { "standard", "modified", "tiled", "tiled-symmetric" };

/* An N x cols array of the case (flat), in the variant's layout. */
template <typename T>
static std::vector<T> to_layout(const void *a, int N, int cols, bool transposed)
{
    const T *src = (const T *)a;
    std::vector<T> out((size_t)N * cols);
    for (int i = 0; i < N; i++)
        for (int k = 0; k < cols; k++)
            out[transposed ? (size_t)k * N + i : (size_t)i * cols + k] =
                src[(size_t)i * cols + k];
    return out;
}

template <typename T, int M>
static void standard_step(int N, int n, int block, T coef, bool transposed, const T *x,
                          const T *y, T *next)
{
    constexpr int V = sammon_vec_width<T>();
    gpu_emu_launch(cdiv(N, block), 1, (unsigned)block, [&] {
        if (transposed)
            sammon_standard_transposed<T, M>(N, n, coef, x, y, next);
        else if (n % V)
            sammon_standard_flat<T, M, 1>(N, n, coef, x, y, next);
        else
            sammon_standard_flat<T, M, V>(N, n, coef, x, y, next);
    });
}

/* g is zero on entry, as the host's memset leaves it, and again on exit. */
template <typename T, int M>
static void modified_step(int N, int n, int block, T coef, bool transposed, const T *x, T *y,
                          T *g)
{
    constexpr int V = sammon_vec_width<T>();
    const int64_t count = (int64_t)N * M;
    gpu_emu_launch(grid_stride_blocks(sammon_pair_count(N), block), 1, (unsigned)block, [&] {
        if (transposed)
            sammon_modified_transposed<T, M>(N, n, x, y, g);
        else if (n % V)
            sammon_modified_flat<T, M, 1>(N, n, x, y, g);
        else
            sammon_modified_flat<T, M, V>(N, n, x, y, g);
    });
    gpu_emu_launch(grid_stride_blocks(count, block), 1, (unsigned)block,
                   [&] { sammon_update<T>(count, coef, y, g); });
}

/* tiled_plan's split of the itiles tiles j into `split` parts (0: the most
 * it takes), every part the same number of tiles; the partial sums poisoned
 * each step, since every block must write all of its points'. */
template <typename T, int M, int R>
static void tiled_step(int N, int n, int split, T coef, const T *x, T *y, std::vector<T> &part)
{
    const int itiles = (int)cdiv(N, sammon_tiled_tile(R));
    const int most = std::max(1, std::min(TILED_BLOCKS_MAX / itiles, itiles));
    const int per_split = (int)cdiv(itiles, split ? split : most);
    const int splits = (int)cdiv(itiles, per_split);
    const int64_t count = (int64_t)N * M;
    part.assign((size_t)splits * count, (T)NAN);
    gpu_emu_launch((unsigned)itiles, (unsigned)splits, SAMMON_TILED_THREADS,
                   [&] { sammon_tiled<T, M, R>(N, n, per_split, x, y, part.data()); });
    gpu_emu_launch(grid_stride_blocks(count, UPDATE_BLOCK), 1, UPDATE_BLOCK,
                   [&] { sammon_tiled_update<T>(count, splits, coef, y, part.data()); });
}

/* Splits of each row of tiles j <= i, at most one a tile (0: a tile each,
 * which leaves the short rows' extra blocks empty). */
template <typename T, int M, int R>
static void symmetric_step(int N, int n, int split, T coef, const T *x, T *y, T *g)
{
    const int itiles = (int)cdiv(N, sammon_tiled_tile(R));
    const int64_t count = (int64_t)N * M;
    gpu_emu_launch((unsigned)(split ? split : itiles), (unsigned)itiles, SAMMON_TILED_THREADS,
                   [&] { sammon_tiled_sym<T, M, R>(N, n, x, y, g); });
    gpu_emu_launch(grid_stride_blocks(count, UPDATE_BLOCK), 1, UPDATE_BLOCK,
                   [&] { sammon_update<T>(count, coef, y, g); });
}

template <typename T, int M, int R>
static void tiled_any(const variant &v, int N, int n, T coef, const T *x, T *y, T *g,
                      std::vector<T> &part)
{
    if (v.f == TILED)
        tiled_step<T, M, R>(N, n, v.split, coef, x, y, part);
    else
        symmetric_step<T, M, R>(N, n, v.split, coef, x, y, g);
}

/* The case's steps of variant v from y0, the iterate into s->y. */
template <typename T, int M>
static void run(struct sammon_state *s, const variant &v, int block)
{
    const int N = s->N, n = s->n;
    const T coef = (T)(2.0 * s->alpha / s->c);
    const std::vector<T> x = to_layout<T>(s->x, N, n, v.transposed);
    std::vector<T> y = to_layout<T>(s->y0, N, M, v.transposed), next, g((size_t)N * M, T(0));
    std::vector<T> part;
    for (int it = 0; it < s->iters; it++) {
        if (v.f == STANDARD) {
            next.assign((size_t)N * M, (T)NAN);
            standard_step<T, M>(N, n, block, coef, v.transposed, x.data(), y.data(),
                                next.data());
            y.swap(next);
        } else if (v.f == MODIFIED) {
            modified_step<T, M>(N, n, block, coef, v.transposed, x.data(), y.data(), g.data());
        } else if (v.R == 2) {
            tiled_any<T, M, 2>(v, N, n, coef, x.data(), y.data(), g.data(), part);
        } else if (v.R == 4) {
            tiled_any<T, M, 4>(v, N, n, coef, x.data(), y.data(), g.data(), part);
        } else if constexpr (sizeof(T) == sizeof(float)) {
            tiled_any<T, M, 8>(v, N, n, coef, x.data(), y.data(), g.data(), part);
        }
    }
    T *out = (T *)s->y;
    for (int i = 0; i < N; i++)
        for (int q = 0; q < M; q++)
            out[(size_t)i * M + q] = y[v.transposed ? (size_t)q * N + i : (size_t)i * M + q];
}

template <typename T> static void run_any(struct sammon_state *s, const variant &v, int block)
{
    switch (s->m) {
    case 2: run<T, 2>(s, v, block); return;
    case 3: run<T, 3>(s, v, block); return;
    }
}

/* The variants of one precision: fp64 has no 8 x 8 tile (the host code's
 * register limit). */
static std::vector<variant> variants_of(enum rb_prec prec)
{
    std::vector<variant> vs = { { STANDARD, false, 0, 0 }, { STANDARD, true, 0, 0 },
                                { MODIFIED, false, 0, 0 }, { MODIFIED, true, 0, 0 } };
    for (int R = 2; R <= (prec == RB_PREC_F32 ? 8 : 4); R *= 2)
        for (family f : { TILED, SYMMETRIC })
            for (int split : { 1, 0 })
                vs.push_back({ f, false, R, split });
    return vs;
}

static void check_case(const size &z, enum rb_prec prec, uint64_t seed)
{
    struct rb_case c;
    memset(&c, 0, sizeof c);
    c.prec = prec;
    c.seed = seed;
    c.params[c.nparams++] = (struct rb_param){ "points", z.N };
    c.params[c.nparams++] = (struct rb_param){ "dim", z.n };
    c.params[c.nparams++] = (struct rb_param){ "outdim", z.m };
    c.params[c.nparams++] = (struct rb_param){ "iters", z.iters };
    const std::vector<variant> vs = variants_of(prec);
    if (sammon_setup(&c) != 0) {
        for (size_t k = 0; k < vs.size(); k++)
            tap_ok(0, "%s N=%d: sammon_setup: %s", rb_prec_name(prec), z.N, c.msg);
        sammon_teardown(&c);
        return;
    }
    struct sammon_state *s = (struct sammon_state *)c.state;
    for (const variant &v : vs) {
        if (prec == RB_PREC_F64)
            run_any<double>(s, v, z.block);
        else
            run_any<float>(s, v, z.block);
        struct rb_check chk;
        char what[64];
        if (v.f == STANDARD || v.f == MODIFIED)
            snprintf(what, sizeof what, "%s-%s block=%d", family_names[v.f],
                     v.transposed ? "transposed" : "flat", z.block);
        else
            snprintf(what, sizeof what, "%s tile=%d %s", family_names[v.f],
                     sammon_tiled_tile(v.R), v.split ? "one split" : "most splits");
        if (sammon_verify(&c, &chk) != 0) {
            tap_ok(0, "%s %s N=%d: sammon_verify: %s", what, rb_prec_name(prec), z.N, c.msg);
            continue;
        }
        tap_ok(chk.pass, "%s %s N=%d n=%d m=%d iters=%d: vs the fp64 reference, %.3g <= %.3g",
               what, rb_prec_name(prec), z.N, z.n, z.m, z.iters, chk.error, chk.tolerance);
    }
    sammon_teardown(&c);
}

/* n 5 and 17 are off both vector widths (17 takes two KC stages), n 8 on
 * them; two steps check that the sums are cleared and the iterates passed
 * on.  Blocks stay small: each thread is an OS thread. */
static const size sizes[] = {
    { 37, 5, 2, 2, 16 },
    { 100, 8, 3, 1, 32 },
    { 130, 17, 2, 1, 64 },
};

int main(void)
{
    const uint64_t seed = tap_seed();
    const int nsizes = (int)(sizeof sizes / sizeof *sizes);
    tap_plan(nsizes * (int)(variants_of(RB_PREC_F32).size() + variants_of(RB_PREC_F64).size()));
    tap_diag("seed %llu (RB_TEST_SEED=%llu repeats it)", (unsigned long long)seed,
             (unsigned long long)seed);
    for (int k = 0; k < nsizes; k++) {
        check_case(sizes[k], RB_PREC_F32, seed + (uint64_t)k);
        check_case(sizes[k], RB_PREC_F64, seed + 100 + (uint64_t)k);
    }
    return tap_done();
}
