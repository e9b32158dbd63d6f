/* SPDX-License-Identifier: MIT */
/* The batched GEMM of 1ONB steps 3 and 5 (Irofti, "Matrix multiplication";
 * shared/notes/sbo.md 5.1) for devices or builds without CLBlast: for each
 * batch entry b, C_b = op(A_b) op(B_b) (alpha 1, beta 0), column-major, the
 * entries' offsets in elements from a buffer, as CLBlastXgemmBatched takes
 * them.  As kernels/cuda/sbo_train_gemm.cuh: a group computes a 64 x 64
 * tile, each work-item 4 x 4 of it; a long K (the p x p M = Y C^T) is split
 * into chunks (impl/sbo/sbo_gemm_split.h) whose partial tiles sbo_gemm_sum
 * adds in a fixed order.  Built after sbo_represent.cl (REAL). */

/* REAL, SBO_FP64 (with the fp64 pragma), SBO_P and SBO_S come from
 * sbo_represent.cl, which precedes this part in the program.  The tile
 * sizes are impl/sbo/sbo_gemm_split.h's; the host passes them too. */
#ifndef SBO_GEMM_TM
#define SBO_GEMM_TM 64
#endif
#ifndef SBO_GEMM_KT
#define SBO_GEMM_KT 16
#endif
#define SBO_GEMM_TN SBO_GEMM_TM
#define SBO_GEMM_THREADS (SBO_GEMM_TM * SBO_GEMM_TM / 16)
/* Work-items per row of the 4 x 4 grid: (tx, ty) holds rows tx + TX u and
 * columns ty + TX v, so that neighbours read neighbouring local words. */
#define SBO_GEMM_TX (SBO_GEMM_TM / 4)

/* op(X)[r, c] of a column-major X with leading dimension ld. */
#define SBO_OP(X, t, ld, r, c) ((t) ? (X)[(size_t)(c) + (size_t)(r) * (ld)] \
                                    : (X)[(size_t)(r) + (size_t)(c) * (ld)])

/* Stage op(X)[i0 .. i0 + TM - 1, k0 .. k0 + KT - 1] (t 0: X is rows x k; 1:
 * X is k x rows) as S[k][i], zero outside rows x [k0, kend): the faster
 * work-item index along X's stored columns. */
static void sbo_gemm_stage(__local REAL (*S)[SBO_GEMM_TM + 1], __global const REAL *X,
                           const int t, const int ld, const int rows, const int i0,
                           const int k0, const int kend, const int lid)
{
    for (int q = 0; q < SBO_GEMM_TM * SBO_GEMM_KT / SBO_GEMM_THREADS; q++) {
        const int e = lid + q * SBO_GEMM_THREADS;
        const int i = t ? e / SBO_GEMM_KT : e % SBO_GEMM_TM;
        const int k = t ? e % SBO_GEMM_KT : e / SBO_GEMM_TM;
        S[k][i] = i0 + i < rows && k0 + k < kend ? SBO_OP(X, t, ld, i0 + i, k0 + k) : (REAL)0;
    }
}

/* Global (tiles nsplit THREADS, batch), local (THREADS, 1) with tiles =
 * ceil(M / TM) ceil(N / TN): group x covers tile x % tiles and K chunk
 * x / tiles of length `chunk`.  offs + obase holds the A, B and C offsets
 * of every entry (3 x batch: all A, then all B, then all C).  One chunk:
 * C written; more: entry b's chunk s to P + (b nsplit + s) M N (M x N,
 * leading dimension M), for sbo_gemm_sum. */
__kernel __attribute__((reqd_work_group_size(SBO_GEMM_THREADS, 1, 1)))
void sbo_gemm_batched(const int ta, const int tb, const int M, const int N, const int K,
                      const int chunk, __global const ulong *offs, const int obase,
                      __global const REAL *A, const int lda, __global const REAL *B,
                      const int ldb, __global REAL *C, const int ldc, __global REAL *P)
{
    __local REAL As[SBO_GEMM_KT][SBO_GEMM_TM + 1];
    __local REAL Bs[SBO_GEMM_KT][SBO_GEMM_TM + 1];
    const int lid = (int)get_local_id(0);
    const int mt = (M + SBO_GEMM_TM - 1) / SBO_GEMM_TM;
    const int tiles = mt * ((N + SBO_GEMM_TN - 1) / SBO_GEMM_TN);
    const int group = (int)get_group_id(0);
    const int tile = group % tiles, split = group / tiles;
    const int nsplit = (int)get_num_groups(0) / tiles;
    const int r0 = (tile % mt) * SBO_GEMM_TM, c0 = (tile / mt) * SBO_GEMM_TN;
    const int b = (int)get_group_id(1), nbatch = (int)get_num_groups(1);
    const int kbeg = split * chunk, kend = min(K, kbeg + chunk);
    const int tx = lid % SBO_GEMM_TX, ty = lid / SBO_GEMM_TX;
    offs += obase;
    __global const REAL *a = A + offs[b];
    __global const REAL *bm = B + offs[nbatch + b];
    REAL acc[4][4];
    for (int u = 0; u < 4; u++)
        for (int v = 0; v < 4; v++)
            acc[u][v] = (REAL)0;
    for (int k0 = kbeg; k0 < kend; k0 += SBO_GEMM_KT) {
        sbo_gemm_stage(As, a, ta, lda, M, r0, k0, kend, lid);
        /* op(B)[k, j] = op(B^T)[j, k]: staged as op(B^T)'s rows. */
        sbo_gemm_stage(Bs, bm, !tb, ldb, N, c0, k0, kend, lid);
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int k = 0; k < SBO_GEMM_KT; k++) {
            REAL x[4], y[4];
            for (int u = 0; u < 4; u++) {
                x[u] = As[k][tx + SBO_GEMM_TX * u];
                y[u] = Bs[k][ty + SBO_GEMM_TX * u];
            }
            for (int u = 0; u < 4; u++)
                for (int v = 0; v < 4; v++)
                    acc[u][v] += x[u] * y[v];
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    __global REAL *out = nsplit > 1 ? P + ((size_t)b * nsplit + split) * M * N
                                    : C + offs[2 * nbatch + b];
    const int ld = nsplit > 1 ? M : ldc;
    for (int u = 0; u < 4; u++)
        for (int v = 0; v < 4; v++) {
            const int r = r0 + tx + SBO_GEMM_TX * u, c = c0 + ty + SBO_GEMM_TX * v;
            if (r < M && c < N)
                out[(size_t)r + (size_t)c * ld] = acc[u][v];
        }
}

/* C_b = the sum of entry b's nsplit partial products in P, in chunk order.
 * Global (M N rounded up to THREADS, batch), local (THREADS, 1); offs +
 * obase as sbo_gemm_batched's. */
__kernel __attribute__((reqd_work_group_size(SBO_GEMM_THREADS, 1, 1)))
void sbo_gemm_sum(const int M, const int N, const int nsplit, __global const ulong *offs,
                  const int obase, __global const REAL *P, __global REAL *C, const int ldc)
{
    const int e = (int)get_global_id(0);
    const int b = (int)get_group_id(1), nbatch = (int)get_num_groups(1);
    if (e >= M * N)
        return;
    offs += obase;
    const size_t mn = (size_t)M * N;
    __global const REAL *p = P + (size_t)b * nsplit * mn + e;
    REAL s = p[0];
    for (int k = 1; k < nsplit; k++)
        s += p[k * mn];
    C[offs[2 * nbatch + b] + (size_t)(e % M) + (size_t)(e / M) * ldc] = s;
}
