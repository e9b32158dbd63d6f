/* SPDX-License-Identifier: MIT */
/* The paper's backward (Hamze, arXiv:2106.00003, Algorithm 3, section 4.2):
 * M <- Gamma^T and V <- U^T, then per round-robin block rotate the rows of M
 * and V by G_b, fill A (nt/2 x n) with A[k, l] = M_il V_jl - M_jl V_il for
 * the block's pairs, and sum A's rows into the block's angles (the O(log n)
 * reduction).  Needs givens_common.cl before it. */

/* Work-items per group along the columns and in the row sum (the `wg`
 * tunable), >= 1; any value, not only powers of two. */
#ifndef GIVENS_WG
#define GIVENS_WG 64
#endif

/* Side of the square tile of the transpose; GIVENS_TILE^2 work-items. */
#ifndef GIVENS_TILE
#define GIVENS_TILE 16
#endif

/* out = in^T for n x n row-major matrices through a local tile (padded by one
 * column against bank conflicts).  Global (ceil(n / T) T, ceil(n / T) T). */
__kernel __attribute__((reqd_work_group_size(GIVENS_TILE, GIVENS_TILE, 1)))
void givens_transpose(const int n, __global const REAL *in, __global REAL *out)
{
    __local REAL tile[GIVENS_TILE][GIVENS_TILE + 1];
    const int tx = (int)get_local_id(0), ty = (int)get_local_id(1);
    const int bx = (int)get_group_id(0) * GIVENS_TILE, by = (int)get_group_id(1) * GIVENS_TILE;
    if (by + ty < n && bx + tx < n)
        tile[ty][tx] = in[(size_t)(by + ty) * n + bx + tx];
    barrier(CLK_LOCAL_MEM_FENCE);
    if (bx + ty < n && by + tx < n)
        out[(size_t)(bx + ty) * n + by + tx] = tile[tx][ty];
}

/* Rows i and j of M and of V rotated by the pair of slot get_global_id(1) in
 * `step`: r_i <- c r_i - s r_j, r_j <- s r_i + c r_j.  Global
 * (ceil(n / GIVENS_WG) GIVENS_WG, nt / 2). */
__kernel __attribute__((reqd_work_group_size(GIVENS_WG, 1, 1)))
void givens_paper_backward_rotate(const int n, const int m, const int nt, const int step,
                                  __global const REAL *theta, __global REAL *M,
                                  __global REAL *V)
{
    const int col = (int)get_global_id(0);
    int i, j;
    givens_pair(nt, step, (int)get_global_id(1), &i, &j);
    if (col >= n || !givens_keep(n, m, i, j))
        return;
    REAL s;
    const REAL c = givens_cos_sin(theta[givens_tri(n, i, j)], &s);
    const size_t ri = (size_t)i * n + col, rj = (size_t)j * n + col;
    REAL a = M[ri], b = M[rj];
    M[ri] = c * a - s * b;
    M[rj] = s * a + c * b;
    a = V[ri];
    b = V[rj];
    V[ri] = c * a - s * b;
    V[rj] = s * a + c * b;
}

/* A[slot, l] = M_il V_jl - M_jl V_il for the pairs of `step`, 0 for dropped
 * pairs.  Global (ceil(n / GIVENS_WG) GIVENS_WG, nt / 2). */
__kernel __attribute__((reqd_work_group_size(GIVENS_WG, 1, 1)))
void givens_paper_backward_set_a(const int n, const int m, const int nt, const int step,
                                 __global const REAL *M, __global const REAL *V,
                                 __global REAL *A)
{
    const int l = (int)get_global_id(0), slot = (int)get_global_id(1);
    if (l >= n)
        return;
    int i, j;
    givens_pair(nt, step, slot, &i, &j);
    REAL a = 0;
    if (givens_keep(n, m, i, j))
        a = M[(size_t)i * n + l] * V[(size_t)j * n + l]
            - M[(size_t)j * n + l] * V[(size_t)i * n + l];
    A[(size_t)slot * n + l] = a;
}

/* dtheta of the pair of group get_group_id(0) (the slot) in `step` = the sum
 * of A's row: a work-group tree reduction in local memory.  Global
 * (nt / 2) GIVENS_WG. */
__kernel __attribute__((reqd_work_group_size(GIVENS_WG, 1, 1)))
void givens_paper_backward_row_sum(const int n, const int m, const int nt, const int step,
                                   __global const REAL *A, __global REAL *dtheta)
{
    __local REAL part[GIVENS_WG];
    const int t = (int)get_local_id(0), slot = (int)get_group_id(0);
    int i, j;
    givens_pair(nt, step, slot, &i, &j);
    if (!givens_keep(n, m, i, j))
        return;                                 /* the whole group leaves together */
    REAL sum = 0;
    for (int l = t; l < n; l += GIVENS_WG)
        sum += A[(size_t)slot * n + l];
    part[t] = sum;
    barrier(CLK_LOCAL_MEM_FENCE);
    /* Fold the top onto the largest power of two below GIVENS_WG first, so
     * that any group size reduces. */
    int h = 1;
    while (2 * h < GIVENS_WG)
        h *= 2;
    for (; h > 0; h /= 2) {
        if (t < h && t + h < GIVENS_WG)
            part[t] += part[t + h];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (t == 0)
        dtheta[givens_tri(n, i, j)] = part[0];
}
