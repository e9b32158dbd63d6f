/* SPDX-License-Identifier: MIT */
/* 1ONB steps 6 and 7 for a batch of blocks (Irofti, "Dictionary training";
 * shared/notes/sbo.md 2, fact B): the SVD of each p x p matrix M by
 * one-sided Jacobi (Hestenes) in one work-group per block, pairs of columns
 * rotated in parallel in the round-robin order of impl/common/roundrobin.h,
 * sweeps until no pair is off-orthogonal by more than SBO_JAC_TOL; then the
 * product Q = U V^T (the paper's PGAS p x p kernel), or Q = U by descending
 * singular value (the initial basis of eq. (5), svd_of_data).  The paper's
 * SVD is one work-item per block; here a group shares each block's pairs.
 * Built after sbo_represent.cl (REAL, SBO_P). */

/* REAL, SBO_FP64 (with the fp64 pragma), SBO_P and SBO_S come from
 * sbo_represent.cl, which precedes this part in the program. */
#if SBO_FP64
#define SBO_EPS DBL_EPSILON
#else
#define SBO_EPS FLT_EPSILON
#endif

/* A pair is rotated while |a_i . a_j| > SBO_JAC_TOL |a_i| |a_j|. */
#ifndef SBO_JAC_TOL
#define SBO_JAC_TOL (4 * SBO_EPS)
#endif
/* At most this many sweeps (convergence takes 6 to 12). */
#ifndef SBO_JAC_SWEEPS
#define SBO_JAC_SWEEPS 40
#endif
/* A column of norm below SBO_NULL_TOL |M|_F is null: M lacks that rank (to
 * that tolerance) and any unit vector orthogonal to the others serves as
 * its u (notes 2), taken with the sign of the column's remainder (see
 * complete). */
#ifndef SBO_NULL_TOL
#define SBO_NULL_TOL (SBO_P * SBO_EPS)
#endif

/* The padded size of the round-robin schedule (a dummy column for odd p). */
#define SBO_PE (SBO_P + (SBO_P & 1))

/* Sum red[0 .. n-1] into red[0] for any n. */
static void jac_sum(__local REAL *red, const int lid, const int n)
{
    for (int h = 1; h < n; h <<= 1) {
        barrier(CLK_LOCAL_MEM_FENCE);
        if (lid % (2 * h) == 0 && lid + h < n)
            red[lid] += red[lid + h];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
}

/* rb_rr_pair: the pair of `slot` in `step` of the circle method. */
static void rr_pair(const int step, const int slot, int *i, int *j)
{
    const int a = slot == 0 ? 0 : ((slot - 1 + step) % (SBO_PE - 1)) + 1;
    const int b = ((SBO_PE - 1 - slot - 1 + step) % (SBO_PE - 1)) + 1;
    *i = min(a, b);
    *j = max(a, b);
}

/* One sweep step's rotations: `ln` lanes (a power of two) per pair share the
 * rows.  Returns through *flag that some pair was rotated. */
static void jac_step(__global REAL *A, __global REAL *V, const int step, const REAL floor2,
                     __local REAL *red, __local REAL *cs, __local int *flag)
{
    const int lid = (int)get_local_id(0), wg = (int)get_local_size(0);
    const int npairs = SBO_PE / 2;
    int ln = 1;
    while (2 * ln * npairs <= wg)
        ln *= 2;
    const int nslots = min(wg / ln, npairs), lane = lid % ln, slot = lid / ln;
    for (int base = 0; base < npairs; base += nslots) {
        const int pair = base + slot;
        int i = 0, j = 0;
        const int active = slot < nslots && pair < npairs;
        if (active)
            rr_pair(step, pair, &i, &j);
        const int valid = active && j < SBO_P;
        REAL al = (REAL)0, be = (REAL)0, ga = (REAL)0;
        for (int r = lane; valid && r < SBO_P; r += ln) {
            const REAL x = A[i * SBO_P + r], y = A[j * SBO_P + r];
            al += x * x;
            be += y * y;
            ga += x * y;
        }
        red[3 * lid] = al;
        red[3 * lid + 1] = be;
        red[3 * lid + 2] = ga;
        for (int h = ln / 2; h >= 1; h /= 2) {
            barrier(CLK_LOCAL_MEM_FENCE);
            if (lane < h)
                for (int q = 0; q < 3; q++)
                    red[3 * lid + q] += red[3 * (lid + h) + q];
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        if (lane == 0 && slot < nslots) {
            REAL c = (REAL)1, s = (REAL)0;
            al = red[3 * lid];
            be = red[3 * lid + 1];
            ga = red[3 * lid + 2];
            if (valid && al > floor2 && be > floor2 && fabs(ga) > SBO_JAC_TOL * sqrt(al * be)) {
                const REAL zeta = (be - al) / (2 * ga);
                const REAL t = (zeta >= 0 ? (REAL)1 : (REAL)-1)
                               / (fabs(zeta) + hypot((REAL)1, zeta));
                c = rsqrt(1 + t * t);
                s = c * t;
                *flag = 1;
            }
            cs[2 * slot] = c;
            cs[2 * slot + 1] = s;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        const REAL c = slot < nslots ? cs[2 * slot] : (REAL)1;
        const REAL s = slot < nslots ? cs[2 * slot + 1] : (REAL)0;
        for (int r = lane; valid && s != 0 && r < SBO_P; r += ln) {
            const REAL x = A[i * SBO_P + r], y = A[j * SBO_P + r];
            A[i * SBO_P + r] = c * x - s * y;
            A[j * SBO_P + r] = s * x + c * y;
            const REAL u = V[i * SBO_P + r], v = V[j * SBO_P + r];
            V[i * SBO_P + r] = c * u - s * v;
            V[j * SBO_P + r] = s * u + c * v;
        }
        barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
    }
}

/* Null column k of U replaced by the first unit vector e_c, made orthogonal
 * to the other columns (twice, for accuracy), whose remainder has a norm of
 * at least 1/(2 sqrt p): some e_c's is at least 1/sqrt(p), since their
 * squares add up to the dimension left (at least 1).  Its sign is that of
 * the column's own remainder a_k = M v_k (still in U[k]): a column under
 * the null floor may yet be M's, with s_k > 0 known to a few digits, and
 * the other sign would flip that triplet in Q = U V^T (by 2 u_k v_k^T)
 * where M's polar factor is well defined. */
static void complete(__global REAL *U, const int k, __local int *nul, __local REAL *w,
                     __local REAL *h, __local REAL *red)
{
    const int lid = (int)get_local_id(0), wg = (int)get_local_size(0);
    for (int cand = 0; cand < SBO_P; cand++) {
        for (int r = lid; r < SBO_P; r += wg) {
            REAL x = (REAL)(r == cand);
            for (int l = 0; l < SBO_P; l++)
                if (!nul[l])
                    x -= U[l * SBO_P + r] * U[l * SBO_P + cand];
            w[r] = x;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int l = lid; l < SBO_P; l += wg) {
            REAL x = (REAL)0;
            for (int r = 0; !nul[l] && r < SBO_P; r++)
                x += U[l * SBO_P + r] * w[r];
            h[l] = x;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        REAL part = (REAL)0;
        for (int r = lid; r < SBO_P; r += wg) {
            REAL x = w[r];
            for (int l = 0; l < SBO_P; l++)
                x -= h[l] * U[l * SBO_P + r];
            w[r] = x;
            part += x * x;
        }
        red[lid] = part;
        jac_sum(red, lid, wg);
        const REAL nrm = sqrt(red[0]);
        if (nrm >= (REAL)0.5 * rsqrt((REAL)SBO_P)) {
            barrier(CLK_LOCAL_MEM_FENCE);       /* red[0] read by all */
            REAL dot = (REAL)0;
            for (int r = lid; r < SBO_P; r += wg)
                dot += w[r] * U[k * SBO_P + r];
            red[lid] = dot;
            jac_sum(red, lid, wg);
            const REAL scale = (red[0] < (REAL)0 ? (REAL)-1 : (REAL)1) / nrm;
            for (int r = lid; r < SBO_P; r += wg)
                U[k * SBO_P + r] = w[r] * scale;
            barrier(CLK_GLOBAL_MEM_FENCE);
            if (lid == 0)
                nul[k] = 0;
            barrier(CLK_LOCAL_MEM_FENCE);
            return;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
}

/* The SVD M_g = U_g diag(sig_g) V_g^T of each block g with need[g] != 0
 * (the others untouched): U, V, sig at g p p, g p p, g p.  One group per
 * block, any group size; red holds 3 x group size values. */
__kernel void sbo_jacobi(__global const int *need, __global const REAL *M,
                         __global REAL *U, __global REAL *V, __global REAL *sig,
                         __local REAL *red)
{
    __local REAL cs[SBO_PE], w[SBO_P], h[SBO_P];
    __local int nul[SBO_P], flag;
    const int g = (int)get_group_id(0), lid = (int)get_local_id(0);
    const int wg = (int)get_local_size(0);
    if (need[g] == 0)
        return;
    __global const REAL *Mg = M + (size_t)g * SBO_P * SBO_P;
    __global REAL *A = U + (size_t)g * SBO_P * SBO_P, *Vg = V + (size_t)g * SBO_P * SBO_P;
    REAL part = (REAL)0;
    for (int e = lid; e < SBO_P * SBO_P; e += wg) {
        const REAL x = Mg[e];
        A[e] = x;
        Vg[e] = (REAL)(e / SBO_P == e % SBO_P);
        part += x * x;
    }
    red[lid] = part;
    jac_sum(red, lid, wg);
    const REAL floor2 = SBO_NULL_TOL * SBO_NULL_TOL * red[0];
    barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
    for (int sweep = 0; sweep < SBO_JAC_SWEEPS; sweep++) {
        if (lid == 0)
            flag = 0;
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int step = 0; step < SBO_PE - 1; step++)
            jac_step(A, Vg, step, floor2, red, cs, &flag);
        const int done = flag == 0;
        barrier(CLK_LOCAL_MEM_FENCE);
        if (done)
            break;
    }
    /* Singular values and U = A diag(sig)^-1; null columns completed. */
    for (int k = lid; k < SBO_P; k += wg) {
        REAL a = (REAL)0;
        for (int r = 0; r < SBO_P; r++)
            a += A[k * SBO_P + r] * A[k * SBO_P + r];
        a = sqrt(a);
        sig[(size_t)g * SBO_P + k] = a;
        nul[k] = !(a * a > floor2);
        for (int r = 0; !nul[k] && r < SBO_P; r++)
            A[k * SBO_P + r] /= a;
    }
    barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
    for (int k = 0; k < SBO_P; k++)
        if (nul[k])
            complete(A, k, nul, w, h, red);
}

/* Q of blocks first + g with need[g] != 0, from the SVD's U, V, sig at g:
 * mode 0 Q = U V^T; mode 1 Q = U, columns by descending singular value
 * (ties to the lower index).  Then one Newton-Schulz step, Q (3 I - Q^T Q)
 * / 2, takes out what the rounding of some p rotations per column left of
 * non-orthonormality (float: ~1e-5), through the scratch T (the block's M,
 * consumed) and W.  One group per block, any size. */
__kernel void sbo_product(const int mode, const int first, __global const int *need,
                          __global const REAL *U, __global const REAL *V,
                          __global const REAL *sig, __global REAL *T, __global REAL *W,
                          __global REAL *D)
{
    const int g = (int)get_group_id(0), lid = (int)get_local_id(0);
    const int wg = (int)get_local_size(0);
    if (need[g] == 0)
        return;
    const size_t pp = (size_t)SBO_P * SBO_P;
    __global const REAL *Ug = U + g * pp, *Vg = V + g * pp, *sg = sig + (size_t)g * SBO_P;
    __global REAL *Wg = W + g * pp, *Tg = T + g * pp, *Q = D + (size_t)(first + g) * pp;
    if (mode == 1) {
        for (int k = lid; k < SBO_P; k += wg) {
            int rank = 0;
            for (int l = 0; l < SBO_P; l++)
                rank += sg[l] > sg[k] || (sg[l] == sg[k] && l < k);
            for (int r = 0; r < SBO_P; r++)
                Wg[rank * SBO_P + r] = Ug[k * SBO_P + r];
        }
    } else {
        /* Work-items take consecutive elements of a column of W = U V^T. */
        for (int e = lid; e < SBO_P * SBO_P; e += wg) {
            const int r = e % SBO_P, c = e / SBO_P;
            REAL acc = (REAL)0;
            for (int k = 0; k < SBO_P; k++)
                acc += Ug[k * SBO_P + r] * Vg[k * SBO_P + c];
            Wg[e] = acc;
        }
    }
    barrier(CLK_GLOBAL_MEM_FENCE);
    for (int e = lid; e < SBO_P * SBO_P; e += wg) {
        const int a = e % SBO_P, b = e / SBO_P;
        REAL acc = (REAL)0;
        for (int k = 0; k < SBO_P; k++)
            acc += Wg[a * SBO_P + k] * Wg[b * SBO_P + k];
        Tg[e] = acc;
    }
    barrier(CLK_GLOBAL_MEM_FENCE);
    for (int e = lid; e < SBO_P * SBO_P; e += wg) {
        const int r = e % SBO_P, c = e / SBO_P;
        REAL acc = (REAL)0;
        for (int k = 0; k < SBO_P; k++)
            acc += Wg[k * SBO_P + r] * Tg[c * SBO_P + k];
        Q[e] = (REAL)1.5 * Wg[e] - (REAL)0.5 * acc;
    }
}
