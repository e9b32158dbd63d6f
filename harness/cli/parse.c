/* SPDX-License-Identifier: MIT */
/* Strict parsing of command-line numbers and lists: every character must
 * belong to the number, and every value must lie in its axis's range. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "harness/error.h"
#include "harness/cli/parse.h"

int rb_parse_ll(const char *s, long long min, long long max, long long *out,
                char *err, size_t errlen)
{
    char *end;
    if (!s || !*s || isspace((unsigned char)*s)) {
        snprintf(err, errlen, "'%s' is not a whole number", s ? s : "");
        return RB_EINVAL;
    }
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (*end != '\0') {
        snprintf(err, errlen, "'%s' is not a whole number", s);
        return RB_EINVAL;
    }
    if (errno == ERANGE || v < min || v > max) {
        snprintf(err, errlen, "'%s' is out of range (%lld..%lld)", s, min, max);
        return RB_EINVAL;
    }
    *out = v;
    return 0;
}

/* One token "a:b[:s|:pow2]" or "a" into out[*n...]. */
static int parse_item(char *tok, long long min, long long max, long long *out,
                      size_t cap, size_t *n, char *err, size_t errlen)
{
    char *parts[3] = { tok, NULL, NULL };
    int np = 1;
    for (char *p = tok; *p; p++)
        if (*p == ':') {
            if (np == 3) {
                snprintf(err, errlen, "'%s' has too many ':' (use a:b or a:b:step)", tok);
                return RB_EINVAL;
            }
            *p = '\0';
            parts[np++] = p + 1;
        }
    long long a, b, step = 1;
    int pow2 = 0;
    if (rb_parse_ll(parts[0], min, max, &a, err, errlen))
        return RB_EINVAL;
    b = a;
    if (np >= 2 && rb_parse_ll(parts[1], min, max, &b, err, errlen))
        return RB_EINVAL;
    if (np == 3) {
        if (strcmp(parts[2], "pow2") == 0)
            pow2 = 1;
        else if (rb_parse_ll(parts[2], 1, max > 1 ? max : 1, &step, err, errlen))
            return RB_EINVAL;
    }
    if (b < a) {
        snprintf(err, errlen, "range %lld:%lld is empty", a, b);
        return RB_EINVAL;
    }
    if (pow2 && a <= 0) {
        snprintf(err, errlen, "a :pow2 range must start above 0");
        return RB_EINVAL;
    }
    for (long long v = a; v <= b;) {
        if (*n == cap) {
            snprintf(err, errlen, "too many values (at most %zu)", cap);
            return RB_EINVAL;
        }
        out[(*n)++] = v;
        /* Stop when the next value would pass b (or overflow).  b - v, done
         * unsigned, is exact for any v <= b; b - step could overflow. */
        if (pow2 ? v > b / 2
                 : (unsigned long long)b - (unsigned long long)v < (unsigned long long)step)
            break;
        v = pow2 ? v * 2 : v + step;
    }
    return 0;
}

int rb_parse_list(const char *s, long long min, long long max, long long *out,
                  size_t cap, char *err, size_t errlen)
{
    if (!s || !*s) {
        snprintf(err, errlen, "empty list");
        return RB_EINVAL;
    }
    char *copy = strdup(s);
    if (!copy) {
        snprintf(err, errlen, "out of memory");
        return RB_EINVAL;
    }
    size_t n = 0;
    int rc = 0;
    char *save = NULL;
    if (copy[0] == ',' || copy[strlen(copy) - 1] == ',' || strstr(copy, ",,")) {
        snprintf(err, errlen, "'%s' has an empty item", s);
        rc = RB_EINVAL;
    }
    for (char *tok = strtok_r(copy, ",", &save); !rc && tok; tok = strtok_r(NULL, ",", &save))
        rc = parse_item(tok, min, max, out, cap, &n, err, errlen);
    free(copy);
    return rc ? rc : (int)n;
}

int rb_parse_seconds(const char *s, double *out, char *err, size_t errlen)
{
    char *end;
    if (!s || !*s || isspace((unsigned char)*s)) {
        snprintf(err, errlen, "'%s' is not a number of seconds", s ? s : "");
        return RB_EINVAL;
    }
    errno = 0;
    double v = strtod(s, &end);
    if (*end != '\0' || errno == ERANGE || !(v > 0) || v > 1e6) {
        snprintf(err, errlen, "'%s' is not a number of seconds in (0, 1e6]", s);
        return RB_EINVAL;
    }
    *out = v;
    return 0;
}
