/* SPDX-License-Identifier: MIT */
/* 1ONB steps 6 and 7 without an SVD (shared/notes/sbo.md 2: the polar
 * factor Q = M (M^T M)^(-1/2) equals U V^T for M of full rank): the
 * Newton-Schulz iteration X <- X (3 I - X^T X) / 2 from X = M / |M|_F, one
 * work-group per block.  Rank-deficient or badly conditioned M do not
 * converge in SBO_NS_ITERS; the block is flagged and the host gives it to
 * the Jacobi SVD (sbo_train_svd.cl).  Built after sbo_represent.cl. */

/* REAL, SBO_FP64 (with the fp64 pragma), SBO_P and SBO_S come from
 * sbo_represent.cl, which precedes this part in the program. */
#if SBO_FP64
#define SBO_NS_EPS DBL_EPSILON
#else
#define SBO_NS_EPS FLT_EPSILON
#endif

/* Converged once |X^T X - I|_F <= SBO_NS_TOL before a step (the step
 * then squares that error). */
#ifndef SBO_NS_TOL
#define SBO_NS_TOL (4 * SBO_P * SBO_NS_EPS)
#endif
/* Iterations before the block is flagged: a singular value s of M / |M|_F
 * grows about 1.5 times per step while small, so 100 reach s = 1e-15. */
#ifndef SBO_NS_ITERS
#define SBO_NS_ITERS 100
#endif

static REAL ns_sum(__local REAL *red, const int lid, const int n)
{
    for (int h = 1; h < n; h <<= 1) {
        barrier(CLK_LOCAL_MEM_FENCE);
        if (lid % (2 * h) == 0 && lid + h < n)
            red[lid] += red[lid + h];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    const REAL sum = red[0];
    barrier(CLK_LOCAL_MEM_FENCE);
    return sum;
}

/* Q of blocks first + g with need[g] != 0 from M at g p p; X and T (the
 * SVD's U and V buffers) are scratch.  flag[g] = 1 where the iteration did
 * not converge (Q then holds no answer), else 0. */
__kernel void sbo_newton_schulz(const int first, __global const int *need,
                                __global const REAL *M, __global REAL *X, __global REAL *T,
                                __global REAL *D, __global int *flag, __local REAL *red)
{
    const int g = (int)get_group_id(0), lid = (int)get_local_id(0);
    const int wg = (int)get_local_size(0);
    const size_t pp = (size_t)SBO_P * SBO_P;
    if (need[g] == 0) {
        if (lid == 0)
            flag[g] = 0;
        return;
    }
    __global const REAL *Mg = M + g * pp;
    __global REAL *cur = X + g * pp, *nxt = D + (size_t)(first + g) * pp;
    __global REAL *Tg = T + g * pp;
    REAL part = (REAL)0;
    for (int e = lid; e < SBO_P * SBO_P; e += wg)
        part += Mg[e] * Mg[e];
    red[lid] = part;
    const REAL fro = sqrt(ns_sum(red, lid, wg));
    int state = fro > (REAL)0 ? 0 : 1;      /* 0 iterating, 1 zero M, 2 converged */
    for (int e = lid; state == 0 && e < SBO_P * SBO_P; e += wg)
        cur[e] = Mg[e] / fro;
    barrier(CLK_GLOBAL_MEM_FENCE);
    for (int it = 0; state == 0 && it < SBO_NS_ITERS; it++) {
        part = (REAL)0;
        for (int e = lid; e < SBO_P * SBO_P; e += wg) {
            const int a = e % SBO_P, b = e / SBO_P;
            REAL acc = (REAL)0;
            for (int k = 0; k < SBO_P; k++)
                acc += cur[a * SBO_P + k] * cur[b * SBO_P + k];
            Tg[e] = acc;
            acc -= (REAL)(a == b);
            part += acc * acc;
        }
        red[lid] = part;
        const REAL err = sqrt(ns_sum(red, lid, wg));
        barrier(CLK_GLOBAL_MEM_FENCE);
        for (int e = lid; e < SBO_P * SBO_P; e += wg) {
            const int r = e % SBO_P, c = e / SBO_P;
            REAL acc = (REAL)0;
            for (int k = 0; k < SBO_P; k++)
                acc += cur[k * SBO_P + r] * Tg[c * SBO_P + k];
            nxt[e] = (REAL)1.5 * cur[e] - (REAL)0.5 * acc;
        }
        barrier(CLK_GLOBAL_MEM_FENCE);
        __global REAL *t = cur;
        cur = nxt;
        nxt = t;
        state = err <= SBO_NS_TOL ? 2 : 0;  /* converged: the step just made is the last */
    }
    /* Finished in the scratch buffer: the answer goes to Q. */
    __global REAL *Q = D + (size_t)(first + g) * pp;
    if (state == 2 && cur != Q) {
        for (int e = lid; e < SBO_P * SBO_P; e += wg)
            Q[e] = cur[e];
    }
    if (lid == 0)
        flag[g] = state != 2;
}
