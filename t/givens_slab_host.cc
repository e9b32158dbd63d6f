/* SPDX-License-Identifier: MIT */
/* The CUDA and HIP fused Givens kernels (kernels/cuda/givens_slab_kernels.cuh
 * on the engine of givens_slab.cuh, with the shear table of
 * givens_lift_table.cuh) run on the CPU through t/gpu_emu.h, where no GPU
 * is, launched in the order and shapes of impl/givens/givens_gpu_fused.cu.
 * In fp32 and fp64, on fresh random angles, for even and odd n, all rows and
 * restricted m, and slots 1 to 16 with one to four column groups (and the
 * wide fp32 backward): the forward's U against Algorithm 1 in fp64 within
 * 4 n eps, the backward's dtheta against givens_check_backward's reference
 * within its 8 n eps; both outputs start as NaN, so an element never
 * written fails.  A slip in the table's layout or signs, the exchange's
 * routing or a barrier fails here before a GPU sees it. */
/* HIP's path through the engine: coefficients staged through registers and
 * __syncthreads for the exchange, where CUDA has cp.async and mbarriers. */
#define RB_GPU_HIP 1
#include "t/gpu_emu.h"
#include "kernels/cuda/givens_slab_kernels.cuh"
#include "t/givens_host.h"

#include <cstdint>
#include <vector>
#include "impl/common/rng.h"
#include "impl/givens/givens.h"
#include "impl/givens/givens_case.h"
#include "t/tap.h"

/* Columns per group as the host code builds the kernels
 * (GIVENS_GPU_FUSED_WT of impl/givens/givens_gpu_state.h). */
template <typename T, bool BWD, int B> static constexpr int wt_of()
{
    return (sizeof(T) == 8 ? 2 : 4) / (BWD && B >= 16 ? 2 : 1);
}

/* The shear table for B slots per thread as lift_launch builds it: the
 * parities and signs, then the coefficients, every output poisoned first. */
template <typename T> struct lift {
    std::vector<unsigned> P;
    std::vector<T> sign;
    std::vector<vec2<T>> cs;
};

template <typename T, int B> static lift<T> lift_table(int n, int m, const std::vector<T> &theta)
{
    const int nt = rb_rr_padded(n), S = nt / 2, nsteps = givens_slab_nsteps(nt, B);
    lift<T> L;
    L.P.assign(givens_lift_parity_words(nt), 0xa5a5a5a5u);
    L.sign.assign((size_t)nt, (T)NAN);
    L.cs.assign((size_t)nsteps * S, vec2<T>{ (T)NAN, (T)NAN });
    gpu_emu_launch(cdiv(nt, GIVENS_LIFT_PARITY_WARPS), 1, GIVENS_LIFT_PARITY_WARPS * 32, [&] {
        givens_lift_parity<T>(n, m, nt, theta.data(), L.P.data(), L.sign.data());
    });
    gpu_emu_launch(cdiv((long long)nsteps * S, AUX_BLOCK), 1, AUX_BLOCK, [&] {
        givens_lift_coeffs<T>(n, m, nt, nsteps, B, givens_slab_per(B, sizeof(vec2<T>)),
                              theta.data(), L.P.data(), L.cs.data());
    });
    return L;
}

template <typename T, int B, int WG, int WT = wt_of<T, false, B>()>
static void forward(int n, int m, uint64_t seed)
{
    struct rb_rng r;
    rb_rng_seed(&r, seed);
    const angles<T> a = random_angles<T>(&r, n, m);
    const int nt = rb_rr_padded(n), S = nt / 2, threads = givens_slab_threads(S, B, WG);
    const lift<T> L = lift_table<T, B>(n, m, a.theta);
    std::vector<T> U((size_t)n * n, (T)NAN);
    gpu_emu_dyn_shared(givens_slab_smem<T, B, WT>(S / B, threads));
    gpu_emu_launch(cdiv(n, WT * WG), 1, (unsigned)threads, [&] {
        givens_slab_forward<T, B, WT, WG>(n, nt, givens_slab_nsteps(nt, B), L.cs.data(),
                                          L.sign.data(), U.data());
    });
    std::vector<double> ref((size_t)n * n);
    givens_forward_seq_d(n, m, a.theta_d.data(), ref.data());
    const double err = max_over_rms(U, ref), tol = 4.0 * n * eps_of<T>();
    tap_ok(err <= tol, "forward %s n=%d m=%d slots=%d cols=%d groups=%d: U vs Algorithm 1, "
           "%.3g <= %.3g", prec_name<T>(), n, m, B, WT * WG, WG, err, tol);
}

/* The backward on Gamma = G X^T and U from Algorithm 1 (fp64, rounded to
 * T): what the real setup hands it, but without the fused forward's error. */
template <typename T, int B, int WG, int WT = wt_of<T, true, B>()>
static void backward(int n, int m, uint64_t seed)
{
    const int r = GIVENS_COTANGENT_RANK;
    struct rb_rng rng;
    rb_rng_seed(&rng, seed);
    const angles<T> a = random_angles<T>(&rng, n, m);
    std::vector<double> G((size_t)n * r), X((size_t)n * r), Ud((size_t)n * n);
    for (size_t k = 0; k < G.size(); k++) {
        G[k] = rb_rng_normal(&rng);
        X[k] = rb_rng_normal(&rng);
    }
    givens_forward_seq_d(n, m, a.theta_d.data(), Ud.data());
    std::vector<T> U(Ud.begin(), Ud.end()), Gamma((size_t)n * n);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            double g = 0;
            for (int k = 0; k < r; k++)
                g += G[(size_t)i * r + k] * X[(size_t)j * r + k];
            Gamma[(size_t)i * n + j] = (T)g;
        }
    const int nt = rb_rr_padded(n), S = nt / 2, threads = givens_slab_threads(S, B, WG);
    /* Zero, as region_backward_fused's memset leaves it: blocks add into it. */
    std::vector<T> dP((size_t)(nt - 1) * S, T(0));
    std::vector<T> dtheta(givens_theta_count(n, m), (T)NAN);
    const lift<T> L = lift_table<T, B>(n, m, a.theta);
    gpu_emu_dyn_shared(givens_slab_backward_smem<T, B, WT, WG>(S));
    gpu_emu_launch(cdiv(n, WT * WG), 1, (unsigned)threads, [&] {
        givens_slab_backward<T, B, WT, WG>(n, nt, givens_slab_nsteps(nt, B), L.cs.data(),
                                           U.data(), Gamma.data(), dP.data());
    });
    gpu_emu_launch(cdiv((long long)(nt - 1) * S, AUX_BLOCK), 1, AUX_BLOCK, [&] {
        givens_slab_backward_finish<T>(n, m, nt, L.P.data(), dP.data(), dtheta.data());
    });
    struct rb_check chk;
    if (givens_check_backward(n, m, a.theta_d.data(), dtheta.data(), prec_of<T>(), G.data(),
                              X.data(), r, &chk)) {
        tap_ok(0, "backward %s n=%d m=%d: givens_check_backward out of memory",
               prec_name<T>(), n, m);
        return;
    }
    tap_ok(chk.pass, "backward %s n=%d m=%d slots=%d cols=%d groups=%d: dtheta vs the "
           "apply-form JVP, %.3g <= %.3g", prec_name<T>(), n, m, B, WT * WG, WG, chk.error,
           chk.tolerance);
}

/* The shapes of one precision: n 8, 13, 16, 31, 64 (S 4, 7, 8, 16, 32 slots,
 * which slots must divide), m = 5 and 20 restricted; every slots the host
 * code builds, one to four column groups where it builds them (slots 8 and
 * 16).  Blocks stay at 32 threads or fewer: each thread is an OS thread. */
template <typename T> static void precision(uint64_t seed)
{
    forward<T, 1, 1>(8, 8, seed);
    forward<T, 1, 1>(13, 13, seed + 1);
    forward<T, 2, 1>(16, 5, seed + 2);
    forward<T, 4, 1>(16, 16, seed + 3);
    forward<T, 8, 2>(16, 16, seed + 4);
    forward<T, 16, 1>(31, 31, seed + 5);
    forward<T, 8, 4>(31, 31, seed + 6);
    forward<T, 1, 1>(64, 64, seed + 7);
    forward<T, 16, 2>(64, 20, seed + 8);
    forward<T, 8, 4>(64, 64, seed + 9);
    backward<T, 1, 1>(8, 8, seed + 10);
    backward<T, 1, 1>(13, 13, seed + 11);
    backward<T, 4, 1>(16, 5, seed + 12);
    backward<T, 8, 4>(16, 16, seed + 13);
    backward<T, 16, 1>(31, 31, seed + 14);
    backward<T, 2, 1>(31, 31, seed + 15);
    backward<T, 8, 2>(64, 64, seed + 16);
    backward<T, 16, 4>(64, 20, seed + 17);
    backward<T, 4, 1>(64, 64, seed + 18);
}

int main(void)
{
    uint64_t seed = tap_seed();
    /* 19 per precision, and the wide fp32 backward twice. */
    tap_plan(2 * 19 + 2);
    tap_diag("seed %llu (RB_TEST_SEED=%llu repeats it)", (unsigned long long)seed,
             (unsigned long long)seed);
    precision<float>(seed);
    precision<double>(seed + 100);
    backward<float, 8, 1, 6>(31, 31, seed + 200);
    backward<float, 8, 1, 6>(64, 20, seed + 201);
    return tap_done();
}
