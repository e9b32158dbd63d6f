/* SPDX-License-Identifier: MIT */
/* The embedding engine's resident map on CUDA and HIP devices
 * (kernels/cuda/sammon_step.cuh) run on the CPU through t/gpu_emu.h:
 *  - sammon_map_to_float gives (float)(y / scale) of every coordinate,
 *    exactly (the scale is a power of two);
 *  - sammon_fixed_step, newton and GD, 2 and 3 dimensions, against the
 *    host's path: sammon_engine_derivatives, then the step the driver takes
 *    (y - mf g / |h|, no move where h is 0; y - alpha g).  Every operation
 *    is one correctly rounded double operation on both sides, so the maps
 *    agree to the last bit unless a compiler fuses a multiply into the
 *    subtraction; the check allows that one rounding, 2^-52 (|y| + |move|),
 *    and its float map must be (float)(y / scale) of its own y exactly.
 *    The step writes a second map and leaves the first as it was.  Newton
 *    also from the sums of the pass without the coinciding test (C_q and
 *    D, with each point's sum of 1/d*: impl/sammon/sammon_sums.h).
 * Random sums on a fresh seed, a few points given H_0 = 0 so that h_0 is
 * 0; the outputs start as NaN, so a coordinate never written fails. */
#include "t/gpu_emu.h"
#include "kernels/cuda/sammon_step.cuh"

#include <cmath>
#include <cstdio>
#include <vector>
#include "impl/common/rng.h"
#include "impl/sammon/sammon_engine.h"
#include "t/tap.h"

#define THREADS 256

static void step_case(int N, int m, int newton, int with_rsum, uint64_t seed)
{
    const int K = SAMMON_ENGINE_SUMS(m);
    const double c = 3.0e4, scale = 64.0, mf = 0.3, alpha = 0.7;
    std::vector<float> sums((size_t)N * K), yf((size_t)N * m, NAN);
    std::vector<double> y((size_t)N * m), g((size_t)N * m), h((size_t)N * m);
    std::vector<double> y_new((size_t)N * m, NAN);
    std::vector<float> rsum((size_t)N);
    struct rb_rng r;
    rb_rng_seed(&r, seed);
    for (auto &v : sums)
        v = (float)(2.0 * rb_rng_uniform(&r) - 1.0) * 100.0f;
    for (auto &v : rsum)
        v = (float)rb_rng_uniform(&r) * 100.0f;
    const float *rs = with_rsum ? rsum.data() : NULL;
    for (auto &v : y)
        v = (rb_rng_uniform(&r) - 0.5) * 500.0;
    for (int p = 0; p < N; p += 17)         /* h_0 = 0: H_0 = 0, or D - R - C_0 = 0 */
        if (with_rsum)
            sums[(size_t)p * K + m] = sums[(size_t)p * K + 2 * m - 1] = rsum[(size_t)p] = 0.0f;
        else
            sums[(size_t)p * K + m] = 0.0f;
    const std::vector<double> y0(y);
    std::vector<double> want(y);
    sammon_engine_derivatives(N, m, sums.data(), rs, c, scale, g.data(),
                              newton ? h.data() : NULL);
    int zeros = 0;
    for (size_t k = 0; k < want.size(); k++) {
        zeros += newton && h[k] == 0.0;
        want[k] -= newton ? (h[k] != 0.0 ? mf * g[k] / fabs(h[k]) : 0.0) : alpha * g[k];
    }
    gpu_emu_launch((N + THREADS - 1) / THREADS, 1, THREADS, [&] {
        sammon_fixed_step(N, m, sums.data(), rs, -2.0 / c, c * scale, newton, mf, alpha,
                          1.0 / scale, y.data(), y_new.data(), yf.data());
    });
    double worst = 0.0;
    int float_bad = 0, moved = 0;
    for (size_t k = 0; k < want.size(); k++) {
        const double tol = 0x1.0p-52 * (std::fabs(want[k]) + std::fabs(y0[k] - want[k]));
        const double err = std::fabs(y_new[k] - want[k]);
        worst = tap_worst(worst, tol > 0 ? err / tol : err);
        float_bad += !(yf[k] == (float)(y_new[k] / scale));
        moved += y[k] != y0[k];
    }
    tap_ok(worst <= 1.0 && float_bad == 0 && moved == 0 && (!newton || zeros > 0),
           "fixed step, %s%s, N=%d m=%d: maps within %.3g of one rounding, %d float "
           "coordinates off, %d of the first map changed, %d with h = 0",
           newton ? "newton" : "gd", with_rsum ? " from C and D" : "", N, m, worst, float_bad,
           moved, zeros);
}

static void to_float_case(int len, uint64_t seed)
{
    std::vector<double> y((size_t)len);
    std::vector<float> yf((size_t)len, NAN);
    struct rb_rng r;
    rb_rng_seed(&r, seed);
    for (auto &v : y)
        v = (rb_rng_uniform(&r) - 0.5) * 1e3;
    gpu_emu_launch((len + THREADS - 1) / THREADS, 1, THREADS,
                   [&] { sammon_map_to_float(len, y.data(), 1.0 / 128.0, yf.data()); });
    int bad = 0;
    for (int k = 0; k < len; k++)
        bad += !(yf[k] == (float)(y[k] / 128.0));
    tap_ok(bad == 0, "map to float, %d coordinates: %d off", len, bad);
}

int main(void)
{
    const uint64_t seed = tap_seed();
    tap_plan(11);
    to_float_case(1001, seed);
    for (int m = 2; m <= 3; m++) {
        for (int newton = 0; newton <= 1; newton++) {
            step_case(300, m, newton, 0, seed + (uint64_t)(2 * m + newton));
            step_case(1000, m, newton, 0, seed + 10 + (uint64_t)(2 * m + newton));
        }
        step_case(1000, m, 1, 1, seed + 20 + (uint64_t)m);
    }
    return tap_done();
}
