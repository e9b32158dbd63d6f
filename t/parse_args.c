/* SPDX-License-Identifier: MIT */
/* Strict parsing of numbers and lists: every malformed input is refused. */
#include <string.h>
#include "harness/error.h"
#include "harness/cli/parse.h"
#include "t/tap.h"

static int refused(const char *s, long long min, long long max)
{
    long long v[8];
    char err[200] = "";
    int rc = rb_parse_list(s, min, max, v, 8, err, sizeof err);
    if (rc >= 0 || !err[0])
        tap_diag("'%s' gave %d, message '%s'", s, rc, err);
    return rc == RB_EINVAL && err[0];
}

int main(void)
{
    long long v[64], x;
    char err[200];
    tap_plan(24);

    tap_is(rb_parse_list("256,512,1024", 2, 65536, v, 64, err, sizeof err), 3, "comma list");
    tap_ok(v[0] == 256 && v[1] == 512 && v[2] == 1024, "comma list values");
    tap_is(rb_parse_list("64:1024:pow2", 1, 1024, v, 64, err, sizeof err), 5, "pow2 range");
    tap_ok(v[0] == 64 && v[4] == 1024, "pow2 range ends included");
    tap_is(rb_parse_list("20:1120:220", 2, 65536, v, 64, err, sizeof err), 6, "stepped range");
    tap_ok(v[5] == 1120, "stepped range reaches its end");
    tap_is(rb_parse_list("3:5", 1, 10, v, 64, err, sizeof err), 3, "unit range");
    tap_is(rb_parse_list("1,4:6", 1, 10, v, 64, err, sizeof err), 4, "mixed list");

    tap_ok(refused("0", 2, 100), "zero below the range");
    tap_ok(refused("-5", 2, 100), "negative");
    tap_ok(refused("abc", 2, 100), "not a number");
    tap_ok(refused("12x", 2, 100), "trailing garbage");
    tap_ok(refused("99999999999999999999999", 2, 100), "overflow");
    tap_ok(refused("", 2, 100), "empty");
    tap_ok(refused("4,,8", 2, 100), "empty item");
    tap_ok(refused("4,", 2, 100), "trailing comma");
    tap_ok(refused(" 4", 2, 100), "leading space");
    tap_ok(refused("8:4", 2, 100), "empty range");
    tap_ok(refused("1:2:3:4", 1, 100), "too many colons");
    tap_ok(refused("2:100", 2, 100), "more values than room");
    tap_ok(refused("4:8:0", 2, 100), "zero step");

    tap_is(rb_parse_ll("9223372036854775807", 0, 0x7fffffffffffffffLL, &x, err, sizeof err), 0,
           "largest value accepted");
    double s;
    tap_is(rb_parse_seconds("0.5", &s, err, sizeof err), 0, "seconds");
    tap_is(rb_parse_seconds("-1", &s, err, sizeof err), RB_EINVAL, "negative seconds refused");
    return tap_done();
}
