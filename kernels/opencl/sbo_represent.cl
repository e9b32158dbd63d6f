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

/* Fused: nothing per (signal, block) pair leaves the chip.  A work-item owns
 * SBO_SIG signals (the host's choice: 2 in float at p <= 64, so that every
 * coefficient read feeds both, else 1), their values in private memory
 * padded with zeros to SBO_PP; the group walks the L blocks, staging
 * `rows` code rows at a time (a multiple of 4, rows of SBO_PP values) in
 * local memory, and every work-item computes four codes at once from
 * 4-vector reads that the whole group shares.  The squares go into a sorted
 * list of SBO_S values that starts at zeros (a zero never displaces
 * anything, so rows past p cost nothing but time) and is summed from the
 * largest down, as top_sum does; the best block is the first of the largest
 * energy.  Work-item t of group g owns signals g wg SBO_SIG + t + a wg;
 * those past m compute on signal m - 1 (they take part in the barriers)
 * and write nothing. */
#ifndef SBO_SIG
#define SBO_SIG 1
#endif
#define SBO_PP ((SBO_P + 3) / 4 * 4)
#if SBO_FP64
#define REAL4 double4
#else
#define REAL4 float4
#endif

/* a, b <- the larger, the smaller. */
#define SBO_EXCHANGE(a, b)                                                     \
    do {                                                                       \
        const REAL hi_ = fmax((a), (b));                                       \
        (b) = fmin((a), (b));                                                  \
        (a) = hi_;                                                             \
    } while (0)

/* v into top (descending, SBO_S values) if it beats the smallest. */
static void top_insert1(REAL *top, REAL v)
{
    if (v > top[SBO_S - 1]) {
#pragma unroll
        for (int q = 0; q < SBO_S; q++) {
            const REAL hi = fmax(top[q], v);
            v = fmin(top[q], v);
            top[q] = hi;
        }
    }
}

/* Four squares into top at once.  With SBO_S a power of two of at least 4,
 * without branches (a branch runs for the whole warp whenever one of its
 * work-items inserts): the four sorted, the larger of each of top's last
 * four and the four in reverse order (a sequence falling then rising),
 * then a bitonic merge.  The list ends as after four top_insert1 calls. */
static void top_insert4(REAL *top, REAL v0, REAL v1, REAL v2, REAL v3)
{
#if SBO_S >= 4 && (SBO_S & (SBO_S - 1)) == 0
    SBO_EXCHANGE(v0, v1);
    SBO_EXCHANGE(v2, v3);
    SBO_EXCHANGE(v0, v2);
    SBO_EXCHANGE(v1, v3);
    SBO_EXCHANGE(v1, v2);
    top[SBO_S - 4] = fmax(top[SBO_S - 4], v3);
    top[SBO_S - 3] = fmax(top[SBO_S - 3], v2);
    top[SBO_S - 2] = fmax(top[SBO_S - 2], v1);
    top[SBO_S - 1] = fmax(top[SBO_S - 1], v0);
#pragma unroll
    for (int d = SBO_S / 2; d >= 1; d /= 2)
#pragma unroll
        for (int q = 0; q < SBO_S; q++)
            if ((q & d) == 0)
                SBO_EXCHANGE(top[q], top[q + d]);
#else
    top_insert1(top, v0);
    top_insert1(top, v1);
    top_insert1(top, v2);
    top_insert1(top, v3);
#endif
}

__kernel void sbo_fused(const int m, const int L, const int rows, __global const REAL *D,
                        __global const REAL *Y, __global int *best, __global REAL *energy,
                        __local REAL *Qt)
{
    const int lid = (int)get_local_id(0), wg = (int)get_local_size(0);
    const int first = (int)get_group_id(0) * wg * SBO_SIG + lid;
    REAL y[SBO_SIG][SBO_PP], top[SBO_SIG][SBO_S], eb[SBO_SIG];
    int jb[SBO_SIG];
    for (int a = 0; a < SBO_SIG; a++) {
        __global const REAL *src = Y + (size_t)min(first + a * wg, m - 1) * SBO_P;
        for (int k = 0; k < SBO_PP; k++)
            y[a][k] = k < SBO_P ? src[k] : (REAL)0;
        eb[a] = (REAL)0;
        jb[a] = 0;
    }
    for (int j = 0; j < L; j++) {
        __global const REAL *Q = D + (size_t)j * SBO_P * SBO_P;
        for (int a = 0; a < SBO_SIG; a++)
            for (int q = 0; q < SBO_S; q++)
                top[a][q] = (REAL)0;
        for (int r0 = 0; r0 < SBO_PP; r0 += rows) {
            const int nr = min(rows, SBO_PP - r0);
            barrier(CLK_LOCAL_MEM_FENCE);       /* the last chunk is read */
            for (int t = lid; t < nr * SBO_PP; t += wg) {
                const int row = r0 + t / SBO_PP, k = t % SBO_PP;
                Qt[t] = row < SBO_P && k < SBO_P ? Q[row * SBO_P + k] : (REAL)0;
            }
            barrier(CLK_LOCAL_MEM_FENCE);
            for (int r = 0; r < nr; r += 4) {
                REAL acc[SBO_SIG][4];
                for (int a = 0; a < SBO_SIG; a++)
                    for (int c = 0; c < 4; c++)
                        acc[a][c] = (REAL)0;
#pragma unroll
                for (int k = 0; k < SBO_PP; k += 4) {
                    REAL4 q[4];
                    for (int c = 0; c < 4; c++)
                        q[c] = vload4(0, Qt + (r + c) * SBO_PP + k);
                    for (int a = 0; a < SBO_SIG; a++)
                        for (int c = 0; c < 4; c++) {
                            acc[a][c] += q[c].x * y[a][k];
                            acc[a][c] += q[c].y * y[a][k + 1];
                            acc[a][c] += q[c].z * y[a][k + 2];
                            acc[a][c] += q[c].w * y[a][k + 3];
                        }
                }
                for (int a = 0; a < SBO_SIG; a++)
                    top_insert4(top[a], acc[a][0] * acc[a][0], acc[a][1] * acc[a][1],
                                acc[a][2] * acc[a][2], acc[a][3] * acc[a][3]);
            }
        }
        for (int a = 0; a < SBO_SIG; a++) {
            const REAL e = top_sum(top[a], SBO_S);
            if (j == 0 || e > eb[a]) {          /* ties to the lower block */
                eb[a] = e;
                jb[a] = j;
            }
        }
    }
    for (int a = 0; a < SBO_SIG; a++) {
        const int i = first + a * wg;
        if (i < m) {
            best[i] = jb[a];
            energy[i] = eb[a];
        }
    }
}
