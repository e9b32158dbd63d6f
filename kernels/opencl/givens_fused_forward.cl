/* SPDX-License-Identifier: MIT */
/* Fused forward of the round-robin Givens rotations (Hamze, arXiv:2106.00003,
 * Algorithm 2) in one launch after the rotation table: U = G_{b_1} ...
 * G_{b_{n-1}} applied to I, or to X (n x nb) for Y = U X without forming U
 * (apply mode, notes/givens.md section 5).  Each work-group sweeps one slab of
 * GIVENS_WIDTH columns down the steps (givens_fused_engine.cl); step 0 leaves
 * position p holding coordinate p.  Needs givens_common.cl and
 * givens_fused_engine.cl before it. */

/* Global ceil(n / WS) (S / B) work-items in groups of S / B (S = nt / 2, a
 * multiple of B); xtop and xbot hold 2 (S / B) WS values each.  cs is the
 * table of givens_rotation_table; U is row-major n x n. */
__kernel void givens_fused_forward(const int n, const int nt, __global const REAL2 *cs,
                                   __global REAL *U, __local REAL *xtop, __local REAL *xbot)
{
    const int t = (int)get_local_id(0), c0 = (int)get_group_id(0) * WS;
    REAL top[B][WS], bot[B][WS];
    for (int q = 0; q < B; q++) {      /* U = I at the first step applied, nt-2 */
        const int k = t * B + q;
        const int rt = givens_coord(nt, nt - 2, k), rb = givens_coord(nt, nt - 2, nt - 1 - k);
        for (int w = 0; w < WS; w++) {
            top[q][w] = rt == c0 + w ? (REAL)1 : (REAL)0;
            bot[q][w] = rb == c0 + w ? (REAL)1 : (REAL)0;
        }
    }
    givens_slab_sweep(top, bot, nt, cs, xtop, xbot, 1, NULL, 0, 0);
    givens_slab_store(top, bot, 0, WS, U, n, n, nt, 0, c0, n);
}

/* Y = U X for X and Y row-major n x nb: as givens_fused_forward over
 * ceil(nb / WS) groups, each starting from its columns of X. */
__kernel void givens_fused_apply(const int n, const int nt, const int nb,
                                 __global const REAL2 *cs, __global const REAL *X,
                                 __global REAL *Y, __local REAL *xtop, __local REAL *xbot)
{
    const int c0 = (int)get_group_id(0) * WS;
    REAL top[B][WS], bot[B][WS];
    givens_slab_load(top, bot, 0, WS, X, (size_t)nb, 1, n, nt, nt - 2, c0, nb);
    givens_slab_sweep(top, bot, nt, cs, xtop, xbot, 1, NULL, 0, 0);
    givens_slab_store(top, bot, 0, WS, Y, nb, n, nt, 0, c0, nb);
}
