/* SPDX-License-Identifier: MIT */
/* The modified variants' pair index (impl/sammon/sammon_pair.h, notes
 * section 3b): sammon_pair_of walks the lower triangle in i-major order for
 * every k of N = 2..200 and of the float-breaking sizes 4609, 5000 and 5794,
 * is exact at the row boundaries (k = T(r) - 1, T(r), T(r) + 1, T(r) =
 * r (r - 1) / 2 the first k of row r) up to N = 2e6 (k ~ 2e12), and
 * sammon_pair_index inverts it. */
#include <stdint.h>
#include "impl/common/rng.h"
#include "impl/sammon/sammon_pair.h"
#include "t/tap.h"

/* Every k < T(N): the pairs come in order (1,0), (2,0), (2,1), ... */
static int exhaustive(int64_t N)
{
    int64_t want_i = 1, want_j = 0, count = sammon_pair_count(N);
    for (int64_t k = 0; k < count; k++) {
        int64_t i, j;
        sammon_pair_of(k, &i, &j);
        if (i != want_i || j != want_j || sammon_pair_index(i, j) != k) {
            tap_diag("N=%lld k=%lld: (%lld, %lld), want (%lld, %lld)", (long long)N,
                     (long long)k, (long long)i, (long long)j, (long long)want_i,
                     (long long)want_j);
            return 0;
        }
        if (++want_j == want_i) {
            want_i++;
            want_j = 0;
        }
    }
    return want_i == N && want_j == 0;
}

static int at(int64_t k, int64_t wi, int64_t wj)
{
    int64_t i, j;
    sammon_pair_of(k, &i, &j);
    if (i == wi && j == wj && sammon_pair_index(i, j) == k)
        return 1;
    tap_diag("k=%lld: (%lld, %lld), want (%lld, %lld)", (long long)k, (long long)i,
             (long long)j, (long long)wi, (long long)wj);
    return 0;
}

/* Row r's (r >= 2) edges: k = T(r) - 1 (the last of row r - 1), T(r),
 * T(r) + 1 and the last of row r. */
static int row_edges(int64_t r)
{
    int64_t t = sammon_pair_index(r, 0);
    return at(t - 1, r - 1, r - 2) && at(t, r, 0) && at(t + 1, r, 1) && at(t + r - 1, r, r - 1);
}

int main(void)
{
    static const int64_t big[] = { 4609, 5000, 5794 };
    static const int64_t tops[] = { 1000, 23171, 65537, 92683, 100000, 1000000, 1999999,
                                    2000000 };
    uint64_t seed = tap_seed();
    struct rb_rng r;
    rb_rng_seed(&r, seed);
    tap_plan(1 + 3 + 8 + 1);
    tap_diag("seed %llu (RB_TEST_SEED=%llu repeats it)", (unsigned long long)seed,
             (unsigned long long)seed);
    int ok = 1;
    for (int64_t N = 2; N <= 200 && ok; N++)
        ok = exhaustive(N);
    tap_ok(ok, "every k of N = 2..200");
    for (int b = 0; b < 3; b++)
        tap_ok(exhaustive(big[b]), "every k of N = %lld (%lld pairs)", (long long)big[b],
               (long long)sammon_pair_count(big[b]));
    /* The last rows of each N, the last k, and the rows where float's
     * sqrt estimate is one off (below a triangular number). */
    for (int b = 0; b < 8; b++) {
        int64_t N = tops[b];
        ok = at(sammon_pair_count(N) - 1, N - 1, N - 2);
        for (int64_t row = N - 1; row >= N - 64 && row >= 2 && ok; row--)
            ok = row_edges(row);
        tap_ok(ok, "N = %lld: last k = %lld and the edges of the last 64 rows", (long long)N,
               (long long)sammon_pair_count(N) - 1);
    }
    ok = 1;
    for (int s = 0; s < 200000 && ok; s++) {
        int64_t row = 2 + (int64_t)(rb_rng_uniform(&r) * (2000000 - 2));
        int64_t j = (int64_t)(rb_rng_uniform(&r) * row);
        ok = row_edges(row) && at(sammon_pair_index(row, j), row, j);
    }
    tap_ok(ok, "200000 random rows below 2e6: edges and a random pair round-trip");
    return tap_done();
}
