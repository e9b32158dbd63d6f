/* SPDX-License-Identifier: MIT */
/* Seeded random numbers for data generation: xoshiro256** seeded through
 * splitmix64, so every case is reproducible from the run seed and its key. */
#ifndef RB_RNG_H
#define RB_RNG_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The generator's state; copy it to fork a stream. */
struct rb_rng {
    uint64_t s[4];
};

/* Seed the state from one 64-bit value (any value, zero included). */
void rb_rng_seed(struct rb_rng *r, uint64_t seed);
/* The next 64 random bits. */
uint64_t rb_rng_u64(struct rb_rng *r);
/* A double uniform in [0, 1), 53 random bits. */
double rb_rng_uniform(struct rb_rng *r);
/* A double uniform in [a, b). */
double rb_rng_range(struct rb_rng *r, double a, double b);
/* A standard normal deviate (Box-Muller, no cached second value, so the
 * stream depends only on the number of calls). */
double rb_rng_normal(struct rb_rng *r);

/* A seed of its own for `key` ("givens/theta", "n=256"): the FNV-1a 64 hash
 * of the key mixed with `base` through the splitmix64 finaliser. */
uint64_t rb_seed_derive(uint64_t base, const char *key);

#ifdef __cplusplus
}
#endif

#endif
