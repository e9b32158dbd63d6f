/* SPDX-License-Identifier: MIT */
/* The stand-alone programs' error line and integer options. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include "harness/cli/prog.h"

int rb_prog_complain(const char *prog, int status, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "%s: ", prog);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    return status;
}

int rb_prog_parse_int(const char *prog, const char *opt, const char *val, long long lo,
                      long long hi, long long *out)
{
    char *end;
    errno = 0;
    long long v = strtoll(val, &end, 10);
    if (errno || end == val || *end || v < lo || v > hi)
        return rb_prog_complain(prog, 2, "%s: '%s' is not an integer in %lld..%lld", opt, val,
                                lo, hi);
    *out = v;
    return 0;
}
