/* SPDX-License-Identifier: MIT */
/* The CPU's ceilings for the roofline: a STREAM-like copy and an FMA-bound
 * loop, over the OpenMP threads the backend uses. */
#include <config.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "harness/backend/cpu.h"
#include "harness/run/ceiling.h"
#include "harness/error.h"
#include "harness/run/timer.h"

/* Each array 128 MiB, or the last-level cache's size where that is larger
 * (some server CPUs hold 320 MB), up to 1 GiB: the two together are past the
 * cache, and small enough for three copies to take a fraction of a second. */
#define COPY_MIN_BYTES ((size_t)128 << 20)
#define COPY_MAX_BYTES ((size_t)1 << 30)
#define REPEATS 3
/* Each FMA timing runs at least this long, so that starting the threads
 * is noise. */
#define FMA_MIN_MS 25.0

/* The copy's bytes read plus written per second, best of REPEATS, in 1e9. */
static double copy_rate(int threads, double *a, double *b, size_t n)
{
    double best = INFINITY;

    (void)threads;              /* unused without OpenMP */
    for (int r = 0; r < REPEATS; r++) {
        uint64_t t0 = rb_now_ns();
#pragma omp parallel for schedule(static) num_threads(threads)
        for (size_t i = 0; i < n; i++)
            b[i] = a[i];
        double ms = rb_ms_since(t0);
        if (ms < best)
            best = ms;
    }
    return 2.0 * (double)(n * sizeof *a) / (best * 1e-3) * 1e-9;
}

/* One thread's FMA loop: ACC independent accumulator vectors of VBYTES
 * bytes, each acc <- acc * a + b, so a chain waits only on itself.  ACC
 * covers the FMA latency times the units (4 cycles x 2 on current x86)
 * within the register file: 24 of the 32 zmm, 12 of the 16 ymm or xmm.
 * The build compiles in gnu11, so a * b + c contracts to one FMA where the
 * target has it (the baseline's multiply and add count the same 2 flops);
 * the chains are unrolled so the accumulators stay in registers.
 * Returns the lanes' sum so the work cannot be dropped. */
#define FMA_LOOP(fname, isa, T, VBYTES, ACC)                                   \
    typedef T fname##_vec __attribute__((vector_size(VBYTES)));                \
    isa static double fname(long iters, T seed)                                \
    {                                                                          \
        fname##_vec acc[ACC], zero = { 0 };                                    \
        fname##_vec a = zero + (T)0.999999, b = zero + (T)1e-6;                \
        double sum = 0;                                                        \
        for (int k = 0; k < ACC; k++)                                          \
            for (size_t l = 0; l < VBYTES / sizeof(T); l++)                    \
                acc[k][l] = seed + (T)(k + (int)l);                            \
        for (long it = 0; it < iters; it++) {                                  \
            _Pragma("GCC unroll 32")                                           \
            for (int k = 0; k < ACC; k++)                                      \
                acc[k] = acc[k] * a + b;                                       \
        }                                                                      \
        for (int k = 0; k < ACC; k++)                                          \
            for (size_t l = 0; l < VBYTES / sizeof(T); l++)                    \
                sum += (double)acc[k][l];                                      \
        return sum;                                                            \
    }

#define ISA_AVX512 __attribute__((target("avx512f,fma")))
#define ISA_AVX2 __attribute__((target("avx2,fma")))
#define ISA_BASE

FMA_LOOP(fma_f_avx512, ISA_AVX512, float, 64, 24)
FMA_LOOP(fma_d_avx512, ISA_AVX512, double, 64, 24)
FMA_LOOP(fma_f_avx2, ISA_AVX2, float, 32, 12)
FMA_LOOP(fma_d_avx2, ISA_AVX2, double, 32, 12)
FMA_LOOP(fma_f_base, ISA_BASE, float, 16, 12)
FMA_LOOP(fma_d_base, ISA_BASE, double, 16, 12)

/* The widest loop this CPU runs, and its flops per iteration. */
struct fma_isa {
    const char *name;
    double (*f)(long, float);
    double (*d)(long, double);
    double flops_f, flops_d;        /* ACC x lanes x 2 */
};

static const struct fma_isa isas[] = {
    { "avx512", fma_f_avx512, fma_d_avx512, 24 * 16 * 2, 24 * 8 * 2 },
    { "avx2", fma_f_avx2, fma_d_avx2, 12 * 8 * 2, 12 * 4 * 2 },
    { "baseline", fma_f_base, fma_d_base, 12 * 4 * 2, 12 * 2 * 2 },
};

static const struct fma_isa *pick_isa(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("fma"))
        return &isas[0];
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
        return &isas[1];
#endif
    return &isas[2];
}

/* Every thread runs the loop `iters` times; the region's time in ms.  sink
 * keeps the results alive. */
static double fma_time(const struct fma_isa *isa, int f64, int threads, long iters,
                       volatile double *sink)
{
    double total = 0;
    uint64_t t0 = rb_now_ns();

    (void)threads;              /* unused without OpenMP */
#pragma omp parallel num_threads(threads) reduction(+ : total)
    total += f64 ? isa->d(iters, 1.0) : isa->f(iters, 1.0f);
    double ms = rb_ms_since(t0);
    *sink += total;
    return ms;
}

/* GFLOP/s of the loop on all threads: iterations doubled until one timing
 * reaches FMA_MIN_MS, then the best of REPEATS at that count. */
static double fma_rate(const struct fma_isa *isa, int f64, int threads)
{
    volatile double sink = 0;
    long iters = 1L << 14;
    double best;

    while ((best = fma_time(isa, f64, threads, iters, &sink)) < FMA_MIN_MS && iters < (1L << 40))
        iters *= 2;
    for (int r = 1; r < REPEATS; r++) {
        double ms = fma_time(isa, f64, threads, iters, &sink);
        if (ms < best)
            best = ms;
    }
    return (f64 ? isa->flops_d : isa->flops_f) * (double)iters * threads / (best * 1e-3) * 1e-9;
}

static size_t copy_bytes(void)
{
    size_t bytes = COPY_MIN_BYTES;
#ifdef _SC_LEVEL3_CACHE_SIZE
    long llc = sysconf(_SC_LEVEL3_CACHE_SIZE);
    if (llc > 0 && (size_t)llc > bytes)
        bytes = (size_t)llc;
#endif
    return bytes < COPY_MAX_BYTES ? bytes : COPY_MAX_BYTES;
}

int rb_ceiling_cpu(int threads, struct rb_ceiling *out)
{
    const struct fma_isa *isa = pick_isa();
    size_t bytes = copy_bytes(), n = bytes / sizeof(double);
    double *a = malloc(bytes), *b = malloc(bytes);
    int status = 0;

    rb_ceiling_clear(out);
    snprintf(out->device, sizeof out->device, "%s", rb_cpu_name());
    if (threads < 1)
        threads = 1;
    if (!a || !b) {
        rb_ceiling_fail(out, "copy: no memory for 2 x %zu MiB", bytes >> 20);
        status = RB_ENOMEM;
    } else {
        /* First touch by the threads that copy, so pages sit near them. */
#pragma omp parallel for schedule(static) num_threads(threads)
        for (size_t i = 0; i < n; i++) {
            a[i] = (double)i;
            b[i] = 0;
        }
        out->copy_gbytes_per_s = copy_rate(threads, a, b, n);
    }
    free(a);
    free(b);
    out->fp32_gflops = fma_rate(isa, 0, threads);
    out->fp64_gflops = fma_rate(isa, 1, threads);
    snprintf(out->method, sizeof out->method,
             "%d thread%s; copy 2 x %zu MiB, best of %d; FMA loop (%s, independent chains "
             "per thread), best of %d, >= %.0f ms each", threads, threads == 1 ? "" : "s",
             bytes >> 20, REPEATS, isa->name, REPEATS, FMA_MIN_MS);
    return status;
}
