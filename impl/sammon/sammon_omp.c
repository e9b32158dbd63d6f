/* SPDX-License-Identifier: MIT */
/* One Jacobi GD step with OpenMP, as the paper's CPU version: points spread
 * over threads in blocks of SAMMON_OMP_BLOCK, the loops vectorised (the
 * paper compiled with AVX).  On the flat arrays, per block:
 *  1. the squared input distances of the block's points to every x_j, each a
 *     contiguous length-n dot product vectorised over k (omp simd
 *     reduction), with x_j loaded once for the whole block: one sweep of x
 *     through the cache per block rather than per point, 1.8x faster than
 *     point by point at n = 64;
 *  2. per point, the gradient sum vectorised over j with the output
 *     dimension m a compile-time constant (1, 2 or 3), so y's interleaved
 *     coordinates load with shuffles, not gathers; sqrt and division run in
 *     vector lanes.  No branch or select masks the j == p term (either keeps
 *     the loop out of the vector unit under the default -ftrapping-math):
 *     the divisor d* d + TINY is never zero and, for d = 0, gives a finite w
 *     times a zero difference, so j == p and coincident outputs add exactly
 *     0.  TINY is below an ulp of any d* d of data whose distances exceed
 *     1e-10.
 * Accumulators stay in the case's precision (float lanes: twice the width).
 * AVX2 + FMA is picked at run time where the CPU has it.  This file and
 * the typed rows (sammon_omp_rows.c) compile with -fno-math-errno (impl/sammon/local.mk): sqrt never sees a
 * negative here, and its errno check is a branch that would keep the loop
 * out of the vector unit. */
#include <omp.h>
#include <stddef.h>
#include "impl/sammon/sammon_omp.h"

#define BLOCK SAMMON_OMP_BLOCK

/* The rows come compiled for AVX2 + FMA and for the baseline
 * (sammon_omp_rows.c).  AVX-512 is left out on purpose: on the Xeon the
 * benchmarks ran on, its 512-bit horizontal sums made pass 1 slower (8.0 ns
 * a pair against 5.4 with AVX2, n = 64, one thread). */
typedef sammon_omp_rows_fn rows_fn;

static int have_avx2(void)
{
#if SAMMON_OMP_AVX2_CLONE
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
#else
    return 0;
#endif
}

static rows_fn *pick(int f64)
{
#if SAMMON_OMP_AVX2_CLONE
    if (have_avx2())
        return f64 ? sammon_omp_rows_avx2_d : sammon_omp_rows_avx2_f;
#endif
    return f64 ? sammon_omp_rows_base_d : sammon_omp_rows_base_f;
}

const char *sammon_omp_isa(void)
{
    return have_avx2() ? "avx2" : "baseline";
}

void sammon_step_omp(const struct sammon_omp_step *a, int f64, int threads)
{
    rows_fn *rows = pick(f64);
    size_t sz = f64 ? sizeof(double) : sizeof(float);
#pragma omp parallel num_threads(threads)
    {
        char *ds2 = (char *)a->scratch + (size_t)omp_get_thread_num() * BLOCK * a->N * sz;
#pragma omp for schedule(dynamic, 1)
        for (int p0 = 0; p0 < a->N; p0 += BLOCK)
            rows(a, p0, p0 + BLOCK < a->N ? p0 + BLOCK : a->N, ds2);
    }
}
