/* SPDX-License-Identifier: MIT */
/* The CUDA and HIP Givens kernels besides the fused slab ones run on the
 * CPU through t/gpu_emu.h, where no GPU is: the paper's per-step kernels
 * (givens_paper_forward.cuh, givens_paper_backward.cuh) launched as
 * impl/givens/givens_gpu_launch.cu does, and apply mode on the engine of
 * givens_fused_forward.cuh (givens_fused_apply.cuh, with the rotation table
 * of givens_table.cuh and givens_fused_backward.cuh's finish) launched as
 * impl/givens/givens_gpu_apply.cu does.  In fp32 and fp64, on fresh random
 * angles and data, for even and odd n, all rows and restricted m: the
 * paper's U against Algorithm 1 in fp64 within 4 n eps, its dtheta against
 * givens_check_backward; Y = U X, then dtheta and dX = U^T G_Y, against
 * givens_check_apply and givens_check_apply_backward, at every slots the
 * host code builds, its column widths and batches that leave the last slab
 * partial, on one and two warps.  Every output starts as NaN, so an element
 * never written fails.  A slip in a shuffle's direction, the circle's turn
 * or the warps' boundary exchange fails here before a GPU sees it. */
/* HIP's path through the engine: rotations loaded from the table, where
 * CUDA stages them with cp.async. */
#define RB_GPU_HIP 1
#include "t/gpu_emu.h"
#include "kernels/cuda/givens_fused_apply.cuh"
#include "kernels/cuda/givens_paper_backward.cuh"
#include "kernels/cuda/givens_paper_forward.cuh"
#include "t/givens_host.h"

#include <cstdint>
#include <vector>
#include "impl/common/rng.h"
#include "impl/givens/givens.h"
#include "impl/givens/givens_case.h"
#include "t/tap.h"

/* Rows of a transpose block (TILE_ROWS of impl/givens/givens_gpu_launch.cu)
 * and the apply kernels' launch bound (GIVENS_GPU_FUSED_MAXT), a template
 * argument only here. */
#define TILE_ROWS 8u
#define MAXT 256

/* The row sums' block: the largest power of two not above `block`. */
static unsigned pow2_floor(unsigned block)
{
    unsigned p = 1;
    while (p * 2 <= block)
        p *= 2;
    return p;
}

/* len standard normal draws. */
static std::vector<double> normals(struct rb_rng *r, size_t len)
{
    std::vector<double> v(len);
    for (double &x : v)
        x = rb_rng_normal(r);
    return v;
}

/* The paper's forward: U <- I, then one launch per step, nt-2 down to 0. */
template <typename T> static void paper_forward(int n, int m, unsigned block, uint64_t seed)
{
    struct rb_rng r;
    rb_rng_seed(&r, seed);
    const angles<T> a = random_angles<T>(&r, n, m);
    const int nt = rb_rr_padded(n);
    std::vector<T> U((size_t)n * n, (T)NAN);
    gpu_emu_launch(cdiv((long long)n * n, block), 1, block,
                   [&] { givens_identity<T>(n, U.data()); });
    for (int step = nt - 2; step >= 0; step--)
        gpu_emu_launch(cdiv(n, block), (unsigned)(nt / 2), block, [&] {
            givens_paper_forward_step<T>(n, m, nt, step, a.theta.data(), U.data());
        });
    std::vector<double> ref((size_t)n * n);
    givens_forward_seq_d(n, m, a.theta_d.data(), ref.data());
    const double err = max_over_rms(U, ref), tol = 4.0 * n * eps_of<T>();
    tap_ok(err <= tol, "paper forward %s n=%d m=%d block=%u: U vs Algorithm 1, %.3g <= %.3g",
           prec_name<T>(), n, m, block, err, tol);
}

/* Algorithm 3 on Gamma = G X^T and U from Algorithm 1 (fp64, rounded to
 * T): what the real setup hands it, without a forward's error.  V = U^T and
 * M = Gamma^T, then per step nt-2 ... 0 rotate, fill A, sum its rows. */
template <typename T> static void paper_backward(int n, int m, unsigned block, uint64_t seed)
{
    const int r = GIVENS_COTANGENT_RANK;
    struct rb_rng rng;
    rb_rng_seed(&rng, seed);
    const angles<T> a = random_angles<T>(&rng, n, m);
    const std::vector<double> G = normals(&rng, (size_t)n * r), X = normals(&rng, (size_t)n * r);
    std::vector<double> Ud((size_t)n * n);
    givens_forward_seq_d(n, m, a.theta_d.data(), Ud.data());
    std::vector<T> U(Ud.begin(), Ud.end()), Gamma((size_t)n * n);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            double g = 0;
            for (int k = 0; k < r; k++)
                g += G[(size_t)i * r + k] * X[(size_t)j * r + k];
            Gamma[(size_t)i * n + j] = (T)g;
        }
    const int nt = rb_rr_padded(n), S = nt / 2;
    std::vector<T> V((size_t)n * n, (T)NAN), M((size_t)n * n, (T)NAN);
    std::vector<T> A((size_t)S * n, (T)NAN), dtheta(givens_theta_count(n, m), (T)NAN);
    const gpu_emu_dim3 tblock{ 32, TILE_ROWS, 1 };
    gpu_emu_launch(cdiv(n, 32), cdiv(n, 32), tblock,
                   [&] { givens_transpose<T>(n, U.data(), V.data()); });
    gpu_emu_launch(cdiv(n, 32), cdiv(n, 32), tblock,
                   [&] { givens_transpose<T>(n, Gamma.data(), M.data()); });
    for (int step = nt - 2; step >= 0; step--) {
        gpu_emu_launch(cdiv(n, block), (unsigned)S, block, [&] {
            givens_paper_backward_rotate<T>(n, m, nt, step, a.theta.data(), M.data(), V.data());
        });
        gpu_emu_launch(cdiv(n, block), (unsigned)S, block, [&] {
            givens_paper_backward_set_a<T>(n, m, nt, step, M.data(), V.data(), A.data());
        });
        gpu_emu_launch((unsigned)S, 1, pow2_floor(block), [&] {
            givens_paper_backward_row_sum<T>(n, m, nt, step, A.data(), dtheta.data());
        });
    }
    struct rb_check chk;
    if (givens_check_backward(n, m, a.theta_d.data(), dtheta.data(), prec_of<T>(), G.data(),
                              X.data(), r, &chk)) {
        tap_ok(0, "paper backward %s n=%d m=%d: givens_check_backward out of memory",
               prec_name<T>(), n, m);
        return;
    }
    tap_ok(chk.pass, "paper backward %s n=%d m=%d block=%u: dtheta vs the apply-form JVP, "
           "%.3g <= %.3g", prec_name<T>(), n, m, block, chk.error, chk.tolerance);
}

/* One apply case's data: angles, X and G_Y (n x nb), the (c, s') table. */
template <typename T> struct apply_case {
    int n, m, nt, S, nb;
    angles<T> a;
    std::vector<double> X, GY;
    std::vector<vec2<T>> cs;
};

/* Draw the data and build the table as launch_table does, poisoned first. */
template <typename T> static apply_case<T> apply_draw(int n, int m, int nb, uint64_t seed)
{
    struct rb_rng r;
    rb_rng_seed(&r, seed);
    apply_case<T> c;
    c.n = n;
    c.m = m;
    c.nt = rb_rr_padded(n);
    c.S = c.nt / 2;
    c.nb = nb;
    c.a = random_angles<T>(&r, n, m);
    c.X = normals(&r, (size_t)n * nb);
    c.GY = normals(&r, (size_t)n * nb);
    c.cs.assign((size_t)(c.nt - 1) * c.S, vec2<T>{ (T)NAN, (T)NAN });
    gpu_emu_launch(cdiv((long long)(c.nt - 1) * c.S, AUX_BLOCK), 1, AUX_BLOCK, [&] {
        givens_rotation_table<T>(n, m, c.nt, c.a.theta.data(), c.cs.data());
    });
    return c;
}

/* Y = U X by the apply kernel at B slots per thread, W columns per block. */
template <typename T, int B, int W> static std::vector<T> apply_y(const apply_case<T> &c)
{
    const std::vector<T> X(c.X.begin(), c.X.end());
    std::vector<T> Y((size_t)c.n * c.nb, (T)NAN);
    const int threads = givens_fused_threads(c.S, B);
    gpu_emu_dyn_shared(givens_fused_smem<T, B>(threads));
    gpu_emu_launch(cdiv(c.nb, W), 1, (unsigned)threads, [&] {
        givens_fused_apply<T, B, W, MAXT>(c.n, c.nt, c.nb, c.cs.data(), X.data(), Y.data());
    });
    return Y;
}

template <typename T, int B, int W>
static void apply_forward(int n, int m, int nb, uint64_t seed)
{
    const apply_case<T> c = apply_draw<T>(n, m, nb, seed);
    const std::vector<T> Y = apply_y<T, B, W>(c);
    struct rb_check chk;
    if (givens_check_apply(n, m, c.a.theta_d.data(), c.X.data(), Y.data(), nb, prec_of<T>(),
                           &chk)) {
        tap_ok(0, "apply forward %s n=%d m=%d: givens_check_apply out of memory",
               prec_name<T>(), n, m);
        return;
    }
    tap_ok(chk.pass, "apply forward %s n=%d m=%d batch=%d slots=%d cols=%d threads=%d: "
           "Y vs U X, %.3g <= %.3g", prec_name<T>(), n, m, nb, B, W,
           givens_fused_threads(c.S, B), chk.error, chk.tolerance);
}

/* The backward on Y from the apply forward, as the real setup forms it:
 * dP <- 0, one upward sweep, then the angles' order and signs. */
template <typename T, int B, int W>
static void apply_backward(int n, int m, int nb, uint64_t seed)
{
    const apply_case<T> c = apply_draw<T>(n, m, nb, seed);
    const std::vector<T> Y = apply_y<T, B, W>(c), GY(c.GY.begin(), c.GY.end());
    /* Zero, as region_backward's memset leaves it: blocks add into it. */
    std::vector<T> dP((size_t)(c.nt - 1) * c.S, T(0));
    std::vector<T> dtheta(givens_theta_count(n, m), (T)NAN), dX((size_t)n * nb, (T)NAN);
    const int threads = givens_fused_threads(c.S, B);
    gpu_emu_dyn_shared(givens_fused_smem<T, B>(threads));
    gpu_emu_launch(cdiv(nb, W), 1, (unsigned)threads, [&] {
        givens_fused_apply_backward<T, B, W, MAXT>(n, c.nt, nb, c.cs.data(), Y.data(), GY.data(),
                                                   dP.data(), dX.data());
    });
    gpu_emu_launch(cdiv((long long)(c.nt - 1) * c.S, AUX_BLOCK), 1, AUX_BLOCK, [&] {
        givens_fused_backward_finish<T>(n, m, c.nt, dP.data(), dtheta.data());
    });
    struct rb_check chk;
    if (givens_check_apply_backward(n, m, c.a.theta_d.data(), c.X.data(), c.GY.data(),
                                    dtheta.data(), dX.data(), nb, prec_of<T>(), &chk)) {
        tap_ok(0, "apply backward %s n=%d m=%d: givens_check_apply_backward out of memory",
               prec_name<T>(), n, m);
        return;
    }
    tap_ok(chk.pass, "apply backward %s n=%d m=%d batch=%d slots=%d cols=%d threads=%d: "
           "dtheta and dX vs the JVP, %.3g <= %.3g", prec_name<T>(), n, m, nb, B, W, threads,
           chk.error, chk.tolerance);
}

/* The shapes of one precision.  The paper's kernels (three launches a step
 * backward, so kept small): n 8, 13, 16, 31, m = 5 restricted, blocks of
 * 32 (the axis' least) and 64 (its default), and 48, whose row sums take
 * 32.  Apply mode: slots 1, 2, 4, 8 where they divide S (n 8, 13, 31, 64,
 * N2: S 4, 7, 16, 32, 40 or 72), cols 2 and, in f32, 4, batches of odd
 * widths.  N2 at one slot is two warps, the second with 8 threads of slots
 * and the rest idle: within two warps the only shape whose boundary values
 * cross warps through shared memory and whose second warp shuffles values
 * that count. */
static constexpr int N2 = 2 * RB_WARP + 15;

template <typename T> static void precision(uint64_t seed)
{
    paper_forward<T>(8, 8, 32, seed);
    paper_forward<T>(13, 13, 64, seed + 1);
    paper_forward<T>(16, 5, 48, seed + 2);
    paper_forward<T>(31, 31, 32, seed + 3);
    paper_backward<T>(8, 8, 32, seed + 4);
    paper_backward<T>(13, 13, 48, seed + 5);
    paper_backward<T>(16, 5, 64, seed + 6);
    paper_backward<T>(31, 31, 32, seed + 7);
    apply_forward<T, 1, 2>(8, 8, 5, seed + 10);
    apply_forward<T, 4, 2>(8, 8, 3, seed + 11);
    apply_forward<T, 1, 2>(13, 13, 7, seed + 12);
    apply_forward<T, 2, 2>(31, 31, 9, seed + 13);
    apply_forward<T, 8, 2>(31, 31, 1, seed + 14);
    apply_forward<T, 4, 2>(64, 20, 7, seed + 15);
    apply_forward<T, 8, 2>(64, 64, 5, seed + 16);
    apply_forward<T, 1, 2>(N2, N2, 3, seed + 17);
    apply_backward<T, 1, 2>(8, 8, 5, seed + 20);
    apply_backward<T, 2, 2>(8, 8, 3, seed + 21);
    apply_backward<T, 1, 2>(13, 13, 7, seed + 22);
    apply_backward<T, 4, 2>(31, 31, 9, seed + 23);
    apply_backward<T, 8, 2>(31, 31, 3, seed + 24);
    apply_backward<T, 2, 2>(64, 20, 7, seed + 25);
    apply_backward<T, 8, 2>(64, 64, 5, seed + 26);
    apply_backward<T, 1, 2>(N2, N2, 3, seed + 27);
}

/* The f32-only width: four columns per block. */
static void wide(uint64_t seed)
{
    apply_forward<float, 2, 4>(31, 31, 10, seed);
    apply_forward<float, 1, 4>(N2, (N2 + 1) / 2, 5, seed + 1);
    apply_backward<float, 4, 4>(64, 64, 6, seed + 2);
    apply_backward<float, 1, 4>(N2, N2, 5, seed + 3);
}

int main(void)
{
    uint64_t seed = tap_seed();
    /* 24 per precision, and 4 of f32 at four columns. */
    tap_plan(2 * 24 + 4);
    tap_diag("seed %llu (RB_TEST_SEED=%llu repeats it)", (unsigned long long)seed,
             (unsigned long long)seed);
    precision<float>(seed);
    precision<double>(seed + 100);
    wide(seed + 200);
    return tap_done();
}
