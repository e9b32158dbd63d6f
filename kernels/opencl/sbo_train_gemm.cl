/* SPDX-License-Identifier: MIT */
/* The batched GEMM of 1ONB steps 3 and 5 (Irofti, "Matrix multiplication";
 * shared/notes/sbo.md 5.1) for devices or builds without CLBlast: for each
 * batch entry b, C_b = op(A_b) op(B_b) (alpha 1, beta 0), column-major, the
 * entries' offsets in elements from a buffer, as CLBlastXgemmBatched takes
 * them.  Tiles of SBO_GEMM_TILE x SBO_GEMM_TILE in local memory.  Built
 * after sbo_represent.cl (REAL). */

/* REAL, SBO_FP64 (with the fp64 pragma), SBO_P and SBO_S come from
 * sbo_represent.cl, which precedes this part in the program. */

/* Tile edge: the group is TILE x TILE work-items, each one element of C;
 * 16 (256 work-items) suits every GPU; 8 for devices of small groups. */
#ifndef SBO_GEMM_TILE
#define SBO_GEMM_TILE 16
#endif

/* op(X)[r, c] of a column-major X with leading dimension ld. */
#define SBO_OP(X, t, ld, r, c) ((t) ? (X)[(size_t)(c) + (size_t)(r) * (ld)] \
                                    : (X)[(size_t)(r) + (size_t)(c) * (ld)])

/* Global (M, N rounded up to the tile, batch), local (TILE, TILE, 1); offs
 * + obase holds the A, B and C offsets of every entry (3 x batch: all A,
 * then all B, then all C). */
__kernel void sbo_gemm_batched(const int ta, const int tb, const int M, const int N,
                               const int K, __global const ulong *offs, const int obase,
                               __global const REAL *A, const int lda,
                               __global const REAL *B, const int ldb,
                               __global REAL *C, const int ldc)
{
    __local REAL As[SBO_GEMM_TILE][SBO_GEMM_TILE + 1];
    __local REAL Bs[SBO_GEMM_TILE][SBO_GEMM_TILE + 1];
    const int tr = (int)get_local_id(0), tc = (int)get_local_id(1);
    const int r = (int)get_global_id(0), c = (int)get_global_id(1);
    const int b = (int)get_global_id(2), nbatch = (int)get_global_size(2);
    const int r0 = r - tr, c0 = c - tc;
    offs += obase;
    __global const REAL *a = A + offs[b];
    __global const REAL *bm = B + offs[nbatch + b];
    REAL acc = (REAL)0;
    for (int k0 = 0; k0 < K; k0 += SBO_GEMM_TILE) {
        /* As[k][i] = op(A)[r0 + i, k0 + k]; Bs[k][j] = op(B)[k0 + k, c0 + j]:
         * work-item (tr, tc) loads element (tr, tc) of each, the faster
         * index along the stored columns where the transpose allows. */
        const int ai = ta ? tc : tr, ak = ta ? tr : tc;
        const int bk = tb ? tc : tr, bj = tb ? tr : tc;
        As[ak][ai] = r0 + ai < M && k0 + ak < K ? SBO_OP(a, ta, lda, r0 + ai, k0 + ak)
                                                 : (REAL)0;
        Bs[bk][bj] = k0 + bk < K && c0 + bj < N ? SBO_OP(bm, tb, ldb, k0 + bk, c0 + bj)
                                                 : (REAL)0;
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int k = 0; k < SBO_GEMM_TILE; k++)
            acc += As[k][tr] * Bs[k][tc];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (r < M && c < N)
        C[offs[2 * nbatch + b] + (size_t)r + (size_t)c * ldc] = acc;
}
