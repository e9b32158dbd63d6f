/* SPDX-License-Identifier: MIT */
/* 1ONB steps 6 and 7 without an SVD (shared/notes/sbo.md 2: the polar
 * factor Q = M (M^T M)^(-1/2) equals U V^T for M of full rank): a scaled
 * Newton-Schulz iteration, one work-group of SBO_NS_WG work-items per block,
 * each work-item a 4 x 4 register tile of the two products of a step, X and
 * T = X^T X in local memory where they fit.  M with a zero row or column,
 * and M that does not converge in SBO_NS_ITERS, are flagged; the host gives
 * them to the Jacobi SVD (sbo_train_svd.cl).  Built after sbo_represent.cl. */

/* REAL, SBO_FP64 (with the fp64 pragma), SBO_P and SBO_S come from
 * sbo_represent.cl, which precedes this part in the program.  The host
 * sets the group size and where X and T live from the device's limits:
 * SBO_NS_XLOCAL 1 keeps X in local memory (needs a tile per work-item),
 * SBO_NS_TLOCAL 1 keeps T there too; otherwise they use the scratch
 * buffers (fp64 at p = 64 on a 48 KB device: X local, T global). */
#if SBO_FP64
#define SBO_NS_EPS DBL_EPSILON
#else
#define SBO_NS_EPS FLT_EPSILON
#endif
#ifndef SBO_NS_WG
#define SBO_NS_WG 256
#endif
#ifndef SBO_NS_XLOCAL
#define SBO_NS_XLOCAL 1
#endif
#ifndef SBO_NS_TLOCAL
#define SBO_NS_TLOCAL 1
#endif

/* Converged once |X^T X - I|_F <= SBO_NS_TOL before a step (the step
 * then about squares that error). */
#ifndef SBO_NS_TOL
#define SBO_NS_TOL (4 * SBO_P * SBO_NS_EPS)
#endif
/* Steps before the block is flagged.  A singular value s of the start
 * grows at least 1.5 times per step while small, so 100 reach s = 1e-15. */
#ifndef SBO_NS_ITERS
#define SBO_NS_ITERS 100
#endif

/* Register tiles: tile (ta, tb) holds rows ta + NS_NT i and columns
 * tb + NS_NT j, i, j < 4.  Interleaved rather than contiguous, so that the
 * work-items of a warp read consecutive (or the same) local words. */
#define NS_NT ((SBO_P + 3) / 4)
#define NS_TILES (NS_NT * NS_NT)
/* Local leading dimension, odd: a stride of the column reads that hits
 * every bank once. */
#define NS_LD (SBO_P | 1)
/* Work-items of the first level of each reduction. */
#define NS_NR (SBO_NS_WG < 32 ? SBO_NS_WG : 32)

#if SBO_NS_XLOCAL
#define XSPACE __local
#define XLD NS_LD
#if NS_TILES > SBO_NS_WG
#error "X in local memory needs a work-item per tile"
#endif
#else
#define XSPACE __global
#define XLD SBO_P
#endif
#if SBO_NS_TLOCAL
#define TSPACE __local
#define TLD NS_LD
#else
#define TSPACE __global
#define TLD SBO_P
#endif
#if SBO_NS_XLOCAL && SBO_NS_TLOCAL
#define NS_FENCE CLK_LOCAL_MEM_FENCE
#else
#define NS_FENCE (CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE)
#endif

/* Row or column r of a tile, clamped so that tiles past p read in bounds
 * (what they compute there is not stored). */
static int ns_at(const int t, const int i)
{
    return min(t + NS_NT * i, SBO_P - 1);
}

/* acc = the tile (ta, tb) of X^T X. */
static void ns_gram(const XSPACE REAL *X, const int ta, const int tb, REAL acc[4][4])
{
    const XSPACE REAL *xa[4], *xb[4];
    for (int i = 0; i < 4; i++) {
        xa[i] = X + ns_at(ta, i) * XLD;
        xb[i] = X + ns_at(tb, i) * XLD;
        for (int j = 0; j < 4; j++)
            acc[i][j] = (REAL)0;
    }
    for (int k = 0; k < SBO_P; k++) {
        REAL a[4], b[4];
        for (int i = 0; i < 4; i++) {
            a[i] = xa[i][k];
            b[i] = xb[i][k];
        }
        for (int i = 0; i < 4; i++)
            for (int j = 0; j < 4; j++)
                acc[i][j] += a[i] * b[j];
    }
}

/* acc = the tile (ta, tb) of X T; x = the same tile of X. */
static void ns_xt(const XSPACE REAL *X, const TSPACE REAL *T, const int ta, const int tb,
                  REAL acc[4][4], REAL x[4][4])
{
    int r[4];
    const TSPACE REAL *tc[4];
    for (int i = 0; i < 4; i++) {
        r[i] = ns_at(ta, i);
        tc[i] = T + ns_at(tb, i) * TLD;
        for (int j = 0; j < 4; j++)
            acc[i][j] = (REAL)0;
    }
    for (int k = 0; k < SBO_P; k++) {
        REAL a[4], b[4];
        for (int i = 0; i < 4; i++) {
            a[i] = X[k * XLD + r[i]];
            b[i] = tc[i][k];
        }
        for (int i = 0; i < 4; i++)
            for (int j = 0; j < 4; j++)
                acc[i][j] += a[i] * b[j];
    }
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++)
            x[i][j] = X[ns_at(tb, j) * XLD + r[i]];
}

/* Sum of red[0 .. SBO_NS_WG-1] in a fixed order, the same in every
 * work-item; part holds NS_NR partial sums.  Starts and ends with a
 * barrier. */
static REAL ns_sum(__local REAL *red, __local REAL *part, const int lid)
{
    barrier(NS_FENCE);
    if (lid < NS_NR) {
        REAL s = (REAL)0;
        for (int k = lid; k < SBO_NS_WG; k += NS_NR)
            s += red[k];
        part[lid] = s;
    }
    barrier(NS_FENCE);
    REAL s = (REAL)0;
    for (int k = 0; k < NS_NR; k++)
        s += part[k];
    barrier(NS_FENCE);
    return s;
}

/* The start X' = M / |M|_F into X; 1 when M has a zero row or column (the
 * iteration keeps it zero, so it never converges), a zero, infinite or NaN
 * norm. */
static int ns_start(__global const REAL *Mg, XSPACE REAL *X, __local REAL *red,
                    __local REAL *part, __local int *zero, const int lid)
{
    if (lid == 0)
        *zero = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    REAL s = (REAL)0;
    for (int e = lid; e < SBO_P * SBO_P; e += SBO_NS_WG)
        s += Mg[e] * Mg[e];
    red[lid] = s;
    for (int r = lid; r < SBO_P; r += SBO_NS_WG) {
        REAL row = (REAL)0, col = (REAL)0;
        for (int k = 0; k < SBO_P; k++) {
            row += fabs(Mg[k * SBO_P + r]);
            col += fabs(Mg[r * SBO_P + k]);
        }
        if (row == (REAL)0 || col == (REAL)0)
            atomic_or(zero, 1);
    }
    const REAL fro2 = ns_sum(red, part, lid);
    if (*zero || !(fro2 > (REAL)0) || isinf(fro2))
        return 1;
    const REAL inv = rsqrt(fro2);
    for (int e = lid; e < SBO_P * SBO_P; e += SBO_NS_WG)
        X[(e / SBO_P) * XLD + e % SBO_P] = Mg[e] * inv;
    barrier(NS_FENCE);
    return 0;
}

/* Q of blocks first + g with need[g] != 0 from M at g p p into D; X and T
 * (the SVD's U and V buffers) are scratch where they are not in local
 * memory.  flag[g] = 1 where the iteration did not converge (Q then holds
 * no answer), else 0.  Groups of SBO_NS_WG.
 *
 * Each step: T = X^T X with e = |T - I|_F, then X <- a X + b X T.  The
 * first step takes X0 = X' / |X'^T X'|_F^(1/2) (X' = M / |M|_F), whose
 * largest singular value is at most 1 and whose Gram matrix is T' scaled:
 * T' is reused.  A step is Newton-Schulz scaled as by Chen and Chow (2014):
 * with the singular values in [l, 1], alpha^2 = 3 / (1 + l + l^2) and
 * X <- alpha X (3 I - alpha^2 T) / 2 maps them into [f(l), 1], a wider
 * jump than the plain step's (alpha = 1) while l is small.  l is
 * sqrt(min_i T_ii), a column norm: never below the smallest singular value
 * s, and for every l >= s the scaled step moves s at least as far as the
 * plain one, so no lower bound on s is needed; near convergence l -> 1
 * and the step becomes the plain one. */
__kernel __attribute__((reqd_work_group_size(SBO_NS_WG, 1, 1)))
void sbo_newton_schulz(const int first, __global const int *need, __global const REAL *M,
                       __global REAL *X, __global REAL *T, __global REAL *D,
                       __global int *flag)
{
    __local REAL red[SBO_NS_WG], part[3 * NS_NR];
    __local int zero;
#if SBO_NS_XLOCAL
    __local REAL xs[SBO_P * NS_LD];
#endif
#if SBO_NS_TLOCAL
    __local REAL ts[SBO_P * NS_LD];
#endif
    const int g = (int)get_group_id(0), lid = (int)get_local_id(0);
    const size_t pp = (size_t)SBO_P * SBO_P;
    if (need[g] == 0) {
        if (lid == 0)
            flag[g] = 0;
        return;
    }
    __global const REAL *Mg = M + g * pp;
    __global REAL *Dg = D + (size_t)(first + g) * pp;
#if SBO_NS_XLOCAL
    __local REAL *cur = xs;
#else
    __global REAL *cur = X + g * pp, *nxt = Dg;
#endif
#if SBO_NS_TLOCAL
    __local REAL *Tg = ts;
#else
    __global REAL *Tg = T + g * pp;
#endif
    /* 0 iterating, 1 flagged, 2 converged */
    int state = ns_start(Mg, cur, red, part, &zero, lid);
    for (int it = 0; state == 0 && it < SBO_NS_ITERS; it++) {
        const REAL one = it ? (REAL)1 : (REAL)0;       /* step 0 sums T'^2 */
        REAL acc[4][4], x[4][4], s = (REAL)0;
        for (int t = lid; t < NS_TILES; t += SBO_NS_WG) {
            const int ta = t % NS_NT, tb = t / NS_NT;
            ns_gram(cur, ta, tb, acc);
            for (int i = 0; i < 4; i++)
                for (int j = 0; j < 4; j++) {
                    const int a = ta + NS_NT * i, b = tb + NS_NT * j;
                    if (a < SBO_P && b < SBO_P) {
                        const REAL d = acc[i][j] - (a == b ? one : (REAL)0);
                        Tg[b * TLD + a] = acc[i][j];
                        s += d * d;
                    }
                }
        }
        red[lid] = s;
        barrier(NS_FENCE);
        if (lid < NS_NR) {                      /* the reductions' first level */
            REAL sum = (REAL)0, tr = (REAL)0, dmin = Tg[0];
            for (int k = lid; k < SBO_NS_WG; k += NS_NR)
                sum += red[k];
            for (int a = lid; a < SBO_P; a += NS_NR) {
                tr += Tg[a * TLD + a];
                dmin = min(dmin, Tg[a * TLD + a]);
            }
            part[lid] = sum;
            part[NS_NR + lid] = tr;
            part[2 * NS_NR + lid] = dmin;
        }
#if SBO_NS_XLOCAL
        if (lid < NS_TILES)                     /* kept in registers past the barrier */
            ns_xt(cur, Tg, lid % NS_NT, lid / NS_NT, acc, x);
#else
        for (int t = lid; t < NS_TILES; t += SBO_NS_WG) {
            const int ta = t % NS_NT, tb = t / NS_NT;
            ns_xt(cur, Tg, ta, tb, acc, x);
            for (int i = 0; i < 4; i++)
                for (int j = 0; j < 4; j++) {
                    const int r = ta + NS_NT * i, c = tb + NS_NT * j;
                    if (r < SBO_P && c < SBO_P)
                        nxt[c * SBO_P + r] = acc[i][j];
                }
        }
#endif
        barrier(NS_FENCE);
        REAL e2 = (REAL)0, tr = (REAL)0, dmin = part[2 * NS_NR];
        for (int k = 0; k < NS_NR; k++) {
            e2 += part[k];
            tr += part[NS_NR + k];
            dmin = min(dmin, part[2 * NS_NR + k]);
        }
        REAL s1 = (REAL)1, s3 = (REAL)1;
        if (it == 0) {                  /* T' to the Gram matrix of X0 = X' / sqrt(phi) */
            const REAL phi = sqrt(e2);
            s1 = rsqrt(phi);
            s3 = s1 / phi;
            e2 = (REAL)1 - 2 * tr / phi + (REAL)SBO_P;
            dmin /= phi;
        }
        const REAL err = sqrt(max(e2, (REAL)0));
        const REAL l = sqrt(clamp(dmin, (REAL)0, (REAL)1));
        const REAL alpha = sqrt((REAL)3 / ((REAL)1 + l + l * l));
        const REAL c1 = (REAL)1.5 * alpha * s1, c3 = (REAL)-0.5 * alpha * alpha * alpha * s3;
#if SBO_NS_XLOCAL
        if (lid < NS_TILES) {
            const int ta = lid % NS_NT, tb = lid / NS_NT;
            for (int i = 0; i < 4; i++)
                for (int j = 0; j < 4; j++) {
                    const int r = ta + NS_NT * i, c = tb + NS_NT * j;
                    if (r < SBO_P && c < SBO_P)
                        cur[c * XLD + r] = c1 * x[i][j] + c3 * acc[i][j];
                }
        }
#else
        /* Each work-item updates the entries it wrote. */
        for (int t = lid; t < NS_TILES; t += SBO_NS_WG) {
            const int ta = t % NS_NT, tb = t / NS_NT;
            for (int i = 0; i < 4; i++)
                for (int j = 0; j < 4; j++) {
                    const int r = ta + NS_NT * i, c = tb + NS_NT * j;
                    if (r < SBO_P && c < SBO_P)
                        nxt[c * SBO_P + r] = c1 * cur[c * SBO_P + r] + c3 * nxt[c * SBO_P + r];
                }
        }
        __global REAL *swap = cur;
        cur = nxt;
        nxt = swap;
#endif
        barrier(NS_FENCE);
        /* Converged: the step just made is the last.  A NaN never is. */
        state = err <= SBO_NS_TOL ? 2 : isnan(err) || isinf(err) ? 1 : 0;
    }
    /* Finished in X: the answer goes to Q. */
#if SBO_NS_XLOCAL
    for (int e = lid; state == 2 && e < SBO_P * SBO_P; e += SBO_NS_WG)
        Dg[e] = cur[(e / SBO_P) * XLD + e % SBO_P];
#else
    for (int e = lid; state == 2 && cur != Dg && e < SBO_P * SBO_P; e += SBO_NS_WG)
        Dg[e] = cur[e];
#endif
    if (lid == 0)
        flag[g] = state != 2;
}
