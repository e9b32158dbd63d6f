// SPDX-License-Identifier: MIT
// 1ONB steps 6 and 7 without an SVD (shared/notes/sbo.md 2: the polar
// factor Q = M (M^T M)^(-1/2) equals U V^T for M of full rank): the
// Newton-Schulz iteration from X0 = M / sqrt(|M^T M|_F), whose singular
// values are at most 1, each step scaled as by Chen and Chow (2014), as in
// kernels/opencl/sbo_train_polar.cl: with the singular values in [l, 1],
// alpha^2 = 3 / (1 + l + l^2) and X <- alpha X (3 I - alpha^2 X^T X) / 2
// maps them into [f(l), 1], a wider jump than the plain step's (alpha = 1)
// while l is small.  l is sqrt(min_i (X^T X)_ii), a column norm: never
// below the smallest singular value s, and for every l >= s the scaled
// step moves s at least as far as the plain one; near convergence l -> 1
// and the step becomes the plain one.
// One block of SBO_NS_THREADS per matrix; the iterate, X^T X and the next
// iterate sit in shared memory (SHARED, leading dimension p + 1 against
// bank conflicts: 3 p (p + 1) values, dynamic) or in global scratch where
// the device has not that much; each thread computes 4 x 4 register tiles
// of a product, rows and columns strided by ceil(p / 4) so that a warp's
// rows fall in distinct banks.  M with a zero row or column (the iteration
// keeps it zero), a zero, infinite or NaN norm, and M that does not
// converge in SBO_NS_ITERS are flagged for the Jacobi SVD
// (sbo_train_svd.cuh).  CUDA and HIP.
#ifndef SBO_TRAIN_POLAR_CUH
#define SBO_TRAIN_POLAR_CUH

#include "kernels/cuda/sbo_train_svd.cuh"

#define SBO_NS_THREADS 256
// Iterations before the block is flagged: a small singular value grows
// about 1.5 times per step, so 100 reach 1e-15.
#define SBO_NS_ITERS 100
// The register tile's edge.
#define SBO_NS_TILE 4

// The dynamic shared buffer (t/gpu_emu.h defines its own).
#ifndef RB_DYN_SHARED
#define RB_DYN_SHARED(name) extern __shared__ __align__(16) unsigned char name[]
#endif

// C = op(A) B over p x p matrices of leading dimension ld in register
// tiles: AtB 1 is A^T B (then *err gets this thread's part of |C - I|_F^2
// over its tiles and *dmin the least of C's diagonal entries it holds and
// 1), 0 is A B, stored as c1 B' + c3 A B where B' is the `keep` matrix
// (the iterate, for the Newton-Schulz step).
template <typename T, int AtB>
__device__ void sbo_ns_product(int p, int ld, const T *A, const T *B, const T *keep, T *C,
                               T *err, T *dmin, T c1 = T(0), T c3 = T(0))
{
    const int nt = (p + SBO_NS_TILE - 1) / SBO_NS_TILE;
    T e2 = T(0), low = T(1);
    for (int t = threadIdx.x; t < nt * nt; t += blockDim.x) {
        const int tr = t % nt, tc = t / nt;
        T acc[SBO_NS_TILE][SBO_NS_TILE];
        int row[SBO_NS_TILE], col[SBO_NS_TILE];
#pragma unroll
        for (int i = 0; i < SBO_NS_TILE; i++) {
            row[i] = tr + i * nt < p ? tr + i * nt : -1;
            col[i] = tc + i * nt < p ? tc + i * nt : -1;
#pragma unroll
            for (int j = 0; j < SBO_NS_TILE; j++)
                acc[i][j] = T(0);
        }
        for (int k = 0; k < p; k++) {
            T a[SBO_NS_TILE], b[SBO_NS_TILE];
#pragma unroll
            for (int i = 0; i < SBO_NS_TILE; i++) {
                // A^T B: A[k, row]; A B: A[row, k].  B[k, col] either way.
                const int ai = AtB ? k + row[i] * ld : row[i] + k * ld;
                a[i] = row[i] >= 0 ? A[ai] : T(0);
                b[i] = col[i] >= 0 ? B[k + col[i] * ld] : T(0);
            }
#pragma unroll
            for (int i = 0; i < SBO_NS_TILE; i++)
#pragma unroll
                for (int j = 0; j < SBO_NS_TILE; j++)
                    acc[i][j] += a[i] * b[j];
        }
#pragma unroll
        for (int i = 0; i < SBO_NS_TILE; i++)
#pragma unroll
            for (int j = 0; j < SBO_NS_TILE; j++) {
                if (row[i] < 0 || col[j] < 0)
                    continue;
                const int at = row[i] + col[j] * ld;
                if (AtB) {
                    C[at] = acc[i][j];
                    const T d = acc[i][j] - T(row[i] == col[j]);
                    e2 += d * d;
                    if (row[i] == col[j])
                        low = fmin(low, acc[i][j]);
                } else {
                    C[at] = c1 * keep[at] + c3 * acc[i][j];
                }
            }
    }
    if (err) {
        *err = e2;
        *dmin = low;
    }
}

// red's n values summed (sbo_block_sum), the sum returned to every thread.
template <typename T> __device__ T sbo_ns_sum(T *red, T v)
{
    red[threadIdx.x] = v;
    sbo_block_sum(red, threadIdx.x, blockDim.x);
    const T sum = red[0];
    __syncthreads();
    return sum;
}

// Every thread's sum and low replaced by the block's sum (in
// sbo_block_sum's order) and least value.
template <typename T> __device__ void sbo_ns_sum_min(T *red, T *lows, T &sum, T &low)
{
    const int lid = threadIdx.x, n = blockDim.x;
    red[lid] = sum;
    lows[lid] = low;
    for (int h = 1; h < n; h <<= 1) {
        __syncthreads();
        if (lid % (2 * h) == 0 && lid + h < n) {
            red[lid] += red[lid + h];
            lows[lid] = fmin(lows[lid], lows[lid + h]);
        }
    }
    __syncthreads();
    sum = red[0];
    low = lows[0];
    __syncthreads();
}

// Q of blocks first + g with need[g] != 0 from M at g p p.  SHARED: the
// three matrices in dynamic shared memory (3 p (p + 1) values); else in
// the global scratch X, Tm, W at g p p (the SVD's U, V and W).  flag[g] 1
// where the iteration did not converge (Q then holds no answer), else 0.
// Converged once |X^T X - I|_F <= 4 p eps before a step (the step then
// squares that error: it is the last).  Grid nbatch, SBO_NS_THREADS.
template <typename T, int SHARED>
static __global__ void __launch_bounds__(SBO_NS_THREADS)
sbo_newton_schulz(int p, int first, const int *__restrict__ need, const T *__restrict__ M,
                  T *X, T *Tm, T *W, T *__restrict__ D, int *__restrict__ flag)
{
    RB_DYN_SHARED(sbo_ns_smem);
    __shared__ T red[SBO_NS_THREADS], lows[SBO_NS_THREADS];
    __shared__ int zero;
    const int g = blockIdx.x, lid = threadIdx.x, n = blockDim.x;
    if (need[g] == 0) {
        if (lid == 0)
            flag[g] = 0;
        return;
    }
    const size_t pp = (size_t)p * p;
    const int ld = SHARED ? p + 1 : p;
    T *cur, *Tg, *nxt;
    if (SHARED) {
        cur = reinterpret_cast<T *>(sbo_ns_smem);
        Tg = cur + (size_t)ld * p;
        nxt = Tg + (size_t)ld * p;
    } else {
        cur = X + g * pp;
        Tg = Tm + g * pp;
        nxt = W + g * pp;
    }
    const T *Mg = M + g * pp;
    if (lid == 0)
        zero = 0;
    for (int e = lid; e < p * p; e += n)
        cur[e % p + (e / p) * ld] = Mg[e];
    __syncthreads();
    for (int r = lid; r < p; r += n) {
        T row = T(0), col = T(0);
        for (int k = 0; k < p; k++) {
            row += fabs(cur[r + k * ld]);
            col += fabs(cur[k + r * ld]);
        }
        if (row == T(0) || col == T(0))
            atomicOr(&zero, 1);
    }
    // T = M^T M, scaled with M by 1 / sqrt(|M^T M|_F).
    T part, low;
    sbo_ns_product<T, 1>(p, ld, cur, cur, cur, Tg, &part, &low);
    __syncthreads();
    part = T(0);
    for (int e = lid; e < p * p; e += n) {
        const T x = Tg[e % p + (e / p) * ld];
        part += x * x;
    }
    const T fro2 = sbo_ns_sum(red, part);
    // 0 iterating, 1 flagged, 2 converged
    int state = zero == 0 && fro2 > T(0) && isfinite(fro2) ? 0 : 1;
    const T tol = 4 * p * sbo_eps<T>();
    if (state == 0) {
        const T s2 = T(1) / sqrt(fro2), s = sqrt(s2);
        part = T(0);
        low = T(1);
        for (int e = lid; e < p * p; e += n) {
            const int r = e % p, c = e / p, at = r + c * ld;
            cur[at] *= s;
            const T x = Tg[at] * s2, d = x - T(r == c);
            Tg[at] = x;
            part += d * d;
            if (r == c)
                low = fmin(low, x);
        }
    }
    for (int it = 0; state == 0 && it < SBO_NS_ITERS; it++) {
        if (it > 0)
            sbo_ns_product<T, 1>(p, ld, cur, cur, cur, Tg, &part, &low);
        sbo_ns_sum_min(red, lows, part, low);
        const T err = sqrt(part);
        const T l = sqrt(fmax(low, T(0)));
        const T alpha = sqrt(T(3) / (T(1) + l + l * l));
        sbo_ns_product<T, 0>(p, ld, cur, Tg, cur, nxt, nullptr, nullptr, T(1.5) * alpha,
                             T(-0.5) * alpha * alpha * alpha);
        __syncthreads();
        T *t = cur;
        cur = nxt;
        nxt = t;
        // Converged: the step just made is the last.  A NaN never is.
        state = err <= tol ? 2 : isfinite(err) ? 0 : 1;
    }
    T *Q = D + (size_t)(first + g) * pp;
    if (state == 2)
        for (int e = lid; e < p * p; e += n)
            Q[e] = cur[e % p + (e / p) * ld];
    if (lid == 0)
        flag[g] = state != 2;
}

#endif
