/* SPDX-License-Identifier: MIT */
/* Fused forward of the round-robin Givens rotations (Hamze, arXiv:2106.00003,
 * Algorithm 2; notes/givens.md section 11) in one launch after a rotation
 * table: U = G_{b_1} ... G_{b_{n-1}} applied to I.
 *
 * Columns of U evolve independently, so each work-group owns GIVENS_COLS
 * columns and runs every step itself, one barrier per step.  Rows are held by
 * circle position, not by coordinate: slot k always pairs positions k (top)
 * and nt-1-k (bottom), and between steps the coordinates move one position
 * along the circle (position 0 stays), so a work-item owning GIVENS_SLOTS
 * consecutive slots passes one top value to the next work-item and one bottom
 * value to the previous one per column and step, through local memory.
 * Needs givens_common.cl before it. */

/* Consecutive slots per work-item (B, the `slots` tunable): 1, 2, 4 or 8. */
#ifndef GIVENS_SLOTS
#define GIVENS_SLOTS 1
#endif

/* Columns per work-group (W, the `cols` tunable): 1, 2, 4 or 8. */
#ifndef GIVENS_COLS
#define GIVENS_COLS 1
#endif

#define B GIVENS_SLOTS
#define W GIVENS_COLS

/* cs[step S + slot] = (c, s') for the pair of that slot, S = nt / 2, where s'
 * = s when the slot's top position holds the smaller coordinate i and -s
 * otherwise, so that the fused kernel rotates top' = c top - s' bot,
 * bot' = s' top + c bot without knowing the orientation.  Dropped pairs (the
 * dummy coordinate of odd n, or i >= m) are the identity (1, 0).  Global:
 * (nt - 1) S work-items, any group size. */
__kernel void givens_rotation_table(const int n, const int m, const int nt,
                                    __global const REAL *theta, __global REAL2 *cs)
{
    const int S = nt / 2;
    const size_t idx = get_global_id(0);
    if (idx >= (size_t)(nt - 1) * S)
        return;
    const int step = (int)(idx / S), slot = (int)(idx % S);
    const int top = givens_coord(nt, step, slot), bot = givens_coord(nt, step, nt - 1 - slot);
    const int i = min(top, bot), j = max(top, bot);
    REAL2 v = (REAL2)(1, 0);
    if (givens_keep(n, m, i, j)) {
        REAL s;
        v.x = givens_cos_sin(theta[givens_tri(n, i, j)], &s);
        v.y = top == i ? s : -s;
    }
    cs[idx] = v;
}

/* Rotate this work-item's B pairs by its rotations `r` of one step. */
void givens_slab_rotate(REAL top[B][W], REAL bot[B][W], __global const REAL2 *r)
{
    for (int q = 0; q < B; q++) {
        const REAL2 cs = r[q];
        for (int w = 0; w < W; w++) {
            const REAL a = top[q][w], b = bot[q][w];
            top[q][w] = cs.x * a - cs.y * b;
            bot[q][w] = cs.y * a + cs.x * b;
        }
    }
}

/* Global ceil(n / W) (S / B) work-items in groups of S / B (S = nt / 2, a
 * multiple of B); xtop and xbot hold 2 (S / B) W values each (exchange buffers
 * double-buffered by step parity, so one barrier per step suffices).  cs is
 * the table of givens_rotation_table; U is row-major n x n. */
__kernel void givens_fused_forward(const int n, const int nt, __global const REAL2 *cs,
                                   __global REAL *U, __local REAL *xtop, __local REAL *xbot)
{
    const int t = (int)get_local_id(0), T = (int)get_local_size(0);
    const int S = nt / 2, c0 = (int)get_group_id(0) * W;
    REAL top[B][W], bot[B][W];
    for (int q = 0; q < B; q++) {      /* U = I at the first step applied, nt-2 */
        const int k = t * B + q;
        const int rt = givens_coord(nt, nt - 2, k), rb = givens_coord(nt, nt - 2, nt - 1 - k);
        for (int w = 0; w < W; w++) {
            top[q][w] = rt == c0 + w ? (REAL)1 : (REAL)0;
            bot[q][w] = rb == c0 + w ? (REAL)1 : (REAL)0;
        }
    }
    for (int step = nt - 2; step > 0; step--) {
        givens_slab_rotate(top, bot, cs + (size_t)step * S + (size_t)t * B);
        /* One position along the circle: top values move to the next slot,
         * bottom values to the previous one.  Outgoing: top B-1 to work-item
         * t+1, bottom 0 to t-1.  With one slot per work-item, work-item 0's
         * top is position 0, which never moves: slot 1 takes its bottom. */
        const int buf = (step & 1) * T * W;
        for (int w = 0; w < W; w++) {
            xtop[buf + t * W + w] = (B == 1 && t == 0) ? bot[0][w] : top[B - 1][w];
            xbot[buf + t * W + w] = bot[0][w];
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int w = 0; w < W; w++) {
            /* The circle turns at slot S-1 (its bottom takes its top) and at
             * slot 0 (slot 1's top takes slot 0's bottom, handled below). */
            const REAL tin = t > 0 ? xtop[buf + (t - 1) * W + w] : (REAL)0;
            const REAL bin = t < T - 1 ? xbot[buf + (t + 1) * W + w] : top[B - 1][w];
            const REAL b0 = bot[0][w];
            for (int q = B - 1; q > 0; q--)
                top[q][w] = top[q - 1][w];
            for (int q = 0; q < B - 1; q++)
                bot[q][w] = bot[q + 1][w];
            bot[B - 1][w] = bin;
            if (t > 0)
                top[0][w] = tin;
            else if (B > 1)
                top[1][w] = b0;         /* top[0], position 0, kept its value */
        }
    }
    givens_slab_rotate(top, bot, cs + (size_t)t * B);
    /* Step 0 leaves position p holding coordinate p, so rows are positions. */
    for (int q = 0; q < B; q++) {
        const int k = t * B + q, rbot = nt - 1 - k;
        for (int w = 0; w < W; w++) {
            if (c0 + w >= n)
                continue;
            U[(size_t)k * n + c0 + w] = top[q][w];      /* k < nt/2 <= n */
            if (rbot < n)
                U[(size_t)rbot * n + c0 + w] = bot[q][w];
        }
    }
}
