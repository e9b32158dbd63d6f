// SPDX-License-Identifier: MIT
// 1ONB steps 6 and 7 for a batch of blocks (Irofti, "Dictionary training";
// shared/notes/sbo.md 2, fact B), as kernels/opencl/sbo_train_svd.cl has
// them: the SVD of each p x p matrix M by one-sided Jacobi (Hestenes), one
// thread block per matrix, pairs of columns rotated in parallel in the
// round-robin order of impl/common/roundrobin.h, sweeps until no pair is
// off-orthogonal by more than SBO_JAC_TOL; then Q = U V^T, or Q = U by
// descending singular value (the initial basis of eq. (5)), polished by one
// Newton-Schulz step.  The columns live in global memory (a block's U and V
// are 2 p^2 values, past shared memory for p 64 in double); __syncthreads
// orders them within the block.  p <= SBO_SVD_MAX_P; blocks of at most
// SBO_TRAIN_MAX_BLOCK threads.  CUDA and HIP.
#ifndef SBO_TRAIN_SVD_CUH
#define SBO_TRAIN_SVD_CUH

#include <float.h>
#include "kernels/cuda/sbo_train_select.cuh"

#define SBO_SVD_MAX_P 256
// At most this many sweeps (convergence takes 6 to 12).
#define SBO_JAC_SWEEPS 40

template <typename T> __device__ __forceinline__ T sbo_eps();
template <> __device__ __forceinline__ float sbo_eps<float>()
{
    return FLT_EPSILON;
}
template <> __device__ __forceinline__ double sbo_eps<double>()
{
    return DBL_EPSILON;
}

// The shared state of one block's SVD.
template <typename T> struct sbo_jac_smem {
    T red[3 * SBO_TRAIN_MAX_BLOCK];
    T cs[SBO_SVD_MAX_P];            // (c, s) of each pair of a step
    T w[SBO_SVD_MAX_P], h[SBO_SVD_MAX_P];
    int nul[SBO_SVD_MAX_P];
    int flag;
};

// rb_rr_pair: the pair of `slot` in `step` of the circle method over pe
// (even) columns.
__device__ __forceinline__ void sbo_rr_pair(int pe, int step, int slot, int *i, int *j)
{
    const int a = slot == 0 ? 0 : ((slot - 1 + step) % (pe - 1)) + 1;
    const int b = ((pe - 1 - slot - 1 + step) % (pe - 1)) + 1;
    *i = min(a, b);
    *j = max(a, b);
}

// One sweep step's rotations: `ln` threads (a power of two) per pair share
// the rows.  sm->flag is set where some pair was rotated.  A pair is
// rotated while |a_i . a_j| > 4 eps |a_i| |a_j| (the OpenCL SBO_JAC_TOL).
template <typename T>
__device__ void sbo_jac_step(int p, T *A, T *V, int step, T floor2, sbo_jac_smem<T> *sm)
{
    const int lid = threadIdx.x, n = blockDim.x, pe = p + (p & 1), npairs = pe / 2;
    const T tol = 4 * sbo_eps<T>();
    int ln = 1;
    while (2 * ln * npairs <= n)
        ln *= 2;
    const int nslots = min(n / ln, npairs), lane = lid % ln, slot = lid / ln;
    T *red = sm->red;
    for (int base = 0; base < npairs; base += nslots) {
        const int pair = base + slot;
        int i = 0, j = 0;
        const int active = slot < nslots && pair < npairs;
        if (active)
            sbo_rr_pair(pe, step, pair, &i, &j);
        const int valid = active && j < p;
        T al = T(0), be = T(0), ga = T(0);
        for (int r = lane; valid && r < p; r += ln) {
            const T x = A[i * p + r], y = A[j * p + r];
            al += x * x;
            be += y * y;
            ga += x * y;
        }
        red[3 * lid] = al;
        red[3 * lid + 1] = be;
        red[3 * lid + 2] = ga;
        for (int h = ln / 2; h >= 1; h /= 2) {
            __syncthreads();
            if (lane < h)
                for (int q = 0; q < 3; q++)
                    red[3 * lid + q] += red[3 * (lid + h) + q];
        }
        __syncthreads();
        if (lane == 0 && slot < nslots) {
            T c = T(1), s = T(0);
            al = red[3 * lid];
            be = red[3 * lid + 1];
            ga = red[3 * lid + 2];
            if (valid && al > floor2 && be > floor2 && fabs(ga) > tol * sqrt(al * be)) {
                const T zeta = (be - al) / (2 * ga);
                const T t = (zeta >= 0 ? T(1) : T(-1)) / (fabs(zeta) + hypot(T(1), zeta));
                c = T(1) / sqrt(1 + t * t);
                s = c * t;
                sm->flag = 1;
            }
            sm->cs[2 * slot] = c;
            sm->cs[2 * slot + 1] = s;
        }
        __syncthreads();
        const T c = slot < nslots ? sm->cs[2 * slot] : T(1);
        const T s = slot < nslots ? sm->cs[2 * slot + 1] : T(0);
        for (int r = lane; valid && s != 0 && r < p; r += ln) {
            const T x = A[i * p + r], y = A[j * p + r];
            A[i * p + r] = c * x - s * y;
            A[j * p + r] = s * x + c * y;
            const T u = V[i * p + r], v = V[j * p + r];
            V[i * p + r] = c * u - s * v;
            V[j * p + r] = s * u + c * v;
        }
        __syncthreads();
    }
}

// Null column k of U replaced by the first unit vector e_c made orthogonal
// to the other columns (twice, for accuracy) whose remainder has a norm of
// at least 1/(2 sqrt p): some e_c's is at least 1/sqrt(p).  Its sign is
// that of the column's own remainder a_k = M v_k (still in U[k]): a column
// under the null floor may yet be M's, with s_k > 0 known to a few digits,
// and the other sign would flip that triplet in Q = U V^T (by 2 u_k v_k^T)
// where M's polar factor is well defined.
template <typename T> __device__ void sbo_jac_complete(int p, T *U, int k, sbo_jac_smem<T> *sm)
{
    const int lid = threadIdx.x, n = blockDim.x;
    for (int cand = 0; cand < p; cand++) {
        for (int r = lid; r < p; r += n) {
            T x = T(r == cand);
            for (int l = 0; l < p; l++)
                if (!sm->nul[l])
                    x -= U[l * p + r] * U[l * p + cand];
            sm->w[r] = x;
        }
        __syncthreads();
        for (int l = lid; l < p; l += n) {
            T x = T(0);
            for (int r = 0; !sm->nul[l] && r < p; r++)
                x += U[l * p + r] * sm->w[r];
            sm->h[l] = x;
        }
        __syncthreads();
        T part = T(0);
        for (int r = lid; r < p; r += n) {
            T x = sm->w[r];
            for (int l = 0; l < p; l++)
                x -= sm->h[l] * U[l * p + r];
            sm->w[r] = x;
            part += x * x;
        }
        sm->red[lid] = part;
        sbo_block_sum(sm->red, lid, n);
        const T nrm = sqrt(sm->red[0]);
        if (nrm >= T(0.5) / sqrt(T(p))) {
            __syncthreads();            // red[0] read by all
            T dot = T(0);
            for (int r = lid; r < p; r += n)
                dot += sm->w[r] * U[k * p + r];
            sm->red[lid] = dot;
            sbo_block_sum(sm->red, lid, n);
            const T scale = (sm->red[0] < T(0) ? T(-1) : T(1)) / nrm;
            for (int r = lid; r < p; r += n)
                U[k * p + r] = sm->w[r] * scale;
            __syncthreads();
            if (lid == 0)
                sm->nul[k] = 0;
            __syncthreads();
            return;
        }
        __syncthreads();
    }
}

// The SVD M_g = U_g diag(sig_g) V_g^T of each block g with need[g] != 0
// (the others untouched): U, V, sig at g p p, g p p, g p.  Grid nbatch.
template <typename T>
static __global__ void __launch_bounds__(SBO_TRAIN_MAX_BLOCK)
sbo_jacobi(int p, const int *__restrict__ need, const T *__restrict__ M, T *U, T *V,
           T *__restrict__ sig)
{
    __shared__ sbo_jac_smem<T> sm;
    const int g = blockIdx.x, lid = threadIdx.x, n = blockDim.x;
    if (need[g] == 0)
        return;
    const size_t pp = (size_t)p * p;
    const T *Mg = M + g * pp;
    T *A = U + g * pp, *Vg = V + g * pp;
    T part = T(0);
    for (int e = lid; e < p * p; e += n) {
        const T x = Mg[e];
        A[e] = x;
        Vg[e] = T(e / p == e % p);
        part += x * x;
    }
    sm.red[lid] = part;
    sbo_block_sum(sm.red, lid, n);
    // A column of norm below p eps |M|_F is null (the OpenCL SBO_NULL_TOL).
    const T nt = p * sbo_eps<T>(), floor2 = nt * nt * sm.red[0];
    __syncthreads();
    const int pe = p + (p & 1);
    for (int sweep = 0; sweep < SBO_JAC_SWEEPS; sweep++) {
        if (lid == 0)
            sm.flag = 0;
        __syncthreads();
        for (int step = 0; step < pe - 1; step++)
            sbo_jac_step(p, A, Vg, step, floor2, &sm);
        const int done = sm.flag == 0;
        __syncthreads();
        if (done)
            break;
    }
    // Singular values and U = A diag(sig)^-1; null columns completed.
    for (int k = lid; k < p; k += n) {
        T a = T(0);
        for (int r = 0; r < p; r++)
            a += A[k * p + r] * A[k * p + r];
        a = sqrt(a);
        sig[(size_t)g * p + k] = a;
        sm.nul[k] = !(a * a > floor2);
        for (int r = 0; !sm.nul[k] && r < p; r++)
            A[k * p + r] /= a;
    }
    __syncthreads();
    for (int k = 0; k < p; k++)
        if (sm.nul[k])
            sbo_jac_complete(p, A, k, &sm);
}

// Q of blocks first + g with need[g] != 0, from the SVD's U, V, sig at g:
// mode 0 Q = U V^T; mode 1 Q = U, columns by descending singular value
// (ties to the lower index).  Then one Newton-Schulz step, Q (3 I - Q^T Q)
// / 2, through the scratch T (the block's M, consumed) and W.  Grid nbatch.
template <typename T>
static __global__ void __launch_bounds__(SBO_TRAIN_MAX_BLOCK)
sbo_product(int p, int mode, int first, const int *__restrict__ need, const T *__restrict__ U,
            const T *__restrict__ V, const T *__restrict__ sig, T *Tm, T *W, T *__restrict__ D)
{
    const int g = blockIdx.x, lid = threadIdx.x, n = blockDim.x;
    if (need[g] == 0)
        return;
    const size_t pp = (size_t)p * p;
    const T *Ug = U + g * pp, *Vg = V + g * pp, *sg = sig + (size_t)g * p;
    T *Wg = W + g * pp, *Tg = Tm + g * pp, *Q = D + (size_t)(first + g) * pp;
    if (mode == 1) {
        for (int k = lid; k < p; k += n) {
            int rank = 0;
            for (int l = 0; l < p; l++)
                rank += sg[l] > sg[k] || (sg[l] == sg[k] && l < k);
            for (int r = 0; r < p; r++)
                Wg[rank * p + r] = Ug[k * p + r];
        }
    } else {
        for (int e = lid; e < p * p; e += n) {
            const int r = e % p, c = e / p;
            T acc = T(0);
            for (int k = 0; k < p; k++)
                acc += Ug[k * p + r] * Vg[k * p + c];
            Wg[e] = acc;
        }
    }
    __syncthreads();
    for (int e = lid; e < p * p; e += n) {
        const int a = e % p, b = e / p;
        T acc = T(0);
        for (int k = 0; k < p; k++)
            acc += Wg[a * p + k] * Wg[b * p + k];
        Tg[e] = acc;
    }
    __syncthreads();
    for (int e = lid; e < p * p; e += n) {
        const int r = e % p, c = e / p;
        T acc = T(0);
        for (int k = 0; k < p; k++)
            acc += Wg[k * p + r] * Tg[c * p + k];
        Q[e] = T(1.5) * Wg[e] - T(0.5) * acc;
    }
}

#endif
