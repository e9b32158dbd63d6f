/* SPDX-License-Identifier: MIT */
/* The paper's standard approach (Borisov and Myasnikov, section III; notes
 * section 1): one work-item per point sums the gradient term over all other
 * points and writes the point's next iterate; Jacobi, y and y_out distinct.
 * Flat or transposed by SAMMON_TRANSPOSED.  Needs sammon_common.cl before it. */

/* One plain-GD step for point i: y_out_i = y_i - alpha dE/dy_i
 * = y_i + scale sum_j w_ij (y_i - y_j), scale = 2 alpha / c.  Global: N
 * rounded up to the work-group size (the `wg` tunable). */
__kernel void sammon_standard(const int N, __global const REAL *x, __global const REAL *y,
                              __global REAL *y_out, const REAL scale)
{
    const int i = (int)get_global_id(0);
    if (i >= N)
        return;
    REAL xi[SAMMON_DIM], yi[SAMMON_OUTDIM], acc[SAMMON_OUTDIM];
    for (int k = 0; k < SAMMON_DIM; k++)
        xi[k] = SAMMON_AT(x, N, SAMMON_DIM, i, k);
    for (int q = 0; q < SAMMON_OUTDIM; q++) {
        yi[q] = SAMMON_AT(y, N, SAMMON_OUTDIM, i, q);
        acc[q] = (REAL)0;
    }
    for (int j = 0; j < N; j++) {
        REAL ds2 = (REAL)0, d2 = (REAL)0, dy[SAMMON_OUTDIM];
        for (int k = 0; k < SAMMON_DIM; k++) {
            const REAL t = xi[k] - SAMMON_AT(x, N, SAMMON_DIM, j, k);
            ds2 += t * t;
        }
        for (int q = 0; q < SAMMON_OUTDIM; q++) {
            dy[q] = yi[q] - SAMMON_AT(y, N, SAMMON_OUTDIM, j, q);
            d2 += dy[q] * dy[q];
        }
        const REAL w = sammon_weight(ds2, d2);
        for (int q = 0; q < SAMMON_OUTDIM; q++)
            acc[q] += w * dy[q];
    }
    for (int q = 0; q < SAMMON_OUTDIM; q++)
        SAMMON_AT(y_out, N, SAMMON_OUTDIM, i, q) = yi[q] + scale * acc[q];
}
