/* SPDX-License-Identifier: MIT */
/* Row kernels shared by the serial and OpenMP Givens code (private header).
 * Serial and OpenMP inline the same code, so their results agree bit for bit. */
#ifndef GIVENS_ROT_H
#define GIVENS_ROT_H

#include <stddef.h>

/* (a, b) <- (c a - s b, s a + c b): rows i, j of G(c, s) times a matrix.
 * G^T is the same call with -s. */
static inline void givens_rot_rows_f(float *restrict a, float *restrict b, size_t len,
                                     float c, float s)
{
    for (size_t l = 0; l < len; l++) {
        float x = a[l], y = b[l];
        a[l] = c * x - s * y;
        b[l] = s * x + c * y;
    }
}

static inline void givens_rot_rows_d(double *restrict a, double *restrict b, size_t len,
                                     double c, double s)
{
    for (size_t l = 0; l < len; l++) {
        double x = a[l], y = b[l];
        a[l] = c * x - s * y;
        b[l] = s * x + c * y;
    }
}

/* sum_l (mi[l] wj[l] - mj[l] wi[l]): the angle's gradient of eq. (16). */
static inline float givens_cross_dot_f(const float *mi, const float *mj, const float *wi,
                                       const float *wj, size_t len)
{
    float acc = 0.0f;
    for (size_t l = 0; l < len; l++)
        acc += mi[l] * wj[l] - mj[l] * wi[l];
    return acc;
}

static inline double givens_cross_dot_d(const double *mi, const double *mj, const double *wi,
                                        const double *wj, size_t len)
{
    double acc = 0.0;
    for (size_t l = 0; l < len; l++)
        acc += mi[l] * wj[l] - mj[l] * wi[l];
    return acc;
}

/* Rows of a transposing tile: reads stay on a few cache lines per source row. */
#define GIVENS_TILE 32

/* Row r of the backward workspace is [ (Gamma^T)_r | (U^T)_r ]: column r of
 * Gamma, then column r of U, so both of Algorithm 3's updates rotate rows.
 * Loads rows r0 .. r1-1. */
static inline void givens_work_load_f(int n, const float *Gamma, const float *U,
                                      float *work, int r0, int r1)
{
    size_t w = 2 * (size_t)n;
    for (int rb = r0; rb < r1; rb += GIVENS_TILE) {
        int re = rb + GIVENS_TILE < r1 ? rb + GIVENS_TILE : r1;
        for (int l = 0; l < n; l++)
            for (int r = rb; r < re; r++) {
                work[r * w + l] = Gamma[(size_t)l * n + r];
                work[r * w + n + l] = U[(size_t)l * n + r];
            }
    }
}

static inline void givens_work_load_d(int n, const double *Gamma, const double *U,
                                      double *work, int r0, int r1)
{
    size_t w = 2 * (size_t)n;
    for (int rb = r0; rb < r1; rb += GIVENS_TILE) {
        int re = rb + GIVENS_TILE < r1 ? rb + GIVENS_TILE : r1;
        for (int l = 0; l < n; l++)
            for (int r = rb; r < re; r++) {
                work[r * w + l] = Gamma[(size_t)l * n + r];
                work[r * w + n + l] = U[(size_t)l * n + r];
            }
    }
}

#endif
