/* SPDX-License-Identifier: MIT */
/* Fused backward of the round-robin Givens rotations (Hamze,
 * arXiv:2106.00003): Algorithm 3 and the apply-form batched JVP (notes/
 * givens.md section 5), each one sweep of givens_fused_engine.cl over slabs
 * of 2 W columns (WS = 2 W): W of one matrix, then the same W of the other,
 * rotated alike, with each pair's dot product between the halves read after
 * every step.
 *
 * Floating-point atomics are not core OpenCL, so the slabs' partial sums are
 * not added across work-groups: work-group g keeps its own P[step][g][slot]
 * (summed over the slabs it runs, g, g + G, ...) and
 * givens_fused_backward_finish adds the G groups' parts in order.  This costs
 * memory proportional to the number of groups G, (nt - 1) G nt/2 values, so
 * the host caps G.  Needs givens_common.cl and givens_fused_engine.cl before
 * it. */

/* Algorithm 3 for U (the forward's output) and Gamma = dL/dU, both row-major
 * n x n: rows of M = Gamma^T and V = U^T are rotated by G_b at every step
 * (nt-2 ... 0) and dtheta_e = M_i . V_j - M_j . V_i.  Slab columns c0 ... of
 * M and V are rows c0 ... of Gamma and U.  Global G (S / B) work-items in
 * groups of S / B, G <= ceil(n / W); P holds (nt - 1) G S values; xtop and
 * xbot 2 (S / B) WS each. */
__kernel void givens_fused_backward(const int n, const int nt, __global const REAL2 *cs,
                                    __global const REAL *U, __global const REAL *Gamma,
                                    __global REAL *P, __local REAL *xtop, __local REAL *xbot)
{
    const int H = WS / 2, S = nt / 2, g = (int)get_group_id(0), G = (int)get_num_groups(0);
    REAL top[B][WS], bot[B][WS];
    for (int slab = g; slab * H < n; slab += G) {
        givens_slab_load(top, bot, 0, H, Gamma, 1, (size_t)n, n, nt, nt - 2, slab * H, n);
        givens_slab_load(top, bot, H, H, U, 1, (size_t)n, n, nt, nt - 2, slab * H, n);
        givens_slab_sweep(top, bot, nt, cs, xtop, xbot, 1, P + (size_t)g * S, (size_t)G * S,
                          slab == g);
    }
}

/* The apply-form JVP from Y = U X and GY = dL/dY (row-major n x nb): rows of
 * Y and GY are rotated by G_b^T at every step (0 ... nt-2, starting from
 * position p holding coordinate p), dtheta_e = sum_b Y_ib GY_jb - Y_jb GY_ib
 * after each, and GY ends as dX = U^T GY.  Launch as givens_fused_backward,
 * G <= ceil(nb / W). */
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

/* dtheta from P ((nt - 1) x G x S): the G parts of the pair at (step, slot)
 * added in order, negated when the slot's top held the larger coordinate
 * (givens_rotation_table's orientation).  Dropped pairs have no angle.
 * Global (nt - 1) S work-items, any group size. */
__kernel void givens_fused_backward_finish(const int n, const int m, const int nt, const int G,
                                           __global const REAL *P, __global REAL *dtheta)
{
    const int S = nt / 2;
    int step, slot, top, i, j;
    if (!givens_entry(nt, get_global_id(0), &step, &slot, &top, &i, &j)
        || !givens_keep(n, m, i, j))
        return;
    REAL d = 0;
    for (int g = 0; g < G; g++)
        d += P[((size_t)step * G + g) * S + slot];
    dtheta[givens_tri(n, i, j)] = top == i ? d : -d;
}
