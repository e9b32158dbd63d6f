/* SPDX-License-Identifier: MIT */
/* The SBO representation pass (Irofti; facts in shared/notes/sbo.md, 5.1) in
 * OpenCL C 1.2: per (block, signal) pair the codes Q_j^T y_i in private
 * memory and the energy of their s largest magnitudes, then the best block
 * per signal.  The paper's design is two kernels here (energies to a global
 * L x m buffer, then the argmax); the fused one keeps everything on chip.
 * Conventions of impl/sbo/sbo.h: column-major, block j at D + j p p, element
 * (k, r) of a block at r p + k, so code r is column r dotted with y. */

/* Element type: float or double (the host adds -D SBO_FP64=1 with double). */
#ifndef REAL
#define REAL float
#endif
#ifndef SBO_FP64
#define SBO_FP64 0
#endif
#if SBO_FP64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif

/* Signal dimension p and sparsity s, compile-time so that a signal and its
 * s largest squares sit in private arrays (the host admits p <= 256). */
#ifndef SBO_P
#define SBO_P 64
#endif
#ifndef SBO_S
#define SBO_S 8
#endif

/* The sum of the s largest c_r^2 of block Q (global or local rows) against
 * the private signal y, as the serial reference's top_energy_f: a sorted
 * insertion (strict comparison, so an equal square stays behind the one
 * already kept) and the sum in descending order. */
#define SBO_TOP_INSERT(top, n, a)                                              \
    do {                                                                       \
        if ((n) < SBO_S || (a) > (top)[(n) - 1]) {                             \
            int at_ = (n) < SBO_S ? (n)++ : (n) - 1;                           \
            while (at_ > 0 && (top)[at_ - 1] < (a)) {                          \
                (top)[at_] = (top)[at_ - 1];                                   \
                at_--;                                                         \
            }                                                                  \
            (top)[at_] = (a);                                                  \
        }                                                                      \
    } while (0)

static REAL top_sum(const REAL *top, int n)
{
    REAL e = (REAL)0;
    for (int k = 0; k < n; k++)
        e += top[k];
    return e;
}

/* The paper's map: global (m rounded up to wg, L), local (wg, 1), one
 * work-item per (signal i, block j) pair; E[j m + i] its energy.  All
 * work-items of a group read the same block element at once (a broadcast);
 * the signal is read once into private memory. */
__kernel void sbo_energy(const int m, __global const REAL *D, __global const REAL *Y,
                         __global REAL *E)
{
    const int i = (int)get_global_id(0), j = (int)get_global_id(1);
    if (i >= m)
        return;
    __global const REAL *Q = D + (size_t)j * SBO_P * SBO_P;
    __global const REAL *y = Y + (size_t)i * SBO_P;
    REAL yv[SBO_P], top[SBO_S];
    int n = 0;
    for (int k = 0; k < SBO_P; k++)
        yv[k] = y[k];
    for (int r = 0; r < SBO_P; r++) {
        REAL acc = (REAL)0;
        for (int k = 0; k < SBO_P; k++)
            acc += Q[r * SBO_P + k] * yv[k];
        const REAL a = acc * acc;
        SBO_TOP_INSERT(top, n, a);
    }
    E[(size_t)j * m + i] = top_sum(top, n);
}

/* The paper's reduce: one work-item per signal, the block of largest energy
 * among L (ties to the lower index: only a strictly larger energy moves
 * it); a NaN energy of block 0 stays NaN. */
__kernel void sbo_argmax(const int m, const int L, __global const REAL *E,
                         __global int *best, __global REAL *energy)
{
    const int i = (int)get_global_id(0);
    if (i >= m)
        return;
    REAL eb = E[i];
    int jb = 0;
    for (int j = 1; j < L; j++) {
        const REAL e = E[(size_t)j * m + i];
        if (e > eb) {
            eb = e;
            jb = j;
        }
    }
    best[i] = jb;
    energy[i] = eb;
}

/* Fused: a group per tile of wg signals, a work-item per signal, over all L
 * blocks in turn; each block passes through local memory in chunks of
 * `rows` code rows (rows p values), loaded coalesced by the whole group and
 * read by every work-item at once.  The argmax runs as the blocks go, so
 * nothing per pair leaves the chip.  Work-items past m compute on signal
 * m - 1 (they take part in the barriers) and write nothing. */
__kernel void sbo_fused(const int m, const int L, const int rows, __global const REAL *D,
                        __global const REAL *Y, __global int *best, __global REAL *energy,
                        __local REAL *Qt)
{
    const int gi = (int)get_global_id(0), lid = (int)get_local_id(0);
    const int wg = (int)get_local_size(0), i = min(gi, m - 1);
    __global const REAL *y = Y + (size_t)i * SBO_P;
    REAL yv[SBO_P], eb = (REAL)0;
    int jb = -1;
    for (int k = 0; k < SBO_P; k++)
        yv[k] = y[k];
    for (int j = 0; j < L; j++) {
        __global const REAL *Q = D + (size_t)j * SBO_P * SBO_P;
        REAL top[SBO_S];
        int n = 0;
        for (int r0 = 0; r0 < SBO_P; r0 += rows) {
            const int len = min(rows, SBO_P - r0) * SBO_P;
            barrier(CLK_LOCAL_MEM_FENCE);       /* the last chunk is read */
            for (int t = lid; t < len; t += wg)
                Qt[t] = Q[r0 * SBO_P + t];
            barrier(CLK_LOCAL_MEM_FENCE);
            for (int r = 0; r < len / SBO_P; r++) {
                REAL acc = (REAL)0;
                for (int k = 0; k < SBO_P; k++)
                    acc += Qt[r * SBO_P + k] * yv[k];
                const REAL a = acc * acc;
                SBO_TOP_INSERT(top, n, a);
            }
        }
        const REAL e = top_sum(top, n);
        if (jb < 0 || e > eb) {                 /* ties to the lower block */
            eb = e;
            jb = j;
        }
    }
    if (gi < m) {
        best[gi] = jb;
        energy[gi] = eb;
    }
}
