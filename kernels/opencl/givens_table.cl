/* SPDX-License-Identifier: MIT */
/* The kernels around a sweep of the fused and apply Givens kernels (Hamze,
 * arXiv:2106.00003): the rotation table every sweep reads, and the sum of
 * the backwards' partial dot products into dtheta.  Needs givens_common.cl
 * before it. */

/* Entry idx of a (nt - 1) x S table by (step, slot), S = nt / 2: its step
 * and slot, the coordinate `top` at the slot's top position and the slot's
 * pair (i, j), i < j.  0 past the table. */
int givens_entry(const int nt, const size_t idx, int *step, int *slot, int *top, int *i,
                 int *j)
{
    const int S = nt / 2;
    if (idx >= (size_t)(nt - 1) * S)
        return 0;
    *step = (int)(idx / S);
    *slot = (int)(idx % S);
    *top = givens_coord(nt, *step, *slot);
    const int bot = givens_coord(nt, *step, nt - 1 - *slot);
    *i = min(*top, bot);
    *j = max(*top, bot);
    return 1;
}

/* cs[step S + slot] = (c, s') for the pair of that slot, S = nt / 2, where s'
 * = s when the slot's top position holds the smaller coordinate i and -s
 * otherwise, so that a sweep rotates top' = c top - s' bot,
 * bot' = s' top + c bot without knowing the orientation.  Dropped pairs (the
 * dummy coordinate of odd n, or i >= m) and the rows from nt - 1 up to
 * nsteps - 1, which pad a sweep to whole unrolled rounds, are the identity
 * (1, 0).  Global: nsteps S work-items, any group size. */
__kernel void givens_rotation_table(const int n, const int m, const int nt, const int nsteps,
                                    __global const REAL *theta, __global REAL2 *cs)
{
    const size_t idx = get_global_id(0);
    if (idx >= (size_t)nsteps * (size_t)(nt / 2))
        return;
    REAL2 v = (REAL2)(1, 0);
    int step, slot, top, i, j;
    if (givens_entry(nt, idx, &step, &slot, &top, &i, &j) && givens_keep(n, m, i, j)) {
        REAL s;
        v.x = givens_cos_sin(theta[givens_tri(n, i, j)], &s);
        v.y = top == i ? s : -s;
    }
    cs[idx] = v;
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
