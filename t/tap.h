/* SPDX-License-Identifier: MIT */
/* A small TAP emitter for the C tests, read by Automake's tap-driver.sh.
 * A test that cannot run here calls tap_skip_all(reason): "1..0 # SKIP", a
 * skip, never a pass.  Output is line-buffered so a crash loses no line. */
#ifndef RB_TAP_H
#define RB_TAP_H

#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static int tap_count_;
static int tap_failed_;

static inline void tap_plan(int n)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    printf("1..%d\n", n);
}

/* Plan nothing and say why; exits 0. */
static inline void tap_skip_all(const char *fmt, ...)
{
    va_list ap;
    setvbuf(stdout, NULL, _IOLBF, 0);
    printf("1..0 # SKIP ");
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    printf("\n");
    exit(0);
}

static inline void tap_diag(const char *fmt, ...)
{
    va_list ap;
    printf("# ");
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    printf("\n");
}

static inline int tap_ok(int cond, const char *fmt, ...)
{
    va_list ap;
    tap_count_++;
    if (!cond)
        tap_failed_++;
    printf("%sok %d - ", cond ? "" : "not ", tap_count_);
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    printf("\n");
    return cond;
}

static inline void tap_skip(const char *fmt, ...)
{
    va_list ap;
    tap_count_++;
    printf("ok %d # SKIP ", tap_count_);
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    printf("\n");
}

/* |got - want| <= tol, NaN never passes; prints both on failure. */
static inline int tap_near(double got, double want, double tol, const char *what)
{
    int ok = fabs(got - want) <= tol;
    if (!tap_ok(ok, "%s", what))
        tap_diag("got %.17g, want %.17g, tolerance %.3g", got, want, tol);
    return ok;
}

/* The larger of a scan's worst so far and the next error, NaN once either
 * is: fmax passes over a NaN, so a scan of outputs poisoned with NaN would
 * read one that was never written as a pass. */
static inline double tap_worst(double worst, double err)
{
    return isnan(worst) || isnan(err) ? NAN : fmax(worst, err);
}

/* Integer equality; prints both on failure. */
static inline int tap_is(long long got, long long want, const char *what)
{
    int ok = got == want;
    if (!tap_ok(ok, "%s", what))
        tap_diag("got %lld, want %lld", got, want);
    return ok;
}

/* The seed of a test's random data: RB_TEST_SEED when set (to repeat a run),
 * else fresh from the clock and the process, drawn at the first call and
 * the same at every later one, so that the seed a test prints repeats all
 * of its data, made seconds apart or not.  Tests print it with tap_diag. */
static inline uint64_t tap_seed(void)
{
    static uint64_t seed;
    static int drawn;
    if (!drawn) {
        const char *s = getenv("RB_TEST_SEED");
        seed = s && *s ? strtoull(s, NULL, 0)
                       : (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 32);
        drawn = 1;
    }
    return seed;
}

/* Exit status for main(): failures are already in the TAP stream. */
static inline int tap_done(void)
{
    return 0;
}

#endif
