/* SPDX-License-Identifier: MIT */
/* What the tests of the CUDA and HIP Givens kernels on the CPU
 * (t/givens_slab_host.cc, t/givens_apply_host.cc) share: their precision's
 * epsilon and name, fresh angles, and U's error as impl/givens/givens_check.c
 * measures it.  After t/gpu_emu.h and the kernels. */
#ifndef RB_T_GIVENS_HOST_H
#define RB_T_GIVENS_HOST_H

#include <cmath>
#include <vector>
#include "harness/variant.h"
#include "impl/common/rng.h"
#include "impl/givens/givens.h"

/* Threads of the table and finishing kernels (AUX_BLOCK of
 * impl/givens/givens_gpu_launch.cu and givens_gpu_apply.cu); the tests'
 * grids, far below those files' GRID_CAP, cover the work in one turn of the
 * grid-stride loops. */
#define AUX_BLOCK 256u

template <typename T> using vec2 = typename givens_vec2<T>::type;

static unsigned cdiv(long long a, long long b)
{
    return (unsigned)((a + b - 1) / b);
}

template <typename T> static double eps_of()
{
    return sizeof(T) == sizeof(float) ? 0x1.0p-23 : 0x1.0p-52;
}

template <typename T> static enum rb_prec prec_of()
{
    return sizeof(T) == sizeof(float) ? RB_PREC_F32 : RB_PREC_F64;
}

template <typename T> static const char *prec_name()
{
    return rb_prec_name(prec_of<T>());
}

/* The angles in T, and exactly those in fp64. */
template <typename T> struct angles {
    std::vector<T> theta;
    std::vector<double> theta_d;
};

template <typename T> static angles<T> random_angles(struct rb_rng *r, int n, int m)
{
    angles<T> a;
    for (size_t e = 0; e < givens_theta_count(n, m); e++) {
        a.theta.push_back((T)rb_rng_range(r, -M_PI, M_PI));
        a.theta_d.push_back((double)a.theta.back());
    }
    return a;
}

/* max |got - want| over the RMS of want, as impl/givens/givens_check.c
 * measures U; NaN where got holds one. */
template <typename T> static double max_over_rms(const std::vector<T> &got,
                                                 const std::vector<double> &want)
{
    double worst = 0, sq = 0;
    for (size_t k = 0; k < want.size(); k++) {
        const double d = std::fabs((double)got[k] - want[k]);
        if (std::isnan(d))
            return NAN;
        worst = std::fmax(worst, d);
        sq += want[k] * want[k];
    }
    return worst / std::sqrt(sq / (double)want.size());
}

#endif
