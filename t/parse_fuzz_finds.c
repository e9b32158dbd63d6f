/* SPDX-License-Identifier: MIT */
/* Lists the parser once computed past the range of long long on; the first
 * is t/fuzz-corpus/fuzz_parse_list/crash-step-overflow.  Built with
 * --enable-sanitizers, an overflow stops the test. */
#include <limits.h>
#include "harness/error.h"
#include "harness/cli/parse.h"
#include "t/tap.h"

int main(void)
{
    long long v[8];
    char err[200] = "";

    tap_plan(6);
    /* b - step, taken to see whether one more step fits, overflowed. */
    tap_is(rb_parse_list("-9223372036854775807:-9223372036854775806:9223372036854775807",
                         LLONG_MIN, LLONG_MAX, v, 8, err, sizeof err), 1,
           "a step larger than the room below the range: one value");
    tap_ok(v[0] == -LLONG_MAX, "that value is the start");
    tap_is(rb_parse_list("-9223372036854775808:9223372036854775807:9223372036854775807",
                         LLONG_MIN, LLONG_MAX, v, 8, err, sizeof err), 3,
           "the whole range of long long in the largest steps: three values");
    tap_ok(v[0] == LLONG_MIN && v[1] == -1 && v[2] == LLONG_MAX - 1,
           "LLONG_MIN, -1, LLONG_MAX - 1");
    tap_is(rb_parse_list("9223372036854775800:9223372036854775807:2",
                         0, LLONG_MAX, v, 8, err, sizeof err), 4,
           "steps up to the top of the range stop below it");
    tap_is(rb_parse_list("4611686018427387904:9223372036854775807:pow2",
                         1, LLONG_MAX, v, 8, err, sizeof err), 1,
           "doubling from 2^62 stops before it overflows");
    return tap_done();
}
