/* SPDX-License-Identifier: MIT */
/* A faster standard approach than the paper's (its section III): the
 * points summed over pass through local-memory tiles that a work-group loads
 * once, coalesced from the transposed layout, each work-item owns
 * SAMMON_PPI points in registers so that every tile value serves several
 * points, and the sum over j is split into slices (the second grid
 * dimension) so that small N still fills the device.  The slices' partial
 * sums go to a buffer that sammon_tiled_finish adds up: no atomics, and the
 * result does not depend on scheduling.  Transposed layout only.  Needs
 * sammon_common.cl before it. */

/* Points per work-item, >= 1 (the host picks it from n and m): registers
 * against reuse of each tile value. */
/* Four-component vector of REAL, for the tile's wide local loads. */
#define SAMMON_PASTE(a, b) a##b
#define SAMMON_VEC4(t) SAMMON_PASTE(t, 4)
#define REAL4 SAMMON_VEC4(REAL)

#ifndef SAMMON_PPI
#define SAMMON_PPI 2
#endif

/* Partial sums part[s][q][i] = sum_{j in slice s} w_ij (y_iq - y_jq).
 * Global (groups * wg, S): group g of dimension 0 owns points g wg PPI +
 * p wg + lid, p < PPI; slice s of dimension 1 covers points [s span, (s + 1)
 * span) with span a multiple of tj, the tile's points.  `tile` holds tj
 * (SAMMON_DIM + SAMMON_OUTDIM) values, point by point: x of the tile's
 * points, then y.  Every work-item reads the same tile point at once (a
 * broadcast), so with n a multiple of 4 a point's x comes in n / 4 vector
 * loads: on H200 that took n = 64 from 3.2 to 2.6 ms at N = 16384. */
__kernel void sammon_tiled(const int N, const int span, const int tj, __global const REAL *x,
                           __global const REAL *y, __global REAL *part, __local REAL4 *tile)
{
    const int lid = (int)get_local_id(0), wg = (int)get_local_size(0);
    const int base = (int)get_group_id(0) * wg * SAMMON_PPI, s = (int)get_group_id(1);
    const int jbeg = s * span, jend = min(N, jbeg + span);
    __local REAL *xt = (__local REAL *)tile, *yt = xt + tj * SAMMON_DIM;
    REAL xi[SAMMON_PPI][SAMMON_DIM], yi[SAMMON_PPI][SAMMON_OUTDIM];
    REAL acc[SAMMON_PPI][SAMMON_OUTDIM];
    for (int p = 0; p < SAMMON_PPI; p++) {
        /* Rows past N compute on point N - 1 and write nothing. */
        const int i = min(base + p * wg + lid, N - 1);
        for (int k = 0; k < SAMMON_DIM; k++)
            xi[p][k] = x[(size_t)k * N + i];
        for (int q = 0; q < SAMMON_OUTDIM; q++) {
            yi[p][q] = y[(size_t)q * N + i];
            acc[p][q] = (REAL)0;
        }
    }
    for (int j0 = jbeg; j0 < jend; j0 += tj) {
        const int len = min(tj, jend - j0);
        barrier(CLK_LOCAL_MEM_FENCE);           /* the last tile is read */
        for (int k = 0; k < SAMMON_DIM; k++)
            for (int t = lid; t < len; t += wg)
                xt[t * SAMMON_DIM + k] = x[(size_t)k * N + j0 + t];
        for (int q = 0; q < SAMMON_OUTDIM; q++)
            for (int t = lid; t < len; t += wg)
                yt[t * SAMMON_OUTDIM + q] = y[(size_t)q * N + j0 + t];
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int t = 0; t < len; t++) {
            REAL xj[SAMMON_DIM], yj[SAMMON_OUTDIM];
#if SAMMON_DIM % 4 == 0
            for (int k = 0; k < SAMMON_DIM / 4; k++) {
                const REAL4 v = tile[t * (SAMMON_DIM / 4) + k];
                xj[4 * k] = v.x;
                xj[4 * k + 1] = v.y;
                xj[4 * k + 2] = v.z;
                xj[4 * k + 3] = v.w;
            }
#else
            for (int k = 0; k < SAMMON_DIM; k++)
                xj[k] = xt[t * SAMMON_DIM + k];
#endif
            for (int q = 0; q < SAMMON_OUTDIM; q++)
                yj[q] = yt[t * SAMMON_OUTDIM + q];
            for (int p = 0; p < SAMMON_PPI; p++) {
                REAL ds2 = (REAL)0, d2 = (REAL)0, dy[SAMMON_OUTDIM];
                for (int k = 0; k < SAMMON_DIM; k++) {
                    const REAL d = xi[p][k] - xj[k];
                    ds2 += d * d;
                }
                for (int q = 0; q < SAMMON_OUTDIM; q++) {
                    dy[q] = yi[p][q] - yj[q];
                    d2 += dy[q] * dy[q];
                }
                const REAL w = sammon_weight(ds2, d2);
                for (int q = 0; q < SAMMON_OUTDIM; q++)
                    acc[p][q] += w * dy[q];
            }
        }
    }
    for (int p = 0; p < SAMMON_PPI; p++) {
        const int i = base + p * wg + lid;
        if (i < N)
            for (int q = 0; q < SAMMON_OUTDIM; q++)
                part[((size_t)s * SAMMON_OUTDIM + q) * N + i] = acc[p][q];
    }
}

/* y_out = y + scale sum_s part[s] (scale = 2 alpha / c), one work-item per
 * point, slices added in order.  Global: N rounded up to the group size. */
__kernel void sammon_tiled_finish(const int N, const int S, __global const REAL *y,
                                  __global const REAL *part, __global REAL *y_out,
                                  const REAL scale)
{
    const int i = (int)get_global_id(0);
    if (i >= N)
        return;
    for (int q = 0; q < SAMMON_OUTDIM; q++) {
        REAL sum = (REAL)0;
        for (int s = 0; s < S; s++)
            sum += part[((size_t)s * SAMMON_OUTDIM + q) * N + i];
        y_out[(size_t)q * N + i] = y[(size_t)q * N + i] + scale * sum;
    }
}
