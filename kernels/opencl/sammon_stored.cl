/* SPDX-License-Identifier: MIT */
/* The stored form in OpenCL C 1.2 (not in Borisov and Myasnikov; the CUDA
 * and HIP kernels are kernels/cuda/sammon_stored.cuh, whose layout this
 * keeps): r_ij = 1 / d*_ij computed once by sammon_stored_fill into tiles of
 * TILE = 16 R points a side, tile pair (I, J), J <= I, at block
 * P(I, J) = I (I + 1) / 2 + J of TILE^2 floats; in a block, pair (a, b) of
 * work-item t (its points slot(t / 16, a) of tile I and slot(t % 16, b) of
 * tile J) is value v = a R + b, float4 (v / 4) 256 + t, lane v % 4; 0 marks
 * no pair.  A pass walks the tiles J of a row I as the CUDA one does, but
 * OpenCL 1.2 has no float atomics: each work-group writes its points i's
 * sums once and its points j's sums once per tile pair to partial buffers,
 * and a second kernel adds them up per point in a fixed order (the result
 * does not depend on scheduling).  The extra bytes per iteration: K TILE
 * floats written and read per tile pair, K / TILE per pair of the 4 the
 * triangle costs.  Flat layout (x[p n + k], y[p m + q]); float only; needs
 * sammon_common.cl before it (REAL float, SAMMON_DIM, SAMMON_OUTDIM). */

/* Points per work-item side: 2, 4 or 8 (tiles of 32, 64, 128). */
#ifndef SAMMON_R
#define SAMMON_R 4
#endif
/* 0: the benchmark's gradient sums G; 1: the embedding's G and H
 * (kernels/cuda/sammon_stored.cuh) and the stress; 2: the stress only. */
#ifndef SAMMON_MODE
#define SAMMON_MODE 0
#endif
/* 1: r from the stored triangle; 0: from x (staged like the fill). */
#ifndef SAMMON_STORED
#define SAMMON_STORED 1
#endif

#define SIDE 16
#define THREADS (SIDE * SIDE)
#define KC 16
#define TILE (SIDE * SAMMON_R)
#define LD (TILE + 4)
#define VL (SAMMON_R < 4 ? SAMMON_R : 4)
#define LOADS (SAMMON_R * SAMMON_R / 4)
#define M SAMMON_OUTDIM
#if SAMMON_MODE == 0
#define K M
#elif SAMMON_MODE == 1
#define K (2 * M)
#else
#define K 1
#endif
#define D2_MIN 1.17549435e-38f
#define D2_MAX 3.40282347e+38f

/* Point a of work-item side t in its tile (sammon_tiled_slot). */
int slot(int t, int a)
{
    return a / VL * (SIDE * VL) + t * VL + a % VL;
}

long tile_block(long I, long J)
{
    return I * (I + 1) / 2 + J;
}

/* acc[a][b] = |x_i - x_j|^2 of the work-item's pairs of tiles i0, j0, KC
 * coordinates at a time through xi_s and xj_s (KC rows of LD); zero
 * beyond N and n.  Starts and ends with a barrier. */
void dist2(float acc[SAMMON_R][SAMMON_R], __local float *xi_s, __local float *xj_s,
           __global const float *x, int N, int i0, int j0)
{
    const int t = (int)get_local_id(0), tx = t % SIDE, ty = t / SIDE;
    for (int a = 0; a < SAMMON_R; a++)
        for (int b = 0; b < SAMMON_R; b++)
            acc[a][b] = 0.0f;
    for (int k0 = 0; k0 < SAMMON_DIM; k0 += KC) {
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int e = t; e < TILE * KC; e += THREADS) {
            const int r = e / KC, k = k0 + e % KC;
            xi_s[e % KC * LD + r] = i0 + r < N && k < SAMMON_DIM
                                        ? x[(size_t)(i0 + r) * SAMMON_DIM + k] : 0.0f;
            xj_s[e % KC * LD + r] = j0 + r < N && k < SAMMON_DIM
                                        ? x[(size_t)(j0 + r) * SAMMON_DIM + k] : 0.0f;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
#pragma unroll
        for (int kk = 0; kk < KC; kk++) {
            float xa[SAMMON_R], xb[SAMMON_R];
            for (int a = 0; a < SAMMON_R; a++) {
                xa[a] = xi_s[kk * LD + slot(ty, a)];
                xb[a] = xj_s[kk * LD + slot(tx, a)];
            }
            for (int a = 0; a < SAMMON_R; a++)
                for (int b = 0; b < SAMMON_R; b++) {
                    const float d = xa[a] - xb[b];
                    acc[a][b] += d * d;
                }
        }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
}

/* The sum over the 16 work-items c of v[a] at tile slot slot(r, a), through
 * buf (16 rows of LD), stored by work-item t < TILE to dst[t] (slot t's).
 * Starts and ends with a barrier.  The store is made here, not by the
 * caller from a returned value: PoCL 3.1 compiled that form so that
 * work-items past TILE stored too, beyond the partial buffers. */
void side_sum(__local float *buf, const float v[SAMMON_R], int c, int r, __global float *dst)
{
    const int t = (int)get_local_id(0);
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int a = 0; a < SAMMON_R; a++)
        buf[c * LD + slot(r, a)] = v[a];
    barrier(CLK_LOCAL_MEM_FENCE);
    if (t < TILE) {
        float sum = 0.0f;
        for (int k = 0; k < SIDE; k++)
            sum += buf[k * LD + t];
        dst[t] = sum;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
}

/* The sum over the work-group of v; every work-item gets it. */
float group_sum(__local float *buf, float v)
{
    const int t = (int)get_local_id(0);
    buf[t] = v;
    for (int w = THREADS / 2; w > 0; w /= 2) {
        barrier(CLK_LOCAL_MEM_FENCE);
        if (t < w)
            buf[t] += buf[t + w];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    const float s = buf[0];
    barrier(CLK_LOCAL_MEM_FENCE);
    return s;
}

float lane_of(float4 v, int l)
{
    return l == 0 ? v.x : l == 1 ? v.y : l == 2 ? v.z : v.w;
}

/* r of every tile pair: one work-group of 256 per tile pair (block P is
 * the pair index of (I + 1, J): sammon_pair_of).  *lost counts the pairs
 * of distinct points whose float d*^2 is below the smallest normal float
 * or not finite; c_part[P] the group's sum of d* over its unordered pairs.
 * store may hold no triangle (the recomputing form's count): 0. */
__kernel void sammon_stored_fill(const int N, __global const float *x,
                                 __global float4 *store, const int write,
                                 __global volatile uint *lost, __global float *c_part)
{
    __local float xi_s[KC * LD], xj_s[KC * LD];
    const int t = (int)get_local_id(0), tx = t % SIDE, ty = t / SIDE;
    long i1, jj;
    sammon_pair_of((long)get_group_id(0), &i1, &jj);
    const int I = (int)i1 - 1, J = (int)jj, i0 = I * TILE, j0 = J * TILE;
    float acc[SAMMON_R][SAMMON_R], r[SAMMON_R][SAMMON_R], dsum = 0.0f;
    uint bad = 0;
    dist2(acc, xi_s, xj_s, x, N, i0, j0);
    for (int a = 0; a < SAMMON_R; a++)
        for (int b = 0; b < SAMMON_R; b++) {
            const int i = i0 + slot(ty, a), j = j0 + slot(tx, b);
            const int pair = i < N && j < N && i != j;
            const int ok = pair && acc[a][b] >= D2_MIN && acc[a][b] <= D2_MAX;
            r[a][b] = ok ? rsqrt(acc[a][b]) : 0.0f;
            dsum += ok ? acc[a][b] * r[a][b] : 0.0f;
            bad += pair && !ok && i > j;        /* a diagonal tile holds both orders */
        }
    if (write) {
        __global float4 *out = store + get_group_id(0) * (size_t)(TILE * TILE / 4);
        for (int k = 0; k < LOADS; k++) {
            const int v = 4 * k;
            out[k * THREADS + t] = (float4)(r[v / SAMMON_R][v % SAMMON_R],
                                            r[(v + 1) / SAMMON_R][(v + 1) % SAMMON_R],
                                            r[(v + 2) / SAMMON_R][(v + 2) % SAMMON_R],
                                            r[(v + 3) / SAMMON_R][(v + 3) % SAMMON_R]);
        }
    }
    if (bad)
        atomic_add(lost, bad);
    const float total = group_sum(xi_s, I == J ? 0.5f * dsum : dsum);
    if (t == 0)
        c_part[get_group_id(0)] = total;
}

/* One pair's share (sammon_pass_pair of the CUDA kernels). */
void pass_pair(const float yi[M], const float yj[M], float r, float si[K], float sj[K],
               float *st)
{
    float dy[M], d2 = 0.0f;
    for (int q = 0; q < M; q++) {
        dy[q] = yi[q] - yj[q];
        d2 += dy[q] * dy[q];
    }
    const int ok = r > 0.0f && d2 > 0.0f;
    const float rd = ok ? rsqrt(d2) : 0.0f, w = ok ? rd - r : 0.0f;
#if SAMMON_MODE != 2
    for (int q = 0; q < M; q++) {
        si[q] += w * dy[q];
        sj[q] -= w * dy[q];
    }
#endif
#if SAMMON_MODE == 1
    /* H_q = sum (w - dy_q^2 rd^3); the last, sum (the others' dy_q^2 rd^3
     * - r), since the dy_q^2 rd^2 add up to 1. */
    const float rd3 = rd * rd * rd;
    float last = ok ? -r : 0.0f;
    for (int q = 0; q + 1 < M; q++) {
        const float cq = dy[q] * dy[q] * rd3;
        si[M + q] += w - cq;
        sj[M + q] += w - cq;
        last += cq;
    }
    si[2 * M - 1] += last;
    sj[2 * M - 1] += last;
#endif
#if SAMMON_MODE != 0
    const float s = 1.0f - d2 * rd * r;
    *st += r > 0.0f ? s * s * rsqrt(r * r) : 0.0f;
#endif
}

/* One pass: global (splits 256, tiles), local (256, 1); group (s, row)
 * takes row I = tiles - 1 - row and its tiles J s (I + 1) / splits ..
 * (s + 1) (I + 1) / splits - 1.  part_i[(row splits + s) K TILE + k TILE
 * + t] gets the points i's sums, part_j[P(I, J) K TILE + ...] the points
 * j's of each tile pair J < I, st_part[row splits + s] the stress (modes
 * 1, 2).  x is read only by the recomputing form, store by the stored. */
__kernel void sammon_stored_pass(const int N, __global const float *x,
                                 __global const float4 *store, __global const float *y,
                                 __global float *part_i, __global float *part_j,
                                 __global float *st_part)
{
    __local float xi_s[KC * LD];
#if !SAMMON_STORED
    __local float xj_s[KC * LD];
#endif
    __local float yj_s[M * TILE];
    const int t = (int)get_local_id(0), tx = t % SIDE, ty = t / SIDE;
    const int splits = (int)get_num_groups(0), s = (int)get_group_id(0);
    const int tiles = (int)get_num_groups(1), row = (int)get_group_id(1);
    const int I = tiles - 1 - row, i0 = I * TILE, g = row * splits + s;
    const int jb = (int)((long)s * (I + 1) / splits), je = (int)((long)(s + 1) * (I + 1) / splits);
    float yi[SAMMON_R][M], si[SAMMON_R][K], stress = 0.0f;
    for (int a = 0; a < SAMMON_R; a++) {
        const int p = i0 + slot(ty, a);
        for (int q = 0; q < M; q++)
            yi[a][q] = p < N ? y[(size_t)p * M + q] : 0.0f;
        for (int k = 0; k < K; k++)
            si[a][k] = 0.0f;
    }
    for (int jt = jb; jt < je; jt++) {
        const int j0 = jt * TILE;
        float r[SAMMON_R][SAMMON_R];
#if SAMMON_STORED
        __global const float4 *blk = store + tile_block(I, jt) * (long)(TILE * TILE / 4);
        float4 v[LOADS];
        for (int k = 0; k < LOADS; k++)
            v[k] = blk[k * THREADS + t];
        for (int a = 0; a < SAMMON_R; a++)
            for (int b = 0; b < SAMMON_R; b++)
                r[a][b] = lane_of(v[(a * SAMMON_R + b) / 4], (a * SAMMON_R + b) % 4);
#else
        float acc[SAMMON_R][SAMMON_R];
        dist2(acc, xi_s, xj_s, x, N, i0, j0);
        for (int a = 0; a < SAMMON_R; a++)
            for (int b = 0; b < SAMMON_R; b++) {
                const int i = i0 + slot(ty, a), j = j0 + slot(tx, b);
                const int pair = i < N && j < N && acc[a][b] >= D2_MIN && acc[a][b] <= D2_MAX;
                r[a][b] = pair ? rsqrt(acc[a][b]) : 0.0f;
            }
#endif
        barrier(CLK_LOCAL_MEM_FENCE);   /* the last tile's yj_s is read by all */
        /* Every work-item runs the loop the same number of times: written
         * as `for (e = t; e < TILE * M; e += THREADS)` (once or never a
         * work-item), PoCL 3.1's default work-group method stored wrong
         * values at M = 1. */
        for (int e0 = 0; e0 < TILE * M; e0 += THREADS) {
            const int e = e0 + t, j = j0 + e / M;
            if (e < TILE * M)
                yj_s[e % M * TILE + e / M] = j < N ? y[(size_t)j * M + e % M] : 0.0f;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        float sj[SAMMON_R][K], st = 0.0f;
        for (int b = 0; b < SAMMON_R; b++) {
            const int jl = slot(tx, b);
            float yj[M];
            for (int q = 0; q < M; q++)
                yj[q] = yj_s[q * TILE + jl];
            for (int k = 0; k < K; k++)
                sj[b][k] = 0.0f;
            for (int a = 0; a < SAMMON_R; a++)
                pass_pair(yi[a], yj, r[a][b], si[a], sj[b], &st);
        }
        stress += jt == I ? 0.5f * st : st;   /* a diagonal tile: both orders */
#if SAMMON_MODE != 2
        if (jt == I)
            continue;                   /* the diagonal tile's pairs were summed both ways */
        for (int k = 0; k < K; k++) {
            float col[SAMMON_R];
            for (int b = 0; b < SAMMON_R; b++)
                col[b] = sj[b][k];
            side_sum(xi_s, col, ty, tx, part_j + (tile_block(I, jt) * K + k) * TILE);
        }
#endif
    }
#if SAMMON_MODE != 2
    for (int k = 0; k < K; k++) {
        float rowv[SAMMON_R];
        for (int a = 0; a < SAMMON_R; a++)
            rowv[a] = si[a][k];
        side_sum(xi_s, rowv, tx, ty, part_i + ((size_t)g * K + k) * TILE);
    }
#endif
#if SAMMON_MODE != 0
    barrier(CLK_LOCAL_MEM_FENCE);
    const float total = group_sum(xi_s, stress);
    if (t == 0)
        st_part[g] = total;
#endif
}

/* sum_k of point p: its tile T's rows' splits, then the tile pairs (I, T)
 * of the rows below, in order. */
float point_sum(__global const float *part_i, __global const float *part_j, int tiles,
                int splits, int p, int k)
{
    const int T = p / TILE, t = p % TILE, row = tiles - 1 - T;
    float sum = 0.0f;
    for (int s = 0; s < splits; s++)
        sum += part_i[((size_t)(row * splits + s) * K + k) * TILE + t];
    for (int I = T + 1; I < tiles; I++)
        sum += part_j[(tile_block(I, T) * K + k) * TILE + t];
    return sum;
}

/* The benchmark's update, in place: y += scale G, one work-item a point. */
__kernel void sammon_stored_update(const int N, const int tiles, const int splits,
                                   __global const float *part_i, __global const float *part_j,
                                   __global float *y, const float scale)
{
    const int p = (int)get_global_id(0);
    if (p >= N)
        return;
    for (int q = 0; q < M; q++)
        y[(size_t)p * M + q] += scale * point_sum(part_i, part_j, tiles, splits, p, q);
}

/* The embedding's sums, N x K, for the host. */
__kernel void sammon_stored_gather(const int N, const int tiles, const int splits,
                                   __global const float *part_i, __global const float *part_j,
                                   __global float *sums)
{
    const int p = (int)get_global_id(0);
    if (p >= N)
        return;
    for (int k = 0; k < K; k++)
        sums[(size_t)p * K + k] = point_sum(part_i, part_j, tiles, splits, p, k);
}
