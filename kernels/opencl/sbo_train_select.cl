/* SPDX-License-Identifier: MIT */
/* The per-signal steps of SBO training around the representation pass
 * (Irofti; shared/notes/sbo.md 4 and 5.1), OpenCL C 1.2: squared norms, the
 * paper's energy update (residuals and RMSE partial sums), the selection of
 * the W worst-represented signals, the grouping of signals by block (count,
 * scan, stable scatter), the gather of signals into contiguous columns, and
 * 1ONB step 4 (hard thresholding, the paper's partial selection).
 * Conventions of impl/sbo/sbo.h: column-major, signal i at Y + i p.  Built
 * after sbo_represent.cl, whose defines (REAL, SBO_P, SBO_S) it shares. */

/* REAL, SBO_FP64 (with the fp64 pragma), SBO_P and SBO_S come from
 * sbo_represent.cl, which precedes this part in the program. */

/* ynorm[i] = |y_i|^2: one work-item per signal, any group size. */
__kernel void sbo_ynorm(const int m, __global const REAL *Y, __global REAL *ynorm)
{
    const int i = (int)get_global_id(0);
    if (i >= m)
        return;
    __global const REAL *y = Y + (size_t)i * SBO_P;
    REAL a = (REAL)0;
    for (int k = 0; k < SBO_P; k++)
        a += y[k] * y[k];
    ynorm[i] = a;
}

/* Sum red[0 .. n-1] into red[0] for any n (a group-size tree). */
static void group_sum(__local REAL *red, const int lid, const int n)
{
    for (int h = 1; h < n; h <<= 1) {
        barrier(CLK_LOCAL_MEM_FENCE);
        if (lid % (2 * h) == 0 && lid + h < n)
            red[lid] += red[lid + h];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
}

/* The paper's energy update (PGAS: each work-item strides over signals, no
 * cooperation but the final sum): r_i = |y_i|^2 - E_i, the residual the
 * worst-W selection ranks (unclamped, as sbo_train), and per group the sum
 * of max(r_i, 0) for the RMSE at part[at + group]; the host adds the
 * groups' sums (`at` picks the pass's slot, read with other passes'). */
__kernel void sbo_energy_update(const int m, __global const REAL *ynorm,
                                __global const REAL *energy, __global REAL *r,
                                __global REAL *part, __local REAL *red, const int at)
{
    const int lid = (int)get_local_id(0), wg = (int)get_local_size(0);
    REAL acc = (REAL)0;
    for (int i = (int)get_global_id(0); i < m; i += (int)get_global_size(0)) {
        const REAL d = ynorm[i] - energy[i];
        r[i] = d;
        acc += fmax(d, (REAL)0);
    }
    red[lid] = acc;
    group_sum(red, lid, wg);
    if (lid == 0)
        part[at + (int)get_group_id(0)] = red[0];
}

/* The W worst-represented signals, as sbo_worst: idx[k] is the signal of
 * rank k by descending r, ties to the lower index.  Each work-item ranks its
 * signal against all m through tiles of r in local memory (m^2 / wg global
 * reads shared by a group; exact and order-independent). */
__kernel void sbo_worst(const int m, const int W, __global const REAL *r,
                        __global int *idx, __local REAL *tile)
{
    const int i = (int)get_global_id(0), lid = (int)get_local_id(0);
    const int wg = (int)get_local_size(0);
    const REAL ri = i < m ? r[i] : (REAL)0;
    int rank = 0;
    for (int t0 = 0; t0 < m; t0 += wg) {
        barrier(CLK_LOCAL_MEM_FENCE);
        if (t0 + lid < m)
            tile[lid] = r[t0 + lid];
        barrier(CLK_LOCAL_MEM_FENCE);
        const int n = min(wg, m - t0);
        for (int k = 0; k < n; k++) {
            const REAL rk = tile[k];
            rank += rk > ri || (rk == ri && t0 + k < i);
        }
    }
    if (i < m && rank < W)
        idx[rank] = i;
}

/* Grouping, 1 of 3: per tile of wg signals (a group) the count of each of
 * the nb blocks; tiles[j ntiles + g]. */
__kernel void sbo_group_count(const int m, const int nb, __global const int *best,
                              __global int *tiles, __local int *hist)
{
    const int i = (int)get_global_id(0), lid = (int)get_local_id(0);
    const int wg = (int)get_local_size(0), g = (int)get_group_id(0);
    const int ntiles = (int)get_num_groups(0);
    for (int j = lid; j < nb; j += wg)
        hist[j] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (i < m)
        atomic_inc(&hist[best[i]]);
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int j = lid; j < nb; j += wg)
        tiles[(size_t)j * ntiles + g] = hist[j];
}

/* Grouping, 2 of 3, one work-group: counts[j] the signals of block j, and
 * tiles[j ntiles + t] turned into where tile t's first signal of block j
 * goes: block j's signals start at the sum of the counts before it, in
 * signal order (a stable counting sort). */
__kernel void sbo_group_scan(const int nb, const int ntiles, __global int *tiles,
                             __global int *counts, __local int *start)
{
    const int lid = (int)get_local_id(0), wg = (int)get_local_size(0);
    for (int j = lid; j < nb; j += wg) {
        __global int *t = tiles + (size_t)j * ntiles;
        int sum = 0;
        for (int k = 0; k < ntiles; k++) {
            const int c = t[k];
            t[k] = sum;
            sum += c;
        }
        counts[j] = sum;
        start[j] = sum;
    }
    barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
    if (lid == 0) {
        int sum = 0;
        for (int j = 0; j < nb; j++) {
            const int c = start[j];
            start[j] = sum;
            sum += c;
        }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int e = lid; e < nb * ntiles; e += wg)
        tiles[e] += start[e / ntiles];
}

/* Grouping, 3 of 3: order[pos] = i, pos = where tile g's signals of block
 * j start plus i's rank among them (the same tiles and group size as the
 * count). */
__kernel void sbo_group_scatter(const int m, __global const int *best,
                                __global const int *tiles, __global int *order,
                                __local int *lb)
{
    const int i = (int)get_global_id(0), lid = (int)get_local_id(0);
    const int g = (int)get_group_id(0), ntiles = (int)get_num_groups(0);
    const int j = i < m ? best[i] : -1;
    lb[lid] = j;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (i >= m)
        return;
    int rank = 0;
    for (int k = 0; k < lid; k++)
        rank += lb[k] == j;
    order[tiles[(size_t)j * ntiles + g] + rank] = i;
}

/* Ysub[:, k] = Y[:, order[k]] for k < n: one work-item per element, so that
 * consecutive work-items copy consecutive rows. */
__kernel void sbo_gather(const int n, __global const int *order, __global const REAL *Y,
                         __global REAL *Ysub)
{
    const size_t e = get_global_id(0);
    if (e >= (size_t)n * SBO_P)
        return;
    const size_t k = e / SBO_P, row = e % SBO_P;
    Ysub[e] = Y[(size_t)order[k] * SBO_P + row];
}

/* 1ONB step 4 for a batch of blocks, the paper's partial selection: block
 * g's codes are the p x ncols matrix C + g p ncols; column t keeps its s
 * entries of largest magnitude (ties to the lower index, as sbo_code) when
 * t < cnt[g], and is zeroed past the block's signals, so that the padded
 * columns of the batched GEMMs add nothing.  Global (ncols rounded up, nb). */
__kernel void sbo_threshold(const int ncols, __global const int *cnt, __global REAL *C)
{
    const int t = (int)get_global_id(0), g = (int)get_global_id(1);
    if (t >= ncols)
        return;
    __global REAL *c = C + ((size_t)g * ncols + t) * SBO_P;
    if (t >= cnt[g]) {
        for (int k = 0; k < SBO_P; k++)
            c[k] = (REAL)0;
        return;
    }
    REAL v[SBO_P], keep[SBO_S];
    int idx[SBO_S], n = 0;
    for (int k = 0; k < SBO_P; k++) {
        v[k] = c[k];
        const REAL a = fabs(v[k]);
        if (n == SBO_S && a <= fabs(v[idx[n - 1]]))
            continue;
        int at = n < SBO_S ? n++ : n - 1;
        while (at > 0 && fabs(v[idx[at - 1]]) < a) {
            idx[at] = idx[at - 1];
            at--;
        }
        idx[at] = k;
    }
    for (int k = 0; k < n; k++)
        keep[k] = v[idx[k]];
    for (int k = 0; k < SBO_P; k++)
        c[k] = (REAL)0;
    for (int k = 0; k < n; k++)
        c[idx[k]] = keep[k];
}
