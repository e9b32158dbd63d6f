/* SPDX-License-Identifier: MIT */
/* Apply mode of the round-robin Givens rotations (Hamze, arXiv:2106.00003;
 * notes/givens.md section 5): Y = U X without forming U, and its batched
 * JVP, each one sweep of givens_apply_engine.cl after the rotation table.
 *
 * The JVP's slabs hold 2 W columns (WS = 2 W): W of Y, then the same W of
 * dL/dY, rotated alike, with each pair's dot product between the halves read
 * after every step.  Floating-point atomics are not core OpenCL, so the
 * slabs' partial sums are not added across work-groups: work-group g keeps
 * its own P[step][g][slot] (summed over the slabs it runs, g, g + G, ...) and
 * givens_fused_backward_finish (givens_table.cl) adds the G groups' parts in
 * order.  This costs memory proportional to the number of groups G,
 * (nt - 1) G nt/2 values, so the host caps G.  Needs givens_common.cl,
 * givens_table.cl and givens_apply_engine.cl before it. */

/* Y = U X for X and Y row-major n x nb: ceil(nb / WS) groups of S / B
 * work-items (S = nt / 2, a multiple of B), each sweeping its columns of X
 * down the steps; xtop and xbot hold 2 (S / B) WS values each.  cs is the
 * table of givens_rotation_table. */
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

/* The apply-form JVP from Y = U X and GY = dL/dY (row-major n x nb): rows of
 * Y and GY are rotated by G_b^T at every step (0 ... nt-2, starting from
 * position p holding coordinate p), dtheta_e = sum_b Y_ib GY_jb - Y_jb GY_ib
 * after each, and GY ends as dX = U^T GY.  Global G (S / B) work-items in
 * groups of S / B, G <= ceil(nb / W); P holds (nt - 1) G S values. */
__kernel void givens_fused_apply_backward(const int n, const int nt, const int nb,
                                          __global const REAL2 *cs, __global const REAL *Y,
                                          __global const REAL *GY, __global REAL *P,
                                          __global REAL *dX, __local REAL *xtop,
                                          __local REAL *xbot)
{
    const int H = WS / 2, S = nt / 2, g = (int)get_group_id(0), G = (int)get_num_groups(0);
    REAL top[B][WS], bot[B][WS];
    for (int slab = g; slab * H < nb; slab += G) {
        givens_slab_load(top, bot, 0, H, Y, (size_t)nb, 1, n, nt, 0, slab * H, nb);
        givens_slab_load(top, bot, H, H, GY, (size_t)nb, 1, n, nt, 0, slab * H, nb);
        givens_slab_sweep(top, bot, nt, cs, xtop, xbot, -1, P + (size_t)g * S, (size_t)G * S,
                          slab == g);
        givens_slab_store(top, bot, H, H, dX, nb, n, nt, nt - 2, slab * H, nb);
    }
}
