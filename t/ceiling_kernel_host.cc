/* SPDX-License-Identifier: MIT */
/* The roofline's FMA kernel of CUDA and HIP (kernels/cuda/rb_ceiling.cuh)
 * on the CPU through t/gpu_emu.h: every thread's sum of its chains, in
 * float and double, on a grid whose blocks are not whole warps, exactly
 * as the same fused multiply-adds give it on the host (outputs poisoned
 * first).  What the probe counts as flops is only worth it if each thread
 * runs them all and stores the result. */
#include "t/gpu_emu.h"
#include "kernels/cuda/rb_ceiling.cuh"

#include <cmath>
#include <vector>
#include "t/tap.h"

template <typename T> static void check(const char *name, unsigned blocks, unsigned block)
{
    const int iters = 37;
    const T a = (T)0.999, b = (T)0.25;
    std::vector<T> out(blocks * block, (T)NAN);
    gpu_emu_launch(blocks, 1, block, [&] { rb_ceiling_fma<T>(iters, a, b, out.data()); });
    int bad = 0;
    for (unsigned i = 0; i < out.size(); i++) {
        T sum = 0;
        for (int k = 0; k < RB_CEILING_CHAINS; k++) {
            T acc = (T)i + (T)k;
            for (int it = 0; it < iters; it++)
                acc = std::fma(acc, a, b);
            sum += acc;
        }
        bad += !(out[i] == sum);
    }
    tap_ok(bad == 0, "rb_ceiling_fma %s, %u blocks of %u: %d of %zu threads differ", name, blocks,
           block, bad, out.size());
}

int main(void)
{
    tap_plan(2);
    check<float>("f32", 3, 40);
    check<double>("f64", 2, 96);
    return tap_done();
}
