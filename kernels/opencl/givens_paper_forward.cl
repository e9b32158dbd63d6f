/* SPDX-License-Identifier: MIT */
/* The paper's forward (Hamze, arXiv:2106.00003, Algorithm 2, sections 3 and
 * 6): one launch per round-robin block, (i, j) computed from the step index
 * so that nothing but theta is uploaded; each work-item rotates one column of
 * one pair.  Needs givens_common.cl before it. */

/* Work-items per group along the columns (the `wg` tunable), >= 1. */
#ifndef GIVENS_WG
#define GIVENS_WG 64
#endif

/* U <- I (n x n, row-major).  Global (ceil(n / GIVENS_WG) GIVENS_WG, n). */
__kernel __attribute__((reqd_work_group_size(GIVENS_WG, 1, 1)))
void givens_identity(const int n, __global REAL *U)
{
    const int col = (int)get_global_id(0), row = (int)get_global_id(1);
    if (col < n)
        U[(size_t)row * n + col] = row == col ? (REAL)1 : (REAL)0;
}

/* The rotations of one block: global (ceil(n / GIVENS_WG) GIVENS_WG, nt / 2),
 * dimension 1 the slot.  Rows i and j of U: u_i <- c u_i - s u_j,
 * u_j <- s u_i + c u_j. */
__kernel __attribute__((reqd_work_group_size(GIVENS_WG, 1, 1)))
void givens_paper_forward_step(const int n, const int m, const int nt, const int step,
                               __global const REAL *theta, __global REAL *U)
{
    const int col = (int)get_global_id(0);
    int i, j;
    givens_pair(nt, step, (int)get_global_id(1), &i, &j);
    if (col >= n || !givens_keep(n, m, i, j))
        return;
    REAL s;
    const REAL c = givens_cos_sin(theta[givens_tri(n, i, j)], &s);
    const REAL a = U[(size_t)i * n + col], b = U[(size_t)j * n + col];
    U[(size_t)i * n + col] = c * a - s * b;
    U[(size_t)j * n + col] = s * a + c * b;
}
