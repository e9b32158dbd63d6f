/* SPDX-License-Identifier: MIT */
/* The engine of the apply-mode Givens kernels (Hamze, arXiv:2106.00003;
 * notes/givens.md section 5): one work-group's sweep over every round-robin
 * step on a slab of columns of X held in private memory.
 *
 * Columns evolve independently under row rotations, so a work-group owns a
 * slab of GIVENS_WIDTH columns and runs every step itself, one barrier per
 * step.  Rows are held by circle position, not by coordinate: slot k always
 * pairs positions k (top) and nt-1-k (bottom), and between steps the
 * coordinates move one position along the circle (position 0 stays), so a
 * work-item owning GIVENS_SLOTS consecutive slots passes one top value and
 * one bottom value per column and step to its neighbours, through local
 * memory.  Going down the steps (dir > 0, nt-2 ... 0: Y = U X) tops move to
 * higher slots and bottoms to lower ones; going up (dir < 0, 0 ... nt-2,
 * transposed rotations: the JVP) the other way.  The fused forward and
 * backward, which form U and read it, run on givens_slab.cl.  Needs
 * givens_common.cl and givens_table.cl before it. */

/* Consecutive slots per work-item (B, the `slots` tunable): 1, 2, 4 or 8. */
#ifndef GIVENS_SLOTS
#define GIVENS_SLOTS 1
#endif

/* Values per row of a slab (WS): the `cols` tunable for Y = U X; twice it
 * for the JVP, which holds Y and dL/dY side by side. */
#ifndef GIVENS_WIDTH
#define GIVENS_WIDTH 1
#endif

#define B GIVENS_SLOTS
#define WS GIVENS_WIDTH

/* Rotate this work-item's B pairs by its rotations `r` of one step; dir < 0
 * applies the transposed rotations. */
void givens_slab_rotate(REAL top[B][WS], REAL bot[B][WS], __global const REAL2 *r,
                        const int dir)
{
    for (int q = 0; q < B; q++) {
        const REAL c = r[q].x, sn = dir > 0 ? r[q].y : -r[q].y;
        for (int w = 0; w < WS; w++) {
            const REAL a = top[q][w], b = bot[q][w];
            top[q][w] = c * a - sn * b;
            bot[q][w] = sn * a + c * b;
        }
    }
}

/* Move every value one position along the circle.  xtop and xbot hold
 * 2 T WS values each (T work-items), double-buffered by `parity` so that one
 * barrier per step suffices.  Slot 0's top is position 0, which never moves. */
void givens_slab_shift(REAL top[B][WS], REAL bot[B][WS], __local REAL *xtop,
                       __local REAL *xbot, const int parity, const int dir)
{
    const int t = (int)get_local_id(0), T = (int)get_local_size(0);
    __local REAL *ot = xtop + parity * T * WS, *ob = xbot + parity * T * WS;
    /* Outgoing going down: top B-1 to t+1 (with one slot, work-item 0 sends
     * its bottom: position 1 takes it), bottom 0 to t-1.  Going up: top 0 to
     * t-1, bottom B-1 to t+1. */
    for (int w = 0; w < WS; w++) {
        if (dir > 0)
            ot[t * WS + w] = (B == 1 && t == 0) ? bot[0][w] : top[B - 1][w];
        else
            ot[t * WS + w] = top[0][w];
        ob[t * WS + w] = dir > 0 ? bot[0][w] : bot[B - 1][w];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int w = 0; w < WS; w++) {
        if (dir > 0) {
            /* The circle turns at slot S-1 (its bottom takes its top) and at
             * slot 0 (slot 1's top takes slot 0's bottom). */
            const REAL tin = t > 0 ? ot[(t - 1) * WS + w] : (REAL)0;
            const REAL bin = t < T - 1 ? ob[(t + 1) * WS + w] : top[B - 1][w];
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
        } else {
            /* The circle turns at slot S-1 (its top takes its bottom) and at
             * slot 0 (its bottom takes slot 1's top, read after all of the
             * step's rotations, as everything here is). */
            const REAL tin = t < T - 1 ? ot[(t + 1) * WS + w] : bot[B - 1][w];
            const REAL bin = t > 0 ? ob[(t - 1) * WS + w] : B > 1 ? top[1][w] : ot[WS + w];
            for (int q = B - 1; q > 0; q--)
                bot[q][w] = bot[q - 1][w];
            bot[0][w] = bin;
            for (int q = t == 0 ? 1 : 0; q < B - 1; q++)
                top[q][w] = top[q + 1][w];
            if (B > 1 || t > 0)
                top[B - 1][w] = tin;    /* else top[0] is position 0 */
        }
    }
}

/* Every step on the slab, loaded with the rows held at the first step: nt-2
 * for dir > 0, 0 for dir < 0.  With P not NULL, after each step's rotations
 * the pairs' partial dot products between the slab's halves (columns 0 ..
 * WS/2-1 against WS/2 .. WS-1: top_a bot_b - bot_a top_b) go to
 * P[step pstride + slot], written when `first`, else added.  cs is the table
 * of givens_rotation_table. */
void givens_slab_sweep(REAL top[B][WS], REAL bot[B][WS], const int nt,
                       __global const REAL2 *cs, __local REAL *xtop, __local REAL *xbot,
                       const int dir, __global REAL *P, const size_t pstride, const int first)
{
    const int t = (int)get_local_id(0), S = nt / 2, H = WS / 2;
    const int last = dir > 0 ? 0 : nt - 2;
    for (int step = dir > 0 ? nt - 2 : 0;; step -= dir) {
        givens_slab_rotate(top, bot, cs + (size_t)step * S + (size_t)t * B, dir);
        for (int q = 0; P && q < B; q++) {
            REAL a = 0;
            for (int w = 0; w < H; w++) {
                /* Two statements, so that each contracts to a multiply-add. */
                a += top[q][w] * bot[q][H + w];
                a -= bot[q][w] * top[q][H + w];
            }
            __global REAL *d = P + (size_t)step * pstride + (size_t)(t * B + q);
            *d = first ? a : *d + a;
        }
        if (step == last)
            return;
        givens_slab_shift(top, bot, xtop, xbot, step & 1, dir);
    }
}

/* Slab columns off .. off+count-1 from columns c0 .. of the matrix whose
 * (row r, column c) is src[r rs + c cs]: the rows at this work-item's
 * positions in `step`; zero past n rows (the dummy coordinate of odd n) and
 * past ncols columns. */
void givens_slab_load(REAL top[B][WS], REAL bot[B][WS], const int off, const int count,
                      __global const REAL *src, const size_t rs, const size_t cs, const int n,
                      const int nt, const int step, const int c0, const int ncols)
{
    const int t = (int)get_local_id(0);
    for (int q = 0; q < B; q++) {
        const int k = t * B + q;
        const int rt = givens_coord(nt, step, k), rb = givens_coord(nt, step, nt - 1 - k);
        for (int w = 0; w < count; w++) {
            const int col = c0 + w;
            top[q][off + w] = col < ncols && rt < n ? src[rt * rs + col * cs] : (REAL)0;
            bot[q][off + w] = col < ncols && rb < n ? src[rb * rs + col * cs] : (REAL)0;
        }
    }
}

/* The inverse for a row-major dst with ld values per row: slab columns
 * off .. off+count-1 to columns c0 .. below ncols, rows below n. */
void givens_slab_store(REAL top[B][WS], REAL bot[B][WS], const int off, const int count,
                       __global REAL *dst, const int ld, const int n, const int nt,
                       const int step, const int c0, const int ncols)
{
    const int t = (int)get_local_id(0);
    for (int q = 0; q < B; q++) {
        const int k = t * B + q;
        const int rt = givens_coord(nt, step, k), rb = givens_coord(nt, step, nt - 1 - k);
        for (int w = 0; w < count && c0 + w < ncols; w++) {
            if (rt < n)
                dst[(size_t)rt * ld + c0 + w] = top[q][off + w];
            if (rb < n)
                dst[(size_t)rb * ld + c0 + w] = bot[q][off + w];
        }
    }
}
