/* SPDX-License-Identifier: MIT */
/* Algorithms 2 and 3 with OpenMP: the pairs of a block run in parallel, with
 * a barrier between blocks (notes/givens.md sections 3 and 5).  One parallel
 * region spans the whole loop, so a block costs a barrier, not a fork. */
#include <math.h>
#include <string.h>
#include "impl/common/roundrobin.h"
#include "impl/givens/givens.h"
#include "impl/givens/givens_rot.h"

/* A block has only n/2 pairs: when that leaves threads idle, each pair's rows
 * are also cut into column chunks (columns are independent under row
 * rotations), no narrower than MIN_CHUNK columns. */
#define MIN_CHUNK 64

static int column_chunks(int n, int slots, int threads)
{
    if (slots >= 2 * threads)
        return 1;
    int want = (2 * threads + slots - 1) / slots;
    int most = n / MIN_CHUNK > 1 ? n / MIN_CHUNK : 1;
    return want < most ? want : most;
}

void givens_forward_rr_omp_f(int n, int m, const float *theta, float *U, int threads)
{
    int nt = rb_rr_padded(n), slots = rb_rr_slots(n), steps = rb_rr_steps(n);
    int chunks = column_chunks(n, slots, threads);
    int width = (n + chunks - 1) / chunks;
#pragma omp parallel num_threads(threads)
    {
#pragma omp for schedule(static)
        for (int r = 0; r < n; r++) {
            memset(U + (size_t)r * n, 0, (size_t)n * sizeof *U);
            U[(size_t)r * n + r] = 1.0f;
        }
        for (int step = steps - 1; step >= 0; step--) {
#pragma omp for schedule(static)
            for (int t = 0; t < slots * chunks; t++) {
                int i, j, lo = (t % chunks) * width;
                int len = n - lo < width ? n - lo : width;
                rb_rr_pair(nt, step, t / chunks, &i, &j);
                if (len <= 0 || !rb_rr_keep(n, m, i, j))
                    continue;
                float a = theta[givens_theta_index(n, i, j)];
                givens_rot_rows_f(U + (size_t)i * n + lo, U + (size_t)j * n + lo,
                                  (size_t)len, cosf(a), sinf(a));
            }
        }
    }
}

void givens_forward_rr_omp_d(int n, int m, const double *theta, double *U, int threads)
{
    int nt = rb_rr_padded(n), slots = rb_rr_slots(n), steps = rb_rr_steps(n);
    int chunks = column_chunks(n, slots, threads);
    int width = (n + chunks - 1) / chunks;
#pragma omp parallel num_threads(threads)
    {
#pragma omp for schedule(static)
        for (int r = 0; r < n; r++) {
            memset(U + (size_t)r * n, 0, (size_t)n * sizeof *U);
            U[(size_t)r * n + r] = 1.0;
        }
        for (int step = steps - 1; step >= 0; step--) {
#pragma omp for schedule(static)
            for (int t = 0; t < slots * chunks; t++) {
                int i, j, lo = (t % chunks) * width;
                int len = n - lo < width ? n - lo : width;
                rb_rr_pair(nt, step, t / chunks, &i, &j);
                if (len <= 0 || !rb_rr_keep(n, m, i, j))
                    continue;
                double a = theta[givens_theta_index(n, i, j)];
                givens_rot_rows_d(U + (size_t)i * n + lo, U + (size_t)j * n + lo,
                                  (size_t)len, cos(a), sin(a));
            }
        }
    }
}

/* The backward shares pairs only: chunking columns would split each pair's
 * dot products into partial sums, changing the summation order against the
 * serial code, and a block has n/2 >= threads pairs at the sizes that matter. */
void givens_backward_rr_omp_f(int n, int m, const float *theta, const float *U,
                              const float *Gamma, float *dtheta, float *work, int threads)
{
    int nt = rb_rr_padded(n), slots = rb_rr_slots(n), steps = rb_rr_steps(n);
    size_t w = 2 * (size_t)n;
#pragma omp parallel num_threads(threads)
    {
#pragma omp for schedule(static)
        for (int rb = 0; rb < n; rb += GIVENS_TILE)
            givens_work_load_f(n, Gamma, U, work, rb, rb + GIVENS_TILE < n ? rb + GIVENS_TILE : n);
        for (int step = steps - 1; step >= 0; step--) {
#pragma omp for schedule(static)
            for (int slot = 0; slot < slots; slot++) {
                int i, j;
                rb_rr_pair(nt, step, slot, &i, &j);
                if (!rb_rr_keep(n, m, i, j))
                    continue;
                size_t e = givens_theta_index(n, i, j);
                float *ri = work + i * w, *rj = work + j * w;
                givens_rot_rows_f(ri, rj, w, cosf(theta[e]), sinf(theta[e]));
                dtheta[e] = givens_cross_dot_f(ri, rj, ri + n, rj + n, (size_t)n);
            }
        }
    }
}

void givens_backward_rr_omp_d(int n, int m, const double *theta, const double *U,
                              const double *Gamma, double *dtheta, double *work,
                              int threads)
{
    int nt = rb_rr_padded(n), slots = rb_rr_slots(n), steps = rb_rr_steps(n);
    size_t w = 2 * (size_t)n;
#pragma omp parallel num_threads(threads)
    {
#pragma omp for schedule(static)
        for (int rb = 0; rb < n; rb += GIVENS_TILE)
            givens_work_load_d(n, Gamma, U, work, rb, rb + GIVENS_TILE < n ? rb + GIVENS_TILE : n);
        for (int step = steps - 1; step >= 0; step--) {
#pragma omp for schedule(static)
            for (int slot = 0; slot < slots; slot++) {
                int i, j;
                rb_rr_pair(nt, step, slot, &i, &j);
                if (!rb_rr_keep(n, m, i, j))
                    continue;
                size_t e = givens_theta_index(n, i, j);
                double *ri = work + i * w, *rj = work + j * w;
                givens_rot_rows_d(ri, rj, w, cos(theta[e]), sin(theta[e]));
                dtheta[e] = givens_cross_dot_d(ri, rj, ri + n, rj + n, (size_t)n);
            }
        }
    }
}
