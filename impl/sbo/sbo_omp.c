/* SPDX-License-Identifier: MIT */
/* The float SBO building blocks with OpenBLAS and OpenMP: the
 * representation pass (one SGEMM D^T Y per chunk of signals, then the top-s
 * energies and the argmax per signal), the initial bases and 1ONB (SGEMMs
 * for Q^T Y and Y X^T, sgesvd for the Procrustes step).  OpenMP spreads
 * chunks of signals over threads, each running a one-thread SGEMM on its
 * chunk and then its selection while the chunk is in cache: Debian's
 * OpenBLAS runs its own pthreads, and alternating its threaded GEMMs with
 * OpenMP loops made both spin (3x slower on 2 cores than one thread). */
#include <cblas.h>
#include <lapacke.h>
#include <math.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>
#include "datasets/planted.h"
#include "harness/error.h"
#include "impl/sbo/sbo_omp.h"

/* c = H_s(c) in place; the retained energy. */
static float threshold_f(int p, int s, float *c)
{
    int idx[SBO_MAX_S], n = 0;
    for (int k = 0; k < p; k++) {
        float a = fabsf(c[k]);
        if (n == s && a <= fabsf(c[idx[n - 1]]))
            continue;
        int at = n < s ? n++ : n - 1;
        while (at > 0 && fabsf(c[idx[at - 1]]) < a) {
            idx[at] = idx[at - 1];
            at--;
        }
        idx[at] = k;
    }
    float keep[SBO_MAX_S], e = 0.0f;
    for (int k = 0; k < n; k++)
        keep[k] = c[idx[k]];
    memset(c, 0, (size_t)p * sizeof *c);
    for (int k = 0; k < n; k++) {
        c[idx[k]] = keep[k];
        e += keep[k] * keep[k];
    }
    return e;
}

int sbo_represent_omp(int p, int s, int nb, const float *D, int m, const float *Y, int *best,
                      float *energy, int threads)
{
    int rows = nb * p, chunks = (m + SBO_OMP_CHUNK - 1) / SBO_OMP_CHUNK;
    float *C = malloc((size_t)threads * rows * SBO_OMP_CHUNK * sizeof *C);
    if (!C)
        return RB_ENOMEM;
    openblas_set_num_threads(1);
#pragma omp parallel for num_threads(threads) schedule(dynamic) if (chunks > 1)
    for (int ch = 0; ch < chunks; ch++) {
        int i0 = ch * SBO_OMP_CHUNK, n = m - i0 < SBO_OMP_CHUNK ? m - i0 : SBO_OMP_CHUNK;
        float *c = C + (size_t)omp_get_thread_num() * rows * SBO_OMP_CHUNK;
        cblas_sgemm(CblasColMajor, CblasTrans, CblasNoTrans, rows, n, p, 1.0f, D, p,
                    Y + (size_t)i0 * p, p, 0.0f, c, rows);
        for (int i = 0; i < n; i++) {
            int jb = 0;
            float eb = -1.0f;
            for (int j = 0; j < nb; j++) {
                float e = sbo_top_energy_f(p, s, c + (size_t)i * rows + (size_t)j * p);
                if (e > eb) {
                    eb = e;
                    jb = j;
                }
            }
            best[i0 + i] = jb;
            if (energy)
                energy[i0 + i] = eb;
        }
    }
    free(C);
    return 0;
}

/* Q = U V^T of M's SVD; M is overwritten. */
static int polar_f(int p, float *M, float *Q, float *u, float *vt, float *sv)
{
    lapack_int info = LAPACKE_sgesvd(LAPACK_COL_MAJOR, 'A', 'A', p, p, M, p, sv, u, p, vt, p,
                                     sv + p);
    if (info != 0)
        return RB_EINVAL;
    cblas_sgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, p, p, p, 1.0f, u, p, vt, p, 0.0f,
                Q, p);
    return 0;
}

int sbo_init_basis_omp(int p, int m, const float *Y, enum sbo_init how, uint64_t seed,
                       float *Q, int threads)
{
    size_t pp = (size_t)p * p;
    if (how != SBO_INIT_SVD_OF_DATA) {
        double *q = malloc(pp * sizeof *q);
        if (!q)
            return RB_ENOMEM;
        int rc = sbo_init_basis(p, 0, NULL, how, seed, q);
        for (size_t k = 0; k < pp; k++)
            Q[k] = (float)q[k];
        free(q);
        return rc;
    }
    float *g = malloc((2 * pp + 2 * (size_t)p) * sizeof *g);
    if (!g)
        return RB_ENOMEM;
    (void)threads;          /* one SGEMM once per block: a small share of the time */
    openblas_set_num_threads(1);
    /* G = Y Y^T, both triangles (the SVD reads the whole matrix). */
    cblas_sgemm(CblasColMajor, CblasNoTrans, CblasTrans, p, p, m, 1.0f, Y, p, Y, p, 0.0f, g,
                p);
    float *vt = g + pp, *sv = vt + pp;
    lapack_int info = LAPACKE_sgesvd(LAPACK_COL_MAJOR, 'A', 'A', p, p, g, p, sv, Q, p, vt, p,
                                     sv + p);
    free(g);
    return info == 0 ? 0 : RB_EINVAL;
}

/* One 1ONB half-step over threads, each on its chunks of signals: C = Q^T Y,
 * X = H_s(C) in place, and Mt = Y X^T into each thread's own p x p; the
 * retained energy. */
static double code_and_correlate(int p, int m, const float *Y, int s, const float *Q,
                                 float *C, float *Mt, int threads)
{
    int chunks = (m + SBO_OMP_CHUNK - 1) / SBO_OMP_CHUNK;
    double kept = 0.0;
    memset(Mt, 0, (size_t)threads * p * p * sizeof *Mt);
#pragma omp parallel for num_threads(threads) schedule(dynamic) if (chunks > 1) reduction(+ : kept)
    for (int ch = 0; ch < chunks; ch++) {
        int i0 = ch * SBO_OMP_CHUNK, n = m - i0 < SBO_OMP_CHUNK ? m - i0 : SBO_OMP_CHUNK;
        float *c = C + (size_t)i0 * p, *mt = Mt + (size_t)omp_get_thread_num() * p * p;
        const float *y = Y + (size_t)i0 * p;
        cblas_sgemm(CblasColMajor, CblasTrans, CblasNoTrans, p, n, p, 1.0f, Q, p, y, p, 0.0f,
                    c, p);
        for (int i = 0; i < n; i++)
            kept += threshold_f(p, s, c + (size_t)i * p);
        cblas_sgemm(CblasColMajor, CblasNoTrans, CblasTrans, p, p, n, 1.0f, y, p, c, p, 1.0f,
                    mt, p);
    }
    return kept;
}

int sbo_1onb_omp(int p, int m, const float *Y, int s, int K, float *Q, double *err,
                 int threads)
{
    size_t pp = (size_t)p * p;
    float *C = malloc(((size_t)m * p + ((size_t)threads + 2) * pp + 2 * (size_t)p)
                      * sizeof *C);
    if (!C)
        return RB_ENOMEM;
    float *Mt = C + (size_t)m * p, *u = Mt + (size_t)threads * pp, *vt = u + pp,
          *sv = vt + pp;
    double ynorm = 0.0;
    if (err)
        for (size_t k = 0; k < (size_t)m * p; k++)
            ynorm += (double)Y[k] * Y[k];
    openblas_set_num_threads(1);
    int rc = 0;
    for (int it = 0; it <= K && rc == 0; it++) {
        double kept = code_and_correlate(p, m, Y, s, Q, C, Mt, threads);
        if (err)
            err[it] = fmax(ynorm - kept, 0.0);
        if (it == K)
            break;
        for (int t = 1; t < threads; t++)
            for (size_t k = 0; k < pp; k++)
                Mt[k] += Mt[(size_t)t * pp + k];
        rc = polar_f(p, Mt, Q, u, vt, sv);
    }
    free(C);
    return rc;
}
