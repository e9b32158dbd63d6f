/* SPDX-License-Identifier: MIT */
/* The CUDA and HIP SBO training kernels (kernels/cuda/sbo_train_*.cuh) run
 * on the CPU through t/gpu_emu.h, where no GPU is, on fresh random data, in
 * float and double, against the CPU: the squared norms and the count
 * setter, the energy update (residuals exact, the partial sums to
 * rounding), the worst-W selection's radix sort
 * (sbo_worst's order: ties, +-0, every key byte; chunks of several
 * pieces), the grouping (counts, stable order, one empty block) and the
 * gather (exact), the thresholding (sbo_code's choice with ties, padding
 * zeroed), the any-s representation map (as sbo_top_energy), the batched
 * GEMM (1ONB's pair with overlapping offsets; every transpose pair with K
 * split into chunks, K not a multiple of the chunk, K below one chunk,
 * several tiles), the Jacobi SVD with
 * Q = U V^T (orthonormal, as sbo_polar; rank-deficient M orthonormal and
 * Procrustes-optimal; a singular value under the null floor but positive,
 * Q still M's polar factor) and the sorted initial basis, and Newton-Schulz in
 * shared and in global memory (as sbo_polar; a singular M flagged). */
#include "t/gpu_emu.h"
#include "kernels/cuda/sbo_train_gemm.cuh"
#include "kernels/cuda/sbo_train_polar.cuh"
#include "kernels/cuda/sbo_train_select.cuh"
#include "kernels/cuda/sbo_train_svd.cuh"

#include <cstdint>
#include <cstring>
#include <type_traits>
#include "impl/common/rng.h"
#include "impl/sbo/sbo.h"
#include "t/sbo_residuals.h"
#include "t/sbo_svd_floor.h"
#include "t/tap.h"

static struct rb_rng rng;

template <typename T> static double unit()
{
    return std::is_same_v<T, float> ? 0x1.0p-24 : 0x1.0p-53;
}

template <typename T> static const char *pname()
{
    return std::is_same_v<T, float> ? "f32" : "f64";
}

/* Values rounded to T, kept in double too. */
template <typename T> static void normal(std::vector<T> &a, std::vector<double> &d, size_t n)
{
    a.resize(n);
    d.resize(n);
    for (size_t k = 0; k < n; k++) {
        a[k] = (T)rb_rng_normal(&rng);
        d[k] = a[k];
    }
}

template <typename T> static void energy_update_check(int m, int block)
{
    std::vector<T> yn(m), en(m), r(m, (T)NAN), part(8, (T)NAN);
    for (int i = 0; i < m; i++) {
        yn[i] = (T)rb_rng_uniform(&rng);
        en[i] = (T)rb_rng_uniform(&rng);
    }
    const int npart = 3;
    gpu_emu_launch(npart, 1, block, [&] {
        sbo_energy_update<T>(m, yn.data(), en.data(), r.data(), part.data(), 2);
    });
    double sum = 0, got = 0;
    int exact = 1;
    for (int i = 0; i < m; i++) {
        exact &= r[i] == yn[i] - en[i];
        sum += std::max((double)(yn[i] - en[i]), 0.0);
    }
    for (int g = 0; g < npart; g++)
        got += part[2 + g];
    tap_ok(exact && std::fabs(got - sum) <= 4 * m * unit<T>() * (sum + 1) && std::isnan(part[1]),
           "energy update %s m=%d: residuals exact, sums %.9g vs %.9g at their slot", pname<T>(),
           m, got, sum);
}

/* The squared norms (one thread a signal, m off the block size; past m
 * nothing written) and the count setter. */
template <typename T> static void ynorm_check(int p, int m, int block)
{
    std::vector<T> Y((size_t)p * m), yn(m + 8, (T)NAN);
    std::vector<double> Yd;
    normal<T>(Y, Yd, Y.size());
    gpu_emu_launch((m + block - 1) / block, 1, block,
                   [&] { sbo_ynorm<T>(p, m, Y.data(), yn.data()); });
    int count = -1;
    gpu_emu_launch(1, 1, 1, [&] { sbo_set_int(&count, m); });
    double worst = 0;
    for (int i = 0; i < m; i++) {
        double a = 0;
        for (int k = 0; k < p; k++)
            a += Yd[(size_t)i * p + k] * Yd[(size_t)i * p + k];
        worst = tap_worst(worst, std::fabs(yn[i] - a) / (a * p * unit<T>()));
    }
    bool guard = true;
    for (int i = m; i < m + 8; i++)
        guard = guard && std::isnan(yn[i]);
    tap_ok(worst <= 1 && guard && count == m, "squared norms %s p=%d m=%d block=%d: to %.2g of "
           "p u |y|^2, none past m; the count set to %d", pname<T>(), p, m, block, worst, count);
}

/* One pass of the stable sort in ntiles chunks, as sbo_gpu_train_steps.cu
 * launches it. */
template <typename T>
static void sort_pass(int m, int ntiles, int block, int nb, int len, const sbo_radix_src<T> &src,
                      std::vector<int> &tiles, int *out, int *counts)
{
    const int chunk = (m + ntiles - 1) / ntiles;
    tiles.assign((size_t)SBO_SORT_BUCKETS * ntiles, -1);
    gpu_emu_launch(ntiles, 1, block, [&] {
        sbo_radix_count<T>(m, chunk, nb, src, tiles.data());
    });
    gpu_emu_launch(ntiles, 1, block, [&] {
        sbo_radix_scatter<T>(m, chunk, nb, len, src, tiles.data(), out, counts);
    });
}

/* The W worst and the grouping in `ntiles` chunks (a chunk of several
 * pieces of `block` positions when ntiles < m / block), then the gather. */
template <typename T> static void select_check(int m, int W, int nb, int p, int block, int ntiles)
{
    std::vector<T> r(m), Y, Ys((size_t)p * m, (T)NAN);
    std::vector<double> rd(m), Yd;
    std::vector<int> best(m), idx(m, -1), ref(m), order(m, -1), seq(m, -1), cnt(nb, -1);
    std::vector<int> ntile(nb, 0), tiles;
    for (int i = 0; i < m; i++) {
        r[i] = (T)sbo_test_residual(&rng, std::is_same_v<T, float>);
        rd[i] = r[i];
        best[i] = (int)(rb_rng_u64(&rng) % (uint64_t)(nb - 1));  /* block nb-1 empty */
        ntile[best[i]]++;
    }
    normal(Y, Yd, (size_t)p * m);
    const int passes = (int)(8 * sizeof(T)) / SBO_SORT_BITS;
    const int *in = nullptr;
    for (int k = 0; k < passes; k++) {
        int *out = k == passes - 1 ? idx.data() : k % 2 ? seq.data() : order.data();
        const sbo_radix_src<T> src = { nullptr, r.data(), in, k * SBO_SORT_BITS };
        sort_pass<T>(m, ntiles, block, SBO_SORT_BUCKETS, k == passes - 1 ? W : m, src, tiles,
                     out, nullptr);
        in = out;
    }
    sbo_worst(m, rd.data(), W, ref.data());
    int same = 0;
    for (int k = 0; k < W; k++)
        same += idx[k] == ref[k];
    tap_ok(same == W && (W == m || idx[W] == -1), "worst %s m=%d in %d chunks: %d of W=%d as sbo_worst, "
           "none past W", pname<T>(), m, ntiles, same, W);
    const sbo_radix_src<T> by_block = { best.data(), nullptr, nullptr, 0 };
    sort_pass<T>(m, ntiles, block, nb, m, by_block, tiles, order.data(), cnt.data());
    int at = 0, ok = 1;
    for (int j = 0; j < nb; j++) {
        ok &= cnt[j] == ntile[j];
        for (int i = 0; i < m; i++)
            if (best[i] == j)
                ok &= order[at++] == i;
    }
    tap_ok(ok, "group %s m=%d nb=%d (one empty) in %d chunks: counts and stable order",
           pname<T>(), m, nb, ntiles);
    const long long n = (long long)m * p;
    gpu_emu_launch((unsigned)((n + block - 1) / block), 1, block, [&] {
        sbo_gather<T>(p, m, order.data(), Y.data(), Ys.data());
    });
    int bad = 0;
    for (int k = 0; k < m; k++)
        for (int row = 0; row < p; row++)
            bad += Ys[(size_t)k * p + row] != Y[(size_t)order[k] * p + row];
    tap_ok(bad == 0, "gather %s m=%d p=%d: signals copied exactly", pname<T>(), m, p);
}

template <typename T> static void threshold_check(int p, int s, int n)
{
    const size_t len = (size_t)3 * p * n;
    std::vector<T> C(len);
    std::vector<double> x(p), eye((size_t)p * p, 0.0), col(p);
    int cnt[3] = { n, n / 3, 0 }, bad = 0;
    for (size_t k = 0; k < len; k++)
        C[k] = (T)((double)((int)(rb_rng_u64(&rng) % 17) - 8) / 4);
    const std::vector<T> C0 = C;
    for (int k = 0; k < p; k++)
        eye[k + (size_t)k * p] = 1;
    gpu_emu_launch((unsigned)((n + 31) / 32), 3, 32, [&] {
        sbo_threshold<T>(p, s, n, cnt, C.data());
    });
    for (int g = 0; g < 3; g++)
        for (int c = 0; c < n; c++) {
            const size_t at = ((size_t)g * n + c) * p;
            for (int k = 0; k < p; k++)
                col[k] = C0[at + k];
            if (c < cnt[g])
                sbo_code(p, s, eye.data(), col.data(), x.data());
            else
                std::fill(x.begin(), x.end(), 0.0);
            for (int k = 0; k < p; k++)
                bad += (double)C[at + k] != x[k];
        }
    tap_ok(bad == 0, "threshold %s p=%d s=%d: as sbo_code with ties, padding zeroed (%d differ)",
           pname<T>(), p, s, bad);
}

/* The any-s map against sbo_top_energy of the float codes. */
template <typename T> static void energy_any_check(int p, int s, int m, int nb)
{
    std::vector<T> D, Y, E((size_t)nb * m, (T)NAN);
    std::vector<double> Dd, Yd, code(p);
    normal(D, Dd, (size_t)nb * p * p);
    normal(Y, Yd, (size_t)p * m);
    gpu_emu_launch((unsigned)((m + 63) / 64), (unsigned)nb, 64, [&] {
        sbo_energy_any<T, SBO_GPU_PMAX_SMALL>(p, s, m, D.data(), Y.data(), E.data());
    });
    double worst = 0;
    for (int j = 0; j < nb; j++)
        for (int i = 0; i < m; i++) {
            double yy = 0;
            for (int r = 0; r < p; r++) {
                double a = 0;
                for (int k = 0; k < p; k++)
                    a += Dd[(size_t)j * p * p + (size_t)r * p + k] * Yd[(size_t)i * p + k];
                code[r] = a;
                yy += Yd[(size_t)i * p + r] * Yd[(size_t)i * p + r];
            }
            const double e = sbo_top_energy(p, s, code.data());
            worst = tap_worst(worst, std::fabs(E[(size_t)j * m + i] - e) / (p * yy * p));
        }
    tap_ok(worst <= 8 * unit<T>(), "energy (any s) %s p=%d s=%d: as sbo_top_energy to %.2g "
           "of p^2 |y|^2", pname<T>(), p, s, worst);
}

/* sbo_gemm_batched (and sbo_gemm_sum after a split) as gt_gemm launches
 * them; chunk 0: as sbo_gemm_split chooses, else forced.  The split count. */
template <typename T>
static int gemm_run(int ta, int tb, int M, int N, int K, int nb, int chunk,
                    const unsigned long long *offs, const T *A, int lda, const T *B, int ldb,
                    T *C, int ldc)
{
    const size_t cap = sbo_gemm_scratch(M > N ? M : N, nb);
    int nsplit;
    if (chunk == 0) {
        nsplit = sbo_gemm_split(M, N, K, nb, cap, &chunk);
    } else {
        nsplit = (K + chunk - 1) / chunk;
        nsplit = nsplit > 0 ? nsplit : 1;
    }
    std::vector<T> P((size_t)nsplit * nb * M * N, (T)NAN);
    const unsigned tiles = (unsigned)(((M + SBO_GEMM_TM - 1) / SBO_GEMM_TM)
                                      * ((N + SBO_GEMM_TN - 1) / SBO_GEMM_TN));
    gpu_emu_launch(tiles * nsplit, nb, SBO_GEMM_THREADS, [&] {
        sbo_gemm_batched<T>(ta, tb, M, N, K, chunk, offs, A, lda, B, ldb, C, ldc, P.data());
    });
    if (nsplit > 1)
        gpu_emu_launch((M * N + SBO_GEMM_THREADS - 1) / SBO_GEMM_THREADS, nb, SBO_GEMM_THREADS,
                       [&] { sbo_gemm_sum<T>(M, N, nsplit, offs, P.data(), C, ldc); });
    return nsplit;
}

template <typename T> static void gemm_check(int p, int n)
{
    const int nb = 3;
    const size_t pp = (size_t)p * p, ny = (size_t)p * 2 * n;
    std::vector<T> D, Y, C((size_t)nb * p * n, (T)NAN), M(nb * pp, (T)NAN);
    std::vector<double> Dd, Yd;
    normal(D, Dd, nb * pp);
    normal(Y, Yd, ny);
    unsigned long long offs[12];
    for (int g = 0; g < nb; g++) {
        offs[g] = g * pp;                               /* Q */
        offs[nb + g] = (size_t)(g * n / 2) * p;         /* overlapping signal windows */
        offs[2 * nb + g] = (size_t)g * p * n;           /* C */
    }
    gemm_run<T>(1, 0, p, n, p, nb, 0, offs, D.data(), p, Y.data(), p, C.data(), p);
    unsigned long long offs2[9];
    for (int g = 0; g < nb; g++) {
        offs2[g] = offs[nb + g];
        offs2[nb + g] = offs[2 * nb + g];
        offs2[2 * nb + g] = g * pp;
    }
    const int nsplit = gemm_run<T>(0, 1, p, p, n, nb, 0, offs2, Y.data(), p, C.data(), p,
                                   M.data(), p);
    double dc = 0, dm = 0, sc = 0, sm = 0;
    for (int g = 0; g < nb; g++) {
        const double *Q = Dd.data() + offs[g], *y = Yd.data() + offs[nb + g];
        for (int c = 0; c < n; c++)
            for (int r = 0; r < p; r++) {
                double a = 0;
                for (int k = 0; k < p; k++)
                    a += Q[k + r * p] * y[k + c * p];
                dc = tap_worst(dc, std::fabs(C[offs[2 * nb + g] + r + c * p] - a));
                sc = tap_worst(sc, std::fabs(a));
            }
        for (int a = 0; a < p; a++)
            for (int b = 0; b < p; b++) {
                double x = 0;
                for (int k = 0; k < n; k++)
                    x += y[a + k * p] * (double)C[offs[2 * nb + g] + b + k * p];
                dm = tap_worst(dm, std::fabs(M[g * pp + a + b * p] - x));
                sm = tap_worst(sm, std::fabs(x));
            }
    }
    const double u = unit<T>(), tc = 4 * p * u * (sc + 1), tm = 4 * n * u * (sm + p * n);
    tap_ok(dc <= tc && dm <= tm, "GEMM %s p=%d n=%d x3 (%d K chunks): Q^T Y to %.2g (<= %.2g), "
           "Y C^T to %.2g (<= %.2g)", pname<T>(), p, n, nsplit, dc, tc, dm, tm);
}

/* C_b = op(A_b) op(B_b) for 2 entries of every transpose pair, M x N with
 * K inner, chunk as gemm_run's, leading dimensions past the rows (the
 * padding poisoned), against fp64 to K u times sum |a| |b| per element;
 * the K chunks as expected (`splits`). */
template <typename T> static void gemm_shape_check(int M, int N, int K, int chunk, int splits)
{
    const int nb = 2, lda = std::max(M, K) + 3, ldb = std::max(N, K) + 2, ldc = M + 1;
    const size_t na = (size_t)lda * std::max(M, K), nbm = (size_t)ldb * std::max(N, K);
    std::vector<T> A, B;
    std::vector<double> Ad, Bd;
    normal(A, Ad, nb * na);
    normal(B, Bd, nb * nbm);
    bool ok = true, count = true;
    double worst = 0;
    for (int ta = 0; ta < 2; ta++)
        for (int tb = 0; tb < 2; tb++) {
            std::vector<T> C((size_t)nb * ldc * N + 5, (T)NAN);
            unsigned long long offs[6];
            for (int g = 0; g < nb; g++) {
                offs[g] = g * na;
                offs[nb + g] = g * nbm;
                offs[2 * nb + g] = 5 + (size_t)(nb - 1 - g) * ldc * N;
            }
            count &= gemm_run<T>(ta, tb, M, N, K, nb, chunk, offs, A.data(), lda, B.data(), ldb,
                                 C.data(), ldc) == splits;
            for (int g = 0; g < nb; g++)
                for (int c = 0; c < N; c++)
                    for (int r = 0; r < ldc; r++) {
                        const T got = C[offs[2 * nb + g] + r + (size_t)c * ldc];
                        if (r >= M) {
                            ok &= std::isnan((double)got);  /* padding untouched */
                            continue;
                        }
                        double x = 0, ax = 0;
                        for (int k = 0; k < K; k++) {
                            const double a = ta ? Ad[offs[g] + k + (size_t)r * lda]
                                                : Ad[offs[g] + r + (size_t)k * lda];
                            const double b = tb ? Bd[offs[nb + g] + c + (size_t)k * ldb]
                                                : Bd[offs[nb + g] + k + (size_t)c * ldb];
                            x += a * b;
                            ax += std::fabs(a * b);
                        }
                        const double e = std::fabs(got - x) / ((K + 1) * unit<T>() * ax + 1e-300);
                        ok &= e <= 1.0;
                        worst = tap_worst(worst, e);
                    }
            ok &= std::isnan((double)C[4]);
        }
    tap_ok(ok && count, "GEMM %s %dx%d K=%d chunk %d (%d chunks), all transposes: to %.2g of "
           "K u sum |a b|", pname<T>(), M, N, K, chunk, splits, worst);
}

/* nb p x p matrices: Gaussian (rank p), or A B of the given rank. */
static void random_rank(int p, int nb, int rank, std::vector<double> &M)
{
    M.assign((size_t)nb * p * p, 0.0);
    std::vector<double> A((size_t)p * rank), B((size_t)rank * p);
    for (int g = 0; g < nb; g++) {
        if (rank >= p) {
            for (size_t k = 0; k < (size_t)p * p; k++)
                M[(size_t)g * p * p + k] = rb_rng_normal(&rng);
            continue;
        }
        for (double &x : A)
            x = rb_rng_normal(&rng);
        for (double &x : B)
            x = rb_rng_normal(&rng);
        for (int r = 0; r < p; r++)
            for (int c = 0; c < p; c++) {
                double x = 0;
                for (int k = 0; k < rank; k++)
                    x += A[r + k * p] * B[k + c * rank];
                M[(size_t)g * p * p + r + c * p] = x;
            }
    }
}

/* Q of nb blocks M by the Jacobi SVD and product (mode 0) into D. */
template <typename T>
static void jacobi_polar(int p, int nb, std::vector<T> M, std::vector<T> &D)
{
    const size_t pp = (size_t)p * p;
    std::vector<T> U(nb * pp, (T)NAN), V(nb * pp, (T)NAN), W(nb * pp, (T)NAN);
    std::vector<T> sig((size_t)nb * p, (T)NAN);
    std::vector<int> need(nb, 1);
    gpu_emu_launch(nb, 1, 64, [&] {
        sbo_jacobi<T>(p, need.data(), M.data(), U.data(), V.data(), sig.data());
    });
    gpu_emu_launch(nb, 1, 64, [&] {
        sbo_product<T>(p, 0, 0, need.data(), U.data(), V.data(), sig.data(), M.data(),
                       W.data(), D.data());
    });
}

/* how 0: Jacobi + product (mode 0); 1: Newton-Schulz in shared memory; 2:
 * Newton-Schulz in global memory.  Against sbo_polar (full rank), or
 * orthonormal and trace(Q^T M) = the nuclear norm (rank-deficient: the
 * polar factor is not unique, but only polar factors reach that trace,
 * the Jacobi SVD's). */
template <typename T> static void polar_check(int p, int nb, int rank, int how)
{
    const size_t pp = (size_t)p * p;
    std::vector<double> Md, ref(pp), Qd(pp);
    random_rank(p, nb, rank, Md);
    std::vector<T> M(nb * pp), U(nb * pp, (T)NAN), V(nb * pp, (T)NAN), W(nb * pp, (T)NAN);
    std::vector<T> D(nb * pp, (T)NAN), DJ(nb * pp, (T)NAN);
    for (size_t k = 0; k < nb * pp; k++) {
        M[k] = (T)Md[k];
        Md[k] = M[k];
    }
    std::vector<int> need(nb, 1), flag(nb, -1);
    if (how == 0 || rank < p)
        jacobi_polar<T>(p, nb, M, how == 0 ? D : DJ);
    if (how != 0) {
        gpu_emu_dyn_shared(how == 1 ? 3 * pp * sizeof(T) + 3 * p * sizeof(T) : 0);
        gpu_emu_launch(nb, 1, SBO_NS_THREADS, [&] {
            if (how == 1)
                sbo_newton_schulz<T, 1>(p, 0, need.data(), M.data(), U.data(), V.data(),
                                        W.data(), D.data(), flag.data());
            else
                sbo_newton_schulz<T, 0>(p, 0, need.data(), M.data(), U.data(), V.data(),
                                        W.data(), D.data(), flag.data());
        });
    }
    const double u = unit<T>();
    double orth = 0, qdev = 0, opt = 0, tdev = 0;
    int flagged = 0;
    for (int g = 0; g < nb; g++) {
        flagged += how != 0 && flag[g] != 0;
        if (how != 0 && flag[g] != 0)
            continue;
        for (size_t k = 0; k < pp; k++)
            Qd[k] = D[g * pp + k];
        orth = tap_worst(orth, sbo_orth_error(p, 1, Qd.data()));
        if (rank == p && sbo_polar(p, Md.data() + g * pp, ref.data()) == 0) {
            for (size_t k = 0; k < pp; k++)
                qdev = tap_worst(qdev, std::fabs(Qd[k] - ref[k]));
        }
        double got = 0, fro = 0, nuc = 0;
        for (size_t k = 0; k < pp; k++) {
            got += Qd[k] * Md[g * pp + k];
            fro += Md[g * pp + k] * Md[g * pp + k];
            nuc += (double)DJ[g * pp + k] * Md[g * pp + k];
        }
        opt = tap_worst(opt, got);      /* trace(Q^T M) > 0: not a reflection of it */
        if (how != 0 && rank < p)
            tdev = tap_worst(tdev, std::fabs(got - nuc) / std::sqrt(fro));
    }
    static const char *const what[] = { "Jacobi SVD", "Newton-Schulz (shared)",
                                        "Newton-Schulz (global)" };
    if (rank == p)
        tap_ok(flagged == 0 && orth <= 16 * p * u && qdev <= 1e3 * p * u,
               "%s %s p=%d x%d: Q orthonormal (%.2g), as sbo_polar to %.2g", what[how],
               pname<T>(), p, nb, orth, qdev);
    else if (how == 0)
        tap_ok(orth <= 16 * p * u && opt > 0, "%s %s p=%d rank %d: Q orthonormal (%.2g)",
               what[how], pname<T>(), p, rank, orth);
    else    /* the rounding of a singular M leaves it invertible: the scaled
             * steps may grow its tiny singular values to 1 */
        tap_ok(flagged == nb || (orth <= 16 * p * u && tdev <= 1e3 * p * u),
               "%s %s p=%d rank %d: %d of %d singular blocks flagged, the others "
               "orthonormal (%.2g) with trace(Q^T M) the nuclear norm (to %.2g |M|_F)",
               what[how], pname<T>(), p, rank, flagged, nb, orth, tdev);
}

/* The Jacobi SVD's Q on nb blocks whose smallest singular value is under
 * the null floor but positive (t/sbo_svd_floor.h): the completed column
 * must keep M's sign, so Q stays M's polar factor within the derived bound
 * (a completion of either sign at random fails a block in two). */
template <typename T> static void floor_check(int p, int nb)
{
    const size_t pp = (size_t)p * p;
    std::vector<double> Md(nb * pp), bound(nb), Qd(nb * pp);
    std::vector<T> M(nb * pp), D(nb * pp, (T)NAN);
    for (int g = 0; g < nb; g++)
        bound[g] = sbo_test_below_floor(&rng, p, sizeof(T) == sizeof(float), &Md[g * pp]);
    for (size_t k = 0; k < nb * pp; k++)
        M[k] = (T)Md[k];
    jacobi_polar<T>(p, nb, M, D);
    for (size_t k = 0; k < nb * pp; k++)
        Qd[k] = D[k];
    double orth = NAN;
    const double worst = sbo_test_floor_worst(p, nb, Md.data(), Qd.data(), bound.data(), &orth);
    tap_ok(worst <= 1 && orth <= 16 * p * unit<T>(), "Jacobi SVD %s p=%d x%d, s_p under the "
           "null floor: Q as sbo_polar to %.2g of the bound, orthonormal (%.2g)", pname<T>(),
           p, nb, worst, orth);
}

/* A block whose M has a zero column (an atom no signal uses) next to a full
 * one: Newton-Schulz flags it before any step and answers the other. */
template <typename T> static void polar_zero_check(int p, int how)
{
    const size_t pp = (size_t)p * p;
    std::vector<double> Md;
    random_rank(p, 2, p, Md);
    std::vector<T> M(2 * pp), U(2 * pp, (T)NAN), V(2 * pp, (T)NAN), W(2 * pp, (T)NAN);
    std::vector<T> D(2 * pp, (T)NAN);
    for (size_t k = 0; k < 2 * pp; k++)
        M[k] = (T)Md[k];
    for (int r = 0; r < p; r++)
        M[r + (size_t)(p / 2) * p] = 0;
    std::vector<int> need(2, 1), flag(2, -1);
    gpu_emu_dyn_shared(how == 1 ? 3 * pp * sizeof(T) + 3 * p * sizeof(T) : 0);
    gpu_emu_launch(2, 1, SBO_NS_THREADS, [&] {
        if (how == 1)
            sbo_newton_schulz<T, 1>(p, 0, need.data(), M.data(), U.data(), V.data(), W.data(),
                                    D.data(), flag.data());
        else
            sbo_newton_schulz<T, 0>(p, 0, need.data(), M.data(), U.data(), V.data(), W.data(),
                                    D.data(), flag.data());
    });
    std::vector<double> Qd(D.begin() + pp, D.end());
    const double orth = sbo_orth_error(p, 1, Qd.data());
    tap_ok(flag[0] == 1 && flag[1] == 0 && orth <= 16 * p * unit<T>(),
           "Newton-Schulz (%s) %s p=%d: a zero column flagged (%d), the full block not (%d, "
           "orthonormal to %.2g)", how == 1 ? "shared" : "global", pname<T>(), p, flag[0],
           flag[1], orth);
}

/* Mode 1: Q = U of G = Y Y^T, columns by descending eigenvalue. */
template <typename T> static void basis_check(int p)
{
    const size_t pp = (size_t)p * p;
    std::vector<double> Yd, Gd(pp), sv(p);
    std::vector<T> Y, G(pp), U(pp), V(pp), W(pp), sig(p), D(pp, (T)NAN);
    normal(Y, Yd, pp);
    for (int a = 0; a < p; a++)
        for (int b = 0; b < p; b++) {
            double x = 0;
            for (int k = 0; k < p; k++)
                x += Yd[a + k * p] * Yd[b + k * p];
            G[a + b * p] = (T)x;
            Gd[a + b * p] = G[a + b * p];
        }
    int one = 1;
    gpu_emu_launch(1, 1, 64, [&] {
        sbo_jacobi<T>(p, &one, G.data(), U.data(), V.data(), sig.data());
    });
    gpu_emu_launch(1, 1, 64, [&] {
        sbo_product<T>(p, 1, 0, &one, U.data(), V.data(), sig.data(), G.data(), W.data(),
                       D.data());
    });
    double off = 0, prev = INFINITY, big = 0;
    int sorted = 1;
    for (int a = 0; a < p; a++)
        for (int b = 0; b < p; b++) {
            double x = 0;
            for (int r = 0; r < p; r++)
                for (int k = 0; k < p; k++)
                    x += (double)D[r + a * p] * Gd[r + k * p] * (double)D[k + b * p];
            if (a == b) {
                sorted &= x <= prev * (1 + 64 * p * unit<T>());
                prev = x;
                big = tap_worst(big, x);
            } else {
                off = tap_worst(off, std::fabs(x));
            }
        }
    tap_ok(sorted && off <= 64 * p * unit<T>() * big, "initial basis %s p=%d: Q^T G Q "
           "diagonal (%.2g of the largest), descending", pname<T>(), p, off / big);
}

template <typename T> static void all_checks()
{
    energy_update_check<T>(1000, 64);
    ynorm_check<T>(37, 300, 64);
    select_check<T>(500, 167, 5, 5, 64, 8);     /* a piece a chunk */
    select_check<T>(500, 500, 5, 5, 64, 3);     /* the whole order; pieces, the last short */
    threshold_check<T>(37, 5, 40);
    energy_any_check<T>(24, 3, 70, 2);
    gemm_check<T>(21, 30);
    gemm_check<T>(21, 300);             /* M = Y C^T split, K not a chunk multiple */
    gemm_shape_check<T>(70, 9, 40, 16, 3);
    gemm_shape_check<T>(21, 66, 10, 0, 1);  /* K below a chunk */
    gemm_shape_check<T>(13, 9, 290, 0, 3);
    polar_check<T>(16, 2, 16, 0);
    polar_check<T>(12, 2, 7, 0);
    polar_check<T>(16, 2, 16, 1);
    polar_check<T>(13, 1, 13, 2);
    polar_check<T>(16, 1, 16, 2);
    polar_check<T>(13, 1, 13, 1);
    polar_check<T>(12, 1, 5, 2);
    polar_check<T>(12, 1, 6, 1);
    floor_check<T>(16, 3);
    floor_check<T>(13, 3);
    polar_zero_check<T>(12, 1);
    polar_zero_check<T>(13, 2);
    basis_check<T>(12);
}

int main()
{
    uint64_t seed = tap_seed();
    rb_rng_seed(&rng, seed);
    tap_plan(2 * 28);
    tap_diag("seed %llu (RB_TEST_SEED=%llu repeats it)", (unsigned long long)seed,
             (unsigned long long)seed);
    all_checks<float>();
    all_checks<double>();
    return tap_done();
}
