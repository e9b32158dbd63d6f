/* SPDX-License-Identifier: MIT */
/* The fused forward and backward of the round-robin Givens rotations (Hamze,
 * arXiv:2106.00003, Algorithms 2 and 3), each one sweep of givens_slab.cl
 * after the rotation table (nsteps rows: nt - 1 rounded up to a multiple of
 * GIVENS_SLOTS).  Both launch work-groups of T = (S / B) WG work-items (S =
 * nt / 2) with local memory `stages` of 2 (S / B) GIVENS_ROW pairs and
 * `xbuf` of 4 T W values.  Needs givens_common.cl, givens_table.cl and
 * givens_slab.cl before it. */

/* Forward: U = G_{b_1} ... G_{b_{n-1}} applied to I, row-major n x n, by
 * ceil(n / (W WG)) work-groups, each owning WG groups of W columns. */
__kernel void givens_fused_forward(const int n, const int nt, const int nsteps,
                                   __global const REAL2 *cs, __global REAL *U,
                                   __local REAL2 *stages, __local XVEC *xbuf)
{
    const givens_slab_ctx c = givens_slab_here(nt);
    const int c0 = ((int)get_group_id(0) * WG + c.w) * W;
    REAL top[B][W], bot[B][W];
    for (int q = 0; q < B; q++) {
        const int k = c.g * B + q;
        const int rt = givens_coord(nt, nsteps - 1, k), rb = givens_coord(nt, nsteps - 1, nt - 1 - k);
        for (int v = 0; v < W; v++) {
            top[q][v] = rt == c0 + v ? (REAL)1 : (REAL)0;
            bot[q][v] = rb == c0 + v ? (REAL)1 : (REAL)0;
        }
    }
    givens_slab_sweep(top, bot, &c, nsteps, cs, stages, xbuf, NULL, 0, 0);
    for (int q = 0; q < B; q++) {
        const int k = c.g * B + q;
        const int rt = givens_coord(nt, nt - 2, k), rb = givens_coord(nt, nt - 2, nt - 1 - k);
        for (int v = 0; v < W && c0 + v < n; v++) {
            if (rt < n)
                U[(size_t)rt * n + c0 + v] = top[q][v];
            if (rb < n)
                U[(size_t)rb * n + c0 + v] = bot[q][v];
        }
    }
}

/* Slab `slab` of the backward (W / 2 columns of M = Gamma^T, then the same
 * of V = U^T: rows slab W/2 ... of Gamma and U) at the rows of step
 * nsteps - 1; zero past n. */
void givens_fused_backward_load(REAL top[B][W], REAL bot[B][W], const givens_slab_ctx *c,
                                const int n, const int nsteps, const int slab,
                                __global const REAL *U, __global const REAL *Gamma)
{
    const int H = W / 2, nt = c->nt;
    for (int q = 0; q < B; q++) {
        const int k = c->g * B + q;
        const int rt = givens_coord(nt, nsteps - 1, k);
        const int rb = givens_coord(nt, nsteps - 1, nt - 1 - k);
        for (int v = 0; v < H; v++) {
            const int col = slab * H + v;
            const size_t base = (size_t)col * n;
            const int in = col < n;
            top[q][v] = in && rt < n ? Gamma[base + rt] : (REAL)0;
            top[q][H + v] = in && rt < n ? U[base + rt] : (REAL)0;
            bot[q][v] = in && rb < n ? Gamma[base + rb] : (REAL)0;
            bot[q][H + v] = in && rb < n ? U[base + rb] : (REAL)0;
        }
    }
}

/* Backward (Algorithm 3, WG = 1) for U (the forward's output) and Gamma =
 * dL/dU, both row-major n x n: rows of M = Gamma^T and V = U^T are rotated
 * by G_b at every step (nt - 2 ... 0) and dtheta_e = M_i . V_j - M_j . V_i.
 * A slab holds W / 2 columns of M and the same of V.  G work-groups (G <= ceil(n / (W / 2))) run slabs g, g + G, ...,
 * each keeping its own sums in P[step][g][slot] (nsteps G S values; rows
 * from nt - 1 on are padding) for givens_fused_backward_finish;
 * floating-point atomics are not core OpenCL. */
__kernel void givens_fused_backward(const int n, const int nt, const int nsteps,
                                    __global const REAL2 *cs, __global const REAL *U,
                                    __global const REAL *Gamma, __global REAL *P,
                                    __local REAL2 *stages, __local XVEC *xbuf)
{
    const givens_slab_ctx c = givens_slab_here(nt);
    const int g = (int)get_group_id(0), G = (int)get_num_groups(0);
    __global REAL *mine = P + (size_t)g * c.S;
    REAL top[B][W], bot[B][W];
    /* The first slab writes the group's sums, the others add to them: two
     * sweeps, so that `first` is a constant in each and the first reads
     * nothing back. */
    givens_fused_backward_load(top, bot, &c, n, nsteps, g, U, Gamma);
    givens_slab_sweep(top, bot, &c, nsteps, cs, stages, xbuf, mine, (size_t)G * c.S, 1);
    for (int slab = g + G; slab * (W / 2) < n; slab += G) {
        givens_fused_backward_load(top, bot, &c, n, nsteps, slab, U, Gamma);
        givens_slab_sweep(top, bot, &c, nsteps, cs, stages, xbuf, mine, (size_t)G * c.S, 0);
    }
}
