/* SPDX-License-Identifier: MIT */
/* The per-signal steps of SBO training around the representation pass
 * (Irofti; shared/notes/sbo.md 4 and 5.1), OpenCL C 1.2: squared norms, the
 * paper's energy update (residuals and RMSE partial sums), the stable sort
 * that selects the W worst-represented signals and groups the signals by
 * block, the gather of signals into contiguous columns, and
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

/* Sorting signals, for the worst-W selection and for the grouping by
 * block: a stable counting sort by an 8-bit digit, run once for the
 * grouping (the digit is the block) and as an LSD radix sort of the
 * residuals' keys for the selection (4 passes in float, 8 in double), so
 * that both cost O(m) a pass; ranking every signal against all m was
 * O(m^2).  Each group owns `chunk` consecutive positions: sbo_radix_count
 * counts its digits, sbo_radix_scatter finds from all the chunks' counts
 * where its signals of each digit start and moves them there in order.
 * The digit of position k is best[k] when by_block, else bits shift ..
 * shift + 7 of the key of r[seq[k]] (r[k] when first). */
/* SBO_SORT_BITS comes from the host (impl/sbo/sbo_sort.h). */
#define SBO_SORT_BUCKETS (1 << SBO_SORT_BITS)

/* A key whose ascending order is v's descending order, ties kept equal:
 * -0 as +0 (they compare equal), every NaN first (the worst represented). */
#if SBO_FP64
typedef ulong radix_key;
static radix_key key_of(double v)
{
    const ulong b = as_ulong(v == 0.0 ? 0.0 : v);
    return isnan(v) ? 0 : b >> 63 ? b : ~b & 0x7fffffffffffffffUL;
}
#else
typedef uint radix_key;
static radix_key key_of(float v)
{
    const uint b = as_uint(v == 0.0f ? 0.0f : v);
    return isnan(v) ? 0 : b >> 31 ? b : ~b & 0x7fffffffU;
}
#endif

static int digit_of(const int by_block, __global const int *best, __global const REAL *r,
                    const int first, __global const int *seq, const int shift, const int k)
{
    if (by_block)
        return best[k];
    return (int)(key_of(r[first ? k : seq[k]]) >> shift) & (SBO_SORT_BUCKETS - 1);
}

/* Sort, 1 of 2: tiles[g nb + d] the signals of digit d (below nb) among
 * chunk g's positions g chunk .. (g + 1) chunk - 1; hist nb ints.  One
 * group per chunk. */
__kernel void sbo_radix_count(const int m, const int chunk, const int nb, const int by_block,
                              __global const int *best, __global const REAL *r,
                              const int first, __global const int *seq, const int shift,
                              __global int *tiles, __local int *hist)
{
    const int lid = (int)get_local_id(0), wg = (int)get_local_size(0);
    const int g = (int)get_group_id(0);
    const int end = min(m, (g + 1) * chunk);
    for (int d = lid; d < nb; d += wg)
        hist[d] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int k = g * chunk + lid; k < end; k += wg)
        atomic_inc(&hist[digit_of(by_block, best, r, first, seq, shift, k)]);
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int d = lid; d < nb; d += wg)
        tiles[(size_t)g * nb + d] = hist[d];
}

/* Sort, 2 of 2: out[pos] = the signal at position k (seq[k], or k when
 * first or by_block), pos = the signals of smaller digits, plus those of
 * k's digit in earlier chunks (both from every chunk's counts) and earlier
 * in this chunk: a stable counting sort.  Positions from len on are not
 * written (the selection keeps the first W); group 0 writes counts[d], the
 * signals of digit d, when want_counts.  The chunk goes by in pieces of wg
 * positions, base counting each digit's signals written so far; base and
 * start nb ints, lb wg.  The same groups as the count. */
__kernel void sbo_radix_scatter(const int m, const int chunk, const int nb, const int by_block,
                                __global const int *best, __global const REAL *r,
                                const int first, __global const int *seq, const int shift,
                                __global const int *tiles, const int len,
                                __global int *out, const int want_counts,
                                __global int *counts, __local int *base,
                                __local int *start, __local int *lb)
{
    const int lid = (int)get_local_id(0), wg = (int)get_local_size(0);
    const int g = (int)get_group_id(0), ntiles = (int)get_num_groups(0);
    for (int d = lid; d < nb; d += wg) {
        int before = 0, total = 0;
        for (int q = 0; q < ntiles; q++) {
            const int c = tiles[(size_t)q * nb + d];
            before += q < g ? c : 0;
            total += c;
        }
        base[d] = before;
        start[d] = total;
        if (want_counts && g == 0)
            counts[d] = total;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid == 0)
        for (int d = 0, sum = 0; d < nb; d++) {
            const int c = start[d];
            start[d] = sum;
            sum += c;
        }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int d = lid; d < nb; d += wg)
        base[d] += start[d];
    const int end = min(m, (g + 1) * chunk);
    for (int k0 = g * chunk; k0 < end; k0 += wg) {
        const int k = k0 + lid;
        const int d = k < end ? digit_of(by_block, best, r, first, seq, shift, k) : -1;
        lb[lid] = d;
        barrier(CLK_LOCAL_MEM_FENCE);
        if (d >= 0) {
            int rank = 0;
            for (int q = 0; q < lid; q++)
                rank += lb[q] == d;
            const int pos = base[d] + rank;
            if (pos < len)
                out[pos] = by_block || first ? k : seq[k];
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        if (d >= 0)
            atomic_inc(&base[d]);
    }
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
