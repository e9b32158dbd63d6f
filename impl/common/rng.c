/* SPDX-License-Identifier: MIT */
/* xoshiro256** (Blackman and Vigna) seeded by splitmix64, and key-derived seeds. */
#include <math.h>
#include "impl/common/rng.h"

static uint64_t splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static uint64_t rotl(uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}

void rb_rng_seed(struct rb_rng *r, uint64_t seed)
{
    /* splitmix64 never yields four zero words, the one state xoshiro must avoid. */
    for (int k = 0; k < 4; k++)
        r->s[k] = splitmix64(&seed);
}

uint64_t rb_rng_u64(struct rb_rng *r)
{
    uint64_t *s = r->s;
    uint64_t result = rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

double rb_rng_uniform(struct rb_rng *r)
{
    return (double)(rb_rng_u64(r) >> 11) * 0x1.0p-53;
}

double rb_rng_range(struct rb_rng *r, double a, double b)
{
    return a + (b - a) * rb_rng_uniform(r);
}

double rb_rng_normal(struct rb_rng *r)
{
    /* 1 - u lies in (0, 1], so the logarithm is finite. */
    double u1 = 1.0 - rb_rng_uniform(r);
    double u2 = rb_rng_uniform(r);
    return sqrt(-2.0 * log(u1)) * cos(6.283185307179586 * u2);
}

uint64_t rb_seed_derive(uint64_t base, const char *key)
{
    uint64_t h = 0xcbf29ce484222325ULL;
    for (const unsigned char *p = (const unsigned char *)key; *p; p++) {
        h ^= *p;
        h *= 0x100000001b3ULL;
    }
    uint64_t x = base ^ h;
    return splitmix64(&x);
}
