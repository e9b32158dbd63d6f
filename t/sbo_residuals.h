/* SPDX-License-Identifier: MIT */
/* Residuals for the tests of the worst-W selection's sort: a quarter on a
 * coarse grid (ties, negatives), a quarter +0 or -0 (equal, so they tie),
 * a quarter with full mantissas over forty binary orders of magnitude of
 * either sign (every byte of the sort key differs), a quarter normal;
 * rounded to float when f32, so that the device sorts exactly these. */
#ifndef RB_T_SBO_RESIDUALS_H
#define RB_T_SBO_RESIDUALS_H

#include <math.h>
#include "impl/common/rng.h"

static inline double sbo_test_residual(struct rb_rng *rng, int f32)
{
    const unsigned long long u = rb_rng_u64(rng);
    double v;
    switch (u % 4) {
    case 0:
        v = (double)(u / 4 % 64) / 8 - 1;
        break;
    case 1:
        v = u / 4 % 2 ? -0.0 : 0.0;
        break;
    case 2:
        v = ldexp(rb_rng_normal(rng), (int)(u / 4 % 41) - 20);
        break;
    default:
        v = rb_rng_normal(rng);
    }
    return f32 ? (double)(float)v : v;
}

#endif
