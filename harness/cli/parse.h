/* SPDX-License-Identifier: MIT */
/* Strict parsing of command-line numbers and lists. */
#ifndef RB_PARSE_H
#define RB_PARSE_H

#include <stddef.h>

/* Parse a whole decimal integer in [min, max].  0, or RB_EINVAL with a message
 * in err ("'12x' is not a number", "0 is out of range 2..65536"). */
int rb_parse_ll(const char *s, long long min, long long max, long long *out,
                char *err, size_t errlen);

/* Parse a comma list "256,512,1024" or a range "a:b" (step 1), "a:b:s"
 * (step s) or "a:b:pow2" (doubling) into at most cap values in [min, max].
 * Returns the count (>= 1), or RB_EINVAL with a message in err. */
int rb_parse_list(const char *s, long long min, long long max, long long *out,
                  size_t cap, char *err, size_t errlen);

/* Parse a duration in seconds ("0.5", "15"); > 0.  0 or RB_EINVAL. */
int rb_parse_seconds(const char *s, double *out, char *err, size_t errlen);

#endif
